"""What a fix needs to know about one file, from one ``ast`` walk.

Which names are bound where (so an inserted statement only uses names really in scope),
which logger and trackers the file already uses, where its import block ends, and the
statement that starts on each line.
"""
from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, field

from ..facts import is_main_guard
from .text import indentation, split_lines, strip_eol

import re

FUNC_TYPES = (ast.FunctionDef, ast.AsyncFunctionDef)
_SCAN_RE = re.compile(r"print|logging|wandb|mlflow|init_trackers|:=|Config|\blog")
LOOP_TYPES = (ast.For, ast.AsyncFor, ast.While)
LOG_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "log"})
TRACKERS = ("wandb", "mlflow", "tensorboard", "lightning", "accelerate")
LIGHTNING_BASES = ("LightningModule", "pl.LightningModule", "L.LightningModule")
STDLIB = frozenset(getattr(sys, "stdlib_module_names", ()))


@dataclass(eq=False)
class StmtRef:
    stmt: ast.stmt
    block: list[ast.stmt]
    index: int
    parent: ast.AST | None  # the compound statement / def / module owning the block
    func: ast.AST | None  # innermost enclosing function, None at module level
    cls: ast.ClassDef | None  # class of the enclosing method


@dataclass
class Binding:
    name: str
    func: ast.AST | None  # None: module level
    cls: str | None = None  # `self.<name>` bound in this class
    line: int = 0


@dataclass
class FileInfo:
    text: str
    tree: ast.Module
    lines: list[str] = field(default_factory=list)
    refs: dict[int, list[StmtRef]] = field(default_factory=dict)  # 1-based line → statements starting there
    by_id: dict[int, StmtRef] = field(default_factory=dict)
    imports: dict[str, str] = field(default_factory=dict)  # local name → dotted origin
    module_bound: set[str] = field(default_factory=set)
    func_bound: dict[int, set[str]] = field(default_factory=dict)
    first_bound: dict[tuple[int, str], int] = field(default_factory=dict)  # (id(func) or 0, name) → first line
    assigned_from: dict[tuple[int, str], ast.expr] = field(default_factory=dict)  # first value bound to a name
    loggers: list[tuple[Binding, str]] = field(default_factory=list)  # (binding, logging|loguru)
    logging_module_used: bool = False
    configures_logging: bool = False
    print_used: bool = False
    writers: list[Binding] = field(default_factory=list)
    accelerators: list[tuple[Binding, bool]] = field(default_factory=list)  # (binding, has trackers)
    wandb_used: bool = False
    mlflow_used: bool = False
    run_starts: list[tuple[int, ast.AST | None]] = field(default_factory=list)  # (line, func) of wandb.init / mlflow.start_run
    lightning_classes: set[str] = field(default_factory=set)
    used_loggers: set[str] = field(default_factory=set)  # `logger.info(...)` receivers
    state_bound_loggers: set[str] = field(default_factory=set)
    configure_sites: list[tuple[ast.stmt, ast.AST | None]] = field(default_factory=list)  # basicConfig & co
    main_guard: ast.If | None = None
    indent_unit: str = "    "
    _scan_lines: set[int] = field(default_factory=set, repr=False)
    _cache: dict = field(default_factory=dict, repr=False)  # per-file memo for builders

    # -- construction ------------------------------------------------------------------
    @classmethod
    def build(cls, text: str, tree: ast.Module | None = None) -> "FileInfo":
        info = cls(text=text, tree=tree if tree is not None else ast.parse(text))
        info.lines = split_lines(text)
        # Only statements on lines naming a logger/tracker (or a walrus) need their expressions
        # scanned: a cheap filter that keeps a 5,000-line file fast.
        info._scan_lines = {
            i for i, line in enumerate(info.lines, 1) if _SCAN_RE.search(line)
        }
        info._collect_imports()
        info._walk(info.tree.body, info.tree, None, None)
        info.indent_unit = info._detect_indent()
        return info

    def _collect_imports(self) -> None:
        # Imports are statements: walk statement blocks only, never expressions.
        blocks = [self.tree.body]
        nodes = []
        while blocks:
            for stmt in blocks.pop():
                if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                    nodes.append(stmt)
                    continue
                for fname in ("body", "orelse", "finalbody"):
                    sub = getattr(stmt, fname, None)
                    if isinstance(sub, list) and sub and isinstance(sub[0], ast.stmt):
                        blocks.append(sub)
                for handler in getattr(stmt, "handlers", ()) or ():
                    blocks.append(handler.body)
                for case in getattr(stmt, "cases", ()) or ():
                    blocks.append(case.body)
        nodes.sort(key=lambda n: n.lineno)
        for node in nodes:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        self.imports[alias.asname] = alias.name
                    else:
                        top = alias.name.split(".")[0]
                        self.imports.setdefault(top, top)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    if alias.name != "*":
                        self.imports[alias.asname or alias.name] = f"{node.module}.{alias.name}"

    def _walk(self, block, parent, func, klass) -> None:
        for index, stmt in enumerate(block):
            ref = StmtRef(stmt, block, index, parent, func, klass)
            self.refs.setdefault(stmt.lineno, []).append(ref)
            self.by_id[id(stmt)] = ref
            bound = self.module_bound if func is None else self.func_bound.setdefault(id(func), set())
            self._note_bindings(stmt, bound, func, klass)
            if isinstance(stmt, ast.If) and func is None and is_main_guard(stmt.test):
                self.main_guard = stmt
            if isinstance(stmt, FUNC_TYPES):
                args = stmt.args
                params = self.func_bound.setdefault(id(stmt), set())
                for a in args.posonlyargs + args.args + args.kwonlyargs + [x for x in (args.vararg, args.kwarg) if x]:
                    params.add(a.arg)
                    self.first_bound.setdefault((id(stmt), a.arg), stmt.lineno)
                self._scan_exprs(stmt, stmt, klass, header_only=True)
                self._walk(stmt.body, stmt, stmt, klass)
                continue
            if isinstance(stmt, ast.ClassDef):
                bases = [_dotted(b) or "" for b in stmt.bases]
                if any(b.endswith("LightningModule") for b in bases):
                    self.lightning_classes.add(stmt.name)
                self._walk(stmt.body, stmt, func, stmt)
                continue
            self._scan_exprs(stmt, func, klass)
            for fname in ("body", "orelse", "finalbody"):
                sub = getattr(stmt, fname, None)
                if isinstance(sub, list) and sub and isinstance(sub[0], ast.stmt):
                    self._walk(sub, stmt, func, klass)
            for handler in getattr(stmt, "handlers", ()) or ():
                if handler.name:
                    bound.add(handler.name)
                self._walk(handler.body, handler, func, klass)
            for case in getattr(stmt, "cases", ()) or ():
                self._walk(case.body, case, func, klass)

    def _note_bindings(self, stmt, bound: set[str], func, klass) -> None:
        targets: list[ast.AST] = []
        if isinstance(stmt, ast.Assign):
            targets = list(stmt.targets)
        elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
            targets = [stmt.target]
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            targets = [stmt.target]
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            targets = [i.optional_vars for i in stmt.items if i.optional_vars is not None]
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            for alias in stmt.names:
                bound.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(stmt, (*FUNC_TYPES, ast.ClassDef)):
            bound.add(stmt.name)
        key = id(func) if func is not None else 0
        for t in targets:
            for n in ast.walk(t):
                if isinstance(n, ast.Name):
                    bound.add(n.id)
                    self.first_bound.setdefault((key, n.id), stmt.lineno)
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            tgts = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for t in tgts:
                if isinstance(t, ast.Name):
                    self.assigned_from.setdefault((key, t.id), stmt.value)
                elif isinstance(t, ast.Tuple) and t.elts and isinstance(t.elts[0], ast.Name):
                    # `args, unknown = parser.parse_known_args()`: the first element
                    self.assigned_from.setdefault((key, t.elts[0].id), stmt.value)
        # Loggers, writers and accelerators bound by this statement.
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and isinstance(stmt.value, ast.Call):
            called = self.resolve(_dotted(stmt.value.func)) or ""
            tgts = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for t in tgts:
                binding = None
                if isinstance(t, ast.Name):
                    binding = Binding(t.id, func, None, stmt.lineno)
                elif isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self" and klass is not None:
                    binding = Binding(f"self.{t.attr}", None, klass.name, stmt.lineno)
                if binding is None:
                    continue
                last = called.rsplit(".", 1)[-1]
                if (last == "getLogger" and "logging" in called) or (
                    # accelerate/transformers/absl-style `get_logger(__name__)`: %-style loggers
                    last == "get_logger" and "logging" in called and not called.startswith("structlog")
                ):
                    self.loggers.append((binding, "logging"))
                    if called.startswith("accelerate."):
                        # accelerate's logger raises until an Accelerator/PartialState exists.
                        self.state_bound_loggers.add(binding.name)
                elif last == "SummaryWriter":
                    self.writers.append(binding)
                elif last == "Accelerator":
                    has_trackers = any(kw.arg == "log_with" for kw in stmt.value.keywords)
                    self.accelerators.append((binding, has_trackers))
        if isinstance(stmt, ast.ImportFrom) and stmt.module == "loguru":
            for alias in stmt.names:
                if alias.name == "logger":
                    self.loggers.append((Binding(alias.asname or "logger", func, None, stmt.lineno), "loguru"))

    def _scan_exprs(self, stmt, func, klass, header_only=False) -> None:
        body = getattr(stmt, "body", None)
        last = body[0].lineno - 1 if isinstance(body, list) and body and isinstance(body[0], ast.stmt) else (stmt.end_lineno or stmt.lineno)
        first = stmt.decorator_list[0].lineno if header_only and stmt.decorator_list else stmt.lineno
        if not any(i in self._scan_lines for i in range(first, max(first, last) + 1)):
            return
        nodes: list[ast.AST] = []
        if header_only:
            nodes = list(stmt.decorator_list)
        else:
            for fname, value in ast.iter_fields(stmt):
                if fname in ("body", "orelse", "finalbody", "handlers", "cases"):
                    continue
                if isinstance(value, ast.AST):
                    nodes.append(value)
                elif isinstance(value, list):
                    nodes.extend(v for v in value if isinstance(v, ast.AST))
        for root in nodes:
            for n in ast.walk(root):
                if isinstance(n, ast.NamedExpr) and isinstance(n.target, ast.Name):
                    bound = self.module_bound if func is None else self.func_bound.setdefault(id(func), set())
                    bound.add(n.target.id)
                if not isinstance(n, ast.Call):
                    continue
                name = self.resolve(_dotted(n.func)) or ""
                head, _, attr = name.rpartition(".")
                if attr in LOG_METHODS and head in ("logger", "log"):
                    self.used_loggers.add(head)
                if name == "print":
                    self.print_used = True
                elif name.startswith("logging."):
                    attr = name.split(".", 1)[1]
                    if attr in LOG_METHODS:
                        self.logging_module_used = True
                    if attr in ("basicConfig", "config.dictConfig", "config.fileConfig"):
                        self.configures_logging = True
                        self.configure_sites.append((stmt, func))
                elif name.startswith("wandb."):
                    self.wandb_used = True
                    if name == "wandb.init":
                        self.run_starts.append((stmt.lineno, func))
                elif name.startswith("mlflow."):
                    self.mlflow_used = True
                    if name == "mlflow.start_run":
                        self.run_starts.append((stmt.lineno, func))
                elif name.endswith("init_trackers"):
                    for i, (b, _) in enumerate(self.accelerators):
                        self.accelerators[i] = (b, True)

    def _detect_indent(self) -> str:
        # The step from a block header to its first indented line, like libcst's default_indent.
        for ref_list in self.refs.values():
            for ref in ref_list:
                stmt = ref.stmt
                body = getattr(stmt, "body", None)
                if isinstance(body, list) and body and isinstance(body[0], ast.stmt) and body[0].lineno > stmt.lineno:
                    outer = indentation(self.line(stmt.lineno))
                    inner = indentation(self.line(body[0].lineno))
                    if inner.startswith(outer) and len(inner) > len(outer):
                        return inner[len(outer):]
        return "    "

    # -- queries -----------------------------------------------------------------------
    def line(self, lineno: int) -> str:
        """1-based line text without its newline ('' past the end)."""
        if 1 <= lineno <= len(self.lines):
            return strip_eol(self.lines[lineno - 1])
        return ""

    def segment(self, node: ast.AST) -> str | None:
        """Source text of a node, from the line table (``ast.get_source_segment`` re-splits the
        whole file on every call)."""
        try:
            start, end = node.lineno, node.end_lineno  # type: ignore[attr-defined]
            col, end_col = node.col_offset, node.end_col_offset  # type: ignore[attr-defined]
        except AttributeError:
            return None
        if end is None or end_col is None or not (1 <= start <= end <= len(self.lines)):
            return None
        if start == end:
            line = strip_eol(self.lines[start - 1])
            return line.encode("utf-8")[col:end_col].decode("utf-8") if not line.isascii() else line[col:end_col]
        first = self.lines[start - 1].encode("utf-8")[col:].decode("utf-8")
        last = strip_eol(self.lines[end - 1]).encode("utf-8")[:end_col].decode("utf-8")
        return first + "".join(self.lines[start:end - 1]) + last

    def resolve(self, dotted: str | None) -> str | None:
        if not dotted:
            return dotted
        head, _, rest = dotted.partition(".")
        origin = self.imports.get(head)
        if origin is None:
            return dotted
        return f"{origin}.{rest}" if rest else origin

    def module_alias(self, module: str) -> str | None:
        """The local name bound to ``module`` (``np`` for numpy), if the file imports it."""
        for local, origin in self.imports.items():
            if origin == module:
                return local
        return None

    def imports_module(self, module: str) -> bool:
        return any(o == module or o.startswith(module + ".") for o in self.imports.values())

    def stmt_at(self, lineno: int, col: int | None = None) -> StmtRef | None:
        """The outermost statement starting on a line (the one at the line's indentation)."""
        refs = self.refs.get(lineno)
        if not refs:
            return None
        return refs[0]

    def innermost_at(self, lineno: int, kinds: tuple[type, ...]) -> StmtRef | None:
        for ref in reversed(self.refs.get(lineno, [])):
            if isinstance(ref.stmt, kinds):
                return ref
        return None

    def enclosing_stmt(self, lineno: int) -> StmtRef | None:
        """The innermost statement whose span covers a line (for a site inside a statement)."""
        # Nested statements start at or after their parents: walking up from the line, the
        # first covering statement found (innermost first on its own line) is the innermost.
        for start in range(lineno, 0, -1):
            for ref in reversed(self.refs.get(start, ())):
                if (ref.stmt.end_lineno or start) >= lineno:
                    return ref
        return None

    def bound_in(self, func: ast.AST | None) -> set[str]:
        names = set(self.module_bound)
        if func is not None:
            names |= self.func_bound.get(id(func), set())
        return names

    def bound_before(self, name: str, func: ast.AST | None, line: int) -> bool:
        """``name`` is bound before ``line`` in ``func`` (parameters count) or at module level."""
        if func is not None:
            first = self.first_bound.get((id(func), name))
            if first is not None:
                return first < line or first == getattr(func, "lineno", -1)
        first = self.first_bound.get((0, name))
        if first is not None:
            return func is not None or first < line
        return name in self.imports or (name in self.module_bound and func is not None)

    def value_of(self, name: str, func: ast.AST | None) -> ast.expr | None:
        value = self.assigned_from.get((id(func) if func is not None else 0, name))
        if value is None and func is not None:
            value = self.assigned_from.get((0, name))
        return value

    def in_scope(self, name: str, func: ast.AST | None, klass: ast.ClassDef | None = None) -> bool:
        if name.startswith("self."):
            return klass is not None and func is not None and any(
                b.name == name and b.cls == klass.name for b in self.writers + [a for a, _ in self.accelerators] + [lg for lg, _ in self.loggers]
            )
        root = name.split(".")[0]
        return root in self.bound_in(func) or root in self.imports

    def logger_for(self, func: ast.AST | None) -> tuple[str, str] | None:
        """(name, kind) of a logger usable in ``func``: a module-level one or the function's own,
        else a conventional ``logger``/``log`` a snippet uses without binding it."""
        for binding, kind in self.loggers:
            if binding.func is None and binding.cls is None:
                return binding.name, kind
        for binding, kind in self.loggers:
            if func is not None and binding.func is func:
                return binding.name, kind
        for name in ("logger", "log"):
            if name in self.used_loggers and name not in self.module_bound and name not in self.imports and not any(
                name in names for names in self.func_bound.values()
            ):
                return name, "logging"
        return None

    def writer_for(self, func, klass, line: int) -> str | None:
        for b in self.writers:
            if b.cls is not None:
                if klass is not None and b.cls == klass.name and func is not None:
                    return b.name
            elif b.func is None or b.func is func:
                if b.func is None or b.line < line:
                    return b.name
        return None

    def accelerator_for(self, func, klass, line: int) -> str | None:
        for b, has_trackers in self.accelerators:
            if not has_trackers:
                continue
            if b.cls is not None:
                if klass is not None and b.cls == klass.name:
                    return b.name
            elif b.func is None or (b.func is func and b.line < line):
                return b.name
        return None

    def run_active(self, func, line: int) -> bool:
        """A tracker run was started before ``line`` in the same function (or at module level)."""
        return any((f is func or f is None) and start < line for start, f in self.run_starts)


def _dotted(node: ast.AST) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def dotted(node: ast.AST) -> str | None:
    return _dotted(node)


