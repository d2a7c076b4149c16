"""Detectors for the configuration rules (DLL600), and the shared question "is this
configuration object recorded anywhere?" that the seed rule (DLL501) asks too.

A configuration is *loaded* by an argparse parse, a YAML/JSON/TOML load of a config-like
file, OmegaConf, ``hydra.compose``, a yacs/detectron2 ``get_cfg``/``merge_from_file``, or
a same-module helper that returns one of those (``args = get_args()``).

It is *recorded* when the whole object reaches a log call (``print(args)``,
``logger.info(vars(args))``, ``OmegaConf.to_yaml(cfg)``…), a tracker's record call
(``wandb.init(config=...)``, ``mlflow.log_params``, ``save_hyperparameters``), a checkpoint
save or a file write, or an imported helper whose name says it records (``save_args``,
``default_setup``); or when two or more of its fields are logged (the author chose what
to record). The object is followed through plain copies (``cfg = vars(args)``), into
same-module functions that receive it, and onto ``self.<attr>``.

``@hydra.main`` configs are recorded by Hydra itself (``.hydra/config.yaml`` in the run
directory), so they are never DLL600 findings.
"""
from __future__ import annotations

import ast
import re
from bisect import bisect_left
from dataclasses import dataclass
from typing import Iterable, Iterator

from ..config import Config
from ..facts import FUNC_TYPES, SCALAR_FIELDS, CallSite, ModuleFacts, Scope, dotted_name, own_expressions, walk
from . import Report, rule
from .training import calls_named_ending, is_training_module
from .saving import _BUILTIN_NAMES, _returns_what_it_records, dict_items, index_of

# Names that conventionally hold a run's configuration (used when the load is not in this
# file: `def main(args): torch.manual_seed(args.seed)`).
CONVENTIONAL_CONFIG_NAMES = frozenset(
    {
        "args", "opt", "opts", "options", "cfg", "config", "conf", "hparams", "hps", "hp",
        "hyperparams", "hyperparameters", "params", "flags", "FLAGS", "training_args",
        "train_args", "script_args", "model_args", "data_args", "run_args", "arguments",
        "parsed_args", "cli_args",
    }
)
# Attribute accesses that still stand for the whole object (`args.__dict__`, `cfg.dump()`).
WHOLE_ATTRS = frozenset(
    {
        "__dict__", "_get_kwargs", "pretty", "dump", "dumps", "to_dict", "to_yaml", "to_json", "to_json_string",
        "items", "to_container", "_asdict", "as_dict", "asdict", "model_dump", "__repr__", "__str__", "to_sanitized_dict",
        "to_diff_dict", "flags_into_string", "flag_values_dict", "to_json_string",
        # a settings class's own text of itself (`writer.add_text("config", cfg.markdown())`)
        "markdown", "to_markdown", "str", "to_str", "to_string", "pretty_text",
    }
)
# Methods by which a config object writes itself out (`FLAGS.append_flags_into_file(path)`,
# `config.save_pretrained(out)`, yacs `cfg.dump(stream=f)`).
SELF_RECORDING_METHODS = frozenset(
    {"append_flags_into_file", "save", "save_pretrained", "to_json_file", "dump", "to_yaml_file", "save_yaml", "to_file"}
)
# Calls that turn a config into another representation of the same config.
CONVERTERS = frozenset(
    {
        "vars", "dict", "deepcopy", "copy", "str", "repr", "pformat", "asdict", "to_container",
        "to_yaml", "to_object", "dumps", "dump", "safe_dump", "join", "format", "create",
        "merge", "structured", "namespace_to_dict", "OrderedDict", "EasyDict", "edict",
        "Namespace", "AttrDict", "DictConfig",
    }
)
# Imported helpers whose name says they record what they are given.
RECORDING_NAME = re.compile(
    r"log|record|report|track|summar|print|display|show|table|dump|save|write|setup|wandb|mlflow|"
    r"tensorboard|neptune|comet|clearml|experiment|hparam",
    re.I,
)
# A project helper that shows what it is given (`simple_table([("LR", lr), ...])`, `print_options`).
DISPLAY_NAME = re.compile(r"print|display|show|table", re.I)
# A project helper that writes what it is given to a file (`dump_json`, `save_yaml`).
FILE_DUMP_NAME = re.compile(r"dump|json|yaml|toml", re.I)
# A project helper that hands parameters to a tracker (`mlflow_log_params`, `log_hparams`).
PARAMETER_RECORDER_NAME = re.compile(r"param|hparam|hyper|config|cfg|wandb|mlflow|neptune|comet|track", re.I)
# An object that is a logger (`Logger`, `self.logger`, `train_log`), whatever its method.
LOGGER_OWNER = re.compile(r"(?:^|_)log(?:ger)?$", re.I)
TRACKER_OBJECT = re.compile(r"run|wandb|neptune|experiment|tracker|writer|logger|summary|mlflow|comet|clearml|aim", re.I)
CONFIG_FILE_WORD = re.compile(r"cfg|conf|hparam|hyper|param|args|opt|setting|hyp\b|recipe", re.I)

KIND_BY_PREFIX = (
    ("omegaconf.", "omegaconf"),
    ("hydra.", "hydra"),
    ("yaml.", "yaml"),
    ("ruamel", "yaml"),
    ("json.", "json"),
    ("toml", "dict"),
    ("tomli", "dict"),
)


@dataclass(eq=False)
class ConfigLoad:
    site: CallSite  # the load call (or the call of a same-module loader)
    names: tuple[str, ...]  # what the config is bound to (first = the config)
    kind: str  # argparse / omegaconf / hydra / yaml / json / dict
    stmt: ast.stmt  # the statement that binds it (the fix anchors after it)
    scope: Scope


# -- small AST helpers ----------------------------------------------------------------


def plain_dotted(node: ast.AST) -> str | None:
    """``a`` / ``self.args`` for a name or an attribute chain on a name, else None."""
    d = dotted_name(node)
    if d and "(" not in d and "[" not in d and "?" not in d:
        return d
    return None


def root_name(node: ast.AST) -> str | None:
    """The name an expression hangs off: ``args.train.lr`` / ``cfg["seed"]`` → ``args``/``cfg``."""
    while True:
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, (ast.Attribute, ast.Subscript)):
            node = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            node = node.func.value
        else:
            return None


# Node classes, bound once for the hand-rolled walks below.
_AST, _Name, _Attribute, _Subscript, _Constant = ast.AST, ast.Name, ast.Attribute, ast.Subscript, ast.Constant
_Call, _JoinedStr, _FormattedValue = ast.Call, ast.JoinedStr, ast.FormattedValue
_NESTED_SCOPE_TYPES = frozenset({ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef})
# Per node class: the fields that may hold child expressions.
_NODE_FIELDS: dict[type, tuple[str, ...]] = {ast.Constant: (), ast.Name: ()}


def _node_fields(cls: type) -> tuple[str, ...]:
    fields = _NODE_FIELDS.get(cls)
    if fields is None:
        fields = _NODE_FIELDS[cls] = tuple(f for f in cls._fields if f not in SCALAR_FIELDS)
    return fields


def mentions(exprs: Iterable[ast.AST], names: set[str]) -> tuple[bool, set[str]]:
    """(is any of ``names`` used as a whole object, which of its fields are used).

    ``print(args)``, ``vars(args)``, ``f"{cfg}"``, ``args.__dict__`` are whole uses;
    ``args.lr`` / ``cfg["lr"]`` are field uses. Nested scopes (lambdas, functions) are
    not entered.
    """
    fields: set[str] = set()
    whole = _name_uses(exprs, names, fields)
    return whole, fields


def mentions_whole(exprs: Iterable[ast.AST], names: set[str]) -> bool:
    """``mentions(exprs, names)[0]``, stopping at the first whole use."""
    return _name_uses(exprs, names, None)


def _name_uses(exprs: Iterable[ast.AST], names: set[str], fields: set[str] | None) -> bool:
    """Walk ``exprs`` for uses of ``names``: add field uses to ``fields`` and return whether
    one is used whole (with ``fields`` None: return at the first whole use)."""
    if "." in "|".join(names):  # some name is dotted
        return _dotted_name_uses(exprs, names, fields)
    # No dotted name (the usual case): only `Name` nodes can be one, and whether a use is
    # whole is told by the node above it, so the walk needs no parent links.
    whole = False
    stack = list(exprs)
    pop, push = stack.pop, stack.append
    while stack:
        node = pop()
        cls = node.__class__
        if cls is _Name:
            if node.id in names:
                whole = True  # not under an attribute or a subscript (see below)
                if fields is None:
                    return True
            continue
        if cls is _Attribute:
            # Down the chain `a.b.c` at once: only the attribute right above a name matters.
            value = node.value
            while value.__class__ is _Attribute:
                node = value
                value = node.value
            if value.__class__ is _Name:
                if value.id in names:
                    if node.attr in WHOLE_ATTRS:
                        whole = True
                        if fields is None:
                            return True
                    elif fields is not None:
                        fields.add(f"{value.id}.{node.attr}")
            elif value.__class__ is not _Constant:
                push(value)
            continue
        if cls is _Call:
            push(node.func)
            for arg in node.args:
                if arg.__class__ is not _Constant:
                    push(arg)
            for kw in node.keywords:
                push(kw.value)
            continue
        if cls is _Subscript:
            value = node.value
            key = node.slice
            if value.__class__ is _Name:
                if value.id in names and fields is not None:
                    fields.add(f"{value.id}[{key.value!r}]" if isinstance(key, ast.Constant) else f"{value.id}[]")
            else:
                push(value)
            push(key)
            continue
        if cls is _JoinedStr:
            # f-string: only the formatted values can hold names
            for part in node.values:
                if part.__class__ is _FormattedValue:
                    push(part.value)
                    if part.format_spec is not None:
                        push(part.format_spec)
            continue
        if cls in _NESTED_SCOPE_TYPES:
            continue
        child_fields = _NODE_FIELDS.get(cls)
        if child_fields is None:
            child_fields = _node_fields(cls)
        for fname in child_fields:
            v = getattr(node, fname, None)
            if v.__class__ is list:
                for item in v:
                    if isinstance(item, _AST) and item.__class__ is not _Constant:
                        push(item)
            elif isinstance(v, _AST):
                push(v)
    return whole


def _dotted_name_uses(exprs: Iterable[ast.AST], names: set[str], fields: set[str] | None) -> bool:
    """_name_uses() when some names are dotted (``self.args``): an attribute chain and each
    of its prefixes may be one; each is judged by the node right above it."""
    whole = False
    roots = {n.split(".", 1)[0] for n in names}

    def is_whole(d: str, node: ast.AST, parent: ast.AST | None) -> bool:
        """Is ``d`` (the text of ``node``, one of the names) used whole under ``parent``?"""
        if parent.__class__ is _Attribute and parent.value is node:
            if parent.attr in WHOLE_ATTRS:
                return True
            if fields is not None:
                fields.add(f"{d}.{parent.attr}")
            return False
        if parent.__class__ is _Subscript and parent.value is node:
            if fields is not None:
                key = parent.slice
                fields.add(f"{d}[{key.value!r}]" if isinstance(key, ast.Constant) else f"{d}[]")
            return False
        return True

    for expr in exprs:
        # (node, parent) pairs, depth first
        stack: list[tuple[ast.AST, ast.AST | None]] = [(expr, None)]
        pop, push = stack.pop, stack.append
        while stack:
            node, parent = pop()
            cls = node.__class__
            if cls is _Name:
                if node.id in names and is_whole(node.id, node, parent):
                    whole = True
                    if fields is None:
                        return True
                continue
            if cls is _Attribute:
                # The whole chain `a.b.c` at once: Attribute(Attribute(Name a, "b"), "c").
                chain = [node]
                head = node.value
                while head.__class__ is _Attribute:
                    chain.append(head)
                    head = head.value
                if head.__class__ is not _Name:
                    push((head, chain[-1]))  # `f().a.b`: no prefix is a plain name
                    continue
                if head.id not in roots:
                    continue  # nor is any prefix of a chain off another name
                # the head and each prefix up to the whole chain, with the node above it
                d = head.id
                if d in names and is_whole(d, head, chain[-1]):
                    whole = True
                for i in range(len(chain) - 1, -1, -1):
                    d = f"{d}.{chain[i].attr}"
                    if d in names and is_whole(d, chain[i], chain[i - 1] if i else parent):
                        whole = True
                if whole and fields is None:
                    return True
                continue
            if cls in _NESTED_SCOPE_TYPES:
                continue
            child_fields = _NODE_FIELDS.get(cls)
            if child_fields is None:
                child_fields = _node_fields(cls)
            for fname in child_fields:
                v = getattr(node, fname, None)
                if v.__class__ is list:
                    for item in v:
                        if isinstance(item, _AST) and item.__class__ is not _Constant:
                            push((item, node))
                elif isinstance(v, _AST):
                    push((v, node))
    return whole


def call_exprs(site: CallSite) -> list[ast.AST]:
    node = site.node
    return list(node.args) + [k.value for k in node.keywords]


def _bound_names(target: ast.AST) -> list[str]:
    if isinstance(target, (ast.Tuple, ast.List)):
        out: list[str] = []
        for elt in target.elts:
            out.extend(_bound_names(elt))
        return out
    if isinstance(target, ast.Starred):
        return _bound_names(target.value)
    d = plain_dotted(target)
    return [d] if d else []


def stmt_targets(stmt: ast.stmt) -> list[str]:
    if isinstance(stmt, ast.Assign):
        out: list[str] = []
        for t in stmt.targets:
            out.extend(_bound_names(t))
        return out
    if isinstance(stmt, (ast.AnnAssign, ast.AugAssign)) and getattr(stmt, "value", None) is not None:
        return _bound_names(stmt.target)
    return []


def stmt_value(stmt: ast.stmt) -> ast.AST | None:
    if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Return, ast.Expr)):
        return stmt.value
    return None


def _last(name: str | None) -> str:
    return (name or "").rsplit(".", 1)[-1]


def scope_params(scope: Scope) -> list[str]:
    if scope.is_module:
        return []
    a = scope.node.args  # type: ignore[attr-defined]
    return [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs]


# -- which calls load a config ---------------------------------------------------------


def _kind_of(name: str) -> str:
    last = _last(name)
    if last in ("parse_args", "parse_known_args", "parse_args_into_dataclasses", "parse_yaml_file", "parse_json_file", "parse_dict"):
        return "argparse"
    lowered = name.lower()
    for prefix, kind in KIND_BY_PREFIX:
        if lowered.startswith(prefix):
            return kind
    return "dict"


def _is_config_load_call(facts: ModuleFacts, site: CallSite) -> bool:
    name = site.name or ""
    if not facts.is_category(site, "config_load"):
        return False
    last = _last(name)
    if name.startswith(("absl.", "ml_collections.")) or last == "FLAGS":
        return False  # absl flags are global; nothing to bind or follow
    recv = name.rsplit(".", 1)[0].lower() if "." in name else ""
    if last in ("get_config", "load_config", "get_cfg") and any(w in recv for w in ("model", "layer", "net", "module")):
        return False  # Keras `model.get_config()` describes a model, not the run
    if last in ("parse_args", "parse_known_args") and _project_options_class(facts, site):
        return False
    if _parses_source_text(facts, site):
        return False
    return True


def _parses_source_text(facts: ModuleFacts, site: CallSite) -> bool:
    """``yaml.safe_load('''lr: 0.1 ...''')``: settings written in the script itself (a
    string literal, or a module name bound to one) are as much a part of the source as
    its constants; nothing comes in at run time."""
    if not site.node.args:
        return False
    text = site.node.args[0]
    if isinstance(text, ast.Name):
        binds = index_of(facts).bindings(facts.module, text.id)
        if len(binds) != 1:
            return False
        text = binds[0][1]
    return isinstance(text, ast.Constant) and isinstance(text.value, str) and "\n" in text.value


def _project_options_class(facts: ModuleFacts, site: CallSite) -> bool:
    """``TrainOptions().parse_args()``: a project's options class, imported from its own
    module, whose parse method commonly prints and saves the options (pix2pix, SPIN).
    Its body is elsewhere: not judged."""
    func = site.node.func
    receiver = func.value if isinstance(func, ast.Attribute) else None
    if not (isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name)):
        return False
    cls = receiver.func.id
    project = index_of(facts).project_imports
    if not cls[:1].isupper():
        return False
    if cls in project:
        return True
    # `class Parser(utils.Parser): dataset: str = "hopper"` ... `Parser().parse_args("diffusion")`:
    # a subclass of the project's own parser that leaves the parsing (and its record) to it
    return any(
        isinstance(stmt, ast.ClassDef) and stmt.name == cls
        and any(root_name(base) in project for base in stmt.bases)
        and not any(isinstance(item, FUNC_TYPES) and item.name == func.attr for item in stmt.body)
        for stmt in facts.module.node.body
    )


def _data_file_load(site: CallSite, names: list[str]) -> bool:
    """``json.load``/``yaml.safe_load`` of something that is not a config (labels, a dataset
    index): only config-like names or file names count."""
    kind = _kind_of(site.name or "")
    if kind not in ("yaml", "json", "dict") or _last(site.name) in ("get_cfg", "get_config", "load_config", "merge_from_file"):
        return False
    if any(CONFIG_FILE_WORD.search(n.rsplit(".", 1)[-1]) for n in names):
        return False
    # Only the last segment of a dotted path says what it holds: `args.tasks_file` is a
    # file named on the command line, `args.config` a config.
    heads = {id(n.value) for n in walk(site.node) if isinstance(n, ast.Attribute)}
    for node in walk(site.node):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and CONFIG_FILE_WORD.search(node.value):
            return False
        if isinstance(node, (ast.Name, ast.Attribute)) and id(node) not in heads:
            if CONFIG_FILE_WORD.search((plain_dotted(node) or "").rsplit(".", 1)[-1]):
                return False
    return True


MODEL_FILE_WORD = re.compile(r"model|ckpt|checkpoint|pretrained|tokenizer|weights|hub", re.I)


def _describes_a_model(facts: ModuleFacts, load: ConfigLoad) -> bool:
    """``json.load(open(os.path.join(model_dir, "config.json")))``: the architecture config
    shipped with a checkpoint, not this run's hyperparameters."""
    return any(MODEL_FILE_WORD.search(path) for path in _source_paths(facts, load))


def _value_holds(value: ast.AST | None, call: ast.Call) -> bool:
    """Does ``value`` evaluate to the call's result (``x``, ``x[0]``, ``a if c else x``,
    ``vars(x)``), rather than merely use it?"""
    if value is None:
        return False
    if value is call:
        return True
    if isinstance(value, ast.Subscript):
        return _value_holds(value.value, call)
    if isinstance(value, ast.IfExp):
        return _value_holds(value.body, call) or _value_holds(value.orelse, call)
    if isinstance(value, ast.Call) and _last(dotted_name(value.func)) in CONVERTERS:
        return any(_value_holds(a, call) for a in value.args)
    if isinstance(value, ast.Await):
        return _value_holds(value.value, call)
    return False


def _configures_logging_only(facts: ModuleFacts, scope: Scope, names: list[str]) -> bool:
    """``config = json.load(f)`` whose only use is ``logging.config.dictConfig(config)``:
    the logging setup's own file, not the run's configuration."""
    handed = uses = 0
    for site in scope.calls:
        if (site.name or "").endswith("dictConfig"):
            handed += sum(1 for a in [*site.node.args, *(k.value for k in site.node.keywords)] if isinstance(a, ast.Name) and a.id in names)
    if not handed:
        return False
    for node in ast.walk(scope.node):
        if isinstance(node, ast.Name) and node.id in names and isinstance(node.ctx, ast.Load):
            uses += 1
    return uses == handed


def _extends_an_imported_loader(facts: ModuleFacts, target: Scope) -> bool:
    """``class Parser(utils.Parser): def parse_args(self, exp): ...``: an override of an
    imported class's loader (which it extends, through ``super()`` or the fields it
    declares), not a helper of this file to be judged by what it returns."""
    return bool(target.class_name) and any(
        "." in base or not facts.methods_of(base) for base in target.class_bases
        if base not in ("object", "ABC", "Generic", "NamedTuple", "Protocol")
    )


def config_loads(facts: ModuleFacts) -> list[ConfigLoad]:
    """Every place a configuration object is bound (cached on facts)."""
    cached = getattr(facts, "_dllog_config_loads", None)
    if cached is not None:
        return cached
    loads: list[ConfigLoad] = []
    loader_kind: dict[str, str] = {}  # same-module functions that return a config
    candidates = [c for c in facts.calls_in("config_load") if _is_config_load_call(facts, c)]
    seen_sites: set[int] = set()
    for _ in range(4):  # helpers returning helpers' configs, a few levels deep
        added = False
        pending = list(candidates)
        if loader_kind:
            pending += [c for c in facts.calls if (t := c.target) is not None and t.qualname in loader_kind]
        for site in pending:
            if id(site.node) in seen_sites:
                continue
            target = facts.local_target(site)
            kind = loader_kind.get(target.qualname) if target is not None and target.qualname in loader_kind else None
            if target is not None and kind is None and not _extends_an_imported_loader(facts, target):
                continue  # a local function named parse_args: judged by what it returns
            kind = kind or _kind_of(site.name or "")
            stmt = site.stmt
            value = stmt_value(stmt)
            if isinstance(stmt, ast.Return) and _value_holds(value, site.node):
                if not site.scope.is_module:
                    loader_kind.setdefault(site.scope.qualname, kind)
                seen_sites.add(id(site.node))
                added = True
                continue
            names: list[str] = []
            if _last(site.name) == "merge_from_file" and site.receiver is not None:
                names = [plain_dotted(site.receiver) or ""]
            elif _value_holds(value, site.node):
                names = stmt_targets(stmt)
                if _last(site.name) == "parse_known_args" and len(names) > 1:
                    names = names[:1]  # (args, unknown)
            if _last(site.name) == "parse_known_args" and _is_pre_parse(facts, stmt):
                continue
            names = [n for n in names if n and n != "_"]
            if not names or _data_file_load(site, names) or _configures_logging_only(facts, site.scope, names):
                continue
            load = ConfigLoad(site, tuple(names), kind, stmt, site.scope)
            if kind in ("json", "yaml", "dict") and _describes_a_model(facts, load):
                continue
            seen_sites.add(id(site.node))
            loads.append(load)
            # `args = parser.parse_args(); return args`: the caller owns the config.
            if not site.scope.is_module and _returns_any(facts, site.scope, set(names)):
                loader_kind.setdefault(site.scope.qualname, kind)
                added = True
        if not added:
            break
    returned_loaders = set(loader_kind)
    loads = [l for l in loads if not (l.scope.qualname in returned_loaders and _returns_any(facts, l.scope, set(l.names)))]
    loads.sort(key=lambda l: (l.site.node.lineno, l.site.node.col_offset))
    facts._dllog_config_loads = loads  # type: ignore[attr-defined]
    return loads


def _is_pre_parse(facts: ModuleFacts, stmt: ast.stmt) -> bool:
    """``args_config, remaining = p.parse_known_args()`` whose leftovers go to a second
    parser: it only finds the config file; the real configuration is parsed next."""
    if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Tuple):
        return False
    elts = stmt.targets[0].elts
    if len(elts) < 2 or not isinstance(elts[1], ast.Name):
        return False
    rest = elts[1].id
    for site in facts.calls_in("config_load"):
        if site.stmt is stmt:
            continue
        if any(isinstance(a, ast.Name) and a.id == rest for a in site.node.args):
            return True
    return False


# Calls that merge one configuration into another (`parser.set_defaults(**cfg)`).
MERGING_METHODS = frozenset({"set_defaults", "update", "merge_from_dict", "merge_from_other_cfg", "merge_with"})


def _returns_any(facts: ModuleFacts, scope: Scope, names: set[str]) -> bool:
    """Does the function return one of ``names`` as a whole (``return args``)?"""
    for node in _own_returns(facts, scope):
        if node.value is not None:
            if mentions_whole([node.value], names):
                return True
    return False


def _own_returns(facts: ModuleFacts, scope: Scope) -> list[ast.Return]:
    """The ``return`` statements of a function, not those of nested functions or classes
    (a return is a statement: the scope's statements are searched, not its expressions)."""
    cache = getattr(facts, "_dllog_own_returns", None)
    if cache is None:
        cache = facts._dllog_own_returns = {}  # type: ignore[attr-defined]
    found = cache.get(id(scope))
    if found is None:
        found = cache[id(scope)] = [
            info.stmt
            for info in facts.scope_stmts(scope)
            if info.stmt.__class__ is ast.Return
            # a class body nested in the function belongs to the class
            and not (info.parent is not None and info.parent.stmt.__class__ is ast.ClassDef)
        ]
    return found


def hydra_configs(facts: ModuleFacts) -> list[tuple[Scope, str]]:
    """(function, config parameter) of every ``@hydra.main`` entry point (cached on facts)."""
    cached = getattr(facts, "_dllog_hydra_configs", None)
    if cached is not None:
        return cached
    out = []
    for scope in facts.scopes:
        if any(d.endswith("hydra.main") or d == "hydra.main" for d in scope.decorators):
            params = scope_params(scope)
            if params:
                out.append((scope, params[0]))
    facts._dllog_hydra_configs = out  # type: ignore[attr-defined]
    return out


def config_names(facts: ModuleFacts) -> set[str]:
    """Names that hold the run's configuration somewhere in this module."""
    names = set(CONVENTIONAL_CONFIG_NAMES)
    for load in config_loads(facts):
        names.update(load.names)
    for _, param in hydra_configs(facts):
        names.add(param)
    return names


# -- is it recorded? ---------------------------------------------------------------------


# Calls that build a copy of a configuration from fields passed as keywords.
COPYING_CALLS = frozenset({"replace", "Namespace", "SimpleNamespace", "EasyDict", "edict", "dict", "Box", "AttrDict", "DotMap"})


# A helper that turns the whole namespace into the run's config object
# (`build_config_from_args(TrainConfig, args)`, `cfg = get_config(args)`, `args_to_config(args)`).
CONFIG_BUILDER_NAME = re.compile(
    r"^(build|make|get|create|convert|setup)_?(config|cfg|conf|hparams|hyperparams)$"
    r"|^(build|make|get|create|convert)_?(config|cfg|conf|hparams)_?from_?(args|argparse|namespace|cli)$"
    r"|^(args|namespace)_?to_?(config|cfg|conf|hparams)$",
    re.I,
)


def _is_converting(value: ast.AST, names: set[str]) -> bool:
    """``cfg = args`` / ``cfg = vars(args)`` / ``text = yaml.dump(args.__dict__)``: the value
    is the same configuration in another form (not ``model = Model(args)``)."""
    if isinstance(value, (ast.Name, ast.Attribute)):
        return plain_dotted(value) in names or (
            isinstance(value, ast.Attribute) and value.attr in WHOLE_ATTRS and plain_dotted(value.value) in names
        )
    if isinstance(value, ast.Call):
        func = value.func
        last = func.attr if isinstance(func, ast.Attribute) else (func.id if isinstance(func, ast.Name) else "")
        if last in CONVERTERS or last in WHOLE_ATTRS or CONFIG_BUILDER_NAME.search(last):
            return mentions_whole([value], names)
        if last in COPYING_CALLS or last.endswith(("Config", "Cfg", "Args", "Params", "Hparams")):
            # `cfg = dataclasses.replace(DEFAULTS, lr=args.lr, epochs=args.epochs)`: the
            # fields copied into a config object (two or more; `Model(args.hidden)` is not one)
            _, fields = mentions([k.value for k in value.keywords], names)
            return len(fields) >= 2
        return False
    if (
        isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Constant) and type(value.slice.value) is int
        and plain_dotted(value.value) in names
    ):
        return True  # `model_args = parsed[0]` of `parse_args_into_dataclasses()`: one whole part
    if isinstance(value, (ast.JoinedStr, ast.Dict, ast.BinOp, ast.IfExp, ast.Subscript)):
        return mentions_whole([value], names)
    return False


# -- per-module indexes --------------------------------------------------------------------
# The alias and recording searches ask the same questions of every statement and call,
# once per configuration and up to four times over: which statements and calls can matter
# at all is decided once per module here.


@dataclass(eq=False, slots=True)
class _FlowCall:
    """A call through which a configuration may travel under another name."""

    site: CallSite
    exprs: list[ast.AST]  # its arguments and keyword values (never empty)
    merges: bool  # `parser.set_defaults(**cfg)`: the receiver takes the config in
    loads: bool  # a config load on a receiver (`parser.parse_args()`)
    params: list[str] | None  # the parameters of the same-module callee, if any
    offset: int  # 1 when the callee's first parameter is `self`/`cls`
    positional: list[ast.expr]  # the arguments filling params[offset:], in order
    keywords: list[ast.keyword]  # the arguments passed by parameter name
    target: Scope | None  # the same-module callee


@dataclass(eq=False, slots=True)
class _ConfigIndex:
    assigns: list[ast.stmt]  # `x = value` / `x: T = value`, in statement order
    flow_calls: list[_FlowCall]  # in call order
    self_recording: list[CallSite]  # `<obj>.save_pretrained(...)` and the like
    tracker_stores: list[ast.Assign]  # `run["params"] = ...` into a tracker-like target
    for_loops: list[ast.stmt]
    add_arguments: list[CallSite]  # `parser.add_argument(...)`
    # (call, how) in call order: file writes ("store"), and calls of imported helpers named
    # like recorders ("helper"); see _record_calls
    writes_or_recorders: list[tuple[CallSite, str]]


def _config_index(facts: ModuleFacts) -> _ConfigIndex:
    cached = getattr(facts, "_dllog_config_index", None)
    if cached is not None:
        return cached
    assigns: list[ast.stmt] = []
    tracker_stores: list[ast.Assign] = []
    for_loops: list[ast.stmt] = []
    stored_into = (ast.Subscript, ast.Attribute)
    # (the few kinds of statement looked at are picked out first, in a comprehension)
    for stmt in [info.stmt for info in facts.stmt_infos.values() if info.stmt.__class__ in _INDEXED_STATEMENTS]:
        cls = stmt.__class__
        if cls is ast.Assign:
            assigns.append(stmt)
            for t in stmt.targets:
                if t.__class__ in stored_into and TRACKER_OBJECT.search(dotted_name(t) or ""):
                    tracker_stores.append(stmt)
                    break
        elif cls is ast.AnnAssign:
            if stmt.value is not None:
                assigns.append(stmt)
        else:
            for_loops.append(stmt)

    flow_calls: list[_FlowCall] = []
    self_recording: list[CallSite] = []
    add_arguments: list[CallSite] = []
    writes_or_recorders: list[tuple[CallSite, str]] = []
    functions = facts.functions
    # Same-module classes with an `__init__`: `Trainer(args)` runs `Trainer.__init__(self, args)`.
    init_classes = {q[: -len(".__init__")] for q in functions if q.endswith(".__init__")}
    # What a call may be is first told by its dotted name alone (a few hundred distinct
    # names, thousands of calls); the call's node is only read when the name says it may
    # matter. A bare name call `f(...)` is named `aliases.get(f, f)`.
    aliases = facts.aliases
    name_kinds = _NameKinds(aliases.get("add_argument", "add_argument"), {aliases.get(c, c) for c in init_classes})
    # (`trainer = Trainer(model)` ... `trainer.train(epochs=args.epochs)`: facts resolved
    # the method of the same-module class into `site.target`)
    loading_sites = facts.calls_in("config_load")
    for site in loading_sites:
        name_kinds[site.name] |= _LOAD_NAME
    loading = {id(site) for site in loading_sites}
    attribute_type, name_type = ast.Attribute, ast.Name
    # (a comprehension keeps the calls that may matter, in call order: most have a name
    # that says nothing and no same-module target)
    for site in [
        site for site in facts.calls
        if name_kinds[site.name] or site.target is not None
    ]:
        kind = name_kinds[site.name]
        target = site.target
        loads = id(site) in loading
        node = site.node
        func = node.func
        fcls = func.__class__
        if target is None and kind & _INIT_CLASS and fcls is name_type and func.id in init_classes:
            target = functions.get(f"{func.id}.__init__")
        if kind & _WRITE:
            writes_or_recorders.append((site, "store"))
        elif kind & _RECORDER_NAME and target is None:
            writes_or_recorders.append((site, "helper"))
        if kind & _SELF_RECORDING and fcls is attribute_type:
            self_recording.append(site)
        if kind & _ADD_ARGUMENT and (func.attr if fcls is attribute_type else func.id if fcls is name_type else None) == "add_argument":
            add_arguments.append(site)
        if not node.args and not node.keywords:
            continue
        merges = bool(kind & _MERGING) and fcls is attribute_type and func.attr in MERGING_METHODS
        loads = loads and fcls is attribute_type
        if target is None and not merges and not loads:
            continue
        params = None
        offset = 0
        if target is not None:
            params = scope_params(target)
            offset = 1 if params and params[0] in ("self", "cls") and (target.class_name is not None) else 0
        flow_calls.append(_FlowCall(site, call_exprs(site), merges, loads, params, offset, node.args, node.keywords, target))
    # `mp.spawn(train_model, args=(world_size, args.lr))` runs `train_model(rank, world_size,
    # lr)` in each process: the tuple fills the parameters after the rank.
    for site in calls_named_ending(facts, "spawn"):
        node = site.node
        fn = node.args[0] if node.args else site.kwarg("fn")
        passed = site.kwarg("args") if site.kwarg("args") is not None else (node.args[1] if len(node.args) > 1 else None)
        target = functions.get(fn.id) if isinstance(fn, ast.Name) else None
        if target is None or not isinstance(passed, ast.Tuple) or not passed.elts:
            continue
        flow_calls.append(_FlowCall(site, list(passed.elts), False, False, scope_params(target), 1, passed.elts, [], target))
    index = _ConfigIndex(assigns, flow_calls, self_recording, tracker_stores, for_loops, add_arguments, writes_or_recorders)
    facts._dllog_config_index = index  # type: ignore[attr-defined]
    return index


_INDEXED_STATEMENTS = frozenset({ast.Assign, ast.AnnAssign, ast.For, ast.AsyncFor})
_WRITE, _RECORDER_NAME, _SELF_RECORDING, _MERGING, _ADD_ARGUMENT, _INIT_CLASS, _LOAD_NAME = 1, 2, 4, 8, 16, 32, 64


class _NameKinds(dict):
    """Call name -> _name_kind() bits, computed on first use."""

    def __init__(self, add_argument_name: str, init_class_names: set[str]):
        super().__init__()
        self.add_argument_name = add_argument_name
        self.init_class_names = init_class_names

    def __missing__(self, name: str | None) -> int:
        kind = self[name] = _name_kind(name, self.add_argument_name, self.init_class_names)
        return kind


def _name_kind(name: str | None, add_argument_name: str, init_class_names: set[str]) -> int:
    """What a call may be, judged by its dotted name (bits above; 0 = nothing here)."""
    last = _last(name)
    kind = _LAST_SEGMENT_KINDS.get(last)
    if kind is None:
        if len(_LAST_SEGMENT_KINDS) > 100_000:  # a long-lived server sees many names
            _LAST_SEGMENT_KINDS.clear()
        kind = _LAST_SEGMENT_KINDS[last] = _last_segment_kind(last)
    if name and "." in name and LOGGER_OWNER.search(name.rsplit(".", 2)[-2]):
        kind |= _RECORDER_NAME  # `Logger.initialize(args)`: a project logger's method
    if name == add_argument_name:
        kind |= _ADD_ARGUMENT
    if name in init_class_names:
        kind |= _INIT_CLASS
    return kind


# last name segment -> the _name_kind() bits it gives, whatever the module
_LAST_SEGMENT_KINDS: dict[str, int] = {}


def _last_segment_kind(last: str) -> int:
    kind = 0
    if last in ("write", "writelines", "write_text"):
        kind |= _WRITE
    if RECORDING_NAME.search(last):
        kind |= _RECORDER_NAME
    if last in SELF_RECORDING_METHODS:
        kind |= _SELF_RECORDING  # `x.<last>(...)`: the method is the name's last segment
    if last in MERGING_METHODS:
        kind |= _MERGING
    if last == "add_argument":
        kind |= _ADD_ARGUMENT
    return kind


class _RootLines:
    """``facts.span_mentions(node, roots)`` for the roots of a (growing) set of names: does
    any line of the node's source contain one of them? Roots in no line of the module at
    all (one search of the whole text says so) are left out of the per-node check."""

    __slots__ = ("facts", "roots", "present", "everything")

    def __init__(self, facts: ModuleFacts, names: Iterable[str]):
        self.facts = facts
        self.roots: set[str] = set()
        self.present: list[str] = []  # the roots found in the text
        self.everything = False  # an empty root is in every line
        self.add(names)

    def add(self, names: Iterable[str]) -> None:
        text = self.facts.text
        for name in names:
            root = name.split(".")[0]
            if root not in self.roots:
                self.roots.add(root)
                if not root:
                    self.everything = True
                elif "\n" not in root and root in text:  # a line never holds a line break
                    self.present.append(root)

    def span_has(self, node: ast.AST) -> bool:
        start = getattr(node, "lineno", None)
        if start is None:
            return True
        end = getattr(node, "end_lineno", None) or start
        chunk = self.facts.lines[start - 1 : end]
        if self.everything:
            return bool(chunk)
        for line in chunk:
            for root in self.present:
                if root in line:
                    return True
        return False


def config_aliases(facts: ModuleFacts, names: Iterable[str]) -> frozenset[str]:
    """The names a configuration travels under: copies, ``self.<attr>``, and the parameters
    of same-module functions (and classes) it is passed to (cached per set of names)."""
    key = frozenset(names)
    cache = getattr(facts, "_dllog_config_aliases", None)
    if cache is None:
        cache = facts._dllog_config_aliases = {}  # type: ignore[attr-defined]
    found = cache.get(key)
    if found is None:
        found = cache[key] = frozenset(_follow_aliases(facts, set(key)))
    return found


def _follow_aliases(facts: ModuleFacts, aliases: set[str]) -> set[str]:
    index = _config_index(facts)
    new = set(aliases)
    for _ in range(4):
        before = set(aliases)
        # Statements and calls are pre-filtered by the names new since the last pass: one
        # that named none of them then and was no alias cannot become one now (every test
        # below needs an alias in the statement's or call's own text).
        mentioned = _RootLines(facts, new)

        def grow(names: Iterable[str]) -> None:
            # (a name found in this pass is looked for in the rest of it too)
            names = [n for n in names if n not in aliases]
            aliases.update(names)
            mentioned.add(names)

        for stmt in index.assigns:
            value = stmt.value
            if mentioned.span_has(value) and _is_converting(value, aliases):
                grow(stmt_targets(stmt))
        for call in index.flow_calls:
            site = call.site
            if not mentioned.span_has(site.node):
                continue
            if call.merges:
                # `parser.set_defaults(**cfg)`: cfg now lives inside the receiver.
                if any(_is_converting(e, aliases) for e in call.exprs):
                    receiver = site.receiver
                    root = root_name(receiver)
                    recv = plain_dotted(receiver)
                    if recv and recv.split(".")[-1] not in WHOLE_ATTRS:
                        grow((recv,))
                    elif root:
                        grow((root,))
            if call.loads and plain_dotted(site.receiver) in aliases:
                # `args = parser.parse_args(...)` after the parser took the file's defaults.
                grow(stmt_targets(site.stmt))
            params = call.params
            if params is not None:
                offset = call.offset
                for i, arg in enumerate(call.positional):
                    if isinstance(arg, ast.Starred):
                        break
                    if i + offset < len(params) and _is_converting(arg, aliases):
                        grow((params[i + offset],))
                for kw in call.keywords:
                    if kw.arg and kw.arg in params and _is_converting(kw.value, aliases):
                        grow((kw.arg,))
        new = aliases - before
        if not new:
            break
    return aliases


def _record_calls(facts: ModuleFacts) -> list[tuple[CallSite, str]]:
    """(call, how): `log` = a log call, `record` = a tracker/serialiser record call,
    `store` = a checkpoint save or file write, `helper` = an imported helper named like a
    recorder."""
    cached = getattr(facts, "_dllog_record_calls", None)
    if cached is not None:
        return cached
    out: list[tuple[CallSite, str]] = []
    seen: set[int] = set()

    def add(site: CallSite, how: str) -> None:
        if id(site.node) not in seen:
            seen.add(id(site.node))
            out.append((site, how))

    for site in facts.logging_calls:
        add(site, "log")
    for site in facts.calls_in("config_record"):
        add(site, "record")
    for site in facts.calls_in("save"):
        add(site, "store")
    for site, how in _config_index(facts).writes_or_recorders:
        add(site, how)
    facts._dllog_record_calls = out  # type: ignore[attr-defined]
    return out


def _direct_values(expr: ast.AST) -> Iterator[ast.AST]:
    """The values a log call shows: its arguments, ``.format(...)`` / ``%`` operands and
    f-string fields (not names buried in arithmetic such as ``n // args.bptt``)."""
    if isinstance(expr, ast.JoinedStr):
        for part in expr.values:
            if isinstance(part, ast.FormattedValue):
                yield from _direct_values(part.value)
    elif isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "format":
        for a in list(expr.args) + [k.value for k in expr.keywords]:
            yield from _direct_values(a)
    elif isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mod):
        yield from _direct_values(expr.right)
    elif isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add) and _is_text_concatenation(expr):
        # `"starting " + exp_name + " experiment"`: each piece is shown
        yield from _direct_values(expr.left)
        yield from _direct_values(expr.right)
    elif isinstance(expr, (ast.Tuple, ast.List)):
        for elt in expr.elts:
            yield from _direct_values(elt)
    elif isinstance(expr, ast.Dict):
        for v in expr.values:
            yield from _direct_values(v)
    else:
        yield expr


def _is_text(expr: ast.AST) -> bool:
    """An f-string, a ``.format()``/``.join()`` result, ``str(x)`` or a ``+`` chain of text."""
    if isinstance(expr, ast.JoinedStr) or _str_call_argument(expr) is not None:
        return True
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr in ("format", "join"):
        return True
    return isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add) and _is_text_concatenation(expr)


def _is_text_concatenation(expr: ast.BinOp) -> bool:
    """Does a chain of ``+`` hold a string literal (so it joins text, not numbers)?"""
    node: ast.AST = expr
    while isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        if isinstance(node.right, (ast.Constant, ast.JoinedStr)) and isinstance(getattr(node.right, "value", ""), str):
            return True
        node = node.left
    return isinstance(node, (ast.Constant, ast.JoinedStr)) and isinstance(getattr(node, "value", ""), str)


# Fields that name where things are read or written, not how the model is trained.
PATH_FIELD = re.compile(r"(?:^|_)(?:path|paths|dir|dirs|root|file|files|checkpoint|ckpt|resume|pretrained|output|outdir|save|logdir)(?:$|_)", re.I)


def _enough_hyperparameters(logged_fields: set[str]) -> bool:
    """Two or more logged fields stand for the config, unless they are only paths
    (`print(f"Resuming from {args.resume}")`, the pretrained weights' path)."""
    return len(logged_fields) >= 2 and not all(PATH_FIELD.search(f.rsplit(".", 1)[-1]) for f in logged_fields)


# Packages whose `*TrainingArguments` / `*Config` objects are a Trainer's saved arguments.
HF_ARGUMENTS_PACKAGES = ("transformers.", "trl.", "sentence_transformers.", "setfit.")


# Names of the project's own code that runs training with what it is handed.
# Lightning's tracker loggers: what a run is named is shown with its charts.
TRACKER_LOGGERS = ("WandbLogger", "TensorBoardLogger", "MLFlowLogger", "CometLogger", "NeptuneLogger", "wandb.init")

RUNNER_NAME = re.compile(
    r"(?i:(^|_)(launch|get_trainer|trainer|engine|runner|solver|run|train|fit|main)($|_))"
    r"|[A-Za-z0-9](Trainer|Runner|Engine|Solver)$"  # `PytorchTrainer`, `SegRunner`, `MySFTTrainer`
    r"|^(Trainer|Runner)[A-Z]"  # `TrainerForLinearEval`
)


def _project_runner(facts: ModuleFacts, name: str) -> bool:
    """A call (by name) into the project's own (imported, unseen) trainer or launcher."""
    last = name.rsplit(".", 1)[-1]
    if not RUNNER_NAME.search(last):
        return False
    head = name.split(".", 1)[0]
    idx = index_of(facts)
    imports = idx.project_imports
    if head in imports or (last in imports and last in facts.aliases):
        return True  # (`from myproj.trainer import Trainer`: the name resolves to myproj.trainer.Trainer)
    if (
        "." not in name and idx.star_imports_project and name not in facts.functions and name not in facts.aliases
        and name not in _BUILTIN_NAMES and not facts.methods_of(name)
        and not any(isinstance(n, ast.ClassDef) and n.name == name for n in facts.tree.body)
    ):
        return True  # `from model import *` ... `train_model(...)`: the project's, by elimination
    # `exp.get_trainer(args)` on an object the project built (`exp = get_exp(...)`)
    return "." in name and last in ("get_trainer", "build_trainer", "get_runner", "build_runner")


def _option_names(facts: ModuleFacts) -> frozenset[str]:
    """The fields a parser of this file defines (``--train-file`` → ``train_file``, or
    its ``dest=``); empty when one cannot be told. (Once per module: every runner call and
    every config asks.)"""
    found = getattr(facts, "_dllog_option_names", None)
    if found is None:
        found = facts._dllog_option_names = frozenset(_parser_option_names(facts))  # type: ignore[attr-defined]
    return found


def _parser_option_names(facts: ModuleFacts) -> set[str]:
    names: set[str] = set()
    for site in calls_named_ending(facts, (".add_argument", ".add_option")):
        dest = site.kwarg("dest")
        if isinstance(dest, ast.Constant) and isinstance(dest.value, str):
            names.add(dest.value)
            continue
        flags = [a.value for a in site.node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        long = [f for f in flags if f.startswith("--")] or [f for f in flags if not f.startswith("-")]
        if not long:
            return set()
        names.add(long[0].lstrip("-").replace("-", "_"))
    return names


def _feeds_a_recorded_config(facts: ModuleFacts, load: ConfigLoad, loads: list[ConfigLoad]) -> bool:
    """The command line names the config file (``config = OmegaConf.load(args.config)``)
    and that config is recorded: what the run used is kept."""
    roots = {name.split(".")[0] for name in load.names}
    for other in loads:
        if other is load or other.kind == "argparse":
            continue
        node = other.site.node
        if any(root_name(a) in roots for a in list(node.args) + [kw.value for kw in node.keywords]):
            if _only_builds(facts, roots, other) and config_recorded(facts, other.names):
                return True
    return False


def _filled_only_with_literals(facts: ModuleFacts, load: ConfigLoad) -> bool:
    """``cfg = get_cfg()``, ``cfg.merge_from_file(model_zoo.get_config_file("COCO-.../
    mask_rcnn_R_50_FPN_3x.yaml"))``, then only ``cfg.SOLVER.BASE_LR = 0.00025``-style
    overrides: every value is written in the source (or the library's model zoo), so the
    source is the record. A local YAML merged in, or any value computed at run time, is not."""
    node = load.site.node
    if node.args or node.keywords or len(load.names) != 1 or not (load.site.name or "").startswith("detectron2."):
        return False  # (a project's `load_config()` reads a file this one cannot see)
    root = load.names[0]
    for info in facts.stmt_infos.values():
        stmt = info.stmt
        if stmt.__class__ in (ast.Assign, ast.AugAssign, ast.AnnAssign):
            targets = stmt.targets if stmt.__class__ is ast.Assign else [stmt.target]
            if stmt is load.stmt or not any(root_name(t) == root for t in targets):
                continue
            if any(t.__class__ is ast.Name for t in targets):
                return False  # rebound
            if not _written_out(stmt.value, facts):
                return False
    for site in facts.calls:
        func = site.node.func
        if not (isinstance(func, ast.Attribute) and root_name(func.value) == root):
            continue
        if func.attr == "merge_from_file":
            arg = site.node.args[0] if site.node.args else None
            if not (isinstance(arg, ast.Call) and _written_out(arg, facts)):
                return False  # (a local YAML can be edited between runs)
        elif func.attr in ("merge_from_list", "update", "merge_from_other_cfg", "set_new_allowed", "__setattr__", "__setitem__"):
            return False
    return True


def _written_out(expr: ast.AST | None, facts: ModuleFacts, depth: int = 2) -> bool:
    """``0.00025``, ``-1``, ``("my_train",)``, ``[0.5, 1.0]``, a module constant bound once
    to one (``OUTPUT_DIR = "./output"``), a model-zoo name (``model_zoo.get_checkpoint_url(
    "COCO-.../mask_rcnn_R_50_FPN_3x.yaml")``): a value spelled out in the source."""
    if isinstance(expr, ast.Constant):
        return True
    if isinstance(expr, ast.UnaryOp):
        return isinstance(expr.operand, ast.Constant)
    if isinstance(expr, (ast.Tuple, ast.List)):
        return all(_written_out(e, facts, depth) for e in expr.elts)
    if isinstance(expr, ast.Call):
        return (dotted_name(expr.func, facts.aliases) or "").startswith("detectron2.model_zoo.") and not expr.keywords and all(
            isinstance(a, ast.Constant) for a in expr.args
        )
    if isinstance(expr, ast.Name) and depth > 0:
        binds = index_of(facts).bindings(facts.module, expr.id)
        return len(binds) == 1 and _written_out(binds[0][1], facts, depth - 1)
    return False


def _becomes_recorded_parser_defaults(facts: ModuleFacts, load: ConfigLoad, loads: list[ConfigLoad]) -> bool:
    """``parser.set_defaults(**cfg)``, or ``for k, v in cfg.items():
    parser.add_argument(f"--{k}", default=v)``: the file's values become the command line's
    defaults, so the parsed namespace holds every one of them, overridden or not; with that
    namespace recorded, the config is."""
    roots = _RootLines(facts, load.names)
    fed = any(roots.span_has(site.node) for site in calls_named_ending(facts, "set_defaults"))
    if not fed:
        for site in _config_index(facts).add_arguments:
            info = site.info.parent
            while info is not None and not fed:
                stmt = info.stmt
                fed = isinstance(stmt, (ast.For, ast.AsyncFor)) and roots.span_has(stmt.iter)
                info = info.parent
            if fed:
                break
    return fed and any(
        other.kind == "argparse" and config_recorded(facts, other.names) for other in loads if other is not load
    )


def _only_builds(facts: ModuleFacts, roots: set[str], built: ConfigLoad) -> bool:
    """Is every use of the namespace ``roots`` an argument of the call that loads ``built``
    or of a call on ``built`` (``config.merge_with_dotlist(args.options)``)? Then the
    command line holds nothing but the config's file and overrides."""
    config_roots = {name.split(".")[0] for name in built.names}
    allowed: set[int] = set()
    for site in facts.calls:
        receiver_root = root_name(site.receiver) if site.receiver is not None else None
        if site.node is built.site.node or receiver_root in config_roots:
            for arg in list(site.node.args) + [kw.value for kw in site.node.keywords]:
                allowed.update(id(n) for n in walk(arg))
    for node in walk(facts.tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in roots:
            if id(node) not in allowed:
                return False
    return True


def _built_from_loaded_config(load: ConfigLoad, loaded_roots: set[str]) -> bool:
    """``cfg = make_cfg(args, "test")``: a config made by a same-module helper from another
    loaded config (judged once, where that one is loaded)."""
    if load.site.target is None:
        return False
    node = load.site.node
    own = {name.split(".")[0] for name in load.names}
    for arg in list(node.args) + [kw.value for kw in node.keywords]:
        root = root_name(arg)
        if root is not None and root in loaded_roots and root not in own:
            return True
    return False


def _nested_item(node: ast.AST, roots: set[str]) -> bool:
    """``cfg["train"]["lr"]`` / ``cfg.train.lr``: two or more steps down from a config root."""
    depth = 0
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        if isinstance(node, ast.Subscript) and not (isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)):
            return False
        node = node.value
        depth += 1
    return depth >= 2 and isinstance(node, ast.Name) and node.id in roots


def _str_call_argument(expr: ast.AST) -> ast.expr | None:
    """``config`` for ``str(config)`` / ``repr(config)``; None for anything else."""
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id in ("str", "repr") and len(expr.args) == 1:
        return expr.args[0]
    return None


def _copy_key(node: ast.AST) -> str | None:
    """How _field_copies() names a copy held by ``node``: ``NUM_EPOCHS``, ``cfg.fold``."""
    if node.__class__ is ast.Name:
        return node.id  # type: ignore[attr-defined]
    if node.__class__ is ast.Attribute:
        return plain_dotted(node)
    return None


def _is_path_join(expr: ast.AST) -> bool:
    """``root / f"fold_{fold}"``, ``os.path.join(root, name)``: a path put together from parts."""
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Div):
        return any(isinstance(n, ast.JoinedStr) or (isinstance(n, ast.Constant) and isinstance(n.value, str)) for n in walk(expr))
    return isinstance(expr, ast.Call) and (dotted_name(expr.func) or "").endswith("path.join")


class _Copies(dict):
    """Name -> the config fields its value was made from; ``plain``: the names holding a
    field's value itself (`NUM_TOKENS = args.num_tokens`), not an object built from it."""

    def __init__(self) -> None:
        super().__init__()
        self.plain: set[str] = set()


def _plain_field_value(expr: ast.expr) -> bool:
    """``args.lr``, ``cfg["train"]["lr"]``, ``float(cfg.lr)``: the field's value itself."""
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id in ("int", "float", "str", "bool") and len(expr.args) == 1:
        expr = expr.args[0]
    return isinstance(expr, (ast.Attribute, ast.Subscript))


def _field_copies(index: _ConfigIndex, alias_roots: set[str], aliases: set[str], mentioned: "_RootLines") -> _Copies:
    """``NUM_EPOCHS = opt.num_epochs``, ``path = os.path.join(root, opt.checkpoint)``,
    ``exp_name = args.experiment_name + "_" + args.model``: names holding a value made from
    a few fields of the config (not the whole of it), and those fields."""
    out = _Copies()
    plain = out.plain
    for stmt in index.assigns:
        value = stmt.value
        if value is not None and mentioned.span_has(value) and any(
            isinstance(n, (ast.Attribute, ast.Subscript)) and isinstance(n.value, ast.Name) and n.value.id in alias_roots for n in walk(value)
        ):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if len(targets) != 1:
                continue
            target = targets[0]
            # `LR, EPOCHS = args.lr, args.epochs`: one copy per element
            if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(target.elts) == len(value.elts):
                pairs = list(zip(target.elts, value.elts))
            else:
                pairs = [(target, value)]
            for name, part in pairs:
                if isinstance(name, ast.Name):
                    items = dict_items(part)
                    if items is not None:
                        # `payload = {"seed": int(args.seed), "bs": args.bs}`: the fields it holds as they are
                        held = frozenset(f for v in items if _plain_field_value(v) for f in mentions([v], aliases)[1])
                        if held:
                            out[name.id] = held
                            plain.add(name.id)
                        continue
                    whole, fields = mentions([part], aliases)
                    if len(fields) == 1 and _nested_item(part, alias_roots):
                        # `epochs = cfg["train"]["epochs"]`, `lr = cfg["train"]["lr"]`: two fields
                        fields = {ast.unparse(part)}
                    joined = _is_text(part) or _is_path_join(part)
                    if joined and not whole:
                        # `save_fold_dir = SAVE_DIR / f"fold_{args.fold}"`, SAVE_DIR a copy too
                        fields = set(fields).union(*(out[n.id] for n in walk(part) if isinstance(n, ast.Name) and n.id in out))
                    # several fields only when joined into text (a run name), not computed
                    # into a number (`total = args.num_steps * args.num_processes`)
                    if not whole and (len(fields) == 1 or (len(fields) <= 6 and joined)):
                        out[name.id] = frozenset(fields)
                        if _plain_field_value(part):
                            plain.add(name.id)
                elif isinstance(name, ast.Attribute) and _plain_field_value(part) and root_name(name) not in alias_roots:
                    # `cfg.fold = args.fold`: copied onto the run's own settings object
                    key = plain_dotted(name)
                    whole, fields = mentions([part], aliases)
                    if key and not whole and len(fields) == 1:
                        out[key] = frozenset(fields)
                        plain.add(key)
                elif (
                    isinstance(name, ast.Subscript) and isinstance(name.value, ast.Name) and name.value.id not in alias_roots
                    and _plain_field_value(part)
                ):
                    # `config["lr"] = args.lr`: the run's own dict of them, field by field
                    whole, fields = mentions([part], aliases)
                    if not whole and len(fields) == 1:
                        out[name.value.id] = out.get(name.value.id, frozenset()) | frozenset(fields)
                        plain.add(name.value.id)
    # A report line built from the copies (`result = f"NUM_GPUS[{NUM_GPUS}] ..."`, then
    # `logger.info(result)`), or a dict of them (`vae_params = dict(num_tokens=NUM_TOKENS, ...)`,
    # then `model_config = dict(**vae_params, epochs=EPOCHS)` for `wandb.init(config=...)`),
    # holds their fields.
    for _ in range(2 if out else 0):
        for stmt in index.assigns:
            if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name):
                continue
            value = stmt.value
            target = stmt.targets[0].id
            items = dict_items(value)
            if target in out and items is None:
                continue
            if items is not None:
                # (only copies of the values: a dict holding the model built from `cfg["nclass"]` holds no setting)
                held = [out[n.id] for n in walk(value) if isinstance(n, ast.Name) and n.id in plain and n.id != target]
                if held:
                    plain.add(target)
                    held.append(out.get(target, frozenset()))
            elif _is_text(value):
                held = [out[n.id] for n in walk(value) if isinstance(n, ast.Name) and n.id in out]
            else:
                continue
            if held:
                out[target] = frozenset().union(*held)
    return out


# How a settings object is handed over whole: `config=hp.to_dict()`, `config=vars(hp)`.
WHOLE_OBJECT_VIEWS = frozenset({"to_dict", "dict", "__dict__", "as_dict", "asdict", "model_dump", "to_container"})


def _names_bound_to_calls_of(index: _ConfigIndex, mentioned: "_RootLines") -> Iterator[tuple[str, ast.Call]]:
    """(name, call) for each ``name = Call(...)`` whose call's lines mention the config."""
    for stmt in index.assigns:
        value = stmt.value
        if value.__class__ is not ast.Call or stmt.__class__ is not ast.Assign or len(stmt.targets) != 1:
            continue
        target = stmt.targets[0]
        if target.__class__ is ast.Name and mentioned.span_has(value):
            yield target.id, value


def _copied_into_a_recorded_object(facts: ModuleFacts, index: _ConfigIndex, aliases: set[str], mentioned: "_RootLines") -> bool:
    """``hp = SACHP(EXP_NAME=args.name, LR=args.lr, ...)`` then
    ``wandb.init(config=hp.to_dict())``: the options were copied into an object whose
    whole is recorded."""
    records = facts.calls_in("config_record")
    if not records:
        return False
    holders: set[str] = set()
    for target, value in _names_bound_to_calls_of(index, mentioned):
        if len(value.keywords) + len(value.args) < 2:
            continue
        if len(_direct_fields([a.value for a in value.keywords] + list(value.args), aliases)) >= 2:
            holders.add(target)
    if not holders:
        return False
    for site in records:
        for expr in call_exprs(site):
            for node in walk(expr):
                if isinstance(node, ast.Attribute) and node.attr in WHOLE_OBJECT_VIEWS:
                    node = node.value
                elif isinstance(node, ast.Call) and _last(dotted_name(node.func)) in ("vars", "asdict") and node.args:
                    node = node.args[0]
                else:
                    continue
                if isinstance(node, ast.Name) and node.id in holders:
                    return True
    return False


def _handed_to_a_self_saving_project_object(facts: ModuleFacts, index: _ConfigIndex, aliases: set[str], mentioned: "_RootLines") -> bool:
    """``net = getattr(models, args.model)(args)`` (or ``models.RNN(args)``) then
    ``net.save()``: the whole config goes into an object of the project's own (imported,
    unseen) module that writes its own checkpoints, and such a ``save()`` keeps the
    arguments the object was built with (SummaRuNNer's ``BasicModule.save`` stores
    ``self.args``), as this file shows when it reads them back from a checkpoint
    (``getattr(models, checkpoint["args"].model)(checkpoint["args"])``)."""
    project = index_of(facts).project_imports
    if not project:
        return False
    for target, value in _names_bound_to_calls_of(index, mentioned):
        func = value.func
        if isinstance(func, ast.Call) and _last(dotted_name(func.func)) == "getattr" and func.args:
            func = func.args[0]  # `getattr(models, args.model)`: a class of that module
        head = root_name(func)
        if head is None or head not in project:
            continue
        if not any(f"{target}.{method}" in facts._calls_by_name for method in SELF_SAVE_METHODS):
            continue
        if mentions_whole(list(value.args) + [k.value for k in value.keywords], aliases):
            return _config_read_back_from_a_checkpoint(facts)
    return False


# An object's own checkpoint writer, called with nothing but a path (if that).
SELF_SAVE_METHODS = ("save", "save_checkpoint", "save_model")
# The key a checkpoint keeps its run's arguments under.
CHECKPOINT_CONFIG_KEY = frozenset({"args", "config", "cfg", "opt", "opts", "hparams", "hyper_parameters", "hyperparams"})


def _config_read_back_from_a_checkpoint(facts: ModuleFacts) -> bool:
    """``checkpoint = torch.load(path)`` then ``checkpoint["args"]``: the checkpoints this
    project writes carry the run's arguments."""
    loaded: dict[Scope, set[str]] = {}
    for site in facts.calls_in("load"):
        stmt = site.info.stmt
        if isinstance(stmt, ast.Assign) and stmt.value is site.node and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            loaded.setdefault(site.scope, set()).add(stmt.targets[0].id)
    # (each scope walked once, for all the checkpoints loaded in it)
    for scope, names in loaded.items():
        for node in walk(scope.node):
            if (
                isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in names
                and isinstance(node.slice, ast.Constant) and node.slice.value in CHECKPOINT_CONFIG_KEY
            ):
                return True
    return False


LIGHTNING_PACKAGES = ("pytorch_lightning", "lightning")


# Keywords that name the folder a run's log or checkpoints go to.
RUN_FOLDER_KEYWORDS = frozenset({"log_dir", "logdir", "save_dir", "checkpoint_dir", "dirpath", "output_dir", "run_dir", "ckpt_dir"})


def _run_folder_named_after_fields(facts: ModuleFacts, index: _ConfigIndex, aliases: set[str], mentioned: "_RootLines") -> bool:
    """``run_name = f"runs/layer_{args.n_layers}/lr_{args.lr}/wd_{args.weight_decay}"`` handed
    to ``TensorBoardLoggerCallback(log_dir=run_name)`` or ``ModelCheckpoint(dirpath=run_name)``:
    the run's folder is named after its hyperparameters (as a TensorBoard comment would be)."""
    named: set[str] = set()
    for stmt in index.assigns:
        if (
            stmt.__class__ is ast.Assign and len(stmt.targets) == 1 and stmt.targets[0].__class__ is ast.Name
            and stmt.value.__class__ is ast.JoinedStr and mentioned.span_has(stmt.value)
            and _enough_hyperparameters(_direct_fields([stmt.value], aliases))
        ):
            named.add(stmt.targets[0].id)
    if not named:
        return False
    return any(
        kw.arg in RUN_FOLDER_KEYWORDS and kw.value.__class__ is ast.Name and kw.value.id in named
        for site in facts.calls for kw in site.node.keywords
    )


def _lightning_hparams_assigned(facts: ModuleFacts, index: _ConfigIndex, aliases: set[str], mentioned: "_RootLines") -> bool:
    """``self.hparams = args`` in a LightningModule: the pre-1.0 spelling of
    ``save_hyperparameters(args)``; the Trainer logs them (hparams.yaml) and keeps them in
    every checkpoint."""
    for stmt in index.assigns:
        target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else getattr(stmt, "target", None)
        if not (
            isinstance(target, ast.Attribute) and target.attr == "hparams"
            and isinstance(target.value, ast.Name) and target.value.id == "self"
        ):
            continue
        info = facts.info(stmt)
        if info is None or not any(b.endswith("LightningModule") for b in info.scope.class_bases):
            continue
        if stmt.value is not None and mentioned.span_has(stmt.value) and mentions_whole([stmt.value], aliases):
            return True
    return False


def _handed_to_a_fitted_lightning_module(facts: ModuleFacts, index: _ConfigIndex, aliases: set[str], mentioned: "_RootLines") -> bool:
    """``model = PlModelInterface(**vars(args))`` then ``trainer.fit(model)`` in a Lightning
    script: the whole config goes into the LightningModule's ``__init__``, which
    ``save_hyperparameters()`` records in hparams.yaml and every checkpoint."""
    if not any(v.split(".", 1)[0] in LIGHTNING_PACKAGES for v in facts.aliases.values()):
        return False
    fitted: set[str] = set()
    for site in calls_named_ending(facts, ".fit", in_order=False):
        model = site.node.args[0] if site.node.args else site.kwarg("model")
        if isinstance(model, ast.Name):
            fitted.add(model.id)
    if not fitted:
        return False
    for target, value in _names_bound_to_calls_of(index, mentioned):
        if target not in fitted:
            continue
        if not mentions_whole([*value.args, *(k.value for k in value.keywords)], aliases):
            continue
        name = dotted_name(value.func, facts.aliases) or ""
        init = facts.functions.get(f"{name}.__init__")
        if init is None:  # the module's class is in another file: it very likely does
            return True
        if any(call.method == "save_hyperparameters" for call in init.calls):
            return True
    return False


def _direct_fields(exprs: list[ast.AST], aliases: set[str]) -> set[str]:
    out: set[str] = set()
    for expr in exprs:
        for value in _direct_values(expr):
            if isinstance(value, (ast.Attribute, ast.Subscript)):
                _, fields = mentions([value], aliases)
                if fields and root_name(value) in {a.split(".")[0] for a in aliases}:
                    out |= fields
    return out


def config_recorded(facts: ModuleFacts, names: Iterable[str], *, whole: bool = False) -> bool:
    """Is this configuration (under any of ``names``) logged or recorded anywhere in the
    module? Flow-insensitive on purpose: a config printed in a helper counts. With
    ``whole``, only a record of every field counts (``print(args)``, ``wandb.init(config=cfg)``),
    not a few hyperparameters logged one by one: the question is then whether any field
    (the output folder) can be read off the record. (Cached per set of names.)"""
    key = (frozenset(names), whole)
    cache = getattr(facts, "_dllog_config_recorded", None)
    if cache is None:
        cache = facts._dllog_config_recorded = {}  # type: ignore[attr-defined]
    found = cache.get(key)
    if found is None:
        # A whole record is one kind of record: where there is none, there is no whole one
        # (when DLL600 already asked; the whole-only walk is the cheaper one to start).
        found = cache[key] = cache.get((key[0], False)) is not False and _config_recorded(facts, key[0], whole)
    return found


def _config_recorded(facts: ModuleFacts, names: frozenset[str], whole_only: bool) -> bool:
    idx = index_of(facts)
    if idx.command_line_logged and not names.isdisjoint(idx.parsed_argument_names):
        return True  # `print(" ".join(sys.argv))`: the parsed namespace is in the log
    aliases = config_aliases(facts, names)
    if any(param in aliases for _, param in hydra_configs(facts)):
        return True  # Hydra writes the composed config into the run directory
    index = _config_index(facts)
    logged_fields: set[str] = set()
    alias_roots = {a.split(".")[0] for a in aliases}
    for site in index.self_recording:
        # (only a receiver hanging off an alias's root can be one: its text is built then)
        if root_name(site.receiver) in alias_roots and plain_dotted(site.receiver) in aliases:
            return True
    mentioned = _RootLines(facts, aliases)
    # Neptune `run["parameters"] = vars(args)`, `wandb.config.hparams = cfg`: stored into a tracker.
    for stmt in index.tracker_stores:
        if mentioned.span_has(stmt.value) and mentions_whole([stmt.value], aliases):
            return True
    if _lightning_hparams_assigned(facts, index, aliases, mentioned):
        return True
    # `opt = parse_arguments(parser)` where the file's own helper prints the namespace it returns
    for stmt in index.assigns:
        value = stmt.value
        if value.__class__ is ast.Call and value.func.__class__ is ast.Name and value.func.id in facts.functions:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if any(isinstance(t, ast.Name) and t.id in aliases for t in targets) and _returns_what_it_records(facts, value):
                return True
    # (a config saved inside the checkpoint says nothing about where that checkpoint went)
    saves = {id(site.node) for site in facts.calls_in("save")} if whole_only else ()
    for site, how in _record_calls(facts):
        if not mentioned.span_has(site.node) and not (how == "record" and _last(site.name) == "save_hyperparameters"):
            continue
        if id(site.node) in saves:
            continue
        exprs = call_exprs(site)
        whole, fields = mentions(exprs, aliases)
        if how == "record" and _last(site.name).endswith("Trainer"):
            # HF `Trainer(args=training_args)` saves and reports its arguments; a
            # Lightning `Trainer(max_epochs=args.epochs)` does not record the config.
            if whole:
                return True
            continue
        if whole and how in ("log", "record", "store", "helper"):
            return True
        if how == "record" and fields and not whole_only:
            return True  # `wandb.init(config={"lr": args.lr, ...})`: the author chose
        if how == "helper" and len(fields) >= 2 and not whole_only and PARAMETER_RECORDER_NAME.search(_last(site.name)):
            return True  # the project's `mlflow_log_params({"lr": cfg["lr"], "arch": ...})`
        if how == "helper" and len(fields) >= 2 and not whole_only and FILE_DUMP_NAME.search(_last(site.name)):
            return True  # `dump_json(run_dir / "splits.json", {"seed": args.seed, "bs": args.bs})`
        if (how == "log" or (how == "helper" and DISPLAY_NAME.search(_last(site.name)))) and not whole_only:
            logged_fields |= _direct_fields(exprs, aliases)
        elif how == "store" and not whole_only and _is_text_write(site, exprs):
            # `f.write("lr: {}, epochs: {}\n".format(args.lr, args.epochs))`: a run record by hand
            logged_fields |= _direct_fields(exprs, aliases)
        if how == "record" and _last(site.name) == "save_hyperparameters" and not exprs:
            return True  # Lightning records the module's init arguments
    if _enough_hyperparameters(logged_fields):
        return True
    # `TrainingArguments(learning_rate=args.lr, num_train_epochs=args.epochs)`: the run's
    # hyperparameters, which the Trainer saves with every checkpoint (training_args.bin)
    # and reports to its trackers; one field (`output_dir=args.out`) says nothing of them.
    copies = _field_copies(index, alias_roots, aliases, mentioned) if not whole_only else _Copies()
    if copies:
        # `NUM_TOKENS = args.num_tokens` ... `wandb.init(config=dict(num_tokens=NUM_TOKENS, ...))`
        for site, how in _record_calls(facts):
            if how == "record" and len({
                f for e in call_exprs(site) for n in walk(e) if isinstance(n, ast.Name) and n.id in copies.plain for f in copies[n.id]
            }) >= 2:
                return True
    # ... and a TensorBoard run named after them (`SummaryWriter(comment=f"-lr{args.lr}-bs{args.bs}")`).
    # ... or a tracker run named after them (`WandbLogger(name=f"{args.model}-{args.lr}")`).
    for site in calls_named_ending(facts, ("TrainingArguments", "Config", "SummaryWriter") + TRACKER_LOGGERS, in_order=False):
        if site.name.startswith(HF_ARGUMENTS_PACKAGES) or site.name.endswith(("SummaryWriter",) + TRACKER_LOGGERS):
            exprs = call_exprs(site)
            whole, fields = mentions(exprs, aliases)
            fields |= {f for e in exprs for n in walk(e) if isinstance(n, ast.Name) and n.id in copies for f in copies[n.id]}
            if whole or (len(fields) >= 2 and not whole_only):
                return True
    if _copied_into_a_recorded_object(facts, index, aliases, mentioned):
        return True
    if not whole_only and _run_folder_named_after_fields(facts, index, aliases, mentioned):
        return True
    if _handed_to_a_fitted_lightning_module(facts, index, aliases, mentioned):
        return True
    # (not for a path: the checkpoint keeping the config says nothing of where it went)
    if not whole_only and (
        _section_recorded_whole(facts, index, alias_roots)
        or _handed_to_a_self_saving_project_object(facts, index, aliases, mentioned)
    ):
        return True
    # `exp.get_trainer(args)`, `launch(main, args=(exp, args))` into the project's own
    # trainer (YOLOX logs "args: ..." in Trainer.before_train): cannot tell, so silent.
    for site in _project_runner_calls(facts):
        if site.target is None:
            handed = _runner_arguments(facts, site, mentioned)
            if mentions_whole(handed, aliases):
                return True
            # `train_model(opt.epochs, opt.checkpoint_dir)`: every option there is, one by one
            options = _option_names(facts)
            if options and {f.rsplit(".", 1)[-1] for f in mentions(handed, aliases)[1]} >= options:
                return True
    if copies:
        shown = []
        for site, how in _record_calls(facts):
            exprs = call_exprs(site)
            # `dump_json(run_dir / "splits.json", payload)` of a dict built from them, as of the dict itself
            if how == "helper" and (FILE_DUMP_NAME.search(_last(site.name)) or PARAMETER_RECORDER_NAME.search(_last(site.name))):
                if len({f for e in exprs if isinstance(e, ast.Name) and e.id in copies.plain for f in copies[e.id]}) >= 2:
                    return True
            # (and hand-written run records, `f.write("trn: {} batch: {}".format(train_file, bsz))`,
            # and the project's display helpers, `simple_table([("Batch Size", batch_size), ("LR", lr)])`)
            if (how == "store" and _is_text_write(site, exprs)) or (how == "helper" and DISPLAY_NAME.search(_last(site.name))):
                shown.append(site)
        for site in list(facts.logging_calls) + shown:
            for expr in call_exprs(site):
                logged_fields |= {f for n in _direct_values(_str_call_argument(expr) or expr) for f in copies.get(_copy_key(n), ())}
        # A checkpoint named after them (`f"./Burgers_lr={lr}_width={width}.pt"`) keeps them
        # too; its folder (`log_dir + "weights.h5"`) is only where it went.
        for site in facts.calls_in("save"):
            for expr in call_exprs(site):
                logged_fields |= {
                    f for n in _direct_values(expr) if isinstance(n, ast.Name) and n.id in copies
                    for f in copies[n.id] if not PATH_FIELD.search(f.rsplit(".", 1)[-1])
                }
        if _enough_hyperparameters(logged_fields):
            return True
    # every option the parser defines is in the log (the ones saying where and how to run aside)
    options = _option_names(facts)
    hyperparameters = {o for o in options if not INFRA_OPTION.match(o)}
    logged_options = {f.rsplit(".", 1)[-1] for f in logged_fields}
    if options and (logged_options >= options or (hyperparameters and logged_options >= hyperparameters)):
        return True
    if not whole_only:
        logged_fields |= _fields_logged_as_parameters(facts, alias_roots, aliases)
        unpacked = _fields_unpacked_into_callee(facts, aliases)
        if unpacked is True:
            return True
        logged_fields |= unpacked
    if _enough_hyperparameters(logged_fields):
        return True
    # `for k, v in vars(args).items(): print(k, v)`
    log_lines = sorted(c.node.lineno for c in facts.logging_calls)
    for stmt in index.for_loops:
        if not mentioned.span_has(stmt.iter):
            continue
        # a log call within the loop's lines first (cheap), then the iterable's walk
        start, end = stmt.lineno, stmt.end_lineno or stmt.lineno
        first = bisect_left(log_lines, start)
        if first < len(log_lines) and log_lines[first] <= end and mentions_whole([stmt.iter], aliases):
            return True
    return False


# Keys that name where things run or how to reach them (hosts, buckets, credentials), not
# how the model is trained: a file holding only these is not a run's configuration, and
# logging it would leak secrets.
INFRASTRUCTURE_KEY_RE = re.compile(
    r"(?:^|_)(?:key|keys|secret|token|password|passwd|credentials?|endpoint|uri|url|host|port|bucket|region|username|dsn)(?:$|_)"
    r"|access_?key|api_?key",
    re.I,
)


def _infrastructure_only(facts: ModuleFacts, load: ConfigLoad) -> bool:
    """Is the loaded file read only for infrastructure keys (``cfg["tracking_uri"]``,
    ``cfg.get("s3_endpoint")``, ``cfg.host``)? A config used any other way (whole, passed
    on, iterated), or not at all, is not."""
    names = set(load.names)
    # The load statement and the blocks around it (`with open(...) as f:`) bind it.
    binding: set[int] = set()
    info = facts.info(load.stmt)
    while info is not None:
        binding.add(id(info.stmt))
        info = info.parent
    uses = 0
    keys: list[str] = []
    nested = False  # `cfg["train"]["lr"]`: a key that holds a section (or an attribute read)
    for info in facts.scope_stmts(load.scope):
        if id(info.stmt) in binding:
            continue
        for node in own_expressions(info.stmt):
            for sub in walk(node):
                cls = sub.__class__
                if cls is ast.Name:
                    uses += sub.id in names
                elif cls in (ast.Subscript, ast.Attribute) and sub.value.__class__ is ast.Subscript and _is_name_in(sub.value.value, names):
                    nested = True
                if cls is ast.Subscript and _is_name_in(sub.value, names):
                    key = sub.slice
                    if isinstance(key, ast.Constant) and isinstance(key.value, str):
                        keys.append(key.value)
                elif cls is ast.Attribute and _is_name_in(sub.value, names) and sub.attr != "get":
                    keys.append(sub.attr)
                    nested = True  # (`cfg.merge_from_file(...)`: maybe a method, not a key)
                elif (
                    cls is ast.Call
                    and isinstance(sub.func, ast.Attribute)
                    and sub.func.attr == "get"
                    and _is_name_in(sub.func.value, names)
                    and sub.args
                    and isinstance(sub.args[0], ast.Constant)
                    and isinstance(sub.args[0].value, str)
                ):
                    keys.append(sub.args[0].value)
    if not (uses > 0 and uses == len(keys)):
        return False
    if all(INFRASTRUCTURE_KEY_RE.search(key) for key in keys):
        return True
    # `data_config["train"]`, `data_config["root"]`: a dataset manifest (file lists and
    # folders), not the run's hyperparameters
    return not nested and all(DATA_MANIFEST_KEY.match(key) for key in keys)


DATA_MANIFEST_KEY = re.compile(
    r"^(?:train|val|valid|validation|test|dev|root|data_?root|paths?|files?|(?:\w+_)?(?:root|dir|path|paths|file|files|list))$",
    re.I,
)


def _is_name_in(node: ast.AST, names: set[str]) -> bool:
    return node.__class__ is ast.Name and node.id in names  # type: ignore[attr-defined]


def _section_recorded_whole(facts: ModuleFacts, index: _ConfigIndex, alias_roots: set[str]) -> bool:
    """``params = config["experiments"][name]`` then ``torch.save({"state_dict": ...,
    "config": params}, path)`` (or a tracker/serialiser record of it): the part of the
    config that sets this run apart is kept whole, by the author's choice."""
    sections = _sections(index, alias_roots, subscripts_only=True)
    if not sections:
        return False
    for site, how in _record_calls(facts):
        if how == "record":
            # `json.dump(params, f)`, `wandb.config.update(params)`
            if mentions_whole(call_exprs(site), sections):
                return True
        elif how == "store":
            # (a value of the saved dict, not a folder in its path: `{"config": params}`)
            for expr in call_exprs(site):
                values = dict_items(expr)
                if values and any(isinstance(v, ast.Name) and v.id in sections for v in values):
                    return True
    return False


def _sections(index: _ConfigIndex, alias_roots: set[str], *, subscripts_only: bool = False) -> set[str]:
    """Names bound to one part of the config: ``train_cfg = cfg["train"]`` (and, unless
    ``subscripts_only``, ``train_cfg = cfg.train``)."""
    out: set[str] = set()
    for stmt in index.assigns:
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        if len(targets) != 1 or stmt.value is None:
            continue
        target, value = targets[0], stmt.value
        if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(target.elts) == len(value.elts):
            pairs = list(zip(target.elts, value.elts))
        else:
            pairs = [(target, value)]
        for name, part in pairs:
            if isinstance(name, ast.Name) and isinstance(part, (ast.Subscript,) if subscripts_only else (ast.Attribute, ast.Subscript)) and root_name(part) in alias_roots:
                out.add(name.id)
    return out


def _fields_logged_as_parameters(facts: ModuleFacts, alias_roots: set[str], aliases: set[str]) -> set[str]:
    """Config fields handed to a same-module function under a parameter that function
    logs: ``train_net(epochs=args.epochs, lr=args.lr)`` where ``train_net`` says
    ``logging.info(f"Epochs: {epochs} Learning rate: {lr}")`` (milesial/Pytorch-UNet).
    Arguments are matched to parameters as _follow_aliases() does, from the same index."""
    out: set[str] = set()
    logged_params: dict[int, tuple[set[str], set[str]]] = {}
    # `lcfg, tcfg = cfg["lora"], cfg["train"]`: fields of a section are config fields too.
    sections = _sections(_config_index(facts), alias_roots)
    if sections:
        alias_roots = alias_roots | sections
        aliases = aliases | sections
    for call in _config_index(facts).flow_calls:
        params = call.params
        target = call.target
        if target is None or not params:
            continue
        passed = [(kw.arg, kw.value) for kw in call.keywords if kw.arg in params]
        for i, arg in enumerate(call.positional):
            if isinstance(arg, ast.Starred) or i + call.offset >= len(params):
                break
            passed.append((params[i + call.offset], arg))
        for param, value in passed:
            if not isinstance(value, (ast.Attribute, ast.Subscript)) or root_name(value) not in alias_roots:
                continue
            _, fields = mentions([value], aliases)
            if not fields:
                continue
            names = logged_params.get(id(target))
            if names is None:
                # (or recorded: `wandb.init(config={"lr": lr, ...})` in `Trainer.__init__`)
                logged = {
                    n.id for c in target.calls if facts.is_logging(c) or facts.is_category(c, "config_record")
                    for n in walk(c.node) if isinstance(n, ast.Name)
                }
                # (a checkpoint saved with it, or named after it, keeps it too:
                # `torch.save(..., f"models/subset_{subset_percentage}/final.pth")`)
                saved = {n.id for c in target.calls if facts.is_category(c, "save") for n in walk(c.node) if isinstance(n, ast.Name)}
                # ... through the path built before it (`run_dir = join(MODELS, f"{dataset}_subset_{pct}")`)
                bindings = index_of(facts).assignments(target)
                # ... and a log of the value it settles to (`max_epochs = max_epochs_override or 10`,
                # `... if override is None else override`; not a value computed from it)
                logged |= {
                    n.id for name in list(logged) for _, v in bindings.get(name, ())
                    for n in (v.values if v.__class__ is ast.BoolOp else (v.body, v.orelse) if v.__class__ is ast.IfExp else ())
                    if n.__class__ is ast.Name
                }
                saved |= {n.id for name in list(saved) for _, v in bindings.get(name, ()) if v is not None for n in walk(v) if isinstance(n, ast.Name)}
                names = logged_params[id(target)] = (logged, saved)
            logged, saved = names
            if param in logged:
                out |= fields
            elif param in saved:
                # (its folder, `save_models(epoch, args.save_dir, ...)`, is only where it went)
                out |= {f for f in fields if not PATH_FIELD.search(f.rsplit(".", 1)[-1])}
    return out


def _fields_unpacked_into_callee(facts: ModuleFacts, aliases: set[str]) -> "set[str] | bool":
    """``main(**vars(args))`` / ``main(**args.__dict__)``: every field becomes a parameter of
    the file's ``main``. True when ``main`` hands some of them to a tracker's record call
    (``wandb.init(config={"lr": lr, ...})``: the author chose what to record), else the
    fields it logs (``print(f"lr={lr}")``), as ``args.<name>``."""
    out: set[str] = set()
    record_sites = None
    for call in _config_index(facts).flow_calls:
        target, params = call.target, call.params
        if target is None or not params:
            continue
        unpacked = [kw.value for kw in call.site.node.keywords if kw.arg is None and mentions_whole([kw.value], aliases)]
        if not unpacked:
            continue
        root = root_name(unpacked[0].args[0] if isinstance(unpacked[0], ast.Call) and unpacked[0].args else unpacked[0]) or "config"
        if record_sites is None:
            record_sites = {id(site.node): how for site, how in _record_calls(facts)}
        own = set(params)
        for site in target.calls:
            how = record_sites.get(id(site.node))
            if how not in ("record", "log"):
                continue
            names = {n.id for e in call_exprs(site) for n in walk(e) if isinstance(n, ast.Name)} & own
            if how == "record" and names:
                return True
            out |= {f"{root}.{n}" for n in names}
    return out


# Calls that keep a copy of a file (the config file itself, next to the run's outputs).
FILE_KEEPING_CALLS = frozenset({"copy", "copyfile", "copy2", "copytree", "log_artifact", "log_artifacts", "save", "add_artifact"})


def _source_paths(facts: ModuleFacts, load: ConfigLoad) -> set[str]:
    """Source text of the path a config was read from (``open(args.config)`` → ``args.config``)."""
    out: set[str] = set()
    args = load.site.node.args
    first = args[0] if args else None
    handles: set[str] = set()
    if isinstance(first, ast.Call) and _last(dotted_name(first.func)) == "open" and first.args:
        out.add(facts.segment(first.args[0]))
    elif isinstance(first, ast.Name):
        handles.add(first.id)
        out.add(first.id)
    elif isinstance(first, (ast.Attribute, ast.Constant, ast.JoinedStr, ast.Subscript)):
        out.add(facts.segment(first))
    if _last(load.site.name) == "merge_from_file" and first is not None:
        out.add(facts.segment(first))
    # `with open(path) as f: cfg = yaml.safe_load(f)`
    info = facts.info(load.stmt)
    parent = info.parent if info is not None else None
    while parent is not None:
        stmt = parent.stmt
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            for item in stmt.items:
                expr = item.context_expr
                target = item.optional_vars
                if (
                    isinstance(expr, ast.Call)
                    and _last(dotted_name(expr.func)) == "open"
                    and expr.args
                    and isinstance(target, ast.Name)
                    and target.id in handles
                ):
                    out.add(facts.segment(expr.args[0]))
        parent = parent.parent
    return {t for t in out if t}


def config_file_kept(facts: ModuleFacts, load: ConfigLoad) -> bool:
    """The config file itself is copied next to the run or logged as an artifact
    (``shutil.copyfile(opt.config, save_dir / "config.yaml")``, ``wandb.save(args.config)``)."""
    paths = _source_paths(facts, load)
    if not paths:
        return False
    for site in _file_keeping_calls(facts):
        for arg in call_exprs(site):
            if any(facts.segment(node) in paths for node in walk(arg) if isinstance(node, (ast.Name, ast.Attribute, ast.Subscript, ast.Constant))):
                return True
    # `PytorchTrainer(train_config=TrainConfiguration(config_path=args.config))`: the project's
    # own trainer reads the same file (and records it where this file cannot see)
    for site in _project_runner_calls(facts):
        for arg in _runner_arguments(facts, site):
            if any(facts.segment(node) in paths for node in walk(arg) if isinstance(node, (ast.Name, ast.Attribute, ast.Subscript))):
                return True
    return False


def _project_runner_calls(facts: ModuleFacts) -> Iterator[CallSite]:
    """Calls into the project's own (imported, unseen) trainers and launchers."""
    for name, sites in facts._calls_by_name.items():
        if name and RUNNER_NAME.search(name.rsplit(".", 1)[-1]) and _project_runner(facts, name):
            yield from sites


def _is_text_write(site: CallSite, exprs: list) -> bool:
    """``f.write("lr: {}, epochs: {}\\n".format(...))``: text written by hand, a run record."""
    return site.method in ("write", "writelines") and bool(exprs) and all(_is_text(e) for e in exprs)


def _runner_arguments(facts: ModuleFacts, site: CallSite, mentioned: "_RootLines | None" = None) -> list[ast.AST]:
    """A call's arguments and, for each settings name among them, the value it was bound to in
    the same function (``trainer_config = TrainConfiguration(config_path=args.config, ...)``
    then ``PytorchTrainer(train_config=trainer_config, evaluator=SegEvaluator(args))``).
    With ``mentioned``: only those on lines that name a config root."""
    exprs = call_exprs(site)
    out = [e for e in exprs if mentioned is None or mentioned.span_has(e)]
    bindings = index_of(facts).assignments(site.scope)
    for e in exprs:
        # (a settings object, not `model = build(cfg)`: a model made from the config says
        # nothing of whether the runner records it)
        if isinstance(e, ast.Name) and CONFIG_FILE_WORD.search(e.id):
            for stmt, value in bindings.get(e.id, ()):
                if value is not None and stmt.lineno < site.node.lineno and (mentioned is None or mentioned.span_has(value)):
                    out.append(value)
    return out


def _file_keeping_calls(facts: ModuleFacts) -> list[CallSite]:
    """Calls that may keep a copy of a file: copies, artifact logs, any log call (cached)."""
    cached = getattr(facts, "_dllog_file_keeping_calls", None)
    if cached is None:
        cached = [
            site for site in facts.calls
            if _last(site.name) in FILE_KEEPING_CALLS or facts.is_logging(site)
            # `deepspeed.initialize(config=args.deepspeed_config)` prints the file it is given
            or site.name == "deepspeed.initialize"
        ]
        facts._dllog_file_keeping_calls = cached  # type: ignore[attr-defined]
    return cached


# -- DLL600 --------------------------------------------------------------------------


# Options that say where and how to run, not what to train: a parser made only of these
# (plus on/off switches) carries no hyperparameters; they live in a config file or in code.
INFRA_OPTION = re.compile(
    r"^-*(local[_-]?rank|rank|node[_-]?rank|nr|(local[_-]?)?world[_-]?size|nproc[_-]?per[_-]?node|n?nodes|num[_-]?nodes|dist[_-]?(url|backend|on[_-]?itp)|gpus?|gpu[_-]?ids?|"
    r"devices?|cuda|device[_-]?ids?|num[_-]?workers|workers|j|config|configuration|cfg|c|cp|cn|config[_-]?(file|path|name)|cfg[_-]?(file|path)|opts|"
    # the `.env` file of credentials and endpoints
    r"env|env[_-]?file|dotenv([_-]?(file|path))?|"
    r"resume|checkpoint|ckpt|max[_-]?(checkpoints|to[_-]?keep)|"
    # where things are read from or written to (`--gen_dir`, `--data_root`, `--ckpt_path`)
    r"([a-z0-9_-]*[_-]|log|logs|out|save|work|data|ckpt|checkpoint|output|model|gen|result|results|exp|run|cache)?(dir|dirs|path|paths|root|file|files|folder)|"
    # (`--output`, `--pretrained`, `--train_images`, `--val_masks`: the data and weights it reads and writes)
    r"out|output|pretrained|(train|val|valid|validation|test)[_-]?(images|imgs|masks|labels|annotations|csv)|"
    r"debug|verbose|log[_-]?(lv|level)|loglevel|port|master[_-]?(addr|port)|(ray[_-]?|redis[_-]?|head[_-]?)?address|launcher|command|mode|cpu|fp16|amp|bf16|"
    # what to do this time and under which name (`-evaluate`, `--do_eval`, `--run-name`)
    r"evaluate|eval|test|predict|inference|(do|only)[_-]?(train|eval|test|predict)|(eval|test)[_-]?only|"
    r"name|(exp|run|experiment)[_-]?(name|id|tag)|tag|"
    # the seed is DLL501's: a parser of seeds and switches holds no hyperparameters
    r"seed|random[_-]?seed|manual[_-]?seed)$",
    re.I,
)


def _flags_only_parser(facts: ModuleFacts, load: ConfigLoad | None = None) -> bool:
    """A parser that only defines on/off switches and run-placement options (``--fp16``,
    ``--local_rank``, ``--config path.yaml``): no hyperparameters to log there (a config
    file it points to is judged on its own). An option the file never reads, from a
    namespace it never hands on whole, changes nothing either."""
    adds = _config_index(facts).add_arguments
    if not adds:
        return False
    only_fields_read = load is not None and _only_fields_read(facts, load)
    for c in adds:
        action = c.kwarg("action")
        if isinstance(action, ast.Constant) and action.value in ("store_true", "store_false"):
            continue
        names = [a.value for a in c.node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        # (`-d`, `--logdir`: the long name says what it is)
        names = [n for n in names if n.startswith("--")] or names
        if names and all(INFRA_OPTION.match(n) for n in names):
            continue
        helptext = c.kwarg("help")
        if isinstance(helptext, ast.Constant) and isinstance(helptext.value, str) and PATH_HELP.search(helptext.value):
            continue  # `--data`, help="Path to HDF5 dataset": where things are, by its own account
        if only_fields_read and _never_read(facts, c, names):
            continue  # `parser.add_argument("--latent_dim")`, and no `args.latent_dim` anywhere
        return False
    return True


def _only_fields_read(facts: ModuleFacts, load: ConfigLoad) -> bool:
    """Every use of the parsed namespace past its binding is a field (``args.filename``),
    never the whole (``main(args)``, ``vars(args)``), in a file with one parse."""
    if load.kind != "argparse" or len(load.names) != 1 or "." in load.names[0]:
        return False
    name = load.names[0]
    if len(re.findall(r"\bparse_(?:known_)?args\(", facts.text)) != 1:
        return False
    if f"{name}.__dict__" in facts.text or "getattr(" in facts.text:
        return False  # read by name: which options are read cannot be told
    whole_uses = re.findall(rf"(?<![.\w]){re.escape(name)}\b(?!\s*\.\w)", facts.text)
    return len(whole_uses) == 1  # the binding itself: `args = parser.parse_args()`


def _never_read(facts: ModuleFacts, site: CallSite, names: list[str]) -> bool:
    """The option's attribute (``dest=``, else its long name) appears nowhere in the file
    but in its own ``add_argument`` call."""
    dest = site.kwarg("dest")
    if isinstance(dest, ast.Constant) and isinstance(dest.value, str):
        field = dest.value
    elif names:
        field = names[0].lstrip("-").replace("-", "_")
    else:
        return False
    if not field.isidentifier():
        return False
    own = facts.segment(site.node) or ""
    return len(re.findall(rf"\b{field}\b", facts.text)) == len(re.findall(rf"\b{field}\b", own))


# An option's help that says it is a location (`help="Path to HDF5 dataset"`).
PATH_HELP = re.compile(r"^\s*(path|location|directory|folder|dir)\b|\b(path|directory|folder|location) (to|of|for|where)\b", re.I)


def _argumentless_parser(facts: ModuleFacts, load: ConfigLoad) -> bool:
    """``args = argparse.ArgumentParser().parse_args()`` with no options, then ``args.lr =
    3e-4``...: a namespace filled with literals in the source, nothing read from outside."""
    index = _config_index(facts)
    if index.add_arguments:
        return False
    if not any(
        isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant) and any(
            isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id in load.names for t in stmt.targets
        )
        for stmt in index.assigns
    ):
        return False
    made = [c for c in facts.calls if (c.name or "").endswith("ArgumentParser")]
    return bool(made) and all(
        c.name == "argparse.ArgumentParser" and not c.kwarg("parents") for c in made
    ) and not any(c.method in ("add_argument_group", "add_subparsers", "add_mutually_exclusive_group") for c in facts.calls)


def _argparse_captured(facts: ModuleFacts) -> bool:
    """ClearML's ``Task.init()`` hooks argparse: every parsed argument is stored with the
    task as its hyperparameters."""
    return any(site.name.startswith("clearml.") for site in calls_named_ending(facts, "Task.init", in_order=False))


def _mlflow_autologs(facts: ModuleFacts) -> bool:
    """``mlflow.autolog()``, ``mlflow.keras.autolog()``: the fit and optimizer parameters the
    configuration feeds are recorded with the run; which of its fields reach them cannot be
    told here, so the run counts as recording its configuration."""
    return any(site.name.startswith("mlflow.") for site in calls_named_ending(facts, ".autolog", in_order=False))


def _preliminary_parse(load: ConfigLoad, loads: list[ConfigLoad]) -> bool:
    """A ``parse_known_args()`` followed, in the same scope, by another command-line parse:
    the first only decides which options to add; the second is the run's configuration."""
    if load.kind != "argparse" or (load.site.method or "") != "parse_known_args":
        return False
    return any(
        other is not load and other.kind == "argparse" and other.scope is load.scope
        and other.stmt.lineno > load.stmt.lineno
        for other in loads
    )


@rule("DLL600")
def unlogged_config(facts: ModuleFacts, config: Config) -> Iterator[Report]:
    """Configuration loaded in training code and never logged or recorded."""
    loads = config_loads(facts)
    if not loads or not is_training_module(facts) or _mlflow_autologs(facts):
        return
    reported: set[tuple[str, str]] = set()
    loaded_roots = {name.split(".")[0] for load in loads for name in load.names}
    helpers_reported: set[str] = set()
    for load in loads:
        key = (load.scope.qualname, load.names[0])
        if key in reported:
            continue
        reported.add(key)
        if _built_from_loaded_config(load, loaded_roots):
            continue  # `cfg = make_cfg(args)`: the finding on `args` covers it
        if _preliminary_parse(load, loads):
            continue  # `temp_args, _ = parser.parse_known_args()` to pick more options, then the real parse
        if config_recorded(facts, load.names) or config_file_kept(facts, load):
            continue
        if load.kind == "argparse" and _feeds_a_recorded_config(facts, load, loads):
            continue  # `OmegaConf.load(args.config)`, logged or saved: the run's config is kept
        if load.kind == "argparse" and (_flags_only_parser(facts, load) or _argumentless_parser(facts, load) or index_of(facts).command_line_logged or _argparse_captured(facts)):
            continue
        if load.kind != "argparse" and _infrastructure_only(facts, load):
            continue
        if load.kind != "argparse" and _filled_only_with_literals(facts, load):
            continue  # `cfg = get_cfg()`, a model-zoo file, `cfg.SOLVER.BASE_LR = 0.00025`: all in the source
        if load.kind != "argparse" and _becomes_recorded_parser_defaults(facts, load, loads):
            continue  # `parser.set_defaults(**cfg)`, then the parsed namespace is logged
        helper = load.site.target.qualname if load.site.target is not None else None
        if helper is not None:
            # The same loader helper called from several functions: one config, one finding.
            if helper in helpers_reported:
                continue
            helpers_reported.add(helper)
        yield Report(
            load.site.node,
            context={
                "config": load.names[0],
                "configs": list(load.names),
                "config_kind": load.kind,
                "anchor": "after",
                "anchor_line": load.stmt.lineno,
                "scope": load.scope.qualname,
                "class_bases": list(load.scope.class_bases),
            },
        )
