"""Module facts: import aliases and call names, however the imports are placed."""
from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

from flake8_dllog.config import Config
from flake8_dllog.engine import split_source_lines
from flake8_dllog.facts import ModuleFacts

ROOT = Path(__file__).resolve().parent.parent
VOCABULARY = Config().vocabulary


def _every_line(facts: ModuleFacts, top_imports) -> list[int]:
    """Stand-in for the shortcut: every line may hold an import, so every block is walked."""
    return list(range(1, len(facts.lines) + 2))


def facts_of(source: str, *, full_import_walk: bool = False, monkeypatch=None) -> ModuleFacts:
    source = textwrap.dedent(source)
    if full_import_walk:
        monkeypatch.setattr(ModuleFacts, "_import_lines_below_top_level", _every_line)
    return ModuleFacts(ast.parse(source), split_source_lines(source), VOCABULARY)


def call_names(facts: ModuleFacts) -> list[str | None]:
    return [site.name for site in facts.calls]


# Each: the source, and the names its calls must resolve to.
IMPORT_PLACEMENTS = {
    "top level only": (
        """
        import torch as T
        from os import path as osp
        T.save(m, osp.join("a", "b"))
        """,
        ["torch.save", "os.path.join"],
    ),
    "import inside a function": (
        """
        def main():
            import wandb as W
            W.log({})
        """,
        ["wandb.log"],
    ),
    "one-line compound at column 0": (
        """
        if True: import torch as T
        T.save(m, p)
        """,
        ["torch.save"],
    ),
    "try/except import": (
        """
        try:
            import ujson as json
        except ImportError:
            import json
        json.dump(x, f)
        """,
        ["ujson.dump"],  # the first binding wins (setdefault), as before
    ),
    "backslash continuation puts `import` at column 0 inside a function": (
        "def main():\n    from torch \\\nimport save as keep\n    keep(m, p)\n",
        ["torch.save"],
    ),
    "`import` only in a string and a comment": (
        '''
        doc = """
        import torch as T
        """
        # import wandb as W
        T.save(m, p)
        ''',
        ["T.save"],
    ),
    "semicolon-separated imports": (
        """
        x = 1; import numpy as N
        N.save(p, a)
        """,
        ["numpy.save"],
    ),
    "multi-line parenthesised import": (
        """
        from torch import (
            save as keep,
            load,
        )
        keep(m, p); load(p)
        """,
        ["torch.save", "torch.load"],
    ),
    "import in a class body and in a method": (
        """
        class Runner:
            import logging as lg
            def run(self):
                from mlflow import log_metric as lm
                lm("loss", 1.0)
        """,
        ["mlflow.log_metric"],
    ),
    "relative import of the project's module": (
        """
        from .utils.logger import log
        from . import helpers
        log("fold 1")
        helpers.save(m)
        """,
        ["utils.logger.log", "helpers.save"],  # (`from . import x` has no module: x stays x)
    ),
    "a late top-level import rebinds a conventional name": (
        """
        def f():
            np.save(p, a)
        import jax.numpy as np
        """,
        ["jax.numpy.save"],
    ),
}


@pytest.mark.parametrize("case", sorted(IMPORT_PLACEMENTS))
def test_call_names_resolve_through_imports_anywhere(case):
    source, expected = IMPORT_PLACEMENTS[case]
    assert call_names(facts_of(source)) == expected


@pytest.mark.parametrize("case", sorted(IMPORT_PLACEMENTS))
def test_skipping_the_import_walk_never_changes_the_aliases(case, monkeypatch):
    source, _ = IMPORT_PLACEMENTS[case]
    quick = facts_of(source)
    full = facts_of(source, full_import_walk=True, monkeypatch=monkeypatch)
    assert (quick.aliases, quick.imported_modules) == (full.aliases, full.imported_modules)


def test_skipping_the_import_walk_never_changes_the_aliases_on_real_files(monkeypatch):
    """Every Python file of this project and its examples: the same aliases with and
    without the shortcut (a file that imports inside functions takes the full walk)."""
    files = sorted(ROOT.glob("examples/**/*.py")) + sorted(ROOT.glob("flake8_dllog/**/*.py")) + sorted(ROOT.glob("tests/**/*.py"))
    assert len(files) > 40
    quick = []
    for path in files:
        source = path.read_text(encoding="utf-8")
        facts = ModuleFacts(ast.parse(source), split_source_lines(source), VOCABULARY)
        quick.append((facts.aliases, facts.imported_modules))
    monkeypatch.setattr(ModuleFacts, "_import_lines_below_top_level", _every_line)
    for path, expected in zip(files, quick):
        source = path.read_text(encoding="utf-8")
        facts = ModuleFacts(ast.parse(source), split_source_lines(source), VOCABULARY)
        assert (facts.aliases, facts.imported_modules) == expected, path
