"""The `dllog` command line: check, fix, report, explain, rules, lsp."""
from __future__ import annotations

import argparse
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Iterable, Iterator, Sequence

from . import __version__
from .catalog import load_catalog
from .config import CODE_RE, Config, ConfigError, config_for_path, load_config_file
from .engine import PARSE_ERROR, check_file
from .findings import Finding
from .output import FORMATTERS, statistics

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
PROGRESS_MIN_FILES = 200


class UsageError(Exception):
    pass


# -- file discovery -------------------------------------------------------------------

def iter_python_files(paths: Sequence[str], config_of, errors: list[str]) -> Iterator[Path]:
    """Python files under ``paths``: skips excluded dirs, never follows directory links."""
    seen: set[str] = set()
    for raw in paths:
        p = Path(raw)
        if not os.path.lexists(p):
            errors.append(f"{raw}: no such file or directory")
            continue
        if not p.is_dir():
            # Files, and anything else named explicitly (a FIFO, a dangling or looping
            # link): check_file reports what cannot be read as one DLL001 line.
            key = os.path.abspath(p)
            if key not in seen:
                seen.add(key)
                yield p
            continue
        for root, dirs, files in os.walk(p, followlinks=False, onerror=lambda e: errors.append(f"{e.filename}: {e.strerror}")):
            root_path = Path(root)
            cfg = config_of(root_path)
            dirs[:] = sorted(d for d in dirs if not cfg.is_excluded(root_path / d) and not (root_path / d).is_symlink())
            for name in sorted(files):
                if not name.endswith((".py", ".pyi")) or name.endswith(".pyi"):
                    continue
                fp = root_path / name
                if cfg.is_excluded(fp):
                    continue
                key = os.path.abspath(fp)
                if key not in seen:
                    seen.add(key)
                    yield fp


# -- checking -------------------------------------------------------------------------

_OVERRIDES: dict = {}


def _apply_overrides(cfg: Config, overrides: dict) -> Config:
    changes = {}
    if overrides.get("select") is not None:
        changes["select"] = tuple(overrides["select"])
    if overrides.get("extend_select"):
        changes["extend_select"] = cfg.extend_select + tuple(overrides["extend_select"])
    if overrides.get("ignore"):
        changes["ignore"] = cfg.ignore + tuple(overrides["ignore"])
    if overrides.get("check_tests"):
        changes["check_tests"] = True
    return replace(cfg, **changes) if changes else cfg


def resolve_config(path: str | Path, overrides: dict) -> Config:
    explicit = overrides.get("config_file")
    cfg = load_config_file(Path(explicit)) if explicit else config_for_path(path)
    return _apply_overrides(cfg, overrides)


def _check_worker(args: tuple[str, dict]) -> tuple[list[Finding], str | None]:
    path, overrides = args
    try:
        cfg = resolve_config(path, overrides)  # the str as given: no Path object per file
    except ConfigError as exc:
        return [], f"config:{exc}"
    result = check_file(path, cfg)
    if result.error and not result.findings:
        # Unreadable file: one line, reported like a parse error so every format shows it.
        return [Finding(PARSE_ERROR, result.error, 1, 0, 1, 0, path=path, severity="error")], None
    return result.findings, None


def run_per_file(worker, files: list[Path], overrides: dict, jobs: int, progress: bool, label: str = "") -> Iterator:
    """``worker((path, overrides))`` for every file, in order, over ``jobs`` processes, with
    a progress bar on stderr for large runs on a terminal."""
    work = [(str(f), overrides) for f in files]
    show = progress and len(work) >= PROGRESS_MIN_FILES and sys.stderr.isatty()
    pool = None
    if jobs <= 1 or len(work) < 8:
        results: Iterable = map(worker, work)
    else:
        pool = ProcessPoolExecutor(max_workers=jobs)
        results = pool.map(worker, work, chunksize=max(1, min(64, len(work) // (jobs * 8) or 1)))
    try:
        for i, item in enumerate(results, 1):
            if show and (i % 25 == 0 or i == len(work)):
                width = 30
                done = int(width * i / len(work))
                sys.stderr.write(f"\r{label}[{'#' * done}{'.' * (width - done)}] {i}/{len(work)} files")
                sys.stderr.flush()
            yield item
    finally:
        if show:
            sys.stderr.write("\n")
        if pool is not None:
            pool.shutdown(cancel_futures=True)


def run_checks(files: list[Path], overrides: dict, jobs: int, progress: bool) -> Iterator[tuple[list[Finding], str | None]]:
    return run_per_file(_check_worker, files, overrides, jobs, progress)


def _codes_arg(value: str) -> list[str]:
    codes = [c.strip().upper() for c in value.split(",") if c.strip()]
    for c in codes:
        if not CODE_RE.match(c):
            raise argparse.ArgumentTypeError(f"not a rule code or prefix: {c!r} (expected e.g. DLL200 or DLL2)")
    return codes


def _jobs_arg(value: str) -> int:
    try:
        jobs = int(value)
    except ValueError:
        jobs = -1
    if jobs < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0 (0 = all cores), got {value!r}")
    return jobs


def add_selection_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="*", default=["."], help="files or directories (default: .)")
    parser.add_argument("--select", type=_codes_arg, help="comma-separated codes or prefixes to check (replaces the default set)")
    parser.add_argument("--extend-select", type=_codes_arg, default=[], help="codes to add to the selection (e.g. off-by-default DLL102)")
    parser.add_argument("--ignore", type=_codes_arg, default=[], help="codes or prefixes to skip")
    parser.add_argument("--config", dest="config_file", help="use this pyproject.toml or .dllog.yaml instead of the nearest one")
    parser.add_argument("--check-tests", action="store_true", help="also check test code (silent by default)")


def overrides_from(ns: argparse.Namespace) -> dict:
    return {
        "select": ns.select,
        "extend_select": ns.extend_select,
        "ignore": ns.ignore,
        "config_file": ns.config_file,
        "check_tests": ns.check_tests,
    }


def collect_files(ns: argparse.Namespace, overrides: dict) -> tuple[list[Path], list[str]]:
    errors: list[str] = []

    def config_of(directory: Path) -> Config:
        return resolve_config(directory, overrides)

    files = list(iter_python_files(ns.paths, config_of, errors))
    return files, errors


def cmd_check(ns: argparse.Namespace) -> int:
    overrides = overrides_from(ns)
    files, errors = collect_files(ns, overrides)
    findings: list[Finding] = []
    jobs = ns.jobs or os.cpu_count() or 1
    for file_findings, err in run_checks(files, overrides, jobs, progress=True):
        if err and err.startswith("config:"):
            raise ConfigError(err[len("config:"):])
        findings.extend(file_findings)
    for err in errors:
        print(f"dllog: {err}", file=sys.stderr)
    findings.sort(key=Finding.sort_key)
    formatter = FORMATTERS[ns.format]
    out = formatter(findings)
    if ns.output:
        Path(ns.output).write_text(out, encoding="utf-8")
    else:
        sys.stdout.write(out)
    if ns.statistics:
        sys.stdout.write(statistics(findings))
    if errors:
        return EXIT_USAGE  # a path that does not exist is a usage error, findings or not
    if ns.exit_zero:
        return EXIT_CLEAN
    return EXIT_FINDINGS if findings else EXIT_CLEAN


def cmd_explain(ns: argparse.Namespace) -> int:
    catalog = load_catalog()
    code = ns.code.upper()
    rule = catalog.rules.get(code)
    if rule is None:
        print(f"dllog: unknown rule {ns.code!r}; `dllog rules` lists them", file=sys.stderr)
        return EXIT_USAGE
    sys.stdout.write(rule.docs_markdown)
    return EXIT_CLEAN


def cmd_rules(ns: argparse.Namespace) -> int:
    catalog = load_catalog()
    if ns.format == "json":
        import json

        data = [
            {"code": r.code, "name": r.name, "phase": r.phase, "default": r.default, "severity": r.severity, "message": r.message}
            for r in catalog.rules.values()
        ]
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
        return EXIT_CLEAN
    for r in catalog.rules.values():
        sys.stdout.write(f"{r.code}  {'on ' if r.default else 'off'}  {r.phase:<16} {r.name}: {r.message}\n")
    return EXIT_CLEAN


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dllog", description="Find deep-learning code that will be impossible to debug or reproduce.")
    parser.add_argument("--version", action="version", version=f"dllog {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = sub.add_parser("check", help="report sites that lack logging")
    add_selection_arguments(check)
    check.add_argument("--format", choices=sorted(FORMATTERS), default="text")
    check.add_argument("-o", "--output", help="write the report to this file")
    check.add_argument("-j", "--jobs", type=_jobs_arg, default=0, help="processes (default: all cores)")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    check.add_argument("--statistics", action="store_true", help="count findings per code")
    check.set_defaults(func=cmd_check)

    explain = sub.add_parser("explain", help="print a rule's documentation")
    explain.add_argument("code")
    explain.set_defaults(func=cmd_explain)

    rules = sub.add_parser("rules", help="list all rules with their default on/off")
    rules.add_argument("--format", choices=["text", "json"], default="text")
    rules.set_defaults(func=cmd_rules)

    _add_optional_subcommands(sub)
    return parser


def _add_optional_subcommands(sub) -> None:
    # Each face that lives in its own module registers itself: fix, report, lsp.
    for module_name in ("fix_cli", "report"):
        try:
            module = __import__(f"flake8_dllog.{module_name}", fromlist=["register"])
        except ImportError:
            continue
        register = getattr(module, "register", None)
        if register is not None:
            register(sub)
    lsp = sub.add_parser("lsp", help="start the language server (stdio by default)")
    lsp.add_argument("--tcp", metavar="HOST:PORT", help="listen on TCP instead of stdio (for debugging)")
    lsp.set_defaults(func=_cmd_lsp)


def _cmd_lsp(ns: argparse.Namespace) -> int:
    try:
        from lsp_server.server import main as lsp_main
    except ImportError as exc:
        print(f"dllog: the language server needs pygls: pip install 'flake8-dllog[lsp]' ({exc})", file=sys.stderr)
        return EXIT_USAGE
    return lsp_main(ns.tcp) or 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:
        parser.print_help()
        return EXIT_USAGE
    ns = parser.parse_args(argv)
    if not getattr(ns, "func", None):
        parser.print_help()
        return EXIT_USAGE
    try:
        return ns.func(ns)
    except ConfigError as exc:
        print(f"dllog: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except UsageError as exc:
        print(f"dllog: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_CLEAN


if __name__ == "__main__":
    sys.exit(main())
