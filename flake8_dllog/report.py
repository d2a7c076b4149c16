"""`dllog report`: a project's logging health, per deep-learning pipeline phase.

For the files given, the report counts:

* per phase (training, evaluation, model saving, model loading, device, reproducibility,
  configuration): the **sites** the engine's module facts find (training loop nests,
  evaluation scopes, checkpoint saves and loads, model device transfers, seeding calls,
  configuration loads), how many of them are **logged** (not hit by the phase's
  "no logging here" rule), and the **findings** of every rule of that phase;
* the **logging density**: source lines per logging statement, the measure of the
  empirical study behind dllog (194 for deep-learning projects; higher is sparser);
* logging calls **by library**, split general-purpose vs DL-specific as in the study;
* the files with the most findings.

Nothing here detects problems: findings come from :func:`flake8_dllog.engine.check_source`
(exactly what `dllog check` reports) and sites from :class:`flake8_dllog.facts.ModuleFacts`
vocabulary categories. Output as text, JSON, or one self-contained HTML page (inline SVG
charts, no network).
"""
from __future__ import annotations

import argparse
import ast
import datetime as _dt
import html
import json
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from . import __version__
from .catalog import load_catalog
from .config import Config, ConfigError
from .engine import SourceError, check_source, parse_source, split_source_lines
from .facts import CallSite, ModuleFacts, Scope

STUDY_DENSITY = 194  # source lines per logging statement in DL projects (SPEC.md)
# Share of logging statements per phase in the study (SPEC.md), for context in the report.
STUDY_PHASE_SHARE = {
    "training": 37.2,
    "model loading": 14.8,
    "evaluation": 14.3,
    "configuration": 9.3,
    "model saving": 6.4,
}
PHASES = (
    "training",
    "evaluation",
    "model saving",
    "model loading",
    "device",
    "reproducibility",
    "configuration",
)
# Catalog phases that the report folds into one of PHASES.
PHASE_ALIASES = {"provenance": "reproducibility", "saving": "model saving", "loading": "model loading"}
# The rule whose finding means "this site has no logging" (a site it hits is not logged).
UNLOGGED_RULES = {
    "training": ("DLL100",),
    "evaluation": ("DLL300",),
    "model saving": ("DLL200",),
    "model loading": ("DLL210",),
    "device": ("DLL400",),
    "reproducibility": ("DLL501",),
    "configuration": ("DLL600",),
}
TOP_FILES = 10
EVAL_NAMES = ("evaluate", "validate", "validation", "val", "valid", "eval", "test", "predict", "inference")


# -- libraries -----------------------------------------------------------------------

TB_METHODS = frozenset({"add_scalar", "add_scalars", "add_histogram", "add_image", "add_images", "add_text",
                        "add_hparams", "add_figure", "add_pr_curve"})
TQDM_METHODS = frozenset({"set_postfix", "set_postfix_str", "set_description", "set_description_str", "write"})
PRINTS = frozenset({"print", "pprint", "pprint.pprint", "rich.print"})
# `run.log(...)` and the like: attributed to the one tracker the file imports, if any.
TRACKER_IMPORTS = {"wandb": "wandb", "mlflow": "mlflow", "neptune": "neptune", "comet_ml": "comet",
                   "clearml": "clearml", "aim": "aim"}


def _dl_library(n: str) -> str | None:
    """The DL tracker of a DL-specific logging call (lower-cased resolved dotted name)."""
    last = n.rsplit(".", 1)[-1]
    if "wandb" in n:
        return "wandb"
    if "mlflow" in n:
        return "mlflow"
    if n.startswith(("tensorflow.summary.", "torch.utils.tensorboard")) or ".tf.summary." in n:
        return "tensorboard"
    if last in TB_METHODS and "experiment" not in n:
        return "tensorboard"
    if n.startswith(("comet_ml.", "experiment.log_", "experiment.add_")) or ".experiment.log_" in n or ".experiment.add_" in n:
        return "comet"
    if n.startswith("neptune.") or ("run[]." in n and last in ("append", "extend", "log")):
        return "neptune"
    if last.startswith("report_"):
        return "clearml"
    if "dllogger" in n:
        return "dllogger"
    if "accelerator.log" in n:
        return "accelerate"
    if n.startswith(("self.log", "fabric.log")) or ".fabric.log" in n:
        return "lightning"
    if last in ("log_metrics", "log_hyperparams") and "logger" in n and "trainer" not in n:
        return "lightning"  # Lightning loggers: `self.logger.log_metrics`, `tb_logger.log_hyperparams`
    if "trainer.log" in n or "trainer.save_metrics" in n:
        return "huggingface"
    if "_run.log_scalar" in n:
        return "sacred"
    if n.endswith(".track"):
        return "aim"
    return None


def _general_library(n: str) -> str | None:
    if n in PRINTS or n.endswith((".console.print", ".console.log")):
        return "print"
    if n.startswith("loguru."):
        return "loguru"
    if n.startswith("structlog."):
        return "structlog"
    if n.startswith("absl."):
        return "absl"
    if n.startswith("tqdm.") or n.rsplit(".", 1)[-1] in TQDM_METHODS:
        return "tqdm"
    return None


def classify_logging_call(name: str | None, category: str, facts_imports: frozenset[str] = frozenset()) -> tuple[str, str]:
    """(library, kind) for one logging call of a vocabulary category; kind is ``general`` or ``dl``."""
    n = (name or "?").lower()
    if category == "logging_dl":
        library = _dl_library(n)
        if library is None:
            trackers = [lib for mod, lib in TRACKER_IMPORTS.items() if mod in facts_imports]
            library = trackers[0] if len(trackers) == 1 else "other DL tracker"
        return library, "dl"
    library = _general_library(n)
    if library is None:
        # A logger object (`logger.info`, `log.warning`): stdlib logging, unless the file uses
        # loguru or structlog and not stdlib logging.
        library = "logging"
        if "logging" not in facts_imports:
            if "loguru" in facts_imports:
                library = "loguru"
            elif "structlog" in facts_imports:
                library = "structlog"
    return library, "general"


# -- per-file analysis -----------------------------------------------------------------

def source_lines(text: str) -> int:
    """Source lines: non-blank lines that are not comment-only (docstrings count)."""
    n = 0
    for line in split_source_lines(text):
        s = line.strip()
        if s and not s.startswith("#"):
            n += 1
    return n


def _span(node: ast.AST) -> tuple[int, int]:
    start = getattr(node, "lineno", 1)
    return start, getattr(node, "end_lineno", None) or start


def _outermost_loop(site: CallSite) -> ast.AST | None:
    return site.loops[0] if site.loops else None


def phase_sites(facts: ModuleFacts) -> dict[str, list[tuple[int, int]]]:
    """The pipeline sites of one module, per phase, as (first line, last line) spans.

    Sites in test code (pytest/unittest functions, fixtures) are left out, as the checks do.
    """
    vocab = facts.vocabulary

    def live(site: CallSite) -> bool:
        return not facts.is_test_scope(site.scope)

    sites: dict[str, list[tuple[int, int]]] = {p: [] for p in PHASES}

    # Training: loop nests that hold a parameter update (nested loops count once).
    loops: dict[int, ast.AST] = {}
    for site in facts.calls_in("training_update"):
        loop = _outermost_loop(site)
        if loop is not None and live(site):
            loops.setdefault(id(loop), loop)
    sites["training"] = sorted(_span(n) for n in loops.values())

    # Evaluation: a function named like evaluation (evaluate/validate/test…) that computes a
    # loss or metric under an eval context or in a loop, and evaluation loops embedded in
    # other functions (under no_grad/inference_mode/model.eval()) that compute one.
    sites["evaluation"] = sorted(_evaluation_sites(facts, live_scope=lambda sc: not facts.is_test_scope(sc)))

    # Saving / loading / device / seeding / configuration: one site per statement holding
    # such a call (`model.load_state_dict(torch.load(p))` is one load).
    sites["model saving"] = _per_statement(s for s in facts.calls_in("save") if live(s))
    load_excl = vocab.matcher("load_exclusions")

    def is_load(s: CallSite) -> bool:
        if not live(s) or load_excl.match(s.name):
            return False
        arg = s.arg(0)
        # Copying weights between live models is not a checkpoint load.
        return not (s.method == "load_state_dict" and isinstance(arg, ast.Call)
                    and isinstance(arg.func, ast.Attribute) and arg.func.attr == "state_dict")

    sites["model loading"] = _per_statement(s for s in facts.calls_in("load") if is_load(s))

    def is_placement(s: CallSite) -> bool:
        # A model/tensor placed on a device outside loops (tensors moved per batch are not
        # sites); `.to(dtype)` / `.to(memory_format=…)` are not device transfers.
        if not live(s) or s.loops:
            return False
        if s.method == "to":
            arg = s.arg(0, "device")
            if arg is None:
                return False
            if isinstance(arg, ast.Attribute) and arg.attr.startswith(DTYPE_PREFIXES):
                return False
        return True

    sites["device"] = _per_statement(s for s in facts.calls_in("device_transfer") if is_placement(s))
    sites["reproducibility"] = _per_statement(s for s in facts.calls_in("seed") if live(s))
    sites["configuration"] = _per_statement(s for s in facts.calls_in("config_load") if live(s))
    return sites


DTYPE_PREFIXES = ("float", "half", "bfloat", "int", "long", "double", "bool", "complex", "uint")


def _per_statement(calls: Iterable[CallSite]) -> list[tuple[int, int]]:
    spans: dict[int, tuple[int, int]] = {}
    for c in calls:
        start, end = _span(c.node)
        key = id(c.stmt)
        if key in spans:
            old = spans[key]
            spans[key] = (min(old[0], start), max(old[1], end))
        else:
            spans[key] = (start, end)
    return sorted(spans.values())


def _evaluation_sites(facts: ModuleFacts, live_scope) -> list[tuple[int, int]]:
    """Evaluation sites, with the evaluation detector's own notions of "eval-named",
    "computes a metric" and "evaluation loop" (so sites and DLL300 findings agree)."""
    try:
        from .detectors import evaluation as ev

        is_eval_named, metric_statements, eval_loops = ev.is_eval_named, ev.metric_statements, ev.eval_loops
        has_eval_context = getattr(ev, "_has_eval_context", None)
    except (ImportError, AttributeError):  # pragma: no cover - the detector module changed shape
        return _evaluation_sites_fallback(facts, live_scope)
    spans: list[tuple[int, int]] = []
    for scope in facts.scopes:
        if not live_scope(scope):
            continue
        try:
            if (
                not scope.is_module
                and is_eval_named(scope.name)
                and metric_statements(facts, scope, None)
                and (scope.loops or (has_eval_context is not None and has_eval_context(facts, scope)))
            ):
                spans.append(_span(scope.node))
                continue
            for loop, _anchor in eval_loops(facts, scope):
                if metric_statements(facts, scope, loop):
                    spans.append(_span(loop))
        except Exception:  # pragma: no cover - never let a helper break the report
            continue
    return spans


def _evaluation_sites_fallback(facts: ModuleFacts, live_scope) -> list[tuple[int, int]]:
    eval_ctx = facts.vocabulary.matcher("eval_context")
    found: dict[int, Scope] = {}
    for site in facts.calls_in("metric_call"):
        scope = site.scope
        if scope.is_module or not live_scope(scope) or facts.is_logging(site):
            continue
        named = scope.name.lower().startswith(EVAL_NAMES)
        guarded = any(eval_ctx.match(w) for w in site.info.withs)
        if named or guarded:
            found.setdefault(id(scope), scope)
    return [_span(s.node) for s in found.values()]


def _phase_of(code: str, catalog) -> str:
    rule = catalog.rules.get(code)
    if rule is None:
        return "other"
    phase = PHASE_ALIASES.get(rule.phase, rule.phase)
    return phase if phase in PHASES else "other"


def analyze_file(path: str, config: Config) -> dict[str, Any]:
    """Everything the report needs from one file, as a small JSON-safe dict."""
    out: dict[str, Any] = {
        "path": path,
        "sloc": 0,
        "error": None,
        "test": bool(config.is_test_path(path)),
        "libraries": {},
        "sites": {p: 0 for p in PHASES},
        "unlogged": {p: 0 for p in PHASES},
        "unchecked": {p: 0 for p in PHASES},
        "findings": {},
    }
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        out["error"] = f"cannot read file: {exc.strerror or exc}"
        return out
    result = check_source(data, path, config)
    findings = result.findings
    out["findings"] = dict(Counter(f.code for f in findings))
    if result.error or result.source is None:
        out["error"] = result.error or "file could not be checked"
        return out
    text = result.source
    out["sloc"] = source_lines(text)
    try:
        tree = parse_source(text, path)
    except SourceError as exc:  # pragma: no cover - check_source already parsed it
        out["error"] = str(exc)
        return out
    facts = ModuleFacts(tree, split_source_lines(text), config.vocabulary, print_is_logging=config.print_is_logging)

    imports = frozenset(m.split(".")[0] for m in facts.imported_modules)
    libs: Counter = Counter()
    categories = ["logging_dl", "logging_general"] + (["logging_print"] if config.print_is_logging else [])
    seen: set[int] = set()
    for category in categories:
        for site in facts.calls_in(category):
            if id(site.node) in seen:
                continue
            seen.add(id(site.node))
            library, kind = classify_logging_call(site.name, category, imports)
            libs[f"{kind}:{library}"] += 1
    out["libraries"] = dict(libs)

    if out["test"]:
        return out  # test files are not checked, so they have no sites either
    sites = phase_sites(facts)
    from .detectors import REGISTRY

    enabled = config.enabled_codes(path)
    for phase in PHASES:
        spans = sites[phase]
        if not any(code in enabled and code in REGISTRY for code in UNLOGGED_RULES[phase]):
            # The rule that decides "logged" is off here: the sites are counted, not judged.
            out["sites"][phase] = out["unchecked"][phase] = len(spans)
            continue
        hit: set[int] = set()
        extra = 0
        for f in findings:
            if f.code not in UNLOGGED_RULES[phase]:
                continue
            idx = _site_for_line(spans, f.line)
            if idx is None:
                extra += 1  # a site the detector knows and the facts count did not: count it
            else:
                hit.add(idx)
        out["sites"][phase] = len(spans) + extra
        out["unlogged"][phase] = len(hit) + extra
    return out


def _site_for_line(spans: list[tuple[int, int]], line: int) -> int | None:
    """The innermost (shortest) site span holding ``line``."""
    best = None
    for i, (start, end) in enumerate(spans):
        if start <= line <= end and (best is None or (end - start) < (spans[best][1] - spans[best][0])):
            best = i
    return best


# -- aggregation ---------------------------------------------------------------------

def aggregate(files: Sequence[dict[str, Any]], paths: Sequence[str], errors: Sequence[str] = ()) -> dict[str, Any]:
    catalog = load_catalog()
    sloc = sum(f["sloc"] for f in files)
    libs: Counter = Counter()
    for f in files:
        libs.update(f["libraries"])
    by_library = []
    for key, n in sorted(libs.items(), key=lambda kv: (-kv[1], kv[0])):
        kind, library = key.split(":", 1)
        by_library.append({"library": library, "kind": "DL-specific" if kind == "dl" else "general-purpose", "calls": n})
    calls = sum(libs.values())
    general = sum(n for k, n in libs.items() if k.startswith("general:"))
    dl = calls - general
    prints = libs.get("general:print", 0)

    code_counts: Counter = Counter()
    for f in files:
        code_counts.update(f["findings"])
    phases = []
    for phase in PHASES:
        codes = sorted(c for c in catalog.rules if _phase_of(c, catalog) == phase)
        found = sum(f["sites"][phase] for f in files)
        unlogged = sum(f["unlogged"][phase] for f in files)
        unchecked = sum(f["unchecked"][phase] for f in files)
        phases.append(
            {
                "phase": phase,
                "rules": codes,
                "sites": found,
                "logged": found - unlogged - unchecked,
                "unlogged": unlogged,
                "unchecked": unchecked,
                "findings": sum(code_counts.get(c, 0) for c in codes),
                "by_code": {c: code_counts[c] for c in codes if code_counts.get(c)},
                "study_share": STUDY_PHASE_SHARE.get(phase),
            }
        )
    ranked = sorted((f for f in files if f["findings"]), key=lambda f: (-sum(f["findings"].values()), f["path"]))
    top = [
        {"path": f["path"], "findings": sum(f["findings"].values()), "by_code": dict(sorted(f["findings"].items()))}
        for f in ranked[:TOP_FILES]
    ]
    return {
        "tool": {"name": "dllog", "version": __version__},
        "generated": _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat(),
        "paths": list(paths),
        "files": {
            "checked": len(files),
            "test_files": sum(1 for f in files if f["test"]),
            "unreadable_or_unparsable": sum(1 for f in files if f["error"]),
            "with_findings": len(ranked),
        },
        "source_lines": sloc,
        "logging": {
            "calls": calls,
            "density": round(sloc / calls, 1) if calls else None,
            "density_without_print": round(sloc / (calls - prints), 1) if calls - prints > 0 else None,
            "study_density": STUDY_DENSITY,
            "general_purpose": general,
            "dl_specific": dl,
            "print": prints,
            "by_library": by_library,
        },
        "phases": phases,
        "findings": {"total": sum(code_counts.values()), "by_code": dict(sorted(code_counts.items()))},
        "top_files": top,
        "errors": list(errors) + [f"{f['path']}: {f['error']}" for f in files if f["error"]],
    }


# -- running ----------------------------------------------------------------------------

def _worker(args: tuple[str, dict]) -> dict[str, Any]:
    from .cli import resolve_config

    path, overrides = args
    try:
        cfg = resolve_config(Path(path), overrides)
    except ConfigError as exc:
        return {"path": path, "config_error": str(exc)}
    try:
        return analyze_file(path, cfg)
    except RecursionError:
        return {**_empty(path), "error": "file too deeply nested to analyse"}
    except Exception as exc:  # never let one file stop the report; say which and why
        return {**_empty(path), "error": f"could not be analysed: {type(exc).__name__}: {exc}".splitlines()[0]}


def _empty(path: str) -> dict[str, Any]:
    return {"path": path, "sloc": 0, "error": None, "test": False, "libraries": {},
            "sites": {p: 0 for p in PHASES}, "unlogged": {p: 0 for p in PHASES},
            "unchecked": {p: 0 for p in PHASES}, "findings": {}}


def analyze_paths(files: list[Path], overrides: dict, jobs: int, progress: bool) -> Iterator[dict[str, Any]]:
    from .cli import run_per_file

    return run_per_file(_worker, files, overrides, jobs, progress, label="dllog report ")


def build_report(paths: Sequence[str], overrides: dict | None = None, jobs: int = 1, progress: bool = False) -> dict[str, Any]:
    """The report for ``paths`` (files or directories), as a JSON-safe dict."""
    from .cli import collect_files

    overrides = dict(overrides or {})
    for key in ("select", "extend_select", "ignore", "config_file", "check_tests"):
        overrides.setdefault(key, None if key in ("select", "config_file") else ([] if key != "check_tests" else False))
    ns = argparse.Namespace(paths=list(paths))
    files, errors = collect_files(ns, overrides)
    results = []
    for item in analyze_paths(files, overrides, jobs, progress):
        if "config_error" in item:
            raise ConfigError(item["config_error"])
        results.append(item)
    if len(paths) == 1 and os.path.isdir(paths[0]):
        # One directory: show file paths relative to it (the page names the directory).
        for item in results:
            try:
                item["path"] = os.path.relpath(item["path"], paths[0])
            except ValueError:  # pragma: no cover - another drive on Windows
                pass
    results.sort(key=lambda f: f["path"])
    return aggregate(results, paths, errors)


# -- text ---------------------------------------------------------------------------------

def _fmt_density(d: float | None) -> str:
    return "no logging statements" if d is None else f"{d:g} source lines per logging statement"


def format_text(rep: dict[str, Any]) -> str:
    lg = rep["logging"]
    files = rep["files"]
    lines = [
        f"dllog report for {', '.join(rep['paths'])}",
        f"{files['checked']} Python files ({files['test_files']} test files, "
        f"{files['unreadable_or_unparsable']} could not be checked), {rep['source_lines']} source lines, "
        f"{rep['findings']['total']} findings",
        "",
        "Pipeline phases                 sites   logged   findings",
    ]
    for p in rep["phases"]:
        judged = p["sites"] - p["unchecked"]
        pct = f"({100 * p['logged'] / judged:.0f}%)" if judged else ""
        logged = str(p["logged"]) if judged or not p["sites"] else "n/a"
        codes = " ".join(f"{c}:{n}" for c, n in p["by_code"].items())
        if p["unchecked"]:
            codes = (codes + f" ({p['unchecked']} sites not judged: {'/'.join(UNLOGGED_RULES[p['phase']])} off)").strip()
        lines.append(f"  {p['phase']:<28} {p['sites']:>5}   {logged:>6} {pct:<6} {p['findings']:>4}  {codes}".rstrip())
    lines += [
        "",
        f"Logging density: {_fmt_density(lg['density'])} "
        f"(study of DL projects: {lg['study_density']}; higher is sparser)",
    ]
    if lg["print"]:
        lines.append(f"  without print(): {_fmt_density(lg['density_without_print'])}")
    lines.append(
        f"Logging calls: {lg['calls']} — general-purpose {lg['general_purpose']}, DL-specific {lg['dl_specific']}"
    )
    for item in lg["by_library"]:
        lines.append(f"  {item['library']:<18} {item['kind']:<16} {item['calls']:>6}")
    if rep["top_files"]:
        lines += ["", "Files with most findings"]
        for t in rep["top_files"]:
            codes = " ".join(f"{c}:{n}" for c, n in t["by_code"].items())
            lines.append(f"  {t['findings']:>4}  {t['path']}  ({codes})")
    if rep["errors"]:
        lines += ["", "Not checked"] + [f"  {e}" for e in rep["errors"][:20]]
        if len(rep["errors"]) > 20:
            lines.append(f"  … and {len(rep['errors']) - 20} more")
    return "\n".join(lines) + "\n"


def format_json(rep: dict[str, Any]) -> str:
    return json.dumps(rep, indent=2, ensure_ascii=False) + "\n"


# -- HTML -------------------------------------------------------------------------------

GREEN, RED, BLUE, ORANGE, GREY = "#2e7d32", "#c62828", "#1565c0", "#ef6c00", "#9e9e9e"


def _svg_phase_chart(phases: list[dict[str, Any]]) -> str:
    """Horizontal stacked bars: logged vs not logged sites, per phase; findings on the right."""
    row, left, width = 34, 150, 420
    top = 30
    height = top + row * len(phases) + 30
    maxv = max([p["sites"] for p in phases] + [1])
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="phase-title" viewBox="0 0 700 {height}" width="700" height="{height}" class="chart">',
        '<title id="phase-title">Sites per pipeline phase: logged and not logged</title>',
        f'<rect x="{left}" y="8" width="12" height="12" fill="{GREEN}"/><text x="{left + 16}" y="18">logged</text>',
        f'<rect x="{left + 80}" y="8" width="12" height="12" fill="{RED}"/><text x="{left + 96}" y="18">not logged</text>',
        f'<text x="{left + width + 20}" y="18" font-weight="bold">findings</text>',
    ]
    if any(p["unchecked"] for p in phases):
        parts.append(f'<rect x="{left + 180}" y="8" width="12" height="12" fill="{GREY}"/><text x="{left + 196}" y="18">not judged (rule off)</text>')
    for i, p in enumerate(phases):
        y = top + i * row
        wl = width * p["logged"] / maxv
        wu = width * p["unlogged"] / maxv
        wn = width * p["unchecked"] / maxv
        parts.append(f'<text x="{left - 8}" y="{y + 17}" text-anchor="end">{html.escape(p["phase"])}</text>')
        parts.append(f'<rect x="{left}" y="{y + 4}" width="{width}" height="18" fill="#f1f1f1"/>')
        if wl:
            parts.append(f'<rect x="{left}" y="{y + 4}" width="{wl:.1f}" height="18" fill="{GREEN}"><title>{p["logged"]} logged</title></rect>')
        if wu:
            parts.append(f'<rect x="{left + wl:.1f}" y="{y + 4}" width="{wu:.1f}" height="18" fill="{RED}"><title>{p["unlogged"]} not logged</title></rect>')
        if wn:
            parts.append(f'<rect x="{left + wl + wu:.1f}" y="{y + 4}" width="{wn:.1f}" height="18" fill="{GREY}"><title>{p["unchecked"]} not judged (rule off)</title></rect>')
        if not p["sites"]:
            label = "no sites"
        elif p["unchecked"] == p["sites"]:
            label = f'{p["sites"]} site{"s" if p["sites"] != 1 else ""}, not judged'
        else:
            label = f'{p["logged"]}/{p["sites"] - p["unchecked"]} logged'
            if p["unchecked"]:
                label += f' (+{p["unchecked"]} not judged)'

        parts.append(f'<text x="{left + 6}" y="{y + 17}" fill="{"#fff" if p["sites"] and wl + wu + wn > 90 else "#333"}">{label}</text>')
        parts.append(f'<text x="{left + width + 20}" y="{y + 17}">{p["findings"]}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _anchor(x: float, left: float, width: float) -> str:
    if x < left + 90:
        return "start"
    if x > left + width - 90:
        return "end"
    return "middle"


def _svg_density(density: float | None, study: int) -> str:
    """A scale of 'source lines per logging statement' with the project and the study marked."""
    left, width = 20, 640
    maxv = max(study * 2, (density or 0) * 1.15, 10)

    def x(v: float) -> float:
        return left + width * min(v, maxv) / maxv

    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="density-title" viewBox="0 0 700 110" width="700" height="110" class="chart">',
        '<title id="density-title">Logging density compared with the study</title>',
        f'<defs><linearGradient id="dg" x1="0" x2="1"><stop offset="0" stop-color="{GREEN}"/><stop offset="1" stop-color="{RED}"/></linearGradient></defs>',
        f'<rect x="{left}" y="45" width="{width}" height="14" fill="url(#dg)" opacity="0.35"/>',
        f'<text x="{left}" y="78">denser (more logging)</text>',
        f'<text x="{left + width}" y="78" text-anchor="end">sparser (less logging)</text>',
        f'<line x1="{x(study):.1f}" x2="{x(study):.1f}" y1="36" y2="66" stroke="{GREY}" stroke-width="3"/>',
        f'<text x="{x(study):.1f}" y="100" text-anchor="{_anchor(x(study), left, width)}" fill="#555">study of DL projects: {study}</text>',
    ]
    if density is not None:
        parts += [
            f'<line x1="{x(density):.1f}" x2="{x(density):.1f}" y1="30" y2="70" stroke="{BLUE}" stroke-width="5"/>',
            f'<text x="{x(density):.1f}" y="24" text-anchor="{_anchor(x(density), left, width)}" fill="{BLUE}" font-weight="bold">this project: {density:g}</text>',
        ]
    else:
        parts.append(f'<text x="{left + width / 2}" y="24" text-anchor="middle" fill="{RED}">this project has no logging statements</text>')
    parts.append("</svg>")
    return "".join(parts)


def _svg_libraries(by_library: list[dict[str, Any]], general: int, dl: int) -> str:
    items = by_library[:12]
    row, left, width = 26, 160, 380
    top = 64
    height = top + row * max(1, len(items)) + 16
    maxv = max([i["calls"] for i in items] + [1])
    total = max(general + dl, 1)
    wg = 560 * general / total
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="lib-title" viewBox="0 0 700 {height}" width="700" height="{height}" class="chart">',
        '<title id="lib-title">Logging calls by library, general-purpose vs DL-specific</title>',
        f'<rect x="{left - 60}" y="10" width="{wg:.1f}" height="22" fill="{BLUE}"/>',
        f'<rect x="{left - 60 + wg:.1f}" y="10" width="{560 - wg:.1f}" height="22" fill="{ORANGE}"/>' if dl else "",
        f'<text x="{left - 54}" y="26" fill="#fff">general-purpose {general}</text>' if general else "",
        f'<text x="{left + 494}" y="26" text-anchor="end" fill="#fff">DL-specific {dl}</text>' if dl else "",
        f'<text x="{left - 60}" y="50" fill="#555">{100 * general / total:.0f}% general-purpose, {100 * dl / total:.0f}% DL-specific</text>' if general + dl else
        f'<text x="{left - 60}" y="26">no logging calls found</text>',
    ]
    for i, item in enumerate(items):
        y = top + i * row
        w = width * item["calls"] / maxv
        color = ORANGE if item["kind"] == "DL-specific" else BLUE
        parts.append(f'<text x="{left - 8}" y="{y + 15}" text-anchor="end">{html.escape(item["library"])}</text>')
        parts.append(f'<rect x="{left}" y="{y + 3}" width="{max(w, 1):.1f}" height="16" fill="{color}"><title>{item["calls"]} calls</title></rect>')
        parts.append(f'<text x="{left + w + 6:.1f}" y="{y + 15}">{item["calls"]}</text>')
    parts.append("</svg>")
    return "".join(parts)


_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;margin:0;color:#222;background:#fafafa}
main{max-width:980px;margin:0 auto;padding:24px}
h1{font-size:26px;margin:0 0 4px} h2{font-size:19px;margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}
.muted{color:#666} .cards{display:flex;gap:12px;flex-wrap:wrap;margin:16px 0}
.card{background:#fff;border:1px solid #e0e0e0;border-radius:8px;padding:12px 16px;min-width:150px}
.card b{display:block;font-size:24px}
table{border-collapse:collapse;background:#fff;width:100%;font-size:14px}
th,td{border:1px solid #e0e0e0;padding:6px 8px;text-align:left} td.n{text-align:right;font-variant-numeric:tabular-nums}
.chart{background:#fff;border:1px solid #e0e0e0;border-radius:8px;max-width:100%;height:auto;font-size:13px}
.chart text{font-family:inherit}
code{background:#eee;padding:1px 4px;border-radius:3px}
"""


def _not_judged(p: dict[str, Any]) -> str:
    return f" (+{p['unchecked']} not judged)" if p["unchecked"] else ""


def format_html(rep: dict[str, Any]) -> str:
    e = html.escape
    lg = rep["logging"]
    files = rep["files"]
    phases = rep["phases"]
    sites = sum(p["sites"] for p in phases)
    logged = sum(p["logged"] for p in phases)
    density = lg["density"]
    verdict = (
        "no logging statements at all"
        if density is None
        else ("sparser than" if density > lg["study_density"] else "denser than") + f" the {lg['study_density']} of the study"
    )
    phase_rows = "".join(
        f"<tr><td>{e(p['phase'])}</td><td class=n>{p['sites']}</td>"
        f"<td class=n>{p['logged'] if p['unchecked'] < p['sites'] or not p['sites'] else '—'}</td>"
        f"<td class=n>{p['unlogged']}{_not_judged(p)}</td><td class=n>{p['findings']}</td>"
        f"<td>{e(', '.join(f'{c} × {n}' for c, n in p['by_code'].items()) or '—')}</td>"
        f"<td class=n>{'—' if p['study_share'] is None else str(p['study_share']) + ' %'}</td></tr>"
        for p in phases
    )
    lib_rows = "".join(
        f"<tr><td>{e(i['library'])}</td><td>{e(i['kind'])}</td><td class=n>{i['calls']}</td></tr>" for i in lg["by_library"]
    ) or "<tr><td colspan=3>no logging calls</td></tr>"
    top_rows = "".join(
        f"<tr><td><code>{e(t['path'])}</code></td><td class=n>{t['findings']}</td>"
        f"<td>{e(', '.join(f'{c} × {n}' for c, n in t['by_code'].items()))}</td></tr>"
        for t in rep["top_files"]
    ) or "<tr><td colspan=3>no findings</td></tr>"
    errors = ""
    if rep["errors"]:
        errors = "<h2>Not checked</h2><ul>" + "".join(f"<li><code>{e(x)}</code></li>" for x in rep["errors"][:50]) + "</ul>"
    rule_names = {c: r.name for c, r in load_catalog().rules.items()}
    code_rows = "".join(
        f"<tr><td>{e(c)}</td><td>{e(rule_names.get(c, ''))}</td><td class=n>{n}</td></tr>" for c, n in rep["findings"]["by_code"].items()
    ) or "<tr><td colspan=3>no findings</td></tr>"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>dllog report: {e(', '.join(rep['paths']))}</title>
<style>{_CSS}</style></head>
<body><main>
<h1>Deep-learning logging report</h1>
<p class="muted">{e(', '.join(rep['paths']))} · generated {e(rep['generated'])} by dllog {e(rep['tool']['version'])}</p>
<p>This page shows where the project's training code leaves no trace: the places in a deep-learning pipeline
(training loops, evaluation, checkpoint saves and loads, device placement, seeding, configuration) that a
practitioner will later wish had been logged, and how much the project logs overall. A <em>site</em> is one such
place in the code; it is <em>logged</em> when logging was found next to it; a <em>finding</em> is a problem
<code>dllog check</code> reports (run <code>dllog explain CODE</code> or read the rule pages for what each means).</p>
<div class="cards">
<div class="card"><b>{files['checked']}</b>Python files</div>
<div class="card"><b>{rep['source_lines']}</b>source lines</div>
<div class="card"><b>{logged}/{sites}</b>pipeline sites logged</div>
<div class="card"><b>{rep['findings']['total']}</b>findings</div>
<div class="card"><b>{'—' if density is None else f'{density:g}'}</b>lines per logging statement</div>
</div>
<h2>Pipeline phases</h2>
<p>Each bar is the number of sites of one phase; green ones have logging nearby, red ones do not.</p>
{_svg_phase_chart(phases)}
<table><thead><tr><th>phase</th><th>sites</th><th>logged</th><th>not logged</th><th>findings</th><th>by rule</th>
<th title="share of all logging statements in this phase, in the study of 33 DL projects">study share</th></tr></thead>
<tbody>{phase_rows}</tbody></table>
<h2>Logging density</h2>
<p>Source lines (non-blank, non-comment) per logging statement: {('<b>' + f'{density:g}' + '</b>') if density is not None else ''} — {e(verdict)}.
An empirical study of 33 CUDA-based deep-learning projects found one logging statement per {lg['study_density']} source lines,
among the sparsest of all software studied; higher means sparser.{(' Without <code>print()</code>: ' + str(lg['density_without_print'])) if lg['print'] else ''}</p>
{_svg_density(density, lg['study_density'])}
<h2>Logging calls by library</h2>
<p>{lg['calls']} logging calls: {lg['general_purpose']} general-purpose (stdlib <code>logging</code>, loguru, structlog, print, tqdm…)
and {lg['dl_specific']} DL-specific (TensorBoard, W&amp;B, MLflow, Lightning, Accelerate…). Most projects in the study mix both.</p>
{_svg_libraries(lg['by_library'], lg['general_purpose'], lg['dl_specific'])}
<table><thead><tr><th>library</th><th>kind</th><th>calls</th></tr></thead><tbody>{lib_rows}</tbody></table>
<h2>Files with the most findings</h2>
<table><thead><tr><th>file</th><th>findings</th><th>by rule</th></tr></thead><tbody>{top_rows}</tbody></table>
<h2>Findings by rule</h2>
<table><thead><tr><th>rule</th><th>name</th><th>findings</th></tr></thead><tbody>{code_rows}</tbody></table>
{errors}
<p class="muted">Fix them with <code>dllog fix</code>, or one at a time in your editor. Files: {files['checked']} checked,
{files['test_files']} test files (not checked for findings), {files['unreadable_or_unparsable']} could not be checked.</p>
</main></body></html>
"""


FORMATS = {"text": format_text, "json": format_json, "html": format_html}


# -- CLI -----------------------------------------------------------------------------------

def cmd_report(ns: argparse.Namespace) -> int:
    from .cli import overrides_from

    overrides = overrides_from(ns)
    jobs = ns.jobs or os.cpu_count() or 1
    rep = build_report(ns.paths, overrides, jobs=jobs, progress=not ns.no_progress)
    out = FORMATS[ns.format](rep)
    if ns.output:
        Path(ns.output).write_text(out, encoding="utf-8")
        print(f"dllog: report written to {ns.output}", file=sys.stderr)
    else:
        sys.stdout.write(out)
    if rep["files"]["checked"] == 0 and rep["errors"]:
        for err in rep["errors"]:
            print(f"dllog: {err}", file=sys.stderr)
        return 2
    return 0


def register(subparsers) -> None:
    from .cli import add_selection_arguments

    p = subparsers.add_parser(
        "report",
        help="project-wide logging health per pipeline phase (text, JSON or HTML)",
        description="Count pipeline sites, logged sites and findings per phase, logging density and "
        "logging calls by library for a project.",
    )
    add_selection_arguments(p)
    p.add_argument("--format", choices=sorted(FORMATS), default="text")
    p.add_argument("-o", "--output", help="write the report to this file (HTML: one self-contained page)")
    p.add_argument("-j", "--jobs", type=int, default=0, help="processes (default: all cores)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.set_defaults(func=cmd_report)
