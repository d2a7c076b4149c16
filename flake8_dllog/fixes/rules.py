"""One fix builder per rule: finding + file → the statements to insert (or the expression to
rewrite), for one backend.

A builder reads the finding's ``context`` (docs/ARCHITECTURE.md) and derives what is missing
from the source itself, so that it only ever writes names that are bound at the insertion
point. When it cannot do that it offers no fix rather than a wrong one.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Any, Callable

import libcst as cst

from ..findings import Finding
from . import emit
from .analysis import FUNC_TYPES, LOOP_TYPES, FileInfo, StmtRef, dotted
from .templates import MESSAGE_BACKENDS, MissingValue, render, rule_data, setting, template
from .text import TextEdit, byte_to_char

TRACKER_METRIC_RULES = ("DLL100", "DLL300")


@dataclass
class Target:
    """How a fix writes: a message backend (always) and, optionally, a tracker."""

    backend: str  # the backend asked for (may be a tracker)
    message: str  # logging | loguru | print
    logger: str | None  # receiver for logging/loguru
    needs_header: bool = False  # stdlib logger must be added to the module
    needs_loguru_import: bool = False


@dataclass
class Plan:
    title: str
    backend: str
    edits: list[TextEdit] = field(default_factory=list)
    header: list[TextEdit] = field(default_factory=list)


class NoFix(Exception):
    """The builder cannot write a correct fix for this finding with this backend."""


Builder = Callable[[FileInfo, Finding, dict, Target, Any], Plan]
BUILDERS: dict[str, Builder] = {}


def builder(*codes: str):
    def register(fn):
        for code in codes:
            BUILDERS[code] = fn
        return fn

    return register


# -- shared helpers ----------------------------------------------------------------------

def source_of(info: FileInfo, node: ast.AST) -> str:
    """Source text of an expression; multi-line expressions are re-rendered on one line."""
    seg = info.segment(node)
    if seg is None or "\n" in seg or "\r" in seg:
        return ast.unparse(node)
    return seg


def site_call(info: FileInfo, finding: Finding, ref: StmtRef | None = None) -> ast.Call | None:
    """The call a finding points at (by line and column), else the first call on its line."""
    ref = ref or info.enclosing_stmt(finding.line)
    if ref is None:
        return None
    best = None
    for node in ast.walk(ref.stmt):
        if isinstance(node, ast.Call) and node.lineno == finding.line:
            col = byte_to_char(info.line(node.lineno), node.col_offset)
            if col == finding.column:
                return node
            if best is None:
                best = node
    return best


def anchor_ref(info: FileInfo, finding: Finding, ctx: dict) -> StmtRef | None:
    line = ctx.get("anchor_line") or finding.line
    ref = info.stmt_at(line)
    if ref is None:
        ref = info.enclosing_stmt(line)
    return ref


def _loop_ref(info: FileInfo, line: int | None) -> StmtRef | None:
    if not line:
        return None
    return info.innermost_at(line, LOOP_TYPES)


PURE_CALLS = re.compile(r"^(?:os\.path\.\w+|str|Path|pathlib\.Path|os\.fspath|format|f|len|int|float|repr|next|iter|torch\.device)$")
PURE_METHODS = (
    ".format", ".join", ".joinpath", ".parameters", ".current_device", ".is_available", ".get_device_name",
    ".as_posix", ".resolve", ".latest_checkpoint",
)


def is_pure(node: ast.AST) -> bool:
    """An expression that can be evaluated again for the log without side effects."""
    for n in ast.walk(node):
        if isinstance(n, ast.Call):
            name = dotted(n.func) or ""
            if PURE_CALLS.match(name) or name.endswith(PURE_METHODS):
                continue
            return False
        if isinstance(n, (ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await, ast.Lambda)):
            return False
    return True


def values_base(info: FileInfo, target: Target, func) -> dict[str, Any]:
    values: dict[str, Any] = {"logger": target.logger, "every": setting("every", 100)}
    for placeholder, module in (
        ("torch", "torch"), ("numpy", "numpy"), ("random", "random"), ("tensorflow", "tensorflow"),
        ("wandb", "wandb"), ("mlflow", "mlflow"), ("platform", "platform"), ("subprocess", "subprocess"),
    ):
        alias = info.module_alias(module)
        if alias is None and module not in info.bound_in(func) and _conventional(info, module):
            alias = {"numpy": "np", "tensorflow": "tf"}.get(module, module)
        values[placeholder] = alias
    values["keras"] = info.module_alias("tensorflow.keras") or info.module_alias("keras")
    values["lightning"] = next(
        (a for a in (info.module_alias(m) for m in ("pytorch_lightning", "lightning.pytorch", "lightning")) if a), None
    )
    return values


_CONVENTIONAL_USE = {
    "torch": re.compile(r"\btorch\."), "numpy": re.compile(r"\bnp\."), "random": re.compile(r"\brandom\.\w"),
    "tensorflow": re.compile(r"\btf\."), "wandb": re.compile(r"\bwandb\."), "mlflow": re.compile(r"\bmlflow\."),
}


def _conventional(info: FileInfo, module: str) -> bool:
    # Snippets without imports (a notebook cell, a pasted function): conventional names are
    # taken at face value when used, and torch is assumed for training code that names no
    # library at all. A file with imports only gets the names it really imports.
    if info.imports:
        return False
    rx = _CONVENTIONAL_USE.get(module)
    if rx and rx.search(info.text):
        return True
    return module == "torch" and not any(r.search(info.text) for r in _CONVENTIONAL_USE.values())


def render_message(code: str, target: Target, shape: str, values: dict) -> str:
    text = template(code, target.message, shape)
    if text is None:
        raise NoFix(f"no {target.message} template for {code}/{shape}")
    try:
        return render(text, values)
    except MissingValue as exc:
        raise NoFix(f"missing {exc}") from None


def render_tracker(code: str, target: Target, shape: str, values: dict) -> str | None:
    if target.backend in MESSAGE_BACKENDS:
        return None
    text = template(code, target.backend, shape)
    if text is None:
        return None
    try:
        return render(text, values)
    except MissingValue:
        return None


def tracker_values(info: FileInfo, target: Target, point: emit.Point, values: dict, *, needs_run: bool = False) -> bool:
    """Fill the tracker's receiver (`writer`, `accelerator`...) if one is usable at ``point``."""
    b = target.backend
    line = point.line + 1
    if b == "tensorboard":
        values["writer"] = info.writer_for(point.func, point.cls, line)
        return values["writer"] is not None
    if b == "accelerate":
        values["accelerator"] = info.accelerator_for(point.func, point.cls, line)
        return values["accelerator"] is not None
    if b in ("wandb", "mlflow"):
        if values.get(b) is None:
            return False
        return info.run_active(point.func, line) if needs_run else True
    if b == "lightning":
        return point.cls is not None and point.cls.name in info.lightning_classes and point.func is not None
    return False


def plan(code: str, target: Target, title: str, edits: list[TextEdit], used: str | None = None) -> Plan:
    """``used``: the backend the inserted code writes to (a tracker, or the message backend)."""
    return Plan(title=title, backend=used or target.message, edits=edits)


def _label(target: Target, tracker_used: bool) -> str:
    return target.backend if tracker_used else target.message


# -- DLL100 / DLL101 / DLL102: training loops --------------------------------------------

def _loss_values(info: FileInfo, ctx: dict) -> tuple[str, str]:
    loss = ctx.get("loss")
    if not loss:
        raise NoFix("no loss name")
    try:
        node = ast.parse(loss, mode="eval").body
    except SyntaxError:
        raise NoFix("loss is not an expression") from None
    # Only a name (or attribute/subscript of one) can be read again without recomputing.
    n = node
    while isinstance(n, (ast.Attribute, ast.Subscript)):
        n = n.value
    if not isinstance(n, ast.Name):
        raise NoFix("the loss is not bound to a name")
    is_tensor = ctx.get("loss_is_tensor", True)
    if not is_tensor:
        return loss, loss
    # `.item()` is torch's; a TensorFlow/JAX scalar converts with float().
    return loss, f"float({loss})" if _not_torch(info) else f"{loss}.item()"


def _not_torch(info: FileInfo) -> bool:
    other = any(info.imports_module(m) for m in ("tensorflow", "keras", "jax", "flax")) or (
        not info.imports and re.search(r"\btf\.|\bjax\.", info.text) is not None
    )
    return other and not info.imports_module("torch")


def _clean_var(name: Any) -> str | None:
    return name if isinstance(name, str) and name and name != "_" else None


def _global_step(info: FileInfo, loop: ast.AST, step: str, epoch: str | None) -> str:
    it = getattr(loop, "iter", None)
    if epoch and isinstance(it, ast.Call) and dotted(it.func) == "enumerate" and it.args:
        src = it.args[0]
        if isinstance(src, (ast.Name, ast.Attribute)):
            return f"{epoch} * len({source_of(info, src)}) + {step}"
    return step


def _loop_point(info: FileInfo, ctx: dict, finding: Finding, step: str | None) -> tuple[emit.Point | None, StmtRef | None]:
    inner = _loop_ref(info, ctx.get("anchor_line")) or _loop_ref(info, finding.line)
    if inner is None:
        return None, None
    if step:
        return emit.loop_end(info, inner), inner
    # Without a step counter, a per-batch log would flood: log once after the innermost loop
    # (an epoch summary when an epoch loop surrounds it).
    return emit.after(info, inner), inner


def _training_values(info: FileInfo, finding: Finding, ctx: dict, target: Target, for_gpu: bool = False):
    step = _clean_var(ctx.get("step"))
    epoch = _clean_var(ctx.get("epoch"))
    if step and not epoch and "epoch" in step.lower():
        # `for epoch in range(n)` holding the update (full-batch training): log every epoch.
        inner = _loop_ref(info, ctx.get("anchor_line")) or _loop_ref(info, finding.line)
        point = emit.loop_end(info, inner) if inner is not None else None
        if point is None:
            raise NoFix("no loop to log in")
        values = values_base(info, target, point.func)
        values["loss"], values["loss_value"] = _loss_values(info, ctx)
        values.update(step=None, epoch=step, _extra=[])
        return point, values, "epoch"
    point, inner = _loop_point(info, ctx, finding, step)
    if point is None:
        raise NoFix("no loop to log in")
    values = values_base(info, target, point.func)
    extra: list[TextEdit] = []
    if not for_gpu:
        if not ctx.get("loss"):
            ctx = dict(ctx)
            ctx["loss"], ctx["loss_is_tensor"], extra = _bind_returned_loss(info, inner, point.func)
        values["loss"], values["loss_value"] = _loss_values(info, ctx)
    values["_extra"] = extra
    if epoch and not info.bound_before(epoch, point.func, point.line + 1) and not _is_loop_var(inner, epoch, info):
        epoch = None
    values["step"], values["epoch"] = step, epoch
    if step:
        values["global_step"] = _global_step(info, inner.stmt, step, epoch)
    shape = "step_epoch" if step and epoch else "step" if step else "epoch" if epoch else "plain"
    return point, values, shape


def _bind_returned_loss(info: FileInfo, loop: StmtRef, func) -> tuple[str, bool, list[TextEdit]]:
    """`train_step(...)` in the loop returns the loss and drops it: bind it so it can be logged."""
    for stmt in ast.walk(loop.stmt):
        if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Name)):
            continue
        callee = next(
            (s for s in info.tree.body if isinstance(s, FUNC_TYPES) and s.name == stmt.value.func.id), None
        )
        returned = [n for n in (callee and [r for r in ast.walk(callee) if isinstance(r, ast.Return)] or [])]
        if not returned or not all(isinstance(r.value, ast.Name) and "loss" in r.value.id.lower() for r in returned):
            continue
        name = "loss" if "loss" not in info.bound_in(func) else "step_loss"
        if name in info.bound_in(func):
            continue
        col = byte_to_char(info.line(stmt.lineno), stmt.col_offset)
        if col != len(emit.indentation(info.line(stmt.lineno))):
            continue
        return name, True, [TextEdit(stmt.lineno - 1, col, stmt.lineno - 1, col, f"{name} = ")]
    raise NoFix("no loss name")


def _is_loop_var(ref: StmtRef | None, name: str, info: FileInfo) -> bool:
    while ref is not None:
        target = getattr(ref.stmt, "target", None)
        if target is not None and any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(target)):
            return True
        ref = info.by_id.get(id(ref.parent)) if ref.parent is not None else None
    return False


@builder("DLL100")
def fix_training_loop(info: FileInfo, finding: Finding, ctx: dict, target: Target, config) -> Plan:
    if ctx.get("lightning"):
        return _fix_lightning_step(info, finding, ctx, target)
    point, values, shape = _training_values(info, finding, ctx, target)
    extra = values.pop("_extra")
    code = None
    if tracker_values(info, target, point, values):
        code = render_tracker("DLL100", target, shape, values)
    used_tracker = code is not None
    if code is None:
        code = render_message("DLL100", target, shape, values)
    where = f"every {values['every']} steps" if values["step"] else "after the loop"
    label = _label(target, used_tracker)
    return plan("DLL100", target, f"Log the training loss {where} ({label})", [*extra, emit.code_edit(info, point, code)], label)


def _fix_lightning_step(info: FileInfo, finding: Finding, ctx: dict, target: Target) -> Plan:
    ref = anchor_ref(info, finding, ctx)
    if ref is None:
        raise NoFix("no anchor")
    point = emit.before(info, ref) if ctx.get("anchor", "before") == "before" else emit.after(info, ref)
    if point is None:
        raise NoFix("anchor in a one-line suite")
    values = values_base(info, target, point.func)
    values["loss"] = ctx.get("loss")
    if not values["loss"] and isinstance(ref.stmt, ast.Return) and isinstance(ref.stmt.value, ast.Dict):
        # `return {"loss": loss, "log": ...}`: the loss is the dict's "loss" entry.
        for key, value in zip(ref.stmt.value.keys, ref.stmt.value.values):
            if isinstance(key, ast.Constant) and key.value == "loss" and isinstance(value, ast.Name):
                values["loss"] = value.id
    if not values["loss"]:
        raise NoFix("no loss")
    code = render(template("DLL100", "lightning", "lightning") or "", values)
    if not code:
        raise NoFix("no lightning template")
    edits = [emit.code_edit(info, point, code)]
    # Lightning 2.x ignores the `{"log": ...}` part of a returned dict: return the loss itself.
    if isinstance(ref.stmt, ast.Return) and isinstance(ref.stmt.value, ast.Dict):
        pass
    return Plan(title="Log the training loss with self.log (lightning)", backend="lightning", edits=edits)


LOG_CALL_METHODS = ("debug", "info", "warning", "warn", "error", "critical", "log", "success", "trace")


@builder("DLL101")
def fix_loss_not_logged(info: FileInfo, finding: Finding, ctx: dict, target: Target, config) -> Plan:
    log_line = ctx.get("log_line")
    if log_line:
        try:
            return _extend_log_call(info, finding, ctx, target, log_line)
        except NoFix:
            pass
    result = fix_training_loop(info, finding, ctx, target, config)
    result.title = result.title.replace("Log the training loss", "Also log the training loss")
    return result


def _extend_log_call(info: FileInfo, finding: Finding, ctx: dict, target: Target, log_line: int) -> Plan:
    ref = info.enclosing_stmt(log_line)
    if ref is None:
        raise NoFix("log call not found")
    call = None
    for node in ast.walk(ref.stmt):
        if isinstance(node, ast.Call) and node.lineno == log_line:
            call = node
            break
    if call is None:
        raise NoFix("log call not found")
    loss, loss_value = _loss_values(info, ctx)
    data = rule_data("DLL101")
    name = info.resolve(dotted(call.func)) or ""
    method = name.rsplit(".", 1)[-1]
    receiver = name.rsplit(".", 1)[0] if "." in name else ""
    seg = info.segment(call)
    if seg is None:
        raise NoFix("no source")
    try:
        node = cst.parse_expression(seg)
    except cst.ParserSyntaxError:
        raise NoFix("call does not parse alone") from None
    if not isinstance(node, cst.Call):
        raise NoFix("not a call")
    values = {"loss_value": loss_value}
    new = None
    positional = [a for a in node.args if a.keyword is None and not a.star]
    first = positional[0].value if positional else None
    if name == "print":
        if len(positional) == 1 and isinstance(first, cst.FormattedString):
            new = _extend_fstring(node, first, render(data["fstring"]["append_format"], values))
        else:
            extra = cst.parse_expression(f"print({render(data['print']['append_args'], values)})").args
            new = _add_args(node, list(extra))
    elif method in LOG_CALL_METHODS and receiver and isinstance(first, (cst.SimpleString, cst.FormattedString)):
        is_loguru = info.resolve(receiver) == "loguru.logger" or any(
            b.name == receiver and kind == "loguru" for b, kind in info.loggers
        )
        if isinstance(first, cst.FormattedString):
            new = _extend_fstring(node, first, render(data["fstring"]["append_format"], values))
        else:
            fmt = data["loguru" if is_loguru else "logging"]["append_format"]
            message = first.evaluated_value if isinstance(first.evaluated_value, str) else ""
            if not is_loguru and ("%(" in message or ("%" not in message and len(positional) > 1)):
                raise NoFix("message is not positionally %-formatted")
            new_string = _append_to_string(first, fmt)
            new = node.with_changes(args=[a.with_changes(value=new_string) if a.value is first else a for a in node.args])
            new = _add_args(new, [cst.Arg(cst.parse_expression(loss_value))])
    elif positional and isinstance(first, cst.Dict):
        item = cst.parse_expression("{" + render(data["dict"]["append_item"], values) + "}").elements[0]
        elements = list(first.elements)
        if elements and elements[-1].comma is cst.MaybeSentinel.DEFAULT:
            elements[-1] = elements[-1].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        new_dict = first.with_changes(elements=[*elements, item])
        new = node.with_changes(args=[a.with_changes(value=new_dict) if a.value is first else a for a in node.args])
    elif method in ("set_postfix",):
        extra = cst.parse_expression(f"f({render(data['kwargs']['append_kwarg'], values)})").args
        new = _add_args(node, list(extra))
    if new is None:
        raise NoFix("cannot extend this call")
    text = cst.Module(body=[]).code_for_node(new)
    start_col = byte_to_char(info.line(call.lineno), call.col_offset)
    end_col = byte_to_char(info.line(call.end_lineno), call.end_col_offset)
    edit = TextEdit(call.lineno - 1, start_col, call.end_lineno - 1, end_col, text)
    return Plan(title="Add the loss to the existing log call", backend=target.message, edits=[edit])


def _append_to_string(node: cst.SimpleString, suffix: str) -> cst.SimpleString:
    quote = node.quote
    body = node.value[len(node.prefix) + len(quote): -len(quote)]
    if "r" in node.prefix.lower() and "\\" in suffix:
        raise NoFix("raw string")
    return node.with_changes(value=f"{node.prefix}{quote}{body}{suffix}{quote}")


def _extend_fstring(call: cst.Call, fstring: cst.FormattedString, suffix: str) -> cst.Call:
    quote = fstring.end
    if quote in suffix:
        raise NoFix("quote clash")
    addition = cst.parse_expression(f"f{quote}{suffix}{quote}")
    if not isinstance(addition, cst.FormattedString):
        raise NoFix("bad f-string")
    new_fstring = fstring.with_changes(parts=[*fstring.parts, *addition.parts])
    return call.with_changes(args=[a.with_changes(value=new_fstring) if a.value is fstring else a for a in call.args])


def _add_args(call: cst.Call, extra: list[cst.Arg]) -> cst.Call:
    args = list(call.args)
    # New positional arguments go after the last positional one, before keywords.
    pos = 0
    for i, a in enumerate(args):
        if a.keyword is None and not a.star:
            pos = i + 1
    if extra and extra[0].keyword is not None:
        pos = len(args)
    comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    trailing = cst.MaybeSentinel.DEFAULT
    if pos == len(args) and args and isinstance(args[-1].comma, cst.Comma):
        # A trailing comma (often one argument per line): the new argument takes it over and
        # is separated like the arguments before it.
        trailing = args[-1].comma
        if len(args) > 1 and isinstance(args[-2].comma, cst.Comma):
            comma = args[-2].comma
    new_args = []
    for i, a in enumerate(args[:pos]):
        new_args.append(a.with_changes(comma=comma) if i == pos - 1 else a)
    for i, a in enumerate(extra):
        last = i == len(extra) - 1 and pos == len(args)
        new_args.append(a.with_changes(comma=trailing if last else comma))
    new_args.extend(args[pos:])
    return call.with_changes(args=new_args)


@builder("DLL102")
def fix_gpu_memory(info: FileInfo, finding: Finding, ctx: dict, target: Target, config) -> Plan:
    step = _clean_var(ctx.get("step"))
    inner = _loop_ref(info, ctx.get("anchor_line")) or _loop_ref(info, finding.line)
    if inner is None:
        raise NoFix("no loop")
    # Every N steps inside the loop; without a step counter, once after it (per epoch).
    point = emit.loop_end(info, inner) if step else emit.after(info, inner)
    if point is None:
        raise NoFix("one-line loop")
    values = values_base(info, target, point.func)
    if not values.get("torch"):
        raise NoFix("torch is not imported")
    values["step"] = step
    code = render_message("DLL102", target, "step" if step else "plain", values)
    return plan("DLL102", target, f"Log GPU memory in the training loop ({target.message})", [emit.code_edit(info, point, code)])


# -- DLL200 / DLL201 / DLL210: checkpoints -------------------------------------------------

SAVE_OBJECT_FIRST = ("torch.save", "save_file", "jit.save", "xm.save", "saved_model.save", "save_model")
PATH_KWARGS = (
    "f", "filename", "filepath", "path", "save_directory", "output_dir", "export_dir", "file_prefix",
    "save_path", "checkpoint_path", "ckpt_path", "pretrained_model_name_or_path", "checkpoint", "file",
)


def _path_arg(info: FileInfo, call: ast.Call) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg in PATH_KWARGS:
            return kw.value
    name = info.resolve(dotted(call.func)) or ""
    positional = [a for a in call.args if not isinstance(a, ast.Starred)]
    object_first = name.endswith(SAVE_OBJECT_FIRST) and not (name.endswith("save_model") and len(positional) < 2)
    index = 1 if object_first else 0
    return positional[index] if len(positional) > index else None


def _path_text(info: FileInfo, ctx: dict, call: ast.Call | None) -> str | None:
    path = ctx.get("path")
    if path:
        try:
            node = ast.parse(path, mode="eval").body
        except SyntaxError:
            return None
        return path if is_pure(node) else None
    if call is None:
        return None
    node = _path_arg(info, call)
    if node is None or not is_pure(node):
        return None
    return source_of(info, node)


def _point_after_anchor(info: FileInfo, finding: Finding, ctx: dict, target: Target) -> tuple[StmtRef, emit.Point, dict]:
    """The finding's anchor statement, where a statement goes right after it, and the
    names in scope there."""
    ref = anchor_ref(info, finding, ctx)
    if ref is None:
        raise NoFix("no anchor")
    point = emit.after(info, ref)
    if point is None:
        raise NoFix("anchor in a one-line suite")
    return ref, point, values_base(info, target, point.func)


@builder("DLL200")
def fix_checkpoint_save(info: FileInfo, finding: Finding, ctx: dict, target: Target, config) -> Plan:
    ref, point, values = _point_after_anchor(info, finding, ctx, target)
    call = site_call(info, finding)
    values["path"] = _path_text(info, ctx, call)
    code = render_message("DLL200", target, "path" if values["path"] else "plain", values)
    return plan("DLL200", target, f"Log where the checkpoint was saved ({target.message})", [emit.code_edit(info, point, code)])


NAME_CANDIDATES = {
    "epoch": ("epoch", "cur_epoch", "current_epoch", "epoch_idx", "ep"),
    "step": ("global_step", "step", "iteration", "global_iter", "total_steps"),
    "optimizer": ("optimizer", "optim", "opt"),
    "config": ("cfg", "config", "args", "hparams", "conf", "opts"),
    "seed": ("seed", "random_seed"),
}


def _config_value(info: FileInfo, name: str, func, kind: str | None = None) -> str | None:
    """An expression holding the config as plain data (safe in a checkpoint and a log)."""
    root = name.split(".")[0]
    value = info.value_of(root, func)
    called = info.resolve(dotted(value.func)) if isinstance(value, ast.Call) else None
    if not called and isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
        called = value.func.attr  # `argparse.ArgumentParser().parse_args()`
    called = called or ""
    if kind is None:
        if called.endswith(("parse_args", "parse_known_args")):
            kind = "argparse"
        elif "OmegaConf" in called or "hydra" in called or "compose" in called:
            kind = "omegaconf"
        elif called.endswith(("safe_load", "yaml.load", "json.load", "full_load", "toml.load", "tomllib.load")):
            kind = "dict"
        elif isinstance(value, ast.Dict):
            kind = "dict"
    if kind == "argparse":
        return f"vars({name})"
    if kind in ("omegaconf", "hydra"):
        omega = _omegaconf(info)
        return f"{omega}.to_container({name}, resolve=True)" if omega else None
    if kind in ("dict", "yaml", "json"):
        return name
    return None


def _omegaconf(info: FileInfo) -> str | None:
    alias = info.module_alias("omegaconf.OmegaConf")
    if alias:
        return alias
    mod = info.module_alias("omegaconf")
    return f"{mod}.OmegaConf" if mod else None


@builder("DLL201")
def fix_bare_weights(info: FileInfo, finding: Finding, ctx: dict, target: Target, config) -> Plan:
    call = site_call(info, finding)
    if call is None:
        raise NoFix("no call")
    name = info.resolve(dotted(call.func)) or ctx.get("call") or ""
    if not (name == "torch.save" or name.endswith(".torch.save") or ctx.get("call") == "torch.save"):
        raise NoFix("only torch.save can carry metadata")
    if not call.args or isinstance(call.args[0], ast.Starred):
        raise NoFix("no saved object")
    saved = call.args[0]
    if isinstance(saved, ast.Dict):
        raise NoFix("already a dict")
    if _loads_bare_weights(info):
        # The file reads its checkpoints back as bare weights (`load_state_dict(torch.load(p))`):
        # wrapping the save would break that load, so no fix is offered.
        raise NoFix("the file loads bare weights")
    ref = info.enclosing_stmt(call.lineno)
    func = ref.func if ref else None
    line = call.lineno
    values: dict[str, str] = {}
    trainer = _lightning_trainer(info, func, line)
    if trainer:
        # A Lightning Trainer knows where training stopped.
        values["epoch"], values["step"] = f"{trainer}.current_epoch", f"{trainer}.global_step"
    used = _loaded_before(info, func, line)
    for key in ("epoch", "step", "optimizer", "config", "seed"):
        if key in values:
            continue
        candidate = ctx.get(key)
        names = (candidate,) if isinstance(candidate, str) and candidate else NAME_CANDIDATES[key]
        for n in names:
            root = n.split(".")[0]
            # Bound before the save, or already read before it (a snippet's free names).
            if not (info.bound_before(root, func, line) or _is_loop_var(ref, root, info) or root in used):
                continue
            if key == "config":
                kind = ctx.get("config_kind")
                if kind is None and n == "args" and info.value_of(n, func) is None and used.get(n) == "attr":
                    kind = "argparse"  # `args.lr`-style access to an unbound `args`
                value = _config_value(info, n, func, kind)
                if value is None:
                    continue
                values["config_value"] = value
            if key == "optimizer":
                value = info.value_of(root, func)
                made_by = info.resolve(dotted(value.func)) if isinstance(value, ast.Call) else ""
                if not ((made_by or "").startswith(("torch.optim", "optim.")) or n == "optimizer" or candidate or used.get(n) == "optimizer"):
                    continue
            if key == "seed" and not candidate and info.value_of(root, func) is None and n not in _params(func):
                continue
            values[key] = n
            break
    if not values:
        raise NoFix("no metadata in scope")
    keys = rule_data("DLL201").get("keys", {})
    items = [f'"model": {source_of(info, saved)}']
    for key in ("epoch", "step", "optimizer", "config", "seed"):
        if key in values:
            items.append(render(keys[key], values))
    text = "{" + ", ".join(items) + "}"
    start = byte_to_char(info.line(saved.lineno), saved.col_offset)
    end = byte_to_char(info.line(saved.end_lineno), saved.end_col_offset)
    edit = TextEdit(saved.lineno - 1, start, saved.end_lineno - 1, end, text)
    names = "/".join(k for k in ("epoch", "step", "optimizer", "config", "seed") if k in values)
    return Plan(title=f"Save a dict with the weights and {names} (load it with ckpt[\"model\"])", backend="torch.save", edits=[edit])


def _loads_bare_weights(info: FileInfo) -> bool:
    cached = info._cache.get("loads_bare")
    if cached is None:
        cached = False
        if "load_state_dict" in info.text:
            for node in ast.walk(info.tree):
                if (
                    isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "load_state_dict"
                    and node.args and isinstance(node.args[0], ast.Call)
                    and (info.resolve(dotted(node.args[0].func)) or "").endswith("torch.load")
                ):
                    cached = True
                    break
        info._cache["loads_bare"] = cached
    return cached


def _lightning_trainer(info: FileInfo, func, line: int) -> str | None:
    trainers = info._cache.get("trainers")
    if trainers is None:
        trainers = info._cache["trainers"] = []
        for key, value in info.assigned_from.items():
            if isinstance(value, ast.Call):
                called = info.resolve(dotted(value.func)) or ""
                if called.endswith(("pytorch_lightning.Trainer", "lightning.Trainer", "pl.Trainer", "L.Trainer", "lightning.pytorch.Trainer")):
                    trainers.append(key)
    for scope_id, name in trainers:
        if scope_id in (0, id(func) if func is not None else 0) and info.bound_before(name, func, line):
            return name
    return None


def _loaded_before(info: FileInfo, func, line: int) -> dict[str, str]:
    """Names read before ``line`` in ``func`` (or the module): name → how (`attr`, `optimizer`)."""
    key = ("loads", id(func))
    loads = info._cache.get(key)
    if loads is None:
        # name → [(first line, how)] for plain reads, attribute reads, optimizer-like calls
        loads = info._cache[key] = {}
        root = func if func is not None else info.tree
        for node in ast.walk(root):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                how = "optimizer" if node.attr in ("step", "zero_grad") else "attr"
                entry = loads.setdefault(node.value.id, {})
                entry[how] = min(entry.get(how, node.lineno), node.lineno)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                entry = loads.setdefault(node.id, {})
                entry["name"] = min(entry.get("name", node.lineno), node.lineno)
    out: dict[str, str] = {}
    for name, hows in loads.items():
        for how in ("optimizer", "attr", "name"):
            if hows.get(how, line) < line:
                out[name] = how
                break
    return out


def _params(func) -> set[str]:
    if not isinstance(func, FUNC_TYPES):
        return set()
    a = func.args
    return {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs}


@builder("DLL210")
def fix_checkpoint_load(info: FileInfo, finding: Finding, ctx: dict, target: Target, config) -> Plan:
    ref, point, values = _point_after_anchor(info, finding, ctx, target)
    call = site_call(info, finding)
    edits: list[TextEdit] = []
    path = ctx.get("path")
    target_expr = ctx.get("target")
    # Only `load_state_dict` returns missing/unexpected keys; a bound `torch.load`/`from_pretrained`
    # result is the loaded object itself.
    result = None
    load_sd = None
    for node in ast.walk(ref.stmt):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "load_state_dict":
            load_sd = node
            break
    if path is None:
        path = _path_text(info, {}, _load_path_call(info, call, load_sd, point.func))
    elif not is_pure(ast.parse(path, mode="eval").body):
        path = None
    if load_sd is not None:
        target_expr = target_expr or source_of(info, load_sd.func.value)
        strict = next((kw.value for kw in load_sd.keywords if kw.arg == "strict"), None)
        non_strict = isinstance(strict, ast.Constant) and strict.value is False
        stmt = ref.stmt
        if result is None and isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) and stmt.value is load_sd:
            result = stmt.targets[0].id
        if result is None and non_strict and isinstance(stmt, ast.Expr) and stmt.value is load_sd:
            # With strict=False the returned keys are the only trace of a mismatch: keep them.
            result = "incompatible_keys" if "incompatible_keys" not in info.bound_in(point.func) else None
            if result:
                col = byte_to_char(info.line(stmt.lineno), stmt.col_offset)
                edits.append(TextEdit(stmt.lineno - 1, col, stmt.lineno - 1, col, f"{result} = "))
    values.update(path=path, target=target_expr, result=result)
    called = info.resolve(dotted(call.func)) if call is not None else ""
    if result and path:
        shape = "keys"
    elif path and (called or "").endswith("from_pretrained"):
        shape = "pretrained"
    elif result and target_expr:
        shape = "keys_nopath"
    elif path:
        shape = "path"
    elif target_expr:
        shape = "plain"
    else:
        raise NoFix("nothing to log")
    code = render_message("DLL210", target, shape, values)
    edits.append(emit.code_edit(info, point, code))
    return plan("DLL210", target, f"Log what was loaded ({target.message})", edits)


def _load_path_call(info: FileInfo, call: ast.Call | None, load_sd: ast.Call | None, func) -> ast.Call | None:
    """The call that names the file: `torch.load(p)` itself, or the one feeding load_state_dict."""
    if call is not None and (call is not load_sd):
        name = info.resolve(dotted(call.func)) or ""
        if not name.endswith("load_state_dict"):
            return call
    if load_sd is None or not load_sd.args:
        return None
    arg = load_sd.args[0]
    while isinstance(arg, ast.Subscript):
        arg = arg.value
    if isinstance(arg, ast.Call):
        return arg
    if isinstance(arg, ast.Name):
        value = info.value_of(arg.id, func)
        while isinstance(value, ast.Subscript):
            value = value.value
        if isinstance(value, ast.Call):
            return value
    return None


# -- DLL300: evaluation -----------------------------------------------------------------------

METRIC_NAME = re.compile(r"(acc|accuracy|f1|precision|recall|auc|bleu|rouge|perplexity|ppl|mse|mae|rmse|iou|dice|score|metric|loss|err|error|map)", re.I)


@builder("DLL300")
def fix_evaluation(info: FileInfo, finding: Finding, ctx: dict, target: Target, config) -> Plan:
    ref = anchor_ref(info, finding, ctx)
    if ref is None:
        raise NoFix("no anchor")
    anchor = ctx.get("anchor", "after")
    if isinstance(ref.stmt, FUNC_TYPES) and anchor != "before":
        body = ref.stmt.body
        last = body[-1]
        inner_ref = info.by_id[id(last)]
        point = emit.before(info, inner_ref) if isinstance(last, ast.Return) else emit.after(info, inner_ref)
    elif anchor == "before":
        point = emit.before(info, ref)
    else:
        point = emit.after(info, ref)
    if point is None:
        raise NoFix("one-line suite")
    metrics = [m for m in (ctx.get("metrics") or []) if isinstance(m, str)]
    metrics = [m for m in metrics if info.bound_before(m.split(".")[0], point.func, point.line + 1) or _is_loop_var(ref, m, info)]
    if not metrics:
        raise NoFix("no metric names")
    values = values_base(info, target, point.func)
    style = "{}" if target.message == "loguru" else "%s"
    values["metrics_format"] = " ".join(f"{_metric_key(m)}={style}" for m in metrics)
    values["metrics_args"] = ", ".join(metrics)
    values["metrics_dict"] = "{" + ", ".join(f'"val/{_metric_key(m)}": {m}' for m in metrics) + "}"
    values["metrics_dict_float"] = "{" + ", ".join(f'"val_{_metric_key(m)}": float({m})' for m in metrics) + "}"
    code = None
    if tracker_values(info, target, point, values):
        code = render_tracker("DLL300", target, "metrics", values)
    used = code is not None
    if code is None:
        code = render_message("DLL300", target, "metrics", values)
    label = _label(target, used)
    return plan("DLL300", target, f"Log the evaluation metrics ({label})", [emit.code_edit(info, point, code)], label)


def _metric_key(expr: str) -> str:
    return re.sub(r"\W+", "_", expr).strip("_") or "metric"


# -- DLL400: device -------------------------------------------------------------------------

@builder("DLL400")
def fix_device(info: FileInfo, finding: Finding, ctx: dict, target: Target, config) -> Plan:
    ref, point, values = _point_after_anchor(info, finding, ctx, target)
    device = ctx.get("device")
    call = site_call(info, finding)
    if not device and call is not None and isinstance(call.func, ast.Attribute):
        if call.func.attr == "cuda":
            device = source_of(info, call.args[0]) if call.args else '"cuda"'
        elif call.args and not isinstance(call.args[0], ast.Starred):
            device = source_of(info, call.args[0])
        else:
            dev_kw = next((kw.value for kw in call.keywords if kw.arg == "device"), None)
            device = source_of(info, dev_kw) if dev_kw is not None else None
    if not device:
        raise NoFix("no device expression")
    try:
        if not is_pure(ast.parse(device, mode="eval").body):
            raise NoFix("device expression has side effects")
    except SyntaxError:
        raise NoFix("device is not an expression") from None
    values["device"] = device
    node = ast.parse(device, mode="eval").body
    literal = node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None
    if literal is not None and literal.startswith("cuda") and values.get("torch"):
        code = render_message("DLL400", target, "cuda", values)
    else:
        code = render_message("DLL400", target, "device", values)
        # The GPU's name only when the device is a plain name (evaluated once more, cheaply).
        if values.get("torch") and literal is None and isinstance(node, (ast.Name, ast.Attribute)):
            code += render_message("DLL400", target, "gpu", values)
    return plan("DLL400", target, f"Log the device (and GPU name) once ({target.message})", [emit.code_edit(info, point, code)])


# -- DLL500 / DLL501 / DLL502 / DLL601: the entry point ---------------------------------------

def _entry_point(info: FileInfo, finding: Finding, ctx: dict) -> emit.Point | None:
    anchor_line = ctx.get("anchor_line")
    entry = ctx.get("entry")
    if anchor_line and entry != "module":
        ref = info.stmt_at(anchor_line)
        if ref is not None and emit.body_of(ref.stmt):
            point = emit.body_start(info, ref)
            return _past_logging_setup(info, point) if ref.stmt is info.main_guard else point
    if entry == "module" or (not anchor_line and info.main_guard is None):
        return emit.Point(emit.module_code_start(info), "", None, None)
    if info.main_guard is not None:
        return _past_logging_setup(info, emit.body_start(info, info.by_id[id(info.main_guard)]))
    return None


def _past_logging_setup(info: FileInfo, point: emit.Point | None) -> emit.Point | None:
    """An entry block at the start of `if __name__ == "__main__":` that only calls `main()`,
    where main() configures logging: go into main(), after that configuration, so the
    block's log records are not emitted before a handler exists."""
    if point is None or point.func is not None or not info.configure_sites:
        return point
    guard = info.main_guard
    called = {
        n.func.id for stmt in (guard.body if guard is not None else []) for n in ast.walk(stmt)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
    }
    for stmt, func in info.configure_sites:
        if func is None or getattr(func, "name", None) not in called:
            continue
        ref = info.by_id.get(id(stmt))
        if ref is None or ref.parent is not func:
            continue
        moved = emit.after(info, ref)
        if moved is not None:
            return moved
    return point


def _after_binding(info: FileInfo, point: emit.Point, root: str) -> emit.Point:
    """Move an entry-start insertion past the statement that binds ``root`` (`args = ...`)."""
    first = info.first_bound.get((id(point.func) if point.func is not None else 0, root))
    if first is None or first <= point.line:
        return point
    ref = info.stmt_at(first)
    if ref is None:
        return point
    # Climb to the statement in the same block as the insertion point.
    while ref is not None and len(emit.indentation(info.line(ref.stmt.lineno))) > len(point.indent):
        ref = info.by_id.get(id(ref.parent))
    if ref is None:
        return point
    moved = emit.after(info, ref)
    return moved if moved is not None and moved.indent == point.indent else point


def _seed_libraries(info: FileInfo, ctx: dict, values: dict) -> list[str]:
    libs = list(ctx.get("libraries") or [])
    if "tensorflow" in libs and not values.get("tensorflow") and values.get("keras"):
        libs.append("keras")
    if not libs and not info.imports:
        libs = [m for m in ("random", "numpy", "torch", "tensorflow") if _conventional(info, m)]
    elif not libs:
        libs = [m for m in ("random", "numpy", "torch", "tensorflow") if values.get(m)]
    return [m for m in ("random", "numpy", "torch", "tensorflow", "keras") if m in libs and values.get(m)]


@builder("DLL500")
def fix_unseeded(info: FileInfo, finding: Finding, ctx: dict, target: Target, config) -> Plan:
    point = _entry_point(info, finding, ctx)
    if point is None:
        raise NoFix("no entry point")
    values = values_base(info, target, point.func)
    seed_data = rule_data("DLL500")
    if values.get("lightning"):
        seed = ctx.get("seed") or seed_data.get("default_seed", "0")
        if ctx.get("seed"):
            point = _after_binding(info, point, seed.split(".")[0].split("[")[0])
        values["seed"] = seed
        code = render(seed_data["lightning"], values)
        edit = emit.code_edit(info, point, code, separate=point.func is None and not point.indent)
        return plan("DLL500", target, "Seed everything with Lightning (it logs the seed)", [edit], "lightning")
    libs = _seed_libraries(info, ctx, values)
    if not libs:
        raise NoFix("no seedable library imported")
    seed = ctx.get("seed")
    lines: list[str] = []
    if seed:
        point = _after_binding(info, point, seed.split(".")[0].split("[")[0])
    elif info.bound_before("seed", point.func, point.line + 1):
        seed = "seed"
    else:
        seed = "seed"
        lines.append(f"seed = {rule_data('DLL500').get('default_seed', '0')}")
    values["seed"] = seed
    seed_lines = rule_data("DLL500").get("seed_lines", {})
    lines += [render(seed_lines[m], values) for m in libs]
    code = "\n".join(lines) + "\n" + render_message("DLL501", target, "seed", values)
    edit = emit.code_edit(info, point, code, separate=point.func is None and not point.indent)
    return plan("DLL500", target, f"Seed {', '.join(libs)} and log the seed ({target.message})", [edit])


@builder("DLL501")
def fix_seed_not_logged(info: FileInfo, finding: Finding, ctx: dict, target: Target, config) -> Plan:
    ref, point, values = _point_after_anchor(info, finding, ctx, target)
    seed = ctx.get("seed")
    if not seed:
        call = site_call(info, finding)
        arg = None
        if call is not None:
            arg = call.args[0] if call.args and not isinstance(call.args[0], ast.Starred) else next(
                (kw.value for kw in call.keywords if kw.arg == "seed"), None
            )
        if arg is None or not is_pure(arg):
            raise NoFix("no seed expression")
        seed = source_of(info, arg)
    values["seed"] = seed
    code = None
    if tracker_values(info, target, point, values, needs_run=True):
        code = render_tracker("DLL501", target, "seed", values)
    used = code is not None
    if code is None:
        code = render_message("DLL501", target, "seed", values)
    label = _label(target, used)
    return plan("DLL501", target, f"Log the seed ({label})", [emit.code_edit(info, point, code)], label)


def _lightning_deterministic(info: FileInfo) -> TextEdit | None:
    """`pl.Trainer(...)` → `pl.Trainer(..., deterministic=True)` (Lightning sets the flags)."""
    for node in ast.walk(info.tree):
        if not isinstance(node, ast.Call):
            continue
        name = info.resolve(dotted(node.func)) or ""
        if not (name.endswith(".Trainer") and name.split(".")[0] in ("pytorch_lightning", "lightning")):
            continue
        if any(kw.arg == "deterministic" for kw in node.keywords) or any(kw.arg is None for kw in node.keywords):
            continue
        seg = info.segment(node)
        if seg is None:
            continue
        call = cst.parse_expression(seg)
        extra = cst.parse_expression("f(deterministic=True)").args
        text = cst.Module(body=[]).code_for_node(_add_args(call, list(extra)))
        start = byte_to_char(info.line(node.lineno), node.col_offset)
        end = byte_to_char(info.line(node.end_lineno), node.end_col_offset)
        return TextEdit(node.lineno - 1, start, node.end_lineno - 1, end, text)
    return None


@builder("DLL502")
def fix_determinism(info: FileInfo, finding: Finding, ctx: dict, target: Target, config) -> Plan:
    point = _entry_point(info, finding, ctx)
    if point is None:
        raise NoFix("no entry point")
    values = values_base(info, target, point.func)
    trainer_edit = _lightning_deterministic(info)
    if trainer_edit is not None:
        return Plan(title="Make the Lightning Trainer deterministic", backend="lightning", edits=[trainer_edit])
    lines = rule_data("DLL502").get("lines", {})
    code = "".join(render(lines[m], values) for m in ("torch", "tensorflow") if values.get(m) and m in lines)
    if not code:
        raise NoFix("no library")
    edit = emit.code_edit(info, point, code, separate=point.func is None and not point.indent)
    return plan("DLL502", target, "Make cuDNN/algorithms deterministic", [edit])


@builder("DLL601")
def fix_provenance(info: FileInfo, finding: Finding, ctx: dict, target: Target, config) -> Plan:
    point = _entry_point(info, finding, ctx)
    if point is None:
        raise NoFix("no entry point")
    values = values_base(info, target, point.func)
    header: list[TextEdit] = []
    for module in ("platform", "subprocess"):
        if not values.get(module):
            values[module] = module
            header.append(emit.import_edit(info, f"import {module}", module))
    torch = values.get("torch")
    style = "{}" if target.message == "loguru" else "%s"
    if torch:
        values["versions_format"] = f", torch {style}, CUDA {style}"
        values["versions_args"] = f", {torch}.__version__, {torch}.version.cuda"
        values["versions_print"] = f', "torch", {torch}.__version__, "CUDA", {torch}.version.cuda'
    elif values.get("tensorflow"):
        tf = values["tensorflow"]
        values["versions_format"] = f", tensorflow {style}"
        values["versions_args"] = f", {tf}.__version__"
        values["versions_print"] = f', "tensorflow", {tf}.__version__'
    else:
        values["versions_format"] = values["versions_args"] = values["versions_print"] = ""
    code = render_message("DLL601", target, "provenance", values)
    if torch:
        values["device"] = '"cuda"'
        gpu = render_message("DLL400", target, "gpu", values).replace(f'{torch}.device("cuda").type == "cuda"', f"{torch}.cuda.is_available()")
        code += gpu.replace('get_device_name("cuda")', "get_device_name()")
    edit = emit.code_edit(info, point, code, separate=point.func is None and not point.indent)
    result = plan("DLL601", target, f"Log the code version and library/hardware versions ({target.message})", [edit])
    result.header = header
    return result


# -- DLL600: configuration -------------------------------------------------------------------

@builder("DLL600")
def fix_config(info: FileInfo, finding: Finding, ctx: dict, target: Target, config) -> Plan:
    ref = anchor_ref(info, finding, ctx)
    if ref is None:
        raise NoFix("no anchor")
    anchor = ctx.get("anchor", "after")
    kind = ctx.get("config_kind")
    name = ctx.get("config")
    if isinstance(ref.stmt, FUNC_TYPES) or anchor == "body_start":
        point = emit.body_start(info, ref)
        if name is None and isinstance(ref.stmt, FUNC_TYPES) and ref.stmt.args.args:
            name = ref.stmt.args.args[0].arg
        kind = kind or "hydra"
    else:
        point = emit.after(info, ref)
        stmt = ref.stmt
        if name is None and isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            t = stmt.targets[0] if isinstance(stmt, ast.Assign) else stmt.target
            if isinstance(t, ast.Tuple) and t.elts:
                t = t.elts[0]
            if isinstance(t, (ast.Name, ast.Attribute)):
                name = source_of(info, t)
    if point is None or not name:
        raise NoFix("no config name or place")
    values = values_base(info, target, point.func)
    values["config"] = name
    header: list[TextEdit] = []
    if kind is None:
        value = _config_value(info, name, point.func)
        kind = "argparse" if value and value.startswith("vars(") else "omegaconf" if value and "to_container" in value else "dict"
    shape = "config"
    if kind == "argparse":
        values["config_value"] = values["config_dict"] = f"vars({name})"
    elif kind in ("omegaconf", "hydra"):
        omega = _omegaconf(info)
        if omega is None:
            omega = "OmegaConf"
            header.append(emit.import_edit(info, "from omegaconf import OmegaConf", "omegaconf"))
        values["config_value"] = f"{omega}.to_yaml({name})"
        values["config_dict"] = f"{omega}.to_container({name}, resolve=True)"
        shape = "yaml"
    else:
        values["config_value"] = values["config_dict"] = name
    code = None
    if tracker_values(info, target, point, values, needs_run=target.backend in ("wandb", "mlflow")):
        code = render_tracker("DLL600", target, "config", values)
    used = code is not None
    if code is None:
        code = render_message("DLL600", target, shape, values)
    label = _label(target, used)
    result = plan("DLL600", target, f"Log the configuration ({label})", [emit.code_edit(info, point, code)], label)
    result.header = header
    return result
