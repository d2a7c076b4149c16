"""Generate the rule reference pages ``docs/rules/*.md`` from the catalog under ``rules/``.

    python -m flake8_dllog.docgen            # (re)write docs/rules/
    python -m flake8_dllog.docgen --check    # exit 1 and list the pages that drifted

The YAML catalog is the single source of truth; the pages are generated so that
``dllog explain``, the SARIF help text and the docs never disagree. A test runs ``--check``.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .catalog import Catalog, Rule, load_catalog

HEADER = "<!-- Generated from rules/{source} by `python -m flake8_dllog.docgen`; do not edit by hand. -->\n"


def default_out_dir() -> Path:
    return Path(__file__).resolve().parent.parent / "docs" / "rules"


def render_rule(rule: Rule) -> str:
    default = "on" if rule.default else f'off (enable with `extend-select = ["{rule.code}"]`)'
    meta = [
        "| | |",
        "|---|---|",
        f"| Code | `{rule.code}` |",
        f"| Name | `{rule.name}` |",
        f"| Phase | {rule.phase} |",
        f"| Default | {default} |",
        f"| Severity | {rule.severity} |",
        f"| Message | {rule.message} |",
        f"| Fix | {'`dllog fix` inserts the logging' if rule.fixable else 'none (report only)'} |",
    ]
    body = rule.docs_markdown.split("\n", 1)[1].lstrip("\n")
    # Drop the "Phase: ... Default: ..." line of docs_markdown: the table above says it.
    if body.startswith("Phase:"):
        body = body.split("\n", 1)[1].lstrip("\n")
    silence = (
        "## Silencing\n\n"
        f"One line: `# noqa: {rule.code}`. A file or directory: "
        f"`per-file-ignores = {{ \"scripts/*\" = [\"{rule.code}\"] }}` under `[tool.dllog]`. "
        f"Everywhere: `ignore = [\"{rule.code}\"]`. See [configuration](../configuration.md).\n"
    )
    return (
        HEADER.format(source=f"{rule.code}.yaml")
        + f"# {rule.code} {rule.name}\n\n"
        + "\n".join(meta)
        + "\n\n"
        + body.rstrip("\n")
        + "\n\n"
        + silence
    )


def render_index(catalog: Catalog) -> str:
    lines = [
        HEADER.format(source="DLL*.yaml"),
        "# Rules\n",
        "Every rule, with its pipeline phase and whether it is on by default. "
        "`dllog rules` prints the same list; `dllog explain CODE` prints a page.\n",
        "| code | name | phase | default | message |",
        "|---|---|---|---|---|",
    ]
    for rule in sorted(catalog.rules.values(), key=lambda r: r.code):
        lines.append(
            f"| [{rule.code}]({rule.code}.md) | `{rule.name}` | {rule.phase} | {'on' if rule.default else 'off'} | {rule.message} |"
        )
    lines.append(
        "\n`DLL001` (not a rule) is reported for a file that could not be decoded or parsed, "
        "like flake8's `E999`; `DLL002` for an invalid configuration seen from the flake8 plugin.\n"
    )
    return "\n".join(lines)


def expected_pages(catalog: Catalog | None = None) -> dict[str, str]:
    """File name (under docs/rules/) -> expected content."""
    catalog = catalog or load_catalog()
    pages = {f"{rule.code}.md": render_rule(rule) for rule in catalog.rules.values()}
    pages["README.md"] = render_index(catalog)
    return pages


def drift(out_dir: Path, catalog: Catalog | None = None) -> list[str]:
    """Pages that are missing, stale, or left over from a removed rule."""
    pages = expected_pages(catalog)
    problems = []
    for name, text in sorted(pages.items()):
        path = out_dir / name
        if not path.is_file():
            problems.append(f"{path}: missing")
        elif path.read_text(encoding="utf-8") != text:
            problems.append(f"{path}: out of date")
    if out_dir.is_dir():
        for path in sorted(out_dir.glob("DLL*.md")):
            if path.name not in pages:
                problems.append(f"{path}: no rule {path.stem} in rules/")
    return problems


def write(out_dir: Path, catalog: Catalog | None = None) -> list[Path]:
    pages = expected_pages(catalog)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in sorted(pages.items()):
        path = out_dir / name
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8", newline="\n")
            written.append(path)
    for path in sorted(out_dir.glob("DLL*.md")):
        if path.name not in pages:
            path.unlink()
            written.append(path)
    return written


def catalog_from(rules: Path) -> Catalog:
    """A catalog read from another rules directory (e.g. the committed HEAD's, extracted)."""
    from .catalog import Vocabulary, _load_yaml, _parse_rule

    loaded = {}
    for path in sorted(Path(rules).glob("DLL*.yaml")):
        rule = _parse_rule(path, _load_yaml(path))
        loaded[rule.code] = rule
    return Catalog(rules=loaded, vocabulary=Vocabulary({}))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m flake8_dllog.docgen", description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="do not write; exit 1 if docs/rules/ drifted from rules/")
    parser.add_argument("--out", type=Path, default=None, help="output directory (default: docs/rules/ of the checkout)")
    parser.add_argument("--rules", type=Path, default=None, help="read the rules from this directory instead of the catalog")
    ns = parser.parse_args(argv)
    out_dir = ns.out or default_out_dir()
    catalog = catalog_from(ns.rules) if ns.rules else None
    if ns.check:
        problems = drift(out_dir, catalog)
        for p in problems:
            print(p)
        if problems:
            print("run `python -m flake8_dllog.docgen` to regenerate", file=sys.stderr)
        return 1 if problems else 0
    for path in write(out_dir, catalog):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
