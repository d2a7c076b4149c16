"""Columns: the engine counts code points, LSP counts UTF-16 code units (or the negotiated
``positionEncoding``: utf-8 / utf-32).

Lines are split the way both Python's tokenizer and LSP split them: ``\\r\\n``, ``\\r``, ``\\n``
(not ``str.splitlines``, which also breaks at form feeds and U+2028).
"""
from __future__ import annotations

from lsprotocol import types

from flake8_dllog.engine import LINE_BREAK_RE


def split_lines(text: str) -> list[str]:
    """Lines without their terminators; a final newline yields a last empty line."""
    if "\r" not in text:
        return text.split("\n")
    return LINE_BREAK_RE.split(text)


def _units(text: str, encoding: str) -> int:
    if text.isascii():
        return len(text)
    if encoding == "utf-32":
        return len(text)
    if encoding == "utf-8":
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


class Codec:
    """Converts between engine positions (line 1-based or 0-based, code points) and client
    positions for one text."""

    def __init__(self, text: str, encoding: str = "utf-16"):
        self.lines = split_lines(text)
        self.encoding = str(encoding or "utf-16").lower()

    def line(self, index: int) -> str:
        if 0 <= index < len(self.lines):
            return self.lines[index]
        return ""

    def to_client(self, line0: int, column: int) -> types.Position:
        """0-based line and code-point column → client Position (clamped to the text)."""
        return types.Position(**self.position_json(line0, column))

    def from_client(self, position: types.Position) -> tuple[int, int]:
        """Client Position → (0-based line, code-point column), clamped to the text."""
        line0 = max(0, position.line)
        if line0 >= len(self.lines):
            last = len(self.lines) - 1
            return last, len(self.lines[last])
        text = self.lines[line0]
        want = max(0, position.character)
        if text.isascii() or self.encoding == "utf-32":
            return line0, min(want, len(text))
        units = 0
        for i, ch in enumerate(text):
            if units >= want:
                return line0, i
            units += _units(ch, self.encoding)
        return line0, len(text)

    def position_json(self, line0: int, column: int) -> dict:
        """:meth:`to_client` as the JSON object (the diagnostics hot path builds these)."""
        lines = self.lines
        if line0 < 0:
            return {"line": 0, "character": 0}
        if line0 >= len(lines):
            last = len(lines) - 1
            return {"line": last, "character": _units(lines[last], self.encoding)}
        text = lines[line0]
        if column <= 0:
            return {"line": line0, "character": 0}
        if column > len(text):
            column = len(text)
        return {"line": line0, "character": column if text.isascii() else _units(text[:column], self.encoding)}

    def range_json(self, line0: int, col: int, end_line0: int, end_col: int) -> dict:
        return {"start": self.position_json(line0, col), "end": self.position_json(end_line0, end_col)}

    def range_to_client(self, line0: int, col: int, end_line0: int, end_col: int) -> types.Range:
        return types.Range(start=self.to_client(line0, col), end=self.to_client(end_line0, end_col))

    def end_position(self) -> types.Position:
        last = len(self.lines) - 1
        return types.Position(line=last, character=_units(self.lines[last], self.encoding))
