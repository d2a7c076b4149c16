"""A check must leave no cyclic garbage behind.

The engine runs with the cyclic GC paused and relies on ``facts.release()`` to break every
cycle (scopes <-> call sites, the detectors' indexes stored on the facts <-> the facts). If a
cycle survives, every checked module stays in memory until a collection, and the language
server's worker pays that collection on every keystroke.
"""
from __future__ import annotations

import gc
from pathlib import Path

import pytest

from flake8_dllog.config import Config
from flake8_dllog.engine import check_source

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").rglob("*.py"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_checking_a_file_leaves_no_cyclic_garbage(path):
    text = path.read_text(encoding="utf-8")
    config = Config(check_tests=True, extend_select=("DLL102", "DLL502", "DLL601"))
    assert check_source(text, str(path), config).findings is not None  # warm caches first
    gc.collect()
    flags = gc.get_debug()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        del gc.garbage[:]
        check_source(text, str(path), config)
        gc.collect()
        leftovers = sorted({type(o).__qualname__ for o in gc.garbage if type(o).__module__.startswith("flake8_dllog")})
        assert leftovers == [], f"{len(gc.garbage)} objects in reference cycles after checking {path.name}: {leftovers}"
    finally:
        gc.set_debug(flags)
        del gc.garbage[:]
