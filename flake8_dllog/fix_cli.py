"""`dllog fix`: insert the logging the findings ask for.

Writes each changed file atomically (a temporary file in the same directory, then
``os.replace``; the file's mode is kept), refuses files that do not parse, and never writes a
file it was not asked to fix. Exit status like ruff: 0 when nothing is left to fix, 1 when
findings remain (or, with ``--diff``, when there are changes to make), 2 on usage errors.
"""
from __future__ import annotations

import argparse
import difflib
import io
import os
import stat
import sys
import tempfile
import tokenize
from pathlib import Path

from .cli import EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, add_selection_arguments, collect_files, overrides_from, resolve_config
from .config import BACKENDS
from .fixes import fix_source
from .fixes.text import split_lines


def register(subparsers) -> None:
    fix = subparsers.add_parser("fix", help="insert the logging the findings ask for")
    add_selection_arguments(fix)
    fix.add_argument("--diff", action="store_true", help="print a unified diff of the fixes and write nothing")
    fix.add_argument("--backend", choices=BACKENDS, help="write fixes for this backend instead of the file's own")
    fix.set_defaults(func=cmd_fix)


class Unfixable(Exception):
    """The file cannot be fixed safely (unreadable, undecodable, unparsable); one line."""


def _decode(data: bytes) -> tuple[str, str]:
    """(text, encoding) as Python reads the file; ``utf-8-sig`` keeps a BOM on the way back."""
    if b"\x00" in data:
        raise Unfixable("refusing to fix: file contains a NUL byte")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding), encoding
    except (SyntaxError, UnicodeDecodeError, LookupError) as exc:
        raise Unfixable(f"refusing to fix: file could not be decoded ({exc})") from None


def write_atomic(path: Path, data: bytes) -> None:
    """Replace ``path``'s content in one step; a crash leaves the old file or the new one."""
    real = Path(os.path.realpath(path))
    mode = stat.S_IMODE(real.stat().st_mode)
    fd, tmp = tempfile.mkstemp(dir=real.parent, prefix=f".{real.name}.", suffix=".dllog-tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, real)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _diff(path: str, old: str, new: str) -> str:
    lines = difflib.unified_diff(split_lines(old), split_lines(new), fromfile=f"a/{path}", tofile=f"b/{path}")
    out = []
    for line in lines:
        out.append(line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def fix_file(path: Path, overrides: dict, *, diff: bool, backend: str | None, out) -> tuple[int, int, bool]:
    """Fix one file; returns (fixed, remaining, changed)."""
    cfg = resolve_config(path, overrides)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise Unfixable(f"cannot read file: {exc.strerror or exc}") from None
    text, encoding = _decode(data)
    result = fix_source(text, str(path), cfg, backend=backend)
    errors = [f for f in result.remaining if f.code == "DLL001"]
    if errors:
        raise Unfixable(f"refusing to fix: {errors[0].message} (line {errors[0].line})")
    changed = result.source != text
    if changed:
        if diff:
            out.write(_diff(str(path), text, result.source))
        else:
            write_atomic(path, result.source.encode(encoding))
            codes = ", ".join(f"{f.code} (line {f.line})" for f in result.fixed)
            out.write(f"{path}: fixed {len(result.fixed)}: {codes}\n")
    for f in result.remaining:
        stream = sys.stderr if diff else out
        stream.write(f"{path}:{f.line}:{f.column + 1}: {f.code} {f.message} (not fixed)\n")
    return len(result.fixed), len(result.remaining), changed


def cmd_fix(ns: argparse.Namespace) -> int:
    overrides = overrides_from(ns)
    files, errors = collect_files(ns, overrides)
    fixed = remaining = changed_files = failed = 0
    out = sys.stdout
    for path in files:
        try:
            n_fixed, n_remaining, changed = fix_file(path, overrides, diff=ns.diff, backend=ns.backend, out=out)
        except Unfixable as exc:
            print(f"dllog: {path}: {exc}", file=sys.stderr)
            failed += 1
            continue
        except OSError as exc:  # e.g. a read-only directory: report it, go on with the next file
            print(f"dllog: {path}: cannot write: {exc.strerror or exc}", file=sys.stderr)
            failed += 1
            continue
        fixed += n_fixed
        remaining += n_remaining
        changed_files += changed
    for err in errors:
        print(f"dllog: {err}", file=sys.stderr)
    verb = "would fix" if ns.diff else "fixed"
    print(
        f"dllog: {verb} {fixed} finding{'s' * (fixed != 1)} in {changed_files} file{'s' * (changed_files != 1)}"
        f"; {remaining} remaining" + (f"; {failed} file{'s' * (failed != 1)} not fixable" if failed else ""),
        file=sys.stderr,
    )
    if errors and not files:
        return EXIT_USAGE
    if ns.diff:
        return EXIT_FINDINGS if changed_files or remaining or failed else EXIT_CLEAN
    return EXIT_FINDINGS if remaining or failed else EXIT_CLEAN
