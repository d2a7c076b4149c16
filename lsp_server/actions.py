"""Code-action helpers that need no server state: noqa comments, whole-file diffs, fix
API access (flake8_dllog.fixes, imported lazily so the server runs without it)."""
from __future__ import annotations

import importlib
import re
from typing import Any

from flake8_dllog.engine import CODE_SPLIT_RE, NOQA_RE
from flake8_dllog.findings import Finding

from .positions import split_lines

FIX_ALL_KIND = "source.fixAll.dllog"


def fixes_module():
    """flake8_dllog.fixes, or None while it is not installed/importable."""
    try:
        module = importlib.import_module("flake8_dllog.fixes")
    except Exception:
        return None
    if not all(hasattr(module, name) for name in ("fixes_for_finding", "fix_source")):
        return None
    return module


def kind_allowed(kind: str, only: list[str] | None) -> bool:
    """LSP semantics of ``context.only``: a kind matches itself and its sub-kinds."""
    if not only:
        return True
    for want in only:
        want = str(want)
        if not want:
            continue
        if kind == want or kind.startswith(want + "."):
            return True
    return False


_TRAILING_BACKSLASH = re.compile(r"\\\s*$")


def noqa_edit(line_text: str, code: str) -> tuple[int, int, str] | None:
    """How to add ``# noqa: CODE`` to one line: (start col, end col, new text) in code
    points, or None when the line cannot carry it (already suppressed, continuation)."""
    matches = list(NOQA_RE.finditer(line_text))
    for m in reversed(matches):
        codes = m.group("codes")
        if not codes:
            return None  # a bare `# noqa` already silences everything
        existing = [c for c in CODE_SPLIT_RE.split(codes.upper()) if c]
        if any(code.startswith(c) for c in existing):
            return None
        end = m.end("codes")
        return end, end, f",{code}"
    if _TRAILING_BACKSLASH.search(line_text) and "#" not in line_text:
        return None
    stripped = len(line_text.rstrip())
    return stripped, len(line_text), f"  # noqa: {code}"


def whole_text_edit(old: str, new: str) -> tuple[int, int, int, int, str] | None:
    """One edit turning ``old`` into ``new``, spanning only the changed lines:
    (start line0, start col, end line0, end col, text), code points; None if equal."""
    if old == new:
        return None
    old_lines = old.splitlines(True)
    new_lines = new.splitlines(True)
    prefix = 0
    limit = min(len(old_lines), len(new_lines))
    while prefix < limit and old_lines[prefix] == new_lines[prefix]:
        prefix += 1
    suffix = 0
    while (
        suffix < limit - prefix
        and old_lines[len(old_lines) - 1 - suffix] == new_lines[len(new_lines) - 1 - suffix]
    ):
        suffix += 1
    replacement = "".join(new_lines[prefix: len(new_lines) - suffix])
    # Express the end as a position in `old`: line index of the first unchanged suffix line.
    end_index = len(old_lines) - suffix
    start = _position_of_line(old, old_lines, prefix)
    end = _position_of_line(old, old_lines, end_index)
    return start[0], start[1], end[0], end[1], replacement


def _position_of_line(text: str, lines_with_ends: list[str], index: int) -> tuple[int, int]:
    """(line0, col) of the start of keepends-line ``index``, in LSP line numbering."""
    # str.splitlines breaks at more characters than LSP does; count LSP lines explicitly.
    offset = sum(len(line) for line in lines_with_ends[:index])
    before = text[:offset]
    lsp_lines = split_lines(before)
    return len(lsp_lines) - 1, len(lsp_lines[-1])


def finding_from_data(data: Any) -> Finding | None:
    """Rebuild a Finding from a diagnostic's ``data`` (what the server put there)."""
    if not isinstance(data, dict):
        return None
    raw = data.get("finding")
    if not isinstance(raw, dict):
        return None
    try:
        return Finding(
            code=str(raw["code"]),
            message=str(raw.get("message", "")),
            line=int(raw["line"]),
            column=int(raw["column"]),
            end_line=int(raw["end_line"]),
            end_column=int(raw["end_column"]),
            path=str(raw.get("path", "")),
            severity=str(raw.get("severity", "warning")),
            fixable=bool(raw.get("fixable", False)),
            context=dict(raw.get("context") or {}),
        )
    except (KeyError, TypeError, ValueError):
        return None
