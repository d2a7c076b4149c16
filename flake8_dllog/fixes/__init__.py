"""The fix API: findings → text edits that insert idiomatic logging.

    fixes_for_finding(source, finding, config, backend=None) -> list[Fix]
    fix_source(source, path, config, *, select=None, backend=None) -> FixResult
    detect_backends(source) -> list[str]
    TextEdit(start_line, start_column, end_line, end_column, new_text)  # 0-based, code points

Edits are computed from positions in the one parse of the file (the engine's ``ast``) and
only ever insert lines or replace the one expression a fix rewrites; every other byte of
the file (tabs, CRLF, a BOM, non-ASCII text, comments) stays as it was. Expression rewrites
(adding the loss to an existing log call) go through libcst so the call keeps its own
formatting. Templates are text in ``rules/templates.yaml``.
"""
from __future__ import annotations

import ast
import difflib
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from ..config import BACKENDS, Config
from ..engine import FILE_NOQA_RE, SourceError, check_tree, parse_source, split_source_lines
from ..findings import Finding
from . import emit
from .analysis import FileInfo, StmtRef
from .rules import BUILDERS, NoFix, Plan, Target
from .templates import MESSAGE_BACKENDS
from .text import TextEdit, apply_edits, edits_overlap, split_lines

__all__ = ["Fix", "FixResult", "TextEdit", "detect_backends", "fix_source", "fixes_for_finding", "apply_edits"]

BOM = "\ufeff"


@dataclass
class Fix:
    title: str
    backend: str
    edits: list[TextEdit]
    preferred: bool = False
    # How many of ``edits`` are the module header (imports, the logger): shared by fixes.
    header_edits: int = field(default=0, repr=False, compare=False)


@dataclass
class FixResult:
    source: str
    edits: list[TextEdit] = field(default_factory=list)
    fixed: list[Finding] = field(default_factory=list)
    remaining: list[Finding] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.edits)


# -- backends ----------------------------------------------------------------------------

_INFO_CACHE: "OrderedDict[str, FileInfo]" = OrderedDict()


_INFO_LOCK = threading.Lock()  # the language server asks for fixes from worker threads


def _file_info(text: str, tree: ast.Module | None = None) -> FileInfo:
    # Quick fixes for several findings of one document reuse one analysis of it.
    with _INFO_LOCK:
        info = _INFO_CACHE.get(text)
        if info is not None:
            _INFO_CACHE.move_to_end(text)
            return info
    info = FileInfo.build(text, tree)
    with _INFO_LOCK:
        _INFO_CACHE[text] = info
        while len(_INFO_CACHE) > 8:
            _INFO_CACHE.popitem(last=False)
    return info


def _trackers(info: FileInfo) -> list[str]:
    found = []
    if info.wandb_used and info.module_alias("wandb"):
        found.append("wandb")
    if info.mlflow_used and info.module_alias("mlflow"):
        found.append("mlflow")
    if info.writers:
        found.append("tensorboard")
    if info.lightning_classes:
        found.append("lightning")
    if any(has for _, has in info.accelerators):
        found.append("accelerate")
    return found


def _backends(info: FileInfo, configured: str | None = None) -> list[str]:
    order = _trackers(info)
    kinds = [kind for _, kind in info.loggers]
    if "loguru" in kinds:
        order.append("loguru")
    if "logging" in kinds or info.logging_module_used:
        order.append("logging")
    if configured and configured not in order:
        if configured in MESSAGE_BACKENDS or configured in _trackers(info):
            order.append(configured)
    for fallback in ("logging", "print"):
        if fallback not in order:
            order.append(fallback)
    return order


def detect_backends(source: str) -> list[str]:
    """The logging backends this file already uses, in preference order, then the fallbacks."""
    text = source[1:] if source.startswith(BOM) else source
    try:
        info = _file_info(text)
    except (SyntaxError, ValueError, RecursionError):
        return ["logging", "print"]
    return _backends(info)


def _target(info: FileInfo, backend: str, func, config: Config) -> Target:
    """The message backend used alongside ``backend`` (a tracker falls back to it)."""
    existing = info.logger_for(func)
    wanted = backend if backend in MESSAGE_BACKENDS else None
    if wanted is None:
        if existing:
            return Target(backend, existing[1], existing[0])
        if info.logging_module_used:
            return Target(backend, "logging", "logging")
        wanted = config.backend if config.backend in MESSAGE_BACKENDS else "logging"
    if wanted == "print":
        return Target(backend, "print", None)
    if existing and existing[1] == wanted:
        return Target(backend, wanted, existing[0])
    if wanted == "logging" and info.logging_module_used:
        return Target(backend, "logging", "logging")
    if wanted == "loguru":
        return Target(backend, "loguru", "logger", needs_loguru_import="logger" not in info.module_bound)
    name = "logger" if "logger" not in info.module_bound else "log" if "log" not in info.module_bound else "_logger"
    return Target(backend, "logging", name, needs_header=True)


def _scope_func(info: FileInfo, finding: Finding):
    ref: StmtRef | None = info.enclosing_stmt(finding.context.get("anchor_line") or finding.line)
    if ref is None:
        return None
    if ref.func is None and isinstance(ref.stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return ref.stmt
    return ref.func


def _runs_as_script(info: FileInfo) -> bool:
    if info.main_guard is not None:
        return True
    return any(
        isinstance(s, (ast.For, ast.While)) or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Call))
        for s in info.tree.body
    )


def _header_for(info: FileInfo, target: Target, plan: Plan) -> list[TextEdit]:
    inserted = "".join(e.new_text for e in plan.edits)
    if target.needs_header and f"{target.logger}." in inserted:
        configure = not info.configures_logging and _runs_as_script(info)
        return emit.logger_header_edits(info, target.logger, configure=configure)
    if target.needs_loguru_import and f"{target.logger}." in inserted:
        return [emit.import_edit(info, "from loguru import logger", "loguru")]
    return []


def _build(info: FileInfo, finding: Finding, config: Config, backend: str | None, *, first_only: bool = False) -> list[Fix]:
    fn = BUILDERS.get(finding.code)
    if fn is None:
        return []
    func = _scope_func(info, finding)
    if backend:
        candidates = [backend]
    else:
        candidates = _backends(info, config.backend)
    ctx = dict(finding.context or {})
    fixes: list[Fix] = []
    seen: set[tuple] = set()
    for b in candidates:
        if b not in BACKENDS:
            continue
        target = _target(info, b, func, config)
        try:
            plan = fn(info, finding, ctx, target, config)
        except NoFix:
            continue
        except Exception:  # noqa: BLE001 - a builder that trips on an odd site offers nothing
            # rather than a bad edit or a crash of the CLI / language server.
            continue
        header = [*plan.header, *_header_for(info, target, plan)]
        edits = [*header, *plan.edits]
        key = tuple(edits)
        if not edits or key in seen:
            continue
        seen.add(key)
        fixes.append(Fix(title=plan.title, backend=plan.backend, edits=edits, header_edits=len(header)))
        if first_only:
            break
    if fixes:
        fixes[0].preferred = True
    return fixes


def _shift_bom(edits: list[TextEdit]) -> list[TextEdit]:
    return [
        TextEdit(e.start_line, e.start_column + (e.start_line == 0), e.end_line, e.end_column + (e.end_line == 0), e.new_text)
        for e in edits
    ]


def fixes_for_finding(source: str, finding: Finding, config: Config, backend: str | None = None) -> list[Fix]:
    """The fixes for one finding: the preferred one (the file's backend) first, then the
    plausible alternatives. Empty when no correct fix can be written."""
    bom = source.startswith(BOM)
    text = source[1:] if bom else source
    try:
        info = _file_info(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    try:
        fixes = _build(info, finding, config, backend)
    except (RecursionError, MemoryError):
        return []
    if bom:
        for f in fixes:
            f.edits = _shift_bom(f.edits)
    return fixes


def _findings(text: str, tree: ast.Module, path: str, config: Config, codes) -> list[Finding]:
    if FILE_NOQA_RE.search(text):
        return []
    return check_tree(tree, split_source_lines(text), path, config, noqa=True, codes=codes)


def fix_source(
    source: str,
    path: str,
    config: Config,
    *,
    select: set[str] | None = None,
    backend: str | None = None,
) -> FixResult:
    """Fix every fixable finding of one file's text (one preferred fix per finding)."""
    bom = source.startswith(BOM)
    text = source[1:] if bom else source
    codes = frozenset(select) if select is not None else None
    try:
        tree = parse_source(text, path, notebook=False)
    except SourceError:
        from ..engine import check_source

        return FixResult(source=source, remaining=check_source(text, path, config).findings)
    findings = _findings(text, tree, path, config, codes)
    if not findings:
        return FixResult(source=source)
    current, current_tree, pending = text, tree, findings
    rounds: list[list[TextEdit]] = []
    fixed: list[Finding] = []
    remaining = findings
    attempted: set[tuple] = set()
    # A fix can make another rule apply (the seeding it adds asks for determinism flags): like
    # ruff, fix again until nothing fixable is left, so that a second `dllog fix` changes nothing.
    for _ in range(MAX_ROUNDS):
        try:
            edits, fixed_now = plan_fixes(current, current_tree, pending, config, backend=backend)
        except (RecursionError, MemoryError):  # pathological nesting: leave the file as it is
            break
        if not edits:
            break
        try:
            new_text = apply_edits(current, edits)
            # The re-check's parse is also the proof that the fixed file parses.
            new_tree = parse_source(new_text, path, notebook=False)
        except (ValueError, SourceError):
            break
        rounds.append(edits)
        fixed += fixed_now
        attempted.update(_fix_identity(f) for f in fixed_now)
        current, current_tree = new_text, new_tree
        remaining = _findings(current, current_tree, path, config, codes)
        # A finding its own fix did not silence is not fixed again: a second round would
        # insert the same line twice.
        pending = [f for f in remaining if f.fixable and _fix_identity(f) not in attempted]
        if not pending:
            break
    if not rounds:
        return FixResult(source=source, remaining=findings)
    edits = rounds[0] if len(rounds) == 1 else _line_edits(text, current)
    out_edits = _shift_bom(edits) if bom else edits
    return FixResult(source=(BOM if bom else "") + current, edits=out_edits, fixed=fixed, remaining=remaining)


MAX_ROUNDS = 4


def _fix_identity(finding: Finding) -> tuple:
    """What stays the same about a finding when a fix inserts lines above it: its code and
    its context without line numbers."""
    return (
        finding.code,
        finding.message,
        tuple(sorted((k, repr(v)) for k, v in finding.context.items() if not k.endswith("_line"))),
    )


def _line_edits(old: str, new: str) -> list[TextEdit]:
    """Whole-line edits turning ``old`` into ``new`` (after several rounds of fixes)."""
    a, b = split_lines(old), split_lines(new)
    edits = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag != "equal":
            edits.append(TextEdit(i1, 0, i2, 0, "".join(b[j1:j2])))
    return edits


def plan_fixes(
    text: str, tree: ast.Module, findings: list[Finding], config: Config, *, backend: str | None = None
) -> tuple[list[TextEdit], list[Finding]]:
    """The edits fixing ``findings`` of an already-parsed file (the fix stage alone, without
    detection): one preferred fix per finding, header edits shared, overlaps skipped."""
    info = _file_info(text, tree)
    header: list[TextEdit] = []
    body: list[TextEdit] = []
    taken: set[TextEdit] = set()
    replacements: list[TextEdit] = []  # insertions never conflict with one another
    fixed: list[Finding] = []
    for finding in findings:
        if not finding.fixable:
            continue
        fixes = _build(info, finding, config, backend, first_only=True)
        if not fixes:
            continue
        new_edits = [e for e in fixes[0].edits if e not in taken]
        conflict = False
        for e in new_edits:
            is_insert = (e.start_line, e.start_column) == (e.end_line, e.end_column)
            others = replacements if is_insert else header + body
            if any(edits_overlap(e, other) for other in others):
                conflict = True
                break
        if conflict:
            continue
        head = fixes[0].edits[: fixes[0].header_edits]
        for e in new_edits:
            (header if e in head else body).append(e)
            taken.add(e)
            if (e.start_line, e.start_column) != (e.end_line, e.end_column):
                replacements.append(e)
        fixed.append(finding)
    return _ordered(header + body), fixed


def _ordered(edits: list[TextEdit]) -> list[TextEdit]:
    """Whole-line insertions at one point: the more indented first (the end of an inner block
    comes before the code after it); otherwise the original order (headers first)."""

    def depth(e: TextEdit) -> int:
        if e.start_column or (e.start_line, e.start_column) != (e.end_line, e.end_column):
            return 0
        first = e.new_text.lstrip("\r\n")
        return len(first) - len(first.lstrip(" \t"))

    keyed = sorted(enumerate(edits), key=lambda ie: ((ie[1].start_line, ie[1].start_column), -depth(ie[1]), ie[0]))
    return [e for _, e in keyed]


def _apply_checked(text: str, path: str, edits: list[TextEdit]) -> str | None:
    try:
        new_text = apply_edits(text, edits)
        compile(new_text, path, "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
    except (ValueError, SyntaxError):
        return None
    return new_text
