"""Rule detectors: one small function per rule, registered by code.

A detector receives the module's :class:`~flake8_dllog.facts.ModuleFacts` and the
:class:`~flake8_dllog.config.Config`, and yields :class:`Report` objects. The engine turns
reports into findings (message, severity, columns, noqa, test-code filtering), so a
detector only says *where* and *why*, and what a fix will need (``context``).

Adding a rule: a YAML file under ``rules/`` (docs + examples) and one function here
decorated with ``@rule("DLLnnn")``.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from ..config import Config
from ..facts import ModuleFacts

DetectorFn = Callable[[ModuleFacts, Config], Iterable["Report"]]
REGISTRY: dict[str, DetectorFn] = {}


@dataclass
class Report:
    """A detector's raw finding.

    ``node`` gives the range unless ``span`` (line, byte col, end line, end byte col) is
    set; columns are ast byte offsets, converted by the engine. ``scope_node`` is the
    function the site lives in (for test-code filtering); ``message`` overrides the
    catalog message when details help (it should still start with the catalog text).
    """

    node: ast.AST
    context: dict[str, Any] = field(default_factory=dict)
    span: tuple[int, int, int, int] | None = None
    message: str | None = None
    fixable: bool = True
    code: str = ""  # filled by the registry wrapper when a detector serves one code


def rule(code: str) -> Callable[[DetectorFn], DetectorFn]:
    def register(fn: DetectorFn) -> DetectorFn:
        if code in REGISTRY:
            raise RuntimeError(f"two detectors for {code}")
        REGISTRY[code] = fn
        return fn

    return register


def header_span(stmt: ast.AST) -> tuple[int, int, int, int]:
    """The range of a compound statement's header (``for x in loader``), not its body."""
    if isinstance(stmt, (ast.For, ast.AsyncFor)):
        end = stmt.iter
    elif isinstance(stmt, ast.While):
        end = stmt.test
    elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        # `def name` only
        line = stmt.lineno
        return (line, stmt.col_offset, line, stmt.col_offset + len("def ") + len(stmt.name))
    elif isinstance(stmt, (ast.With, ast.AsyncWith)):
        end = stmt.items[-1].context_expr
    else:
        end = stmt
    return (stmt.lineno, stmt.col_offset, end.end_lineno or stmt.lineno, end.end_col_offset or stmt.col_offset)


def _load_all() -> None:
    # Importing the modules registers their detectors.
    from . import configuration, device, evaluation, reproducibility, saving, training  # noqa: F401


_load_all()
