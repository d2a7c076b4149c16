"""Detectors for the evaluation rules: DLL300 (evaluation computes metrics and never logs
them).

Evaluation is found two ways:

* a *dedicated* function named like evaluation (``evaluate``, ``validate``, ``val_epoch``,
  ``validation_step``…) that computes a loss or metric under an eval context or over a
  loop, and is not itself a training step;
* an *eval loop* inside any other function (or at module level): a loop that runs after
  ``model.eval()`` (and before ``model.train()``), under ``torch.no_grad()`` /
  ``torch.inference_mode()`` or in a ``@torch.no_grad()`` function, that computes a metric
  and performs no parameter update;
* Keras ``model.evaluate(..., verbose=0)`` (with the default verbosity Keras prints the
  metrics itself).

A metric is "logged" when it, or anything derived from it (``val_loss /= n``, a dict, a
meter it is put into), reaches a log call; it is "handed on" when it is returned or
yielded, stored on ``self``/a parameter/a global, or passed to a call whose effect we do
not know (``early_stopping(val_loss)``, a checkpoint save). Both keep the rule silent.
"""
from __future__ import annotations

import ast
import functools
import re
from typing import Iterator

from ..catalog import Matcher
from ..config import Config
from ..facts import LOOP_TYPES, CallSite, ModuleFacts, Scope, child_nodes, dotted_name, own_expressions, referenced_names, walk
from . import Report, header_span, rule
from .saving import index_of, memoised
from .training import calls_named_ending, training_loops

EVAL_NAME_TOKENS = frozenset({"eval", "evaluate", "evaluation", "validate", "validation", "val", "valid", "test", "testing"})
METRIC_TOKENS = frozenset(
    {
        "loss", "losses", "acc", "accuracy", "accuracies", "score", "scores", "f1", "fbeta",
        "precision", "recall", "auc", "auroc", "roc", "bleu", "rouge", "perplexity", "ppl",
        "mse", "mae", "rmse", "iou", "miou", "dice", "psnr", "ssim", "lpips", "fid", "metric",
        "metrics", "criterion", "crit", "nll", "entropy", "cer", "wer", "map", "top1", "top5",
        "topk", "kl", "div", "corr", "pearson", "spearman", "r2", "jaccard", "ndcg", "mrr",
        "meteor", "chrf", "error", "confusion", "hamming",
    }
)
# Calls whose result does not carry a metric anywhere interesting.
PURE_CALLS = frozenset(
    {
        "float", "int", "round", "abs", "max", "min", "sum", "len", "mean", "item", "cpu",
        "detach", "numpy", "tolist", "str", "format", "isnan", "isinf", "isfinite", "exp",
        "log", "sqrt", "stack", "cat", "tensor", "array", "asarray", "append", "extend",
        "update", "add", "add_batch", "update_state", "insert", "setdefault", "step", "to",
        "type", "is_tensor", "isinstance", "range", "enumerate", "zip", "sorted", "list",
        "tuple", "dict", "sum_", "all_reduce", "reduce", "gather", "all_gather", "argmax",
        "size", "view", "reshape", "squeeze", "unsqueeze", "softmax", "sigmoid", "eq",
        "gather_for_metrics", "pad_across_processes", "reduce_mean", "float32",
    }
)
# Calls whose names mention metrics but only move data around for them.
NOT_METRIC_CALLS = frozenset({"gather_for_metrics", "pad_across_processes", "log_metrics", "save_metrics"})
# Methods that put a value into their receiver (the receiver now carries the metric).
FLOW_METHODS = frozenset({"append", "extend", "update", "add", "add_batch", "update_state", "insert", "put", "setdefault", "appendleft"})
ACCURACY_REDUCERS = frozenset({"sum", "mean", "float", "item", "count_nonzero", "double", "nonzero"})
POSSIBLY_LOGGING = re.compile(
    r"log|report|track|record|summar|monitor|print|display|show|writer|plot|progress|notify|"
    r"tensorboard|wandb|mlflow|neptune|comet|clearml|write|dump|save",
    re.I,
)
possibly_logging_name = memoised(POSSIBLY_LOGGING.search)
TOKEN_RE = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
SEPARATOR_RE = re.compile(r"[_\W]+")
ALNUM_WORD_RE = re.compile(r"[A-Za-z]+\d+")


@functools.lru_cache(maxsize=4096)
def name_tokens(name: str) -> frozenset[str]:
    """Words of an identifier: ``valAccMetric`` / ``val_acc_metric`` → val, acc, metric."""
    out: set[str] = set()
    for part in SEPARATOR_RE.split(name):
        if not part:
            continue
        out.add(part.lower())
        out.update(t.lower() for t in TOKEN_RE.findall(part))
    # `top1`, `f1`, `r2`: keep letter+digit words whole as well
    out.update(p.lower() for p in ALNUM_WORD_RE.findall(name))
    return frozenset(out)


def _last(name: str | None) -> str:
    return (name or "").rsplit(".", 1)[-1]


# -- what computes a metric ---------------------------------------------------------------


def _exact_metric_matcher(facts: ModuleFacts) -> Matcher:
    # Built once per vocabulary (compiling the patterns costs more than checking a file).
    patterns = tuple(facts.vocabulary.entries.get("metric_call", ()))
    cached = _EXACT_METRIC_MATCHERS.get(patterns)
    if cached is None:
        exact = [p for p in patterns if "*" not in p.rsplit(".", 1)[-1] and _last(p) not in ("compute", "evaluate")]
        if len(_EXACT_METRIC_MATCHERS) > 16:
            _EXACT_METRIC_MATCHERS.clear()
        cached = _EXACT_METRIC_MATCHERS[patterns] = Matcher(exact)
    return cached


_EXACT_METRIC_MATCHERS: dict[tuple[str, ...], Matcher] = {}


def is_metric_call(facts: ModuleFacts, site: CallSite) -> bool:
    """A vocabulary metric call, sanity-checked by its words: ``*_fn`` must be a loss or
    metric function (not ``collate_fn``), ``*iou*`` a whole word (not ``previous``)."""
    ids = getattr(facts, "_dllog_metric_ids", None)
    if ids is None:
        ids = facts._dllog_metric_ids = frozenset(id(c.node) for c in facts.calls_in("metric_call"))  # type: ignore[attr-defined]
    if id(site.node) not in ids or _last(site.name) in NOT_METRIC_CALLS:
        return False
    if _exact_metric_matcher(facts).match(site.name):
        return True
    tokens = name_tokens(_last(site.name))
    recv = site.receiver
    if recv is not None:
        tokens |= name_tokens(_last(dotted_name(recv) or ""))
    return bool(tokens & METRIC_TOKENS)


# Token ids a decoding loop compares against to stop or mask (`tok == tokenizer.eos_token_id`)
SPECIAL_TOKEN = re.compile(r"(^|[._])(eos|bos|sos|pad)(_|$|token|idx|id)", re.I)


def _special_token(exprs: list[ast.AST]) -> bool:
    for expr in exprs:
        text = dotted_name(expr) if isinstance(expr, (ast.Name, ast.Attribute)) else None
        if text and SPECIAL_TOKEN.search(text):
            return True
    return False


def _value_traits(value: ast.AST) -> tuple[bool, bool, bool]:
    """What makes an assigned value a metric, found in one walk: (an equality test,
    ``p == y`` or ``p.eq(y)``; a reducer call, ``.sum()``/``mean(...)``...; a Hugging Face
    ``outputs.loss`` / ``.eval_loss`` attribute)."""
    equality = reducer = loss_attribute = False
    compare_type, call_type, attribute_type, name_type = ast.Compare, ast.Call, ast.Attribute, ast.Name
    for sub in walk(value):
        cls = sub.__class__
        if cls is compare_type:
            if not equality:
                equality = any(isinstance(op, ast.Eq) for op in sub.ops) and not _special_token([sub.left, *sub.comparators])
        elif cls is call_type:
            func = sub.func
            if func.__class__ is attribute_type:
                if func.attr == "eq":
                    equality = equality or not _special_token(sub.args)
                elif func.attr in ACCURACY_REDUCERS:
                    reducer = True
            elif func.__class__ is name_type and func.id in ACCURACY_REDUCERS:
                reducer = True
        elif cls is attribute_type and sub.attr in ("loss", "eval_loss"):
            loss_attribute = True
    return equality, reducer, loss_attribute


def _target_names(target: ast.AST) -> list[str]:
    if isinstance(target, (ast.Tuple, ast.List)):
        out: list[str] = []
        for elt in target.elts:
            out.extend(_target_names(elt))
        return out
    if isinstance(target, ast.Starred):
        return _target_names(target.value)
    if isinstance(target, ast.Subscript):
        return _target_names(target.value)
    d = dotted_name(target)
    return [d] if d and "(" not in d and "[" not in d and "?" not in d else []


def _stmt_targets(stmt: ast.stmt) -> list[str]:
    if isinstance(stmt, ast.Assign):
        out: list[str] = []
        for t in stmt.targets:
            out.extend(_target_names(t))
        return out
    if isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
        return _target_names(stmt.target)
    return []


def _own_stmts(facts: ModuleFacts, scope: Scope, node: ast.AST | None = None) -> list[ast.stmt]:
    """Statements of ``scope`` (within ``node``'s lines when given), in source order."""
    by_scope = getattr(facts, "_dllog_sorted_stmts", None)
    if by_scope is None:
        by_scope = facts._dllog_sorted_stmts = {}  # type: ignore[attr-defined]
    stmts = by_scope.get(id(scope))
    if stmts is None:
        # The facts list a `try`'s handlers after its `finally`: sort into source order.
        stmts = by_scope[id(scope)] = sorted(
            (info.stmt for info in facts.scope_stmts(scope)), key=lambda s: (s.lineno, s.col_offset)
        )
    if node is None:
        return stmts
    lo = getattr(node, "lineno", 0)
    hi = getattr(node, "end_lineno", None) or lo
    return [s for s in stmts if lo <= s.lineno <= hi]


def metric_statements(facts: ModuleFacts, scope: Scope, node: ast.AST | None) -> list[tuple[ast.stmt, list[str]]]:
    """(statement, names it binds to a metric) for statements computing a loss/metric."""
    metric_calls: dict[int, list[CallSite]] = {}
    for site in scope.calls:
        if is_metric_call(facts, site):
            metric_calls.setdefault(id(site.stmt), []).append(site)
    out = []
    for stmt in _own_stmts(facts, scope, node):
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        calls = metric_calls.get(id(stmt), [])
        value = getattr(stmt, "value", None) if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr)) else None
        is_metric = bool(calls) and not isinstance(stmt, (ast.If, ast.While, ast.For, ast.AsyncFor, ast.Return))
        if value is not None and not is_metric:
            equality, reducer, loss_attribute = _value_traits(value)
            # `correct += (p == y)` counts; `acc = (p == y).sum()` needs the reduction.
            # (`finished |= tok.eq(eos_id)` is a stop flag of a decoding loop, not a count)
            counted = isinstance(stmt, ast.AugAssign) and isinstance(stmt.op, ast.Add)
            is_metric = (equality and (reducer or counted)) or (
                loss_attribute and not isinstance(stmt, ast.Expr)
            )
        if not is_metric:
            continue
        names = _stmt_targets(stmt)
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            func = stmt.value.func
            if isinstance(func, ast.Attribute) and func.attr in FLOW_METHODS | {"update", "add_batch"}:
                names = _target_names(func.value)
        out.append((stmt, names))
    return out


# -- where metrics go -----------------------------------------------------------------------


def _names_in(node: ast.AST) -> set[str]:
    return referenced_names(node, into_lambdas=False)


def _refs(refs: set[str], derived: set[str]) -> bool:
    for r in refs:
        if r in derived:
            return True
        for d in derived:
            if r.startswith(d + ".") or d.startswith(r + "."):
                return True
    return False


def derived_names(facts: ModuleFacts, scope: Scope, seeds: set[str]) -> set[str]:
    """Names carrying the metric: assigned from it, or containers/meters it was put in."""
    derived = set(seeds)
    stmts = _own_stmts(facts, scope)
    for _ in range(4):
        before = len(derived)
        for stmt in stmts:
            if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and stmt.value is not None:
                if _refs(_names_in(stmt.value), derived):
                    derived.update(_stmt_targets(stmt))
            elif isinstance(stmt, (ast.For, ast.AsyncFor)) and _refs(_names_in(stmt.iter), derived):
                derived.update(_target_names(stmt.target))
            for expr in own_expressions(stmt, decorators=False):
                for call in walk(expr):
                    if (
                        isinstance(call, ast.Call)
                        and isinstance(call.func, ast.Attribute)
                        and call.func.attr in FLOW_METHODS
                        and any(_refs(_names_in(a), derived) for a in list(call.args) + [k.value for k in call.keywords])
                    ):
                        derived.update(_target_names(call.func.value))
        if len(derived) == before:
            break
    return derived


def _possibly_logging(facts: ModuleFacts, site: CallSite) -> bool:
    if facts.is_logging(site):
        return True
    target = facts.local_target(site)
    if target is not None:
        return facts.scope_logs(target)
    return possibly_logging_name(_last(site.name))


def _returns_value(facts: ModuleFacts, scope: Scope) -> bool:
    # (any order will do: the facts' list, not the sorted copy _own_stmts would build)
    for info in facts.scope_stmts(scope):
        stmt = info.stmt
        if stmt.__class__ is ast.Return and stmt.value is not None and not (
            isinstance(stmt.value, ast.Constant) and stmt.value.value is None
        ):
            return True
    # A `yield` may sit in any expression: walk the body only when the source has one.
    if not facts.span_mentions(scope.node, ("yield",)):
        return False
    stack = list(scope.body)
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Return) and n.value is not None and not (isinstance(n.value, ast.Constant) and n.value.value is None):
            return True
        if isinstance(n, (ast.Yield, ast.YieldFrom)):
            return True
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        stack.extend(child_nodes(n))
    return False


def _params(scope: Scope) -> set[str]:
    if scope.is_module:
        return set()
    a = scope.node.args  # type: ignore[attr-defined]
    names = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs}
    if a.vararg:
        names.add(a.vararg.arg)
    if a.kwarg:
        names.add(a.kwarg.arg)
    return names


def metrics_handled(facts: ModuleFacts, scope: Scope, derived: set[str]) -> bool:
    """Do the metric names reach a log, a return, a caller-visible store or an opaque call?"""
    if not derived:
        return False
    locals_ = set()
    for stmt in _own_stmts(facts, scope):
        locals_.update(t.split(".")[0] for t in _stmt_targets(stmt))
    params = _params(scope)
    for name in derived:
        root = name.split(".")[0]
        if root in ("self", "cls") or root in params:
            return True  # stored where the caller can see it
        if not scope.is_module and root not in locals_:
            return True  # a global or closure variable
    for site in scope.calls:
        args = list(site.node.args) + [k.value for k in site.node.keywords]
        if not args or not any(_refs(_names_in(a), derived) for a in args):
            continue
        if _possibly_logging(facts, site):
            return True
        if facts.local_target(site) is not None:
            continue  # a same-module function that does not log
        last = _last(site.name)
        if last in PURE_CALLS or (site.name or "").split(".")[0] in ("torch", "numpy", "math", "tensorflow"):
            continue
        return True  # handed to something we cannot see into (early stopping, a save...)
    for stmt in _own_stmts(facts, scope):
        value = getattr(stmt, "value", None)
        if isinstance(stmt, ast.Return) and value is not None and _refs(_names_in(value), derived):
            return True
        if isinstance(stmt, ast.Expr) and isinstance(value, (ast.Yield, ast.YieldFrom)):
            return True
    return False


# -- eval contexts --------------------------------------------------------------------------


def _is_eval_context(facts: ModuleFacts, name: str) -> bool:
    known = getattr(facts, "_dllog_eval_contexts", None)  # name -> verdict: names recur
    if known is None:
        known = facts._dllog_eval_contexts = {}  # type: ignore[attr-defined]
    found = known.get(name)
    if found is None:
        # A tape records gradients: that is training.
        found = known[name] = not name.endswith("GradientTape") and facts.vocabulary.matcher("eval_context").match(name)
    return found


def _mode_change(call: ast.Call) -> bool | None:
    """``model.eval()`` → True, ``model.train()`` → False, ``model.train(False)`` → True."""
    func = call.func
    if not isinstance(func, ast.Attribute):
        return None
    if func.attr == "eval" and not call.args and not call.keywords:
        return True
    if func.attr == "train" and len(call.args) <= 1 and not call.keywords:
        if not call.args:
            return False
        arg = call.args[0]
        if isinstance(arg, ast.Constant):
            return not bool(arg.value)
    return None


def _training_spans(facts: ModuleFacts, scope: Scope) -> list[tuple[int, int]]:
    """Lines of this scope's parameter updates, backward calls and calls to local step
    functions: a loop holding one of them trains (an epoch loop that trains *and*
    validates is not itself an eval loop, but the validation loop inside it can be)."""
    cached = getattr(facts, "_dllog_training_lines", None)
    if cached is None:
        cached = {}
        for tl in training_loops(facts):
            for s in tl.updates + tl.step_calls:
                cached.setdefault(id(tl.scope), []).append((s.node.lineno, s.node.lineno))
        for site in facts.calls_in("training_backward") + facts.calls_in("training_update"):
            cached.setdefault(id(site.scope), []).append((site.node.lineno, site.node.lineno))
        facts._dllog_training_lines = cached  # type: ignore[attr-defined]
    return cached.get(id(scope), [])


def _overlaps(node: ast.AST, spans: list[tuple[int, int]]) -> bool:
    lo, hi = node.lineno, node.end_lineno or node.lineno
    return any(not (e < lo or s > hi) for s, e in spans)


def eval_loops(facts: ModuleFacts, scope: Scope) -> list[tuple[ast.stmt, ast.stmt]]:
    """(loop, statement to log after) for loops of ``scope`` that run in evaluation mode and
    are not training loops. Nested loops are reported once, at the outermost."""
    no_grad_fn = any(_is_eval_context(facts, d) for d in scope.decorators)
    spans = _training_spans(facts, scope)
    out: list[tuple[ast.stmt, ast.stmt]] = []

    def walk(block: list[ast.stmt], eval_on: bool, ctx: bool, ctx_stmt: ast.stmt | None) -> bool:
        for stmt in block:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                change = _mode_change(stmt.value)
                if change is not None:
                    eval_on = change
                    continue
            here_ctx, here_stmt = ctx, ctx_stmt
            if isinstance(stmt, (ast.With, ast.AsyncWith)):
                for item in stmt.items:
                    expr = item.context_expr
                    target = expr.func if isinstance(expr, ast.Call) else expr
                    name = dotted_name(target, facts.aliases) or ""
                    if _is_eval_context(facts, name) and not _grad_enabled(expr):
                        here_ctx, here_stmt = True, stmt
            if isinstance(stmt, LOOP_TYPES) and (eval_on or here_ctx) and not _overlaps(stmt, spans):
                # Log after the `with torch.no_grad():` that holds only this loop, else the loop.
                anchor = here_stmt if here_stmt is not None and _only_loop_inside(here_stmt, stmt) else stmt
                out.append((stmt, anchor))
                continue
            for fname in ("body", "orelse", "finalbody"):
                sub = getattr(stmt, fname, None)
                if sub:
                    eval_on = walk(sub, eval_on, here_ctx, here_stmt if here_ctx else None)
            for handler in getattr(stmt, "handlers", ()) or ():
                walk(handler.body, eval_on, here_ctx, None)
        return eval_on

    walk(scope.body if not scope.is_module else facts.tree.body, no_grad_fn, no_grad_fn, None)
    walk = None  # type: ignore[assignment]  # it refers to itself: break that cycle
    return out


def _grad_enabled(expr: ast.AST) -> bool:
    """``torch.set_grad_enabled(phase == "train")`` may enable gradients: not eval."""
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "set_grad_enabled":
        return not (expr.args and isinstance(expr.args[0], ast.Constant) and expr.args[0].value is False)
    return False


def _only_loop_inside(with_stmt: ast.stmt, loop: ast.stmt) -> bool:
    body = getattr(with_stmt, "body", [])
    return loop in body and all(isinstance(s, LOOP_TYPES) or isinstance(s, (ast.Assign, ast.AugAssign, ast.Expr, ast.AnnAssign)) for s in body)


LIGHTNING_BASE = re.compile(r"(^|\.)(LightningModule|LitModule|LightningModel)$")


def _has_eval_context(facts: ModuleFacts, scope: Scope) -> bool:
    if scope.decorators and any(_is_eval_context(facts, d) for d in scope.decorators):
        return True
    if scope.class_bases and any(LIGHTNING_BASE.search(b) for b in scope.class_bases):
        return True  # Lightning runs its validation/test hooks in eval mode, without grad
    attribute_type = ast.Attribute
    judged_withs: dict[tuple, bool] = {}  # the calls of one `with` block share its names
    for site in scope.calls:
        call = site.node
        func = call.func
        if func.__class__ is attribute_type and func.attr in ("eval", "train") and _mode_change(call) is True:
            return True
        withs = site.info.withs
        if withs:
            in_eval_context = judged_withs.get(withs)
            if in_eval_context is None:
                in_eval_context = judged_withs[withs] = any(_is_eval_context(facts, w) for w in withs)
            if in_eval_context:
                return True
        if call.keywords:
            train_kw = site.kwarg("training")
            if isinstance(train_kw, ast.Constant) and train_kw.value is False:
                return True
    return False


@functools.lru_cache(maxsize=4096)  # function names recur across scopes and files
def is_eval_named(name: str) -> bool:
    # Every eval word contains "val" or "test", and every word of a name is part of it:
    # most names are ruled out without splitting them into words.
    lowered = name.lower()
    if "val" not in lowered and "test" not in lowered:
        return False
    return bool(name_tokens(name) & EVAL_NAME_TOKENS)


# -- context for fixes ------------------------------------------------------------------


def _top_level_stmt(facts: ModuleFacts, stmt: ast.stmt, block: list[ast.stmt]) -> ast.stmt | None:
    """The statement of ``block`` that contains ``stmt``."""
    info = facts.info(stmt)
    while info is not None:
        if info.block is block:
            return info.stmt
        info = info.parent
    return None


def _anchor_after(facts: ModuleFacts, start: ast.stmt, derived: set[str]) -> ast.stmt:
    """The last statement of ``start``'s block, from ``start`` on, that still computes the
    metric (``val_loss /= len(loader)``), so the log sees its final value."""
    info = facts.info(start)
    if info is None:
        return start
    anchor = start
    for later in info.block[info.index + 1 :]:
        if isinstance(later, (ast.Return, ast.Raise, ast.Break, ast.Continue)):
            break
        if not isinstance(later, (ast.Assign, ast.AugAssign, ast.AnnAssign)) or later.value is None:
            continue
        targets = set(_stmt_targets(later))
        if not targets & derived:
            continue
        # `val_loss /= n` reads its target; `acc = correct / total` reads other metrics.
        if isinstance(later, ast.AugAssign) or _refs(_names_in(later.value), derived):
            anchor = later
    return anchor


def _metric_names(facts: ModuleFacts, anchor: ast.stmt, seeds: list[str], derived: set[str]) -> list[str]:
    """Plain names worth logging at the anchor: those bound at the anchor's level or
    accumulated across the loop, in order; per-batch names only as a fallback."""
    info = facts.info(anchor)
    level: list[str] = []
    if info is not None:
        for stmt in info.block[: info.index + 1]:
            for t in _stmt_targets(stmt):
                if t in derived and "." not in t and t not in level:
                    level.append(t)
    accumulated = [n for n in level]
    if accumulated:
        # Prefer what was computed last (means/ratios) but keep accumulators.
        return accumulated[-4:]
    names = [n for n in seeds if "." not in n]
    return list(dict.fromkeys(names))[:4]


# -- the rule ---------------------------------------------------------------------------------


def _report(facts: ModuleFacts, scope: Scope, site_node: ast.AST, span, anchor: ast.stmt, seeds: list[str], derived: set[str], kind: str) -> Report:
    anchor = _anchor_after(facts, anchor, derived)
    return Report(
        site_node,
        span=span,
        context={
            "metrics": _metric_names(facts, anchor, seeds, derived),
            "anchor": "after",
            "anchor_line": anchor.lineno,
            "scope": scope.qualname,
            "class_bases": list(scope.class_bases),
            "eval_kind": kind,
        },
    )


def _dedicated_eval(facts: ModuleFacts, scope: Scope) -> Report | None:
    if scope.is_module or not is_eval_named(scope.name):
        return None
    if _training_spans(facts, scope):
        return None  # a train-and-validate function: its eval loops are judged one by one
    if not (scope.loops or _has_eval_context(facts, scope)):
        return None
    if _returns_value(facts, scope) or facts.scope_logs(scope):
        return None
    if any(_possibly_logging(facts, c) for c in scope.calls):
        return None
    stmts = metric_statements(facts, scope, None)
    if not stmts:
        return None
    seeds = [n for _, names in stmts for n in names]
    derived = derived_names(facts, scope, set(seeds))
    if metrics_handled(facts, scope, derived):
        return None
    last_stmt = stmts[-1][0]
    anchor = _top_level_stmt(facts, last_stmt, scope.body) or last_stmt
    if isinstance(anchor, ast.Return):
        return None
    # The node is a statement of the function's own body so that the engine's test-code
    # filter sees the function (a pytest `test_*` is silent); the range is the `def` name.
    return _report(facts, scope, scope.body[0], header_span(scope.node), anchor, seeds, derived, "function")


def _may_evaluate(facts: ModuleFacts, scope: Scope) -> bool:
    """Cheap pre-check: does this scope switch to eval mode or open an eval context at all?"""
    if not scope.loops and not scope.is_module:
        return False
    if scope.decorators and any(_is_eval_context(facts, d) for d in scope.decorators):
        return True
    evaluating = getattr(facts, "_dllog_evaluating_scopes", None)
    if evaluating is None:
        evaluating = {id(c.scope) for c in facts.calls_in("eval_context")}
        evaluating |= {id(c.scope) for c in calls_named_ending(facts, ".eval", in_order=False)}
        facts._dllog_evaluating_scopes = evaluating  # type: ignore[attr-defined]
    return id(scope) in evaluating


def _embedded_evals(facts: ModuleFacts, scope: Scope) -> Iterator[Report]:
    """Eval loops of a scope that passed ``_may_evaluate``."""
    for loop, anchor in eval_loops(facts, scope):
        stmts = metric_statements(facts, scope, loop)
        if not stmts:
            continue
        start, end = loop.lineno, loop.end_lineno or loop.lineno
        if any(start <= c.node.lineno <= end and _possibly_logging(facts, c) for c in scope.calls):
            continue
        seeds = [n for _, names in stmts for n in names]
        derived = derived_names(facts, scope, set(seeds))
        if not seeds or metrics_handled(facts, scope, derived):
            continue
        if _loop_accumulators_handled(facts, scope, loop, set(seeds)):
            continue
        yield _report(facts, scope, loop, header_span(loop), anchor, seeds, derived, "loop")


def _loop_accumulators_handled(facts: ModuleFacts, scope: Scope, loop: ast.AST, seeds: set[str]) -> bool:
    """The loop also sums up another score (``test_acc += acc(output, labels)``, a helper
    this file cannot call a metric) and that one is logged: the evaluation is reported, if
    not every number of it."""
    totals: set[str] = set()
    for node in walk(loop):
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and node.target.id not in seeds:
            totals.add(node.target.id)
    if not totals:
        return False
    return metrics_handled(facts, scope, derived_names(facts, scope, totals))


def _keras_evaluate(facts: ModuleFacts) -> Iterator[Report]:
    """``model.evaluate(..., verbose=0)`` whose results go nowhere."""
    for site in calls_named_ending(facts, ".evaluate"):
        if site.receiver is None:
            continue
        recv = dotted_name(site.receiver) or ""
        if "trainer" in recv.lower() or facts.local_target(site) is not None:
            continue  # HF Trainer.evaluate logs its metrics itself
        verbose = site.kwarg("verbose")
        if not (isinstance(verbose, ast.Constant) and verbose.value in (0, False)):
            continue
        stmt = site.stmt
        names = [n for n in _stmt_targets(stmt) if n != "_"]
        if isinstance(stmt, (ast.Return,)) or (not names and not isinstance(stmt, ast.Expr)):
            continue
        if isinstance(stmt, ast.Expr) and stmt.value is not site.node:
            continue  # `print("val", model.evaluate(...))`: handed to the call around it
        if names:
            derived = derived_names(facts, site.scope, set(names))
            if metrics_handled(facts, site.scope, derived):
                continue
        else:
            derived = set()
        yield Report(
            site.node,
            context={
                "metrics": [n for n in names if "." not in n],
                "anchor": "after",
                "anchor_line": stmt.lineno,
                "scope": site.scope.qualname,
                "class_bases": list(site.scope.class_bases),
                "eval_kind": "keras_evaluate",
            },
            fixable=bool(names),
        )


# ML libraries whose models are evaluated with a metric (beside the DL ones of saving.DL_ROOTS).
ML_ROOTS = frozenset({"sklearn", "xgboost", "lightgbm", "catboost", "torchmetrics", "evaluate", "datasets", "numpy", "scipy", "pandas"})


def _evaluation_module(facts: ModuleFacts) -> bool:
    """Cheap gate: evaluation of a model happens in files that use a DL or ML library, or at
    least switch something to eval mode; a parser's `evaluate()` is not one."""
    if index_of(facts).is_dl or calls_named_ending(facts, ".eval", in_order=False):
        return True
    return any(m.split(".")[0] in ML_ROOTS for m in facts.imported_modules)


@rule("DLL300")
def unlogged_evaluation(facts: ModuleFacts, config: Config) -> Iterator[Report]:
    """Evaluation that computes a loss or metric and neither logs nor hands it on."""
    if not _evaluation_module(facts):
        return
    for scope in facts.scopes:
        if not scope.is_module and is_eval_named(scope.name):
            dedicated = _dedicated_eval(facts, scope)
            if dedicated is not None:
                yield dedicated
            continue  # an eval function that logs or returns: its loops are covered
        if _may_evaluate(facts, scope):  # (checked here: most scopes stop at it)
            yield from _embedded_evals(facts, scope)
    yield from _keras_evaluate(facts)
