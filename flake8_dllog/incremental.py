"""Re-parse only what an edit touched (the language server's path).

An editor sends the whole text after every keystroke, but an edit changes a few lines. The
module's top-level statements that lie wholly before the edit keep their ``ast`` nodes; the
statements around the edit are parsed again on their own (padded with blank lines so that
line numbers come out right); the statements after the edit are kept too, and when the edit
added or removed lines their line numbers are moved by that many (a walk over their nodes,
about a third of what parsing them again costs).

Why a part parsed alone is the same as the part parsed in the whole file: the kept prefix
ends with a complete top-level statement, so the tokenizer enters the region at column 0
with no open bracket, string or continuation; the region parses alone only if it leaves
the same way, and the kept suffix starts where a top-level statement started before. The
region always includes the statement before and after the edit, so a new line appended to
a function's body, or an ``else:`` typed after an ``if``, is parsed with its statement.
Anything unusual — no previous tree, a lone ``\\r`` line ending, ``barry_as_FLUFL``, a
region that does not parse alone — falls back to parsing the whole text, so errors are
reported exactly as a full parse reports them.

Only ``ast`` nodes are reused; the analysis runs on the assembled module as usual, and no
analysis writes to the nodes.
"""
from __future__ import annotations

import ast
from typing import Callable

Parse = Callable[[str, str], ast.Module]


def _stmt_start(stmt: ast.stmt) -> int:
    decorators = getattr(stmt, "decorator_list", None)
    if decorators:
        return min(stmt.lineno, *(d.lineno for d in decorators))
    return stmt.lineno


def _common_prefix(a: list[str], b: list[str]) -> int:
    n = min(len(a), len(b))
    i = 0
    # Compare in chunks first (list slices compare in C), then line by line.
    step = 256
    while i + step <= n and a[i : i + step] == b[i : i + step]:
        i += step
    while i < n and a[i] == b[i]:
        i += 1
    return i


def _common_suffix(a: list[str], b: list[str], limit: int) -> int:
    n = min(len(a), len(b), limit)
    i = 0
    step = 256
    while i + step <= n and a[len(a) - i - step : len(a) - i] == b[len(b) - i - step : len(b) - i]:
        i += step
    while i < n and a[len(a) - 1 - i] == b[len(b) - 1 - i]:
        i += 1
    return i


class IncrementalParser:
    """Parses successive versions of one document, reusing unchanged top-level statements.

    ``full_parse(text, path)`` is the engine's parser (it raises the engine's error for bad
    input); after any failure the next call parses in full again.
    """

    def __init__(self, full_parse: Parse):
        self.full_parse = full_parse
        self._lines: list[str] | None = None
        self._body: list[ast.stmt] = []
        self._starts: list[int] = []  # first line of each top-level statement (decorators included)
        self.reused_last = 0  # top-level statements reused by the last parse (for tests and stats)

    def parse(self, text: str, path: str) -> ast.Module:
        lines = text.split("\n")
        tree = None
        self.reused_last = 0
        if self._lines is not None and self._usable(text):
            try:
                tree = self._reparse(lines, path)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                tree = None
        if tree is None:
            self._lines = None
            tree = self.full_parse(text, path)  # raises for bad input; state stays reset
        self._remember(lines, tree)
        return tree

    @staticmethod
    def _usable(text: str) -> bool:
        # The tokenizer ends lines at \r too; splitting on \n then miscounts. And one
        # __future__ import changes how the rest of the file is tokenized.
        return text.count("\r") == text.count("\r\n") and "barry_as_FLUFL" not in text and "\x00" not in text

    def _remember(self, lines: list[str], tree: ast.Module) -> None:
        self._lines = lines
        self._body = list(tree.body)
        self._starts = [_stmt_start(s) for s in self._body]

    def _reparse(self, lines: list[str], path: str) -> ast.Module | None:
        old = self._lines
        assert old is not None
        prefix = _common_prefix(old, lines)
        if prefix == len(old) == len(lines):
            self.reused_last = len(self._body)
            return ast.Module(body=list(self._body), type_ignores=[])
        suffix = _common_suffix(old, lines, min(len(old), len(lines)) - prefix)
        first_changed = prefix + 1  # 1-based, old and new
        last_changed_old = len(old) - suffix  # may be < first_changed (pure insertion)
        delta = len(lines) - len(old)
        body, starts = self._body, self._starts
        # Kept before: statements ending before the statement that precedes the edit.
        before = 0
        while before < len(body) and (body[before].end_lineno or 0) < first_changed:
            before += 1
        before = max(0, before - 1)  # the statement right before the edit is re-parsed too
        # Kept after: statements starting after the statement that follows the edit.
        after = before
        while after < len(body) and starts[after] <= max(last_changed_old, first_changed):
            after += 1
        after = min(len(body), after + 1)  # the statement right after the edit too
        region_start = starts[before] if before < len(body) else (body[-1].end_lineno + 1 if body else 1)
        if before == 0:
            region_start = 1
        region_end_old = (body[after - 1].end_lineno or len(old)) if after < len(body) else len(old)
        region_end_new = region_end_old + delta if after < len(body) else len(lines)
        if region_end_new < region_start - 1:
            return None
        # Lines before the region must not continue into it.
        if region_start > 1 and lines[region_start - 2].rstrip("\r").endswith("\\"):
            return None
        chunk = "\n" * (region_start - 1) + "\n".join(lines[region_start - 1 : region_end_new])
        region = ast.parse(chunk, filename=path)
        kept_after = body[after:]
        if delta and kept_after:
            # Only now that the region parsed: the old tree is not used again after this.
            shift_lines(kept_after, delta)
        self.reused_last = before + len(kept_after)
        return ast.Module(body=body[:before] + region.body + kept_after, type_ignores=[])


# Fields that never hold a node (names, operators, contexts, flags): not walked by shift_lines.
_SCALAR_FIELDS = frozenset({
    "ctx", "op", "id", "attr", "arg", "name", "module", "level", "is_async", "type_comment", "kind",
    "conversion", "simple", "tag", "kwd_attrs",
})
# Per node class: (has line numbers, fields that may hold nodes).
_SHIFT_PLAN: dict[type, tuple[bool, tuple[str, ...]]] = {}


def _shift_plan(cls: type) -> tuple[bool, tuple[str, ...]]:
    positioned = "lineno" in getattr(cls, "_attributes", ())
    if cls is ast.Constant or cls is ast.MatchSingleton:
        fields: tuple[str, ...] = ()  # their `value` is a Python object, not a node
    else:
        fields = tuple(f for f in cls._fields if f not in _SCALAR_FIELDS)
    plan = _SHIFT_PLAN[cls] = (positioned, fields)
    return plan


def shift_lines(stmts: list[ast.stmt], delta: int) -> None:
    """Move every node under ``stmts`` ``delta`` lines down (up when negative), in place."""
    stack: list = list(stmts)
    pop, push = stack.pop, stack.append
    plans = _SHIFT_PLAN
    list_type, node_type = list, ast.AST
    while stack:
        node = pop()
        cls = node.__class__
        plan = plans.get(cls) or _shift_plan(cls)
        if plan[0]:
            node.lineno += delta
            if node.end_lineno is not None:
                node.end_lineno += delta
        for fname in plan[1]:
            value = getattr(node, fname, None)
            if value is None:
                continue
            if value.__class__ is list_type:
                for item in value:
                    if isinstance(item, node_type):
                        push(item)
            elif isinstance(value, node_type):
                push(value)
