"""The docs stay true: rule pages match rules/, links resolve, examples parse and run."""
from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from flake8_dllog import docgen
from flake8_dllog.catalog import load_catalog
from flake8_dllog.cli import build_parser
from flake8_dllog.config import _KEYS, parse_config

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
FENCE_RE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
LINK_RE = re.compile(r"\]\(([^)\s]+)\)")


def blocks(page: str, lang: str) -> list[str]:
    return [body for kind, body in FENCE_RE.findall((DOCS / page).read_text(encoding="utf-8")) if kind == lang]


def test_rule_pages_match_the_catalog():
    problems = docgen.drift(DOCS / "rules")
    assert not problems, "docs/rules drifted from rules/; run `python -m flake8_dllog.docgen`:\n" + "\n".join(problems)


def test_docgen_check_detects_drift(tmp_path: Path):
    out = tmp_path / "rules"
    assert docgen.main(["--out", str(out)]) == 0
    assert docgen.main(["--check", "--out", str(out)]) == 0
    assert docgen.main(["--check", "--out", str(out), "--rules", str(ROOT / "rules")]) == 0
    page = out / "DLL200.md"
    page.write_text(page.read_text(encoding="utf-8") + "edited by hand\n", encoding="utf-8")
    (out / "DLL999.md").write_text("# stale\n", encoding="utf-8")
    problems = docgen.drift(out)
    assert any("DLL200.md: out of date" in p for p in problems)
    assert any("DLL999.md: no rule" in p for p in problems)
    proc = subprocess.run([sys.executable, "-m", "flake8_dllog.docgen", "--check", "--out", str(out)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "DLL200.md" in proc.stdout


def test_every_rule_has_a_page_at_its_docs_url():
    catalog = load_catalog()
    for code, rule in catalog.rules.items():
        page = DOCS / "rules" / f"{code}.md"
        assert page.is_file()
        assert rule.docs_url.endswith(f"docs/rules/{code}.md")
        text = page.read_text(encoding="utf-8")
        assert rule.name in text and " ".join(rule.what.split())[:60] in " ".join(text.split())
    index = (DOCS / "rules" / "README.md").read_text(encoding="utf-8")
    assert all(f"[{code}]({code}.md)" in index for code in catalog.rules)


@pytest.mark.parametrize("page", sorted(p.name for p in DOCS.glob("*.md")) + ["rules/README.md"])
def test_relative_links_resolve(page: str):
    path = DOCS / page
    for target in LINK_RE.findall(path.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        file_part = target.split("#", 1)[0]
        assert (path.parent / file_part).exists(), f"{page}: broken link {target}"


def test_one_page_per_face():
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    for page in ("cli.md", "flake8.md", "editors.md", "vscode.md", "pre-commit.md", "ci.md", "configuration.md", "report.md"):
        assert f"({page})" in index, f"docs/README.md does not link {page}"
    for page in ("cli.md", "flake8.md", "pre-commit.md", "ci.md", "configuration.md", "report.md"):
        assert (DOCS / page).is_file(), page


def test_configuration_reference_covers_every_key_and_category():
    text = (DOCS / "configuration.md").read_text(encoding="utf-8")
    for key in _KEYS:
        assert f"| `{key}` |" in text, f"configuration.md does not document `{key}`"
    for category in load_catalog().vocabulary.entries:
        assert f"`{category}`" in text, f"configuration.md does not list vocabulary category `{category}`"


def test_configuration_examples_are_valid():
    (toml_block,) = blocks("configuration.md", "toml")
    data = tomllib.loads(toml_block)["tool"]["dllog"]
    cfg = parse_config(data, "docs/configuration.md")
    assert "DLL102" in cfg.enabled_codes("x.py") and "DLL601" not in cfg.enabled_codes("x.py")
    assert cfg.window == 5 and cfg.backend == "loguru" and cfg.print_is_logging is False
    (yaml_block,) = blocks("configuration.md", "yaml")
    cfg2 = parse_config(yaml.safe_load(yaml_block), "docs/configuration.md")
    assert cfg2.window == 5 and cfg2.backend == "loguru"


def _dllog_commands(text: str) -> list[str]:
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("run: dllog "):
            out.append(line[len("run: "):])
    return out


def test_github_actions_example_is_valid():
    (workflow,) = blocks("ci.md", "yaml")
    data = yaml.safe_load(workflow)
    steps = data["jobs"]["dllog"]["steps"]
    assert any(s.get("uses", "").startswith("github/codeql-action/upload-sarif") for s in steps)
    commands = _dllog_commands(workflow)
    assert {"--format github", "--format sarif"} <= {c for cmd in commands for c in ("--format github", "--format sarif") if c in cmd}
    parser = build_parser()
    for cmd in commands:
        ns = parser.parse_args(shlex.split(cmd)[1:])
        assert callable(ns.func), cmd


def test_cli_page_covers_every_subcommand_and_check_option():
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    for name, subparser in sub.choices.items():
        assert f"dllog {name}" in text, f"cli.md does not document `dllog {name}`"
    for action in sub.choices["check"]._actions:
        opts = [o for o in action.option_strings if o not in ("-h", "--help")]
        if opts:
            assert any(f"`{o}" in text for o in opts), f"cli.md does not document `dllog check {opts[0]}`"
    for fmt in ("text", "json", "sarif", "github"):
        assert f"--format {fmt}" in text


def test_pre_commit_page_matches_the_hooks():
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    ids = {h["id"] for h in hooks}
    assert ids == {"dllog", "dllog-fix"}
    for h in hooks:
        assert h["types"] == ["python"] and h["language"] == "python"
        assert h["entry"].split()[0] == "dllog"
    configs = [yaml.safe_load(b) for b in blocks("pre-commit.md", "yaml")]
    used = {hook["id"] for c in configs for repo in c["repos"] for hook in repo["hooks"]}
    assert {"dllog", "dllog-fix"} <= used
    flake8_repo = [r for c in configs for r in c["repos"] if "flake8" in r["repo"]]
    assert flake8_repo and flake8_repo[0]["hooks"][0]["additional_dependencies"] == ["flake8-dllog"]
