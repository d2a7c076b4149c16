"""Bad input never crashes or hangs `dllog check`: one clear line per bad file, the run
goes on with the next file, and the exit code says what happened.

Exit codes (issue 2): 0 clean, 1 findings (a file that could not be checked is reported as
a DLL001 finding, like flake8's E902/E999), 2 usage or configuration error.

"Unreadable file": the tests run as root on CI, and root reads a chmod-000 file anyway
(CAP_DAC_OVERRIDE). So the permission case runs `dllog` under `setpriv` with
CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH dropped from its bounding set — a real
"Permission denied" from open(2) — or, when not root, simply on a chmod-000 file.
Besides that: a FIFO named x.py (opening it would block forever), a dangling symlink,
a symlink loop, and a directory named x.py.
"""
from __future__ import annotations

import os
import shutil
import stat
import textwrap
from pathlib import Path

import pytest

from cli_helpers import assert_no_traceback, dllog
from flake8_dllog.config import Config
from flake8_dllog.engine import check_file, check_source

TRAIN = textwrap.dedent(
    """\
    import torch


    def fit(model, loader, optimizer):
        for x, y in loader:
            loss = model(x, y)
            loss.backward()
            optimizer.step()
    """
)
# DLL100 on the loop header (line 5, column 5 as printed).
TRAIN_FINDING = ":5:5: DLL100 "


def write(path: Path, data: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8")
    return path


def lines_about(run, name: str) -> list[str]:
    return [line for line in run.lines if line.startswith(name + ":") or f"/{name}:" in line]


def check_one_bad_file(tmp_path: Path, name: str, data: bytes | str):
    """The bad file plus a good training file beside it: one DLL001 line for the bad
    one, the good one still checked, exit 1, no traceback."""
    write(tmp_path / name, data)
    write(tmp_path / "good_train.py", TRAIN)
    r = dllog("check", "-j", "1", ".", cwd=tmp_path)
    assert_no_traceback(r)
    about = lines_about(r, name)
    assert len(about) == 1, r.stdout
    assert any(line.startswith("good_train.py" + TRAIN_FINDING) for line in r.lines), r.stdout
    assert r.returncode == 1, (r.returncode, r.stdout, r.stderr)
    return about[0]


# -- undecodable and unparsable sources ---------------------------------------------


def test_syntax_error_reports_dll001_at_its_line(tmp_path):
    line = check_one_bad_file(tmp_path, "broken.py", "import torch\n\ndef f(:\n    pass\n")
    assert line.startswith("broken.py:3:")
    assert " DLL001 file could not be parsed: " in line
    assert line.endswith("invalid syntax")


NOTEBOOK_EXPORT = textwrap.dedent(
    """\
    # In[1]:
    !pip install -q transformers
    %cd /content
    import torch


    # In[2]:
    %%time
    def fit(model, loader, optimizer):
        for x, y in loader:
            loss = model(x, y)
            loss.backward()
            optimizer.step()
    """
)


def test_notebook_export_with_ipython_lines_is_checked(tmp_path):
    """`!pip`, `%cd`, `%%time` lines of a notebook exported to .py are read as `pass`
    (like ruff and nbqa do): the rest is checked, at the right lines, and nothing is fixed
    (an edit could land among lines Python cannot run)."""
    write(tmp_path / "nb_export.py", NOTEBOOK_EXPORT)
    r = dllog("check", "-j", "1", ".", cwd=tmp_path)
    assert_no_traceback(r)
    assert r.lines == ["nb_export.py:10:5: DLL100 training loop logs nothing (no loss, no progress)"], r.stdout
    r = dllog("fix", ".", cwd=tmp_path)
    assert_no_traceback(r)
    assert "not fixed" in r.stdout and (tmp_path / "nb_export.py").read_text(encoding="utf-8") == NOTEBOOK_EXPORT


def test_notebook_export_that_still_does_not_parse_is_one_dll001_line(tmp_path):
    line = check_one_bad_file(tmp_path, "nb_broken.py", "!pip install torch\nimport torch\n\ndef f(:\n    pass\n")
    assert line.startswith("nb_broken.py:1:") and "DLL001 file could not be parsed" in line, line


def test_indentation_error_reports_its_line(tmp_path):
    line = check_one_bad_file(tmp_path, "indent.py", "def f():\n    x = 1\n      y = 2\n")
    assert line.startswith("indent.py:3:") and "DLL001 file could not be parsed: unexpected indent" in line


def test_non_utf8_bytes_report_the_line(tmp_path):
    line = check_one_bad_file(tmp_path, "latin.py", b"x = 1\ny = 2\nname = '\xe9t\xe9'\n")
    assert line.startswith("latin.py:3:1: DLL001 file could not be decoded as utf-8:"), line


def test_non_utf8_in_first_line(tmp_path):
    line = check_one_bad_file(tmp_path, "first.py", b"s = '\xff\xfe'\n")
    assert line.startswith("first.py:1:1: DLL001 file could not be decoded as utf-8:"), line


def test_wrong_pep263_cookie(tmp_path):
    # Declared ASCII, contains UTF-8: Python refuses it, so does dllog.
    line = check_one_bad_file(tmp_path, "cookie.py", "# -*- coding: ascii -*-\nname = 'caf\u00e9'\n".encode())
    assert line.startswith("cookie.py:2:1: DLL001 file could not be decoded as ascii:"), line


def test_unknown_pep263_encoding(tmp_path):
    line = check_one_bad_file(tmp_path, "unknown.py", b"# coding: klingon\nx = 1\n")
    assert "DLL001 file could not be decoded: unknown encoding: klingon" in line


def test_valid_latin1_cookie_is_fine(tmp_path):
    write(tmp_path / "ok_latin1.py", b"# -*- coding: latin-1 -*-\nname = '\xe9t\xe9'\n")
    r = dllog("check", "ok_latin1.py", cwd=tmp_path)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")


def test_utf8_bom_is_fine(tmp_path):
    write(tmp_path / "bom.py", b"\xef\xbb\xbf" + TRAIN.encode())
    r = dllog("check", "bom.py", cwd=tmp_path)
    assert r.returncode == 1 and len(r.lines) == 1 and r.lines[0].startswith("bom.py" + TRAIN_FINDING)


def test_nul_byte(tmp_path):
    line = check_one_bad_file(tmp_path, "nul.py", b"x = 1\ny = 2\x00\n")
    assert line.startswith("nul.py:2:") and "DLL001 file could not be parsed:" in line and "NUL" in line


def test_empty_file_is_clean(tmp_path):
    write(tmp_path / "empty.py", b"")
    write(tmp_path / "blank.py", "\n\n   \n")
    r = dllog("check", "empty.py", "blank.py", cwd=tmp_path)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")


def test_parser_limits_are_one_line_not_a_crash(tmp_path):
    # Too deep for CPython's parser: a RecursionError/SyntaxError becomes DLL001.
    write(tmp_path / "deep_attr.py", "v = model" + ".a" * 3000 + ".to(device)\n")
    write(tmp_path / "deep_parens.py", "x = " + "(" * 300 + "1" + ")" * 300 + "\n")
    # Deep but parseable: the detectors must not recurse themselves to death.
    write(tmp_path / "wide_binop.py", "import torch\nloss = " + " + ".join(["x"] * 2500) + "\n")
    nested_fors = "import torch\n" + "".join("    " * i + f"for i{i} in loader:\n" for i in range(90))
    write(tmp_path / "nested_fors.py", nested_fors + "    " * 90 + "loss.backward(); optimizer.step()\n")
    r = dllog("check", "-j", "1", ".", cwd=tmp_path)
    assert_no_traceback(r)
    assert len(lines_about(r, "deep_attr.py")) == 1 and "DLL001" in lines_about(r, "deep_attr.py")[0]
    assert len(lines_about(r, "deep_parens.py")) == 1 and "DLL001" in lines_about(r, "deep_parens.py")[0]
    assert lines_about(r, "wide_binop.py") == []
    assert any(" DLL100 " in line for line in lines_about(r, "nested_fors.py")), r.stdout
    assert r.returncode == 1


def test_engine_api_never_raises_on_bad_bytes():
    cfg = Config()
    cases = [
        b"def f(:\n",
        b"\xff\xfe\x00\x00",
        b"# coding: ascii\n\xc3\xa9 = 1\n",
        b"# coding: nope\n",
        b"x = 1\x00",
        b"",
        b"\xef\xbb\xbf",
        b"\r\n\r\n",
        b"x = '''unterminated\n",
        b"\\\n",
    ]
    for data in cases:
        result = check_source(data, "train.py", cfg)
        assert all(f.code == "DLL001" for f in result.findings), (data, result.findings)
        assert (result.error is None) == (not result.findings), data
        if result.error:
            assert "\n" not in result.error


# -- big inputs ------------------------------------------------------------------------


def test_fifty_thousand_line_file(tmp_path):
    body = "".join(f"def helper_{i}(a, b):\n    return a * {i} + b\n\n\n" for i in range(12_500))
    assert body.count("\n") == 50_000
    write(tmp_path / "big.py", body + TRAIN)
    r = dllog("check", "big.py", cwd=tmp_path, timeout=300)
    assert_no_traceback(r)
    assert r.returncode == 1
    assert r.lines == [line for line in r.lines if line.startswith("big.py:50005:5: DLL100 ")] and len(r.lines) == 1


def test_fifty_thousand_line_file_in_process():
    text = "x = 1\n" * 50_000 + TRAIN
    result = check_source(text, "train.py", Config())
    assert [(f.code, f.line) for f in result.findings] == [("DLL100", 50_005)]


def test_directory_of_twenty_thousand_files(tmp_path):
    root = tmp_path / "many"
    for i in range(20_000):
        d = root / f"pkg{i // 1000:02d}"
        if i % 1000 == 0:
            d.mkdir(parents=True)
        (d / f"mod{i:05d}.py").write_text(TRAIN if i % 1000 == 7 else "x = 1\n", encoding="utf-8")
    (root / "pkg03" / "mod03500.py").write_bytes(b"def broken(:\n")
    r = dllog("check", "-j", "2", "many", cwd=tmp_path, timeout=600)
    assert_no_traceback(r)
    assert r.returncode == 1
    dll100 = [line for line in r.lines if " DLL100 " in line]
    dll001 = [line for line in r.lines if " DLL001 " in line]
    assert len(dll100) == 20 and len(dll001) == 1 and len(r.lines) == 21, r.stdout[-2000:]
    assert dll001[0].startswith(str(Path("many/pkg03/mod03500.py")) + ":1:")
    # Sorted, deterministic output whatever the process pool did.
    assert r.lines == sorted(r.lines, key=lambda s: (s.split(":")[0], int(s.split(":")[1])))


# -- files that cannot be read -------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
def test_symlink_loops(tmp_path):
    write(tmp_path / "good_train.py", TRAIN)
    os.symlink("loop_b.py", tmp_path / "loop_a.py")
    os.symlink("loop_a.py", tmp_path / "loop_b.py")
    sub = tmp_path / "sub"
    sub.mkdir()
    os.symlink("..", sub / "up")  # a directory loop: the walk must not follow it
    os.symlink(".", sub / "here")
    r = dllog("check", "-j", "1", ".", cwd=tmp_path, timeout=120)
    assert_no_traceback(r)
    for name in ("loop_a.py", "loop_b.py"):
        about = lines_about(r, name)
        assert len(about) == 1 and "DLL001 cannot read file:" in about[0], r.stdout
        assert "symbolic links" in about[0]
    # good_train.py is reported once, not once per path through the directory links.
    assert len([line for line in r.lines if "good_train.py" in line]) == 1, r.stdout
    assert r.returncode == 1
    # Named explicitly, the loop is one line too.
    r = dllog("check", "loop_a.py", cwd=tmp_path)
    assert_no_traceback(r)
    assert len(r.lines) == 1 and r.lines[0].startswith("loop_a.py:1:1: DLL001 cannot read file:") and r.returncode == 1


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
def test_dangling_symlink(tmp_path):
    os.symlink("does_not_exist.py", tmp_path / "dangling.py")
    write(tmp_path / "good_train.py", TRAIN)
    r = dllog("check", "-j", "1", ".", cwd=tmp_path)
    assert_no_traceback(r)
    about = lines_about(r, "dangling.py")
    assert about == ["dangling.py:1:1: DLL001 cannot read file: No such file or directory"], r.stdout
    assert r.returncode == 1


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_fifo_named_py_does_not_hang(tmp_path):
    os.mkfifo(tmp_path / "pipe.py")
    write(tmp_path / "good_train.py", TRAIN)
    r = dllog("check", "-j", "1", ".", cwd=tmp_path, timeout=60)
    assert_no_traceback(r)
    assert lines_about(r, "pipe.py") == ["pipe.py:1:1: DLL001 cannot read file: not a regular file"], r.stdout
    assert r.returncode == 1
    r = dllog("check", "pipe.py", cwd=tmp_path, timeout=60)
    assert r.lines == ["pipe.py:1:1: DLL001 cannot read file: not a regular file"] and r.returncode == 1


def test_directory_named_like_a_python_file(tmp_path):
    (tmp_path / "weird.py").mkdir()
    write(tmp_path / "weird.py" / "inner_train.py", TRAIN)
    r = dllog("check", "-j", "1", ".", cwd=tmp_path)
    assert_no_traceback(r)
    assert len(r.lines) == 1 and r.lines[0].startswith(str(Path("weird.py/inner_train.py")) + TRAIN_FINDING)


def _unreadable_runner() -> list[str] | None:
    """A command prefix under which a chmod-000 file is really unreadable."""
    if os.name != "posix":
        return None
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    caps = "-dac_override,-dac_read_search"
    return [setpriv, f"--inh-caps={caps}", f"--bounding-set={caps}"]


def test_permission_denied(tmp_path):
    prefix = _unreadable_runner()
    if prefix is None:
        pytest.skip("cannot make a file unreadable for this user here")
    from cli_helpers import dllog_cmd, run

    secret = write(tmp_path / "secret.py", TRAIN)
    secret.chmod(0)
    write(tmp_path / "good_train.py", TRAIN)
    try:
        r = run(prefix + dllog_cmd() + ["check", "-j", "1", "."], cwd=tmp_path)
    finally:
        secret.chmod(stat.S_IRUSR | stat.S_IWUSR)
    if "setpriv" in r.stderr and r.returncode not in (0, 1):
        pytest.skip(f"setpriv refused here: {r.stderr.strip()}")
    assert_no_traceback(r)
    assert lines_about(r, "secret.py") == ["secret.py:1:1: DLL001 cannot read file: Permission denied"], r.stdout
    assert any(line.startswith("good_train.py" + TRAIN_FINDING) for line in r.lines)
    assert r.returncode == 1


def test_check_file_api_reports_unreadable_without_raising(tmp_path):
    os.mkfifo(tmp_path / "p.py")
    result = check_file(tmp_path / "p.py", Config())
    assert result.error == "cannot read file: not a regular file"
    result = check_file(tmp_path / "missing.py", Config())
    assert result.error and result.error.startswith("cannot read file:")


# -- exit codes ------------------------------------------------------------------------


def test_exit_codes(tmp_path):
    write(tmp_path / "clean.py", "x = 1\n")
    write(tmp_path / "train.py", TRAIN)
    assert dllog("check", "clean.py", cwd=tmp_path).returncode == 0
    assert dllog("check", "train.py", cwd=tmp_path).returncode == 1
    assert dllog("check", "--exit-zero", "train.py", cwd=tmp_path).returncode == 0
    # Usage errors: a path that does not exist (even beside a good one), an unknown option,
    # a malformed code.
    r = dllog("check", "nope.py", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.strip() == "dllog: nope.py: no such file or directory"
    r = dllog("check", "train.py", "nope.py", cwd=tmp_path)
    assert r.returncode == 2 and len(r.lines) == 1  # the findings are still printed
    assert dllog("check", "--no-such-option", cwd=tmp_path).returncode == 2
    r = dllog("check", "--select", "E501", "train.py", cwd=tmp_path)
    assert r.returncode == 2 and "E501" in r.stderr
    assert dllog(cwd=tmp_path).returncode == 2


def test_stdin_is_not_read(tmp_path):
    # `dllog check` with no paths checks "." and never blocks on standard input.
    write(tmp_path / "train.py", TRAIN)
    r = dllog("check", cwd=tmp_path, timeout=60)
    assert r.returncode == 1 and r.lines[0].startswith("train.py" + TRAIN_FINDING)


def test_never_writes_files(tmp_path):
    write(tmp_path / "train.py", TRAIN)
    write(tmp_path / "broken.py", "def f(:\n")
    before = {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*")}
    dllog("check", ".", cwd=tmp_path)
    after = {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*")}
    assert before == after


def test_a_detector_bug_is_one_line_for_that_file_and_the_other_rules_still_run(monkeypatch):
    from flake8_dllog import detectors

    def broken(facts, config):
        raise KeyError("boom")
        yield  # a generator, as the real detectors are

    monkeypatch.delenv("DLLOG_DEBUG", raising=False)
    monkeypatch.setitem(detectors.REGISTRY, "DLL101", broken)
    result = check_source(TRAIN, "train.py", Config())
    errors = [f for f in result.findings if f.code == "DLL001"]
    assert len(errors) == 1
    assert "internal error in the DLL101 detector (KeyError" in errors[0].message
    assert "\n" not in errors[0].message
    assert any(f.code not in ("DLL001", "DLL101") for f in result.findings)  # the others ran
    monkeypatch.setenv("DLLOG_DEBUG", "1")
    with pytest.raises(KeyError):
        check_source(TRAIN, "train.py", Config())


def test_colab_automagic_pip_line_is_read_as_pass(tmp_path):
    """Colab runs `pip install -q keras` without the `!`; an export keeps the line. The rest
    of the file is checked at the right lines."""
    source = (
        '"""Untitled0.ipynb\n\nAutomatically generated by Colab.\n"""\n'
        "pip install -q keras\n"
        "import torch\n"
        "for x in data:\n"
        "    loss = model(x).sum()\n"
        "    loss.backward()\n"
        "    opt.step()\n"
    )
    write(tmp_path / "colab.py", source)
    r = dllog("check", "-j", "1", "--select", "DLL100", ".", cwd=tmp_path)
    assert_no_traceback(r)
    assert r.lines == ["colab.py:7:1: DLL100 training loop logs nothing (no loss, no progress)"], r.stdout
