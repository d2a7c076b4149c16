"""Text positions and edits: 0-based lines, code-point columns (the LSP converts to UTF-16).

Lines are split on the newlines Python's tokenizer knows (``\\r\\n``, ``\\r``, ``\\n``) and
nothing else, so line numbers agree with ``ast`` even when a file holds form feeds or
``\\u2028``; every other byte of the file is left as it was.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_LINE_RE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
_NEWLINE_RE = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True, order=True)
class TextEdit:
    """Replace the range [start, end) with ``new_text``; an insertion when start == end."""

    start_line: int
    start_column: int
    end_line: int
    end_column: int
    new_text: str

    def to_json(self) -> dict:
        return {
            "range": {
                "start": {"line": self.start_line, "character": self.start_column},
                "end": {"line": self.end_line, "character": self.end_column},
            },
            "newText": self.new_text,
        }


def split_lines(text: str) -> list[str]:
    """The file's lines with their own line endings kept."""
    return _LINE_RE.findall(text)


def line_ending(text: str) -> str:
    """The file's newline: the first one it uses (libcst's rule), ``\\n`` when it has none."""
    m = _NEWLINE_RE.search(text)
    return m.group(0) if m else "\n"


def strip_eol(line: str) -> str:
    return line.rstrip("\r\n")


def indentation(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t\f"))]


def byte_to_char(line: str, byte_col: int) -> int:
    """An ``ast`` UTF-8 byte column → a code-point column."""
    if line.isascii():
        return byte_col
    return len(line.encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))


def apply_edits(text: str, edits: list[TextEdit]) -> str:
    """Apply non-overlapping edits; insertions at the same point keep their list order."""
    if not edits:
        return text
    lines = split_lines(text)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(line: int, col: int) -> int:
        if line >= len(lines):
            return len(text)
        return starts[line] + min(col, len(strip_eol(lines[line])))

    indexed = sorted(enumerate(edits), key=lambda ie: (offset(ie[1].start_line, ie[1].start_column), ie[0]))
    out: list[str] = []
    pos = 0
    for _, edit in indexed:
        start = offset(edit.start_line, edit.start_column)
        end = offset(edit.end_line, edit.end_column)
        if start < pos:
            raise ValueError(f"overlapping edits at line {edit.start_line + 1}")
        out.append(text[pos:start])
        out.append(edit.new_text)
        pos = end
    out.append(text[pos:])
    return "".join(out)


def edits_overlap(a: TextEdit, b: TextEdit) -> bool:
    a0, a1 = (a.start_line, a.start_column), (a.end_line, a.end_column)
    b0, b1 = (b.start_line, b.start_column), (b.end_line, b.end_column)
    if a0 == a1 or b0 == b1:  # an insertion only conflicts when strictly inside a replacement
        point, (lo, hi) = (a0, (b0, b1)) if a0 == a1 else (b0, (a0, a1))
        return lo < point < hi
    return a0 < b1 and b0 < a1
