"""The language server's incremental parse must give exactly the tree a full parse gives.

Every case compares ``ast.dump(..., include_attributes=True)`` (node types, fields, lines and
columns) of the incremental result with a fresh ``ast.parse`` of the same text, and a text
that does not parse must fail with the same one-line error.
"""
from __future__ import annotations

import ast
import random
import textwrap
from pathlib import Path

import pytest

from flake8_dllog.engine import SourceError, check_source, parse_source
from flake8_dllog.facts import CallMemo
from flake8_dllog.incremental import IncrementalParser

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").rglob("*.py"))

BASE = '''"""A module."""
import torch


@torch.no_grad()
def evaluate(model, loader):
    total = 0
    for x, y in loader:
        total += (model(x).argmax(1) == y).sum().item()
    return total


class Net(torch.nn.Module):
    def forward(self, x):
        return x


if __name__ == "__main__":
    model = Net()
    torch.save(model.state_dict(), "m.pt")
'''


def full(text: str) -> str:
    try:
        return ast.dump(parse_source(text, "x.py"), include_attributes=True)
    except SourceError as err:
        return f"error: {err} at {err.line}:{err.column}"


def incremental(parser: IncrementalParser, text: str) -> str:
    try:
        return ast.dump(parser.parse(text, "x.py"), include_attributes=True)
    except SourceError as err:
        return f"error: {err} at {err.line}:{err.column}"


def edit(text: str, line: int, new_lines: list[str], remove: int = 1) -> str:
    lines = text.split("\n")
    return "\n".join(lines[: line - 1] + new_lines + lines[line - 1 + remove :])


@pytest.mark.parametrize(
    "line, new, remove, reuses",
    [
        (9, ["        total += 0"], 1, True),  # a changed line inside a function
        (10, ["    print(total)"], 0, True),  # a new line appended to a function body
        (5, [], 1, True),  # a decorator removed
        (21, ["else:", "    pass"], 0, True),  # `else` typed after the `if` at the end
        (13, ["class Net(torch.nn.Module):  # 模型 🚀"], 1, True),  # non-ASCII in the middle
        (7, ["    total = (0"], 1, False),  # an unclosed bracket: the rest of the file joins it
        (1, ['"""A module'], 1, False),  # an unclosed docstring swallows everything
        (15, ["        return x +"], 1, False),  # a syntax error mid-edit
        (11, ["", "", ""], 0, True),  # blank lines between statements
        (3, ["import os \\"], 1, False),  # a continuation into the next line
    ],
)
def test_edit_gives_the_full_parse(line, new, remove, reuses):
    parser = IncrementalParser(parse_source)
    parser.parse(BASE, "x.py")
    text = edit(BASE, line, new, remove)
    assert incremental(parser, text) == full(text)
    if reuses:
        assert parser.reused_last > 0
    # and back again
    assert incremental(parser, BASE) == full(BASE)


def test_after_a_syntax_error_the_next_good_text_parses():
    parser = IncrementalParser(parse_source)
    parser.parse(BASE, "x.py")
    broken = edit(BASE, 9, ["        total +="])
    with pytest.raises(SourceError):
        parser.parse(broken, "x.py")
    assert incremental(parser, BASE) == full(BASE)


def test_lone_carriage_returns_are_parsed_in_full():
    parser = IncrementalParser(parse_source)
    text = BASE.replace("\n", "\r")
    parser.parse(text, "x.py")
    changed = text.replace("total = 0", "total = 1")
    assert incremental(parser, changed) == full(changed)
    assert parser.reused_last == 0


def test_crlf_text_reuses_statements():
    parser = IncrementalParser(parse_source)
    text = BASE.replace("\n", "\r\n")
    parser.parse(text, "x.py")
    changed = text.replace("total = 0", "total = 1")
    assert incremental(parser, changed) == full(changed)
    assert parser.reused_last > 0


def _mutate(lines: list[str], rng: random.Random) -> list[str]:
    lines = list(lines) or [""]
    for _ in range(rng.randint(1, 2)):
        i = rng.randrange(len(lines))
        indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
        op = rng.random()
        if op < 0.25:
            lines.insert(i, lines[i])  # a duplicated line (often valid)
        elif op < 0.4:
            lines.insert(i, indent + "# typed")
        elif op < 0.55 and len(lines) > 1:
            del lines[i]
        elif op < 0.75:
            lines[i] = "".join(str(rng.randint(0, 9)) if ch.isdigit() else ch for ch in lines[i]) + " "
        else:  # half-typed code
            cut = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:cut] + rng.choice(["(", ")", ":", "'''", "\\", "else:", " x", ""]) + lines[i][cut:]
    return lines


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_random_edits_of_the_examples(path):
    rng = random.Random(path.name)
    base = path.read_text(encoding="utf-8").split("\n")
    parser = IncrementalParser(parse_source)
    current = base
    reused = 0
    for _ in range(60):
        current = _mutate(current if rng.random() < 0.7 else base, rng)
        text = "\n".join(current)
        assert incremental(parser, text) == full(text), text
        reused += parser.reused_last > 0
    assert reused > 0  # the incremental path was exercised, not only the fallback


def test_check_source_with_an_incremental_parser_finds_the_same():
    parser, memo = IncrementalParser(parse_source), CallMemo()
    for path in EXAMPLES:
        text = path.read_text(encoding="utf-8")
        edited = text.replace("\n\n\n", "\n\n\n# typed\n", 1)
        # an import that changes what names resolve to: the call memo must not be replayed
        realiased = "import numpy as torch\nimport wandb as logging\n" + text
        for version in (text, edited, text, realiased, edited):
            got = check_source(version, str(path), parse=parser.parse, call_memo=memo)
            want = check_source(version, str(path))
            assert got.findings == want.findings
    assert memo.entries  # the memo was filled (and, for kept statements, replayed)


def test_derived_values_are_reused_only_for_the_same_untouched_function_and_vocabulary():
    from flake8_dllog.config import Config

    source = textwrap.dedent(
        """\
        def train(model, loader, optimizer):
            for x, y in loader:
                loss = model(x, y)
                loss.backward()
                optimizer.step()
                meter.update(loss.item())


        def middle():
            pass


        def other():
            return 1
        """
    )
    parser, memo = IncrementalParser(parse_source), CallMemo()
    config = Config()
    check_source(source, "t.py", config, parse=parser.parse, call_memo=memo)
    [first] = memo.derived["value_flows"].values()
    # An edit well below `train` keeps its node, and so its flows (the very same object).
    check_source(source.replace("return 1", "return 2"), "t.py", config, parse=parser.parse, call_memo=memo)
    [kept] = memo.derived["value_flows"].values()
    assert kept[0] is first[0] and kept[1] is first[1]
    # An edit inside `train` makes a new node: the flows are worked out again.
    check_source(source.replace("meter.update", "meters.update"), "t.py", config, parse=parser.parse, call_memo=memo)
    [redone] = memo.derived["value_flows"].values()
    assert redone[0] is not first[0] and ("meters",) == tuple(next(t for r, t in redone[1] if "loss" in r))
    # A configuration with another vocabulary (a reload): nothing is replayed.
    extended = Config(vocabulary_extra=(("logging_general", ("myproject.log_metrics",)),))
    check_source(source.replace("meter.update", "meters.update"), "t.py", extended, parse=parser.parse, call_memo=memo)
    [fresh] = memo.derived["value_flows"].values()
    assert fresh[1] is not redone[1]


# Every kind of node that carries a line number (aliases, arguments, keywords, handlers,
# match patterns, f-string parts, comprehensions, decorators), after the edit point.
ODD_SYNTAX = '''import os, sys as system
from a.b import (c as d,
    e)


def first():
    return 1


@decorator(arg=1)
@other
def f(a, /, b: int = 2, *args, c=lambda q, *r, **s: q, **kw) -> "T":
    global thing
    try:
        match a:
            case [1, 2, *rest]:
                return rest
            case {"k": v, **others}:
                return v
            case Point(x=0, y=yy) | None:
                return yy
            case str() as s if s:
                return f"{s!r:>{b}} {a=} 模型 🚀"
            case _:
                pass
    except (ValueError, TypeError) as exc:
        raise RuntimeError("x") from exc
    finally:
        with open("p") as fh, open("q") as gh:
            print(fh, gh, *args, **kw)

    async def g():
        async with h() as i:
            async for j in i:
                await j
        return [k async for k in i]
    return {m: n for m, n in kw.items()}, {o for o in b}, (p for p in a)


class C(Base, metaclass=Meta):
    x: int = 1

    def method(self):
        value = (yield)
        del self.x[1:2, ::3]
        assert value, "msg"
        return not -~+1 if self else (a := 3)
'''


@pytest.mark.parametrize("line, new, remove", [(7, ["    x = 2", "    y = 3"], 0), (8, [], 2), (8, ["", "", "", ""], 0)])
def test_statements_after_an_edit_that_moves_lines_are_kept_and_moved(line, new, remove):
    parser = IncrementalParser(parse_source)
    parser.parse(ODD_SYNTAX, "x.py")
    text = edit(ODD_SYNTAX, line, new, remove)  # in or after first(): everything after it moves
    assert incremental(parser, text) == full(text)
    # the imports, first() and the next statement are parsed again; C is kept
    assert parser.reused_last >= 1
    assert incremental(parser, ODD_SYNTAX) == full(ODD_SYNTAX)
    for i in range(5):  # repeated moves accumulate on the same nodes
        text = edit(text, 7, ["    z = 0"], 0)
        assert incremental(parser, text) == full(text)


def test_changes_at_several_places_parse_only_around_each():
    """Undo at one place and typing at another arrive as one change: each is its own hunk,
    the statements between them are kept (and moved when lines were added above them)."""
    text = "\n".join(ODD_SYNTAX.split("\n") + [f"def helper_{i}():\n    return {i}\n" for i in range(40)])
    parser = IncrementalParser(parse_source)
    parser.parse(text, "x.py")
    lines = text.split("\n")
    middle = lines.index("def helper_10():")
    edited = lines[:7] + ["    x = 1", "    y = 2"] + lines[7:middle + 1] + ["    z = 3"] + lines[middle + 1:] + ["# end"]
    new_text = "\n".join(edited)
    assert incremental(parser, new_text) == full(new_text)
    total = len(ast.parse(new_text).body)
    assert parser.reused_last >= total - 8  # three small regions parsed, the rest kept
    # many scattered changes (more than the hunk limit) still give the full parse
    scattered = new_text.split("\n")
    for k in range(60, len(scattered) - 5, 9):
        if scattered[k].startswith("    return"):
            scattered[k] += "  # 改"
            scattered.insert(k, "    pass")
    scattered_text = "\n".join(scattered)
    assert incremental(parser, scattered_text) == full(scattered_text)
    assert incremental(parser, text) == full(text)
