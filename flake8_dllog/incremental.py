"""Re-parse only what an edit touched (the language server's path).

An editor sends the whole text after every keystroke, but an edit changes a few lines. The
module's top-level statements that lie wholly before the edit keep their ``ast`` nodes; the
statements around the edit are parsed again on their own (padded with blank lines so that
line numbers come out right); the statements after the edit are kept too, and when the edit
added or removed lines their line numbers are moved by that many (a walk over their nodes,
about a third of what parsing them again costs). A change that arrives at several places at
once (undo here, typing there) is split into hunks at runs of equal lines, each handled so.

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

from .facts import SCALAR_FIELDS

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
        # Per kept top-level statement, its nodes that carry line numbers (see shift_lines).
        self._positioned: dict[int, tuple[ast.stmt, list[ast.AST]]] = {}
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
        if self._positioned:
            # Only statements of this version: a dropped statement's nodes are not kept alive.
            current = {id(s): s for s in self._body}
            self._positioned = {k: v for k, v in self._positioned.items() if current.get(k) is v[0]}

    def _reparse(self, lines: list[str], path: str) -> ast.Module | None:
        old = self._lines
        assert old is not None
        body, starts = self._body, self._starts
        hunks = _changed_hunks(old, lines)
        if not hunks:
            self.reused_last = len(body)
            return ast.Module(body=list(body), type_ignores=[])
        # Per hunk, the top-level statements [b, a) to parse again: the ones it touches plus
        # the statement before and after it. Ranges that meet are merged.
        ranges: list[list[int]] = []  # [b, a, line delta of the hunks in the range]
        b = 0
        for old_start, old_end, new_start, new_end in hunks:
            first_changed = old_start + 1  # 1-based
            last_changed = max(old_end, first_changed)  # old_end < first_changed: a pure insertion
            while b < len(body) and (body[b].end_lineno or 0) < first_changed:
                b += 1
            first = max(0, b - 1)  # the statement right before the edit is re-parsed too
            a = first
            while a < len(body) and starts[a] <= last_changed:
                a += 1
            a = min(len(body), a + 1)  # the statement right after the edit too
            delta = (new_end - new_start) - (old_end - old_start)
            if ranges and first <= ranges[-1][1]:
                ranges[-1][1] = max(ranges[-1][1], a)
                ranges[-1][2] += delta
            else:
                ranges.append([first, a, delta])
        new_body: list[ast.stmt] = []
        moves: list[tuple[list[ast.stmt], int]] = []  # kept statements whose lines moved
        shift = 0  # lines added minus removed above the current position
        kept = 0
        done = 0  # old statements handled so far
        for first, a, delta in ranges:
            block = body[done:first]
            new_body += block
            kept += len(block)
            if shift and block:
                moves.append((block, shift))
            start_new = (1 if first == 0 else starts[first]) + shift
            end_new = (body[a - 1].end_lineno or len(old)) + shift + delta if a < len(body) else len(lines)
            if end_new < start_new - 1:
                return None
            # Lines before the region must not continue into it.
            if start_new > 1 and lines[start_new - 2].rstrip("\r").endswith("\\"):
                return None
            chunk = "\n" * (start_new - 1) + "\n".join(lines[start_new - 1 : end_new])
            new_body += ast.parse(chunk, filename=path).body
            shift += delta
            done = a
        tail = body[done:]
        new_body += tail
        kept += len(tail)
        if shift and tail:
            moves.append((tail, shift))
        # Only now that every region parsed: the old tree is not used again after this.
        for stmts, delta in moves:
            shift_lines(stmts, delta, self._positioned)
        self.reused_last = kept
        return ast.Module(body=new_body, type_ignores=[])


# A run of this many equal lines after a change ends that change (see _changed_hunks).
_SYNC_RUN = 8
_SYNC_WINDOW = 32
_MAX_HUNKS = 4


def _changed_hunks(old: list[str], new: list[str]) -> list[tuple[int, int, int, int]]:
    """The line ranges that differ, as (old_start, old_end, new_start, new_end), 0-based and
    half-open, in order. One hunk for the usual edit; a second change further down (undo at
    one place and typing at another, a rename on two lines) gets its own hunk when the two
    are separated by a run of equal lines, so the lines between them need not be parsed."""
    prefix = _common_prefix(old, new)
    if prefix == len(old) == len(new):
        return []
    suffix = _common_suffix(old, new, min(len(old), len(new)) - prefix)
    old_end, new_end = len(old) - suffix, len(new) - suffix
    hunks = []
    o = n = prefix
    while len(hunks) < _MAX_HUNKS - 1:
        sync = _resync(old, new, o, old_end, n, new_end)
        if sync is None:
            break
        i, j = sync
        hunks.append((o, i, n, j))
        o, n = i, j
        while o < old_end and n < new_end and old[o] == new[n]:
            o += 1
            n += 1
    if o < old_end or n < new_end:
        hunks.append((o, old_end, n, new_end))
    return hunks


def _resync(old: list[str], new: list[str], o: int, old_end: int, n: int, new_end: int) -> tuple[int, int] | None:
    """The nearest (i, j) past a change at (o, n) where _SYNC_RUN lines are equal again."""
    run = _SYNC_RUN
    best: tuple[int, int] | None = None
    best_cost = 2 * _SYNC_WINDOW
    for i in range(o, min(o + _SYNC_WINDOW, old_end - run + 1)):
        if i - o >= best_cost:
            break
        line = old[i]
        for j in range(n, min(n + _SYNC_WINDOW, new_end - run + 1)):
            if (i - o) + (j - n) >= best_cost:
                break
            if new[j] == line and (i, j) != (o, n) and old[i : i + run] == new[j : j + run]:
                best, best_cost = (i, j), (i - o) + (j - n)
                break
    return best


# Per node class: (has line numbers, fields that may hold nodes).
_SHIFT_PLAN: dict[type, tuple[bool, tuple[str, ...]]] = {}


def _shift_plan(cls: type) -> tuple[bool, tuple[str, ...]]:
    positioned = "lineno" in getattr(cls, "_attributes", ())
    if cls is ast.Constant or cls is ast.MatchSingleton:
        fields: tuple[str, ...] = ()  # their `value` is a Python object, not a node
    else:
        fields = tuple(f for f in cls._fields if f not in SCALAR_FIELDS)
    plan = _SHIFT_PLAN[cls] = (positioned, fields)
    return plan


def positioned_nodes(stmt: ast.stmt) -> list[ast.AST]:
    """Every node under ``stmt`` (itself included) that carries line numbers."""
    found: list[ast.AST] = []
    keep = found.append
    stack: list = [stmt]
    pop, push = stack.pop, stack.append
    plans = _SHIFT_PLAN
    list_type, node_type = list, ast.AST
    while stack:
        node = pop()
        cls = node.__class__
        plan = plans.get(cls) or _shift_plan(cls)
        if plan[0]:
            keep(node)
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
    return found


def shift_lines(stmts: list[ast.stmt], delta: int, cache: "dict[int, tuple[ast.stmt, list[ast.AST]]] | None" = None) -> None:
    """Move every node under ``stmts`` ``delta`` lines down (up when negative), in place.

    ``cache`` keeps each statement's :func:`positioned_nodes` from one shift to the next: the
    statements below an edit move on every edit that adds or removes a line, and a flat
    pass over the nodes is a fraction of walking the tree again."""
    for stmt in stmts:
        entry = cache.get(id(stmt)) if cache is not None else None
        if entry is not None and entry[0] is stmt:
            nodes = entry[1]
        else:
            nodes = positioned_nodes(stmt)
            if cache is not None:
                cache[id(stmt)] = (stmt, nodes)
        for node in nodes:
            node.lineno += delta
            if node.end_lineno is not None:
                node.end_lineno += delta
