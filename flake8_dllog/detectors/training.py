"""Detectors for the training rules (DLL100, DLL101, DLL102) and the shared notion of a
training loop that other families build on (entry points: DLL500/502/601).

API used by other detector modules:
    training_loops(facts) -> list[TrainingLoop]   # one per loop nest, cached on facts
    is_training_module(facts) -> bool             # a training loop or a framework fit/train call

What makes a loop a training loop: a parameter *update* in its body (``optimizer.step()``,
``scaler.step()``, ``apply_gradients``, ``train_on_batch``…), directly or through a
same-module step function it calls. A ``.backward()`` alone is not enough: one-shot
gradients for saliency, guidance or gradient checks are not training.
"""
from __future__ import annotations

import ast
import builtins
import functools
import re
from dataclasses import dataclass, field
from typing import Iterable, Iterator

from ..config import Config
from ..facts import FUNC_TYPES, CallSite, ModuleFacts, Scope, dotted_name, has_elision, walk
from . import Report, header_span, rule

# Unresolved calls whose name says they report something (a project's own meter, hook or
# callback). Their presence makes "no logging" undecidable, so we stay silent. Matched on
# whole words of the method / receiver name: `metric_logger.update`, `log_every`,
# `trigger_callbacks`, but not `model.parameters` or `F.log_softmax`.
REPORTING_VERBS = frozenset(
    "log logs report track record print display show plot notify emit dump summarize summarise "
    "visualize visualise".split()
)
REPORTING_WORDS = frozenset(
    "logger loggers logging callback callbacks hook hooks tensorboard wandb mlflow neptune comet "
    "clearml summary meter meters writer tracker monitor recorder progress pbar tb experiment "
    "dllogger stats statistics".split()
)
BUILTIN_PRINTS = frozenset({"print", "pprint", "pprint.pprint"})
MATH_RECEIVERS = frozenset("torch F np numpy math jnp jax tf scipy nn functional special cmath".split())
_WORD_SPLIT = re.compile(r"[_\W]+|(?<=[a-z0-9])(?=[A-Z])")


def name_words(name: str) -> list[str]:
    return [w.lower() for w in _WORD_SPLIT.split(name) if w]


@functools.lru_cache(maxsize=4096)
def possibly_reports(dotted: str) -> bool:
    """Does this (unresolved) call's name say it reports something?"""
    parts = [p for p in dotted.split(".") if p]
    if not parts:
        return False
    method = parts[-1]
    receiver = parts[-2] if len(parts) > 1 else ""
    if receiver in MATH_RECEIVERS:
        return False
    words = name_words(method)
    # `log_metrics`, `progress_bar`, and rank-0 wrappers named by what they do last:
    # `rank_log`, `master_print`, `dist_print`
    if words and (words[0] in REPORTING_VERBS or words[-1] in REPORTING_VERBS or any(w in REPORTING_WORDS for w in words)):
        return True
    # A receiver that is a plain name (not a call result like `log_softmax(x).argmax`).
    if receiver and not receiver.endswith(("()", "[]")):
        if any(w in REPORTING_WORDS for w in name_words(receiver)):
            return True
    return False


# Names that say "this is the loss" even when data flow cannot prove it.
# In reinforcement learning the monitored training signal is the reward / return.
LOSS_WORD = re.compile(r"loss|nll|perplex|ppl|objective|elbo|reward|return", re.I)
CONTAINER_METHODS = frozenset(
    "append extend update add add_ insert put push record accumulate setdefault add_batch __setitem__ "
    "append_loss update_state add_row add_rows".split()
)
PROGRESS_WRAPPERS = re.compile(r"(^|\.)(tqdm|trange|track|progress_bar|ProgressBar|progressbar|log_every)$")
LIGHTNING_BASES = re.compile(r"(^|\.)(LightningModule|LitModule|LightningModel)$")
DISABLED_LOGGING_KWARGS = {
    "logger": (False,),
    "verbose": (0, False),
    "report_to": ("none", "None", ()),
    "enable_progress_bar": (False,),
}


@dataclass(eq=False)
class TrainingLoop:
    loop: ast.AST  # outermost loop of the nest in its scope (the reported site)
    inner: ast.AST  # innermost loop holding the update (where per-step logging goes)
    scope: Scope
    updates: list[CallSite] = field(default_factory=list)
    backwards: list[CallSite] = field(default_factory=list)
    loss_exprs: list[ast.expr] = field(default_factory=list)
    step_calls: list[CallSite] = field(default_factory=list)  # calls to local step functions
    # Memos of the evidence questions (DLL100, DLL101 and DLL102 all ask them).
    _notable_in_nest: list[CallSite] | None = field(default=None, repr=False)
    _logs_anything: bool | None = field(default=None, repr=False)
    _logs_loss: bool | None = field(default=None, repr=False)


# -- the shared analysis ------------------------------------------------------------------


def _step_functions(facts: ModuleFacts) -> set[str]:
    """Same-module functions that perform a parameter update outside any loop of their own
    (``def train_step(batch): ...; optimizer.step()``), transitively."""
    updates = facts.calls_in("training_update")
    step_fns = {c.scope.qualname for c in updates if not c.loops and not c.scope.is_module}
    changed = bool(step_fns)  # only callers of a step function become step functions
    while changed:
        changed = False
        for scope in facts.scopes:
            if scope.is_module or scope.qualname in step_fns:
                continue
            for site in scope.calls:
                if site.loops:
                    continue
                target = facts.local_target(site)
                if target is not None and target.qualname in step_fns:
                    step_fns.add(scope.qualname)
                    changed = True
                    break
    return step_fns


def _loss_of_backward(site: CallSite) -> ast.expr | None:
    """The loss being backpropagated: ``loss.backward()`` → ``loss``;
    ``accelerator.backward(loss)`` / ``self.manual_backward(loss)`` → ``loss``;
    ``scaler.scale(loss).backward()`` → ``loss``; ``tape.gradient(loss, vars)`` → ``loss``."""
    node = site.node
    method = site.method
    if method == "backward" and isinstance(node.func, ast.Attribute):
        recv = node.func.value
        if node.args and isinstance(recv, (ast.Name, ast.Attribute)) and dotted_name(recv) and (
            dotted_name(recv).split(".")[-1] in ("accelerator", "fabric", "engine", "model_engine", "autograd")
            or "engine" in dotted_name(recv)
        ):
            return node.args[0]
        # scaler.scale(loss).backward()
        if isinstance(recv, ast.Call) and isinstance(recv.func, ast.Attribute) and recv.func.attr == "scale" and recv.args:
            return recv.args[0]
        return recv
    if method in ("manual_backward", "gradient", "backward") and node.args:
        return node.args[0]
    return None


def training_loops(facts: ModuleFacts) -> list[TrainingLoop]:
    cached = getattr(facts, "_training_loops", None)
    if cached is not None:
        return cached
    step_fns = _step_functions(facts)
    by_loop: dict[ast.AST, TrainingLoop] = {}  # by outermost loop
    loops: list[TrainingLoop] = []

    def register(site: CallSite, *, via_call: bool) -> None:
        site_loops = site.loops
        if not site_loops:
            return
        outer = site_loops[0]
        tl = by_loop.get(outer)
        if tl is None:
            tl = TrainingLoop(loop=outer, inner=site_loops[-1], scope=site.scope)
            by_loop[outer] = tl
            loops.append(tl)
        if via_call:
            tl.step_calls.append(site)
        else:
            tl.updates.append(site)
        # The innermost loop that holds an update is where per-step logging belongs.
        if tl.inner is not site_loops[-1] and len(site_loops) > _depth(tl.inner, site):
            tl.inner = site_loops[-1]

    for site in facts.calls_in("training_update"):
        register(site, via_call=False)
    if step_fns:
        for site in facts.calls:
            if site.loops:
                target = facts.local_target(site)
                if target is not None and target.qualname in step_fns:
                    register(site, via_call=True)
    # Backward calls (for the loss) that sit in a training loop's nest.
    for site in facts.calls_in("training_backward") if by_loop else ():
        if site.loops:
            tl = by_loop.get(site.loops[0])
            if tl is not None:
                tl.backwards.append(site)
                loss = _loss_of_backward(site)
                if loss is not None:
                    tl.loss_exprs.append(loss)
    loops.sort(key=lambda t: (t.loop.lineno, t.loop.col_offset))
    facts._training_loops = loops  # type: ignore[attr-defined]
    return loops


def _depth(loop: ast.AST, site: CallSite) -> int:
    for i, candidate in enumerate(site.loops):
        if candidate is loop:
            return i + 1
    return 0


def framework_training_calls(facts: ModuleFacts) -> list[CallSite]:
    """``trainer.fit(...)``, ``model.fit(...)``, HF ``trainer.train()``: loops run by a framework."""
    out = []
    estimators = None
    for site in facts.calls_in("self_logging_loop"):
        name = site.name or ""
        # `.fit` of scikit-style estimators is not deep-learning training; require a
        # receiver that looks like a model/trainer or a Keras/Lightning import.
        recv = name.rsplit(".", 1)[0].split(".")[-1].lower()
        # (a function named for what it trains, `train_model(...)`, bare or imported
        # from the project's `modeling.train`, is its own receiver)
        if site.node.func.__class__ is ast.Name and name.rsplit(".", 1)[-1] not in ("fit", "fit_generator", "train"):
            recv = name.rsplit(".", 1)[-1].lower()
        if any(word in recv for word in ("trainer", "model", "net", "learner", "estimator", "engine")):
            if estimators is None:
                estimators = _classical_estimators(facts)
            if name.rsplit(".", 1)[0] not in estimators:
                out.append(site)
    return out


# Libraries whose `.fit()` trains a classical model, not a network.
CLASSICAL_ML_PACKAGES = ("sklearn.", "xgboost.", "lightgbm.", "catboost.", "statsmodels.", "scipy.")


def _classical_estimators(facts: ModuleFacts) -> frozenset[str]:
    """Names bound to a scikit-learn-style estimator: ``model = LinearRegression()``."""
    out = set()
    for site in facts.calls:
        if site.name and site.name.startswith(CLASSICAL_ML_PACKAGES):
            stmt = site.stmt
            if isinstance(stmt, ast.Assign) and stmt.value is site.node:
                out.update(dotted_name(t) for t in stmt.targets if isinstance(t, (ast.Name, ast.Attribute)))
    out.discard(None)
    return frozenset(out)


def is_training_module(facts: ModuleFacts) -> bool:
    cached = getattr(facts, "_is_training_module", None)
    if cached is None:
        cached = bool(training_loops(facts)) or bool(framework_training_calls(facts)) or bool(_lightning_steps(facts))
        facts._is_training_module = cached  # type: ignore[attr-defined]
    return cached


# -- evidence -------------------------------------------------------------------------


class _Memos:
    """Per-module memos of the evidence questions (one set per ModuleFacts, see _memos()).
    Keyed by the objects themselves: AST nodes and scopes compare by identity, and hashing
    them is cheaper than calling id()."""

    __slots__ = (
        "possibly_logging", "possibly_logs", "notable", "logging_nodes", "callback_aliases",
        "calls_in_span", "value_flows", "scope_logs_its_loss", "returned_values",
        "scope_has_possibly_logging",
    )

    def __init__(self, facts: ModuleFacts) -> None:
        self.possibly_logging: dict[ast.AST, bool] = {}  # call node -> _judge_possibly_logging
        self.possibly_logs: dict[str, bool] = {}  # qualname -> _scope_possibly_logs
        self.notable: dict[Scope, list[CallSite]] = {}
        # facts.is_logging(c) is "c is one of facts.logging_calls" (tested in _notable_calls).
        self.logging_nodes = frozenset(c.node for c in facts.logging_calls)
        # A plain name `f` called as `f(...)` resolves to aliases.get(f, f): a call whose
        # name is neutral can still be `cb(...)` for `from m import run as cb`.
        self.callback_aliases = frozenset(
            t for v, t in facts.aliases.items() if _may_be_callback_named(v.lower()) and _callback_named(v)
        )
        self.calls_in_span: dict[tuple[ast.AST, Scope], list[CallSite]] = {}
        self.value_flows: dict[Scope, list[tuple[frozenset[str], frozenset[str]]]] = {}
        self.scope_logs_its_loss: dict[Scope, bool] = {}
        self.returned_values: dict[Scope, list[ast.expr]] = {}
        self.scope_has_possibly_logging: dict[Scope, bool] = {}


def _memos(facts: ModuleFacts) -> _Memos:
    memos = facts.__dict__.get("_dllog_training_memos")
    if memos is None:
        memos = facts._dllog_training_memos = _Memos(facts)  # type: ignore[attr-defined]
    return memos


def _is_possibly_logging(facts: ModuleFacts, site: CallSite) -> bool:
    memo = _memos(facts).possibly_logging
    key = site.node
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = _judge_possibly_logging(facts, site)
    return hit


def _any_possibly_logging(facts: ModuleFacts, calls: Iterable[CallSite]) -> bool:
    """``any(_is_possibly_logging(facts, c) for c in calls)``: the same calls judged in the
    same order (judging has memoised side effects, see _scope_possibly_logs), with the memo
    looked up once instead of once per call."""
    memo = _memos(facts).possibly_logging
    for site in calls:
        key = site.node
        hit = memo.get(key)
        if hit is None:
            hit = memo[key] = _judge_possibly_logging(facts, site)
        if hit:
            return True
    return False


def _judge_possibly_logging(facts: ModuleFacts, site: CallSite) -> bool:
    if facts.is_logging(site):
        return True
    target = facts.local_target(site)
    if target is not None:
        # Local functions are judged by their bodies: do they log, or hand control to
        # something opaque that might (a callback list, a hook)?
        return _scope_possibly_logs(facts, target)
    return _is_opaque_reporter(site) or _sent_to_a_logging_object(facts, site)


def _sent_to_a_logging_object(facts: ModuleFacts, site: CallSite) -> bool:
    """``vis.update(loss.item(), eer, step)`` where the file also calls ``vis.log_params()``:
    a project's visualiser/tracker object, which logs what it is handed."""
    name = site.name or ""
    return name.count(".") == 1 and name.split(".", 1)[0] in _logging_objects(facts)


# Tensor/array methods named log_*: arithmetic, not reports.
_MATH_LOG_METHODS = frozenset({"log_softmax", "log_sigmoid", "log_prob", "log_normal_", "log_abs_det_jacobian", "log_ndtr"})


def _logging_objects(facts: ModuleFacts) -> frozenset[str]:
    """Plain variables the file calls a ``log*`` method of (``vis.log_params()``), but
    not the logging module or a logger: their other methods are reports too."""
    found = getattr(facts, "_dllog_logging_objects", None)
    if found is None:
        found = frozenset(
            head
            for name in facts._calls_by_name
            if name.count(".") == 1
            for head, method in [name.split(".")]
            if (method == "log" or method.startswith("log_") and method not in _MATH_LOG_METHODS)
            and head not in ("self", "cls", "logging", "math", "np", "numpy", "torch")
        )
        facts._dllog_logging_objects = found  # type: ignore[attr-defined]
    return found


def _is_opaque_reporter(site: CallSite) -> bool:
    func = site.node.func
    if _installs_hook(site.name or "") and site.node.args and isinstance(site.node.args[0], ast.Lambda):
        return False  # `hidden.register_hook(lambda grad: grad * 0.5)`: autograd, not a reporter
    return _opaque_reporter_name(site.name or "", func.id if isinstance(func, ast.Name) else None)


def _installs_hook(name: str) -> bool:
    """``register_hook``, ``register_forward_hook``...: a tensor's or module's hook, or a
    training framework's (mmcv ``runner.register_hook(LoggerHook())``), by its argument."""
    last = name.rsplit(".", 1)[-1]
    return last.startswith("register_") and last.endswith("hook")


@functools.lru_cache(maxsize=4096)
def _opaque_reporter_name(name: str, called_variable: str | None) -> bool:
    """_is_opaque_reporter() by the call's names only (``called_variable``: the name
    called when the callee is a plain name), so a file's many calls of the same few
    names are judged once."""
    if name in BUILTIN_PRINTS:
        return False  # known, not opaque: facts.is_logging() applies `print-is-logging`
    if possibly_reports(name):
        return True
    # `callback(self)` / `hook(trainer)` where the callable is a variable.
    return called_variable is not None and _callback_named(called_variable)


def _callback_named(variable: str) -> bool:
    return any(w in ("callback", "callbacks", "hook", "hooks", "cb") for w in name_words(variable))


def _may_be_callback_named(lowered: str) -> bool:
    """A cheap necessary condition for _callback_named(): its words are lowered pieces."""
    return "cb" in lowered or "hook" in lowered or "callback" in lowered


# What a call's resolved name alone says about _is_opaque_reporter(call), for the scan of
# every call in _notable_calls() (a dict lookup instead of the two-key lru_cache):
_NEVER = 0  # a builtin print: known, never opaque
_ALWAYS = 1  # the name says it reports
_ASK_CALL = 2  # a neutral name with a callback word: the call may be `callback(...)`
_PLAIN = 3  # a neutral name: opaque only as an alias of a callback variable (see below)
_NAME_VERDICTS: dict[str, int] = {}


def _name_verdict(name: str) -> int:
    if len(_NAME_VERDICTS) > 16384:  # a language server sees many files: stay bounded
        _NAME_VERDICTS.clear()
    if name in BUILTIN_PRINTS:
        verdict = _NEVER
    elif _installs_hook(name):
        verdict = _ASK_CALL  # what is installed decides (see _is_opaque_reporter)
    elif possibly_reports(name):
        verdict = _ALWAYS
    elif _callback_named(name):
        verdict = _ASK_CALL
    else:
        verdict = _PLAIN
    _NAME_VERDICTS[name] = verdict
    return verdict


def _scope_possibly_logs(facts: ModuleFacts, scope: Scope) -> bool:
    memo = _memos(facts).possibly_logs
    key = scope.qualname
    if key in memo:
        return memo[key]
    memo[key] = False  # recursion guard
    result = facts.scope_logs(scope) or any(
        _is_opaque_reporter(c) or (c.target is not None and c.target is not scope and _scope_possibly_logs(facts, c.target))
        for c in _notable_calls(facts, scope)
    )
    memo[key] = result
    return result


def _notable_calls(facts: ModuleFacts, scope: Scope) -> list[CallSite]:
    """The scope's calls that the evidence questions can be about, in ``scope.calls`` order:
    logging calls, calls of same-module functions, calls whose name says they report.
    Any other call is judged "not possibly logging" by _judge_possibly_logging() without
    side effects and fails every test of logs_anything(), logs_loss() and DLL102, so those
    look at these calls only: the same answers, the same judgments in the same order.
    Memoised per scope; callers must not mutate the list."""
    memos = _memos(facts)
    calls = memos.notable.get(scope)
    if calls is None:
        # This runs for every call of every scope with a training loop (or calling one):
        # facts.is_logging, facts.local_target (site.target) and _is_opaque_reporter inlined.
        logging_nodes = memos.logging_nodes
        callback_aliases = memos.callback_aliases
        verdicts = _NAME_VERDICTS
        plain, always = _PLAIN, _ALWAYS
        calls = memos.notable[scope] = []
        for c in scope.calls:
            if c.target is not None or c.node in logging_nodes:
                calls.append(c)
                continue
            name = c.name or ""
            verdict = verdicts.get(name)
            if verdict is None:
                verdict = _name_verdict(name)
            if verdict == plain:
                if callback_aliases and name in callback_aliases and _is_opaque_reporter(c):
                    calls.append(c)
                elif "." in name and _sent_to_a_logging_object(facts, c):
                    calls.append(c)
            elif verdict == always or (verdict == _ASK_CALL and _is_opaque_reporter(c)):
                calls.append(c)
    return calls


def _notable_calls_in_span(facts: ModuleFacts, node: ast.AST, scope: Scope) -> list[CallSite]:
    """The notable calls (see _notable_calls) on the lines of ``node`` (a loop), in
    ``scope.calls`` order. Memoised (every function a caller's loop runs asks about that
    loop); callers must not mutate the list."""
    memo = _memos(facts).calls_in_span
    key = (node, scope)
    calls = memo.get(key)
    if calls is None:
        start, end = node.lineno, node.end_lineno or node.lineno
        notable = _notable_calls(facts, scope)
        calls = memo[key] = [c for c in notable if start <= c.node.lineno <= end] if notable else notable
    return calls


def _local_targets(facts: ModuleFacts, calls: Iterable[CallSite]) -> Iterator[Scope]:
    for c in calls:
        target = facts.local_target(c)
        if target is not None:
            yield target


def _notable_after_loop(facts: ModuleFacts, scope: Scope, loop: ast.AST) -> list[CallSite]:
    notable = _notable_calls(facts, scope)
    if not notable:
        return notable
    end = loop.end_lineno or loop.lineno
    return [c for c in notable if c.node.lineno > end and not _inside_other_def(c, scope)]


def _inside_other_def(site: CallSite, scope: Scope) -> bool:
    return site.scope is not scope


def _callers(facts: ModuleFacts, scope: Scope) -> list[CallSite]:
    if scope.is_module:
        return []
    found = facts.callers_of(scope)
    if found or scope.class_name is None or len(_methods_by_name(facts).get(scope.name, ())) != 1:
        return found
    # `model.train_net(batch)` with `model = Agent()` in the caller's scope: a method called
    # on an instance of its class (the call graph follows `self.m()` only).
    name, cls = scope.name, scope.class_name
    found = []
    for c in facts.calls:
        func = c.node.func
        if c.target is not None or func.__class__ is not ast.Attribute or func.attr != name:
            continue
        if func.value.__class__ is not ast.Name:
            continue
        instance = func.value.id
        if any(_binds_an_instance(info.stmt, instance, cls) for info in facts.scope_stmts(c.scope)):
            found.append(c)
    return found


def _binds_an_instance(stmt: ast.stmt, name: str, cls: str) -> bool:
    """``name = cls(...)`` (or ``name, other = cls(...), ...``)."""
    if not isinstance(stmt, ast.Assign):
        return False
    for target in stmt.targets:
        pairs = [(target, stmt.value)]
        if isinstance(target, ast.Tuple) and isinstance(stmt.value, ast.Tuple) and len(target.elts) == len(stmt.value.elts):
            pairs = list(zip(target.elts, stmt.value.elts))
        for t, v in pairs:
            if isinstance(t, ast.Name) and t.id == name and isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == cls:
                return True
    return False


def _progress_wrapped(loop: ast.AST, facts: ModuleFacts) -> bool:
    if not isinstance(loop, (ast.For, ast.AsyncFor)):
        return False
    it = loop.iter
    aliases = facts.aliases
    while isinstance(it, ast.Call):
        func = it.func
        # dotted_name() of a plain name, inlined: `range(...)`, `enumerate(...)`, `tqdm(...)`
        name = aliases.get(func.id, func.id) if func.__class__ is ast.Name else dotted_name(func, aliases) or ""
        if _is_progress_name(name):
            return True
        # enumerate(tqdm(loader)) / zip(...): the first argument that is a call
        for arg in it.args:
            if isinstance(arg, ast.Call):
                it = arg
                break
        else:
            break
    return False


def _is_progress_name(name: str) -> bool:
    hit = _PROGRESS_NAMES.get(name)
    if hit is None:
        if len(_PROGRESS_NAMES) > 4096:  # stay bounded in a language server
            _PROGRESS_NAMES.clear()
        hit = _PROGRESS_NAMES[name] = bool(PROGRESS_WRAPPERS.search(name))
    return hit


_PROGRESS_NAMES: dict[str, bool] = {}


def _opaque_wrapper(loop: ast.AST, facts: ModuleFacts) -> bool:
    """`for x in metric_logger.log_every(loader, ...)`: a project's own logger drives the loop."""
    if not isinstance(loop, (ast.For, ast.AsyncFor)) or not isinstance(loop.iter, ast.Call):
        return False
    name = dotted_name(loop.iter.func, facts.aliases) or ""
    return "tqdm" not in name and possibly_reports(name)


def logs_anything(facts: ModuleFacts, tl: TrainingLoop) -> bool:
    """DLL100's evidence: any logging in the nest, in what it calls, right after it, or in
    the caller that runs it. Memoised per loop: DLL100 and DLL101 both ask (asking again
    would judge the same calls, already memoised, in the same order: the same answer)."""
    hit = tl._logs_anything
    if hit is None:
        hit = tl._logs_anything = _logs_anything(facts, tl)
    return hit


def _notable_in_nest(facts: ModuleFacts, tl: TrainingLoop) -> list[CallSite]:
    """_notable_calls_in_span() of the loop nest, kept on the loop."""
    calls = tl._notable_in_nest
    if calls is None:
        notable = _notable_calls(facts, tl.scope)
        if notable:
            start, end = tl.loop.lineno, tl.loop.end_lineno or tl.loop.lineno
            notable = [c for c in notable if start <= c.node.lineno <= end]
        calls = tl._notable_in_nest = notable
    return calls


def _logs_anything(facts: ModuleFacts, tl: TrainingLoop) -> bool:
    in_loop = _notable_in_nest(facts, tl)
    if in_loop and (
        _any_possibly_logging(facts, in_loop) or any(facts.scope_logs(t) for t in _local_targets(facts, in_loop))
    ):
        return True
    if _runs_a_logging_method_of_this_file(facts, tl):
        return True
    # The nest (tl.loop and the loops within it: all in scope.loops) iterates through a
    # progress bar. Only a `for` over a call can: the others are skipped without a call.
    start, end = tl.loop.lineno, tl.loop.end_lineno or tl.loop.lineno
    call_type, for_types = ast.Call, (ast.For, ast.AsyncFor)
    for l in tl.scope.loops:
        if start <= l.lineno <= end and isinstance(l, for_types) and isinstance(l.iter, call_type) and _progress_wrapped(l, facts):
            return True
    # In a function, any logging in it says the run reports progress (an epoch header before
    # the loop, a summary after it); at module level only what follows the loop counts.
    if tl.scope.is_module:
        if _any_possibly_logging(facts, _notable_after_loop(facts, tl.scope, tl.loop)):
            return True
    elif _scope_has_possibly_logging(facts, tl.scope):  # scope.calls: all in the scope
        return True
    # The loop's function is run by a caller that logs around the call.
    for caller in _callers(facts, tl.scope):
        if not caller.loops:
            # A log after the whole run ("saved weights") is not training progress; a
            # returned loss that the caller logs is judged by logs_loss().
            continue
        around = _caller_neighbourhood(facts, caller)
        if _any_possibly_logging(facts, around):
            return True
        if any(facts.scope_logs(t) for t in _local_targets(facts, around) if t is not tl.scope):
            return True
    return False


def _methods_by_name(facts: ModuleFacts) -> dict[str, list[Scope]]:
    """The methods of this file's classes by their name (dunders aside), found once."""
    methods = getattr(facts, "_dllog_methods_by_name", None)
    if methods is None:
        methods = {}
        for scope in facts.scopes:
            if scope.class_name and not scope.name.startswith("__"):
                methods.setdefault(scope.name, []).append(scope)
        facts._dllog_methods_by_name = methods  # type: ignore[attr-defined]
    return methods


def _loss_reported_by_its_method(facts: ModuleFacts, tl: TrainingLoop, seeds: set[str]) -> bool:
    """``loss = self.model.training_step(batch)`` where this file's ``training_step``
    (found by name: the receiver's class is unknown) plots or logs the loss it returns."""
    methods = _methods_by_name(facts)
    if not methods:
        return False
    start, end = tl.loop.lineno, tl.loop.end_lineno or tl.loop.lineno
    for c in tl.scope.calls:
        func = c.node.func
        if c.target is not None or not isinstance(func, ast.Attribute) or not start <= c.node.lineno <= end:
            continue
        stmt = c.stmt
        if not (isinstance(stmt, ast.Assign) and stmt.value is c.node):
            continue
        if not any(isinstance(t, ast.Name) and t.id in seeds for t in stmt.targets):
            continue
        if any(m is not tl.scope and _reports_what_it_returns(facts, m) for m in methods.get(func.attr, ())):
            return True
    return False


def _reports_what_it_returns(facts: ModuleFacts, scope: Scope) -> bool:
    """``def training_step(self, batch): l = self.loss(...); self.plot("loss", l); return l``:
    the method hands the value it returns to a log (or to a method of its own that logs)."""
    returned: set[str] = set()
    for node in walk(scope.node):
        if isinstance(node, ast.Return) and node.value is not None:
            returned |= _names_in(node.value)
    if not returned:
        return False
    for c in scope.calls:
        args = list(c.node.args) + [k.value for k in c.node.keywords]
        if not any(_names_in(a) & returned for a in args):
            continue
        if _is_possibly_logging(facts, c):
            return True
        if c.target is not None and c.target is not scope and (
            possibly_reports(c.name or "") or _scope_possibly_logs(facts, c.target)
        ):
            return True  # (`self.plot("loss", l)`: a method of its own named for reporting)
    return False


def _runs_a_logging_method_of_this_file(facts: ModuleFacts, tl: TrainingLoop) -> bool:
    """``loss = self.model.training_step(batch)`` where a class of this file defines a
    ``training_step`` that plots or logs its loss (d2l's Trainer and Module; a
    Lightning-style split): the step the loop runs reports."""
    methods = _methods_by_name(facts)
    if not methods:
        return False
    start, end = tl.loop.lineno, tl.loop.end_lineno or tl.loop.lineno
    for c in tl.scope.calls:
        if c.target is not None or not start <= c.node.lineno <= end:
            continue
        func = c.node.func
        if isinstance(func, ast.Attribute):
            for method in methods.get(func.attr, ()):
                if method is not tl.scope and _scope_possibly_logs(facts, method):
                    return True
    return False


def _caller_neighbourhood(facts: ModuleFacts, caller: CallSite) -> list[CallSite]:
    """Calls that log "around" a call to the training function: the caller's loop nest
    around the call, or what follows the call in the caller's scope (notable calls only,
    see _notable_calls)."""
    scope = caller.scope
    if caller.loops:
        return _notable_calls_in_span(facts, caller.loops[0], scope)
    line = caller.node.lineno
    return [c for c in _notable_calls(facts, scope) if c.node.lineno >= line and c is not caller]


# -- loss data flow (DLL101) ------------------------------------------------------------


def _names_in(node: ast.AST) -> set[str]:
    """``facts.referenced_names(node)``, the same set, computed without a generator per node
    or a ``dotted_name`` per chain link (this runs for every assignment of every training
    scope): every name an expression reads, and every prefix of an attribute chain rooted
    in a name (``a.b.c`` → ``a``, ``a.b``, ``a.b.c``)."""
    out: set[str] = set()
    stack = [node]
    pop = stack.pop
    push = stack.append
    name_type, attribute_type, constant_type = ast.Name, ast.Attribute, ast.Constant
    fields_of = _NODE_FIELDS
    ast_type = ast.AST
    while stack:
        n = pop()
        cls = n.__class__
        if cls is name_type:
            out.add(n.id)
            continue
        if cls is attribute_type:
            attrs = []
            head = n
            while head.__class__ is attribute_type:
                attrs.append(head.attr)
                head = head.value
            if head.__class__ is name_type:
                dotted = head.id
                out.add(dotted)
                for attr in reversed(attrs):
                    dotted = f"{dotted}.{attr}"
                    out.add(dotted)
                continue
            # `f().x`, `a[i].x`, `(a or b).x`: no name for the chain; read inside its head.
            push(head)
            continue
        if cls is constant_type:
            continue
        fields = fields_of.get(cls)
        if fields is None:
            fields = fields_of[cls] = tuple(f for f in cls._fields if f != "ctx")
        for fname in fields:
            v = getattr(n, fname, None)
            if v.__class__ is list:
                for item in v:
                    if isinstance(item, ast_type):
                        push(item)
            elif isinstance(v, ast_type):
                push(v)
    return out


# Per AST class: the fields that may hold child nodes (expression contexts left out).
_NODE_FIELDS: dict[type, tuple[str, ...]] = {}


def _target_names(target: ast.AST) -> set[str]:
    if isinstance(target, (ast.Tuple, ast.List)):
        out: set[str] = set()
        for elt in target.elts:
            out |= _target_names(elt)
        return out
    if isinstance(target, ast.Starred):
        return _target_names(target.value)
    if isinstance(target, ast.Subscript):
        return _target_names(target.value)
    d = dotted_name(target)
    return {d} if d and "(" not in d and "[" not in d else set()


def _refs_any(refs: "set[str] | frozenset[str]", derived: set[str]) -> bool:
    """Is a name of ``refs`` one of ``derived``, or a dotted prefix or extension of one?
    (Each name's prefixes are looked up, not every pair compared: refs x derived grows
    with the fixpoint.)"""
    if not refs.isdisjoint(derived):
        return True
    return _has_dotted_prefix_in(refs, derived) or _has_dotted_prefix_in(derived, refs)


def _has_dotted_prefix_in(names: "set[str] | frozenset[str]", prefixes: "set[str] | frozenset[str]") -> bool:
    """Does a name ``a.b.c`` of ``names`` start with ``p + "."`` for a ``p`` of ``prefixes``?"""
    for name in names:
        dot = name.find(".")
        while dot != -1:
            if name[:dot] in prefixes:
                return True
            dot = name.find(".", dot + 1)
    return False


def _loss_components(facts: ModuleFacts, scope: Scope, seeds: set[str]) -> set[str]:
    """The named parts of a loss: the terms it is summed from (``total_loss = content_loss +
    style_loss``, ``loss = l_pi + l_v``) and what the call that returned it returned beside it
    (``output, loss, loss_stats = model_with_loss(batch)``). Logging them (or running sums of
    them) logs the loss. A term counts when it is named like a loss or computed in this
    function (not ``alpha`` or ``args.weight``); the inputs of a call such as
    ``criterion(out, y)`` are not parts."""
    found: set[str] = set()
    computed: set[str] = set()  # names this scope binds to a computation (a call, arithmetic)
    candidates: set[str] = set()
    for info in facts.scope_stmts(scope):
        stmt = info.stmt
        if stmt.__class__ is ast.Assign:
            targets = stmt.targets
        elif stmt.__class__ in (ast.AugAssign, ast.AnnAssign) and stmt.value is not None:
            targets = [stmt.target]
        else:
            continue
        value = stmt.value
        if value.__class__ in (ast.Call, ast.BinOp, ast.UnaryOp):
            computed.update(t.id for t in targets if t.__class__ is ast.Name)
        for target in targets:
            if target.__class__ is ast.Tuple and value.__class__ is ast.Call and any(
                e.__class__ is ast.Name and e.id in seeds for e in target.elts
            ):
                found.update(
                    e.id for e in target.elts if e.__class__ is ast.Name and e.id not in seeds and LOSS_WORD.search(e.id)
                )
        # (and `total_loss = class_err`: the loss under another name)
        if not (value.__class__ in (ast.BinOp, ast.Name) and any(t.__class__ is ast.Name and t.id in seeds for t in targets)):
            continue
        # (term, named): `named` terms count only when named like a loss. In `l_pi + l_v`
        # both are parts; in `loss / accum_steps` or `0.5 * l_v` the divisor and the
        # constant are not; in `alpha * l_v` only a loss-like name can be told apart.
        terms: list[tuple[ast.expr, bool]] = [(value, False)]
        while terms:
            term, named = terms.pop()
            cls = term.__class__
            if cls is ast.BinOp:
                op = term.op.__class__
                if op in (ast.Add, ast.Sub):
                    terms += ((term.left, named), (term.right, named))
                elif op is ast.Mult:
                    if term.left.__class__ is ast.Constant:
                        terms.append((term.right, named))
                    elif term.right.__class__ is ast.Constant:
                        terms.append((term.left, named))
                    else:
                        terms += ((term.left, True), (term.right, True))
                else:  # `/`, `//`, `**`...: the left side is the loss, the right a number
                    terms.append((term.left, named))
            elif cls is ast.UnaryOp:
                terms.append((term.operand, named))
            elif cls is ast.Name:
                if LOSS_WORD.search(term.id):
                    found.add(term.id)
                elif not named:
                    candidates.add(term.id)
            elif cls is ast.Attribute:
                name = dotted_name(term)
                if name and LOSS_WORD.search(name.rsplit(".", 1)[-1]):
                    found.add(name)
    found.update(n for n in candidates if n in computed)
    return found - seeds


BUILTIN_NAMES = frozenset(dir(builtins))


def _handed_to_project_helper(facts: ModuleFacts, tl: TrainingLoop, seeds: set[str]) -> bool:
    from .saving import index_of  # (saving imports this module)

    idx = index_of(facts)
    project = idx.own_module_imports
    # (`from utils import *`: a helper called by a name this file never binds comes from it)
    star = idx.star_imports_project
    if not (project or star) or not seeds:
        return False
    derived = None
    start = tl.loop.lineno
    for site in tl.scope.calls:
        func = site.node.func
        if site.node.lineno < start or site.target is not None:
            continue
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            # `tracker = instantiate_with_cfg(cfg.accelerator)` ... `tracker.update_step(avg_loss)`:
            # a project object's method (not the step itself: `.backward(loss)`, `.gather(loss)`)
            if func.attr in STEP_PLUMBING or not _built_by_a_project_call(idx, tl.scope, func.value.id, project):
                continue
        elif not isinstance(func, ast.Name):
            continue
        elif func.id not in project and not (star and func.id not in facts.aliases and func.id not in BUILTIN_NAMES):
            continue
        if derived is None:
            derived = _loss_carriers(facts, tl.scope, seeds)
        if _call_refs_loss(site, derived):
            return True
    return False


# Methods of a training wrapper that carry the loss into the step, not into a log.
STEP_PLUMBING = frozenset({
    "backward", "gather", "gather_for_metrics", "reduce", "scale", "unscale_", "step", "zero_grad",
    "clip_grad_norm_", "clip_grad_value_", "all_reduce", "detach", "item", "mean", "sum", "float",
})


def _built_by_a_project_call(idx, scope: Scope, name: str, project: frozenset[str]) -> bool:
    """``name = helper(...)`` (or ``Helper(...)``) with ``helper`` imported from the project,
    as its only binding in the scope (or the module): an object whose methods this file
    cannot see."""
    binds = idx.bindings(scope, name)
    if not binds and not scope.is_module:
        binds = idx.bindings(idx.facts.module, name)
    if len(binds) != 1:
        return False
    value = binds[0][1]
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in project


def _loss_carriers(facts: ModuleFacts, scope: Scope, seeds: set[str]) -> set[str]:
    """loss_derived_names() seeded with the loss and its parts (see _loss_components)."""
    return loss_derived_names(scope, seeds | _loss_components(facts, scope, seeds), facts)


def loss_derived_names(scope: Scope, seeds: set[str], facts: ModuleFacts) -> set[str]:
    """Names that (may) carry the loss: the loss itself, anything assigned from it, any
    container or meter it was put into (``meter.update(loss.item())``, ``hist.append``,
    ``stats["loss"] = loss``), to a fixpoint. Light, flow-insensitive data flow."""
    derived = set(seeds)
    flows = _value_flows(facts, scope)
    for _ in range(3):
        before = len(derived)
        for refs, targets in flows:
            if _refs_any(refs, derived):
                derived |= targets
        if len(derived) == before:
            break
    return derived


def _value_flows(facts: ModuleFacts, scope: Scope) -> list[tuple[frozenset[str], frozenset[str]]]:
    """The scope's statements that move a value into names, in source order, as
    (names read, names bound): ``a = f(b)`` → ({f, b}, {a}); ``meter.update(x)`` → ({x},
    {meter}). Computed once per scope: every loss_derived_names() round and every training
    loop of the scope reuses it. Pairs that read or bind nothing cannot grow the fixpoint
    and are left out."""
    memo = _memos(facts).value_flows
    flows = memo.get(scope)
    if flows is not None:
        return flows
    # A function's flows are names read and bound by its own statements: the language
    # server reuses them for a function an edit did not touch.
    flows = facts.kept("value_flows", scope.node)
    if flows is None:
        flows = _scope_value_flows(facts, scope)
        facts.keep("value_flows", scope.node, flows)
    memo[scope] = flows
    return flows


# Keras metric objects that accumulate what they are called with (`metrics.Mean()`).
KERAS_METRIC = re.compile(r"(^|\.)metrics\.\w+$")


def _scope_value_flows(facts: ModuleFacts, scope: Scope) -> list[tuple[frozenset[str], frozenset[str]]]:
    flows = []
    metric_objects: set[str] | None = None  # (worked out at the first bare-name call statement)
    for info in facts.scope_stmts(scope):
        stmt = info.stmt
        if isinstance(stmt, ast.Assign):
            refs = _names_in(stmt.value)
            targets: set[str] = set()
            for t in stmt.targets:
                targets |= _target_names(t)
        elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)) and stmt.value is not None:
            refs = _names_in(stmt.value)
            targets = _target_names(stmt.target)
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            # `for tag, value in info.items(): writer.add_scalar(tag, value, step)`
            refs = _names_in(stmt.iter)
            targets = _target_names(stmt.target)
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            call = stmt.value
            # Only methods that *store* a value make their receiver carry the loss:
            # `meter.update(loss.item())`, `hist.append(loss)` — not
            # `accelerator.backward(loss)` or `optimizer.step()`.
            if isinstance(call.func, ast.Name) and metric_objects is None:
                metric_objects = {
                    t.id for c in scope.calls if "metrics." in (c.name or "") and KERAS_METRIC.search(c.name)
                    and isinstance(c.stmt, ast.Assign) and c.stmt.value is c.node for t in c.stmt.targets if isinstance(t, ast.Name)
                }
            if isinstance(call.func, ast.Name) and call.func.id in metric_objects:  # type: ignore[operator]
                # Keras `train_loss(loss)` with `train_loss = tf.keras.metrics.Mean()`: it accumulates it
                refs = set()
                for a in call.args:
                    refs |= _names_in(a)
                targets = {call.func.id}
                if refs:
                    flows.append((frozenset(refs), frozenset(targets)))
                continue
            if not (
                isinstance(call.func, ast.Attribute)
                and (call.func.attr in CONTAINER_METHODS or possibly_reports(dotted_name(call.func) or ""))
            ):
                continue
            refs = set()
            for a in list(call.args) + [k.value for k in call.keywords]:
                refs |= _names_in(a)
            targets = _target_names(call.func.value)
        else:
            continue
        if refs and targets:
            flows.append((frozenset(refs), frozenset(targets)))
    return flows


def _call_refs_loss(site: CallSite, derived: set[str]) -> bool:
    node = site.node
    # `progress.display(i)` where `progress = ProgressMeter(n, [batch_time, losses])` holds
    # the meter the loss went into (pytorch/examples imagenet, MoCo), or `bar.next()` after
    # `bar.suffix = "Loss: {:.4f}".format(losses.avg)` (the `progress` package): the
    # receiver carries it.
    receiver = node.func.value if node.func.__class__ is ast.Attribute else None
    while receiver.__class__ is ast.Attribute:
        receiver = receiver.value
    if receiver.__class__ is ast.Name and receiver.id != "self":
        held = receiver.id
        if held in derived or any(d.startswith(held + ".") for d in derived):
            return True
    args = list(node.args) + [k.value for k in node.keywords]
    for kw in node.keywords:
        if kw.arg is None or (kw.arg and LOSS_WORD.search(kw.arg)):
            return True  # **kwargs is opaque; loss=... names it
    for a in args:
        if isinstance(a, ast.Starred):
            return True
        refs = _names_in(a)
        if _refs_any(refs, derived) or any(LOSS_WORD.search(r.split(".")[-1]) for r in refs):
            return True
        for sub in walk(a):
            if isinstance(sub, ast.Constant) and isinstance(sub.value, str) and LOSS_WORD.search(sub.value):
                # `wandb.log({"train/loss": ...})` or a format string naming the loss:
                # the author says this is the loss; trust them.
                return True
            if isinstance(sub, ast.Call) and dotted_name(sub.func) in ("locals", "vars", "globals"):
                return True
    return False


def _published_under_its_name(facts: ModuleFacts, tl: TrainingLoop, seeds: set[str]) -> bool:
    """``storage.set_infos.remote("total_loss", total_loss)``, ``meter.update("loss", loss)``
    in the loop: the loss handed to some object together with a name for it, a key-value
    record (a metrics store another part of the project logs from) whatever the method is
    called. A loss passed along without a name (``model.step(loss)``) is not."""
    start, end = tl.loop.lineno, tl.loop.end_lineno or tl.loop.lineno
    derived: set[str] | None = None
    for site in tl.scope.calls:
        node = site.node
        if not start <= node.lineno <= end or node.func.__class__ is not ast.Attribute:
            continue
        named = any(
            isinstance(a, ast.Constant) and isinstance(a.value, str) and LOSS_WORD.search(a.value)
            for a in node.args
        )
        if not named:
            continue
        if derived is None:
            derived = _loss_carriers(facts, tl.scope, seeds)
        if any(_refs_any(_names_in(a), derived) for a in node.args if not isinstance(a, ast.Constant)):
            return True
    return False


# A clock read (`time.time()`, `time.perf_counter()`, `timeit.default_timer()`).
CLOCK_READ = re.compile(r"(^|\.)(time|perf_counter|perf_counter_ns|monotonic|time_ns|default_timer)$")


def timing_benchmark(facts: ModuleFacts, tl: TrainingLoop) -> bool:
    """``t0 = time.time()``, then ``lf(model(xb), yb).backward()`` with the loss never given a
    name, then ``compute = time.time() - t0``: the loop is timed and its loss thrown away on
    purpose. A speed benchmark has no loss to log and no result a seed would reproduce."""
    if not tl.loss_exprs or any(e.__class__ in (ast.Name, ast.Attribute) for e in tl.loss_exprs):
        return False
    start, end = tl.loop.lineno, tl.loop.end_lineno or tl.loop.lineno
    clocks = [c.node.lineno for c in tl.scope.calls if CLOCK_READ.search(dotted_name(c.node.func, facts.aliases) or "")]
    return any(line < start for line in clocks) and any(line > end for line in clocks)


def logs_loss(facts: ModuleFacts, tl: TrainingLoop) -> bool:
    """DLL101's evidence: some log in or after the loop (or in a caller, or in a local
    helper it hands the value to) carries the loss or a value derived from it. Memoised
    per loop, as logs_anything()."""
    hit = tl._logs_loss
    if hit is None:
        hit = tl._logs_loss = _logs_loss(facts, tl) or _loss_named_value_logged(facts, tl)
    return hit


def _loss_named_value_logged(facts: ModuleFacts, tl: TrainingLoop) -> bool:
    """``train_loss = evaluate(model, train_loader)``, ``train_rmse = train_loss ** 0.5``,
    ``print(f"train RMSE {train_rmse:.4f}")`` in the loop or after it: the author
    recomputes the training loss over the whole set and logs a value made from it. (A
    log naming a ``*loss*`` variable itself already counts; this follows it one step.)"""
    named = {
        name for name in _value_flow_targets(facts, tl.scope)
        if "loss" in name.lower() and "." not in name
    }
    if named:
        derived = loss_derived_names(tl.scope, named, facts)
        if derived != named:
            candidates = _notable_in_nest(facts, tl) + _notable_after_loop(facts, tl.scope, tl.loop)
            if any(_is_possibly_logging(facts, c) and _call_refs_loss(c, derived) for c in candidates):
                return True
    # `s = "%g/%g %10.3g" % (epoch, epochs, rloss["loss"])`, then `logger.info(s)`: a line
    # the author built with the loss named in it (as a format string naming it, trusted)
    logged_names = {
        a.id for c in _notable_in_nest(facts, tl) if _is_possibly_logging(facts, c) for a in c.node.args if a.__class__ is ast.Name
    }
    if logged_names:
        for info in facts.scope_stmts(tl.scope):
            stmt = info.stmt
            if (
                stmt.__class__ is ast.Assign and tl.loop in info.loops
                and any(t.__class__ is ast.Name and t.id in logged_names for t in stmt.targets)
                and any(
                    n.__class__ is ast.Constant and isinstance(n.value, str) and "loss" in n.value.lower()
                    for n in walk(stmt.value)
                )
            ):
                return True
    # `tot += float(loss)` ... `csv.writer(f).writerow([ep + 1, tot / nb])` (or `f.write(...)`):
    # the loss goes into a history file, row by row
    seeds = _backpropagated_names(tl)
    start = tl.loop.lineno
    writes = [c for c in tl.scope.calls if c.method in RECORD_WRITES and c.node.lineno >= start]
    if not seeds or not writes:
        return False
    carriers = loss_derived_names(tl.scope, seeds, facts)
    return any(
        any(_refs_any(_names_in(a), carriers) for a in c.node.args)
        for c in writes
    )


# Writes of a row or a line to a history/log file.
RECORD_WRITES = frozenset({"writerow", "writerows", "write"})


def _value_flow_targets(facts: ModuleFacts, scope: Scope) -> set[str]:
    """Every name the scope's statements bind (see _value_flows)."""
    return {t for _, targets in _value_flows(facts, scope) for t in targets}


def _backpropagated_names(tl: TrainingLoop) -> set[str]:
    """The names in the expressions the loop backpropagates (``loss`` of ``loss.backward()``)."""
    seeds: set[str] = set()
    for expr in tl.loss_exprs:
        if expr.__class__ is ast.Name:
            seeds.add(expr.id)  # `loss.backward()`: _names_in() of a name, without the walk
        else:
            seeds |= _names_in(expr)
    return seeds


def _logs_loss(facts: ModuleFacts, tl: TrainingLoop) -> bool:
    seeds = _backpropagated_names(tl)
    # `loss = train_step(batch)`: the step function's result is the loss.
    for sc in tl.step_calls:
        info = sc.info
        if isinstance(info.stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = info.stmt.targets if isinstance(info.stmt, ast.Assign) else [info.stmt.target]
            for t in targets:
                seeds |= _target_names(t)
        target = facts.local_target(sc)
        if target is not None and _scope_logs_its_loss(facts, target):
            return True
        if target is not None:
            seeds |= _loss_arguments(facts, sc, target)
    if not seeds and not tl.step_calls:
        return True  # no loss to speak of (TF/Keras train_on_batch...): cannot decide
    if seeds and _loss_reported_by_its_method(facts, tl, seeds):
        return True
    # The loss's data flow is only needed once a call could carry it to a log; most loops
    # that reach here (DLL100: nothing logs) have none, so it is computed on first use.
    derived: set[str] | None = None
    loss_on_self = False
    stored_on_self: set[str] = set()  # `self.log[...]` a same-class helper put the loss into
    # Calls that are not notable (see _notable_calls) fail every test below.
    candidates = _notable_in_nest(facts, tl) + _notable_after_loop(facts, tl.scope, tl.loop) if _notable_calls(facts, tl.scope) else ()
    for site in candidates:
        possibly_logging = _is_possibly_logging(facts, site)
        target = facts.local_target(site)
        if not possibly_logging and target is None:
            continue  # none of the tests below can hold
        if derived is None:
            derived = _loss_carriers(facts, tl.scope, seeds)
            loss_on_self = any(d.startswith("self.") for d in derived)
        if possibly_logging and _call_refs_loss(site, derived):
            return True
        if target is not None and _call_refs_loss(site, derived):
            if facts.scope_logs(target):
                return True
            if tl.scope.class_name and target.class_name == tl.scope.class_name:
                # `self.log_append("train", n, loss_components)` keeping it in `self.log`,
                # which another method logs (judged with the loss kept on `self` below)
                stored_on_self |= {
                    d for d in loss_derived_names(target, _parameters_receiving(site, target, derived), facts)
                    if d.startswith("self.")
                }
        # A method that reaches a callback or hook can read a loss kept on `self`
        # (minGPT's `self.loss` + `trigger_callbacks`): undecidable, so count it.
        if (
            target is not None
            and loss_on_self
            and isinstance(site.node.func, ast.Attribute)
            and isinstance(site.node.func.value, ast.Name)
            and site.node.func.value.id == "self"
            and _scope_possibly_logs(facts, target)
        ):
            return True
    if seeds and _published_under_its_name(facts, tl, seeds):
        return True
    # `save_checkpoint("model", model, epoch, loss_sum)` of the project's own (imported)
    # helpers, which may print it: this file cannot tell, so it is silent.
    if _handed_to_project_helper(facts, tl, seeds):
        return True
    hooked = _hooked_stores(facts, tl)
    if hooked:
        # (`g_train_loss(g_loss)`, then `bar.postfix["g_loss"] = f"{g_train_loss.result()}"`)
        if derived is None:
            derived = _loss_carriers(facts, tl.scope, seeds)
        if any(_refs_any(_names_in(stmt.value), derived) for stmt in hooked):
            return True
    # Returned to a caller that logs it.
    callers = _callers(facts, tl.scope)  # none at module level
    if callers and tl.scope.class_name:
        # `self.metrics["trainLoss"][epoch] += loss.item()`, logged by another method of the
        # class (`train_loss = self.metrics["trainLoss"][epoch]`, `logger.info(train_loss)`)
        if derived is None:
            derived = _loss_carriers(facts, tl.scope, seeds)
        on_self = {d for d in derived if d.startswith("self.")} | stored_on_self
        if on_self:
            for method in facts.methods_of(tl.scope.class_name):
                if method is tl.scope:
                    continue
                carried = loss_derived_names(method, on_self, facts)
                if any(_is_possibly_logging(facts, c) and _call_refs_loss(c, carried) for c in _notable_calls(facts, method)):
                    return True
            if _kept_on_an_instance_that_is_shown(facts, tl.scope.class_name, on_self):
                return True
    if not callers and not tl.scope.is_module and _returned_values(facts, tl.scope):
        # `return running_loss / len(loader)` from a function nothing in this file calls: a
        # library's train(), its caller elsewhere decides what to log. Cannot tell: silent.
        if derived is None:
            derived = _loss_carriers(facts, tl.scope, seeds)
        return _returns_any(facts, tl.scope, derived)
    if callers and _returned_values(facts, tl.scope):
        if derived is None:
            derived = _loss_carriers(facts, tl.scope, seeds)
        if not _returns_any(facts, tl.scope, derived):
            return False
        for caller in callers:
            stmt = caller.info.stmt
            bound = _bound_by(stmt)
            if not bound:
                if isinstance(stmt, ast.Return) and stmt.value is caller.node and _returns_a_named_loss(facts, tl.scope) and _passes_it_on(facts, caller.scope):
                    return True  # `return self._fit(...)` from a wrapper nobody here calls
                # Used inline: `print(train_epoch(...))` / `log(train(...))`
                for c in _notable_calls(facts, caller.scope):
                    if c is not caller and c.info is caller.info and _is_possibly_logging(facts, c):
                        return True
                continue
            caller_derived = loss_derived_names(caller.scope, bound, facts)
            if (
                len(bound) == 1 and _returns_a_named_loss(facts, tl.scope)
                and _passes_it_on(facts, caller.scope) and _returns_any(facts, caller.scope, caller_derived)
            ):
                # `critic_loss = self._fit(...); return critic_loss` in `update()`, which only
                # callers outside this file run: they decide what to log
                return True
            for c in _caller_neighbourhood(facts, caller):
                if (_is_possibly_logging(facts, c) or (facts.local_target(c) and facts.scope_logs(facts.local_target(c)))) and _call_refs_loss(c, caller_derived):
                    return True
            # `log_file.write(table.get_string())` with the returned loss in the table: a log
            # file (writes are not "notable" calls: most write data, not reports)
            # (in the call's loop, or anywhere after the call: a results file written at the end)
            start = caller.loops[0].lineno if caller.loops else caller.node.lineno
            end = getattr(caller.scope.node, "end_lineno", None) or 10**9
            for c in caller.scope.calls:
                if c.method in ("write", "writelines") and start <= c.node.lineno <= end and _call_refs_loss(c, caller_derived):
                    return True
            # ... and one hop further: `m = self.train_component(...)`; `return [{**m}]` in
            # `train_agent()`, whose caller does `wandb.log({..., **metrics})` with them
            if _returns_any(facts, caller.scope, caller_derived):
                for outer in _callers(facts, caller.scope):
                    outer_bound = _bound_by(outer.info.stmt)
                    if outer.scope is tl.scope or not outer_bound:
                        continue
                    outer_derived = loss_derived_names(outer.scope, outer_bound, facts)
                    if any(_is_possibly_logging(facts, c) and _call_refs_loss(c, outer_derived) for c in _caller_neighbourhood(facts, outer)):
                        return True
    return False


def _bound_by(stmt: ast.stmt) -> set[str]:
    """The names an assignment statement binds (none for any other statement)."""
    bound: set[str] = set()
    if isinstance(stmt, ast.Assign):
        for t in stmt.targets:
            bound |= _target_names(t)
    elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
        bound |= _target_names(stmt.target)
    return bound


def _positional_parameters(call: CallSite, target: Scope) -> list[str] | None:
    """The parameters ``call``'s positional arguments fill in ``target``, in order (without
    ``self``/``cls`` for a method called on an object); None for a class or lambda."""
    fn = target.node
    if not isinstance(fn, FUNC_TYPES):
        return None
    params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
    if params and params[0] in ("self", "cls") and isinstance(call.node.func, ast.Attribute):
        params = params[1:]
    return params


def _parameters_receiving(call: CallSite, target: Scope, names: set[str]) -> set[str]:
    """The parameters of ``target`` that ``call`` fills with an argument mentioning ``names``."""
    params = _positional_parameters(call, target)
    if params is None:
        return set()
    found = {p for p, arg in zip(params, call.node.args) if _refs_any(_names_in(arg), names)}
    found |= {k.arg for k in call.node.keywords if k.arg in params and _refs_any(_names_in(k.value), names)}
    return found


def _loss_arguments(facts: ModuleFacts, call: CallSite, step: Scope) -> set[str]:
    """``optimizer_step(loss / grad_acc, opt)`` calling ``def optimizer_step(_loss, _opt):
    _loss.backward()``: the names of the argument the helper backpropagates."""
    params = _positional_parameters(call, step)
    if params is None:
        return set()
    found: set[str] = set()
    for c in facts.calls_in("training_backward"):
        if c.scope is not step:
            continue
        loss = _loss_of_backward(c)
        if not isinstance(loss, ast.Name):
            continue
        arg = None
        if loss.id in params and params.index(loss.id) < len(call.node.args):
            arg = call.node.args[params.index(loss.id)]
        else:
            arg = next((k.value for k in call.node.keywords if k.arg == loss.id), None)
        if arg is not None and not isinstance(arg, ast.Starred):
            found |= _names_in(arg)
    return found


def _hooked_stores(facts: ModuleFacts, tl: TrainingLoop) -> list[ast.Assign]:
    """Assignments in the loop that hand a value to something that shows or hooks it:
    ``bar.postfix["loss"] = f"{loss:.4f}"`` / ``pbar.desc = ...`` (the progress bar), and
    ``batcher.state.loss = loss`` (another object's state: spodernet's batcher, whose
    subscribed ``LossHook`` prints it; ignite's ``engine.state``; hooks this file cannot see)."""
    found = []
    for info in facts.scope_stmts(tl.scope):
        stmt = info.stmt
        if stmt.__class__ is not ast.Assign or len(stmt.targets) != 1 or tl.loop not in info.loops:
            continue
        target = stmt.targets[0]
        shown_on = target.value if isinstance(target, ast.Subscript) else target
        if isinstance(shown_on, ast.Attribute) and shown_on.attr in ("postfix", "desc", "description", "suffix"):
            found.append(stmt)
            continue
        if not (isinstance(target, ast.Attribute) and "loss" in target.attr.lower() and isinstance(target.value, ast.Attribute)):
            continue
        root = target.value
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name) and root.id not in ("self", "cls"):
            found.append(stmt)
    return found


def _scope_logs_its_loss(facts: ModuleFacts, scope: Scope) -> bool:
    """Does a step function log the loss it backpropagates? Memoised per scope: every loop
    that calls the step function asks (judging the same calls in the same order)."""
    memo = _memos(facts).scope_logs_its_loss
    hit = memo.get(scope)
    if hit is None:
        hit = memo[scope] = _judge_scope_logs_its_loss(facts, scope)
    return hit


def _judge_scope_logs_its_loss(facts: ModuleFacts, scope: Scope) -> bool:
    seeds: set[str] = set()
    for c in facts.calls_in("training_backward"):
        if c.scope is scope:
            loss = _loss_of_backward(c)
            if loss is not None:
                seeds |= _names_in(loss)
    derived = loss_derived_names(scope, seeds, facts)
    if any(_is_possibly_logging(facts, c) and _call_refs_loss(c, derived) for c in _notable_calls(facts, scope)):
        return True
    if scope.class_name and _kept_on_an_instance_that_is_shown(facts, scope.class_name, {d for d in derived if d.startswith("self.")}):
        return True
    return _stored_in_callers_object(facts, scope, derived)


def _kept_on_an_instance_that_is_shown(facts: ModuleFacts, class_name: str, on_self: set[str]) -> bool:
    """``self.loss[ep].append(float(loss))`` in a method, and ``agent = Agent(...)``,
    ``agent.learn()``, ``print("loss per episode", agent.loss)`` outside the class: the loss
    is kept on the instance, and whoever built it shows it."""
    if not on_self:
        return False
    for construction in facts._calls_by_name.get(class_name, ()):
        stmt = construction.info.stmt
        if not (isinstance(stmt, ast.Assign) and stmt.value is construction.node and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
            continue
        instance = stmt.targets[0].id
        read = {instance + d[4:] for d in on_self}
        for c in _notable_calls(facts, construction.scope):
            if c.node.lineno > stmt.lineno and _is_possibly_logging(facts, c) and any(
                n.__class__ is ast.Attribute and dotted_name(n) in read
                for a in list(c.node.args) + [k.value for k in c.node.keywords] for n in walk(a)
            ):
                return True
    return False


def _stored_in_callers_object(facts: ModuleFacts, scope: Scope, derived: set[str]) -> bool:
    """``def train_batch(model, opt, x, log): ... log["loss"] = loss.item()`` (or
    ``log.update({"loss": ...})``, ``history.append(loss.item())``): the loss goes into an
    object the caller handed in, as good as returned; the caller decides what to log."""
    fn = scope.node
    if not isinstance(fn, FUNC_TYPES) or not derived:
        return False
    params = {a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs} - {"self", "cls"}
    if not params:
        return False
    for c in scope.calls:
        receiver = c.receiver
        if (
            c.method in ("update", "append", "extend", "add", "put")
            and isinstance(receiver, ast.Name) and receiver.id in params
            and any(_refs_any(_names_in(a), derived) for a in list(c.node.args) + [k.value for k in c.node.keywords])
        ):
            return True
    for info in facts.scope_stmts(scope):
        stmt = info.stmt
        if isinstance(stmt, ast.Assign) and _refs_any(_names_in(stmt.value), derived) and any(
            isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id in params for t in stmt.targets
        ):
            return True
    return False


def _returns_a_named_loss(facts: ModuleFacts, scope: Scope) -> bool:
    """``return train_loss`` / ``return loss.item()`` / ``return loss, acc``: the loss itself,
    not an object built from the state it came with."""
    for value in _returned_values(facts, scope):
        parts = value.elts if isinstance(value, ast.Tuple) else [value]
        for part in parts:
            if isinstance(part, ast.Call) and isinstance(part.func, ast.Attribute) and part.func.attr == "item":
                part = part.func.value
            if isinstance(part, ast.Name) and "loss" in part.id.lower():
                return True
    return False


def _passes_it_on(facts: ModuleFacts, scope: Scope) -> bool:
    """A function (not module code) that nothing in this file calls: what it returns goes to
    callers elsewhere."""
    return not scope.is_module and not _callers(facts, scope)


def _returns_any(facts: ModuleFacts, scope: Scope, derived: set[str]) -> bool:
    """Does the function return a loss-derived value (or a dict/tuple naming a loss)?"""
    for value in _returned_values(facts, scope):
        names = _names_in(value)
        if _refs_any(names, derived) or isinstance(value, (ast.Dict, ast.Tuple)) and any(
            LOSS_WORD.search(r) for r in names
        ):
            return True
    return False


def _returned_values(facts: ModuleFacts, scope: Scope) -> list[ast.expr]:
    """Values of the function's own ``return`` statements (not those of nested functions
    or of class bodies inside it), read off its statements instead of walking every node."""
    memo = _memos(facts).returned_values
    values = memo.get(scope)
    if values is not None:
        return values
    values = []
    for info in facts.scope_stmts(scope):
        stmt = info.stmt
        if stmt.__class__ is not ast.Return or stmt.value is None:
            continue
        # scope_stmts() also lists the statements of a class body nested in the function;
        # a `return` there (legal to ast.parse) is not the function's.
        parent = info.parent
        while parent is not None and parent.scope is scope and not isinstance(parent.stmt, ast.ClassDef):
            parent = parent.parent
        if parent is not None and parent.scope is scope:
            continue
        values.append(stmt.value)
    memo[scope] = values
    return values


# -- Lightning --------------------------------------------------------------------------


def _lightning_steps(facts: ModuleFacts) -> list[Scope]:
    out = []
    for scope in facts.scopes:
        if scope.name == "training_step" and scope.class_name and any(LIGHTNING_BASES.search(b) for b in scope.class_bases):
            if not _stub(scope.node):
                out.append(scope)  # (`def training_step(...): pass` in a predict-only module trains nothing)
    return out


def _stub(fn: ast.AST) -> bool:
    """A function whose body is only a docstring, ``pass`` or ``...``."""
    return all(
        isinstance(stmt, ast.Pass) or (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant))
        for stmt in fn.body
    )


# What only Lightning before 1.0 has: its `pytorch_lightning.logging` module, and Trainer
# options renamed or removed since.
LIGHTNING_BEFORE_1_0_MODULE = re.compile(r"^pytorch_lightning\.(logging|root_module)\b")
LIGHTNING_BEFORE_1_0_OPTION = frozenset({
    "early_stop_callback", "distributed_backend", "row_log_interval", "nb_gpu_nodes", "show_progress_bar",
    "train_percent_check", "val_percent_check", "add_row_log_interval", "nb_sanity_val_steps",
})


def _written_for_lightning_before_1_0(facts: ModuleFacts) -> bool:
    """``from pytorch_lightning.logging import TestTubeLogger``, ``Trainer(early_stop_callback=...,
    distributed_backend=...)``: code for a Lightning that still logged a returned ``{"log": ...}``."""
    if any(LIGHTNING_BEFORE_1_0_MODULE.match(target) for target in facts.aliases.values()):
        return True
    return any(
        kw.arg in LIGHTNING_BEFORE_1_0_OPTION for site in calls_named_ending(facts, "Trainer", in_order=False) for kw in site.node.keywords
    )


def _returns_log_dict(scope: Scope) -> ast.AST | None:
    """Lightning 1.x `return {"loss": loss, "log": {...}}`: ignored by Lightning 2.x."""
    for n in walk(scope.node):
        if isinstance(n, ast.Return) and isinstance(n.value, ast.Dict):
            for key in n.value.keys:
                if isinstance(key, ast.Constant) and key.value == "log":
                    return n
    return None


# -- context for fixes ------------------------------------------------------------------


def _loop_vars(loop: ast.AST) -> tuple[str | None, str | None]:
    """(index-like variable, whole target) of a `for` loop: `for i, batch in enumerate(x)`
    → ("i", ...); `for epoch in range(n)` → ("epoch", ...)."""
    if not isinstance(loop, (ast.For, ast.AsyncFor)):
        return None, None
    target = loop.target
    it = loop.iter
    if not isinstance(it, ast.Call):
        return None, None
    func = it.func.id if it.func.__class__ is ast.Name else dotted_name(it.func)
    if func == "enumerate" and isinstance(target, ast.Tuple) and target.elts:
        first = target.elts[0]
        return (first.id if isinstance(first, ast.Name) else None), None
    if func in ("range", "trange", "tqdm.trange") and isinstance(target, ast.Name):
        return target.id, None
    return None, None


def _loop_context(facts: ModuleFacts, tl: TrainingLoop) -> dict:
    step, _ = _loop_vars(tl.inner)
    epoch = None
    if tl.loop is not tl.inner:
        epoch, _ = _loop_vars(tl.loop)
    elif not tl.scope.is_module:
        # The epoch loop may be in the caller; a parameter named epoch is in scope.
        args = tl.scope.node.args  # type: ignore[attr-defined]
        names = [a.arg for a in args.args + args.kwonlyargs]
        epoch = next((n for n in names if n in ("epoch", "ep", "epoch_idx", "cur_epoch", "current_epoch")), None)
    loss_text = None
    loss_is_tensor = True
    if tl.loss_exprs:
        expr = tl.loss_exprs[0]
        loss_text = facts.segment(expr)
    else:
        for sc in tl.step_calls:
            stmt = sc.info.stmt
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                loss_text = stmt.targets[0].id
                loss_is_tensor = False
                break
    bases = list(tl.scope.class_bases)
    return {
        "loss": loss_text,
        "loss_is_tensor": loss_is_tensor,
        "step": step,
        "epoch": epoch,
        "loop_line": tl.loop.lineno,
        "anchor_line": tl.inner.lineno,
        "anchor": "loop_end",
        "scope": tl.scope.qualname,
        "class_bases": bases,
    }


# -- the rules --------------------------------------------------------------------------


def _disabled_logging(site: CallSite) -> str | None:
    for kw in site.node.keywords:
        if kw.arg in DISABLED_LOGGING_KWARGS and isinstance(kw.value, (ast.Constant, ast.Tuple, ast.List)):
            value = kw.value.value if isinstance(kw.value, ast.Constant) else tuple(kw.value.elts)
            if value in DISABLED_LOGGING_KWARGS[kw.arg] or (isinstance(value, tuple) and not value and kw.arg == "report_to"):
                return f"{kw.arg}={'[]' if isinstance(value, tuple) else repr(value)}"
    return None


def _text_lacks(facts: ModuleFacts, words: Iterable[str]) -> bool:
    """Does the source certainly not contain any of these identifiers? Only said of ASCII
    sources: elsewhere an identifier may be spelt differently (NFKC) from the name the
    tree holds. Nor of a module given without its lines."""
    if not facts.lines:
        return False
    text = facts.text
    ascii_text = facts.__dict__.get("_dllog_text_is_ascii")
    if ascii_text is None:
        ascii_text = facts._dllog_text_is_ascii = text.isascii()  # type: ignore[attr-defined]
    return ascii_text and not any(w in text for w in words)


def calls_named_ending(facts: ModuleFacts, endings: str | tuple[str, ...], *, in_order: bool = True) -> list[CallSite]:
    """Calls whose name ends with ``endings`` (one, or any of a tuple), in the facts' order
    (with ``in_order`` False: grouped by name). The distinct names are tested, not every
    call: a file has a few hundred names but thousands of calls."""
    by_name = facts._calls_by_name
    found = [site for name in by_name if name.endswith(endings) for site in by_name[name]]
    if in_order and len(found) > 1:
        # Back into the facts' order: of two reports at one position the first one wins.
        wanted = {id(site) for site in found}
        found = [site for site in facts.calls if id(site) in wanted]
    return found


def _framework_logging_disabled(facts: ModuleFacts) -> Iterator[tuple[CallSite, str]]:
    """`Trainer(logger=False)`, `model.fit(..., verbose=0)`, `TrainingArguments(report_to="none")`
    where nothing else in the file logs training."""
    # (the names' endings first: the last segments tested below all end so)
    candidates = calls_named_ending(facts, _FRAMEWORK_CALL_ENDINGS)
    # (the text only when there are candidates: reading it all costs more than the names)
    if not candidates or _text_lacks(facts, DISABLED_LOGGING_KWARGS):
        return  # no call can pass one of the keywords
    for site in candidates:
        if not site.node.keywords:
            continue  # _disabled_logging() needs a keyword too
        name = site.name
        last = name.rsplit(".", 1)[-1]
        if last in ("Trainer", "TrainingArguments", "Seq2SeqTrainingArguments", "fit", "fit_generator", "SFTConfig") or name.endswith(".pl.Trainer"):
            what = _disabled_logging(site)
            if what is None:
                continue
            if last in ("fit", "fit_generator") and not framework_training_calls(facts):
                continue
            if last == "Trainer" and what.startswith("report_to"):
                continue
            if last != "Trainer" and what.startswith("report_to") and not calls_named_ending(facts, "Trainer", in_order=False):
                continue  # a module of configs (`def get_sft_config(): return SFTConfig(...)`): trained elsewhere
            if _other_logging_kept(facts, site):
                continue
            yield site, what


# Callbacks that record the metrics of every epoch by themselves (Keras `TensorBoard`,
# `CSVLogger`, W&B's `WandbMetricsLogger`, `MLflowCallback`, a progress-bar callback...).
LOGGING_CALLBACK = re.compile(r"TensorBoard|Logger|Logging|Wandb|WandB|MLflow|Mlflow|Neptune|Comet|Progress|Tqdm|TQDM", re.I)


def _other_logging_kept(facts: ModuleFacts, site: CallSite) -> bool:
    """``fit(..., verbose=0, callbacks=[TensorBoard(...), CSVLogger(...)])`` or an
    ``mlflow.autolog()`` in the module: the console is quiet, the run is still recorded.
    Callbacks the engine cannot see (a list built elsewhere) get the benefit of the doubt."""
    if calls_named_ending(facts, "autolog", in_order=False):
        return True
    # `pl.Trainer(logger=TensorBoardLogger("runs"), enable_progress_bar=False)`: only the bar
    # is off; the logger records what the module logs
    logger = site.kwarg("logger")
    if logger is not None and not (isinstance(logger, ast.Constant) and logger.value in (False, None)):
        if _disabled_logging(site) == "enable_progress_bar=False":
            return True
    elements: list[ast.expr] = []
    givers = [site]
    if site.name.rsplit(".", 1)[-1] in ("TrainingArguments", "Seq2SeqTrainingArguments", "SFTConfig"):
        # The HF arguments' callbacks are the Trainer's: `Trainer(..., callbacks=[...])`
        # or `trainer.add_callback(CsvLogger(...))`.
        givers += [c for c in calls_named_ending(facts, "Trainer", in_order=False) if c is not site]
        elements += [a for c in calls_named_ending(facts, ".add_callback", in_order=False) for a in c.node.args[:1]]
    for giver in givers:
        callbacks = giver.kwarg("callbacks")
        if callbacks is None:
            continue
        if isinstance(callbacks, ast.Name):
            callbacks = _last_bound_before(facts, giver, callbacks.id)
        if not isinstance(callbacks, (ast.List, ast.Tuple)):
            return True  # built elsewhere: cannot tell what it holds
        elements += callbacks.elts
    for element in elements:
        if not isinstance(element, ast.Call):
            return True  # a callback object made elsewhere
        name = dotted_name(element.func, facts.aliases) or ""
        last = name.rsplit(".", 1)[-1]
        if LOGGING_CALLBACK.search(last):
            return True
        # A callback class of this module whose methods log (`on_epoch_end: print(logs)`),
        # or that takes the Trainer's log records (`on_log(self, args, state, control, logs)`).
        if any(facts.scope_logs(scope) or scope.name == "on_log" for scope in facts.methods_of(last)):
            return True
    return False


def _last_bound_before(facts: ModuleFacts, site: CallSite, name: str) -> ast.expr | None:
    bound = None
    for info in facts.scope_stmts(site.scope):
        stmt = info.stmt
        if stmt.lineno >= site.node.lineno:
            break
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets):
            bound = stmt.value
    return bound


# Endings of every call name _framework_logging_disabled() looks at (a cheap pre-test).
_FRAMEWORK_CALL_ENDINGS = ("Trainer", "TrainingArguments", "fit", "fit_generator", "SFTConfig")


@rule("DLL100")
def unlogged_training_loop(facts: ModuleFacts, config: Config) -> Iterator[Report]:
    """A training loop with no logging anywhere in it (or in what it calls / right after)."""
    may_be_an_excerpt = "..." in facts.text  # (once per file: the text is long)
    for tl in training_loops(facts):
        if logs_anything(facts, tl) or logs_loss(facts, tl) or timing_benchmark(facts, tl):
            continue
        if may_be_an_excerpt and has_elision(tl.loop):
            continue  # an excerpt (`...` where the rest of the body was): its logging was cut too
        yield Report(tl.loop, context=_loop_context(facts, tl), span=header_span(tl.loop))
    for site, what in _framework_logging_disabled(facts):
        if any(facts.is_logging(c) for c in facts.logging_calls if not c.scope.is_module or c.scope is site.scope):
            continue
        yield Report(
            site.node,
            context={"anchor_line": site.node.lineno, "anchor": "after", "scope": site.scope.qualname, "disabled": what},
            message=f"training loop logs nothing (no loss, no progress): the framework's logging is switched off ({what})",
            fixable=False,
        )
    for scope in _lightning_steps(facts):
        log_dict = _returns_log_dict(scope)
        if log_dict is not None and _written_for_lightning_before_1_0(facts):
            continue  # the Lightning it runs on logs the returned {"log": ...} dict
        if log_dict is not None and not facts.scope_logs(scope):
            yield Report(
                scope.node,
                span=header_span(scope.node),
                context={"anchor_line": log_dict.lineno, "anchor": "before", "scope": scope.qualname, "class_bases": list(scope.class_bases), "lightning": True},
                message="training loop logs nothing (no loss, no progress): Lightning 2.x ignores the returned {'log': ...} dict",
            )
        elif (
            not facts.scope_logs(scope) and not _scope_has_possibly_logging(facts, scope) and not _step_hook_logs(facts, scope)
            and not _collected_for_the_epoch_end(scope)
        ):
            loss = _returned_name(scope)
            yield Report(
                scope.node,
                span=header_span(scope.node),
                context={
                    "anchor_line": _last_return_line(scope) or scope.node.lineno,
                    "anchor": "before",
                    "scope": scope.qualname,
                    "class_bases": list(scope.class_bases),
                    "lightning": True,
                    "loss": loss,
                    "loss_is_tensor": True,
                },
            )


# Lightning hooks that receive what training_step returns, or run after each batch/epoch.
STEP_HOOKS = ("training_step_end", "on_train_batch_end", "training_epoch_end", "on_train_epoch_end")


def _step_hook_logs(facts: ModuleFacts, scope: Scope) -> bool:
    """``training_step`` returns the outputs and the class's ``training_step_end`` (or a
    batch/epoch-end hook) computes and ``self.log``s the loss: logged in the same module."""
    for hook in STEP_HOOKS:
        fn = facts.functions.get(f"{scope.class_name}.{hook}")
        if fn is not None and facts.scope_logs(fn):
            return True
    return False


def _collected_for_the_epoch_end(scope: Scope) -> bool:
    """``self.training_step_outputs.append(loss)``: Lightning 2.x's way of handing step
    results to an epoch-end hook or a callback (possibly in another file) that logs them."""
    for site in scope.calls:
        func = site.node.func
        if (
            site.method == "append" and isinstance(func, ast.Attribute) and isinstance(func.value, ast.Attribute)
            and isinstance(func.value.value, ast.Name) and func.value.value.id == "self"
            and re.search(r"output|loss", func.value.attr, re.I)
        ):
            return True
    return False


def _scope_has_possibly_logging(facts: ModuleFacts, scope: Scope) -> bool:
    """Memoised per scope: every training loop of a function asks (the same calls in the
    same order, so the same answer)."""
    memo = _memos(facts).scope_has_possibly_logging
    hit = memo.get(scope)
    if hit is None:
        notable = _notable_calls(facts, scope)
        hit = memo[scope] = bool(notable) and _any_possibly_logging(facts, notable)
    return hit


def _returned_name(scope: Scope) -> str | None:
    for n in walk(scope.node):
        if isinstance(n, ast.Return) and isinstance(n.value, ast.Name):
            return n.value.id
    return None


def _last_return_line(scope: Scope) -> int | None:
    last = None
    for stmt in scope.body:
        if isinstance(stmt, ast.Return):
            last = stmt.lineno
    return last


@rule("DLL101")
def loss_not_logged(facts: ModuleFacts, config: Config) -> Iterator[Report]:
    """A training loop that logs, but never the loss it backpropagates."""
    may_be_an_excerpt = "..." in facts.text
    for tl in training_loops(facts):
        if not logs_anything(facts, tl) or logs_loss(facts, tl) or (may_be_an_excerpt and has_elision(tl.loop)) or timing_benchmark(facts, tl):
            continue
        ctx = _loop_context(facts, tl)
        fixable = True
        if ctx["loss"] is None:
            # The loss lives and dies inside a step helper (`self._run_batch(x, y)`):
            # point at its backward call; logging every step there is the author's call,
            # so no automatic fix.
            inner = _step_helper_loss(facts, tl)
            if inner is None:
                continue
            ctx.update(inner)
            fixable = False
        log_site = next(
            (c for c in _notable_in_nest(facts, tl) if facts.is_logging(c)),
            None,
        )
        ctx["log_line"] = log_site.node.lineno if log_site else None
        yield Report(tl.loop, context=ctx, span=header_span(tl.loop), fixable=fixable)


def _step_helper_loss(facts: ModuleFacts, tl: TrainingLoop) -> dict | None:
    for sc in tl.step_calls:
        target = facts.local_target(sc)
        if target is None:
            continue
        for c in facts.calls_in("training_backward"):
            if c.scope is target:
                loss = _loss_of_backward(c)
                if loss is not None:
                    return {"loss": facts.segment(loss), "anchor_line": c.node.lineno, "anchor": "after", "scope": target.qualname}
    return None


@rule("DLL102")
def gpu_memory_not_logged(facts: ModuleFacts, config: Config) -> Iterator[Report]:
    """A GPU training loop that never logs memory or utilisation."""
    loops = training_loops(facts)
    if not loops or facts.calls_in("gpu_memory"):
        return
    if _text_lacks(facts, ("cuda",)):
        return  # `.cuda()`, `torch.cuda.*` (however imported) and the lines below all spell "cuda"
    uses_cuda = any(
        (c.method == "cuda") or (c.name or "").startswith("torch.cuda.") for c in facts.calls
    ) or any("cuda" in line for line in facts.lines if "cuda" in line and ".to(" in line or "device(" in line and "cuda" in line)
    if not uses_cuda:
        return
    for tl in loops:
        # A project's own logger wrapping the loop (`metric_logger.log_every(...)`) or
        # updated in it may well report memory (torchvision's prints "max mem").
        in_loop = _notable_in_nest(facts, tl)
        if any(_is_opaque_reporter(c) and not facts.is_logging(c) for c in in_loop) or _opaque_wrapper(tl.loop, facts):
            continue
        step, _ = _loop_vars(tl.inner)
        yield Report(
            tl.loop,
            span=header_span(tl.loop),
            context={"anchor_line": tl.inner.lineno, "anchor": "loop_end", "loop_line": tl.loop.lineno, "step": step, "scope": tl.scope.qualname},
        )
