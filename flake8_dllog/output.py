"""Finding formatters for `dllog check --format ...`."""
from __future__ import annotations

import json
from typing import Callable, Iterable, Sequence

from .findings import Finding


def format_text(findings: Sequence[Finding], **_: object) -> str:
    # flake8's shape: 1-based line, 1-based column in the printed text.
    return "".join(f"{f.path}:{f.line}:{f.column + 1}: {f.code} {f.message}\n" for f in findings)


def finding_json(f: Finding) -> dict:
    return {
        "path": f.path,
        "line": f.line,
        "column": f.column + 1,
        "end_line": f.end_line,
        "end_column": f.end_column + 1,
        "code": f.code,
        "message": f.message,
        "severity": f.severity,
        "fixable": f.fixable,
    }


def format_json(findings: Sequence[Finding], **_: object) -> str:
    return json.dumps([finding_json(f) for f in findings], indent=2, ensure_ascii=False) + "\n"


def _gh_escape(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


GITHUB_LEVEL = {"error": "error", "warning": "warning", "information": "notice", "hint": "notice"}


def format_github(findings: Sequence[Finding], **_: object) -> str:
    """GitHub Actions workflow commands: one annotation per finding."""
    out = []
    for f in findings:
        level = GITHUB_LEVEL.get(f.severity, "warning")
        props = ",".join(
            [
                f"file={_gh_escape(f.path, True)}",
                f"line={f.line}",
                f"endLine={f.end_line}",
                f"col={f.column + 1}",
                f"endColumn={f.end_column + 1}",
                f"title={_gh_escape('dllog ' + f.code, True)}",
            ]
        )
        out.append(f"::{level} {props}::{_gh_escape(f.code + ' ' + f.message)}\n")
    return "".join(out)


def format_sarif(findings: Sequence[Finding], **kwargs: object) -> str:
    from .sarif import to_sarif  # written for issue 6; kept lazy so text runs stay lean

    return json.dumps(to_sarif(findings, **kwargs), indent=2, ensure_ascii=False) + "\n"


FORMATTERS: dict[str, Callable[..., str]] = {
    "text": format_text,
    "json": format_json,
    "github": format_github,
    "sarif": format_sarif,
}


def statistics(findings: Iterable[Finding]) -> str:
    counts: dict[str, tuple[int, str]] = {}
    for f in findings:
        n, msg = counts.get(f.code, (0, f.message))
        counts[f.code] = (n + 1, msg)
    return "".join(f"{n:<5} {code} {msg}\n" for code, (n, msg) in sorted(counts.items()))
