"""What a detector reports: one site, where it is, and what a fix will need."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class Finding:
    """One reported site.

    Positions: ``line``/``end_line`` are 1-based; ``column``/``end_column`` are 0-based and
    counted in Unicode code points of the line (flake8's convention for text columns). The
    language server converts them to UTF-16 code units.

    ``context`` is JSON-safe and carries what a fix needs (see docs/ARCHITECTURE.md):
    names really in scope (``loss``, ``step``, ``epoch``), source text of expressions
    (``path``, ``device``, ``seed``, ``config``), and the insertion anchor.
    """

    code: str
    message: str
    line: int
    column: int
    end_line: int
    end_column: int
    path: str = ""
    severity: str = "warning"
    fixable: bool = False
    context: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        return data

    def sort_key(self) -> tuple:
        return (self.path, self.line, self.column, self.code)
