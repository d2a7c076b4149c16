"""The flake8 face: flake8 itself, as a real subprocess, with the DLL plugin installed.

`flake8 --select DLL` and `dllog check` are two faces of one engine: on the same files
they print the same findings (flake8 prints columns 1-based, as dllog's text format does).
"""
from __future__ import annotations

import shutil
import subprocess
import textwrap
from pathlib import Path

from cli_helpers import BIN, dllog, finding_keys, flake8

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


def full_lines(text: str) -> list[str]:
    return sorted(line for line in text.splitlines() if line.strip())


def test_plugin_is_registered():
    r = flake8("--version")
    assert r.returncode == 0
    assert "flake8-dllog" in r.stdout, r.stdout


def test_flake8_and_dllog_agree_on_examples(repo_root: Path):
    ours = dllog("check", "examples", cwd=repo_root)
    theirs = flake8("--select", "DLL", "examples", cwd=repo_root)
    assert theirs.returncode == ours.returncode == 1, (theirs.stdout, theirs.stderr)
    assert ours.lines, "examples/ must show findings"
    # Same path, line, column, code and message.
    assert full_lines(ours.stdout) == full_lines(theirs.stdout)


def test_flake8_jobs_and_dllog_jobs_agree(repo_root: Path):
    ours = dllog("check", "-j", "2", "examples", cwd=repo_root)
    theirs = flake8("-j", "2", "--select", "DLL", "examples", cwd=repo_root)
    assert full_lines(ours.stdout) == full_lines(theirs.stdout)


def test_flake8_and_dllog_agree_on_a_generated_tree(tmp_path):
    (tmp_path / "pkg").mkdir()
    for i in range(12):
        (tmp_path / "pkg" / f"m{i}.py").write_text(TRAIN if i % 2 else "x = 1\n", encoding="utf-8")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_m.py").write_text(TRAIN, encoding="utf-8")  # silent in both
    ours = dllog("check", ".", cwd=tmp_path)
    theirs = flake8("--select", "DLL", ".", cwd=tmp_path)
    assert finding_keys(ours.stdout) == finding_keys(theirs.stdout.replace("./", ""))
    assert len(ours.lines) == 6


def test_flake8_reads_the_project_config(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.dllog]\nignore = ["DLL100"]\n', encoding="utf-8")
    (tmp_path / "train.py").write_text(TRAIN, encoding="utf-8")
    theirs = flake8("--select", "DLL100", "train.py", cwd=tmp_path)
    assert (theirs.returncode, theirs.stdout) == (0, "")


def test_flake8_select_and_other_plugins_coexist(tmp_path):
    (tmp_path / "train.py").write_text("import os\n" + TRAIN, encoding="utf-8")
    r = flake8("--select", "F401,DLL100", "train.py", cwd=tmp_path)
    codes = sorted(line.split()[1] for line in r.lines)
    assert codes == ["DLL100", "F401", "F401"], r.stdout  # os and torch unused


def test_flake8_stdin(tmp_path):
    exe = BIN / "flake8"
    cmd = [str(exe)] if exe.exists() else [shutil.which("flake8") or "flake8"]
    proc = subprocess.run(
        cmd + ["--isolated", "--select", "DLL100", "-"],
        input=TRAIN,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert proc.stdout.strip() == "stdin:5:5: DLL100 training loop logs nothing (no loss, no progress)", proc.stderr


def test_flake8_syntax_error_is_e999_not_a_crash(tmp_path):
    # flake8 owns parse errors (E999); dllog's own CLI says DLL001 at the same line.
    (tmp_path / "broken.py").write_text("x = 1\ndef f(:\n", encoding="utf-8")
    theirs = flake8("--select", "E999,DLL", "broken.py", cwd=tmp_path)
    ours = dllog("check", "broken.py", cwd=tmp_path)
    assert "Traceback" not in theirs.stderr
    assert theirs.lines[0].startswith("broken.py:2:") and " E999 " in theirs.lines[0]
    assert ours.lines[0].startswith("broken.py:2:") and " DLL001 " in ours.lines[0]
