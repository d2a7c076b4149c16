"""Jobs the server runs outside its event-loop process.

Analysis and fixes are CPU-bound pure Python. Run in a thread they would hold the GIL and
every message the server reads (pygls reads stdin through a thread pool) would wait for it,
so the server runs them in one spawned worker process instead; the event loop only converts
positions and talks JSON-RPC. Everything crossing the process boundary is plain data
(text, :class:`~flake8_dllog.config.Config`, :class:`~flake8_dllog.findings.Finding`, tuples).

If a process cannot be started (restricted sandboxes) or ``DLLOG_LSP_EXECUTOR=thread`` is set,
the same functions run in a thread.
"""
from __future__ import annotations

import gc
import os
import sys
from collections import OrderedDict
from typing import Any

from flake8_dllog.config import Config
from flake8_dllog.findings import Finding

# (title, backend, preferred, [(start_line, start_col, end_line, end_col, new_text), ...])
FixData = tuple[str, str, bool, list[tuple[int, int, int, int, str]]]


def init_worker() -> None:
    # The server's stdout is the LSP channel: nothing the worker prints may reach it.
    try:
        os.dup2(2, 1)
    except OSError:  # pragma: no cover
        pass
    sys.stdout = sys.stderr
    warm()
    # The modules, catalog and compiled vocabulary live as long as the worker: keep the
    # cyclic GC from walking them again on every full collection.
    gc.freeze()


def warm() -> int:
    """Import and load everything analysis needs; returns the worker's pid."""
    from flake8_dllog.catalog import load_catalog
    from flake8_dllog import engine  # noqa: F401

    load_catalog()
    try:
        import flake8_dllog.fixes  # noqa: F401
    except Exception:
        pass
    return os.getpid()


# The last few documents' parse trees and call memos, so that an edit re-parses only the
# statements it touched (flake8_dllog.incremental) and re-walks only their calls
# (flake8_dllog.facts.CallMemo). A handful, least recently checked dropped first: a closed
# document's state goes that way too.
_DOCUMENTS: "OrderedDict[str, tuple[Any, Any]]" = OrderedDict()
MAX_DOCUMENTS = 8


def _document_state(path: str) -> tuple[Any, Any]:
    from flake8_dllog.engine import parse_source
    from flake8_dllog.facts import CallMemo
    from flake8_dllog.incremental import IncrementalParser

    state = _DOCUMENTS.pop(path, None) or (IncrementalParser(parse_source), CallMemo())
    _DOCUMENTS[path] = state
    while len(_DOCUMENTS) > MAX_DOCUMENTS:
        _DOCUMENTS.popitem(last=False)
    return state


# With two workers, the second checks the checkpoint and device rules (they share the
# save/load index) and the first everything else: on the dense 5,000-line script the two
# halves take about as long as each other. Each worker parses the text and builds the facts
# itself; the rules' findings do not depend on which other rules run.
SECOND_LANE_CODES = frozenset({"DLL200", "DLL201", "DLL210", "DLL400"})


def lane_codes(config: Config, path: str, lane: int) -> frozenset[str]:
    """The enabled codes worker ``lane`` (0 or 1) of two checks."""
    return frozenset(c for c in config.enabled_codes(path) if (c in SECOND_LANE_CODES) == (lane == 1))


def check(text: str, path: str, config: Config, lane: int | None = None) -> tuple[list[Finding], str | None]:
    """Findings for one version of a document (all enabled rules, or one lane's share)."""
    from flake8_dllog.engine import check_source

    parser, call_memo = _document_state(path)
    codes = None if lane is None else lane_codes(config, path, lane)
    result = check_source(text, path, config, parse=parser.parse, call_memo=call_memo, codes=codes)
    return list(result.findings), result.error


def _fix_api():
    import importlib

    module = importlib.import_module("flake8_dllog.fixes")
    if not hasattr(module, "fixes_for_finding") or not hasattr(module, "fix_source"):
        raise ImportError("flake8_dllog.fixes has no fix API yet")
    return module


def _edits(edits: Any) -> list[tuple[int, int, int, int, str]]:
    return [
        (int(e.start_line), int(e.start_column), int(e.end_line), int(e.end_column), str(e.new_text))
        for e in edits or []
    ]


def fixes_for(text: str, finding: Finding, config: Config) -> list[FixData]:
    fixes = _fix_api().fixes_for_finding(text, finding, config)
    out: list[FixData] = []
    for i, fix in enumerate(fixes or []):
        out.append(
            (
                str(getattr(fix, "title", "") or ""),
                str(getattr(fix, "backend", "") or ""),
                bool(getattr(fix, "preferred", i == 0)),
                _edits(getattr(fix, "edits", [])),
            )
        )
    return out


def fix_all(text: str, path: str, config: Config) -> str | None:
    result = _fix_api().fix_source(text, path, config)
    source = getattr(result, "source", None)
    return source if isinstance(source, str) else None
