"""The flake8 face: a thin adapter that hands flake8's tree to the engine."""
from __future__ import annotations

import ast
from typing import Iterator

from . import __version__
from .config import ConfigError, config_for_path
from .engine import check_tree


class DllogChecker:
    name = "flake8-dllog"
    version = __version__

    def __init__(self, tree: ast.Module, filename: str = "(none)", lines: list[str] | None = None):
        self.tree = tree
        self.filename = filename
        # flake8 reads files with universal newlines: its lines end only where the tokenizer
        # ends them (not at a form feed or U+2028, unlike str.splitlines()), as the engine's
        # split_source_lines does for `dllog check`, so both faces read the same line numbers.
        self.lines = [line.rstrip("\r\n") for line in (lines or [])]

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        try:
            config = config_for_path(self.filename if self.filename not in ("stdin", "-", "(none)") else None)
        except ConfigError as exc:
            # flake8 has no channel for plugin configuration errors: report it at line 1
            # so the user sees it instead of silently getting no DLL findings.
            yield (1, 0, f"DLL002 {exc}", type(self))
            return
        # flake8 applies `# noqa` itself, so the engine does not.
        for finding in check_tree(self.tree, self.lines, self.filename, config, noqa=False):
            yield (finding.line, finding.column, f"{finding.code} {finding.message}", type(self))
