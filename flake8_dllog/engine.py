"""The engine: source → ast → module facts → detectors → findings.

Public entry points (every face uses only these):

* :func:`check_source` — text or bytes of one file → :class:`CheckResult`;
* :func:`check_tree` — an already-parsed ``ast.Module`` (the flake8 plugin's path);
* :func:`check_file` — read a path and check it, never raising for bad input.
"""
from __future__ import annotations

import ast
import gc
import errno
import functools
import io
import os
import re
import stat
import tokenize
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .config import Config, config_for_path
from .detectors import REGISTRY, Report
from .detectors.saving import DL_METHODS, DL_ROOTS
from .facts import CallMemo, ModuleFacts
from .findings import Finding

PARSE_ERROR = "DLL001"

# The DL-evidence words the text gate looks for: DL_ROOTS and DL_METHODS with every word
# that contains another one dropped (`torch` finds `torchvision`, `state_dict` finds
# `load_state_dict`), the commonest first. `parameters` also ends many docstring
# sentences: only its call counts.
_COMMONEST_TOKENS = ("torch", "tensorflow", "keras", "cuda")
DL_TEXT_TOKENS: tuple[str, ...] = tuple(sorted(
    (
        word + "(" if word == "parameters" else word
        for word in {*DL_ROOTS, *DL_METHODS}
        if not any(other != word and other in word for other in {*DL_ROOTS, *DL_METHODS})
    ),
    # (the commonest first: most DL files are settled by the first scan, near their top)
    key=lambda word: (_COMMONEST_TOKENS.index(word) if word in _COMMONEST_TOKENS else len(_COMMONEST_TOKENS), word),
)) + (
    # Snippets and notebook cells use the conventional aliases without their imports.
    "tf.", "nn.",
    # Entry points that build everything through a config or a project trainer import
    # no DL library at all (`cfg = compose(...); trainer = build_trainer(cfg); trainer.fit(model)`).
    "hydra", "omegaconf", "trainer", "Trainer", ".fit(",
)

# flake8's inline noqa syntax, matched exactly as flake8 does (flake8/defaults.py):
# `# noqa`, `# noqa: DLL100`, `# noqa:DLL100,DLL200`; `#noqa` (no space) is not noqa, and
# codes are case-sensitive (`# noqa: dll100` silences nothing).
NOQA_RE = re.compile(r"# noqa(?::[\s]?(?P<codes>[A-Z]+[0-9]+(?:[,\s]+[A-Z]+[0-9]+)*))?", re.I)
# flake8's file-level `# flake8: noqa` (a line starting with it); `# dllog: noqa` too.
FILE_NOQA_RE = re.compile(r"^[ \t\f]*# (?:flake8|dllog)[:=]\s*noqa", re.I | re.M)
CODE_SPLIT_RE = re.compile(r"[,\s]+")

# Python's tokenizer (and so every ast position) ends lines at \r\n, \r and \n only;
# str.splitlines() also breaks at these, which would shift every line after one of them.
_NOT_LINE_BREAKS = ("\x0c", "\x0b", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")
LINE_BREAK_RE = re.compile(r"\r\n|\r|\n")


@dataclass
class CheckResult:
    path: str
    findings: list[Finding] = field(default_factory=list)
    error: str | None = None  # one line, when the file could not be checked at all
    source: str | None = None  # the decoded text (for fixes and reports)


class SourceError(Exception):
    """The file cannot be decoded or parsed; the message is one line."""

    def __init__(self, message: str, line: int = 1, column: int = 0):
        super().__init__(message)
        self.line = line
        self.column = column


def decode_source(data: bytes) -> str:
    """Decode bytes the way Python would (PEP 263 cookie, BOM), or raise SourceError."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        msg = str(exc.msg if hasattr(exc, "msg") else exc)
        if not msg.startswith("invalid or missing encoding declaration"):
            raise SourceError(f"file could not be decoded: {msg}") from None
        # Non-UTF-8 bytes in the first two lines: decode below to report the real line.
        encoding = "utf-8"
    try:
        text = data.decode(encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        line = data[: getattr(exc, "start", 0)].count(b"\n") + 1
        reason = exc.reason if isinstance(exc, UnicodeDecodeError) else str(exc)
        raise SourceError(f"file could not be decoded as {encoding}: {reason}", line=line) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


def split_source_lines(text: str) -> list[str]:
    """The source's lines as ``ast`` numbers them, without their line endings.

    Like ``text.splitlines()`` (no empty last line after a final newline) but breaking only
    at ``\\r\\n``, ``\\r``, ``\\n``: a form feed or U+2028 does not end a line. The C-speed
    ``splitlines()`` is used whenever none of the characters it alone breaks at occurs.
    """
    for ch in _NOT_LINE_BREAKS:
        if ch in text:
            break
    else:
        return text.splitlines()
    lines = LINE_BREAK_RE.split(text)
    if not lines[-1]:
        lines.pop()
    return lines


def parse_source(text: str, path: str = "<unknown>", *, notebook: bool = True) -> ast.Module:
    """The module's tree, or SourceError. ``notebook``: a notebook export's IPython lines
    (``!pip ...``, ``%cd``) are read as ``pass`` when they are what keeps it from parsing —
    for analysis; the fixes pass False, as an edit planned on that tree could land among
    lines Python cannot run."""
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise SourceError("file could not be parsed: source contains a NUL byte", line=line)
    try:
        return ast.parse(text, filename=path)
    except SyntaxError as exc:
        tree = _parse_notebook_export(text, path) if notebook else None
        if tree is not None:
            return tree
        msg = exc.msg or "invalid syntax"
        raise SourceError(f"file could not be parsed: {msg}", line=exc.lineno or 1, column=max((exc.offset or 1) - 1, 0)) from None
    except (ValueError, RecursionError, MemoryError) as exc:
        raise SourceError(f"file could not be parsed: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}") from None


# A line that is an IPython shell escape or magic (`!pip install ...`, `%cd /content`,
# `%%time`), or Colab's automagic `pip install x` without the `!`: notebooks exported to
# .py keep them, and Python cannot parse them.
_IPYTHON_LINE = re.compile(r"^([ \t]*)(?:[!%]|(?:pip3?|apt-get|apt|conda|nvidia-smi|wget) )")


def _parse_notebook_export(text: str, path: str) -> ast.Module | None:
    """The tree of a notebook export whose IPython lines are read as ``pass`` (same line
    count, so every position stays right), or None when that is not what kept it from
    parsing. Like ruff and nbqa, the rest of the notebook is checked."""
    if "!" not in text and "%" not in text and "pip" not in text and "apt" not in text and "wget" not in text:
        return None
    lines = text.split("\n")
    changed = False
    for i, line in enumerate(lines):
        match = _IPYTHON_LINE.match(line)
        if match:
            lines[i] = match.group(1) + "pass"
            changed = True
    if not changed:
        return None
    try:
        return ast.parse("\n".join(lines), filename=path)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _error_finding(path: str, err: SourceError) -> Finding:
    return Finding(
        code=PARSE_ERROR,
        message=str(err),
        line=err.line,
        column=err.column,
        end_line=err.line,
        end_column=err.column,
        path=path,
        severity="error",
        fixable=False,
    )


def check_source(
    source: str | bytes,
    path: str = "<stdin>",
    config: Config | None = None,
    *,
    noqa: bool = True,
    codes: frozenset[str] | None = None,
    parse: "Callable[[str, str], ast.Module] | None" = None,
    call_memo: "CallMemo | None" = None,
) -> CheckResult:
    """Check one file's text. Never raises for bad input: it becomes a DLL001 finding.

    ``parse``: a parser with :func:`parse_source`'s contract, e.g. an
    :class:`~flake8_dllog.incremental.IncrementalParser`'s ``parse`` for an edited document;
    ``call_memo``: that document's :class:`~flake8_dllog.facts.CallMemo`.
    """
    config = config or config_for_path(path if path and not path.startswith("<") else None)
    result = CheckResult(path=path)
    # An AST holds no reference cycles: the cyclic GC scanning it while it is being built
    # is wasted time (10-30% of a parse), and so is a collection between the parse and the
    # analysis (it would traverse every node of the fresh tree). check_tree() keeps it off
    # while it runs too; the tree is freed by reference counting when we return.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        try:
            text = decode_source(source) if isinstance(source, bytes) else source
            if text.startswith("\ufeff"):
                text = text[1:]
            result.source = text
            tree = (parse or parse_source)(text, path)
        except SourceError as err:
            result.error = str(err)
            result.findings = [_error_finding(path, err)]
            return result
        # The DL gate first: a file it skips has no findings, whether or not it says
        # `# flake8: noqa`, and the noqa test lower-cases a copy of the whole text.
        if not mentions_deep_learning(text, config):
            return result  # (check_tree() asks too; here it also spares splitting the lines)
        if noqa and _may_say_file_noqa(text) and FILE_NOQA_RE.search(text):
            return result
        lines = split_source_lines(text)
        result.findings = check_tree(tree, lines, path, config, noqa=noqa, codes=codes, call_memo=call_memo, text=text, _gated=True)
        return result
    finally:
        if gc_was_enabled:
            gc.enable()


def check_tree(
    tree: ast.Module,
    lines: list[str],
    path: str,
    config: Config,
    *,
    noqa: bool = False,
    codes: frozenset[str] | None = None,
    call_memo: "CallMemo | None" = None,
    text: str | None = None,
    _gated: bool = False,
) -> list[Finding]:
    """Run the enabled detectors over a parsed module (``text``: its source, when the
    caller has it; else it is joined from ``lines`` if a detector asks). ``_gated``:
    check_source() has already seen that the text mentions deep learning."""
    enabled = codes if codes is not None else config.enabled_codes(path)
    if not enabled or config.is_test_path(path):
        return []
    if not _gated and not mentions_deep_learning(text if text is not None else "".join(lines), config):
        return []
    # The facts are many small objects created while the whole tree is alive; letting the
    # cyclic GC scan that tree again and again doubled the run time. Nothing here needs
    # the cyclic collector: facts.release() breaks the few cycles when we are done.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    facts = ModuleFacts(tree, lines, config.vocabulary, print_is_logging=config.print_is_logging, call_memo=call_memo,
                       text=text if text is not None and "\r" not in text else None)
    try:
        return _run_detectors(facts, enabled, path, config, lines, noqa)
    finally:
        facts.release()
        if gc_was_enabled:
            gc.enable()


def mentions_deep_learning(text: str, config: Config) -> bool:
    """Whether the file's text names a deep-learning library, a call only DL code makes
    (``.backward(``, ``.cuda(``, ``state_dict``...) or one of the project's own vocabulary
    entries. Every rule is about DL code, and a file without any of these is not: the
    data-prep and scikit-learn scripts and plain modules that make up most of a project
    are skipped before the facts walk (their only findings on ~1,100 reviewed public
    files were false alarms). A substring test, so it only ever errs towards checking."""
    for token in _gate_tokens(config.vocabulary_extra):
        cls = token.__class__
        if cls is str:
            if token in text:
                return True
        elif cls is tuple:
            shared, words = token
            if shared in text and any(word in text for word in words):
                return True
        elif token.search(text):
            return True
    return False


# Parts shared by several gate words and found in few files without them: in a file that
# lacks the part (most files the gate skips) one scan for it replaces one per word.
_SHARED_GATE_PARTS = ("tensor", "_grad", "_pretrained", "_weights", "rainer")


def _grouped_by_shared_part(words: "tuple[str, ...]") -> list:
    """``words`` in their order, those containing a part of _SHARED_GATE_PARTS gathered
    into one ``(part, words)`` entry where the first of them stood."""
    entries: list = []
    groups: dict[str, list[str]] = {}
    for word in words:
        part = next((p for p in _SHARED_GATE_PARTS if p in word), None)
        if part is None:
            entries.append(word)
        elif part in groups:
            groups[part].append(word)
        else:
            groups[part] = [word]
            entries.append(part)
    return [(entry, tuple(groups[entry])) if entry in groups else entry for entry in entries]


@functools.lru_cache(maxsize=64)
def _gate_tokens(vocabulary_extra: tuple) -> tuple:
    tokens: list = _grouped_by_shared_part(DL_TEXT_TOKENS)
    for category, patterns in vocabulary_extra:
        if category.startswith("logging"):
            continue  # more logging evidence can only silence a rule
        for pattern in patterns:
            # The longest literal run of the pattern's last segment (patterns are
            # case-insensitive); a pattern with none (`**.*`) matches any file.
            literal = max(pattern.rsplit(".", 1)[-1].split("*"), key=len)
            if not literal:
                return ("",)
            tokens.append(re.compile(re.escape(literal), re.I))
    return tuple(tokens)


def _run_detectors(facts: ModuleFacts, enabled, path: str, config: Config, lines: list[str], noqa: bool) -> list[Finding]:
    findings: list[Finding] = []
    seen: set[tuple] = set()
    noqa_lines: dict[int, str] | None = None
    for code, rule in _rules_for(enabled, config.catalog):
        detector = REGISTRY.get(code)
        if detector is None:
            continue
        try:
            reports = list(detector(facts, config))
        except Exception as exc:  # a bug in one detector: one line for this file, the run goes on
            if os.environ.get("DLLOG_DEBUG"):
                raise
            findings.append(_internal_error(path, code, exc))
            continue
        for report in reports:
            finding = _to_finding(code, report, facts, path, config, rule.message)
            if finding is None:
                continue
            key = (finding.code, finding.line, finding.column)
            if key in seen:
                continue
            seen.add(key)
            if noqa:
                if noqa_lines is None:
                    noqa_lines = noqa_line_mapping(lines, facts.text)
                if is_noqa(lines, finding, noqa_lines):
                    continue
            findings.append(finding)
    findings.sort(key=Finding.sort_key)
    return findings


def _rules_for(enabled: frozenset[str], catalog) -> tuple:
    """(code, rule) of the enabled rules, in code order: the same few selections come back
    for every file."""
    key = (enabled, id(catalog))
    found = _RULE_LISTS.get(key)
    if found is None or found[0] is not catalog:
        if len(_RULE_LISTS) > 64:
            _RULE_LISTS.clear()
        found = _RULE_LISTS[key] = (catalog, tuple((code, catalog.rules[code]) for code in sorted(enabled)))
    return found[1]


_RULE_LISTS: dict[tuple, tuple] = {}


def _internal_error(path: str, code: str, exc: Exception) -> Finding:
    detail = str(exc).splitlines()[0] if str(exc) else ""
    return Finding(
        code=PARSE_ERROR,
        message=f"file could not be checked: internal error in the {code} detector ({type(exc).__name__}: {detail}); please report it",
        line=1,
        column=0,
        end_line=1,
        end_column=0,
        path=path,
        severity="error",
        fixable=False,
    )


def _to_finding(code: str, report: Report, facts: ModuleFacts, path: str, config: Config, message: str) -> Finding | None:
    node = report.node
    if report.span is not None:
        line, col, end_line, end_col = report.span
    else:
        line = getattr(node, "lineno", 1)
        col = getattr(node, "col_offset", 0)
        end_line = getattr(node, "end_lineno", None) or line
        end_col = getattr(node, "end_col_offset", None) or col
    # Test code is not a training run: stay silent inside tests and fixtures.
    if not config.check_tests and facts.has_test_scopes():
        info = facts.info(node) if isinstance(node, ast.stmt) else None
        scope = info.scope if info else _scope_of_line(facts, line)
        if scope is not None and facts.is_test_scope(scope):
            return None
    context = dict(report.context)
    context.setdefault("rule", code)
    return Finding(
        code=code,
        message=report.message or message,
        line=line,
        column=facts.char_col(line, col),
        end_line=end_line,
        end_column=facts.char_col(end_line, end_col),
        path=path,
        severity=config.severity_for(code),
        fixable=report.fixable,
        context=context,
    )


def _scope_of_line(facts: ModuleFacts, line: int):
    best = None
    for scope in facts.scopes:
        if scope.is_module:
            continue
        start = scope.node.lineno
        end = scope.node.end_lineno or start
        if start <= line <= end and (best is None or start >= best.node.lineno):
            best = scope
    return best


def is_noqa(lines: list[str], finding: Finding, noqa_lines: dict[int, str] | None = None) -> bool:
    """flake8's rule (flake8/violation.py): the first `# noqa` on the finding's line
    decides; a code list silences codes equal to or starting with a listed code."""
    if finding.line < 1 or finding.line > len(lines):
        return False
    line = noqa_lines.get(finding.line) if noqa_lines else None
    if line is None:
        line = lines[finding.line - 1]
    if "noqa" not in line.lower():
        return False
    m = NOQA_RE.search(line)
    if m is None:
        return False
    codes = m.group("codes")
    if not codes:
        return True
    wanted = tuple(c for c in CODE_SPLIT_RE.split(codes) if c)
    return finding.code in wanted or finding.code.startswith(wanted)


def may_say_noqa(text: str) -> bool:
    """Does some line say noqa, in any letter case (a superset of what NOQA_RE and
    FILE_NOQA_RE find)? Lower-casing a copy and one substring scan cost a third of one
    case-insensitive regex search over the text."""
    return "noqa" in text.lower()


def _may_say_file_noqa(text: str) -> bool:
    """A cheap superset of FILE_NOQA_RE: the multi-line regex search is slow on long text."""
    lowered = text.lower()
    return "noqa" in lowered and ("flake8" in lowered or "dllog" in lowered)


def noqa_line_mapping(lines: list[str], text: str | None = None) -> dict[int, str]:
    """flake8's ``FileProcessor._noqa_line_mapping``: a line inside a token that spans
    lines (a triple-quoted string, a backslash continuation) is searched for ``# noqa``
    together with the other lines of its range. Only computed when some line says noqa.
    ``text``: the lines joined with ``\n``, when the caller has it."""
    if not may_say_noqa("\n".join(lines) if text is None else text):
        return {}
    text_lines = [line + "\n" for line in lines]
    ret: dict[int, str] = {}
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO("".join(text_lines)).readline))
    except (tokenize.TokenError, SyntaxError):
        return {}
    min_line, max_line = len(lines) + 2, -1
    for tok in tokens:
        if tok.type in (tokenize.ENDMARKER, tokenize.DEDENT):
            continue
        min_line = min(min_line, tok.start[0])
        max_line = max(max_line, tok.end[0])
        if tok.type in (tokenize.NL, tokenize.NEWLINE):
            if max_line > min_line:
                joined = "".join(text_lines[min_line - 1 : max_line])
                for n in range(min_line, max_line + 1):
                    ret[n] = joined
            min_line, max_line = len(lines) + 2, -1
    return ret


def read_source_bytes(path: "str | Path") -> bytes:
    # O_NONBLOCK: opening a FIFO named x.py must not hang the run; only regular files
    # are read (a FIFO, socket or device is "not a regular file").
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        with os.fdopen(fd, "rb") as fh:
            fd = -1
            return fh.read()
    finally:
        if fd >= 0:
            os.close(fd)


def check_file(path: str | Path, config: Config | None = None, *, codes: frozenset[str] | None = None) -> CheckResult:
    """Read and check a file; unreadable input becomes an error result, never an exception."""
    shown = str(path)
    try:
        data = read_source_bytes(path)
    except OSError as exc:
        return CheckResult(path=shown, error=f"cannot read file: {exc.strerror or exc}")
    try:
        cfg = config or config_for_path(path)
    except Exception as exc:  # ConfigError is reported by the caller; keep going here
        return CheckResult(path=shown, error=str(exc))
    return check_source(data, shown, cfg, codes=codes)
