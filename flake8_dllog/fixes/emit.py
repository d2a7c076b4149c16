"""Where inserted code goes and how it is written: placements, indentation, the file's
newline, and the header (``import logging`` + ``logger = logging.getLogger(__name__)``)
a file without a logger needs.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass

from .analysis import FUNC_TYPES, STDLIB, FileInfo, StmtRef, dotted
from .templates import setting
from .text import TextEdit, byte_to_char, indentation, line_ending, strip_eol

TEMPLATE_INDENT = "    "


@dataclass(frozen=True)
class Point:
    """Insert before 0-based ``line`` at column 0, indented with ``indent``."""

    line: int
    indent: str
    func: ast.AST | None
    cls: ast.ClassDef | None


def _starts_its_line(info: FileInfo, stmt: ast.stmt) -> bool:
    line = info.line(stmt.lineno)
    return len(indentation(line)) == byte_to_char(line, stmt.col_offset)


def after(info: FileInfo, ref: StmtRef) -> Point | None:
    if not _starts_its_line(info, ref.stmt):
        return None
    # A log written before the logging configuration that follows would be dropped.
    index = ref.index
    while index + 1 < len(ref.block) and _configures_logging(info, ref.block[index + 1]):
        index += 1
    if index != ref.index:
        ref = info.by_id.get(id(ref.block[index]), ref)
    end = ref.stmt.end_lineno or ref.stmt.lineno
    # `a(); b()` on the anchor's last line: go after the whole line.
    return Point(end, indentation(info.line(ref.stmt.lineno)), ref.func, ref.cls)


def before(info: FileInfo, ref: StmtRef) -> Point | None:
    if not _starts_its_line(info, ref.stmt):
        return None
    return Point(ref.stmt.lineno - 1, indentation(info.line(ref.stmt.lineno)), ref.func, ref.cls)


def body_of(stmt: ast.AST) -> list[ast.stmt]:
    body = getattr(stmt, "body", None)
    return body if isinstance(body, list) else []


def loop_end(info: FileInfo, ref: StmtRef) -> Point | None:
    body = body_of(ref.stmt)
    if not body or body[0].lineno == ref.stmt.lineno:
        return None  # one-line suite: `for x in y: step(x)`
    last = body[-1]
    func = ref.stmt if isinstance(ref.stmt, FUNC_TYPES) else ref.func
    return Point(last.end_lineno or last.lineno, indentation(info.line(body[0].lineno)), func, ref.cls)


def body_start(info: FileInfo, ref: StmtRef, *, after_setup: bool = True) -> Point | None:
    """The start of a compound statement's body, past a docstring and past the set-up lines
    (logging configuration) a log must not precede."""
    body = body_of(ref.stmt)
    if not body or body[0].lineno == ref.stmt.lineno:
        return None
    func = ref.stmt if isinstance(ref.stmt, FUNC_TYPES) else ref.func
    index = 0
    if isinstance(ref.stmt, FUNC_TYPES) and _is_docstring(body[0]):
        index = 1
    if after_setup:
        for i, stmt in enumerate(body[index:], index):
            if _configures_logging(info, stmt):
                index = i + 1
    if index >= len(body):
        last = body[-1]
        return Point(last.end_lineno or last.lineno, indentation(info.line(body[0].lineno)), func, ref.cls)
    target = body[index]
    return Point(target.lineno - 1, indentation(info.line(target.lineno)), func, ref.cls)


def _configures_logging(info: FileInfo, stmt: ast.stmt) -> bool:
    if not isinstance(stmt, ast.Expr) or not isinstance(stmt.value, ast.Call):
        return False
    func = stmt.value.func
    name = info.resolve(dotted(func)) or ""
    return name in ("logging.basicConfig", "logging.config.dictConfig", "logging.config.fileConfig") or name.endswith(".add") and "logger" in name


def _is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)


# -- the module header -----------------------------------------------------------------

def _leading_block(info: FileInfo) -> tuple[list[ast.stmt], int]:
    """(import statements of the leading block, 1-based last line of docstring/__future__)."""
    imports: list[ast.stmt] = []
    preamble_end = 0
    for i, stmt in enumerate(info.tree.body):
        if i == 0 and _is_docstring(stmt):
            preamble_end = stmt.end_lineno or stmt.lineno
            continue
        if isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__":
            preamble_end = stmt.end_lineno or stmt.lineno
            continue
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            imports.append(stmt)
            continue
        if isinstance(stmt, (ast.Try, ast.If)) and stmt.body and all(isinstance(s, (ast.Import, ast.ImportFrom)) for s in stmt.body):
            imports.append(stmt)
            continue
        break
    return imports, preamble_end


def _module_of(stmt: ast.stmt) -> str:
    if isinstance(stmt, ast.Import):
        return stmt.names[0].name
    if isinstance(stmt, ast.ImportFrom):
        return stmt.module or ""
    return "\uffff"


def import_edit(info: FileInfo, statement: str, module: str) -> TextEdit:
    """Insert an import into the leading import block: a stdlib module in sorted place among
    the stdlib imports, anything else after the last import."""
    imports, preamble_end = _leading_block(info)
    simple = [s for s in imports if isinstance(s, (ast.Import, ast.ImportFrom))]
    if module.split(".")[0] in STDLIB:
        stdlib = [s for s in simple if _module_of(s).split(".")[0] in STDLIB]
        for stmt in stdlib:
            if _module_of(stmt) > module:
                return insert_at(info, stmt.lineno - 1, [statement])
        if stdlib:
            last = stdlib[-1]
            return insert_at(info, last.end_lineno or last.lineno, [statement])
        if imports:
            return insert_at(info, imports[0].lineno - 1, [statement])
    elif imports:
        last = imports[-1]
        return insert_at(info, last.end_lineno or last.lineno, [statement])
    if preamble_end:
        return insert_at(info, preamble_end, [statement])
    return insert_at(info, 0, [statement])


def _after_leading_comments(info: FileInfo) -> int:
    """0-based line after the shebang/comment block and docstring/__future__ at the top."""
    _, preamble_end = _leading_block(info)
    line = preamble_end
    while line < len(info.lines) and info.line(line + 1).lstrip().startswith("#"):
        line += 1
    if line == 0:
        return 0
    # Keep a blank line that follows the block where it is.
    return line + 1 if line < len(info.lines) and not info.line(line + 1).strip() else line


def after_imports_line(info: FileInfo) -> int:
    imports, preamble_end = _leading_block(info)
    if imports:
        return imports[-1].end_lineno or imports[-1].lineno
    return preamble_end


def module_code_start(info: FileInfo) -> int:
    """1-based last line of the module's set-up: docstring, imports, the logger and logging
    configuration. Code inserted at the start of a script goes after it."""
    imports, preamble_end = _leading_block(info)
    end = after_imports_line(info)
    seen_import = bool(imports)
    for stmt in info.tree.body:
        if (stmt.end_lineno or stmt.lineno) <= end:
            continue
        if isinstance(stmt, (ast.Import, ast.ImportFrom)) or _is_logger_setup(info, stmt):
            end = stmt.end_lineno or stmt.lineno
            continue
        break
    if seen_import or end:
        return end
    # No imports: after the shebang / leading comment block, where the logging header goes too.
    return max(preamble_end, _after_leading_comments(info))


def _is_logger_setup(info: FileInfo, stmt: ast.stmt) -> bool:
    if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and isinstance(stmt.value, ast.Call):
        name = info.resolve(dotted(stmt.value.func)) or ""
        return name.endswith("getLogger") or name.endswith("get_logger")
    return _configures_logging(info, stmt)


def logger_header_edits(info: FileInfo, logger_name: str, *, configure: bool) -> list[TextEdit]:
    """``import logging`` (when missing) and ``logger = logging.getLogger(__name__)`` after the
    imports; with ``configure``, ``logging.basicConfig(level=logging.INFO)`` where the script
    starts, so the INFO records it will emit are shown at all."""
    header = setting("header") or {}
    edits = []
    if info.imports.get("logging") != "logging":
        edits.append(import_edit(info, header.get("import", "import logging"), "logging"))
    imports, _ = _leading_block(info)
    logger_stmt = header.get("logger", "logger = logging.getLogger(__name__)").replace("logger =", f"{logger_name} =", 1)
    lines = [logger_stmt]
    if configure and info.main_guard is None:
        lines.append(header.get("basic_config", "logging.basicConfig(level=logging.INFO)"))
    if imports:
        line = after_imports_line(info)
        lines.insert(0, "")
    else:
        # No imports: the header starts the code, after a leading comment block / docstring.
        edits = []
        line = _after_leading_comments(info)
        lines = [header.get("import", "import logging"), "", *lines]
    following = info.line(line + 1)
    if following.strip() and line < len(info.lines):
        # PEP 8: two blank lines before a top-level def/class, one before other code.
        lines += ["", ""] if following.startswith(("def ", "class ", "async def ", "@")) else [""]
    edits.append(insert_at(info, line, lines))
    if configure and info.main_guard is not None:
        point = body_start(info, info.by_id[id(info.main_guard)], after_setup=False)
        if point is not None:
            edits.append(insert_at(info, point.line, [header.get("basic_config", "logging.basicConfig(level=logging.INFO)")], point.indent))
    return edits


# -- writing code ----------------------------------------------------------------------

def reindent(code: str, indent: str, unit: str) -> list[str]:
    """Template lines (4-space levels) → the file's indentation (tabs stay tabs)."""
    out = []
    for raw in code.rstrip("\n").split("\n"):
        stripped = raw.lstrip(" ")
        if not stripped:
            out.append("")
            continue
        levels = (len(raw) - len(stripped)) // len(TEMPLATE_INDENT)
        out.append(indent + unit * levels + stripped)
    return out


def insert_at(info: FileInfo, line: int, lines: list[str], indent: str = "") -> TextEdit:
    """Insert whole lines before 0-based ``line`` (at the end of a file without a final newline,
    a newline is put first)."""
    nl = line_ending(info.text)
    body = "".join((indent + l if l else "") + nl for l in lines)
    if line >= len(info.lines):
        if info.lines and not info.lines[-1].endswith(("\n", "\r")):
            last = len(info.lines) - 1
            col = len(strip_eol(info.lines[last]))
            return TextEdit(last, col, last, col, nl + body[: -len(nl)])
        line = len(info.lines)
    return TextEdit(line, 0, line, 0, body)


def _after_accelerator(info: FileInfo, point: Point, code: str) -> Point:
    """accelerate's `get_logger` logger raises before `Accelerator()` exists: a log through it
    goes after the function's `accelerator = Accelerator(...)` when that comes later."""
    if not any(f"{name}." in code for name in info.state_bound_loggers):
        return point
    for binding, _ in info.accelerators:
        if binding.func is not point.func or binding.line <= point.line:
            continue
        ref = info.stmt_at(binding.line)
        if ref is None or indentation(info.line(binding.line)) != point.indent:
            continue
        moved = after(info, ref)
        if moved is not None:
            return moved
    return point


def _after_imports_it_needs(info: FileInfo, point: Point, code: str) -> Point:
    """Module-level code goes below the imports of the names it uses: a script that sets
    ``os.environ[...]`` or ``sys.path`` before ``import torch`` must not get its seeding
    above that import."""
    if point.func is not None or point.indent:
        return point
    try:
        inserted = ast.parse(code)
    except SyntaxError:
        return point
    loaded: set[str] = set()
    stored: set[str] = set()
    for node in ast.walk(inserted):
        if isinstance(node, ast.Name):
            (loaded if isinstance(node.ctx, ast.Load) else stored).add(node.id)
    needed = loaded - stored
    line = point.line
    for stmt in info.tree.body:
        if not needed:
            break
        imports = [stmt] if isinstance(stmt, (ast.Import, ast.ImportFrom)) else [
            n for n in ast.walk(stmt) if isinstance(n, (ast.Import, ast.ImportFrom))
        ] if isinstance(stmt, (ast.Try, ast.If)) else []
        for imp in imports:
            bound = {a.asname or a.name.split(".")[0] for a in imp.names}
            if bound & needed:
                needed -= bound  # its first import is the one that counts
                if stmt.lineno > point.line:  # below the insertion: move under it
                    line = max(line, stmt.end_lineno or stmt.lineno)
    if line == point.line:
        return point
    # ...and under the imports right after that one, not into the middle of their run.
    for stmt in info.tree.body:
        if stmt.lineno <= line:
            continue
        if not isinstance(stmt, (ast.Import, ast.ImportFrom)):
            break
        line = stmt.end_lineno or stmt.lineno
    return Point(line, "", None, None)


def code_edit(info: FileInfo, point: Point, code: str, *, separate: bool = False) -> TextEdit:
    """``separate``: a block of its own at module level, set off by blank lines (PEP 8)."""
    point = _after_imports_it_needs(info, _after_accelerator(info, point, code), code)
    lines = reindent(code, point.indent, info.indent_unit)
    if separate:
        if point.line > 0 and info.line(point.line).strip():
            lines.insert(0, "")
        if point.line < len(info.lines) and info.line(point.line + 1).strip():
            lines.append("")
    return insert_at(info, point.line, lines)
