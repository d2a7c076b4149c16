"""DLL400: a model moved to an accelerator, with the device never logged in that scope.

Only *models* count: data moved inside loops, ``.to(dtype)``, ``.to(memory_format=...)`` and
objects the engine cannot tell are models stay silent. A model is a name like ``model``,
``net``, ``encoder``, ``self.model``; an instance of an ``nn.Module`` class defined in the
file; or the result of a known constructor or builder (``torchvision.models.*``,
``timm.create_model``, ``*.from_pretrained``, ``build_model()``…), inline or via a name.

Evidence: a log in the scope that mentions the device expression (or a name in it), the
accelerator or CUDA/GPU, or a log where that device was created (the function that binds it,
the caller that passes it in, ``__init__`` for ``self.device``). Reported once per scope.
"""
from __future__ import annotations

import ast
import re
from typing import Iterator

from ..config import Config
from ..facts import FUNC_TYPES, LOOP_TYPES, CallSite, ModuleFacts, Scope, child_nodes, dotted_name, is_main_guard, walk
from . import Report, rule
from .configuration import config_aliases, config_names, config_recorded, hydra_configs, plain_dotted, root_name
from .evaluation import is_metric_call
from .training import calls_named_ending, is_training_module
from .saving import (
    _BUILTIN_NAMES, CONFIG_OBJECT, GENERIC_NAMES, _assigned_target, _param_values, _set_by_a_project_base, _settings_module_attribute, from_unseen_caller, index_of, stored_constructor_argument, is_dl_module, is_log_call, is_project_helper, logs_mention, memoised,
    mention_pattern, site_report, whole_mention_pattern,
)

MODEL_NAME = re.compile(
    r"^(?:.*_)?(?:model|net|network|encoder|decoder|backbone|classifier|generator|discriminator|critic|"
    r"actor|policy|transformer|unet|vae|autoencoder|teacher|student|module|ema)s?\d*$"
    r"|^[a-z]*net\d*$|^net[a-z]\d*$|^(?:g|d|netg|netd|gen|disc)\d*$",
    re.I,
)
MODEL_CLASS_BASE = re.compile(r"(^|\.)(Module|LightningModule|Sequential|ModuleList|ModuleDict|PreTrainedModel|Model|[A-Za-z]*Model)$")
MODEL_FACTORY = re.compile(
    r"(^|\.)(torchvision\.models\.\w+|models\.\w+|timm\.create_model|create_model|build_model|get_model|make_model|"
    r"load_model|init_model|setup_model|model_fn|DataParallel|DistributedDataParallel|DDP|Sequential|"
    r"from_pretrained|from_config|hub\.load)$"
    r"|^torch\.nn\.[A-Z]\w*$|^torchvision\.models\.",
)
DEVICE_TEXT = re.compile(r"device|\bdev\b|gpu|cuda|rank|accelerator|\bmps\b|\bxla\b|\btpu\b|\bnpu\b|\bxpu\b|\bhpu\b", re.I)
DTYPE_TEXT = re.compile(r"dtype|float|half|bfloat16|\bint\d*\b|bool|complex|memory_format|channels_last", re.I)
ACCELERATOR_STRING = re.compile(r"^(cuda|mps|xla|npu|xpu|hpu|tpu)(:\d+)?$", re.I)
# `"cuda:" + str(args.gpu)`, `f"cuda:{rank}"`: only the index is chosen at run time.
ACCELERATOR_PREFIX = re.compile(r"^(cuda|xla|npu|xpu|hpu):$", re.I)
# Devices picked by a framework from its launch configuration, not by this code.
FRAMEWORK_DEVICE = re.compile(r"(^|\.)(accelerator|fabric|trainer|strategy)\.(device|root_device)$")
# A log that says where things run, whatever it names its device.
PLACEMENT_LOG = re.compile(
    r"device|cuda|\bgpus?\b|\bmps\b|\btpu\b|\bxla\b|accelerator\.state|get_device_name|device_count|is_available",
    re.I,
)
is_model_name = memoised(MODEL_NAME.match)
names_device = memoised(DEVICE_TEXT.search)
names_dtype = memoised(DTYPE_TEXT.search)
framework_device = memoised(FRAMEWORK_DEVICE.search)


def _module_classes(facts: ModuleFacts) -> set[str]:
    """Classes defined in the file that are (transitively) nn.Modules."""
    cached = getattr(facts, "_dllog_module_classes", None)
    if cached is not None:
        return cached
    classes: dict[str, list[str]] = {}
    # A class statement spells the (ASCII) keyword `class`: without it, no statement to look at.
    if not facts.lines or "class" in facts.text:
        class_type = ast.ClassDef
        for info in facts.stmt_infos.values():
            stmt = info.stmt
            if stmt.__class__ is class_type:
                classes[stmt.name] = [dotted_name(b, facts.aliases) or "" for b in stmt.bases]
    found: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, bases in classes.items():
            if name in found:
                continue
            if any(MODEL_CLASS_BASE.search(b) or b.rsplit(".", 1)[-1] in found for b in bases):
                found.add(name)
                changed = True
    facts._dllog_module_classes = found  # type: ignore[attr-defined]
    return found


# torch.nn modules with no weights to place: losses, activations, pooling, containers of
# nothing (`nn.CrossEntropyLoss().cuda()` says nothing about where the model runs).
WEIGHTLESS_MODULE = re.compile(
    r"Loss$|^(Identity|Flatten|Unflatten|Dropout\w*|ReLU\w*|LeakyReLU|PReLU_?|GELU|SiLU|Mish|ELU|SELU|Sigmoid|Tanh|"
    r"Softmax\w*|LogSoftmax|Softplus|Hardtanh|\w*Pool\d?d|Upsample\w*|PixelShuffle|ZeroPad\d?d|ReflectionPad\d?d)$"
)


def _is_model_constructor(facts: ModuleFacts, call: ast.Call) -> bool:
    name = dotted_name(call.func, facts.aliases) or ""
    if not name or "?" in name:
        return False
    last = name.rsplit(".", 1)[-1]
    if name.startswith("torch.nn.") and WEIGHTLESS_MODULE.search(last):
        return False
    if last in _module_classes(facts) or (last[:1].isupper() and is_model_name(last)):
        return True  # `Net()`, `ResNet()`, `Encoder()`
    if last == "from_pretrained" and facts.vocabulary.matcher("load_exclusions").match(name):
        return False
    return bool(MODEL_FACTORY.search(name))


def _is_model_name(expr: ast.expr) -> bool:
    last = expr.id if isinstance(expr, ast.Name) else getattr(expr, "attr", "")
    return is_model_name(last)


# Calls that make tensors (or arrays turned into them), never models.
TENSOR_FACTORY = re.compile(
    r"(^|\.)(tensor|as_tensor|from_numpy|zeros|ones|empty|full|rand|randn|randint|randperm|arange|linspace|"
    r"stack|cat|concat|zeros_like|ones_like|empty_like|full_like|rand_like|randn_like|"
    r"FloatTensor|LongTensor|IntTensor|BoolTensor|Tensor|array|asarray)$"
)


def _made_as_tensor(facts: ModuleFacts, expr: ast.expr | None) -> bool:
    """``torch.tensor(x).float()``, ``torch.from_numpy(a)``: a tensor, whatever the name it
    is assigned to (``target_policy``, ``value_net_input``)."""
    while isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute):
        name = dotted_name(expr.func, facts.aliases) or ""
        if TENSOR_FACTORY.search(name) and "." in name and name.split(".")[0] in ("torch", "numpy", "np", "tf", "jax", "jnp"):
            return True
        expr = expr.func.value  # `torch.tensor(x).float()`: look through the method chain
    if isinstance(expr, ast.Call):
        return bool(TENSOR_FACTORY.search(dotted_name(expr.func, facts.aliases) or ""))
    return False


def _is_model(facts: ModuleFacts, site: CallSite, expr: ast.expr | None, depth: int = 3) -> bool:
    if expr is None or depth <= 0:
        return False
    if isinstance(expr, ast.Call):
        if _is_model_constructor(facts, expr):
            return True
        # `model.cuda().to(...)`, `Net().to(device).eval()`: look through chained calls.
        func = expr.func
        if isinstance(func, ast.Attribute) and func.attr in ("cuda", "to", "eval", "train", "float", "half", "bfloat16", "double", "requires_grad_"):
            return _is_model(facts, site, func.value, depth - 1)
        return False
    if isinstance(expr, (ast.Name, ast.Attribute)):
        last = expr.id if isinstance(expr, ast.Name) else expr.attr
        if is_model_name(last):
            return True
        if isinstance(expr, ast.Name):
            bound = index_of(facts).binding(site.scope, expr.id, site.node.lineno)
            if bound is not None and bound is not expr:
                return _is_model(facts, site, bound, depth - 1)
    return False


def _device_of(facts: ModuleFacts, site: CallSite) -> ast.expr | None | bool:
    """The device expression of an accelerator transfer; True for a bare ``.cuda()``;
    None when the call is not an accelerator transfer (dtype, memory format, CPU)."""
    method = site.method
    if method == "cuda":
        return site.node.args[0] if site.node.args else (site.kwarg("device") or True)
    if method not in ("to", "to_device"):
        return None
    dev = site.kwarg("device")
    if dev is None:
        if not site.node.args or isinstance(site.node.args[0], ast.Starred):
            return None
        dev = site.node.args[0]
    if isinstance(dev, ast.Constant):
        if isinstance(dev.value, str):
            return dev if ACCELERATOR_STRING.match(dev.value) else None
        if isinstance(dev.value, int) and not isinstance(dev.value, bool):
            return dev
        return None
    text = facts.segment(dev)
    if isinstance(dev, ast.Call):
        name = dotted_name(dev.func, facts.aliases) or ""
        if facts.vocabulary.matcher("device_factory").match(name):
            # `torch.device("cpu")`: the CPU is not an accelerator, like the string "cpu"
            first = dev.args[0] if dev.args else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str) and not ACCELERATOR_STRING.match(first.value):
                return None
            return dev
    if isinstance(dev, ast.JoinedStr):
        return dev if re.search(r"cuda|mps|xla|npu|xpu", text, re.I) else None
    if names_dtype(text) and not re.search(r"device", text, re.I):
        return None
    if isinstance(dev, ast.Name) and _always_cpu(facts, site, dev):
        return None  # `device = torch.device("cpu")`: not an accelerator
    return dev if names_device(text) else None


def _always_cpu(facts: ModuleFacts, site: CallSite, name: ast.Name) -> bool:
    idx = index_of(facts)
    binds = idx.bindings(site.scope, name.id) or idx.bindings(facts.module, name.id)
    if not binds:
        return False

    def is_cpu(value: ast.expr | None) -> bool:
        if isinstance(value, ast.Call) and value.args and not value.keywords:
            value = value.args[0]  # torch.device("cpu")
        return isinstance(value, ast.Constant) and isinstance(value.value, str) and value.value.lower().startswith("cpu")

    if all(is_cpu(value) for _, value in binds):
        return True
    # `device = "cuda" if ... else "cpu"` overridden by `device = "cpu"` right before the move
    before = [(stmt, value) for stmt, value in binds if stmt.lineno < site.node.lineno]
    if not before:
        return False
    stmt, value = max(before, key=lambda b: b[0].lineno)
    info = facts.info(stmt)
    return (
        is_cpu(value) and info is not None and info.scope is site.scope and info.block is site.info.block
        and not _tests_around(info.parent, info.scope)
    )


def _device_keys(facts: ModuleFacts, site: CallSite, dev: ast.expr | None) -> tuple[set[str], set[str]]:
    """(names that hold the device, config objects printed whole that contain it).

    ``device = torch.device(args.device)``: a log of ``device`` or ``args.device`` names it,
    and so does ``print(args)`` (the namespace is printed with its ``device`` field)."""
    keys: set[str] = set()
    wholes: set[str] = set()
    # A bare `.cuda()` names no device: the `if args.cuda:` around it and the GPUs of a
    # `DataParallel(model, device_ids=cfg.GPUS)` it is called on are what decide.
    exprs = [dev] if dev is not None else _bare_cuda_deciders(facts, site)
    if not exprs:
        return keys, wholes
    # `device = torch.device(device)` after `device = f"cuda:{args.device}"`: the values a
    # device name was bound to, a few links back.
    line, name = site.node.lineno, dev
    for _ in range(3):
        if not isinstance(name, ast.Name):
            break
        bound = index_of(facts).binding(site.scope, name.id, line)
        if bound is None or bound is name:
            break
        exprs.append(bound)
        line = bound.lineno - 1
        name = next((n for n in walk(bound) if isinstance(n, ast.Name) and n.id == name.id), None)
    if isinstance(dev, ast.Name):
        # `if opt.gpu == 1: device = torch.device("cuda") else: device = torch.device("cpu")`:
        # the test that picks the binding decides the device, as `"cuda" if opt.gpu else "cpu"` would
        # (unless a binding also asks the machine: `"cuda:0" if torch.cuda.is_available() else "cpu"`)
        binds = index_of(facts).bindings(site.scope, dev.id)
        if len(binds) > 1 and not any(value is not None and AVAILABILITY_TEST.search(facts.segment(value) or "") for _, value in binds):
            for stmt, _ in binds:
                info = facts.info(stmt)
                if info is not None:
                    exprs += _tests_around(info.parent, site.scope)
    if dev is None:
        # `gpus = [int(i) for i in config.GPUS.split(",")]` ... `device_ids=gpus`
        for expr in list(exprs):
            if isinstance(expr, ast.Name):
                bound = index_of(facts).binding(site.scope, expr.id, site.node.lineno)
                if bound is not None and bound is not expr:
                    exprs.append(bound)
    for expr in exprs:
        text = facts.segment(expr)
        if text and expr is dev:
            keys.add(text)
        # In a condition only whole names count (`args.cuda`, not its head `args`): a log
        # of `args.lr` says nothing about the device.
        heads = {id(n.value) for n in walk(expr) if isinstance(n, ast.Attribute)} if dev is None else ()
        _add_device_names(expr, keys, wholes, heads)
    return keys, wholes


def _add_device_names(expr: ast.AST, keys: set[str], wholes: set[str], heads=()) -> None:
    """Add to ``keys`` the names and dotted names in ``expr`` that a log of the device
    could mention (not ``torch.*``/``os.*``, nor the nodes in ``heads``), and to ``wholes``
    the config objects they are fields of."""
    for node in walk(expr):
        if isinstance(node, (ast.Name, ast.Attribute)) and id(node) not in heads:
            t = dotted_name(node)
            if t and "?" not in t and t not in GENERIC_NAMES and t.split(".")[0] not in ("torch", "os"):
                keys.add(t)
                root = node
                while isinstance(root, ast.Attribute):
                    root = root.value  # `config.GPUS.split` → config
                if root is not node and isinstance(root, ast.Name) and root.id not in GENERIC_NAMES:
                    wholes.add(root.id)
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id not in GENERIC_NAMES:
            wholes.add(node.value.id)  # `opt["data.cuda"]`


AVAILABILITY_TEST = re.compile(r"\bis_available\(|\bdevice_count\(|is_built\(|list_physical_devices\(")


NOTEBOOK_MARKERS = ("# In[", "# %%", "get_ipython", ".ipynb")


def _shown_by_a_notebook_cell(facts: ModuleFacts, keys: set[str]) -> bool:
    """A notebook cell ending in the bare name (``gpu``): the notebook displays its value."""
    if not keys:
        return False
    notebook = getattr(facts, "_dllog_notebook", None)
    if notebook is None:  # (once per file: the text is searched, not the tree)
        notebook = facts._dllog_notebook = any(m in facts.text for m in NOTEBOOK_MARKERS)  # type: ignore[attr-defined]
    if not notebook:
        return False
    return any(
        isinstance(stmt, ast.Expr) and isinstance(stmt.value, (ast.Name, ast.Attribute)) and dotted_name(stmt.value) in keys
        for stmt in facts.tree.body
    )


def _config_kept_whole(facts: ModuleFacts, site: CallSite, wholes: set[str]) -> bool:
    """The config object the device came from is recorded whole: Hydra's saved config, a
    tracker's run config (`wandb.init(config=vars(config))`), a dump (`json.dump(opt, f)`)."""
    if not wholes:
        return False
    dev = _device_of(facts, site)
    if isinstance(dev, ast.expr) and any(AVAILABILITY_TEST.search(t) for t in _bound_device_texts(facts, site, dev)):
        return False  # `"cuda" if torch.cuda.is_available() and args.cuda else "cpu"`: the machine decides too
    hydra = {param for scope, param in hydra_configs(facts) if scope is site.scope}
    if hydra and wholes & ({a.split(".")[0] for a in config_aliases(facts, hydra)} | hydra):
        return True
    if logs_mention(facts, site.scope, (set(), wholes)):
        return True
    # ... or pickled, dumped, handed to a tracker anywhere in the module (`pickle.dump(args,
    # f)`), when the option alone decides: not `args.cuda = not args.no_cuda and
    # torch.cuda.is_available()`, where the machine decides too
    return not _machine_decides_too(facts, site) and config_recorded(facts, wholes, whole=True)


def _machine_decides_too(facts: ModuleFacts, site: CallSite) -> bool:
    """An availability test in what decides a bare ``.cuda()`` (its ``if`` tests and the
    values its flags were given)."""
    idx = index_of(facts)
    for test in _bare_cuda_deciders(facts, site) if _device_of(facts, site) is True else []:
        texts = [facts.segment(test) or ""]
        for node in walk(test):
            if isinstance(node, (ast.Name, ast.Attribute)):
                name = dotted_name(node)
                if name:
                    texts += [facts.segment(v) or "" for _, v in idx.bindings(site.scope, name) + idx.bindings(facts.module, name) if v is not None]
        if any(AVAILABILITY_TEST.search(t) for t in texts):
            return True
    return False


def _parallel_device_ids(site: CallSite) -> list[ast.expr]:
    """``device_ids=`` of the (Distributed)DataParallel wrapper a ``.cuda()`` is called on."""
    receiver = site.receiver
    if isinstance(receiver, ast.Call):
        for kw in receiver.keywords:
            if kw.arg == "device_ids":
                return [kw.value]
    return []


def _visible_devices_recorded(facts: ModuleFacts, site: CallSite, bare: bool) -> bool:
    """The GPUs are picked by ``os.environ["CUDA_VISIBLE_DEVICES"] = args.gpu`` (in this
    function or at the top of the module), and ``args`` is recorded whole
    (``wandb.config.update(args)``): the run's record says where it ran."""
    sets_it = getattr(facts, "_dllog_sets_visible_devices", None)
    if sets_it is None:  # (asked for every model move: most files never set it)
        sets_it = facts._dllog_sets_visible_devices = "CUDA_VISIBLE_DEVICES" in facts.text  # type: ignore[attr-defined]
    if not sets_it:
        return False
    for scope in (site.scope, facts.module) if not site.scope.is_module else (site.scope,):
        for info in facts.scope_stmts(scope):
            stmt = info.stmt
            if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1:
                continue
            target = stmt.targets[0]
            if not (isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Constant)
                    and target.slice.value == "CUDA_VISIBLE_DEVICES"):
                continue
            if isinstance(stmt.value, ast.Constant) and bare and not _tests_around(info.parent, scope):
                # `os.environ["CUDA_VISIBLE_DEVICES"] = "0"` ... `model.cuda()` with no `if`:
                # the source names the GPU, and without it the run fails, as `.to("cuda:0")`
                return not _guarding_conditions(site)
            roots = {root_name(n) for n in walk(stmt.value) if isinstance(n, ast.Attribute)}
            roots.discard(None)
            if roots and config_recorded(facts, roots):
                return True
    return False


def _star_imported(facts: ModuleFacts, site: CallSite, dev: ast.expr | None) -> bool:
    """A device name bound nowhere in this file, which star-imports a project module."""
    if not isinstance(dev, ast.Name):
        return False
    idx = index_of(facts)
    if not idx.star_imports_project:
        return False
    return not (idx.bindings(site.scope, dev.id) or idx.bindings(facts.module, dev.id) or dev.id in idx.parameters(site.scope))


def _constructor_argument(facts: ModuleFacts, site: CallSite, dev: ast.expr | None) -> bool:
    """``self.model.to(self.device)`` where ``__init__(self, ..., device)`` stored the
    argument and nothing in this file builds the object: the device is the caller's."""
    if isinstance(dev, ast.Call) and len(dev.args) == 1 and not dev.keywords:
        dev = dev.args[0]  # torch.device(self.device)
    if dev is None:
        # `if self.config.device.type == "cuda": self.model.cuda()`, the config stored from
        # the constructor's argument: its (unseen) caller chose the device
        return any(
            stored_constructor_argument(facts, site, holder)
            for test in _bare_cuda_deciders(facts, site) for holder in _self_attributes(test)
        )
    return stored_constructor_argument(facts, site, dev)


def _self_attributes(expr: ast.expr) -> list[ast.Attribute]:
    """The ``self.x`` nodes under ``expr``."""
    return [
        n for n in walk(expr)
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self"
    ]


def _inherited_device(facts: ModuleFacts, site: CallSite, dev: ast.expr | None) -> bool:
    """``self.model = ASR(...).to(self.device)`` in ``class Solver(BaseSolver)``, where
    ``BaseSolver`` comes from the project's own modules and nothing in this file sets
    ``self.device``: the base class picks the device (and is the place that logs it)."""
    dev_text = plain_dotted(dev) if dev is not None else None
    if not dev_text or not dev_text.startswith("self.") or dev_text.count(".") != 1:
        return False
    return _set_by_a_project_base(facts, site, dev)  # (set in this file: judged here)


def _moves_a_callers_model(facts: ModuleFacts, site: CallSite, receiver: ast.expr | None) -> bool:
    """``def model_to_device(self, net): net = net.to(self.device)`` with no caller in this
    file: a library helper placing whatever model its (unseen) callers hand it; where the run
    is placed is theirs to log."""
    if not isinstance(receiver, ast.Name) or receiver.id in ("self", "cls"):
        return False
    idx = index_of(facts)
    return receiver.id in idx.parameters(site.scope) and not idx.callers(site.scope)


def _guarding_conditions(site: CallSite) -> list[ast.expr]:
    """The tests of the ``if`` statements around a call, within its scope."""
    return _tests_around(site.info.parent, site.scope)


def _tests_around(info, scope: Scope) -> list[ast.expr]:
    tests: list[ast.expr] = []
    while info is not None and info.scope is scope:
        # (`if __name__ == "__main__":` decides whether the script runs, not where)
        if isinstance(info.stmt, ast.If) and not is_main_guard(info.stmt.test):
            tests.append(info.stmt.test)
        info = info.parent
    return tests


def _bare_cuda_deciders(facts: ModuleFacts, site: CallSite) -> list[ast.expr]:
    """What decides where a bare ``.cuda()`` goes: the ``if`` tests around it, the
    ``device_ids`` of its DataParallel, and for a flag set earlier (``if args.gpu < 0: cuda
    = False else: cuda = True`` ... ``if cuda: model.cuda()``) the tests that set the flag."""
    idx = index_of(facts)
    exprs = [t for t in _guarding_conditions(site) if _may_decide_the_device(facts, site, t)] + _parallel_device_ids(site)
    # `model = model.cuda() if use_cuda else model`: the inline test decides as an `if` would
    exprs += [c.test for c in _inline_choices(site) if isinstance(c, ast.IfExp) and _may_decide_the_device(facts, site, c.test)]
    for test in list(exprs):
        flag = test.operand if isinstance(test, ast.UnaryOp) else test
        if isinstance(flag, ast.Name):
            for stmt, _ in idx.bindings(site.scope, flag.id):
                info = facts.info(stmt)
                if info is not None:
                    exprs += _tests_around(info.parent, site.scope)
    return exprs


# Words of a test that may pick between an accelerator and the CPU. (Not `use_accelerate`:
# whether HF Accelerate or the script places the model, on the GPU either way.)
DEVICE_DECISION_WORD = re.compile(r"cuda|gpu|device|cpu|avail|accel(?!erate(?![dr]))|mps|tpu|xla", re.I)


def _may_decide_the_device(facts: ModuleFacts, site: CallSite, test: ast.expr) -> bool:
    """Whether an ``if`` around a bare ``.cuda()`` may send the run to the CPU instead:
    not ``if not using_deepspeed:`` (DeepSpeed or manual placement, on the GPU either way),
    not ``if cuda:`` after ``cuda = True`` written in the source."""
    flag = test.operand if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) else test
    if isinstance(flag, ast.Name) and flag is test:
        value = _sole_unconditional_value(facts, site.scope, flag.id, module_too=True)
        if isinstance(value, ast.Constant) and value.value is True:
            return False
    if isinstance(flag, (ast.Name, ast.Attribute)) and _flag_set_elsewhere(facts, site, flag):
        return False
    texts = [facts.segment(test)]
    if isinstance(flag, ast.Name):
        # (`ok = torch.cuda.is_available(); if ok:`: the flag's value says what it decides)
        idx = index_of(facts)
        texts += [facts.segment(v) for _, v in idx.bindings(site.scope, flag.id) if v is not None]
    return any(DEVICE_DECISION_WORD.search(t or "") for t in texts)


def _flag_set_elsewhere(facts: ModuleFacts, site: CallSite, flag: ast.Name | ast.Attribute) -> bool:
    """``if use_cuda:`` with ``use_cuda`` a parameter no caller here fills in (or stored
    from one, ``self.use_cuda``), or a constant of the project's settings module
    (``config.use_cuda``): whoever sets it is outside this file, and a ``.cuda()`` it turns
    on fails rather than falls back. This file cannot tell; it is silent."""
    if isinstance(flag, ast.Attribute):
        return stored_constructor_argument(facts, site, flag) or _settings_module_attribute(facts, site, flag)
    if flag.id in facts.aliases and _sole_unconditional_value(facts, site.scope, flag.id, module_too=True) is None:
        return True  # `from config import USE_CUDA`
    return from_unseen_caller(facts, site, flag)


# A name that says it decides between the CPU and an accelerator (`use_cpu`, `args.cpu`).
CPU_WORD = re.compile(r"cpu", re.I)


def _device_parts(facts: ModuleFacts, scope: Scope, expr: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a device expression, not looking inside calls to another module's
    helper (``torch_utils.select_device(opt.device)``, ``setup_distributed(cfg)``): that
    helper decides, and may log. Calls to torch, builtins, this file's functions and
    methods of this file's objects (``cfg.get("device", ...)``) are looked into."""
    idx = index_of(facts)
    stack = [expr]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.Call):
            func = node.func
            while isinstance(func, (ast.Attribute, ast.Call, ast.Subscript)):
                func = func.value if not isinstance(func, ast.Call) else func.func
            head = func.id if isinstance(func, ast.Name) else None
            resolved = (dotted_name(node.func, facts.aliases) or "").split(".", 1)[0]
            local = head is not None and (
                head == "self" or head in facts.functions or head in _BUILTIN_NAMES
                or bool(idx.bindings(scope, head)) or bool(idx.bindings(facts.module, head)) or head in idx.parameters(scope)
            )
            if head is not None and not local and resolved not in ("torch", "jax"):
                continue
        stack.extend(child_nodes(node))


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


def _per_element_move(site: CallSite) -> bool:
    """The move is applied to a comprehension's own variable: a loop over a batch's parts."""
    receiver = site.receiver
    if not isinstance(receiver, ast.Name):
        return False
    for node in walk(site.stmt):
        if isinstance(node, _COMPREHENSIONS) and any(n is site.node for n in walk(node)):
            if any(receiver.id in {t.id for t in walk(g.target) if isinstance(t, ast.Name)} for g in node.generators):
                return True
    return False


# Names that conventionally hold a parsed command line (`from options import opt`).
COMMAND_LINE_NAME = re.compile(r"(cmd_?|cli_?|parsed_?)?(args|opts?|options|flags)$", re.I)


def _bound_to_a_project_object(facts: ModuleFacts, scope: Scope, name: str) -> bool:
    """``cfg = Config()`` with ``Config`` from the project's settings module: a conventional
    config name that holds values written in another file, not this run's options."""
    idx = index_of(facts)
    binds = idx.bindings(scope, name) or idx.bindings(facts.module, name)
    if not binds:
        # `from hparam import hparam as hp`: the settings module's object, its values
        # written in that other file; a parsed command line is still judged, and so is a
        # settings module itself (`import config` ... `config.DEVICE`, often the
        # `"cuda" if torch.cuda.is_available() else "cpu"` of its source).
        return (
            name in idx.own_module_imports and "." in facts.aliases.get(name, "")
            and not COMMAND_LINE_NAME.match(name)
        )
    for _, value in binds:
        if (
            isinstance(value, ast.Call) and (dotted_name(value.func) or "").endswith(("replace", "copy"))
            and value.args and isinstance(value.args[0], ast.Name) and value.args[0].id == name
        ):
            continue  # `cfg = replace(cfg, use_crops=args.use_crops)`: the same settings, one field changed
        if not isinstance(value, ast.Call) or not isinstance(value.func, ast.Name) or not value.func.id[:1].isupper():
            return False  # (`args = get_args()`: a project helper that parses the command line)
        if value.func.id not in idx.project_imports or value.func.id not in facts.aliases:
            return False
    return True


def _device_choice_visible(facts: ModuleFacts, site: CallSite, dev: ast.expr | None, depth: int = 4) -> bool:
    """Whether this file shows the placement being decided at run time: the device (or the
    ``if`` around a bare ``.cuda()``) derives, through names, ``self`` attributes, same-file
    functions and the arguments callers pass, from an availability test, a CPU branch, or
    a field of the run's command line or config (``args.device``, ``cfg["gpu"]``). Without
    one (a framework's device, a project helper's, a name imported from elsewhere) this file
    cannot tell whether the device can silently differ, and the rule is silent."""
    if _moves_a_data_parallel(facts, site):
        return True  # over however many GPUs are visible
    if isinstance(dev, ast.Name) and _asserted_accelerator(facts, site.scope, dev.id):
        return False  # `assert device.type == "cuda"`: a CPU fallback fails loudly
    idx = index_of(facts)
    names: set[str] | None = None  # the config names, worked out at the first field seen
    exprs: list[tuple[ast.AST, Scope, int]] = [(e, site.scope, depth) for e in _bare_cuda_deciders(facts, site) + _inline_choices(site)]
    if dev is not None:
        exprs.append((dev, site.scope, depth))
    seen: set[int] = set()
    saw_cpu = saw_choice = False  # a "cpu" value alone (`load(m, "cpu")`) is no choice
    while exprs:
        expr, scope, left = exprs.pop()
        if id(expr) in seen:
            continue
        seen.add(id(expr))
        follow: list[tuple[ast.AST, Scope, int]] = []
        for node in _device_parts(facts, scope, expr):
            if isinstance(node, (ast.IfExp, ast.BoolOp, ast.If)):
                saw_choice = True
            if isinstance(node, ast.Constant):
                if isinstance(node.value, str):
                    value = node.value.lower()
                    if value.startswith("cpu"):
                        saw_cpu = True  # `"cuda" if ... else "cpu"`
                    elif value.startswith(("cuda", "mps", "gpu", "xla", "tpu")):
                        saw_choice = True
                if saw_cpu and saw_choice:
                    return True
                continue
            if isinstance(node, ast.Call):
                name = dotted_name(node.func) or ""
                if name.endswith(("is_available", "device_count")):
                    return True
                fn = facts.functions.get(name) if isinstance(node.func, ast.Name) else None
                if fn is None and name.startswith("self.") and name.count(".") == 1 and scope.class_name:
                    fn = facts.functions.get(f"{scope.class_name}.{name[5:]}")  # `self.set_seed_and_device(...)`
                if fn is not None and left > 0:
                    follow += [(r.value, fn, left - 1) for r in walk(fn.node) if isinstance(r, ast.Return) and r.value is not None]
                continue
            if isinstance(node, (ast.Attribute, ast.Subscript)):
                text = dotted_name(node) or ""
                if names is None:
                    names = {n for n in config_names(facts) - {"self"} if not _bound_to_a_project_object(facts, scope, n)}
                if (root_name(node) in names or (text.startswith("self.") and text.count(".") >= 2 and text.split(".")[1] in names)) and (
                    DEVICE_DECISION_WORD.search(facts.segment(node) or "")
                ):
                    return True  # `args.device`, `cfg["gpu"]`, `self.args.device`: the command line or config chooses
                if CPU_WORD.search(text):
                    return True
                if left > 0 and text.startswith("self.") and text.count(".") == 1 and scope.class_name:
                    for other in facts.methods_of(scope.class_name):
                        follow += [(v, other, left - 1) for _, v in idx.bindings(other, text) if v is not None]
            elif isinstance(node, ast.Name):
                if CPU_WORD.search(node.id):
                    return True
                if left <= 0:
                    continue
                if node.id in idx.parameters(scope):
                    # (a parameter shadows the global of the same name: what the callers pass)
                    follow += [(v, call.scope, left - 1) for call, v in _param_values(facts, scope, node.id) if v is not None]
                    continue
                for holder in (scope, facts.module):
                    # (`rank, device = setup()`: an unpacked value is the whole call)
                    follow += [(v if v is not None else stmt.value, holder, left - 1) for stmt, v in idx.bindings(holder, node.id)
                               if v is not None or getattr(stmt, "value", None) is not None]
        exprs += follow
    return False


def _asserted_accelerator(facts: ModuleFacts, scope: Scope, name: str) -> bool:
    """``assert device.type == "cuda"`` (or ``assert torch.cuda.is_available()``) in the scope."""
    for info in facts.scope_stmts(scope):
        if isinstance(info.stmt, ast.Assert):
            text = facts.segment(info.stmt.test) or ""
            if "cuda" in text and (name in text or "is_available" in text):
                return True
    return False


def _scope_logs_placement(facts: ModuleFacts, scope: Scope, keys_and_wholes: tuple[set[str], set[str]]) -> bool:
    keys, wholes = keys_and_wholes
    idx = index_of(facts)
    evidence = idx.evidence(scope)
    if not evidence:
        return False
    # (word, pattern): the word is a cheap substring test before the pattern's search.
    patterns = [(k, mention_pattern(k)) for k in keys]
    patterns += [(w, whole_mention_pattern(w)) for w in wholes]
    for site in evidence:
        texts = idx.argument_texts(site)
        if is_log_call(facts, site):
            if any(PLACEMENT_LOG.search(t) for t in texts):
                return True
        # A same-module helper that logs and is handed the device (`log_env(device)`).
        if any(k in t and p.search(t) for k, p in patterns for t in texts):
            return True
        # `for key, value in vars(args).items(): mlflow.log_param(key, value)`: the
        # namespace holding the device is logged field by field.
        if wholes and site.loops and is_log_call(facts, site):
            for loop in site.loops:
                if isinstance(loop, (ast.For, ast.AsyncFor)):
                    iterated = facts.segment(loop.iter) or ""
                    if any(w in iterated and whole_mention_pattern(w).search(iterated) for w in wholes):
                        return True
    return False


def _origin_scopes(facts: ModuleFacts, site: CallSite, dev: ast.expr | None) -> list[Scope]:
    """Where the device a transfer uses was created: the binder of its name, or callers."""
    idx = index_of(facts)
    # A bare `.cuda()` under `if args.gpu >= 0:`: the condition decides the device.
    exprs = [dev] if dev is not None else _bare_cuda_deciders(facts, site)
    if not exprs:
        return []
    heads: set[str] = set()
    for node in (n for e in exprs for n in walk(e)):
        if isinstance(node, ast.Name):
            heads.add(node.id)
        elif isinstance(node, ast.Attribute):
            t = dotted_name(node)
            if t:
                heads.add(t)
    out: list[Scope] = []
    for head in heads:
        for scope in idx.binders.get(head, ()):
            if scope is site.scope or scope in out:
                continue
            # `self.device` bound in another method of the same class, or a module global.
            if scope.is_module or scope.class_name == site.scope.class_name or "." not in head:
                out.append(scope)
    if heads & idx.parameters(site.scope) or (
        # a module-global device (`DEVICE = ...` at the top): the caller may print it
        # before it runs this function (`print(f"Device: {DEVICE}"); train_fold(...)`)
        not site.scope.is_module
        and any("." not in h and idx.bindings(facts.module, h) and not idx.bindings(site.scope, h) for h in heads)
    ):
        out.extend(c.scope for c in idx.callers(site.scope) if c.scope not in out)
    return out


def _logged_by_a_sibling_method(facts: ModuleFacts, site: CallSite, dev_text: str | None) -> bool:
    """`self.criterion.to(self.args.device)` in __init__: the device belongs to the object,
    and the method that runs it may be where it is recorded (`train()`: "Training with gpu:
    ..."). Only a placement message or the device expression itself counts there, not any
    mention of `self.args`."""
    class_name = site.scope.class_name
    if not class_name or not dev_text or not dev_text.startswith("self."):
        return False
    idx = index_of(facts)
    strict_keys: tuple[set[str], set[str]] = ({dev_text}, set())
    for scope in facts.methods_of(class_name):
        if scope is not site.scope and idx.evidence(scope):
            if _scope_logs_placement(facts, scope, strict_keys):
                return True
    return False


def _bound_device_texts(facts: ModuleFacts, site: CallSite, dev: ast.expr | None, depth: int = 3) -> list[str]:
    """The device expression's text and, for a name, the texts of the values it was bound
    to before the call (``device = accelerator.device``), a few links back."""
    texts: list[str] = []
    idx = index_of(facts)
    line = site.node.lineno
    while dev is not None and depth > 0:
        texts.append(facts.segment(dev) or "")
        if not isinstance(dev, ast.Name):
            break
        bound = idx.binding(site.scope, dev.id, line)
        if bound is None and not site.scope.is_module:
            bound = idx.binding(facts.module, dev.id, line)
        if bound is None or bound is dev:
            break
        stmt_line = getattr(bound, "lineno", line)
        dev, line, depth = bound, stmt_line - 1, depth - 1
    return texts


def _literal_accelerator(facts: ModuleFacts, expr: ast.expr | None) -> bool:
    """``"cuda"``, ``"cuda:0"``, ``torch.device("cuda")``."""
    if isinstance(expr, ast.Call) and len(expr.args) == 1 and not expr.keywords:
        if not facts.vocabulary.matcher("device_factory").match(dotted_name(expr.func, facts.aliases) or ""):
            return False
        expr = expr.args[0]
    if (
        isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mod) and isinstance(expr.right, ast.Call)
        and (dotted_name(expr.right.func, facts.aliases) or "").endswith(("cuda.device_count", "accelerator.device_count"))
    ):
        return True  # `rank % torch.cuda.device_count()`: a CUDA device index, no CPU to fall back to
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Mod)):
        # `"cuda:" + str(rank)`, `"cuda:%d" % rank`
        text = expr.left.value if isinstance(expr.left, ast.Constant) and isinstance(expr.left.value, str) else ""
        if isinstance(expr.op, ast.Mod):
            text = text[:-2] if text.endswith(("%d", "%s", "%i")) else ""
        return ACCELERATOR_PREFIX.match(text) is not None
    if (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr == "format"
        and isinstance(expr.func.value, ast.Constant)
        and isinstance(expr.func.value.value, str)
    ):
        # `"cuda:{:d}".format(rank)`
        head, brace, rest = expr.func.value.value.partition("{")
        return bool(brace) and rest.endswith("}") and "{" not in rest and ACCELERATOR_PREFIX.match(head) is not None
    if isinstance(expr, ast.JoinedStr) and len(expr.values) == 2:
        expr = expr.values[0]
        return isinstance(expr, ast.Constant) and isinstance(expr.value, str) and ACCELERATOR_PREFIX.match(expr.value) is not None
    if isinstance(expr, ast.Constant) and isinstance(expr.value, int) and not isinstance(expr.value, bool):
        return True  # `.to(2)`, `torch.device(0)`: that CUDA device
    return isinstance(expr, ast.Constant) and isinstance(expr.value, str) and ACCELERATOR_STRING.match(expr.value) is not None


def _unconditional_cuda(facts: ModuleFacts, site: CallSite) -> bool:
    """``model.cuda()`` or ``model.cuda(rank)`` that runs whatever the machine has: no
    ``if`` around it, no flag deciding it, no ``x.cuda() if use_cuda else x``. Without a GPU
    it raises, so the run cannot quietly end up on the CPU (a ``.cuda()`` under
    ``if torch.cuda.is_available()`` can, and is judged); with an index, the index is the
    worker's rank or a recorded option."""
    if _bare_cuda_deciders(facts, site):
        return False
    if _moves_a_data_parallel(facts, site):
        return False  # `nn.DataParallel(net).cuda()`: over however many GPUs are visible
    return not _inline_choices(site)


def _moves_a_data_parallel(facts: ModuleFacts, site: CallSite) -> bool:
    """``nn.DataParallel(net).cuda()``: spread over however many GPUs are visible."""
    receiver = site.receiver
    return isinstance(receiver, ast.Call) and (dotted_name(receiver.func, facts.aliases) or "").endswith("DataParallel")


def _inline_choices(site: CallSite) -> list[ast.expr]:
    """The conditional expressions of the statement that hold the move
    (``x.cuda() if use_cuda else x``, ``use_cuda and model.cuda()``)."""
    return [
        parent for parent in walk(site.stmt)
        if isinstance(parent, (ast.IfExp, ast.BoolOp)) and any(n is site.node for n in walk(parent))
    ]


def _colocated_with_another_model(dev: ast.expr | None) -> bool:
    """``.to(self.model.device)``, ``.to(next(model.parameters()).device)``: placed next to
    a model (put there by ``device_map="auto"``, or by its own ``.to``), not on a device
    chosen here. ``self.device`` and ``args.device`` are choices, and are judged."""
    if not (isinstance(dev, ast.Attribute) and dev.attr == "device"):
        return False
    owner = dev.value
    if isinstance(owner, ast.Name):
        return owner.id != "self" and not CONFIG_OBJECT.match(owner.id) and MODEL_OWNER.search(owner.id) is not None
    if isinstance(owner, ast.Attribute):
        return not CONFIG_OBJECT.match(owner.attr) and MODEL_OWNER.search(owner.attr) is not None
    if isinstance(owner, ast.Call):  # next(model.parameters())
        return (dotted_name(owner.func) or "") == "next"
    return False


MODEL_OWNER = re.compile(r"model|net|encoder|decoder|backbone|policy|actor|critic|generator|transformer|llm|lm\b", re.I)


def _transfers_in(facts: ModuleFacts, scope: Scope) -> list[CallSite]:
    """The device transfers of one scope, in source order (indexed once per file: a long
    script moves hundreds of models, and each move asks about its own scope's)."""
    by_scope = getattr(facts, "_dllog_transfers_by_scope", None)
    if by_scope is None:
        by_scope = {}
        for t in facts.calls_in("device_transfer"):
            by_scope.setdefault(id(t.info.scope), []).append(t)
        facts._dllog_transfers_by_scope = by_scope  # type: ignore[attr-defined]
    return by_scope.get(id(scope), [])


def _also_sent_to_a_fixed_accelerator(facts: ModuleFacts, site: CallSite, model: ast.expr | None) -> bool:
    """The same model is also moved, in this scope and unconditionally, to a literal
    accelerator (``model.to("cuda")``, ``model.cuda()``): no CPU fallback is left."""
    name = dotted_name(model) if isinstance(model, (ast.Name, ast.Attribute)) else None
    if name is None:
        return False
    for other in _transfers_in(facts, site.scope):
        if other is site or other.loops or _guarding_conditions(other):
            continue
        receiver = other.receiver
        if not isinstance(receiver, (ast.Name, ast.Attribute)) or dotted_name(receiver) != name:
            continue
        if other.method == "cuda":
            if _unconditional_cuda(facts, other):
                return True
        else:
            # (`device = torch.device("cuda")` ... `model.to(device)`: the name is resolved)
            device = _device_of(facts, other)
            if isinstance(device, ast.expr) and _fixed_literal_device(facts, other, device):
                return True
    return False


def _something_else_sent_to_cuda_unconditionally(facts: ModuleFacts, site: CallSite) -> bool:
    """``if torch.cuda.is_available(): model.cuda()``, then ``x = x.cuda()`` for every
    batch with no ``if``: without a GPU the run crashes, it cannot quietly fall back. (In
    one function: a notebook's top level may train on the CPU and only crash at a later
    inference cell.)"""
    if site.scope.is_module:
        return _cuda_required_before_the_work(facts, site)
    if any(
        other is not site and other.method == "cuda" and other.receiver is not None
        and not _guarding_conditions(other) and _unconditional_cuda(facts, other)
        for other in _transfers_in(facts, site.scope)
    ):
        return True
    # ... or `torch.cuda.synchronize()`, `torch.cuda.ByteTensor(n)`, or data loaded with
    # `map_location="cuda:0"`, with no `if` or `try` around them: they raise without a GPU
    # (and a script's main block: `torch.cuda.set_device(args.local_rank)` before main() runs)
    # (also in a same-file helper the function calls with no `if` around the call:
    # `noise = noise_like(x)`, `def noise_like(x): return torch.cuda.FloatTensor(...)`)
    helpers = {
        c.target.qualname for c in site.scope.calls
        if c.target is not None and c.target is not site.scope and _runs_whatever_the_machine(c)
        # (not `def estimate_peak(d): if not torch.cuda.is_available(): return ...`)
        and not AVAILABILITY_TEST.search(facts.segment(c.target.node) or "")
    }
    required = [
        c for c in facts.calls_in("cuda_required")
        if c.scope is site.scope or _in_main_block(c) or (c.scope.qualname in helpers and _runs_whatever_the_machine(c))
    ]
    required += [
        c for c in facts.calls_in("load")
        if c.scope is site.scope and _literal_accelerator(facts, c.kwarg("map_location"))
    ]
    # `dist.init_process_group(backend="nccl")`: NCCL runs on GPUs only
    required += [
        c for c in site.scope.calls
        if c.method == "init_process_group" and _nccl_backend(c.arg(0, "backend"))
    ]
    return any(_runs_whatever_the_machine(c) for c in required)


def _cuda_required_before_the_work(facts: ModuleFacts, site: CallSite) -> bool:
    """A script's top level: ``if torch.cuda.is_available(): net.cuda()``, then
    ``preds = torch.FloatTensor().cuda()`` with no ``if``, before the first loop that
    follows: a CPU-only run crashes before doing any work, it cannot quietly fall back.
    (A ``.cuda()`` only after that loop may come after a whole CPU run: still judged.)"""
    if "# %%" in (facts.text or "") or "# In[" in (facts.text or ""):
        return False  # notebook cells run one by one: the later cell may never be run
    first_loop = min(
        (info.stmt.lineno for info in facts.scope_stmts(site.scope)
         if isinstance(info.stmt, LOOP_TYPES) and info.stmt.lineno > site.node.lineno),
        default=None,
    )
    return any(
        other is not site and other.method == "cuda" and other.receiver is not None and not other.loops
        and site.node.lineno < other.node.lineno < (first_loop or 10**9)
        and _runs_whatever_the_machine(other) and _unconditional_cuda(facts, other)
        for other in _transfers_in(facts, site.scope)
    )


def _nccl_backend(expr: ast.expr | None) -> bool:
    return isinstance(expr, ast.Constant) and isinstance(expr.value, str) and expr.value.lower() == "nccl"


def _in_main_block(site: CallSite) -> bool:
    """A module-level call under ``if __name__ == "__main__":``."""
    if not site.scope.is_module:
        return False
    info = site.info.parent
    while info is not None and info.scope is site.scope:
        if isinstance(info.stmt, ast.If) and is_main_guard(info.stmt.test):
            return True
        info = info.parent
    return False


def _runs_whatever_the_machine(site: CallSite) -> bool:
    """No ``if`` (other than the main guard), ``try`` or inline choice around the call in its scope."""
    info = site.info
    while info is not None and info.scope is site.scope:
        stmt = info.stmt
        if isinstance(stmt, ast.Try) or (isinstance(stmt, ast.If) and not is_main_guard(stmt.test)):
            return False
        info = info.parent
    return not _inline_choices(site)


def _training_step_hard_wired_to_cuda(facts: ModuleFacts) -> bool:
    """A function that backpropagates also sends its inputs to a literal accelerator, with no
    ``if`` (``state = batch[0].to("cuda")``, ``torch.tensor(y, device="cuda")``): the run
    cannot quietly fall back to the CPU, whatever device the model was given. (Functions
    only: a notebook's top level may train on the CPU and crash only at a later cell.)"""
    found = getattr(facts, "_dllog_step_on_cuda", None)
    if found is None:
        steps = {c.scope for c in facts.calls_in("training_backward") if not c.scope.is_module}
        found = facts._dllog_step_on_cuda = any(  # type: ignore[attr-defined]
            _sent_to_a_literal_accelerator(facts, call) and not _guarding_conditions(call)
            for scope in steps for call in scope.calls
        )
    return found


def _sent_to_a_literal_accelerator(facts: ModuleFacts, call: CallSite) -> bool:
    """``x.cuda()`` (no ``if`` deciding it), ``x.to("cuda")``, ``torch.zeros(n, device="cuda")``."""
    if call.method == "cuda" and call.receiver is not None and _unconditional_cuda(facts, call):
        return True
    if call.method == "to" and call.node.args and _literal_accelerator(facts, call.node.args[0]):
        return True
    device = call.kwarg("device")
    return device is not None and _literal_accelerator(facts, device)


def _made_by_a_project_helper(facts: ModuleFacts, site: CallSite, dev: ast.expr | None) -> bool:
    """``device = utils.setup_gpu()``: every value of the device name is made by a helper
    imported from the project's own modules, whose body (and log) this file cannot see."""
    if not isinstance(dev, ast.Name):
        return False
    idx = index_of(facts)
    binds = idx.bindings(site.scope, dev.id) or (idx.bindings(facts.module, dev.id) if not site.scope.is_module else [])
    if not binds:
        return False
    for _, value in binds:
        if not isinstance(value, ast.Call):
            return False
        call = facts.site_of(value)
        if call is None or call.target is not None or not is_project_helper(facts, call):
            return False
    return True


def _placed_before(facts: ModuleFacts, site: CallSite, receiver: ast.expr | None, dev_text: str | None) -> bool:
    """``model = DDP(model, device_ids=[rank]).to(device)`` after ``model.to(device)``:
    the model already went to that device, and that earlier move is what is judged."""
    if dev_text is None:
        return False
    if isinstance(receiver, ast.Call) and receiver.args:
        receiver = receiver.args[0]  # the wrapped model
    moved = dotted_name(receiver) if isinstance(receiver, (ast.Name, ast.Attribute)) else None
    if moved is None:
        return False
    for earlier in _transfers_in(facts, site.scope):
        if earlier.node.lineno >= site.node.lineno:
            break
        if earlier.loops:
            continue
        dev = _device_of(facts, earlier)
        if not isinstance(dev, ast.expr) or facts.segment(dev) != dev_text:
            continue
        target = _assigned_target(earlier)
        names = {dotted_name(n) for n in (target, earlier.receiver) if isinstance(n, (ast.Name, ast.Attribute))}
        if moved in names:
            return True
    return False


def _judged_at_callers(facts: ModuleFacts, site: CallSite, dev: ast.expr | None) -> bool:
    """``def load_autoencoder(ckpt, device): ae.to(device)`` called only as
    ``load_autoencoder(ckpt, device)`` by functions that move their own model to that
    ``device``: the placement is judged (and reported, or not) there, once. Or called as
    ``get_model(args.device)`` by a caller that records ``args`` whole."""
    if not isinstance(dev, ast.Name) or site.scope.is_module:
        return False
    values = _param_values(facts, site.scope, dev.id)
    if not values:
        return False
    for call, value in values:
        if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name):
            # `get_model(args.device)` where the caller's `args` is recorded whole
            if logs_mention(facts, call.scope, (set(), {value.value.id})):
                continue
            return False
        if not isinstance(value, ast.Name):
            return False
        if not any(
            isinstance(d := _device_of(facts, other), ast.Name) and d.id == value.id
            for other in _transfers_in(facts, call.scope)
        ) and not _chosen_and_logged_by(facts, call, value):
            return False
    return True


def _chosen_and_logged_by(facts: ModuleFacts, call: CallSite, value: ast.Name) -> bool:
    """``device = torch.device("cuda" if not args.no_cuda else "cpu")``, ``print(args)``,
    then ``model = setup(device)``: the caller chooses the device and its log records the
    choice, as it would if the move were written there."""
    bound = index_of(facts).binding(call.scope, value.id, call.node.lineno)
    if bound is None:
        return False
    keys: set[str] = {value.id}
    wholes: set[str] = set()
    _add_device_names(bound, keys, wholes)
    return _scope_logs_placement(facts, call.scope, (keys, wholes))


def _fixed_literal_device(facts: ModuleFacts, site: CallSite, dev: ast.expr) -> bool:
    """A device written as a literal, unconditionally: like a literal seed, the source
    says where the run goes, and without that accelerator it fails instead of quietly
    running on the CPU. (An unconditional ``.cuda()``: see _unconditional_cuda.)"""
    # (`if num_gpus > 1:` picks among GPUs; `if not args.use_accelerate:` picks who places
    # the model, not where: neither can send it to the CPU)
    if not all(
        _picks_among_gpus(facts, test) or not _may_decide_the_device(facts, site, test)
        for test in _guarding_conditions(site)
    ):
        return False
    if _literal_accelerator(facts, dev):
        return True
    if isinstance(dev, ast.Attribute) and isinstance(dev.value, ast.Name):
        return _field_set_to_a_literal_accelerator(facts, site.scope, dev.value.id, dev.attr)
    if not isinstance(dev, ast.Name):
        return False
    idx = index_of(facts)
    binds = idx.bindings(site.scope, dev.id) or (idx.bindings(facts.module, dev.id) if not site.scope.is_module else [])
    if not binds:
        return _literal_default_never_passed(facts, site.scope, dev.id)
    for hop in range(2):
        if len(binds) != 1:
            return False
        stmt, value = binds[0]
        info = facts.info(stmt)
        if info is None or _tests_around(info.parent, info.scope):
            return False  # bound under an `if`: a choice made at run time
        if _literal_accelerator(facts, value):
            return True
        if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name):
            # `device = args.device` with `args.device = "cuda"` set by the caller
            return _field_set_to_a_literal_accelerator(facts, info.scope, value.value.id, value.attr)
        # `device_str = "cuda:" + str(args.gpu); device = torch.device(device_str)`
        if hop or not (isinstance(value, ast.Call) and len(value.args) == 1 and isinstance(value.args[0], ast.Name)):
            return False
        if not facts.vocabulary.matcher("device_factory").match(dotted_name(value.func, facts.aliases) or ""):
            return False
        name = value.args[0].id
        binds = idx.bindings(info.scope, name) or (idx.bindings(facts.module, name) if not info.scope.is_module else [])
    return False


# A count of GPUs or workers (`num_gpus`, `torch.cuda.device_count()`, `len(args.gpu_ids)`, `world_size`).
GPU_COUNT_WORD = re.compile(r"gpu|device_count|world_size|n_?devices", re.I)


def _picks_among_gpus(facts: ModuleFacts, test: ast.expr) -> bool:
    """``if num_gpus > 1:`` (``>= 2``) around ``DDP(model, device_ids=[rank]).to(device)``:
    the test chooses between one GPU and several, and the CPU is not among the choices."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.comparators[0], ast.Constant)):
        return False
    op, bound = test.ops[0], test.comparators[0].value
    if not ((isinstance(op, ast.Gt) and bound == 1) or (isinstance(op, ast.GtE) and bound == 2)):
        return False
    return GPU_COUNT_WORD.search(facts.segment(test.left) or "") is not None


def _sole_unconditional_value(facts: ModuleFacts, scope: Scope, name: str, *, module_too: bool = False) -> ast.expr | None:
    """The value of ``name``'s only binding in ``scope`` (with ``module_too``, in the module
    when ``scope`` never binds it), when no ``if`` in its scope decides it."""
    idx = index_of(facts)
    binds = idx.bindings(scope, name)
    if not binds and module_too and not scope.is_module:
        binds = idx.bindings(facts.module, name)
    if len(binds) != 1:
        return None
    stmt, value = binds[0]
    info = facts.info(stmt)
    return value if info is not None and not _tests_around(info.parent, info.scope) else None


def _field_set_to_a_literal_accelerator(facts: ModuleFacts, scope: Scope, holder: str, field: str) -> bool:
    """``args.device = "cuda"`` set once, unconditionally, in this scope, or by every
    same-module caller on the object it passes as ``holder`` (``def train(args): ...
    .to(args.device)`` called as ``args.device = "cuda"; train(args)``)."""

    def literal_in(in_scope: Scope, name: str) -> bool:
        value = _sole_unconditional_value(facts, in_scope, name)
        return value is not None and _literal_accelerator(facts, value)

    if literal_in(scope, f"{holder}.{field}"):
        return True
    if scope.is_module:
        return False
    values = _param_values(facts, scope, holder)
    return bool(values) and all(
        isinstance(value, ast.Name) and literal_in(call.scope, f"{value.id}.{field}") for call, value in values
    )


def _literal_default_never_passed(facts: ModuleFacts, scope: Scope, param: str) -> bool:
    """``def save_sample_spec(cfg, batch, device="cuda")`` that every caller in this file
    calls without a device: the literal default is the device (and with no caller here,
    the caller outside is judged where it passes one)."""
    node = scope.node
    if not isinstance(node, FUNC_TYPES):
        return False
    args = node.args
    positional = args.posonlyargs + args.args
    default = None
    index = None
    for i, arg in enumerate(positional):
        if arg.arg == param:
            first_default = len(positional) - len(args.defaults)
            if i >= first_default:
                default, index = args.defaults[i - first_default], i
    for arg, kw_default in zip(args.kwonlyargs, args.kw_defaults):
        if arg.arg == param:
            default = kw_default
    if default is None or not _literal_accelerator(facts, default):
        return False
    callers = index_of(facts).callers(scope)
    if not callers:
        return False  # from_unseen_caller() decides: the callers are elsewhere
    offset = 1 if scope.class_name and positional and positional[0].arg in ("self", "cls") else 0
    for call in callers:
        node_call = call.node
        if any(kw.arg == param or kw.arg is None for kw in node_call.keywords):
            return False
        if any(isinstance(a, ast.Starred) for a in node_call.args):
            return False
        if index is not None and len(node_call.args) + offset > index:
            return False
    return True


def _globals_overridden_by_exec(facts: ModuleFacts) -> bool:
    """nanoGPT's ``exec(open("configurator.py").read())``: module globals rebound by code
    this file does not show (and which prints its overrides)."""
    for site in facts._calls_by_name.get("exec", ()):
        if site.scope is facts.module and "open(" in (facts.segment(site.node) or ""):
            return True
    return False


def _reads_module_global(facts: ModuleFacts, site: CallSite, dev: ast.expr | None) -> bool:
    if dev is None:
        return True  # a bare `.cuda()`: whatever decides it is module-level configuration
    module_names = index_of(facts).assignments(facts.module)
    return any(isinstance(n, ast.Name) and n.id in module_names for n in walk(dev))


def _module_global_device(facts: ModuleFacts, site: CallSite, dev: ast.expr | None) -> str | None:
    """``device`` when the move reads the module-level ``device`` (not a local or a parameter
    of the same name)."""
    if not isinstance(dev, ast.Name) or site.scope.is_module:
        return dev.id if isinstance(dev, ast.Name) and dev.id in index_of(facts).assignments(facts.module) else None
    idx = index_of(facts)
    if dev.id in idx.parameters(site.scope) or idx.bindings(site.scope, dev.id):
        return None
    return dev.id if dev.id in idx.assignments(facts.module) else None


def _inference_only(facts: ModuleFacts) -> bool:
    """A predict/sample/serve script: it puts the model in eval mode and neither trains nor
    computes a metric. Which device one prediction ran on is nothing a later run is
    compared with. (A snippet that only builds and moves a model is still judged.)"""
    return (
        # eval mode, `with torch.no_grad():` / `inference_mode()`, or `model.generate(...)`
        # (a Hugging Face model comes back from from_pretrained in eval mode), or the
        # project's own `inference.model_inference(model, loader)` (eval mode is in there)
        bool(
            facts.calls_in("eval_mode_call") or facts.calls_in("eval_context") or calls_named_ending(facts, ".generate", in_order=False)
            or _handed_to_a_project_predictor(facts)
        )
        # (this file's own `inference_fn(...)` matches `*_fn` but is no metric)
        # (`sample_fn = diffusion.p_sample_loop`: a `*_fn` that is no loss or metric)
        and not any(
            c.target is None and (not (c.name or "").endswith("_fn") or is_metric_call(facts, c)) and not _scores_stored_results(facts, c)
            for c in facts.calls_in("metric_call")
        )
        and not is_training_module(facts)
    )


# Reads of results written by an earlier run (out-of-fold predictions, a results table).
STORED_RESULTS_READ = re.compile(r"(^|\.)(read_csv|read_parquet|read_pickle|read_feather|read_json|read_excel)$")


def _scores_stored_results(facts: ModuleFacts, site: CallSite) -> bool:
    """``roc_auc_score(oof["target"], oof["pred"])`` after ``oof = pd.read_csv("oof.csv")``:
    a submission notebook re-scoring the predictions its training run stored, not this
    model's outputs."""
    idx = index_of(facts)
    roots = {root_name(a) for a in [*site.node.args, *(k.value for k in site.node.keywords)]}
    if not roots or None in roots:
        return False
    for root in roots:
        binds = idx.bindings(site.scope, root) or idx.bindings(facts.module, root)
        if not binds or not all(
            isinstance(value, ast.Call) and STORED_RESULTS_READ.search(dotted_name(value.func, facts.aliases) or "")
            for _, value in binds
        ):
            return False
    return True


PREDICTOR_NAME = re.compile(r"infer|predict|segment|detect|generate|sample|demo", re.I)


def _handed_to_a_project_predictor(facts: ModuleFacts) -> bool:
    """A helper imported from the project, named for prediction, run on the model."""
    return any(
        PREDICTOR_NAME.search((c.name or "").rsplit(".", 1)[-1]) and c.target is None and is_project_helper(facts, c)
        and any(isinstance(a, ast.Name) and (a.id == "net" or "model" in a.id.lower()) for a in c.node.args)
        for c in facts.calls
    )


def _inspection_only(facts: ModuleFacts) -> bool:
    """``summary(Net().to(device), (3, 32, 32))``: a script that prints the architecture,
    and neither trains, loads weights nor measures anything; its output is the same on
    any device."""
    if "summary" not in facts.text or is_training_module(facts) or facts.calls_in("load"):
        return False
    if any(c.target is None and is_metric_call(facts, c) for c in facts.calls_in("metric_call")):
        return False
    return any((c.name or "").rsplit(".", 1)[-1] == "summary" for c in facts.calls)


SYNTHETIC_INPUT = re.compile(r"^(?:torch|numpy|tensorflow|jax\.numpy)(?:\.random)?\.(?:rand|randn|randint|zeros|ones|empty|normal|uniform)(?:_like)?$")


def _smoke_test(facts: ModuleFacts, site: CallSite) -> bool:
    """``if __name__ == "__main__": net = Net().to(device); print(net(torch.rand(1, 3, 64)))``:
    a shape check of the module's model on made-up input. It neither trains, nor loads
    weights, nor measures anything; there is no run whose placement matters."""
    guard = facts.main_guard
    if guard is None or not (guard.lineno <= site.node.lineno <= (guard.end_lineno or guard.lineno)):
        return False
    if not site.scope.is_module:
        return False
    start, end = guard.lineno, guard.end_lineno or guard.lineno
    synthetic = False
    for call in facts.module.calls:
        if not start <= call.node.lineno <= end:
            continue
        name = call.name or ""
        if call.target is not None:
            return False  # runs this file's own functions (a training `main()`?): judged
        for category in ("training_update", "self_logging_loop", "load", "metric_call", "save"):
            if facts.is_category(call, category):
                return False
        if SYNTHETIC_INPUT.match(name):
            synthetic = True
    return synthetic


def _handed_to_hf_trainer(facts: ModuleFacts, site: CallSite, model: ast.expr | None) -> bool:
    """``model = Wav2Vec2ForCTC.from_pretrained(name).to(device)`` then
    ``Trainer(model=model, ...)``: the Hugging Face Trainer moves the model to the device its
    TrainingArguments choose (and `fp16=True` fails on a CPU), so this `.to()` decides nothing."""
    name = dotted_name(model) if isinstance(model, (ast.Name, ast.Attribute)) else None
    if name is None:
        return False  # (`self.model = ...to(self.device)`, then `SFTTrainer(model=self.model)`: by its dotted name)
    return any(
        given == name and (anywhere or line >= site.node.lineno)
        for line, anywhere, given in _model_handoffs(facts, site.scope)
    )


def _model_handoffs(facts: ModuleFacts, scope: Scope) -> list[tuple[int, bool, str]]:
    """(line, counts before it too, model name) of each call in ``scope`` that takes over
    placing a model: HF/TRL Trainers, Fabric/DeepSpeed setup, the file's LightningModule.
    Worked out once per scope: every model move in a big scope asks."""
    cache = getattr(facts, "_dllog_model_handoffs", None)
    if cache is None:
        cache = facts._dllog_model_handoffs = {}  # type: ignore[attr-defined]
    found = cache.get(id(scope))
    if found is not None:
        return found
    found = cache[id(scope)] = []
    for call in scope.calls:
        name = call.name or ""
        if name.startswith(("transformers.", "trl.")) and name.endswith("Trainer"):
            given, anywhere = call.kwarg("model"), True
        elif name.endswith(("fabric.setup", "Fabric.setup", "fabric.setup_module")) or name == "deepspeed.initialize":
            # Lightning Fabric and DeepSpeed then move the model to the device they manage
            given, anywhere = call.kwarg("model") or call.kwarg("module"), False
        elif _lightning_module_class(facts, name):
            # `Module(model)` of the file's LightningModule: the Lightning Trainer places it
            # (and logs "GPU available: ..., used: ...")
            given, anywhere = call.kwarg("model"), False
        else:
            continue
        if given is None and call.node.args:
            given = call.node.args[0]
        given_name = dotted_name(given) if isinstance(given, (ast.Name, ast.Attribute)) else None
        if given_name:
            found.append((call.node.lineno, anywhere, given_name))
    return found


def _lightning_module_class(facts: ModuleFacts, name: str) -> bool:
    methods = facts.methods_of(name) if "." not in name else ()
    return bool(methods) and any(b.endswith("LightningModule") for b in methods[0].class_bases)


@rule("DLL400")
def unlogged_device_placement(facts: ModuleFacts, config: Config) -> Iterator[Report]:
    if not facts.calls_in("device_transfer") or not is_dl_module(facts) or _inference_only(facts) or _inspection_only(facts):
        return
    reported: set[int] = set()
    by_global: dict[str, tuple[CallSite, dict]] = {}
    reported_attributes: set[tuple[str, str]] = set()
    scopes_logging: dict[tuple[frozenset, frozenset], list[Scope]] = {}
    idx = index_of(facts)
    for site in facts.calls_in("device_transfer"):  # in source order
        if site.loops or id(site.scope) in reported:
            continue  # tensors move inside loops; placement is recorded once per scope
        if idx.is_test_scope(site.scope):
            continue
        dev = _device_of(facts, site)
        if dev is None or _smoke_test(facts, site):
            continue
        receiver = site.receiver
        target = _assigned_target(site)
        if not (_is_model(facts, site, receiver) or (target is not None and _is_model_name(target))):
            continue
        if _made_as_tensor(facts, receiver):
            continue
        model_node = target if target is not None else receiver  # the model, as the code names it
        if _handed_to_hf_trainer(facts, site, model_node):
            continue  # the Trainer places the model itself and logs its device setup
        dev_expr = dev if isinstance(dev, ast.expr) else None
        dev_text = facts.segment(dev_expr) if dev_expr is not None else None
        if dev_text is not None and any(framework_device(t) for t in _bound_device_texts(facts, site, dev_expr)):
            continue  # the launcher/framework chose the device (accelerate, Fabric, Lightning)
        if _colocated_with_another_model(dev_expr):
            continue  # `head.to(self.model.device)`: that model's placement is where it is judged
        if site.method == "cuda" and site.receiver is not None and _unconditional_cuda(facts, site):
            continue  # `model.cuda()` with no `if`: as `.to("cuda")`, it fails rather than runs on the CPU
        if dev_expr is not None and _fixed_literal_device(facts, site, dev_expr):
            continue  # `.to("cuda")`: spelled out in the source, no silent fallback to CPU
        if _placed_before(facts, site, receiver, dev_text) or _judged_at_callers(facts, site, dev_expr):
            continue
        if _also_sent_to_a_fixed_accelerator(facts, site, model_node):
            continue  # `model.to(device)` ... `model.to("cuda")`: it runs there or fails
        if _something_else_sent_to_cuda_unconditionally(facts, site) or (
            _training_step_hard_wired_to_cuda(facts) and not _moves_a_data_parallel(facts, site)
            # (how many GPUs DataParallel spreads over; DistributedDataParallel has one per process)
            and not any((c.name or "").endswith("DataParallel") and not (c.name or "").endswith("DistributedDataParallel") for c in site.scope.calls)
        ):
            continue  # `x = x.cuda()` for every batch: on a CPU-only machine it crashes
        if _globals_overridden_by_exec(facts) and _reads_module_global(facts, site, dev_expr):
            continue  # `exec(open("configurator.py").read())` may rebind it: cannot tell
        if any(b.endswith("LightningModule") for b in site.scope.class_bases):
            continue  # the Trainer moves the module itself and logs "GPU available: ..., used: ..."
        if _visible_devices_recorded(facts, site, bare=dev is True):
            continue  # `os.environ["CUDA_VISIBLE_DEVICES"] = args.gpu` with `args` recorded
        if _made_by_a_project_helper(facts, site, dev_expr):
            continue  # `device = utils.setup_gpu()`: the project's helper picks it (and may print it)
        if _star_imported(facts, site, dev_expr):
            continue  # `from dcgan import *` brings `device` (and maybe its log): cannot tell
        if from_unseen_caller(facts, site, dev_expr) or _constructor_argument(facts, site, dev_expr) or _inherited_device(facts, site, dev_expr):
            continue  # the device is chosen by a caller outside this file
        if _moves_a_callers_model(facts, site, receiver):
            continue
        # A scope without evidence calls (see _scope_logs_placement) logs no placement:
        # the device's keys are worked out only once a scope has some.
        keys = None
        if idx.evidence(site.scope):
            keys = _device_keys(facts, site, dev_expr)
            if _scope_logs_placement(facts, site.scope, keys):
                reported.add(id(site.scope))  # the scope records its placement: nothing to report
                continue
        logged_at_origin = False
        for origin in _origin_scopes(facts, site, dev_expr):
            if not idx.evidence(origin):
                continue
            if keys is None:
                keys = _device_keys(facts, site, dev_expr)
            if _scope_logs_placement(facts, origin, keys):
                logged_at_origin = True
                break
        if logged_at_origin or _logged_by_a_sibling_method(facts, site, dev_text):
            reported.add(id(site.scope))
            continue
        if keys is None:
            keys = _device_keys(facts, site, dev_expr)
        if _config_kept_whole(facts, site, keys[1]) or _shown_by_a_notebook_cell(facts, keys[0]):
            reported.add(id(site.scope))
            continue
        if not _device_choice_visible(facts, site, dev_expr):
            continue  # no availability test, CPU branch or run option decides it: cannot tell
        if _per_element_move(site):
            continue  # `[d.to(self.device) for d in data]`: a batch's tensors, one by one
        shared = _module_global_device(facts, site, dev_expr)
        if shared is not None:
            # `DEVICE = torch.device(...)` at the top, used by `train()`, `evaluate()` and
            # `__main__`: one choice, and a log of it in any function records it. (The
            # scopes that log it are found once per set of keys, not once per move.)
            memo_key = (frozenset(keys[0]), frozenset(keys[1]))
            logging_scopes = scopes_logging.get(memo_key)
            if logging_scopes is None:
                logging_scopes = scopes_logging[memo_key] = [
                    scope for scope in facts.scopes if idx.evidence(scope) and _scope_logs_placement(facts, scope, keys)
                ]
            if any(scope is not site.scope for scope in logging_scopes):
                continue
        if shared is None and site.scope.class_name and dev_text and dev_text.startswith("self.") and dev_text.count(".") == 1:
            # `self.device`, chosen once in `__init__` and used by `train()` and `evaluate()`:
            # one finding per class, at its first move (whose log its sibling methods count)
            if (site.scope.class_name, dev_text) in reported_attributes:
                continue
            reported_attributes.add((site.scope.class_name, dev_text))
        reported.add(id(site.scope))
        model_text = facts.segment(model_node) if model_node is not None else None
        if dev_expr is not None:
            device_text = facts.segment(dev_expr)
        elif model_text and isinstance(model_node, (ast.Name, ast.Attribute)):
            device_text = f"next({model_text}.parameters()).device"
        else:
            device_text = '"cuda"'
        ctx = {
            "rule": "DLL400",
            "anchor": "after",
            "anchor_line": site.stmt.lineno,
            "scope": site.scope.qualname,
            "class_bases": list(site.scope.class_bases),
            "device": device_text,
            "model": model_text,
            "call": site.name,
        }
        if shared is None:
            yield site_report(site, ctx)
        elif shared not in by_global or (site.scope.is_module and not by_global[shared][0].scope.is_module):
            # one finding per module-level device: at the top-level move (where it is chosen
            # and the run starts) if there is one, else at the first
            by_global[shared] = (site, ctx)
    for site, ctx in sorted(by_global.values(), key=lambda found: found[0].node.lineno):
        yield site_report(site, ctx)
