"""`dllog check / explain / rules` as a user runs them: a real subprocess each time."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from cli_helpers import assert_no_traceback, dllog
from flake8_dllog.catalog import load_catalog

CATALOG = load_catalog()

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
UNICODE_HEADER = '    for x, y in zip("日本語🔥", loader)'
UNICODE_TRAIN = TRAIN.replace("    for x, y in loader", UNICODE_HEADER)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "a_train.py").write_text(TRAIN, encoding="utf-8")
    (tmp_path / "b_train.py").write_text(TRAIN, encoding="utf-8")
    (tmp_path / "clean.py").write_text("def f():\n    return 1\n", encoding="utf-8")
    (tmp_path / "broken.py").write_text("def f(:\n", encoding="utf-8")
    return tmp_path


def test_text_format_is_flake8_shaped(tree):
    r = dllog("check", "--select", "DLL100", ".", cwd=tree)
    assert_no_traceback(r)
    assert r.returncode == 1
    assert r.lines == [
        "a_train.py:5:5: DLL100 training loop logs nothing (no loss, no progress)",
        "b_train.py:5:5: DLL100 training loop logs nothing (no loss, no progress)",
        "broken.py:1:7: DLL001 file could not be parsed: invalid syntax",
    ]
    assert r.stderr == ""


def test_json_format_fields(tree):
    r = dllog("check", "--format", "json", "--select", "DLL100", ".", cwd=tree)
    assert r.returncode == 1
    data = r.json
    assert isinstance(data, list) and len(data) == 3
    required = {"path", "line", "column", "end_line", "end_column", "code", "message", "fixable"}
    for item in data:
        assert required <= set(item), item
        assert isinstance(item["line"], int) and isinstance(item["column"], int)
        assert isinstance(item["fixable"], bool)
    first = data[0]
    assert (first["path"], first["line"], first["column"], first["code"]) == ("a_train.py", 5, 5, "DLL100")
    # The range is the loop header `for x, y in loader`, not its body.
    assert (first["end_line"], first["end_column"]) == (5, len("    for x, y in loader") + 1)
    assert first["message"] == CATALOG.rules["DLL100"].message
    assert data[2]["code"] == "DLL001" and data[2]["fixable"] is False


def test_json_of_a_clean_tree_is_an_empty_list(tmp_path):
    (tmp_path / "clean.py").write_text("x = 1\n", encoding="utf-8")
    r = dllog("check", "--format", "json", ".", cwd=tmp_path)
    assert (r.returncode, r.json) == (0, [])


def test_columns_are_code_points(tmp_path):
    # The end of the loop header comes after non-ASCII text: columns count code points
    # (flake8's convention), not UTF-8 bytes.
    (tmp_path / "u.py").write_text(UNICODE_TRAIN, encoding="utf-8")
    js = dllog("check", "--format", "json", "--select", "DLL100", "u.py", cwd=tmp_path).json
    assert [(f["line"], f["column"], f["end_line"], f["end_column"]) for f in js] == [(5, 5, 5, len(UNICODE_HEADER) + 1)]


def test_github_format(tree):
    r = dllog("check", "--format", "github", "--select", "DLL100", "a_train.py", cwd=tree)
    assert r.returncode == 1
    assert r.lines[0].startswith("::warning file=a_train.py,line=5,endLine=5,col=5,")
    assert r.lines[0].endswith("::DLL100 training loop logs nothing (no loss, no progress)")


def test_output_file(tree):
    r = dllog("check", "--select", "DLL100", "-o", "report.txt", "a_train.py", cwd=tree)
    assert r.returncode == 1 and r.stdout == ""
    assert (tree / "report.txt").read_text(encoding="utf-8").startswith("a_train.py:5:5: DLL100")


def test_statistics(tree):
    r = dllog("check", "--select", "DLL100", "--statistics", ".", cwd=tree)
    assert r.returncode == 1
    stats = [line for line in r.lines if not line.startswith(("a_train", "b_train", "broken"))]
    assert stats == [
        "1     DLL001 file could not be parsed: invalid syntax",
        "2     DLL100 training loop logs nothing (no loss, no progress)",
    ]


def test_exit_zero(tree):
    r = dllog("check", "--exit-zero", ".", cwd=tree)
    assert r.returncode == 0 and len(r.lines) >= 3


def test_exit_codes_clean_and_findings(tree):
    assert dllog("check", "clean.py", cwd=tree).returncode == 0
    assert dllog("check", "a_train.py", cwd=tree).returncode == 1
    assert dllog("check", "broken.py", cwd=tree).returncode == 1
    assert dllog("check", "--ignore", "DLL", "a_train.py", cwd=tree).returncode == 0


@pytest.mark.parametrize(
    "args",
    [
        ["check", "--select", "E501"],
        ["check", "--ignore", "DLL1000"],
        ["check", "--format", "xml"],
        ["check", "-j", "-1"],
        ["check", "-j", "many"],
        ["check", "missing_dir"],
        ["nosuchcommand"],
        [],
    ],
)
def test_usage_errors_exit_2(tree, args):
    r = dllog(*args, cwd=tree)
    assert_no_traceback(r)
    assert r.returncode == 2, (args, r.stdout, r.stderr)


def test_jobs_give_identical_output(tmp_path):
    for i in range(40):
        (tmp_path / f"m{i:02d}.py").write_text(TRAIN if i % 3 == 0 else "x = 1\n", encoding="utf-8")
    (tmp_path / "m99.py").write_text("def f(:\n", encoding="utf-8")
    one = dllog("check", "-j", "1", ".", cwd=tmp_path)
    two = dllog("check", "-j", "2", ".", cwd=tmp_path)
    default = dllog("check", ".", cwd=tmp_path)
    assert one.returncode == two.returncode == default.returncode == 1
    assert one.stdout == two.stdout == default.stdout
    assert len([line for line in one.lines if " DLL100 " in line]) == 14


def test_no_progress_bar_when_not_a_tty(tmp_path):
    for i in range(250):
        (tmp_path / f"m{i:03d}.py").write_text("x = 1\n", encoding="utf-8")
    r = dllog("check", ".", cwd=tmp_path)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")


def test_select_off_by_default_rule_explicitly(tmp_path):
    (tmp_path / "t.py").write_text(TRAIN, encoding="utf-8")
    r = dllog("check", "--select", "DLL5", "t.py", cwd=tmp_path)
    codes = {line.split()[1] for line in r.lines}
    assert "DLL502" not in codes  # a prefix selects the default-on rules only
    r = dllog("check", "--select", "DLL502", "t.py", cwd=tmp_path)
    assert r.returncode in (0, 1)


def test_check_tests_flag(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_fit.py").write_text(TRAIN, encoding="utf-8")
    assert dllog("check", ".", cwd=tmp_path).returncode == 0
    r = dllog("check", "--check-tests", "--select", "DLL100", ".", cwd=tmp_path)
    assert r.returncode == 1 and " DLL100 " in r.stdout


# -- explain / rules ---------------------------------------------------------------------


@pytest.mark.parametrize("code", sorted(CATALOG.rules))
def test_explain_prints_the_docs(code):
    r = dllog("explain", code)
    assert r.returncode == 0, r.stderr
    rule = CATALOG.rules[code]
    assert r.stdout.startswith(f"# {code} {rule.name}\n")
    for heading in ("## What it does", "## Why is this bad?", "## Example", "## Use instead"):
        assert heading in r.stdout
    assert rule.example.strip().splitlines()[0] in r.stdout


def test_explain_is_case_insensitive_and_rejects_unknown_codes():
    assert dllog("explain", "dll100").returncode == 0
    r = dllog("explain", "DLL999")
    assert r.returncode == 2 and r.stdout == "" and "unknown rule" in r.stderr


def test_rules_lists_every_rule_with_on_off():
    r = dllog("rules")
    assert r.returncode == 0
    listed = {line.split()[0]: line.split()[1] for line in r.lines}
    assert set(listed) == set(CATALOG.rules)
    for code, rule in CATALOG.rules.items():
        assert listed[code] == ("on" if rule.default else "off")
    assert {c for c, v in listed.items() if v == "off"} == {"DLL102", "DLL502", "DLL601"}


def test_rules_json():
    r = dllog("rules", "--format", "json")
    data = json.loads(r.stdout)
    assert {d["code"] for d in data} == set(CATALOG.rules)
    assert all({"code", "name", "default", "severity", "message"} <= set(d) for d in data)


def test_version_and_help():
    r = dllog("--version")
    assert r.returncode == 0 and r.stdout.startswith("dllog ")
    r = dllog("check", "--help")
    assert r.returncode == 0 and "--statistics" in r.stdout


def test_examples_match_expected_findings(repo_root: Path):
    # examples/expected_findings.txt is reviewed by hand, line by line (examples/README.md).
    expected = (repo_root / "examples" / "expected_findings.txt").read_text(encoding="utf-8")
    r = dllog("check", "examples/", cwd=repo_root)
    assert r.returncode == 1
    assert r.stdout == expected
