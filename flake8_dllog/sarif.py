"""SARIF 2.1.0 output (`dllog check --format sarif`), for GitHub code scanning and other viewers.

One run, one tool driver listing every rule of the catalog (id, name, short and full
description, help text and URI, default level and whether it is on by default), and one
result per finding with its location and, when the fix API can compute one, the fix as SARIF
``fixes`` (artifact changes with replacements).

Positions: a :class:`~flake8_dllog.findings.Finding` has 1-based lines and 0-based columns in
Unicode code points; SARIF columns are 1-based. The run declares
``columnKind: unicodeCodePoints`` so consumers do not read them as UTF-16 units.
"""
from __future__ import annotations

import os
from pathlib import Path, PurePosixPath
from typing import Any, Iterable, Sequence
from urllib.parse import quote

from . import __version__
from .catalog import Catalog, Rule, load_catalog
from .findings import Finding

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
INFORMATION_URI = "https://github.com/dllog/dllog"
SRCROOT = "%SRCROOT%"

# dllog severities -> SARIF result levels.
LEVELS = {"error": "error", "warning": "warning", "information": "note", "hint": "note"}

# Codes the engine emits that are not rules of the catalog (bad input, bad configuration).
PSEUDO_RULES = {
    "DLL001": ("file-could-not-be-checked", "A file could not be decoded or parsed, so it was not checked.", "error"),
    "DLL002": ("invalid-configuration", "The dllog configuration governing this file is invalid.", "error"),
}


def sarif_level(severity: str) -> str:
    return LEVELS.get(severity, "warning")


def _first_sentence(text: str) -> str:
    text = " ".join(text.split())
    for end in (". ", ".\n"):
        idx = text.find(end)
        if idx != -1:
            return text[: idx + 1]
    return text


def rule_descriptor(rule: Rule) -> dict[str, Any]:
    full = " ".join(rule.what.split())
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.message[:1].upper() + rule.message[1:]},
        "fullDescription": {"text": full},
        "help": {
            "text": f"{full}\n\nWhy: {' '.join(rule.why.split())}",
            "markdown": rule.docs_markdown,
        },
        "helpUri": rule.docs_url,
        "defaultConfiguration": {"level": sarif_level(rule.severity), "enabled": bool(rule.default)},
        "properties": {"tags": ["logging", "deep-learning", rule.phase], "phase": rule.phase},
    }


def _pseudo_descriptor(code: str) -> dict[str, Any]:
    name, text, severity = PSEUDO_RULES[code]
    return {
        "id": code,
        "name": name,
        "shortDescription": {"text": text},
        "fullDescription": {"text": text},
        "helpUri": f"{INFORMATION_URI}/blob/main/docs/cli.md",
        "defaultConfiguration": {"level": sarif_level(severity), "enabled": True},
        "properties": {"tags": ["dllog"]},
    }


def artifact_uri(path: str, root: Path) -> tuple[str, str | None]:
    """A URI for ``path``: relative to ``root`` (with uriBaseId) when it lies under it."""
    p = Path(path)
    try:
        absolute = p if p.is_absolute() else (root / p)
        rel = Path(os.path.normpath(absolute)).relative_to(root)
        return quote(PurePosixPath(rel.as_posix()).as_posix(), safe="/-._~"), SRCROOT
    except ValueError:
        return Path(os.path.normpath(p)).absolute().as_uri(), None


def _location(uri: str, base: str | None) -> dict[str, Any]:
    loc: dict[str, Any] = {"uri": uri}
    if base:
        loc["uriBaseId"] = base
    return loc


def _region(f: Finding) -> dict[str, Any]:
    line = max(1, f.line)
    end_line = max(line, f.end_line or line)
    start_col = max(0, f.column) + 1
    end_col = max(0, f.end_column) + 1
    if end_line == line and end_col < start_col:
        end_col = start_col
    return {"startLine": line, "startColumn": start_col, "endLine": end_line, "endColumn": end_col}


def _read_source(path: str) -> str | None:
    from .engine import SourceError, decode_source

    try:
        with open(path, "rb") as fh:
            return decode_source(fh.read())
    except (OSError, SourceError):
        return None


def sarif_fixes(finding: Finding, source: str, uri: str, base: str | None) -> list[dict[str, Any]]:
    """SARIF ``fixes`` for one finding, from the fix API (empty if it has none)."""
    try:
        from .config import config_for_path
        from .fixes import fixes_for_finding
    except ImportError:  # the fix API is optional for SARIF output
        return []
    try:
        config = config_for_path(finding.path or None)
        candidates = fixes_for_finding(source, finding, config)
    except Exception:  # a fix that cannot be computed must not break the report
        return []
    out = []
    for fix in candidates[:1]:  # the preferred fix only: viewers apply fixes[0]
        replacements = []
        for edit in fix.edits:
            replacements.append(
                {
                    "deletedRegion": {
                        "startLine": edit.start_line + 1,
                        "startColumn": edit.start_column + 1,
                        "endLine": edit.end_line + 1,
                        "endColumn": edit.end_column + 1,
                    },
                    "insertedContent": {"text": edit.new_text},
                }
            )
        if replacements:
            out.append(
                {
                    "description": {"text": fix.title},
                    "artifactChanges": [{"artifactLocation": _location(uri, base), "replacements": replacements}],
                }
            )
    return out


def to_sarif(
    findings: Sequence[Finding] | Iterable[Finding],
    *,
    catalog: Catalog | None = None,
    root: str | os.PathLike | None = None,
    with_fixes: bool = True,
    sources: dict[str, str] | None = None,
    **_: object,
) -> dict[str, Any]:
    """Build a SARIF 2.1.0 log (a JSON-ready dict) for ``findings``.

    ``root`` anchors relative artifact URIs (default: the current directory); ``sources``
    maps a finding's path to its text when the caller already has it (else it is read
    from disk, and only for fixable findings).
    """
    catalog = catalog or load_catalog()
    root_path = Path(os.path.abspath(root or os.getcwd()))
    findings = list(findings)

    rules = [rule_descriptor(rule) for rule in sorted(catalog.rules.values(), key=lambda r: r.code)]
    for code in sorted({f.code for f in findings} - set(catalog.rules)):
        if code in PSEUDO_RULES:
            rules.append(_pseudo_descriptor(code))
        else:
            rules.append(
                {
                    "id": code,
                    "shortDescription": {"text": code},
                    "defaultConfiguration": {"level": "warning"},
                }
            )
    index = {r["id"]: i for i, r in enumerate(rules)}

    source_cache: dict[str, str | None] = dict(sources or {})
    results = []
    for f in findings:
        uri, base = artifact_uri(f.path or "<stdin>", root_path)
        result: dict[str, Any] = {
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": sarif_level(f.severity),
            "message": {"text": f.message},
            "locations": [
                {"physicalLocation": {"artifactLocation": _location(uri, base), "region": _region(f)}}
            ],
        }
        if with_fixes and f.fixable and f.path:
            if f.path not in source_cache:
                source_cache[f.path] = _read_source(f.path)
            source = source_cache[f.path]
            if source is not None:
                fixes = sarif_fixes(f, source, uri, base)
                if fixes:
                    result["fixes"] = fixes
        results.append(result)

    return {
        "$schema": SARIF_SCHEMA_URI,
        "version": SARIF_VERSION,
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "dllog",
                        "fullName": "dllog: deep-learning logging linter",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {SRCROOT: {"uri": root_path.as_uri().rstrip("/") + "/"}},
                "columnKind": "unicodeCodePoints",
                "invocations": [{"executionSuccessful": True}],
                "results": results,
            }
        ],
    }
