"""Every rule's own flagged examples (rules/DLLnnn.yaml `examples.flagged` and `docs.example`),
fixed: the result parses, the finding is gone on re-check, a second fix changes nothing, and
only inserted lines differ — also with CRLF line endings, tab indentation, and a BOM plus
non-ASCII text. The list grows by itself as rules gain examples.
"""
from __future__ import annotations

import ast
import difflib
import re
import textwrap

import pytest

from flake8_dllog.catalog import load_catalog
from flake8_dllog.config import Config
from flake8_dllog.engine import check_source
from flake8_dllog.fixes import fix_source, fixes_for_finding
from flake8_dllog.fixes.text import split_lines

CATALOG = load_catalog()
PATH = "train_example.py"

# Findings no correct fix exists for (asserted to be offered none, so the list stays honest).
UNFIXABLE = {
    # Keras `save_weights` writes weights only and has no slot for metadata; changing the call
    # to `model.save` would change the file format under the user's feet.
    ("DLL201", "save_weights"),
    # A framework whose own logging was switched off (`fit(verbose=0)`): turning it back on is
    # the user's choice of verbosity, not an insertion a fix can make.
    ("DLL100", "verbose=0"),
    ("DLL100", "enable_progress_bar=False"),
}


def _tabs(src: str) -> str:
    return "".join(re.sub(r"^((?:    )+)", lambda m: "\t" * (len(m.group(1)) // 4), line) for line in split_lines(src))


VARIANTS = {
    "plain": lambda s: s,
    "crlf": lambda s: s.replace("\n", "\r\n"),
    "tabs": _tabs,
    "bom-unicode": lambda s: "\ufeff# données d'entraînement — ünïcödé ✓\n" + s.replace("\n", "  # ü\n", 1),
}


def _cases():
    for code, rule in sorted(CATALOG.rules.items()):
        for i, snippet in enumerate([*rule.flagged, rule.example]):
            for variant in VARIANTS:
                yield pytest.param(code, textwrap.dedent(snippet), variant, id=f"{code}-{i}-{variant}")


def _findings(code: str, source: str):
    return [f for f in check_source(source, PATH, Config(), codes=frozenset({code})).findings if f.code == code]


def _unfixable(code: str, source: str) -> bool:
    return any(code == c and marker in source for c, marker in UNFIXABLE)


@pytest.mark.parametrize("code,snippet,variant", list(_cases()))
def test_fix_rule_example(code, snippet, variant):
    source = VARIANTS[variant](snippet)
    before = _findings(code, source)
    if not before:
        # Detection is tests/test_rule_examples.py's job; there is nothing to fix here.
        pytest.skip(f"{code} example not reported by its detector ({variant})")
    if _unfixable(code, source):
        assert all(fixes_for_finding(source, f, Config()) == [] for f in before)
        return

    result = fix_source(source, PATH, Config(), select={code})
    fixed = result.source
    # 1. parses
    ast.parse(fixed.lstrip("\ufeff"))
    # 2. the finding is gone on re-check
    after = _findings(code, fixed)
    assert not after, f"{code} still reported after the fix:\n{fixed}"
    # 3. idempotent
    again = fix_source(fixed, PATH, Config(), select={code})
    assert again.source == fixed and not again.edits
    # 4. only inserted lines differ (a rewrite may change only the lines it replaces)
    rewritten: set[int] = set()
    for e in result.edits:
        whole_lines = (e.start_line, e.start_column) == (e.end_line, e.end_column) and e.start_column == 0 and e.new_text.endswith(("\n", "\r"))
        at_eof = e.start_line == e.end_line and e.start_column == e.end_column and e.new_text.startswith(("\n", "\r"))
        if not (whole_lines or at_eof):
            rewritten.update(range(e.start_line, e.end_line + 1))
    old_lines, new_lines = split_lines(source), split_lines(fixed)
    for tag, i1, i2, _, _ in difflib.SequenceMatcher(a=old_lines, b=new_lines, autojunk=False).get_opcodes():
        if tag in ("replace", "delete"):
            assert set(range(i1, i2)) <= rewritten, f"lines {i1 + 1}-{i2} changed:\n{fixed}"
    # byte-level conventions of the file are kept
    if variant == "crlf":
        assert all(line.endswith("\r\n") for line in new_lines), repr(fixed)
    else:
        assert "\r" not in fixed
    if variant == "tabs" and any(l.startswith("\t") for l in old_lines):
        inserted = [l for l in new_lines if l not in old_lines]
        assert not any(l.startswith(" ") for l in inserted), inserted
    if variant == "bom-unicode":
        assert fixed.startswith("\ufeff") and not fixed.startswith("\ufeff\ufeff")
        assert "données d'entraînement — ünïcödé ✓" in fixed and "  # ü\n" in fixed
