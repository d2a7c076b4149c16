"""Detectors for checkpoint saving and loading: DLL200, DLL201, DLL210.

Shared ideas (also used by the device detector):

* **nearby logging** — a logging call (or a call to a same-module function that logs)
  within ``config.window`` statements of the site in its block, or in the blocks of the
  ``if``/``with``/``try`` statements around it (stopping at loops and functions: a log at
  the end of the training loop is not news about a checkpoint written inside it);
* a log anywhere in the site's scope that **mentions** the path or the name the loaded
  object is bound to;
* a **small wrapper** (``def save_checkpoint(...)``) that logs anywhere in its body;
* the **caller** of the function holding the site logs next to the call.

Where the engine cannot tell whether something is a checkpoint (``torch.save(features,
path)``, ``torch.load(cache_file)``) it stays silent.
"""
from __future__ import annotations

import ast
import builtins
import re
import sys
from functools import cached_property, lru_cache
from typing import Callable, Iterable, Iterator, NamedTuple

from ..config import Config
from ..facts import FUNC_TYPES, LOOP_TYPES, RECORD_FILE_NAME, SCALAR_FIELDS, CallSite, ModuleFacts, Scope, StmtInfo, child_nodes, dotted_name, is_record_file_open, walk
from . import Report, rule
from .training import calls_named_ending, framework_training_calls, is_training_module, training_loops

def memoised(test: Callable[[str], object]) -> Callable[[str], bool]:
    """``test(text) is not None`` (a compiled pattern's ``search`` or ``match``), remembered
    per text. Names and short expressions recur across sites and files, and trying a long
    case-insensitive alternation at every position costs tens of thousands of instructions."""
    return lru_cache(maxsize=4096)(lambda text: test(text) is not None)


# Words that make a saved/loaded object or its path look like model weights or a checkpoint.
CHECKPOINT_WORDS = re.compile(
    r"state_dict|model|net|ckpt|checkpoint|weight|snapshot|pretrain|encoder|decoder|backbone|"
    r"generator|discriminator|resume|\.pth\b|\.ckpt\b|\.safetensors\b|\.h5\b|\.keras\b",
    re.I,
)
# Saved objects that are checkpoint state even without a model-ish name.
CHECKPOINT_OBJECT_WORDS = re.compile(r"\bstate\b|_state\b|\bstates?_|\bsd\b|\bckpt", re.I)
# Names whose presence in a file name is run metadata (DLL201: "metadata only in the
# filename" stays silent).
METADATA_NAME = re.compile(
    r"epoch|step|iter|^it$|^ep$|^e$|^i$|^n$|round|update|batch|best|^acc|_acc|loss|score|metric|"
    r"seed|time|date|stamp|version|run_?id|run_?name|exp_?name",
    re.I,
)
# Loop counters: a log mentioning them says nothing about which file was written/read.
COUNTER_NAME = re.compile(r"^(epoch|ep|e|i|j|n|k|step|it|iter|idx|global_step|batch_idx|iteration)$")
# Keys/values of a saved dict that make it a resumable, traceable checkpoint.
METADATA_KEY = re.compile(r"epoch|step|iter|optim|sched|scaler|config|cfg|args|hparams|hyper|seed|arch", re.I)
# The receiver of state_dict() in a bare save that is not a model (optimizer state alone).
NON_MODEL_STATE = re.compile(r"optim|sched|scaler|^opt$|lr_", re.I)
# A small function whose whole body is "the save" (or "the load").
WRAPPER_NAME = re.compile(
    r"save|checkpoint|ckpt|export|dump|store|persist|snapshot|load|restore|resume|pretrain|"
    r"build|create|make|get_model|init_model|setup_model",
    re.I,
)
WRAPPER_MAX_STATEMENTS = 6
# Recording the run next to the weights (config dumps, artifact uploads) counts as metadata.
ARTIFACT_RECORD = re.compile(r"log_artifact|log_model|wandb\.save$|\.save_hyperparameters$|log_hyperparams|\.add_hparams$", re.I)
# A project's own "write the run's metadata" helper: save_meta(...), dump_config(...),
# write_run_info(...). Their arguments are a record of the run, like a log line.
RECORD_HELPER = re.compile(
    r"(^|[._])(save|write|dump|store|record|export)_?(run_?)?(meta|metadata|config|cfg|hparams|hyper\w*|args|arguments|params|options|opts|settings|manifest|info|summary)\w*$"
    r"|(^|[._])(meta|metadata|config|cfg|hparams|manifest|run_info)_?(save|write|dump|store)$",
    re.I,
)
# Module-like heads that say nothing about a path when mentioned in a log.
GENERIC_NAMES = frozenset(
    {"os", "path", "join", "Path", "pathlib", "str", "f", "format", "self", "cls", "torch", "open", "sys", "osp"}
)
# A project module that holds its constants (`import config`, `from parameters import *`).
SETTINGS_MODULE = re.compile(r"param|config|setting|const|hparam|hyper|option|setup|cfg|global|env", re.I)
PROJECT_REPORTER_NAME = re.compile(r"log|print|report|record|track", re.I)
LOGGING_HELPER_NAME = re.compile(r"log|print|report|record|track|notify|summar|announce|display|show", re.I)
# Top-level packages whose save/load calls the vocabulary describes. A save/load helper
# imported from anywhere else (the project's own `utils.save_checkpoint`) cannot be seen
# from here and may well log: stay silent.
KNOWN_LIBRARIES = frozenset({
    "torch", "torchvision", "tensorflow", "keras", "tf_keras", "transformers", "diffusers", "peft",
    "accelerate", "safetensors", "timm", "lightning", "pytorch_lightning", "lightning_fabric",
    "deepspeed", "jax", "flax", "orbax", "optax", "mmengine", "mmcv", "detectron2", "fairseq",
    "sentence_transformers", "open_clip", "huggingface_hub", "numpy", "mlflow", "wandb",
    "torch_xla", "onnx", "joblib", "pickle", "ignite", "composer", "trl", "bitsandbytes",
})
# Roots of deep-learning libraries: a module that uses none of them is not DL code
# (`manager.save()` in a Django app, `config.restore()` in a GUI).
DL_ROOTS = frozenset({
    "torch", "torchvision", "torchaudio", "tensorflow", "keras", "tf_keras", "jax", "flax", "optax",
    "orbax", "transformers", "diffusers", "peft", "accelerate", "safetensors", "timm", "lightning",
    "pytorch_lightning", "lightning_fabric", "deepspeed", "paddle", "paddlenlp", "mxnet", "mindspore",
    "sentence_transformers", "open_clip", "detectron2", "mmengine", "mmcv", "fairseq", "trl", "ultralytics",
})
# Calls that only deep-learning code makes, for snippets pasted without their imports.
DL_METHODS = frozenset({
    "state_dict", "load_state_dict", "save_pretrained", "from_pretrained", "save_weights", "load_weights",
    "backward", "zero_grad", "cuda", "train_on_batch", "apply_gradients", "parameters", "named_parameters",
})
# Transformers/diffusers verbosity switches that make `from_pretrained` log what it loads.
VERBOSITY_INFO = re.compile(r"(^|\.)set_verbosity_info$|(^|\.)set_verbosity$|enable_default_handler$|enable_progress_bar$")

is_metadata_name = memoised(METADATA_NAME.search)
has_checkpoint_words = memoised(CHECKPOINT_WORDS.search)
is_wrapper_name = memoised(WRAPPER_NAME.search)
is_artifact_record = memoised(ARTIFACT_RECORD.search)
is_record_helper = memoised(RECORD_HELPER.search)

# -- shared machinery --------------------------------------------------------------


# Printing from inside traced/compiled code: tf.print and jax.debug.print write to the log
# stream like print does (kept here until the shared logging vocabulary lists them).
TRACED_PRINTS = frozenset({"tensorflow.print", "jax.debug.print"})


def is_log_call(facts: ModuleFacts, site: CallSite) -> bool:
    return facts.is_logging(site) or (facts.print_is_logging and site.name in TRACED_PRINTS)


class _Index:
    """Per-module lookups, each built on first use (most files need only a few of them):
    who calls which local function, where logs are, what each scope binds."""

    def __init__(self, facts: ModuleFacts):
        self.facts = facts
        self._evidence: dict[int, list[CallSite]] = {}
        self._recorders: dict[int, list[CallSite]] = {}
        self._assignments: dict[int, dict[str, list[tuple[ast.stmt, ast.expr]]]] = {}
        self._records_by_name: dict[str, bool] = {}  # call names repeat: judge each once
        self._parameters: dict[int, frozenset[str]] = {}
        self._matches: dict[tuple[str, str | None], bool] = {}
        self._names: dict[int, tuple[frozenset[str], tuple[str, ...]]] = {}
        self.records_run: dict[int, bool] = {}  # per scope: does it dump its config/artifacts?
        self._config_names: dict[int, frozenset[str]] = {}
        self._plain_names: dict[int, list[str]] = {}
        self._test_scopes: dict[int, bool] = {}
        self._argument_texts: dict[int, list[str]] = {}
        self.checkpoint_saves: list[tuple[CallSite, ast.expr | None, ast.expr | None, bool]] | None = None

    def callers(self, scope: Scope) -> list[CallSite]:
        """Same-module calls of ``scope`` (``facts.callers_of``: a lookup, no index to build)."""
        return self.facts.callers_of(scope)

    def evidence(self, scope: Scope) -> list[CallSite]:
        """Evidence calls in ``scope``: logging, or a call into a same-module function that logs."""
        found = self._evidence.get(id(scope))
        if found is None:
            facts = self.facts
            found = self._evidence[id(scope)] = [
                site for site in scope.calls
                if is_log_call(facts, site) or (site.target is not None and self._calls_logging_function(site))
            ]
        return found

    def recorders(self, scope: Scope) -> list[CallSite]:
        """Calls in ``scope`` whose arguments are a record of the run: logs, config dumps,
        metadata writers."""
        found = self._recorders.get(id(scope))
        if found is None:
            facts = self.facts
            record = facts.vocabulary.matcher("config_record")
            records_by_name = self._records_by_name
            found = self._recorders[id(scope)] = []
            own = self.own_module_imports
            for site in scope.calls:
                name = site.name or ""
                records = records_by_name.get(name)
                if records is None:
                    records = records_by_name[name] = bool(
                        record.match(name) or is_record_helper(name) or is_artifact_record(name)
                        # `log_file.write("{}:{}".format(k, v) for k, v in vars(args).items())`
                        or name.endswith((".write", ".writelines"))
                    )
                if not records and site.node.func.__class__ is ast.Name and (own or self.star_imports_project):
                    # `report_final_metrics({"config": cfg.__dict__}, ...)`: the project's own
                    # reporting helper, imported by name or through `from utils import *`
                    # (its body is elsewhere)
                    func = site.node.func.id
                    records = (
                        (func in own or (func not in facts.functions and func not in facts.aliases and self.star_imports_project))
                        and PROJECT_REPORTER_NAME.search(func) is not None
                    )
                if not records and site.node.func.__class__ is ast.Name:
                    # `class ModifiedTrainer(Trainer)` of this file: still the HF Trainer,
                    # which saves and reports the arguments it is given
                    records = any(record.match(base) for base in self.local_class_bases.get(site.node.func.id, ()))
                if records or is_log_call(facts, site):
                    found.append(site)
        return found

    def matches(self, category: str, name: str | None) -> bool:
        """``vocabulary.matcher(category).match(name)``, memoised: the same names recur
        (a file calls ``torch.save`` many times) and wildcard patterns are slow to try."""
        key = (category, name)
        hit = self._matches.get(key)
        if hit is None:
            hit = self._matches[key] = self.facts.vocabulary.matcher(category).match(name)
        return hit

    def names_and_attributes(self, node: ast.AST) -> tuple[frozenset[str], tuple[str, ...]]:
        """``_names_and_attributes(node)``, memoised: the same path or device expression
        (and the value its name is bound to) is looked at by DLL200, DLL201 and DLL400."""
        found = self._names.get(id(node))
        if found is None:
            names, attributes = _names_and_attributes(node)
            found = self._names[id(node)] = (frozenset(names), tuple(attributes))
        return found

    def argument_texts(self, site: CallSite) -> list[str]:
        """Source text of each argument of a call (positional, then keyword values)."""
        found = self._argument_texts.get(id(site))
        if found is None:
            node, segment = site.node, self.facts.segment
            found = self._argument_texts[id(site)] = [segment(a) for a in node.args] + [segment(kw.value) for kw in node.keywords]
        return found

    def is_test_scope(self, scope: Scope) -> bool:
        """``facts.is_test_scope``, remembered per scope (DLL200/201/210/400 all ask)."""
        found = self._test_scopes.get(id(scope))
        if found is None:
            found = self._test_scopes[id(scope)] = self.facts.is_test_scope(scope)
        return found

    def plain_names(self, scope: Scope) -> list[str]:
        """Names (not attribute chains) ``scope`` assigns to, in order of first assignment."""
        found = self._plain_names.get(id(scope))
        if found is None:
            found = self._plain_names[id(scope)] = [name for name in self.assignments(scope) if "." not in name]
        return found

    def config_names(self, scope: Scope) -> frozenset[str]:
        """Names ``scope`` binds to a config loaded by a call (``parse_args()``, ``yaml.safe_load()``,
        ``OmegaConf.load()``)."""
        found = self._config_names.get(id(scope))
        if found is None:
            aliases = self.facts.aliases
            found = self._config_names[id(scope)] = frozenset(
                name for name, binds in self.assignments(scope).items()
                if any(
                    isinstance(value, ast.Call) and self.matches("config_load", dotted_name(value.func, aliases))
                    for _, value in binds
                )
            )
        return found

    def stmt_count(self, scope: Scope) -> int:
        return len(self.facts.scope_stmts(scope))

    def assignments(self, scope: Scope) -> dict[str, list[tuple[ast.stmt, ast.expr]]]:
        """Name or attribute chain -> (statement, value) for each assignment in ``scope``."""
        names = self._assignments.get(id(scope))
        if names is None:
            names = self._assignments[id(scope)] = {}
            assign_type, ann_assign_type, name_type = ast.Assign, ast.AnnAssign, ast.Name
            with_type, async_with_type = ast.With, ast.AsyncWith
            for info in self.facts.scope_stmts(scope):
                stmt = info.stmt
                cls = stmt.__class__
                if cls is assign_type:
                    targets = stmt.targets
                elif cls is ann_assign_type and stmt.value is not None:
                    targets = [stmt.target]
                elif cls is with_type or cls is async_with_type:
                    # `with open(checkpoint, "rb") as f:` binds `f` to a handle on `checkpoint`
                    for item in stmt.items:
                        var = item.optional_vars
                        if var.__class__ is name_type:
                            names.setdefault(var.id, []).append((stmt, item.context_expr))
                    continue
                else:
                    continue
                value = stmt.value
                for target in targets:
                    if target.__class__ is name_type:  # `x = ...`, the usual case
                        names.setdefault(target.id, []).append((stmt, value))
                        continue
                    for name, sub_value in _unpack(target, value):
                        names.setdefault(name, []).append((stmt, sub_value))
        return names

    @cached_property
    def own_module_imports(self) -> frozenset[str]:
        """Names imported from the project's own modules: relative imports, and modules
        that are neither the standard library nor a well-known third-party package
        (stricter than project_imports, which counts every non-DL library)."""
        return frozenset(
            name for name in self.project_imports if name not in self._library_import_names
        )

    @cached_property
    def run_record_folders(self) -> list[tuple[Scope, set[str]]]:
        """(scope, folder heads) of every call that keeps the run's record in a folder (see
        LOG_SINK_CALL, and a record file opened for writing), for _beside_the_run_record()."""
        facts = self.facts
        save_nodes = {id(s.node) for s in facts.calls_in("save")}
        out: list[tuple[Scope, set[str]]] = []
        for other in facts.calls:
            name = other.name or ""
            if id(other.node) in save_nodes:
                continue
            call = other.node
            if other.method in ("write_text", "write_bytes") and isinstance(call.func.value, ast.BinOp):
                # `(args.out / "training_summary.json").write_text(...)`: a record file, pathlib's way
                record = call.func.value
                if not (isinstance(record.right, ast.Constant) and isinstance(record.right.value, str) and RECORD_FILE_NAME.search(record.right.value)):
                    continue
                found = _folder_heads(facts, other.scope, record)
                if found:
                    out.append((other.scope, found))
                continue
            if other.method == "to_csv" and call.args:
                # `pd.DataFrame(results).to_csv(cv_path)`, `cv_path = join(args.output_dir, "cv_results.csv")`
                found = _folder_heads(facts, other.scope, call.args[0])
                if found:
                    out.append((other.scope, found))
                continue
            if name == "open":
                if not (is_record_file_open(call, binary_too=True) or self._opens_a_named_record_file(other)):
                    continue
            elif not LOG_SINK_CALL.search(name.rsplit(".", 1)[-1]):
                continue
            for arg in list(call.args[:1]) + [k.value for k in call.keywords if k.arg in _PATH_KEYWORDS]:
                found = _folder_heads(facts, other.scope, arg)
                if found:
                    out.append((other.scope, found))
        return out

    @cached_property
    def local_class_bases(self) -> dict[str, tuple[str, ...]]:
        """Classes of this module (that have methods) -> their bases, import aliases resolved."""
        aliases = self.facts.aliases
        return {
            class_name: tuple(
                aliases.get(b.split(".", 1)[0], b.split(".", 1)[0]) + ("." + b.split(".", 1)[1] if "." in b else "")
                for b in methods[0].class_bases
            )
            for class_name, methods in self.facts._methods_by_class.items()
        }

    @cached_property
    def _library_import_names(self) -> frozenset[str]:
        return frozenset(name for name, top, relative in self._imported_names if not relative and _is_library(top))

    @cached_property
    def star_imports(self) -> list[ast.ImportFrom]:
        """The module's top-level ``from x import *`` statements."""
        return [
            node for node in self.facts.tree.body
            if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names)
        ]

    @cached_property
    def star_imports_project(self) -> bool:
        """``from utils import *`` / ``from .config import *``: names (and top-level code) of
        the project's own module come in unseen."""
        return any(
            node.level > 0 or (node.module or "").split(".")[0] not in KNOWN_LIBRARIES
            for node in self.star_imports
        )

    @cached_property
    def command_line_logged(self) -> bool:
        """``print(" ".join(sys.argv))``: the command line is in the log, and with the
        parser's defaults in the source it gives every argument the run used."""
        if "argv" not in self.facts.text:
            return False
        # A log, or the command line written to a file (`f.write(" ".join(sys.argv))`,
        # `json.dump(sys.argv, f)`): not a parser handed sys.argv to read.
        sites = list(self.facts.logging_calls)
        sites += [c for c in self.facts.calls if c.method in ("write", "writelines", "dump") and "argv" in self.facts.segment(c.node)]
        for site in sites:
            for expr in list(site.node.args) + [k.value for k in site.node.keywords]:
                for node in walk(expr):
                    if node.__class__ in (ast.Attribute, ast.Name) and dotted_name(node, self.facts.aliases) == "sys.argv":
                        return True
        return False

    @cached_property
    def parsed_argument_names(self) -> frozenset[str]:
        """Names bound to a parsed command line: ``args = parser.parse_args()``."""
        out: set[str] = set()
        for site in self.facts.calls:
            if site.method in ("parse_args", "parse_known_args"):
                stmt = site.stmt
                if isinstance(stmt, ast.Assign) and stmt.value is site.node:
                    for t in stmt.targets:
                        out.update(n.id for n in walk(t) if isinstance(n, ast.Name))
        return frozenset(out)

    @cached_property
    def prediction_cli(self) -> bool:
        return _prediction_cli(self.facts)

    @cached_property
    def conversion_tool(self) -> bool:
        return _conversion_tool(self.facts)

    @cached_property
    def project_imports(self) -> set[str]:
        """Names imported from outside the known libraries (the project's own modules)."""
        return {name for name, top, relative in self._imported_names if relative or top not in KNOWN_LIBRARIES}

    @cached_property
    def _imported_names(self) -> list[tuple[str, str, bool]]:
        """(name bound, top-level module, relative import?) for every import statement of
        the module, at any depth."""
        found: list[tuple[str, str, bool]] = []
        import_types = (ast.Import, ast.ImportFrom)
        for info in self.facts.stmt_infos.values():
            node = info.stmt
            if node.__class__ not in import_types:
                continue
            if isinstance(node, ast.ImportFrom):
                top = (node.module or "").split(".")[0]
                found.extend((a.asname or a.name, top, node.level > 0) for a in node.names)
            else:
                for a in node.names:
                    top = a.name.split(".")[0]
                    found.append((a.asname or top, top, False))
        return found

    @cached_property
    def passed_functions(self) -> set[str]:
        """Functions handed to something else to run (`fire.Fire(main)`, `mp.spawn(worker)`)."""
        functions = self.facts.functions
        if not functions:
            return set()  # nothing to hand over: a script without functions
        name_type = ast.Name
        calls = [site.node for site in self.facts.calls]
        # Comprehensions: this looks at every argument of every call in the file.
        found = {arg.id for call in calls for arg in call.args if arg.__class__ is name_type and arg.id in functions}
        found.update(
            kw.value.id
            for call in calls if call.keywords
            for kw in call.keywords
            if kw.value.__class__ is name_type and kw.value.id in functions
        )
        return found

    def parameters(self, scope: Scope) -> frozenset[str]:
        """Parameter names of a function scope (positional and keyword-only; empty for the module)."""
        params = self._parameters.get(id(scope))
        if params is None:
            fn = scope.node
            if isinstance(fn, FUNC_TYPES):
                params = frozenset(a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs)
            else:
                params = frozenset()
            self._parameters[id(scope)] = params
        return params

    @cached_property
    def load_state_dicts(self) -> dict[int, list[CallSite]]:
        found: dict[int, list[CallSite]] = {}
        for site in self.facts.calls_in("load"):
            if site.method == "load_state_dict":
                found.setdefault(id(site.scope), []).append(site)
        return found

    @cached_property
    def seed_holders(self) -> set[str]:
        """`X.seed` read anywhere in the file, by X: how a config carries the run's seed."""
        text = self.facts.text
        return _seed_holders(text) if ".seed" in text else set()

    @cached_property
    def binders(self) -> dict[str, list[Scope]]:
        """Scopes that bind each name (for "where was this device created")."""
        found: dict[str, list[Scope]] = {}
        for scope in self.facts.scopes:
            for name in self.assignments(scope):
                found.setdefault(name, []).append(scope)
        return found

    @cached_property
    def is_dl(self) -> bool:
        facts = self.facts
        return (
            any(m.split(".")[0] in DL_ROOTS for m in facts.imported_modules)
            # (each distinct call name once, not every call)
            or any(
                name.split(".", 1)[0] in DL_ROOTS or name.rsplit(".", 1)[-1] in DL_METHODS
                for name in facts._calls_by_name
            )
            or any(
                (dotted_name(b, facts.aliases) or "").split(".")[0] in DL_ROOTS
                for info in facts.stmt_infos.values()
                if isinstance(info.stmt, ast.ClassDef)
                for b in info.stmt.bases
            )
        )

    @cached_property
    def checkpoint_managers(self) -> bool:
        return any((c.name or "").endswith("CheckpointManager") for c in self.facts.calls)

    @cached_property
    def saved_paths(self) -> set[str]:
        """Path expressions this file saves to, as written (a later load of the same text
        reloads the run's own checkpoint)."""
        return {self.facts.segment(target) for target in self._saved_path_exprs}

    @cached_property
    def saved_path_signatures(self) -> set[tuple]:
        """The saved paths as _path_signature() (however the join is spelled)."""
        return {sig for sig in map(_path_signature, self._saved_path_exprs) if sig[1]}

    @cached_property
    def saved_folders(self) -> set[str]:
        """The folders this file saves into, as written (``checkpoint_dir`` of
        ``checkpoint.save(file_prefix=join(checkpoint_dir, "ckpt"))``)."""
        facts = self.facts
        folders: set[str] = set()
        for site in facts.calls_in("save"):
            target = _save_call_target(site)
            if target is not None:
                folders |= _folder_heads(facts, site.scope, target)
        return folders

    @cached_property
    def _saved_path_exprs(self) -> list[ast.expr]:
        facts = self.facts
        found: list[ast.expr] = []
        for site in facts.calls_in("save"):
            # (`engine.save_checkpoint(p, it)` of the project's model counts too: the run wrote p)
            target = _save_call_target(site)
            if target is not None:
                found.append(target)
        # Keras `ModelCheckpoint(filename, ...)` handed to fit(), an `EarlyStopping(checkpoint_path=...)`
        # that keeps the best weights: the run writes that file
        for site in calls_named_ending(facts, ("ModelCheckpoint", "EarlyStopping", "EarlyStopper"), in_order=False):
            target = site.kwarg("filepath") or site.kwarg("checkpoint_path") or site.kwarg("path") or site.kwarg("save_path")
            if target is None and site.name.endswith("ModelCheckpoint") and site.node.args and not isinstance(site.node.args[0], ast.Starred):
                target = site.node.args[0]
            if target is not None:
                found.append(target)
        return found

    @cached_property
    def verbose_hf(self) -> bool:
        # Every match names "set_verbosity" or "enable_": a substring test before the search.
        return any(
            ("set_verbosity" in name or "enable_" in name) and VERBOSITY_INFO.search(name)
            for name in (c.name for c in self.facts.calls)
            if name
        )

    def _calls_logging_function(self, site: CallSite) -> bool:
        # `log_checkpoint(path)`: a same-module helper whose name says it reports. A call to
        # `test(model, loader)` that prints accuracy says nothing about a checkpoint.
        target = self.facts.local_target(site)
        return target is not None and bool(LOGGING_HELPER_NAME.search(target.name)) and self.facts.scope_logs(target)

    def _opens_a_named_record_file(self, site: CallSite) -> bool:
        """``log_txt_path = model_dir + "log.txt"`` ... ``open(log_txt_path, "w")``: the
        record file's name is in the path's only binding."""
        call = site.node
        path = call.args[0] if call.args else None
        if not isinstance(path, ast.Name):
            return False
        binds = self.bindings(site.scope, path.id) or (self.bindings(self.facts.module, path.id) if not site.scope.is_module else [])
        if len(binds) != 1 or binds[0][1] is None:
            return False
        opened = ast.Call(func=call.func, args=[binds[0][1], *call.args[1:]], keywords=call.keywords)
        return is_record_file_open(opened, binary_too=True)

    def binding(self, scope: Scope, name: str, before_line: int) -> ast.expr | None:
        """The last value bound to ``name`` in ``scope`` before ``before_line``."""
        best = None
        for stmt, value in self.assignments(scope).get(name, ()):
            if stmt.lineno <= before_line:
                best = value
        return best

    def bindings(self, scope: Scope, name: str) -> list[tuple[ast.stmt, ast.expr]]:
        return self.assignments(scope).get(name, [])


_DOT_SEED = re.compile(r"\.seed\b")


def _seed_holders(text: str) -> set[str]:
    r"""``set(re.findall(r"\b(\w+)\.seed\b", text))``, found from the ``.seed`` literal
    backwards: that pattern has no literal prefix, so the regex tries (and backtracks
    over) a word at every position of the file. The word before each ``.seed`` is the
    maximal run of word characters (``\w``: alphanumeric or ``_``) before the dot, and it
    cannot reach back into the previous match (findall's matches do not overlap)."""
    found: set[str] = set()
    previous_end = 0
    for m in _DOT_SEED.finditer(text):
        dot = start = m.start()
        while start > previous_end:
            ch = text[start - 1]
            if not (ch.isalnum() or ch == "_"):
                break
            start -= 1
        if start == dot:
            continue  # no word before the dot (or only the previous match's)
        found.add(text[start:dot])
        previous_end = m.end()
    return found


def _unpack(target: ast.AST, value: ast.expr | None) -> Iterator[tuple[str, ast.expr | None]]:
    if isinstance(target, ast.Name):
        yield target.id, value
    elif isinstance(target, (ast.Attribute, ast.Subscript)):
        text = dotted_name(target) if isinstance(target, ast.Attribute) else None
        if text:
            yield text, value
    elif isinstance(target, (ast.Tuple, ast.List)):
        values = value.elts if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts) else None
        for i, elt in enumerate(target.elts):
            yield from _unpack(elt, values[i] if values else None)


def is_dl_module(facts: ModuleFacts) -> bool:
    """Cheap gate: files with no save/load/transfer call never build the index."""
    if not (facts.calls_in("save") or facts.calls_in("load") or facts.calls_in("device_transfer")):
        return False
    return index_of(facts).is_dl


# Third-party packages that are not a project's own code (with the standard library).
COMMON_LIBRARIES = frozenset({
    "tqdm", "matplotlib", "sklearn", "scipy", "pandas", "PIL", "cv2", "yaml", "requests", "tensorboardX",
    "tensorboard", "seaborn", "skimage", "imageio", "h5py", "omegaconf", "hydra", "einops", "gym", "gymnasium",
    "datasets", "evaluate", "tokenizers", "nltk", "spacy", "librosa", "soundfile", "albumentations", "rich",
    "click", "typer", "fire", "absl", "ml_collections", "torchmetrics", "termcolor", "easydict", "munch",
    "addict", "sentencepiece", "networkx", "dgl", "torch_geometric", "ogb", "neptune", "comet_ml", "clearml",
    "aim", "lightgbm", "xgboost", "catboost", "statsmodels", "plotly", "tensorflow_datasets", "tensorflow_hub",
    "tensorflow_addons", "kornia", "segmentation_models_pytorch", "monai", "nibabel", "SimpleITK", "pydicom",
    "loguru", "tabulate", "prettytable", "jsonlines", "simplejson", "ujson", "dill", "cloudpickle", "psutil",
    "GPUtil", "pynvml", "apex", "bitsandbytes", "wandb", "mlflow", "sacred", "IPython", "google", "jax", "gin",
})


def _is_library(top: str) -> bool:
    return top in KNOWN_LIBRARIES or top in COMMON_LIBRARIES or top in sys.stdlib_module_names


def index_of(facts: ModuleFacts) -> _Index:
    idx = getattr(facts, "_dllog_saving_index", None)
    if idx is None:
        idx = _Index(facts)
        facts._dllog_saving_index = idx  # type: ignore[attr-defined]
    return idx


def _save_call_target(site: CallSite) -> ast.expr | None:
    """Where a save call writes: its ``f``/``filepath``/``path``/``file_prefix`` keyword, else
    its path argument (``torch.save``'s second, any other save's first)."""
    target = site.kwarg("f") or site.kwarg("filepath") or site.kwarg("path") or site.kwarg("file_prefix")
    if target is not None:
        return target
    args = [a for a in site.node.args if not isinstance(a, ast.Starred)]
    pos = 1 if site.name == "torch.save" else 0
    return args[pos] if len(args) > pos else None


def _evidence_in(idx: _Index, stmt: ast.stmt, scope: Scope) -> bool:
    start, end = stmt.lineno, stmt.end_lineno or stmt.lineno
    return any(start <= c.node.lineno <= end for c in idx.evidence(scope))


def _enclosing_levels(info: StmtInfo) -> Iterator[StmtInfo]:
    """The statement, then the if/with/try statements around it, up to a loop or a def."""
    level: StmtInfo | None = info
    while level is not None:
        yield level
        parent = level.parent
        if parent is None or parent.scope is not info.scope:
            return
        if isinstance(parent.stmt, LOOP_TYPES + FUNC_TYPES + (ast.ClassDef,)):
            return
        level = parent


def logged_nearby(facts: ModuleFacts, info: StmtInfo, window: int) -> bool:
    idx = index_of(facts)
    for level in _enclosing_levels(info):
        for stmt in facts.stmts_within(level, window):
            if level is not info and stmt is level.stmt:
                continue  # the other branches of the enclosing `if` are not "nearby"
            if stmt is not info.stmt and isinstance(stmt, LOOP_TYPES + FUNC_TYPES + (ast.ClassDef,)):
                continue  # logs inside a neighbouring loop report its iterations, not this site
            if _evidence_in(idx, stmt, info.scope):
                return True
    return False


def is_small_wrapper(facts: ModuleFacts, scope: Scope) -> bool:
    if scope.is_module:
        return False
    idx = index_of(facts)
    return is_wrapper_name(scope.name) or idx.stmt_count(scope) <= WRAPPER_MAX_STATEMENTS


def wrapper_logs(facts: ModuleFacts, scope: Scope) -> bool:
    """The wrapper logs outside loops (directly or through a same-module function that
    logs): a log inside a loop reports its iterations, not the save or load."""
    for site in scope.calls:
        if site.loops:
            continue
        if is_log_call(facts, site):
            return True
        target = facts.local_target(site)
        if target is not None and target is not scope and facts.scope_logs(target):
            return True
    return False


def _callers_log_what_they_pass(facts: ModuleFacts, scope: Scope, exprs: list) -> bool:
    """``def save_checkpoint(path, ...): torch.save(..., path)`` whose every same-module
    caller logs what it passes (``save_checkpoint(opt.result_path / f"save_{i}.pth", ...)``
    with ``opt`` printed whole)."""
    if scope.is_module:
        return False
    params = index_of(facts).parameters(scope)
    names = [e.id for e in exprs if isinstance(e, ast.Name) and e.id in params]
    if not names:
        return False
    for name in names:
        values = _param_values(facts, scope, name)
        if not values or not all(
            value is not None and call.scope is not scope and logs_mention(facts, call.scope, _mention_keys(facts, [value], call))
            for call, value in values
        ):
            return False
    return True


def callers_log(facts: ModuleFacts, scope: Scope, window: int, depth: int = 2) -> bool:
    """A caller of the function holding the site logs right around the call."""
    if scope.is_module or depth <= 0:
        return False
    idx = index_of(facts)
    for call in idx.callers(scope):
        if call.scope is scope:
            continue
        if logged_nearby(facts, call.info, window):
            return True
        if is_small_wrapper(facts, call.scope) and any(is_log_call(facts, c) and not c.loops for c in call.scope.calls):
            return True
        if callers_log(facts, call.scope, window, depth - 1):
            return True
    return False


CONFIG_OBJECT = re.compile(r"^(args|opt|opts|cfg|config|conf|hparams|hp|flags|FLAGS|params|hyperparams|training_args|train_args|options)$")


def _mention_keys(facts: ModuleFacts, exprs: Iterable[ast.AST | None], site: CallSite | None = None) -> tuple[set[str], set[str]]:
    """What a log must mention to be about these expressions (a path, a result name):
    (identifying texts, config objects whose whole printout contains them).

    ``torch.save(sd, os.path.join(args.out_dir, "model.pt"))``: a log naming ``args.out_dir``
    counts, and so does ``print(args)`` — the namespace is printed with its ``out_dir``."""
    keys: set[str] = set()
    wholes: set[str] = set()
    todo = [e for e in exprs if e is not None]
    if site is not None:
        # A name in the path, and what it was made from (`models_path / "final.pth"` after
        # `models_path = run_path / "models"`: a log of `run_path` says where it went).
        names = [e for e in todo if isinstance(e, ast.Name)]
        names += [n for e in todo if not isinstance(e, ast.Name) for n in walk(e) if isinstance(n, ast.Name)]
        for e in names:
            bound = index_of(facts).binding(site.scope, e.id, site.node.lineno)
            if bound is None or (e not in todo and not _path_derivation(bound) and not _config_field(bound)):
                continue
            # The result name is bound to the call itself: its arguments are not the path.
            if not any(n is site.node for n in walk(bound)):
                todo.append(bound)
    for expr in todo:
        if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
            if len(expr.value) >= 4:
                keys.add(expr.value)
            continue
        for node in _maximal_chains(expr):
            if isinstance(node, (ast.Name, ast.Attribute)):
                text = dotted_name(node)
                if not text or "?" in text or "()" in text or "[]" in text:
                    continue
                head = text.split(".")[0]
                last = text.rsplit(".", 1)[-1]
                if text in GENERIC_NAMES or head in ("os", "osp", "pathlib", "torch") or text == "self":
                    continue
                if COUNTER_NAME.match(last) and isinstance(node, ast.Name):
                    continue  # an epoch number in a log is not news about the file
                keys.add(text)
                if isinstance(node, ast.Attribute) and CONFIG_OBJECT.match(head) and "." not in text[len(head) + 1:]:
                    wholes.add(head)
        # `cfg["output_dir"]`: a printout of the whole `cfg` shows it too
        for node in walk(expr):
            if (
                isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and CONFIG_DICT_NAME.search(node.value.id)
                and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)
            ):
                wholes.add(node.value.id)
    return keys, wholes


# A dict of settings read by key (`cfg["lr"]`, `train_config["output"]`, `hparams["bs"]`).
CONFIG_DICT_NAME = re.compile(r"^(args|opts?|cfg|conf|config|hparams|hp|params|hyperparams|settings)$|_(cfg|conf|config|params|settings)$", re.I)


def _path_signature(expr: ast.AST) -> tuple[frozenset, tuple]:
    """A path by what it is made of, not how it is joined: ``osp.join(args.out, "best.pt")``,
    ``args.out + "/best.pt"`` and ``f"{args.out}/best.pt"`` are all ({args.out}, (best.pt,))."""
    names: set[str] = set()
    parts: list[str] = []
    for node in walk(expr):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            parts += [p for p in node.value.replace("\\", "/").split("/") if p and p != "."]
        elif isinstance(node, (ast.Name, ast.Attribute)):
            text = dotted_name(node)
            if text and text.split(".")[0] not in ("os", "osp", "path", "pathlib", "Path"):
                names.add(text)
    return frozenset(names), tuple(parts)


def _config_field(expr: ast.AST) -> bool:
    """``cfg["output"]`` or ``args.out_dir``: one field of a config object."""
    while isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant) and isinstance(expr.value, ast.Subscript):
        expr = expr.value  # train_config["directory_config"]["output"]
    if isinstance(expr, ast.Subscript):
        return isinstance(expr.value, ast.Name) and CONFIG_DICT_NAME.search(expr.value.id) is not None and isinstance(expr.slice, ast.Constant)
    return isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and CONFIG_OBJECT.match(expr.value.id) is not None


def _path_derivation(expr: ast.AST) -> bool:
    """``run_path / "models"``, ``os.path.join(out, "ckpt")``, ``f"{out}/ckpt"``."""
    if isinstance(expr, ast.BinOp):
        return isinstance(expr.op, (ast.Div, ast.Add))
    if isinstance(expr, ast.JoinedStr):
        return True
    if isinstance(expr, ast.Call):
        name = dotted_name(expr.func) or ""
        return name.endswith(("path.join", "Path", "joinpath"))
    return False


def _maximal_chains(expr: ast.AST) -> Iterator[ast.AST]:
    """Names and attribute chains not nested in a longer chain: ``opt.outf``, not ``opt``
    (printing the whole ``opt`` namespace is not a log of this file)."""
    stack = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Name, ast.Attribute)):
            yield node
            if isinstance(node, ast.Attribute):
                # keep looking inside calls/subscripts below the chain, not at its head
                inner = node.value
                while isinstance(inner, ast.Attribute):
                    inner = inner.value
                if not isinstance(inner, ast.Name):
                    stack.append(inner)
            continue
        stack.extend(child_nodes(node))


def _bounded_pattern_cache(build: Callable[[str], str]) -> Callable[[str], re.Pattern[str]]:
    """``re.compile(build(word))``, remembered per word: the same paths and names come back
    at every site and in every file, and ``re.compile`` (even from re's own cache) costs
    more than the search."""
    cache: dict[str, re.Pattern[str]] = {}

    def compiled(word: str) -> re.Pattern[str]:
        pattern = cache.get(word)
        if pattern is None:
            if len(cache) > 4096:  # a language server sees many files: stay bounded
                cache.clear()
            pattern = cache[word] = re.compile(build(word))
        return pattern

    return compiled


# A log that names this text (not as the tail of a longer name or attribute chain).
mention_pattern = _bounded_pattern_cache(lambda key: r"(?<![\w.])" + re.escape(key) + r"(?![\w])")
# A log that prints this whole object (not one of its attributes or items).
# (`cfg.__dict__` is the whole object too)
# (`cfg.__dict__` and argparse's `args._get_kwargs()` are the whole object too)
whole_mention_pattern = _bounded_pattern_cache(lambda whole: r"(?<![\w.])" + re.escape(whole) + r"(?:\.__dict__\b|\._get_kwargs\(|(?![\w.\[]))")


def logs_mention(facts: ModuleFacts, scope: Scope, keys_and_wholes: tuple[set[str], set[str]]) -> bool:
    keys, wholes = keys_and_wholes
    if not keys and not wholes:
        return False
    idx = index_of(facts)
    # (word, pattern): the word is a cheap substring test before the pattern's search.
    patterns = [(k, mention_pattern(k)) for k in keys]
    scopes = [scope]
    if wholes:
        # The whole config is typically printed once, where it is parsed: the module's
        # main guard or the caller that hands it down.
        scopes += [c.scope for c in idx.callers(scope)] + [facts.module]
        wholes = wholes | _whole_copies(facts, scopes, wholes)
    whole_patterns = [(w, whole_mention_pattern(w)) for w in wholes]
    if whole_patterns:
        from .configuration import hydra_configs  # (configuration imports this module)

        # `@hydra.main def main(cfg)`: Hydra writes the composed config into the run directory
        if any(param in wholes and scope_ is sc for scope_, param in hydra_configs(facts) for sc in scopes):
            return True
        # `print(" ".join(sys.argv))` holds every field of the namespace it parses into.
        if idx.command_line_logged and any(w in idx.parsed_argument_names for w in wholes):
            return True
    for i, sc in enumerate(scopes):
        for site in idx.recorders(sc):
            for text in idx.argument_texts(site):
                if i == 0 and any(k in text and p.search(text) for k, p in patterns):
                    return True
                if any(w in text and p.search(text) for w, p in whole_patterns):
                    return True
    # `run_cfg = dict(ckpt=ckpt_path, ema=ema)`, then `print(run_cfg)` or `for k, v in
    # run_cfg.items(): print(f"{k}: {v}")`: the path is shown with the dict holding it.
    holders = _dicts_holding(idx, scope, keys)
    if holders:
        holder_patterns = [(h, whole_mention_pattern(h)) for h in holders]
        for site in idx.recorders(scope):
            if any(h in text and p.search(text) for text in idx.argument_texts(site) for h, p in holder_patterns):
                return True
            for loop in site.loops:
                it = getattr(loop, "iter", None)
                if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and isinstance(it.func.value, ast.Name) and it.func.value.id in holders:
                    return True
    # `self.checkpoint_dir` printed by another method of the class (`load_model()`, run from
    # `__init__`): the object's attribute is the same value in every method.
    self_patterns = [(k, p) for k, p in patterns if k.startswith("self.") and k.count(".") == 1]
    if self_patterns and scope.class_name:
        for sc in facts.methods_of(scope.class_name):
            if sc is scope:
                continue
            for site in idx.recorders(sc):
                for text in idx.argument_texts(site):
                    if any(k in text and p.search(text) for k, p in self_patterns):
                        return True
                # `summary_file = join(self.output_dir, "summaries.npz")` ... `log(summary_file)`:
                # a path under the same folder names it
                for name in _names_in_arguments(site):
                    value = idx.binding(sc, name, site.node.lineno)
                    text = facts.segment(value) if value is not None else ""
                    if text and any(k in text and p.search(text) for k, p in self_patterns):
                        return True
    # `opt = get_opt()` where `def get_opt(): opt = parse_opts(); print(opt); return opt`
    for whole in wholes:
        for sc in scopes:
            for _, value in idx.bindings(sc, whole):
                if value.__class__ is ast.Call and _returns_what_it_records(facts, value):
                    return True
    # `dir_setup(cfg["output"], cfg)` where `def dir_setup(out, cfg): yaml.dump(cfg, f)`
    if wholes:
        for sc in scopes:
            for site in sc.calls:
                if site.target is not None and site.target is not sc and _hands_whole_to_a_recorder(facts, site, wholes):
                    return True
    return False


def _dicts_holding(idx: _Index, scope: Scope, keys: set[str]) -> set[str]:
    """Names bound in ``scope`` to a ``{...}`` literal or ``dict(...)`` call holding one of
    the names ``keys`` as a value (``ckpt_path``, or ``args.model`` in ``summary = {"model":
    args.model, "avg_loss": ...}``)."""
    if not keys:
        return set()
    found: set[str] = set()
    for name, binds in idx.assignments(scope).items():
        for _, value in binds:
            values = dict_items(value)
            if values is not None and any(
                (isinstance(v, ast.Name) and v.id in keys) or (isinstance(v, ast.Attribute) and dotted_name(v) in keys)
                for v in values
            ):
                found.add(name)
    return found


def dict_items(expr: ast.AST | None) -> "list[ast.expr] | None":
    """The values of a ``{...}`` literal or a ``dict(key=...)`` call; None for anything else."""
    if isinstance(expr, ast.Dict):
        return list(expr.values)
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "dict":
        return [k.value for k in expr.keywords]
    return None


def _names_in_arguments(site: CallSite) -> set[str]:
    """Plain names passed to a call, directly or inside its argument expressions."""
    node = site.node
    return {n.id for arg in [*node.args, *(kw.value for kw in node.keywords)] for n in walk(arg) if n.__class__ is ast.Name}


# Calls that copy a config object whole (`argparse.Namespace(**vars(args))`, `deepcopy(cfg)`).
WHOLE_COPY_CALLS = frozenset({"Namespace", "deepcopy", "copy", "vars", "dict", "EasyDict", "asdict", "to_container", "SimpleNamespace"})


def _whole_copies(facts: ModuleFacts, scopes: list[Scope], wholes: set[str]) -> set[str]:
    """Names bound in ``scopes`` to a whole copy of one of ``wholes``."""
    idx = index_of(facts)
    found: set[str] = set()
    for sc in scopes:
        for name, binds in idx.assignments(sc).items():
            for _, value in binds:
                if (
                    isinstance(value, ast.Call) and (dotted_name(value.func) or "").rsplit(".", 1)[-1] in WHOLE_COPY_CALLS
                    and any(isinstance(n, ast.Name) and n.id in wholes for a in value.args + [k.value for k in value.keywords] for n in walk(a))
                ):
                    found.add(name)
    return found


def _hands_whole_to_a_recorder(facts: ModuleFacts, site: CallSite, wholes: set[str]) -> bool:
    """A same-module function receives one of ``wholes`` and records that parameter whole."""
    target = site.target
    fn = target.node
    if not isinstance(fn, FUNC_TYPES):
        return False
    params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
    if params and params[0] in ("self", "cls") and target.class_name is not None:
        params = params[1:]
    received = [
        params[i] for i, a in enumerate(site.node.args)
        if i < len(params) and isinstance(a, ast.Name) and a.id in wholes
    ] + [k.arg for k in site.node.keywords if k.arg and isinstance(k.value, ast.Name) and k.value.id in wholes]
    return bool(received) and _records_whole(facts, target, received)


def _returns_what_it_records(facts: ModuleFacts, call: ast.Call) -> bool:
    """Is ``call`` a same-module function that logs the object it returns, whole?"""
    site = facts.site_of(call)
    target = site.target if site is not None else None
    if target is None:
        return False
    returned = {
        info.stmt.value.id for info in facts.scope_stmts(target)
        if isinstance(info.stmt, ast.Return) and isinstance(info.stmt.value, ast.Name)
    }
    return bool(returned) and _records_whole(facts, target, returned)


def _records_whole(facts: ModuleFacts, scope: Scope, names: Iterable[str]) -> bool:
    """Does a log or record call of ``scope`` show one of ``names`` whole?"""
    idx = index_of(facts)
    return any(
        name in text and whole_mention_pattern(name).search(text)
        for site in idx.recorders(scope) for text in idx.argument_texts(site) for name in names
    )


# Fields without a node with a name in it (aliases hold none), and per node class the rest.
_NOT_NODE_FIELDS = SCALAR_FIELDS | {"names"}
_NODE_FIELDS: dict[type, tuple[str, ...]] = {}


def _names_in(node: ast.AST | None) -> set[str]:
    """Identifiers of the ``Name`` nodes under ``node`` (itself included)."""
    if node is None:
        return set()
    if node.__class__ is ast.Name:
        return {node.id}  # the common case: a path or device held in a variable
    return _names_and_attributes(node)[0]


def _names_and_attributes(node: ast.AST) -> tuple[set[str], list[str]]:
    """(identifiers of the ``Name`` nodes, ``.attr`` of the ``Attribute`` nodes) under ``node``."""
    names: set[str] = set()
    attributes: list[str] = []
    # A hand-rolled walk (this runs for every path and device expression): names and
    # constants are handled where they are found, never pushed.
    stack = [node]
    push = stack.append
    name_type, constant_type, attribute_type, list_type = ast.Name, ast.Constant, ast.Attribute, list
    node_fields = _NODE_FIELDS
    while stack:
        n = stack.pop()
        cls = n.__class__
        if cls is attribute_type:
            attributes.append(n.attr)
            v = n.value
            if v.__class__ is name_type:
                names.add(v.id)
            else:
                push(v)
            continue
        if cls is name_type:
            names.add(n.id)
            continue
        fields = node_fields.get(cls)
        if fields is None:
            fields = node_fields[cls] = tuple(f for f in cls._fields if f not in _NOT_NODE_FIELDS)
        for fname in fields:
            v = getattr(n, fname, None)
            if v is None:
                continue
            if v.__class__ is list_type:
                for item in v:
                    item_cls = item.__class__
                    if item_cls is name_type:
                        names.add(item.id)
                    elif item_cls is not constant_type and isinstance(item, ast.AST):
                        push(item)
            elif v.__class__ is name_type:
                names.add(v.id)
            elif v.__class__ is not constant_type and isinstance(v, ast.AST):
                push(v)
    return names, attributes


def _text(facts: ModuleFacts, node: ast.AST | None) -> str | None:
    if node is None:
        return None
    text = facts.segment(node)
    return text or None


def _assigned_target(site: CallSite) -> ast.expr | None:
    """The simple name/attribute the call's result is bound to (``x = call(...)``)."""
    stmt = site.stmt
    if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is site.node:
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        if len(targets) == 1 and isinstance(targets[0], (ast.Name, ast.Attribute)):
            return targets[0]
    return None


def _open_target(facts: ModuleFacts, info: StmtInfo, name: str) -> ast.expr | None:
    """``with open(X, "wb") as f: torch.save(obj, f)`` → X."""
    parent = info.parent
    while parent is not None and parent.scope is info.scope:
        stmt = parent.stmt
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            for item in stmt.items:
                var = item.optional_vars
                if isinstance(var, ast.Name) and var.id == name and isinstance(item.context_expr, ast.Call):
                    call = item.context_expr
                    if call.args:
                        return call.args[0]
        parent = parent.parent
    return None


def is_project_helper(facts: ModuleFacts, site: CallSite) -> bool:
    """A call into a name the file imports from its own project (``from utils import
    save_checkpoint``, ``from model import GPT; GPT.from_pretrained``): its body is elsewhere."""
    node = site.node.func
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return isinstance(node, ast.Name) and node.id in index_of(facts).project_imports


def _star_imported_project_helper(facts: ModuleFacts, site: CallSite) -> bool:
    """``save_checkpoint(...)`` bound nowhere in a file that star-imports one of the
    project's own modules: the helper comes from there, as an explicit import would."""
    func = site.node.func
    if not isinstance(func, ast.Name) or not index_of(facts).star_imports_project:
        return False
    name = func.id
    return name not in facts.aliases and name not in facts.functions and not hasattr(builtins, name) and not any(
        index_of(facts).bindings(scope, name) for scope in (facts.module, site.scope)
    )


def _pathless_save_of_project_object(facts: ModuleFacts, site: CallSite) -> bool:
    """``actor = Action_net(env).to(device)`` (a class from the project's own modules), then
    ``actor.save_model()`` with no path (or only a step number): where it writes, and
    whether it says so, is decided in the class's file."""
    node = site.node
    if node.keywords:
        return False
    # `checkpoint.save(ep)`: numbered by the epoch, the place is still the object's own.
    if not all(isinstance(a, ast.Name) and COUNTER_NAME.match(a.id) for a in node.args):
        return False
    return _method_of_project_object(facts, site)


def _method_of_project_object(facts: ModuleFacts, site: CallSite) -> bool:
    """The call is a method of an object built from a class of the project's own modules
    (``runner = EvalRunner(config)``, ``actor = Action_net(env).to(device)``, or what such an
    object holds: ``self.trainer.workspace`` after ``self.trainer = Trainer(...)``)."""
    receiver = site.receiver
    idx = index_of(facts)
    if isinstance(receiver, ast.Attribute) and site.scope.class_name:
        while isinstance(receiver, ast.Attribute) and not (isinstance(receiver.value, ast.Name) and receiver.value.id == "self"):
            receiver = receiver.value
        text = plain_dotted_attribute(receiver)
        if text is None:
            return False
        binds = [b for method in facts.methods_of(site.scope.class_name) for b in idx.bindings(method, text)]
    elif isinstance(receiver, ast.Name):
        binds = idx.bindings(site.scope, receiver.id) or idx.bindings(facts.module, receiver.id)
    else:
        return False
    if not binds:
        return False
    for stmt, value in binds:
        called = isinstance(value, ast.Call)
        while isinstance(value, (ast.Call, ast.Attribute)):
            value = value.func if isinstance(value, ast.Call) else value.value
        if not isinstance(value, ast.Name):
            return False
        if value.id in idx.project_imports:
            continue
        # `self.actor = actor_net(lr=lr)` with the class handed to `__init__`: built from
        # a class this file never sees
        info = facts.info(stmt)
        if not (called and info is not None and value.id in idx.parameters(info.scope) and value.id not in ("self", "cls")):
            return False
    return True


def plain_dotted_attribute(node: ast.AST) -> str | None:
    """``self.trainer`` for ``self.trainer`` (an attribute of a plain name), else None."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    return None


def inherited_project_method(facts: ModuleFacts, site: CallSite) -> bool:
    """``self.save_checkpoint(...)`` in ``class Solver(BaseSolver)`` where ``BaseSolver``
    comes from the project's own modules and this file defines no such method: the
    helper's body (and whether it logs) is in another file."""
    func = site.node.func
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self"):
        return False
    cls = site.scope.class_name
    if not cls or facts.functions.get(f"{cls}.{func.attr}") is not None:
        return False
    project = index_of(facts).project_imports
    # (bases are alias-resolved: `from core.solver import BaseSolver` gives
    # "core.solver.BaseSolver"; `import solver` then `solver.BaseSolver` keeps "solver")
    return any(base.split(".")[0] in project or base.rsplit(".", 1)[-1] in project for base in site.scope.class_bases)


def local_method(facts: ModuleFacts, site: CallSite) -> Scope | None:
    """``GPT.from_pretrained(...)`` where ``class GPT`` with that method is in this file."""
    func = site.node.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return facts.functions.get(f"{func.value.id}.{func.attr}")
    return None


def _site_is_test(facts: ModuleFacts, site: CallSite) -> bool:
    return index_of(facts).is_test_scope(site.scope)


def site_report(site: CallSite, ctx: dict) -> Report:
    """The finding's range is the call; its node is the statement (cheap scope lookup)."""
    call = site.node
    span = (call.lineno, call.col_offset, call.end_lineno or call.lineno, call.end_col_offset or call.col_offset)
    return Report(site.stmt, context={k: v for k, v in ctx.items() if v is not None}, span=span)


def _common_context(code: str, site: CallSite, anchor_stmt: ast.stmt | None = None) -> dict:
    stmt = anchor_stmt or site.stmt
    return {
        "rule": code,
        "anchor": "after",
        "anchor_line": stmt.lineno,
        "scope": site.scope.qualname,
        "class_bases": list(site.scope.class_bases),
    }


# Rank-aware wrappers with torch.save's signature: save(obj, path).
TORCH_SAVE_LIKE = ("xm.save", "fabric.save", "accelerator.save")

# -- saves -------------------------------------------------------------------------

PATH_KWARGS = (
    "f", "filepath", "file_path", "filename", "file", "path", "save_path", "save_directory",
    "save_dir", "output_dir", "checkpoint_dir", "ckpt_dir", "export_dir", "file_prefix", "dirpath", "directory",
)
PATHISH = re.compile(r"path|dir|file|name|ckpt|checkpoint|out|save|dest|folder|prefix|\.p|/", re.I)


def _save_parts(facts: ModuleFacts, site: CallSite) -> tuple[ast.expr | None, ast.expr | None]:
    """(saved object, path expression) for a save call."""
    saved, path = _save_parts_by_signature(facts, site)
    if path is None and site.node.keywords:
        # A wrapper's own keyword for the file: `m.save_model(model_name="last.pt")`.
        for kw in site.node.keywords:
            if kw.arg and kw.arg not in ("obj", "model", "m", "tensors", "state_dict") and PATHISH.search(kw.arg):
                return saved, kw.value
    return saved, path


def _save_parts_by_signature(facts: ModuleFacts, site: CallSite) -> tuple[ast.expr | None, ast.expr | None]:
    name = (site.name or "").lower()
    method = (site.method or "").lower()
    args = [a for a in site.node.args if not isinstance(a, ast.Starred)]
    path_kw = None
    if site.node.keywords:
        for kw in PATH_KWARGS:
            path_kw = site.kwarg(kw)
            if path_kw is not None:
                break
    if name in ("torch.save", "torch.jit.save") or name.endswith(("xm.save", "fabric.save", "accelerator.save")) or method == "save_file" or name.endswith("saved_model.save") or name.endswith("models.save_model") or name.endswith("saving.save_model"):
        saved = args[0] if args else site.kwarg("obj") or site.kwarg("tensors") or site.kwarg("m") or site.kwarg("model")
        path = path_kw if path_kw is not None else (args[1] if len(args) > 1 else None)
        return saved, path
    if method in ("save_pretrained", "save_weights", "save_state", "save") or method == "save_checkpoint":
        receiver = site.receiver
        if method == "save_pretrained" and isinstance(receiver, ast.Name) and receiver.id[:1].isupper() and len(args) >= 1:
            # `LlamaForCausalLM.save_pretrained(base_model, "./hf_ckpt")`: called on the class
            return args[0], path_kw if path_kw is not None else (args[1] if len(args) > 1 else None)
        if method == "save" and len(args) >= 2 and _is_tf_session(args[0]):
            # TF1 `saver.save(sess, save_path, global_step=step)`
            return receiver, path_kw if path_kw is not None else args[1]
        path = path_kw if path_kw is not None else (args[0] if args else None)
        return receiver, path
    if method == "save_model":
        if len(args) >= 2:
            return args[0], path_kw if path_kw is not None else args[1]
        return (args[0] if args and path_kw is not None else site.receiver), (path_kw if path_kw is not None else (args[0] if args else None))
    # Unknown (project vocabulary): the first path-like argument.
    path = path_kw
    if path is None:
        for a in args:
            if isinstance(a, (ast.Constant, ast.JoinedStr)) or PATHISH.search(facts.segment(a)):
                path = a
                break
    saved = args[0] if args and args[0] is not path else site.receiver
    return saved, path


def _is_tf_session(expr: ast.expr) -> bool:
    """``sess`` / ``self.session``: the first argument of TF1's ``Saver.save``/``restore``."""
    text = dotted_name(expr) or ""
    return re.search(r"(^|[._])(sess|session)$", text, re.I) is not None


def _is_excluded_pretrained(facts: ModuleFacts, site: CallSite) -> bool:
    """``tokenizer.save_pretrained``: the load exclusions (tokenizers, configs…) apply to saves."""
    if (site.method or "") != "save_pretrained" or site.name is None:
        return False
    receiver = site.name.rsplit(".", 1)[0]
    return index_of(facts).matches("load_exclusions", receiver + ".from_pretrained")


def _bound_value(facts: ModuleFacts, site: CallSite, expr: ast.expr | None) -> ast.expr | None:
    if isinstance(expr, ast.Name):
        return index_of(facts).binding(site.scope, expr.id, site.node.lineno)
    return None


def _looks_like_checkpoint_save(facts: ModuleFacts, site: CallSite, saved: ast.expr | None, path: ast.expr | None) -> bool:
    name = site.name or ""
    generic = name == "torch.save" or name.endswith(TORCH_SAVE_LIKE) or (site.method == "save_file")
    if not generic:
        return True  # save_pretrained, save_weights, model.save, save_checkpoint…: models by construction
    # The saved object's text, the path's, the value the saved name was bound to: each is
    # read only when the ones before it do not look like a checkpoint.
    saved_text = facts.segment(saved) if saved is not None else ""
    if saved_text and has_checkpoint_words(saved_text):
        return True
    path_text = facts.segment(path) if path is not None else ""
    if path_text and has_checkpoint_words(path_text):
        return True
    bound = _bound_value(facts, site, saved)
    if bound is not None:
        bound_text = facts.segment(bound)
        if bound_text and has_checkpoint_words(bound_text):
            return True
    return bool(saved is not None and CHECKPOINT_OBJECT_WORDS.search(saved_text))


def _plausible_generic_save(facts: ModuleFacts, site: CallSite) -> bool:
    """A bare ``x.save(...)`` is a model save only in DL code, on an instance, with a path —
    or ``manager.save()`` where the file builds a ``tf.train.CheckpointManager``."""
    name = site.name or ""
    if name == "torch.save" or name.endswith(TORCH_SAVE_LIKE) or name.startswith(("torch.", "tensorflow.", "keras.")):
        return True
    receiver = site.receiver
    if isinstance(receiver, ast.Name) and receiver.id[:1].isupper() and not receiver.id.isupper():
        return False  # `SessionManager.save(...)`: a class's own persistence
    idx = index_of(facts)
    if name.endswith("manager.save") or name.endswith("Manager.save"):
        return idx.checkpoint_managers
    return bool(site.node.args or site.node.keywords)


def _save_sites(facts: ModuleFacts, *, self_logging_too: bool = False) -> Iterator[tuple[CallSite, ast.expr | None, ast.expr | None]]:
    for site, saved, path, self_logging in _checkpoint_saves(facts):
        if self_logging and not self_logging_too:
            continue
        yield site, saved, path


def _checkpoint_saves(facts: ModuleFacts) -> list[tuple[CallSite, ast.expr | None, ast.expr | None, bool]]:
    """(site, saved object, path, does the call log itself) for each save that looks like a
    checkpoint, in source order. Found once per module: DLL200 and DLL201 both ask."""
    idx = index_of(facts)
    if idx.checkpoint_saves is not None:
        return idx.checkpoint_saves
    found = idx.checkpoint_saves = []
    for site in facts.calls_in("save"):  # in source order
        if facts.local_target(site) is not None or local_method(facts, site) is not None:
            continue  # the project's own save helper: judged by the save inside it
        if is_project_helper(facts, site) or _pathless_save_of_project_object(facts, site):
            continue
        if _star_imported_project_helper(facts, site):
            continue  # `from lib.utils.tools import *` ... `save_checkpoint(state, ...)`
        if site.method not in STANDARD_SAVE_METHODS and _method_of_project_object(facts, site):
            continue  # `workspace.save_checkpoint(tag, state)` of the project's class: it picks the file
        if _is_excluded_pretrained(facts, site):
            continue
        if site.method == "save" and not _plausible_generic_save(facts, site):
            continue
        if _site_is_test(facts, site):
            continue
        saved, path = _save_parts(facts, site)
        if isinstance(path, ast.Name):
            opened = _open_target(facts, site.info, path.id)
            if opened is not None:
                path = opened
        if not _looks_like_checkpoint_save(facts, site, saved, path):
            continue
        found.append((site, saved, path, idx.matches("self_logging_save_load", site.name)))
    return found


# str methods that turn a fixed text into another fixed text.
LITERAL_STRING_METHODS = frozenset({"split", "rsplit", "replace", "lower", "upper", "strip", "rstrip", "lstrip"})


COUNTING_ITERS = frozenset({"range", "enumerate", "trange", "tqdm.trange"})


def _counters_around(site: CallSite) -> set[str]:
    """Names counting the loops around ``site``: ``for epoch in range(n)``, the index of
    ``for i, batch in enumerate(loader)``."""
    out: set[str] = set()
    # ... and the batch loop finished just before it, in the same epoch loop
    # (`"ckpt_epoch_" + str(e + 1) + "_batch_id_" + str(batch_id + 1)`): its last index.
    inner = [s for s in site.loops[-1].body if isinstance(s, (ast.For, ast.AsyncFor))] if site.loops else []
    for loop in list(site.loops) + inner:
        if not isinstance(loop, (ast.For, ast.AsyncFor)) or not isinstance(loop.iter, ast.Call):
            continue
        it = loop.iter
        if dotted_name(it.func) in ("tqdm", "tqdm.tqdm") and it.args and isinstance(it.args[0], ast.Call):
            it = it.args[0]  # tqdm(range(n))
        func = dotted_name(it.func) or ""
        if func not in COUNTING_ITERS:
            continue
        target = loop.target
        if func == "enumerate" and isinstance(target, ast.Tuple) and target.elts:
            target = target.elts[0]
        if isinstance(target, ast.Name):
            out.add(target.id)
    # `[load_state(f"fold{fold}.pth") for fold in [0, 1, 2]]`: a comprehension over literals
    for node in walk(site.stmt):
        if node.__class__ in _COMPREHENSIONS and any(n is site.node for n in walk(node)):
            for gen in node.generators:
                literal = (
                    isinstance(gen.iter, (ast.List, ast.Tuple)) and all(isinstance(e, ast.Constant) for e in gen.iter.elts)
                ) or (isinstance(gen.iter, ast.Call) and (dotted_name(gen.iter.func) or "") in COUNTING_ITERS)
                if literal and isinstance(gen.target, ast.Name):
                    out.add(gen.target.id)
    return out


_COMPREHENSIONS = frozenset({ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp})


def _step_counters(facts: ModuleFacts, loop: ast.AST) -> frozenset[str]:
    """``global_step += 1`` in a loop: its step counters (memoised per loop, per file)."""
    memo = getattr(facts, "_dllog_step_counters", None)
    if memo is None:
        memo = facts._dllog_step_counters = {}  # type: ignore[attr-defined]
    found = memo.get(id(loop))
    if found is None:
        found = memo[id(loop)] = frozenset(
            node.target.id
            for node in walk(loop)
            if isinstance(node, ast.AugAssign)
            and isinstance(node.op, ast.Add)
            and isinstance(node.target, ast.Name)
            and isinstance(node.value, ast.Constant)
            and type(node.value.value) is int
        )
    return found


def _counter_expr(facts: ModuleFacts, site: CallSite, expr: ast.expr) -> bool:
    """``epoch``, ``epoch + 1``, ``str(i).zfill(3)``: a number made only from the counters
    of the loops around the save."""
    counters = _counters_around(site)
    if site.loops and any(isinstance(n, ast.Name) and n.id not in counters for n in walk(expr)):
        counters = counters | _step_counters(facts, site.loops[0])  # `"steps_{:0>8}.pt".format(global_steps)`
    if not counters:
        return False
    for node in walk(expr):
        if isinstance(node, ast.Name):
            if node.id not in counters and node.id not in ("str", "int"):
                return False
        elif isinstance(node, ast.Attribute):
            if node.attr not in ("zfill", "format"):
                return False
        elif not isinstance(node, (ast.Constant, ast.BinOp, ast.Call, ast.operator, ast.Load, ast.expr_context)):
            return False
    return True


SETTINGS_HOLDER = re.compile(r"(^|\.)(DictConfig|create|EasyDict|edict|SimpleNamespace|Namespace|AttrDict|Box|ConfigDict|dict)$")


def _constant_settings_value(facts: ModuleFacts, site: CallSite, holder: ast.expr, key: str) -> ast.expr | None:
    """``args = DictConfig({"model_path": "rm.pth", ...})`` (or a dict literal, an
    ``EasyDict``, a ``SimpleNamespace(model_path=...)``) bound once: the value written
    in the source under ``key``, for ``args.model_path`` / ``args["model_path"]``."""
    if not isinstance(holder, ast.Name):
        return None
    idx = index_of(facts)
    binds = idx.bindings(site.scope, holder.id) or idx.bindings(facts.module, holder.id)
    values = [v for _, v in binds]
    if (
        len(values) == 2
        and isinstance(values[1], ast.Call)
        and SETTINGS_HOLDER.search(dotted_name(values[1].func) or "")
        and [a.id for a in values[1].args if isinstance(a, ast.Name)] == [holder.id]
    ):
        values = values[:1]  # `args = {...}` then `args = DictConfig(args)`
    if len(values) != 1 or values[0] is None:
        return None
    value = values[0]
    found = None
    if isinstance(value, ast.Call) and SETTINGS_HOLDER.search(dotted_name(value.func) or ""):
        for kw in value.keywords:
            if kw.arg == key:
                found = kw.value
        value = value.args[0] if len(value.args) == 1 else None
    if found is None and isinstance(value, ast.Dict):
        for k, v in zip(value.keys, value.values):
            if isinstance(k, ast.Constant) and k.value == key:
                found = v
    if found is None:
        return None
    # ... and never rewritten (`args.model_path = cli.model_path`, `cfg["ckpt"] = ...`).
    text = facts.text
    rewritten = rf"\b{re.escape(holder.id)}\s*(\.{re.escape(key)}|\[\s*['\"]{re.escape(key)}['\"]\s*\])\s*=[^=]"
    if f"{holder.id}.update" in text or f"{holder.id}.merge" in text or re.search(rewritten, text):
        return None
    return found


def is_literal_path(facts: ModuleFacts, site: CallSite, expr: ast.expr | None, depth: int = 4) -> bool:
    """A path spelled out in the source (``"mnist_cnn.pt"``, ``os.path.join("ckpt", "best.pt")``,
    a module constant): where the file went is already written down."""
    if expr is None or depth < 0:
        return False
    cls = expr.__class__  # node classes are exclusive: dispatch on the class itself
    if cls is ast.Constant:
        return isinstance(expr.value, str)
    if cls is ast.JoinedStr:
        # `f"./{model_type}-last.h5"` with `model_type = "ResNet50V2"`: still one fixed name;
        # `f"checkpoints/mnist_{epoch}.pt"` in `for epoch in range(...)`: a fixed template
        # numbered by the loop (the loop's progress says which file is which).
        return any(isinstance(v, ast.Constant) for v in expr.values) and all(
            isinstance(v, ast.Constant) or is_literal_path(facts, site, v.value, depth) or _counter_expr(facts, site, v.value)
            for v in expr.values
        )
    if cls is ast.Subscript:
        # `checkpoint.split("/")[1]` of a literal hub id
        if isinstance(expr.slice, ast.Constant) and isinstance(expr.value, ast.Call) and is_literal_path(facts, site, expr.value, depth):
            return True
        if isinstance(expr.slice, ast.Constant) and isinstance(expr.slice.value, str):
            value = _constant_settings_value(facts, site, expr.value, expr.slice.value)
            return value is not None and is_literal_path(facts, site, value, depth - 1)
        return False
    if cls is ast.BinOp:
        if isinstance(expr.op, ast.Mod):  # `"ckpt_%03d.pt" % epoch`
            return is_literal_path(facts, site, expr.left, depth) and (
                is_literal_path(facts, site, expr.right, depth) or _counter_expr(facts, site, expr.right)
            )
        if not isinstance(expr.op, (ast.Div, ast.Add)):
            return False
        return is_literal_path(facts, site, expr.left, depth) and is_literal_path(facts, site, expr.right, depth)
    if cls is ast.Call:
        name = dotted_name(expr.func, facts.aliases) or ""
        func = expr.func
        if isinstance(func, ast.Attribute) and func.attr == "format" and not expr.keywords:
            # `"{}.pkl".format(epoch)`
            return is_literal_path(facts, site, func.value, depth) and all(
                is_literal_path(facts, site, a, depth) or _counter_expr(facts, site, a) for a in expr.args
            )
        if isinstance(func, ast.Attribute) and func.attr in ("absolute", "resolve", "expanduser") and not expr.args and not expr.keywords:
            return is_literal_path(facts, site, func.value, depth)  # `Path(__file__).resolve()`
        if isinstance(func, ast.Attribute) and func.attr in LITERAL_STRING_METHODS:
            # `"HuggingFaceM4/idefics-9b".split("/")`, `base.replace(".pt", "_best.pt")`
            return (
                not expr.keywords
                and is_literal_path(facts, site, func.value, depth)
                and all(isinstance(a, ast.Constant) for a in expr.args)
            )
        if name == "str" and len(expr.args) == 1 and not expr.keywords and _counter_expr(facts, site, expr.args[0]):
            return True  # `"epoch_" + str(epoch) + ".pt"`
        if name == "open" and expr.args:
            # `f = open("model.pickle", "wb")` ... `torch.save(model, f)`: the handle's file
            return is_literal_path(facts, site, expr.args[0], depth)
        if name.endswith(("get_file", "hf_hub_download", "download_url_to_file", "cached_download")):
            # `keras.utils.get_file("weights.h5", "https://...")`: a file named and fetched by the source
            args = list(expr.args) + [k.value for k in expr.keywords if k.arg not in ("cache_dir", "cache_subdir")]
            return bool(args) and all(is_literal_path(facts, site, a, depth) or isinstance(a, ast.Constant) for a in args)
        # (`osp.join` with `osp` brought by a star import: the conventional alias of os.path)
        if name.endswith(("path.join", "Path", "expanduser", "abspath", "fspath", "dirname", "realpath", "normpath")) or name in ("str", "osp.join"):
            if not expr.args or expr.keywords:
                return False
            for a in expr.args:
                if not is_literal_path(facts, site, a, depth):
                    return False
            return True
        return False
    if cls is ast.Attribute:
        if _is_constant_name(expr) or _settings_module_attribute(facts, site, expr):
            return True
        if expr.attr == "parent" and expr.value.__class__ is not ast.Name:
            return is_literal_path(facts, site, expr.value, depth)  # `Path(__file__).parent.parent`
        if expr.value.__class__ is ast.Name and expr.value.id == "self":
            return depth > 0 and _self_attribute_from_literals(facts, site, expr.attr, depth - 1)
        value = _constant_settings_value(facts, site, expr.value, expr.attr)
        return value is not None and is_literal_path(facts, site, value, depth - 1)
    if cls is not ast.Name:
        return False
    if expr.id == "__file__":
        return True  # `Path(__file__).parent / "model.pt"`: next to the script
    if not _not_a_parameter(facts, site.scope, expr.id):
        # `def save_checkpoint(state, filename="checkpoint.pth.tar")` called without a
        # filename: the path is the literal default.
        values = _param_values(facts, site.scope, expr.id)
        return bool(values) and all(
            v is not None and is_literal_path(facts, call, v, depth - 1) for call, v in values
        )
    idx = index_of(facts)
    binds = idx.bindings(site.scope, expr.id) or idx.bindings(facts.module, expr.id)
    if not binds:
        # Bound nowhere here: a constant of the project's configuration (`MODEL_PATH`, or
        # `ModelSavePath` from `from pretrain_config import *` / `from config import ...`)
        return _is_constant_name(expr) or expr.id in idx.project_imports or idx.star_imports_project
    # Bound here (even in ALL_CAPS, `SAVE_PATH = args.save_path`): as its values are, but
    # not the binding this very call makes (`checkpoint = torch.load(checkpoint)`).
    node = site.node
    values = [v for _, v in binds if v is not node]
    for v in values:
        if v is None or not is_literal_path(facts, site, v, depth - 1):
            return False
    return bool(values)



def _param_values(
    facts: ModuleFacts, scope: Scope, param: str, callers: "list[CallSite] | None" = None
) -> list[tuple[CallSite, ast.expr | None]]:
    """What each same-module caller passes for ``param`` (its default when omitted).
    ``callers``: the calls to take instead (an ``__init__``'s: its class's constructions)."""
    fn = scope.node
    if callers is None:
        callers = index_of(facts).callers(scope)
    if not callers or not isinstance(fn, FUNC_TYPES):
        return []
    params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
    position = params.index(param) if param in params else None
    if position is not None and scope.class_name and params and params[0] in ("self", "cls"):
        position -= 1
    out = []
    for call in callers:
        spread = _spread_keywords(facts, call)
        if spread is None or any(isinstance(a, ast.Starred) for a in call.node.args):
            out.append((call, None))  # *args/**kwargs: cannot tell
            continue
        arg = call.kwarg(param)
        if arg is None:
            arg = spread.get(param)
        if arg is None and position is not None and 0 <= position < len(call.node.args):
            arg = call.node.args[position]
        if arg is None:
            arg = _param_default(fn, param)
        out.append((call, arg))
    return out


def _spread_keywords(facts: ModuleFacts, call: CallSite) -> "dict[str, ast.expr] | None":
    """The keywords a call's ``**name`` arguments spell out, when each ``name`` is bound once
    in the caller (or the module) to a ``{"lr": 1e-4, ...}`` literal with string keys
    (``train(policy, **hyperparams)``); ``{}`` with no ``**``; None when one cannot tell."""
    spread: dict[str, ast.expr] = {}
    idx = index_of(facts)
    for kw in call.node.keywords:
        if kw.arg is not None:
            continue
        if not isinstance(kw.value, ast.Name):
            return None
        binds = idx.bindings(call.scope, kw.value.id) or (idx.bindings(facts.module, kw.value.id) if not call.scope.is_module else [])
        if len(binds) != 1 or not isinstance(binds[0][1], ast.Dict):
            return None
        literal = binds[0][1]
        if not all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in literal.keys):
            return None  # (`{**defaults, "lr": 1e-3}` has a None key)
        spread.update((k.value, v) for k, v in zip(literal.keys, literal.values))
    return spread


def _self_attribute_from_literals(facts: ModuleFacts, site: CallSite, attr: str, depth: int) -> bool:
    """``self.expt_dir``, set only in ``__init__`` from its parameter, where every in-file
    construction of the class passes a literal (``Harness(expt_dir="./experiments/")``, or
    ``expt_dir`` bound to one just before): a folder written in the source."""
    class_name = site.scope.class_name
    if not class_name:
        return False
    init = None
    for method in facts.methods_of(class_name):
        for info in facts.scope_stmts(method):
            stmt = info.stmt
            if stmt.__class__ is ast.Assign and any(
                isinstance(t, ast.Attribute) and t.attr == attr and isinstance(t.value, ast.Name) and t.value.id == "self" for t in stmt.targets
            ):
                if method.name != "__init__" or init is not None:
                    return False  # set elsewhere too, or twice: not one value
                init = (method, stmt.value)
    if init is None or not isinstance(init[1], ast.Name):
        return False
    method, value = init
    if value.id not in [a.arg for a in method.node.args.posonlyargs + method.node.args.args][1:]:
        return False
    passed = _param_values(facts, method, value.id, callers=facts._calls_by_name.get(class_name, []))
    return bool(passed) and all(arg is not None and is_literal_path(facts, call, arg, depth) for call, arg in passed)


def _is_constant_name(expr: ast.expr) -> bool:
    """``MODEL_PATH`` or ``config.CHECKPOINT_DIR``: an ALL_CAPS name is a constant of the
    project's configuration, written down in its source (often another module or cell)."""
    name = expr.id if isinstance(expr, ast.Name) else expr.attr  # type: ignore[union-attr]
    return len(name) > 1 and name.isupper() and any(ch.isalpha() for ch in name)


def _settings_module_attribute(facts: ModuleFacts, site: CallSite, expr: ast.Attribute) -> bool:
    """``config.GMF_model_path`` of ``import config``: a value written in the project's
    settings module, not chosen by this run."""
    head = expr.value
    # `hp.train.checkpoint_dir`: a folder in a section of the settings (a save's folder
    # only: which weights `hp.model.model_path` loads is known only to the settings file)
    if head.__class__ is ast.Attribute and facts.is_category(site, "save"):
        while head.__class__ is ast.Attribute:
            expr, head = head, head.value  # type: ignore[assignment]
    module = project_module_of(facts, site.scope, expr)
    return (
        module is not None and SETTINGS_MODULE.search(module.rsplit(".", 1)[-1]) is not None
        and _not_a_parameter(facts, site.scope, head.id)  # type: ignore[attr-defined]
    )


def project_module_of(facts: ModuleFacts, scope: Scope, expr: ast.Attribute) -> str | None:
    """For ``<name>.<attr>`` where ``<name>`` is imported here from the project's own
    modules and never rebound (in ``scope`` or the module): what ``<name>`` resolves to
    (``import config as ctg`` gives ``config``)."""
    head = expr.value
    if head.__class__ is not ast.Name:
        return None
    idx = index_of(facts)
    if head.id not in idx.own_module_imports or idx.bindings(scope, head.id) or idx.bindings(facts.module, head.id):
        return None
    return facts.aliases.get(head.id, head.id)


def _not_a_parameter(facts: ModuleFacts, scope: Scope, name: str) -> bool:
    return name not in index_of(facts).parameters(scope)


# Decorators that make a function an entry point run by a framework (with real values).
ENTRY_DECORATOR = re.compile(r"(^|\.)(main|command|group|callback|cli|entrypoint|run|task|app|script|hydra\.main|remote)$|click|typer|fire", re.I)


def _resolved_names(facts: ModuleFacts, scope: Scope, expr: ast.AST | None, before_line: int, depth: int = 3) -> set[str]:
    """Names an expression depends on, following local assignments a few levels back."""
    idx = index_of(facts)
    if expr is None:
        names: set[str] = set()
    elif expr.__class__ is ast.Name:
        names = {expr.id}  # the common case: a path or device held in a variable
    else:
        names = set(idx.names_and_attributes(expr)[0])
    assignments = idx.assignments(scope)
    frontier: Iterable[str] = names  # `names` only grows after each round's loop
    for _ in range(depth):
        grown: set[str] = set()
        for name in frontier:
            binds = assignments.get(name)
            if not binds:
                continue
            bound = None  # idx.binding(), inlined: the last value bound before the line
            for stmt, value in binds:
                if stmt.lineno <= before_line:
                    bound = value
            if bound is not None:
                grown |= idx.names_and_attributes(bound)[0] - names
        if not grown:
            break
        names |= grown
        frontier = grown
    return names


def _argument_or_its_field(value: ast.expr, params) -> bool:
    """``path``, ``args.path`` or ``args["path"]`` of a parameter."""
    while isinstance(value, (ast.Attribute, ast.Subscript)):
        value = value.value
    return isinstance(value, ast.Name) and value.id in params


def stored_constructor_argument(facts: ModuleFacts, site: CallSite, expr: ast.expr | None) -> bool:
    """``self._path`` (or ``self.device``) that ``__init__(self, path, ...)`` stored from its
    argument (or a field of it: ``args["actor_path"]``), in a class this file never builds:
    the value is the (unseen) caller's."""
    text = dotted_name(expr) if expr is not None else None
    class_name = site.scope.class_name
    if not class_name or not text or not text.startswith("self.") or "(" in text or "[" in text:
        return False
    init = facts.functions.get(f"{class_name}.__init__")
    if init is None:
        return False
    params = index_of(facts).parameters(init)
    stored = any(
        _argument_or_its_field(_single_argument_wrapped(stmt.value), params)
        and any(dotted_name(t) == text for t in stmt.targets)
        for stmt in walk(init.node)
        if isinstance(stmt, ast.Assign)
    )
    if not stored:
        return False
    return not any(c.name and c.name.rsplit(".", 1)[-1] == class_name for c in facts.calls)


def _built_from_constructor_settings(facts: ModuleFacts, site: CallSite, path: ast.expr | None) -> bool:
    """``os.path.join(self.cfg["output_dir"], "{}.pth".format(self.cfg["model"]["base"]))``:
    a path made only of literals and of what the constructor stored from its argument, in a
    class this file never builds: its (unseen) creator chose every part of it."""
    if path is None or not site.scope.class_name:
        return False
    if isinstance(path, ast.Name):  # `saved_name = os.path.join(...)`; `torch.save(state, saved_name)`
        path = index_of(facts).binding(site.scope, path.id, site.node.lineno)
        if path is None:
            return False
    holders = []
    called = {id(c.func) for c in walk(path) if isinstance(c, ast.Call)}
    for node in walk(path):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
            holders.append(node)
        elif isinstance(node, ast.Name) and node.id != "self" and not (dotted_name(node) or "").startswith(("os", "osp")):
            if id(node) not in called:
                return False  # a local or a loop variable: chosen here
    return bool(holders) and all(stored_constructor_argument(facts, site, h) or _set_by_a_project_base(facts, site, h) for h in holders)


def _set_by_a_project_base(facts: ModuleFacts, site: CallSite, attribute: ast.Attribute) -> bool:
    """``self.cfg`` in ``class FASTrainer(BaseTrainer)`` where ``BaseTrainer`` comes from the
    project and nothing in this file sets ``self.cfg``: the base class's constructor does."""
    bases = site.scope.class_bases
    project = index_of(facts).project_imports
    if not bases or not any(b.split(".")[0] in project or b.rsplit(".", 1)[-1] in project for b in bases):
        return False
    name = attribute.attr
    return not any(
        isinstance(node, ast.Attribute) and node.attr == name and isinstance(node.ctx, ast.Store)
        and isinstance(node.value, ast.Name) and node.value.id == "self"
        for info in facts.stmt_infos.values() if isinstance(info.stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign))
        for target in (info.stmt.targets if isinstance(info.stmt, ast.Assign) else [info.stmt.target])
        for node in walk(target)
    )


def _single_argument_wrapped(value: ast.expr) -> ast.expr:
    """``torch.device(args.device)``, ``Path(out_dir)``: the one argument, else ``value``."""
    if isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords and not isinstance(value.args[0], ast.Starred):
        return value.args[0]
    return value


def from_unseen_caller(facts: ModuleFacts, site: CallSite, expr: ast.expr | None) -> bool:
    """The path (or device) comes from a parameter that no caller in this file fills in:
    ``def save_checkpoint(state, out_dir): torch.save(state, join(out_dir, "ckpt.pth"))``
    in a utils module, ``ModelEma(model, device=...)`` in a library. The callers that choose
    the value live elsewhere and are the place to log it."""
    if expr is None or not _called_here(facts, site.scope):
        return False
    names = _resolved_names(facts, site.scope, expr, site.node.lineno)
    for loop in site.loops:
        # `for p in ckpt_paths: torch.load(p)`: each path is one of the list's
        if isinstance(loop, (ast.For, ast.AsyncFor)) and isinstance(loop.target, ast.Name) and loop.target.id in names:
            names = names | _names_in(loop.iter)
    return _unseen_here(facts, site.scope, names, expr, depth=4)


def _called_here(facts: ModuleFacts, scope: Scope) -> bool:
    """A function that only this file's code calls: not the module, not an entry point run
    by a framework, not handed to something else to run."""
    if not isinstance(scope.node, FUNC_TYPES):
        return False
    if scope.decorators and any(ENTRY_DECORATOR.search(d) for d in scope.decorators):
        return False  # @hydra.main, @click.command...: an entry point, called by a framework
    return scope.name not in index_of(facts).passed_functions  # fire.Fire(main), mp.spawn(main_worker, ...)


def _unseen(facts: ModuleFacts, scope: Scope, names: set[str], expr: ast.AST | None, depth: int) -> bool:
    if depth <= 0 or not _called_here(facts, scope):
        return False
    return _unseen_here(facts, scope, names, expr, depth)


def _unseen_here(facts: ModuleFacts, scope: Scope, names: set[str], expr: ast.AST | None, depth: int) -> bool:
    """_unseen() of a scope already known to be _called_here(), with ``depth`` > 0."""
    fn = scope.node
    idx = index_of(facts)
    used = names & idx.parameters(scope)
    used.discard("self")
    used.discard("cls")
    if fn.args.kwarg is not None and fn.args.kwarg.arg in names:
        used.add(fn.args.kwarg.arg)
    if used:
        for p in used:
            for call, value in _param_values(facts, scope, p):
                if value is None or (isinstance(value, ast.Constant) and value.value is None):
                    continue
                # Handed down from the caller's own parameter: look one level further up.
                if depth > 1 and _called_here(facts, call.scope):
                    passed = _resolved_names(facts, call.scope, value, call.node.lineno)
                    if _unseen(facts, call.scope, passed, None, depth - 1):
                        continue
                return False
        return True
    # `self.ckpt_dir` in a small method nobody here calls: configured by its (unseen) creator.
    if expr is None or idx.callers(scope) or scope.class_name is None:
        return False
    small = is_wrapper_name(scope.name) or idx.stmt_count(scope) <= WRAPPER_MAX_STATEMENTS
    uses_self = any(
        isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self" for n in walk(expr)
    )
    return bool(small and uses_self)


def _site_evidence(facts: ModuleFacts, config: Config, site: CallSite, mention_exprs: list) -> bool:
    if logged_nearby(facts, site.info, config.window):
        return True
    if logs_mention(facts, site.scope, _mention_keys(facts, mention_exprs, site)):
        return True
    scope = site.scope
    if _callers_log_what_they_pass(facts, scope, mention_exprs):
        return True
    if is_small_wrapper(facts, scope) and wrapper_logs(facts, scope):
        return True
    return callers_log(facts, scope, config.window)


@rule("DLL200")
def unlogged_checkpoint_save(facts: ModuleFacts, config: Config) -> Iterator[Report]:
    if not facts.calls_in("save") or not is_dl_module(facts):
        return
    if _clearml_task(facts):
        return  # ClearML's torch binding registers every saved file (with its path) as an output model
    if index_of(facts).conversion_tool:
        return  # a one-shot weight converter writes where its user just told it to
    reported: list[StmtInfo] = []
    idx = index_of(facts)
    for site, saved, path in _save_sites(facts):
        result = _assigned_target(site)
        # Both are pure; the caller test goes first because it is nearly free at module
        # level and for literal paths, and a wrapper's path rarely is a literal.
        if from_unseen_caller(facts, site, path) or is_literal_path(facts, site, path):
            continue
        if inherited_project_method(facts, site) or stored_constructor_argument(facts, site, path) or _built_from_constructor_settings(facts, site, path):
            continue  # (a callback given its path: `SaveBestWeights(path)` is built elsewhere)
        if site.method == "save_pretrained" and idx.verbose_hf:
            continue  # "Model weights saved in ..." is logged by transformers at INFO
        if _temporary_path(facts, site, path):
            continue
        if site.method == "save_state" and "trainer" in (_text(facts, site.receiver) or "").lower():
            continue  # HF `trainer.save_state()` writes trainer_state.json, not a checkpoint
        if _settings_dict(facts, site, saved):
            continue
        if _site_evidence(facts, config, site, [path, result]):
            continue
        if _beside_the_run_record(facts, site, path):
            continue  # the run's log/events file sits in the same folder
        if _parent_folder_logged(facts, site, path):
            continue  # `best = ckpt_dir / "best.pt"`, `ckpt_dir = run_dir / "checkpoints"`, run_dir logged
        origin = _save_folder_origin(facts, site, path)
        if not (origin.config_roots or origin.generated or origin.unknown):
            continue  # no option, config field, timestamp or environment in it: the source says where
        if _recorded_origin(facts, site, origin):
            continue  # `print(args)` ... `join(args.out, "best.pth")`: the log has the folder
        # Several saves side by side (model, optimizer, tokenizer) are one checkpoint: one
        # finding, whose fix makes the others "nearby" too.
        if _beside_a_reported_save(site.info, reported, config.window):
            continue
        reported.append(site.info)
        ctx = _common_context("DLL200", site)
        ctx["path"] = _text(facts, path) or _text(facts, result)
        ctx["saved"] = _text(facts, saved)
        ctx["call"] = site.name
        yield site_report(site, ctx)


def _beside_a_reported_save(info: StmtInfo, reported: list[StmtInfo], window: int) -> bool:
    """Within ``window`` statements of a reported save in the same block, or inside an
    ``if`` that is (``if args.double_classifiers: torch.save(third_part, ...)`` right after
    the group): part of the same checkpoint."""
    level: StmtInfo | None = info
    while level is not None:
        if any(r.block is level.block and abs(r.index - level.index) <= window for r in reported):
            return True
        parent = level.parent
        if parent is None or parent.scope is not info.scope or not isinstance(parent.stmt, ast.If):
            return False
        level = parent
    return False


def _settings_dict(facts: ModuleFacts, site: CallSite, saved: ast.expr | None) -> bool:
    """``torch.save({"hidden_dim": args.hidden_dim, "vocab_size": len(vocab)}, f)`` (SageMaker's
    model_info.pth): constructor settings, no weights. Not a checkpoint."""
    if isinstance(saved, ast.Name):
        saved = index_of(facts).binding(site.scope, saved.id, site.node.lineno)
    if not isinstance(saved, ast.Dict) or not saved.values:
        return False
    for value in saved.values:
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in ("len", "int", "float", "str", "bool"):
            continue
        if isinstance(value, ast.Constant):
            continue
        if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and CONFIG_ROOT.search(value.value.id):
            continue
        return False
    return True


def _temporary_path(facts: ModuleFacts, site: CallSite, path: ast.expr | None) -> bool:
    """A save to a ``tempfile`` path: an atomic write (``os.replace(tmp, dest)`` follows)
    or DDP's initial-weights hand-over between ranks. Not where the checkpoint lives."""
    if path is None:
        return False
    exprs = [path]
    if isinstance(path, ast.Name):
        # (`fd, tmp = tempfile.mkstemp()`: an unpacked value is the whole call's statement)
        exprs += [value if value is not None else stmt.value for stmt, value in index_of(facts).bindings(site.scope, path.id)]
    for expr in exprs:
        for node in walk(expr):
            if isinstance(node, ast.Call) and (dotted_name(node.func, facts.aliases) or "").startswith("tempfile."):
                return True
    return False


# A call that keeps the run's own record in a folder: TensorBoard/CSV writers, a log-file
# handler, a logger set up on the folder (`configure_logging(cfg.output_dir)`).
# (the HF Trainer's `output_dir` gets its checkpoints, trainer_state.json and training_args.bin)
LOG_SINK_CALL = re.compile(r"(SummaryWriter|FileWriter|Supervisor|create_file_writer|FileHandler|basicConfig|TensorBoard|Logger|log|TrainingArguments|SFTConfig|DPOConfig)[^.]*$", re.I)
_PATH_KEYWORDS = ("log_dir", "logdir", "filename", "save_dir", "dir", "path", "output_dir", "logs_dir")


def _folder_heads(facts: ModuleFacts, scope: Scope, expr: ast.AST | None, depth: int = 3) -> set[str]:
    """The names a path is built on, from the outermost in: ``save_dir`` and ``args.out`` for
    ``join(save_dir, "best.pt")`` after ``save_dir = join(args.out, "ckpt")``."""
    heads: set[str] = set()
    while expr is not None and depth > 0:
        if isinstance(expr, ast.Call):
            name = dotted_name(expr.func) or ""
            if name.endswith(("path.join", "Path", "PurePath")) and expr.args:
                expr = expr.args[0]
            elif name.endswith(".format") and isinstance(expr.func, ast.Attribute) and _leads_with_placeholder(expr.func.value, "{") and expr.args:
                expr = expr.args[0]  # `"{}/best.pth".format(save_dir)`
            elif name.endswith(".format") and isinstance(expr.func, ast.Attribute) and isinstance(expr.func.value, ast.Name):
                expr = expr.func.value  # `ckpt_format.format(step)`, `ckpt_format = model_dir + "{}.ckpt"`
            elif name.endswith("joinpath") and isinstance(expr.func, ast.Attribute):
                expr = expr.func.value
            else:
                return heads
        elif isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Div, ast.Add)):
            expr = expr.left
        elif isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mod) and _leads_with_placeholder(expr.left, "%"):
            # `"%s/models/final.pth" % save_dir`, `"%s/epoch_%d.pth" % (save_dir, epoch)`
            expr = expr.right.elts[0] if isinstance(expr.right, ast.Tuple) and expr.right.elts else expr.right
        elif isinstance(expr, ast.JoinedStr) and expr.values and isinstance(expr.values[0], ast.FormattedValue):
            expr = expr.values[0].value
        elif isinstance(expr, (ast.Name, ast.Attribute, ast.Subscript)):
            text = facts.segment(expr)
            if not text or text in heads:
                return heads
            heads.add(text)
            if not isinstance(expr, ast.Name):
                return heads
            bound = index_of(facts).binding(scope, expr.id, 10**9)
            if bound is None:
                return heads
            expr, depth = bound, depth - 1
        else:
            return heads
    return heads


def _built_from_a_recorded_config(facts: ModuleFacts, site: CallSite, path: ast.expr | None) -> bool:
    """The path comes from a configuration the run records whole (``print(args)``,
    ``wandb.init(config=cfg)``, a config dump): ``join(args.out, "best.pth")`` can be read off
    the run's log, and a line per save (or load) would say it again. Followed through the
    function's assignments (``save_dir = join(cfg.output_dir, "ckpt")``) and, for a parameter,
    through what this file's callers pass."""
    if path is None:
        return False
    return _recorded_origin(facts, site, _path_origin(facts, site.scope, path, site.node.lineno, depth=2))


def _recorded_origin(facts: ModuleFacts, site: CallSite, origin: "PathOrigin") -> bool:
    """The path's run-time parts are all fields of configurations the run records whole (a
    timestamped part is in no config)."""
    from .configuration import config_recorded
    from .reproducibility import made_by_project_options_class

    roots = origin.config_roots
    if not roots or origin.generated:
        return False
    # `opt = TrainOptions().parse()`: the project's options class prints them (not in this file)
    return config_recorded(facts, roots, whole=True) or made_by_project_options_class(facts, site.scope, roots)


_BUILTIN_NAMES = frozenset(dir(__import__("builtins")))
# Decorators that make a function's parameters command-line options.
CLI_DECORATOR = re.compile(r"(^|\.)(click\.|typer\.|command$|option$|argument$)", re.I)
# Calls whose value differs from run to run: a timestamped or random folder, the environment.
VOLATILE_CALL = re.compile(
    r"(^|\.)(time_ns|strftime|today|utcnow|uuid1|uuid4|getenv|randint|random|token_hex|getpid|gethostname)$"
    r"|(^|\.)environ\.get$"
    # `time.time()`, `datetime.now()`, the project's `name_time(...)` / `get_timestamp()`
    r"|(^|[._])([a-z0-9]+_)?(time|date|datetime|timestamp|stamp|now)(_[a-z0-9]+)?$",
    re.I,
)


class PathOrigin(NamedTuple):
    """What a path is built from (see _path_origin)."""

    config_roots: frozenset[str]  # the configuration objects among its parts (`args`, `self.config`)
    generated: bool  # a part made at run time: a timestamp, a random name, the environment
    unknown: bool  # a part this file cannot see: callers elsewhere, a name bound nowhere

    def __or__(self, other: "PathOrigin") -> "PathOrigin":  # type: ignore[override]
        return PathOrigin(self.config_roots | other.config_roots, self.generated or other.generated, self.unknown or other.unknown)


NO_ORIGIN = PathOrigin(frozenset(), False, False)


def _path_origin(facts: ModuleFacts, scope: Scope, expr: ast.expr, line: int, depth: int) -> PathOrigin:
    """What a path is built from, followed through the function's assignments and, for a
    parameter, through what this file's callers pass (and for ``self.x``, what the class's
    other methods set it to)."""
    from .configuration import config_names, plain_dotted, root_name

    idx = index_of(facts)
    exprs: list[ast.AST] = [expr]
    params = idx.parameters(scope)
    followed: list[str] = []
    generated = unknown = False
    for name in _resolved_names(facts, scope, expr, line):
        # (`epochs, save_dir = cfg["train"].values()`: an unpacked name is the whole value's)
        bound = idx.bindings(scope, name) or (idx.bindings(facts.module, name) if not scope.is_module else ())
        exprs += [value if value is not None else stmt.value for stmt, value in bound]
        if name == "self" or name == "cls":
            continue  # (its attributes are followed below)
        if name in params:
            followed.append(name)
        elif not bound and name not in facts.aliases and name not in facts.functions and name not in _BUILTIN_NAMES:
            unknown = True  # bound nowhere in the file (a pasted snippet's `ckpt_path`): cannot tell
    known = config_names(facts)
    roots: set[str] = set()
    attributes: list[str] = []  # `self.save_path`, set by another method
    for part in exprs:
        for node in walk(part):
            cls = node.__class__
            if cls is ast.Call:
                generated = generated or VOLATILE_CALL.search(dotted_name(node.func) or "") is not None
                continue
            if cls is not ast.Attribute and cls is not ast.Subscript:
                continue
            text = dotted_name(node) or ""
            if text.startswith(("sys.argv", "os.environ")):
                generated = True
                continue
            root = root_name(node)
            if root == "self":
                # `self.config.save_dir`: the config the object holds
                holder = plain_dotted(node.value) if cls is ast.Attribute else None
                if holder and holder != "self" and CONFIG_ROOT.search(holder.rsplit(".", 1)[-1]):
                    roots.add(holder)
                elif holder == "self" and depth > 1 and scope.class_name:
                    attributes.append(text)
            elif root in known or (root and CONFIG_ROOT.search(root)):
                roots.add(root)
    if followed and (any(CLI_DECORATOR.search(d) for d in scope.decorators) or not idx.callers(scope)):
        # `@click.option("--out")` parameters are command-line options; a function nobody
        # here calls gets its values from elsewhere, at run time
        unknown = True
    origin = PathOrigin(frozenset(roots), generated, unknown)
    if depth > 1:
        for name in followed:
            # `def load_model(ckpt_path)` ... `load_model(join(run_config.model_dir, "model.bin"))`
            for call, value in _param_values(facts, scope, name):
                if value is not None:
                    origin = origin | _path_origin(facts, call.scope, value, call.node.lineno, depth - 1)
        for method in facts.methods_of(scope.class_name) if attributes else ():
            # `self.save_path = join(args.result_path, args.model_name)` in `__init__`
            if method is scope:
                continue
            for attribute in attributes:
                for stmt, value in idx.bindings(method, attribute):
                    origin = origin | _path_origin(facts, method, value if value is not None else stmt.value, stmt.lineno, depth - 1)
    return origin


def _save_folder_origin(facts: ModuleFacts, site: CallSite, path: ast.expr | None) -> PathOrigin:
    """What the folder of a save is chosen from (see _path_origin): a command-line option or
    config field (``args.out_dir``, ``cfg["save_dir"]``, ``self.config.save_fold``), a timestamped
    or random name, the environment, a caller outside the file. A path made of the file's
    own names and literals (``join(run_dir, "best.pt")`` with ``run_dir`` built here) has
    none of these, and can be read off the source."""
    if path is None:
        # `manager = tf.train.CheckpointManager(ckpt, args.ckpt_dir)` ... `manager.save()`:
        # the folder was given when the receiver was made
        made = site.receiver
        if isinstance(made, ast.Name):
            made = index_of(facts).binding(site.scope, made.id, site.node.lineno)
        if not isinstance(made, ast.Call):
            return NO_ORIGIN
        path = made
    return _path_origin(facts, site.scope, path, site.node.lineno, depth=2)


def _leads_with_placeholder(template: ast.expr, opening: str) -> bool:
    """A string template that starts with its first placeholder (``"%s/..."``, ``"{}/..."``)."""
    return isinstance(template, ast.Constant) and isinstance(template.value, str) and template.value.startswith(opening)


def _clearml_task(facts: ModuleFacts) -> bool:
    """The file starts a ClearML task (``Task.init(...)``): by default ClearML patches
    ``torch.save``/``torch.load`` (and Keras/TF saves) and records each file as an output or
    input model of the task, path included."""
    return any(site.name.startswith("clearml.") for site in calls_named_ending(facts, "Task.init", in_order=False))


def _beside_the_run_record(facts: ModuleFacts, site: CallSite, path: ast.expr | None) -> bool:
    """The checkpoint goes into the folder where the run also writes its log, TensorBoard
    events or metrics file (``SummaryWriter(args.out)`` ... ``torch.save(state,
    join(args.out, "checkpoint.pth"))``): whoever reads the run's record has found the
    weights' folder. Names compare within the function; attribute chains file-wide."""
    heads = _folder_heads(facts, site.scope, path)
    if not heads:
        return False
    places = [(site.scope, heads)]
    # `def save_checkpoint(state, checkpoint=...)` called with `checkpoint=args.checkpoint`
    # from where `Logger(join(args.checkpoint, "log.txt"))` is made: the callers' folder
    for head in heads:
        if "." not in head and not _not_a_parameter(facts, site.scope, head):
            places += [(call.scope, _folder_heads(facts, call.scope, value)) for call, value in _param_values(facts, site.scope, head) if value is not None]
    for scope, found in index_of(facts).run_record_folders:
        for own, names in places:
            if any("." in h or scope is own for h in names & found):
                return True
    return False


def _parent_folder_logged(facts: ModuleFacts, site: CallSite, path: ast.expr | None) -> bool:
    """The path is a fixed name under a folder (``best_ckpt = ckpt_dir / "best_checkpoint.pt"``,
    ``ckpt_dir = run_dir / "checkpoints"``) that the function logs (``logging.info("run
    start: dir=%s", run_dir)``): followed one binding at a time, up to a few folders."""
    if not isinstance(path, ast.Name) or site.scope.is_module:
        return False
    idx = index_of(facts)
    name = path.id
    for _ in range(4):
        binds = idx.bindings(site.scope, name)
        if len(binds) != 1:
            return False
        value = binds[0][1]
        parent = None
        if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Div) and isinstance(value.right, ast.Constant):
            parent = value.left  # `run_dir / "checkpoints"`
        elif isinstance(value, ast.Call) and (dotted_name(value.func, facts.aliases) or "").endswith("path.join") and value.args \
                and all(isinstance(a, ast.Constant) for a in value.args[1:]):
            parent = value.args[0]  # `os.path.join(run_dir, "checkpoints")`
        if not isinstance(parent, ast.Name):
            return False
        name = parent.id
        if logs_mention(facts, site.scope, ({name}, set())):
            return True
    return False


# -- DLL201: bare weights --------------------------------------------------------------


def _own_full_state_dict(facts: ModuleFacts, site: CallSite, receiver: ast.expr) -> bool:
    """``torch.save(self.state_dict(), path)`` in a class that defines its own
    ``state_dict()`` returning a dict with more than the weights (``{"step": ..., "model":
    ..., "optimizer": ...}``, diffwave's Learner): a full checkpoint."""
    if not (isinstance(receiver, ast.Name) and receiver.id == "self" and site.scope.class_name):
        return False
    for method in facts.methods_of(site.scope.class_name):
        if method.name != "state_dict":
            continue
        for info in facts.scope_stmts(method):
            value = info.stmt.value if isinstance(info.stmt, ast.Return) else None
            if isinstance(value, ast.Dict):
                keys = {k.value.lower() for k in value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
                if len(keys) >= 2 and any(METADATA_KEY.search(k) for k in keys):
                    return True
    return False


def _state_dict_receiver(expr: ast.expr | None) -> ast.expr | None:
    if (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr == "state_dict"
        and not expr.args
    ):
        return expr.func.value
    return None


# Trainers that write resumable checkpoints (optimizer, scheduler, step) by default.
CHECKPOINTING_TRAINER = re.compile(r"^(transformers|trl|pytorch_lightning|lightning(\.pytorch)?)\.(\w+\.)*\w*Trainer$")


def _rich_checkpoint_saved(facts: ModuleFacts) -> bool:
    """Does the file also save something resumable (a dict with epoch/optimizer…)? A
    Hugging Face or Lightning Trainer run here does, unless told not to."""
    text = facts.text
    if "Trainer" in text and not re.search(r"save_strategy\s*=\s*['\"]no['\"]|enable_checkpointing\s*=\s*False", text):
        if any(CHECKPOINTING_TRAINER.match(site.name or "") for site in calls_named_ending(facts, "Trainer", in_order=False)):
            return True
    for site in facts.calls_in("save"):
        method = site.method or ""
        if method in ("save_state", "save_checkpoint") or (site.name or "").endswith(("Checkpoint.save", "manager.save")):
            return True
        receiver = site.receiver
        if (
            method == "save"
            and isinstance(receiver, (ast.Name, ast.Attribute))
            and not (site.name or "").startswith("torch.")
            and re.search(r"model|net", facts.segment(receiver), re.I)
        ):
            # Keras `model.save(path)` writes the whole model with its optimizer state.
            _, keras_path = _save_parts(facts, site)
            if keras_path is None or not re.search(r"weights", facts.segment(keras_path), re.I):
                return True
        saved, _ = _save_parts(facts, site)
        candidates = [saved, _bound_value(facts, site, saved)]
        for cand in candidates:
            if isinstance(cand, ast.Dict):
                keys = " ".join(facts.segment(k) for k in cand.keys if k is not None)
                values = " ".join(facts.segment(v) for v in cand.values)
                if METADATA_KEY.search(keys) or re.search(r"optim|sched", values, re.I):
                    return True
            if isinstance(cand, ast.Call) and dotted_name(cand.func) == "dict" and any(
                kw.arg and METADATA_KEY.search(kw.arg) for kw in cand.keywords
            ):
                return True
            recv = _state_dict_receiver(cand)
            if recv is not None and NON_MODEL_STATE.search(facts.segment(recv)):
                return True  # the optimizer state is saved too
    # tf.train.Checkpoint(optimizer=..., model=...) tracks the optimizer.
    for site in facts.calls:
        if (site.name or "").endswith("train.Checkpoint") and site.kwarg("optimizer") is not None:
            return True
    return False


# A config object (`args`, `cfg`, `repr_args`...): formatted into a file name, it is the
# run's configuration in that name.
CONFIG_ROOT = re.compile(r"^(?:args|cfg|config|conf|opt|opts|hparams|hps?|params)$|_(?:args|cfg|config|opts?)$", re.I)


def _formatted_parts(path: ast.expr) -> list[ast.expr]:
    """The values formatted into a string: f-string fields, ``.format()`` arguments,
    ``%`` operands."""
    parts: list[ast.expr] = []
    for node in walk(path):
        if isinstance(node, ast.FormattedValue):
            parts.append(node.value)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
            parts.extend(node.args)
            parts.extend(k.value for k in node.keywords)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant):
            parts.extend(node.right.elts if isinstance(node.right, ast.Tuple) else [node.right])
    return parts


def _config_in_name(facts: ModuleFacts, site: CallSite, path: ast.expr) -> bool:
    """``f"model_{args.lr}.pt"``, ``f"model_{repr_args}.pt"`` with ``repr_args =
    string_args(args)``: the configuration is formatted into the file name."""
    for part in _formatted_parts(path):
        for node in walk(part):
            if isinstance(node, ast.Name):
                if CONFIG_ROOT.search(node.id):
                    return True
                bound = index_of(facts).binding(site.scope, node.id, site.node.lineno)
                if isinstance(bound, ast.Call) and any(isinstance(a, ast.Name) and CONFIG_ROOT.search(a.id) for a in bound.args):
                    return True
    return False


def _loop_counters(facts: ModuleFacts, site: CallSite) -> set[str]:
    """Names counted up in the loops around a save (``i_so_far += 1`` in a ``while``):
    the iteration number, like a ``for`` loop's variable."""
    by_loop = getattr(facts, "_dllog_loop_counters", None)
    if by_loop is None:
        by_loop = {}
        for info in facts.stmt_infos.values():
            stmt = info.stmt
            if stmt.__class__ is ast.AugAssign and isinstance(stmt.op, ast.Add) and isinstance(stmt.target, ast.Name):
                for loop in info.loops:
                    by_loop.setdefault(loop, set()).add(stmt.target.id)
        facts._dllog_loop_counters = by_loop  # type: ignore[attr-defined]
    out: set[str] = set()
    for loop in site.loops:
        out |= by_loop.get(loop, set())
    return out


def _metadata_in_path(facts: ModuleFacts, site: CallSite, path: ast.expr | None, depth: int = 2) -> bool:
    if path is None:
        return False
    if path.__class__ is ast.Name:
        names, attributes = frozenset((path.id,)), ()  # the common case, without the memo
    else:
        names, attributes = index_of(facts).names_and_attributes(path)
    if any(is_metadata_name(attr) for attr in attributes):
        return True
    if names:
        loop_vars: set[str] = set()
        for loop in site.loops:
            if isinstance(loop, (ast.For, ast.AsyncFor)):
                loop_vars |= _names_in(loop.target)
        if not names & loop_vars:
            loop_vars |= _loop_counters(facts, site)
        if names & loop_vars or any(is_metadata_name(n) for n in names):
            return True
        if not names.isdisjoint(_tracker_run_names(facts)):
            return True  # `f"{wandbname}_final.pt"` with `wandb.init(name=wandbname)`: the run it came from
    if path.__class__ is not ast.Name and _config_in_name(facts, site, path):
        return True
    # A name bound in this scope to an f-string with the epoch in it (or an attribute:
    # `args.ckpt_path = ckpt_dir / f"best_{args.exp_name}.pt"`).
    if isinstance(path, ast.Attribute) and depth > 0:
        text = dotted_name(path)
        bound = index_of(facts).binding(site.scope, text, site.node.lineno) if text else None
        if bound is not None and _metadata_in_path(facts, site, bound, depth - 1):
            return True
    if isinstance(path, ast.Name):
        bound = index_of(facts).binding(site.scope, path.id, site.node.lineno)
        if bound is not None and bound is not path and _metadata_in_path(facts, site, bound, depth):
            return True
        # A parameter of a wrapper: look at what the callers pass.
        if depth > 0 and isinstance(site.scope.node, FUNC_TYPES):
            return _callers_pass_metadata(facts, site.scope, path.id, depth - 1)
    elif depth > 0:
        # `os.path.join(ckpt_dir, filename)` with `filename = "ckpt_epoch_" + str(e) + ".pth"`
        # bound just before: the names the path is built from, one level back.
        for name in names:
            if "." not in name:
                bound = index_of(facts).binding(site.scope, name, site.node.lineno)
                if bound is not None and _metadata_in_path(facts, site, bound, depth - 1):
                    return True
                # `join(save_dir, check_name)` with the callers passing f"epoch{epoch}_step{step}"
                if bound is None and isinstance(site.scope.node, FUNC_TYPES) and _callers_pass_metadata(facts, site.scope, name, depth - 1):
                    return True
    return False


TRACKER_RUN = re.compile(r"wandb|mlflow|neptune|comet|clearml|aim\b|Logger$|start_run|init_run", re.I)


def _tracker_run_names(facts: ModuleFacts) -> frozenset[str]:
    """Names handed to a tracker as its run's name (`wandb.init(name=run)`,
    `mlflow.start_run(run_name=run)`, `WandbLogger(name=run)`)."""
    found = getattr(facts, "_dllog_tracker_run_names", None)
    if found is None:
        found = frozenset(
            kw.value.id
            for site in calls_named_ending(facts, ("init", "start_run", "init_run", "Logger"), in_order=False)
            if TRACKER_RUN.search(site.name or "")
            for kw in site.node.keywords
            if kw.arg in ("name", "run_name", "experiment_name") and isinstance(kw.value, ast.Name)
        )
        facts._dllog_tracker_run_names = found  # type: ignore[attr-defined]
    return found


def _callers_pass_metadata(facts: ModuleFacts, scope: Scope, param: str, depth: int) -> bool:
    if _not_a_parameter(facts, scope, param):
        return False
    return any(
        arg is not None and _metadata_in_path(facts, call, arg, depth) for call, arg in _param_values(facts, scope, param)
    )


def _param_default(fn: ast.AST, param: str) -> ast.expr | None:
    args = fn.args.posonlyargs + fn.args.args
    defaults = fn.args.defaults
    offset = len(args) - len(defaults)
    for i, a in enumerate(args):
        if a.arg == param and i >= offset:
            return defaults[i - offset]
    return None


CONFIG_COPY = re.compile(r"conf|cfg|hparam|param|setting|\.ya?ml\b|\.json\b", re.I)


def _records_run_alongside(facts: ModuleFacts, site: CallSite) -> bool:
    """Config dumps or tracker artifact uploads in the same function (or in the caller
    that runs it, `args.out_file.write(str(vars(args)))` before `train(args)`) record the run."""
    idx = index_of(facts)
    found = idx.records_run.get(id(site.scope))
    if found is None:
        found = idx.records_run[id(site.scope)] = _scope_records_run(idx, site.scope) or any(
            caller.scope is not site.scope and any(_writes_config_text(idx, call) for call in caller.scope.calls)
            for caller in idx.callers(site.scope)
        )
    return found


def _config_dumped_in_the_same_folder(facts: ModuleFacts, site: CallSite, path: ast.expr | None) -> bool:
    """``with open(ckpt_dir + "args.pkl", "wb") as fp: pickle.dump(args, fp)`` anywhere in
    the module, and the weights saved to ``ckpt_dir + "val_best.pth"``: the whole config
    sits beside them (a dump back to the input config file does not)."""
    heads = _folder_heads(facts, site.scope, path)
    if not heads:
        return False
    for call in calls_named_ending(facts, "dump", in_order=False):
        node = call.node
        if len(node.args) < 2 or not _whole_config_object(facts, node.args[0]) or not isinstance(node.args[1], ast.Name):
            continue
        handle = node.args[1].id
        for info in facts.stmt_infos.values():
            stmt = info.stmt
            if stmt.__class__ not in (ast.With, ast.AsyncWith) or info.scope is not call.scope:
                continue
            for item in stmt.items:
                opened = item.context_expr
                if (
                    isinstance(item.optional_vars, ast.Name) and item.optional_vars.id == handle
                    and isinstance(opened, ast.Call) and dotted_name(opened.func) == "open" and opened.args
                    and heads & _folder_heads(facts, call.scope, opened.args[0])
                ):
                    return True
    return False


def _scope_records_run(idx: _Index, scope: Scope, depth: int = 1) -> bool:
    for call in scope.calls:
        name = call.name or ""
        if is_artifact_record(name) or is_record_helper(name):
            return True
        # `save_stats(run_dir, stats, {"lr": lr, ...})`: the file's own helper writes the dump
        target = call.target
        if depth > 0 and target is not None and target is not scope and call.node.args and _scope_records_run(idx, target, depth - 1):
            return True
        if name.rsplit(".", 1)[-1] in ("dump", "safe_dump", "save", "save_hyperparameters", "to_yaml") and idx.matches("config_record", name):
            return True
        # `torch.save({"hidden_dim": args.hidden_dim, ...}, info_path)` next to the weights
        if name.rsplit(".", 1)[-1] in ("save", "dump") and call.node.args and _settings_dict(idx.facts, call, call.node.args[0]):
            return True
        # `pickle.dump(config, fp)` of the whole parsed configuration
        if name.rsplit(".", 1)[-1] == "dump" and call.node.args and _whole_config_object(idx.facts, call.node.args[0]):
            return True
        if _writes_config_text(idx, call):
            return True
        # `shutil.copy(config_path, result_path / "config.json")`: the run's config kept beside it
        if name.startswith("shutil.copy") and CONFIG_COPY.search(" ".join(idx.facts.segment(a) for a in call.node.args)):
            return True
        # `f.write("Model: {} Epochs: {} Optimizer: {}".format(...))`: a hand-written run record
        if call.method == "write" and call.node.args and len({m.group(0).lower() for m in METADATA_KEY.finditer(idx.facts.segment(call.node.args[0]))}) >= 2:
            return True
    return False


def _writes_config_text(idx: _Index, call: CallSite) -> bool:
    """``out_file.write(str(vars(args)) + "\\n")`` (or of the file's own ``print_args(args)``):
    the whole configuration's text written to a record file."""
    return call.method == "write" and bool(call.node.args) and any(
        isinstance(n, ast.Call) and n.args and _whole_config_object(idx.facts, n.args[0])
        and (
            dotted_name(n.func) in ("str", "repr")
            # `f.write(json.dumps(args.__dict__, indent=4))`
            or (dotted_name(n.func) or "").rsplit(".", 1)[-1] in ("dumps", "dump", "safe_dump", "pformat", "to_yaml")
            or (isinstance(n.func, ast.Name) and n.func.id in idx.facts.functions)
        )
        for n in walk(call.node.args[0])
    )


def _whole_config_object(facts: ModuleFacts, expr: ast.expr) -> bool:
    """``config`` (or ``vars(config)``, ``config.__dict__``) where ``config`` holds a loaded configuration."""
    from .configuration import config_names  # (configuration imports this module)

    if isinstance(expr, ast.Call) and dotted_name(expr.func) == "vars" and expr.args:
        expr = expr.args[0]
    elif isinstance(expr, ast.Attribute) and expr.attr == "__dict__":
        expr = expr.value
    return isinstance(expr, ast.Name) and expr.id in config_names(facts)


def _visible_names(facts: ModuleFacts, site: CallSite) -> list[str]:
    """Names bound where the site is: loop targets, locals, parameters, module globals."""
    names: list[str] = []
    for loop in site.loops:
        if isinstance(loop, (ast.For, ast.AsyncFor)):
            names.extend(sorted(_names_in(loop.target)))
    # Loop variables outlive their loops: `epoch` is still bound after `for epoch in ...`.
    for loop in site.scope.loops:
        if isinstance(loop, (ast.For, ast.AsyncFor)) and loop.lineno < site.node.lineno and loop not in site.loops:
            names.extend(sorted(_names_in(loop.target)))
    scope: Scope | None = site.scope
    idx = index_of(facts)
    while scope is not None:
        if isinstance(scope.node, FUNC_TYPES):
            fn = scope.node
            names.extend(a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs)
        if scope is site.scope:
            line = site.node.lineno
            for name, binds in idx.assignments(scope).items():
                if "." not in name and any(s.lineno <= line for s, _ in binds):
                    names.append(name)
        else:
            names.extend(idx.plain_names(scope))
        scope = scope.parent
    seen: dict[str, None] = {}
    for n in names:
        seen.setdefault(n, None)
    return list(seen)


def _pick(names: list[str], pattern: str) -> str | None:
    rx = re.compile(pattern, re.I)
    for n in names:
        if rx.search(n):
            return n
    return None


def _metadata_names(facts: ModuleFacts, site: CallSite) -> dict:
    names = _visible_names(facts, site)
    ctx: dict = {}
    epoch = _pick(names, r"^(epoch|cur_epoch|current_epoch|ep|epoch_idx|epoch_num|e)$")
    if epoch is None:
        for loop in site.loops:
            if isinstance(loop, ast.For) and isinstance(loop.target, ast.Name) and re.search(r"epoch", facts.segment(loop.iter), re.I):
                epoch = loop.target.id
    step = _pick(names, r"^(global_step|step|iteration|iter_num|it|n_iter|num_steps|total_steps|global_iter|steps|cur_iter|update_step)$")
    optimizer = _pick(names, r"^(optimizer|optim|opt|optimiser)$") or _pick(names, r"optimi[sz]er")
    config = None
    idx = index_of(facts)
    # A name bound from parse_args()/yaml.safe_load()/OmegaConf.load() is the run's config.
    loaded_here, loaded_globally = idx.config_names(site.scope), idx.config_names(facts.module)
    if loaded_here or loaded_globally:
        config = next((n for n in names if n in loaded_here or n in loaded_globally), None)
    config = config or _pick(names, r"^(args|cfg|config|conf|hparams|hp|opts|flags|FLAGS|params|hyperparams|training_args)$")
    seed = _pick(names, r"^seed$|_seed$")
    if seed is None and config is not None and config in idx.seed_holders:
        seed = f"{config}.seed"
    for key, value in (("epoch", epoch), ("step", step), ("optimizer", optimizer), ("config", config), ("seed", seed)):
        if value:
            ctx[key] = value
    return ctx


def _tf_checkpoint_format(path: ast.expr | None) -> bool:
    """tf.keras ``model.save_weights("./weights/run1")``: a path without ``.h5`` is written
    in the TensorFlow checkpoint format, which keeps the optimizer's slots and its step
    counter, so the run resumes from it (as from a ``tf.train.Checkpoint``)."""
    if isinstance(path, ast.JoinedStr) and path.values:
        path = path.values[-1]
    if not (isinstance(path, ast.Constant) and isinstance(path.value, str)):
        return False  # a name: its extension is unknown here
    tail = path.value.rsplit("/", 1)[-1].lower()
    return not tail.endswith((".h5", ".hdf5", ".keras", ".pt", ".pth", ".bin", ".safetensors", ".ckpt", ".weights"))


def _part_of_a_reported_checkpoint(
    site: CallSite, path_text: str, reported: list[tuple[CallSite, str]], window: int
) -> bool:
    """Saves side by side (``G.state_dict()`` then ``D.state_dict()``) are one checkpoint, and
    ``if freeze: fake.save_weights(out) else: model.save_weights(out)`` writes one file: one
    finding each, as DLL200 reports them."""
    info = site.info
    if _beside_a_reported_save(info, [other.info for other, _ in reported], window):
        return True
    chain = _if_chain(info.parent)
    return chain is not None and any(
        _if_chain(other.info.parent) is chain and text == path_text for other, text in reported
    )


def _after_a_literal_run(facts: ModuleFacts, site: CallSite) -> bool:
    """``for epoch in range(5): ...`` then ``torch.save(model.state_dict(), "mnist.pt")`` in
    a script that reads no configuration: the weights of the one run the source spells
    out, saved once it is over. Nothing about the run is lost that the file does not say
    (a missing seed is DLL500's finding)."""
    if site.loops:
        return False
    literal = getattr(facts, "_dllog_literal_run", None)
    if literal is None:  # (once per file)
        literal = facts._dllog_literal_run = _literal_run(facts)  # type: ignore[attr-defined]
    return literal and not any(tl.scope is site.scope and tl.loop.lineno > site.node.lineno for tl in training_loops(facts))


def _literal_run(facts: ModuleFacts) -> bool:
    loops = training_loops(facts)
    # (`train_model(...)` of this file is judged by its own loops, not as a framework's fit)
    fits = [site for site in framework_training_calls(facts) if facts.local_target(site) is None]
    if not loops and not fits:
        # ... unless its steps are a project object's (`model.step(batch)`: no loop here is a
        # training loop): then by the count of its epoch loop, `train_model(64, 100, ...)`
        local = [site for site in framework_training_calls(facts) if facts.local_target(site) is not None]
        if not local or not all(_literal_local_fit(facts, facts.local_target(site)) for site in local):
            return False
    if not all(_literal_count_loop(facts, tl.loop) or _run_by_literal_loops(facts, tl.scope) for tl in loops):
        return False
    if not all(_literal_epochs(facts, site) for site in fits):
        return False
    from .configuration import _flags_only_parser, config_loads  # (configuration imports this module)

    # (seeded or not: an unseeded run is DLL500's finding, once, not every save's)
    # A command line of paths and switches only (`--data_path`) sets no hyperparameter.
    loads = config_loads(facts)
    return not loads or (all(load.kind == "argparse" for load in loads) and _flags_only_parser(facts))


def _literal_local_fit(facts: ModuleFacts, scope: Scope, depth: int = 2) -> bool:
    """The file's own ``train(epochs, ...)`` whose epoch loop (``for epoch in range(1,
    epochs + 1)``) counts to a number the source spells out, here or in a function it calls."""
    outer = [loop for loop in scope.loops if (info := facts.info(loop)) is not None and not info.loops]
    if outer and all(_literal_count_loop(facts, loop) for loop in outer):
        return True
    return depth > 0 and any(
        target is not scope and _literal_local_fit(facts, target, depth - 1)
        for call in scope.calls if (target := facts.local_target(call)) is not None
    )


def _literal_epochs(facts: ModuleFacts, site: CallSite) -> bool:
    """``model.fit(x, y, epochs=100)`` (or ``EPOCHS = 100`` bound once): a Keras run whose
    length the source spells out."""
    if (site.name or "").endswith(".fit"):
        return _literal_int(facts, site.kwarg("epochs"))
    # The project's `trainer.train(loader, epochs=200)` (HF's `train()` takes no epochs:
    # without one, its length is in arguments built elsewhere)
    counts = [site.kwarg(k) for k in ("epochs", "num_epochs", "n_epochs", "max_epochs") if site.kwarg(k) is not None]
    # (or passed by a name that says so: `trainer.train(data_loader, epochs)`)
    counts += [a for a in site.node.args if isinstance(a, ast.Name) and a.id.lower() in ("epochs", "num_epochs", "n_epochs", "max_epochs")]
    return bool(counts) and all(_literal_int(facts, c) for c in counts)


def _literal_int(facts: ModuleFacts, expr: ast.expr | None, scope: Scope | None = None, depth: int = 2) -> bool:
    """``5``, or ``EPOCHS`` bound once (in ``scope`` or the module) to ``5``, or a parameter
    of ``scope`` that every caller in this file fills with such a number (or leaves at such
    a default): ``def train(model, num_epochs=NUM_EPOCHS)``. ``epochs + 1`` of such numbers too."""
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub, ast.Mult)):
        return _literal_int(facts, expr.left, scope, depth) and _literal_int(facts, expr.right, scope, depth)
    if isinstance(expr, ast.Name):
        idx = index_of(facts)
        if scope is not None and not scope.is_module and depth > 0:
            if expr.id in idx.parameters(scope):
                values = _param_values(facts, scope, expr.id)
                return bool(values) and all(
                    _literal_int(facts, value, call.scope, depth - 1) for call, value in values
                )
            local = idx.bindings(scope, expr.id)
            if local:
                return len(local) == 1 and _literal_int(facts, local[0][1], None, 0)
        binds = idx.bindings(facts.module, expr.id)
        expr = binds[0][1] if len(binds) == 1 else None
    return isinstance(expr, ast.Constant) and type(expr.value) is int


def _run_by_literal_loops(facts: ModuleFacts, scope: Scope) -> bool:
    """A batch loop in ``def train(loader, ...)`` that this file calls only from literal
    count loops (``for t in range(20): train(data, model, ...)``): the count decides the run."""
    callers = index_of(facts).callers(scope)
    return bool(callers) and all(
        any(_literal_count_loop(facts, loop) for loop in call.loops) for call in callers
    )


def _literal_count_loop(facts: ModuleFacts, loop: ast.AST) -> bool:
    """``for epoch in range(5)``, ``range(EPOCHS)`` with ``EPOCHS = 5`` (tqdm around it too)."""
    if not isinstance(loop, (ast.For, ast.AsyncFor)) or not isinstance(loop.iter, ast.Call):
        return False
    it = loop.iter
    if (dotted_name(it.func) or "").rsplit(".", 1)[-1] in ("tqdm", "trange", "enumerate") and it.args and isinstance(it.args[0], ast.Call):
        it = it.args[0]
    info = facts.info(loop)
    if isinstance(it.func, ast.Attribute) and it.func.attr == "split":
        return _literal_splitter(facts, it.func.value, info.scope if info is not None else None)
    if dotted_name(it.func) != "range" or not it.args or it.keywords:
        return False
    return all(_literal_int(facts, arg, info.scope if info is not None else None, depth=3) for arg in it.args)


# scikit-learn's cross-validation splitters (`StratifiedKFold(n_splits=5)`, `GroupShuffleSplit`)
CV_SPLITTER = re.compile(r"(KFold|Split)$")


def _literal_splitter(facts: ModuleFacts, expr: ast.expr, scope: Scope | None) -> bool:
    """``skf = StratifiedKFold(n_splits=5, shuffle=True, random_state=42)`` then
    ``for fold, (tr, va) in enumerate(skf.split(X, y))``: as many folds as the source says."""
    if isinstance(expr, ast.Name):
        idx = index_of(facts)
        binds = (idx.bindings(scope, expr.id) if scope is not None else []) or idx.bindings(facts.module, expr.id)
        if len(binds) != 1:
            return False
        expr = binds[0][1]
    if not isinstance(expr, ast.Call) or not CV_SPLITTER.search((dotted_name(expr.func) or "").rsplit(".", 1)[-1]):
        return False
    return all(
        isinstance(v, ast.Constant) or _literal_int(facts, v, scope) for v in list(expr.args) + [k.value for k in expr.keywords]
    )


def _if_chain(info: StmtInfo | None) -> StmtInfo | None:
    """The first ``if`` of the if/elif/else chain a branch belongs to."""
    if info is None or not isinstance(info.stmt, ast.If):
        return None
    while info.parent is not None and isinstance(info.parent.stmt, ast.If) and info.parent.stmt.orelse == [info.stmt]:
        info = info.parent
    return info


@rule("DLL201")
def bare_weights_checkpoint(facts: ModuleFacts, config: Config) -> Iterator[Report]:
    if not facts.calls_in("save") or not is_dl_module(facts):
        return
    if not is_training_module(facts):
        return
    rich = None
    reported: list[tuple[CallSite, str]] = []
    # A helper that logs the save (fabric.save) still writes bare weights.
    for site, saved, path in _save_sites(facts, self_logging_too=True):
        method = site.method or ""
        if site.name == "torch.save" or (site.name or "").endswith(TORCH_SAVE_LIKE):
            weights_of = _state_dict_receiver(saved) or _state_dict_receiver(_bound_value(facts, site, saved))
            if weights_of is None or NON_MODEL_STATE.search(facts.segment(weights_of)):
                continue
            if _own_full_state_dict(facts, site, weights_of):
                continue  # `self.state_dict()` of a Learner whose own state_dict() holds step and optimizer
            call = site.name if site.name != "torch.save" and (site.name or "").endswith(TORCH_SAVE_LIKE) else "torch.save"
        elif method == "save_weights":
            if _tf_checkpoint_format(path):
                continue
            if _progress_set_on_the_model(facts, site):
                continue  # Darknet's `model.seen = ...`, written into the .weights header
            call = "save_weights"
        else:
            continue
        if _metadata_in_path(facts, site, path):
            continue
        if _after_a_literal_run(facts, site) or _before_any_training(facts, site):
            continue
        if _restore_point_of_this_run(facts, site, path):
            continue
        if rich is None:
            rich = _rich_checkpoint_saved(facts)
        if rich or _records_run_alongside(facts, site) or _config_dumped_in_the_same_folder(facts, site, path):
            continue
        if _copy_of_a_named_save(facts, site, saved, config.window) or _optimizer_saved_beside(facts, site, config.window):
            continue
        path_text = _text(facts, path)
        if _part_of_a_reported_checkpoint(site, path_text, reported, config.window):
            continue
        reported.append((site, path_text))
        ctx = _common_context("DLL201", site)
        ctx.update({"path": path_text, "saved": _text(facts, saved), "call": call})
        ctx.update(_metadata_names(facts, site))
        report = site_report(site, ctx)
        # Keras weights have no dict to wrap; switching to `model.save` changes the file
        # format the rest of the project expects, so that is the author's call, not a fix.
        report.fixable = call != "save_weights"
        yield report


def _progress_set_on_the_model(facts: ModuleFacts, site: CallSite) -> bool:
    """``model.seen = (epoch + 1) * len(dataset)`` just before ``model.save_weights(path)``
    (Darknet YOLO ports): the model's own writer puts that counter in the file's header, and
    resuming reads the epoch back from it."""
    receiver = site.receiver
    if not isinstance(receiver, (ast.Name, ast.Attribute)):
        return False
    owner = dotted_name(receiver)
    for info in facts.scope_stmts(site.scope):
        stmt = info.stmt
        if stmt.lineno >= site.node.lineno:
            break
        if stmt.__class__ is ast.Assign and any(
            isinstance(t, ast.Attribute) and t.attr in PROGRESS_ATTRIBUTES and dotted_name(t.value) == owner for t in stmt.targets
        ):
            return True
    return False


# How far a model has trained, as its own weights writer stores it (Darknet's images seen;
# Keras' save_weights keeps no attributes, so `model.epoch = ...` is not among these).
PROGRESS_ATTRIBUTES = frozenset({"seen"})


def _saves_beside(facts: ModuleFacts, site: CallSite, window: int) -> Iterator[tuple[CallSite, ast.expr | None, ast.expr | None]]:
    """(save, what it saves, its path) of the other saves within ``window`` statements of
    ``site`` in the same block: the files of one checkpoint."""
    info = site.info
    for other, other_saved, other_path in _save_sites(facts, self_logging_too=True):
        if other is not site and other.info.block is info.block and abs(other.info.index - info.index) <= window:
            yield other, other_saved, other_path


def _optimizer_saved_beside(facts: ModuleFacts, site: CallSite, window: int) -> bool:
    """``torch.save(self.model.state_dict(), f"{p}.ckpt")`` next to ``torch.save(
    self.opt.state_dict(), f"{p}.opt")``: the optimizer state is kept, in a file of its own."""
    for _, other_saved, _ in _saves_beside(facts, site, window):
        receiver = _state_dict_receiver(other_saved)
        if receiver is not None and OPTIMIZER_STATE.search(facts.segment(receiver)):
            return True
    return False


# The receiver of an optimizer's state_dict() (`opt`, `self.gen_opt`, `optimizer_G`).
OPTIMIZER_STATE = re.compile(r"optim|(^|[._])(\w+_)?opt(_\w+)?$", re.I)


def _copy_of_a_named_save(facts: ModuleFacts, site: CallSite, saved: ast.expr | None, window: int) -> bool:
    """``torch.save(sd, f"ckpt/epoch_{epoch}_loss_{loss:.3f}.pth")`` and, beside it,
    ``torch.save(sd, "best_model.pth")``: the same weights again under a fixed name, a copy
    of a checkpoint whose name already says its epoch."""
    if saved is None:
        return False
    text = facts.segment(saved)
    return any(
        other_saved is not None and facts.segment(other_saved) == text and _metadata_in_path(facts, other, other_path)
        for other, other_saved, other_path in _saves_beside(facts, site, window)
    )


def _before_any_training(facts: ModuleFacts, site: CallSite) -> bool:
    """``model.save_weights("init_weights.h5")`` and only then ``model.fit(...)``: the
    initial weights, before any step; there is no epoch or optimizer state to keep yet."""
    if site.loops:
        return False
    starts = [tl.loop.lineno for tl in training_loops(facts) if tl.scope is site.scope]
    starts += [c.node.lineno for c in framework_training_calls(facts) if c.scope is site.scope]
    return bool(starts) and min(starts) > site.node.lineno


def _restore_point_of_this_run(facts: ModuleFacts, site: CallSite, path: ast.expr | None) -> bool:
    """``torch.save(model.state_dict(), "best.pth")`` in the loop, then
    ``model.load_state_dict(torch.load("best.pth"))`` after it in the same function: the
    best weights kept for this run's own predictions (early stopping), not a checkpoint
    to resume or to hand on."""
    if path is None:
        return False
    text = facts.segment(path)
    after = site.node.lineno
    for load in facts.calls_in("load"):
        if load.scope is site.scope and load.node.lineno > after and not load.loops:
            load_path, _ = _load_parts(facts, load)
            if load_path is not None and facts.segment(load_path) == text:
                return True
    return False


# -- DLL210: loads -------------------------------------------------------------------

FILE_LOADS = re.compile(
    r"^torch\.load$|^torch\.jit\.load$|load_file$|load_state_dict_from_url$|load_url$|(^|\.)load_model$|"
    r"saved_model\.load$|load_checkpoint$"
)


def _is_file_load_call(facts: ModuleFacts, node: ast.AST | None) -> bool:
    if not isinstance(node, ast.Call):
        return False
    name = dotted_name(node.func, facts.aliases) or ""
    return bool(FILE_LOADS.search(name))


def _load_parts(facts: ModuleFacts, site: CallSite) -> tuple[ast.expr | None, ast.expr | None]:
    """(path expression, model expression) of a load call."""
    method = site.method or ""
    args = [a for a in site.node.args if not isinstance(a, ast.Starred)]
    path = None
    for kw in ("f", "filepath", "path", "checkpoint_path", "pretrained_model_name_or_path", "filename", "load_directory", "input_dir", "ckpt_dir", "save_path", "url", "save_directory", "checkpoint"):
        path = site.kwarg(kw)
        if path is not None:
            break
    if path is None and args:
        # (TF1 `saver.restore(sess, path)`: the session comes first)
        path = args[1] if method == "restore" and len(args) >= 2 and _is_tf_session(args[0]) else args[0]
    if method == "from_pretrained" and len(args) >= 2 and (site.name or "").lower().startswith(("peft", "peftmodel")):
        path = args[1]
    target = None
    if method in ("load_weights", "restore", "load_state"):
        target = site.receiver
    return path, target


def _checkpoint_like_load(facts: ModuleFacts, site: CallSite, path: ast.expr | None, used_by_load_state_dict: bool) -> bool:
    name = site.name or ""
    if not (name in ("torch.load",) or name.endswith("load_file")):
        return True
    if used_by_load_state_dict:
        return True
    if _reads_only_its_config(site):
        return False
    texts = [facts.segment(path) if path is not None else ""]
    target = _assigned_target(site)
    if target is not None:
        texts.append(facts.segment(target))
    return any(has_checkpoint_words(t) or CHECKPOINT_OBJECT_WORDS.search(t) for t in texts if t)


CONFIG_KEY = re.compile(r"config|cfg|args|hparams|hyper_parameters|hyperparameters|opt|options|params", re.I)


def _reads_only_its_config(site: CallSite) -> bool:
    """``config = torch.load(args.resume)["config"]``: the checkpoint is opened for the
    settings it was trained with (the weights are loaded, and judged, elsewhere)."""
    value = getattr(site.stmt, "value", None)
    if not isinstance(value, ast.Subscript) or value.value is not site.node:
        return False
    key = value.slice
    return isinstance(key, ast.Constant) and isinstance(key.value, str) and CONFIG_KEY.fullmatch(key.value) is not None


def _consumers(facts: ModuleFacts, site: CallSite, result: ast.expr | None) -> list[CallSite]:
    """``load_state_dict`` calls that take this load's result (directly or via its name)."""
    out = []
    result_name = result.id if isinstance(result, ast.Name) else None
    for other in index_of(facts).load_state_dicts.get(id(site.scope), ()):
        arg = other.arg(0, "state_dict")
        if arg is None:
            continue
        if any(n is site.node for n in walk(arg)):
            out.append(other)
        elif result_name and other.node.lineno >= site.node.lineno and result_name in _names_in(arg):
            out.append(other)
    return out


def _literal_hub_id(path: ast.expr | None) -> bool:
    return isinstance(path, ast.Constant) and isinstance(path.value, str)


def _prediction_cli(facts: ModuleFacts) -> bool:
    """A command-line prediction or conversion tool (parse args, load, predict, print): the
    user named the model on the command line and no number produced here is compared later."""
    return (
        not is_training_module(facts)
        and not facts.calls_in("metric_call")
        and (
            any(c.method in ("parse_args", "parse_known_args") for c in facts.calls)
            or "sys.argv" in facts.text
            or bool(_project_argument_parsers(facts))
        )
        and not _prints_an_evaluation_number(facts)
    )


# Words of a printed name that make the script an evaluation (`print(acc_abs_error / n)`,
# `print("mae", mae)`), not a prediction tool (which prints predictions and their scores).
EVALUATION_WORDS = frozenset({
    "acc", "accuracy", "mae", "mse", "rmse", "error", "f1", "auc", "precision", "recall", "iou",
    "miou", "dice", "psnr", "ssim", "bleu", "rouge", "wer", "cer", "loss", "perplexity", "ppl",
})


def _prints_an_evaluation_number(facts: ModuleFacts) -> bool:
    from .evaluation import name_tokens  # (evaluation imports this module)

    for site in facts.logging_calls:
        labelled = computed = False
        for arg in list(site.node.args) + [k.value for k in site.node.keywords]:
            for node in walk(arg):
                if isinstance(node, ast.Name):
                    if not name_tokens(node.id).isdisjoint(EVALUATION_WORDS):
                        return True
                    computed = True
                elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                    # `print("Accuracy of the network: %d %%" % (100 * correct / total))`
                    labelled = labelled or not EVALUATION_WORDS_IN_TEXT.isdisjoint(re.findall(r"[a-z0-9]+", node.value.lower()))
        if labelled and computed:
            return True
    return False


# (in a label, "error" is as often an error message as a metric)
EVALUATION_WORDS_IN_TEXT = EVALUATION_WORDS - {"error"}


# The project's own command-line helper: `parse.args("predict")`, `get_args()`, `parse_opts()`.
ARGUMENT_HELPER_NAME = re.compile(r"(^|_)(args|arguments|opts|options)$", re.I)


def _project_argument_parsers(facts: ModuleFacts) -> list[CallSite]:
    """Calls of a command-line helper imported from the project (it wraps argparse)."""
    return [
        site for name, sites in facts._calls_by_name.items()
        if ARGUMENT_HELPER_NAME.search(name.rsplit(".", 1)[-1])
        for site in sites if site.target is None and is_project_helper(facts, site)
    ]


# What a conversion tool does with the model it loads: export or merge it.
CONVERSION_CALL = re.compile(r"(^|\.)(onnx\.export|merge_and_unload|jit\.trace|jit\.script|convert|export|to_onnx|from_keras_model)$")


def _conversion_tool(facts: ModuleFacts) -> bool:
    """Load, convert (ONNX export, LoRA merge, TorchScript), save: no run whose numbers are
    compared later, and the output file is named where it is written."""
    return (
        not is_training_module(facts)
        and not facts.calls_in("metric_call")
        and (
            any(CONVERSION_CALL.search(name) for name in facts._calls_by_name)
            # a checkpoint loaded and written back out as safetensors: a format converter
            or (bool(facts.calls_in("load")) and "safetensors.torch.save_file" in facts._calls_by_name)
        )
    )


def _command_line_names(facts: ModuleFacts) -> set[str]:
    """Names bound to what the command line gave: ``a = parser.parse_args()``,
    ``ckpt = sys.argv[1]``."""
    out: set[str] = set(index_of(facts).parsed_argument_names)
    for site in _project_argument_parsers(facts):
        stmt = site.stmt
        if isinstance(stmt, ast.Assign) and stmt.value is site.node:
            out.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
    for info in facts.stmt_infos.values():
        stmt = info.stmt
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Subscript) and dotted_name(stmt.value.value) == "sys.argv":
            out.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
    return out


def _from_a_file_load(facts: ModuleFacts, site: CallSite, expr: ast.expr | None) -> bool:
    """``ckpt["model_state_dict"]`` where ``ckpt`` was bound to ``torch.load(...)``: the
    object a file load returned, not a path."""
    while isinstance(expr, (ast.Subscript, ast.Attribute)):
        expr = expr.value
    if not isinstance(expr, ast.Name):
        return False
    bound = index_of(facts).binding(site.scope, expr.id, site.node.lineno)
    return _is_file_load_call(facts, bound)


def _enclosing_try(site: CallSite) -> ast.stmt | None:
    """The innermost ``try`` statement around a call, in its scope."""
    info = site.info.parent
    while info is not None and info.scope is site.scope:
        if isinstance(info.stmt, TRY_TYPES):
            return info.stmt
        info = info.parent
    return None


TRY_TYPES = (ast.Try, ast.TryStar) if sys.version_info >= (3, 11) else (ast.Try,)


# Load methods every model class has from its framework: judged even on a project's class.
STANDARD_LOAD_METHODS = frozenset({"load_state_dict", "load_weights", "from_pretrained", "load_adapter"})
# Library save methods a project's class inherits (a Keras or transformers model of its own).
STANDARD_SAVE_METHODS = frozenset({"save_weights", "save_pretrained", "save", "save_model"})


def _pinned_by_its_guard(facts: ModuleFacts, site: CallSite, path: ast.expr | None) -> bool:
    """``if args.pretrain_model == "cifar10_vgg16.pt": torch.load(args.pretrain_model)``: in
    that branch the path is the literal the test compares it with."""
    if path is None:
        return False
    text = facts.segment(path)
    child, level = site.info, site.info.parent
    while level is not None:
        test = getattr(level.stmt, "test", None)
        if isinstance(level.stmt, ast.If) and isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq):
            sides = [test.left, test.comparators[0]]
            if any(facts.segment(a) == text for a in sides) and any(
                isinstance(b, ast.Constant) and isinstance(b.value, str) for b in sides
            ):
                return child.block is level.stmt.body  # (only in the `if` branch, not its `else`)
        child, level = level, level.parent
    return False


def _switched_off_load(facts: ModuleFacts, site: CallSite, path: ast.expr | None) -> bool:
    """``load_file = None  # "ckpt/epoch_2.pth"`` then ``if load_file: model.load_state_dict(
    torch.load(load_file))``: the load is switched off in the source (the name is only ever
    bound to None), so it never runs."""
    if not isinstance(path, ast.Name):
        return False
    name = path.id
    guarded = False
    level = site.info.parent
    while level is not None and not guarded:
        test = getattr(level.stmt, "test", None)
        if isinstance(level.stmt, ast.If) and test is not None:
            if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.IsNot, ast.NotEq)):
                test = test.left
            guarded = isinstance(test, ast.Name) and test.id == name
        level = level.parent
    if not guarded or name in index_of(facts).parameters(site.scope):
        return False
    nones = stores = 0  # `name = None` statements; stores of the name of any kind
    for node in walk(site.scope.node):
        if isinstance(node, ast.Global) and name in node.names:
            return False
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            if not (isinstance(node.value, ast.Constant) and node.value.value is None and len(node.targets) == 1):
                return False
            nones += 1
        elif isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load):
            stores += 1
    # bound, and only ever by `= None` (no loop, with or walrus store besides)
    return nones > 0 and stores == nones


@rule("DLL210")
def unlogged_checkpoint_load(facts: ModuleFacts, config: Config) -> Iterator[Report]:
    if not facts.calls_in("load") or not is_dl_module(facts):
        return
    idx = index_of(facts)
    reported_in_try: set[tuple] = set()
    sites = facts.calls_in("load")  # in source order
    # File loads nested in load_state_dict(...) are reported once, at the outer call.
    nested_in_consumer: set[int] = set()
    for site in sites:
        if site.method == "load_state_dict":
            arg = site.arg(0, "state_dict")
            if arg is not None:
                for n in walk(arg):
                    if isinstance(n, ast.Call) and n is not site.node:
                        nested_in_consumer.add(id(n))
    for site in sites:
        if id(site.node) in nested_in_consumer:
            continue
        if facts.local_target(site) is not None or local_method(facts, site) is not None:
            continue  # the project's own load helper: judged by the load inside it
        if is_project_helper(facts, site):
            continue
        if (site.method not in STANDARD_LOAD_METHODS or not (site.node.args or site.node.keywords)) and _method_of_project_object(facts, site):
            continue  # `runner.load_checkpoint(cp)`, `gan.load_weights()` of the project's own class: it decides
        if idx.matches("self_logging_save_load", site.name) or idx.matches("load_exclusions", site.name) or _site_is_test(facts, site):
            continue
        method = site.method or ""
        anchor_stmt = site.stmt
        result = _assigned_target(site)
        load_result = result if method == "load_state_dict" else None
        target = None
        if method == "load_state_dict":
            # Only a state dict that comes straight from a file is a checkpoint load;
            # `target.load_state_dict(source.state_dict())` copies live weights.
            arg = site.arg(0, "state_dict")
            source = arg if _is_file_load_call(facts, arg) else None
            if source is None:
                continue
            path = _load_parts(facts, CallSite(source, dotted_name(source.func, facts.aliases), site.info))[0]
            target = site.receiver
            call_name = dotted_name(source.func, facts.aliases)
        else:
            path, target = _load_parts(facts, site)
            call_name = site.name
            if _from_a_file_load(facts, site, path):
                continue  # `model.load_weights(ckpt["model"])` after `ckpt = torch.load(...)`: that load is judged
            consumers = _consumers(facts, site, result)
            if not _checkpoint_like_load(facts, site, path, bool(consumers)):
                continue
            if method == "from_pretrained" and (idx.verbose_hf or _literal_hub_id(path)):
                # transformers logs what it loads once INFO is on; a literal hub id is
                # already recorded in the source.
                continue
            if consumers:
                consumer = consumers[0]
                target = consumer.receiver
                if consumer.info.block is site.info.block and 0 < consumer.info.index - site.info.index <= config.window:
                    # Log after load_state_dict, where missing/unexpected keys are known.
                    anchor_stmt = consumer.stmt
                    load_result = _assigned_target(consumer)
            if target is None and method == "from_pretrained":
                target = result
        if from_unseen_caller(facts, site, path) or is_literal_path(facts, site, path) or stored_constructor_argument(facts, site, path):
            continue
        if _switched_off_load(facts, site, path) or _pinned_by_its_guard(facts, site, path):
            continue  # `load_file = None` ... `if load_file: torch.load(load_file)`: never runs
        if path is not None and idx.prediction_cli:
            # (`WEIGHT_PATH = setup.weights if setup.weights else "weights"`: followed back)
            names = _names_in(path) | _resolved_names(facts, site.scope, path, site.node.lineno)
            # (`src, dst = sys.argv[1:]`: an unpacked name is bound by the whole value)
            names |= {
                n for name in list(names) for stmt, v in idx.bindings(site.scope, name)
                if (bound := v if v is not None else getattr(stmt, "value", None)) is not None for n in _names_in(bound)
            }
            # (`def load_model(path)` called as `load_model(args.ckpt)`: what the callers pass)
            if not site.scope.is_module:
                names |= {
                    n for name in list(names) if name in idx.parameters(site.scope)
                    for _, v in _param_values(facts, site.scope, name) if v is not None for n in _names_in(v)
                }
            if any(CONFIG_OBJECT.match(n) for n in names) or "sys" in names or names & _command_line_names(facts):
                continue
        if idx.conversion_tool:
            continue
        if path is not None and (facts.segment(path) in idx.saved_paths or _path_signature(path) in idx.saved_path_signatures):
            continue  # reloading the checkpoint this file wrote (the best epoch, for testing)
        if (
            isinstance(path, ast.Call) and (dotted_name(path.func) or "").endswith("latest_checkpoint") and path.args
            and facts.segment(path.args[0]) in idx.saved_folders
        ):
            continue  # `restore(tf.train.latest_checkpoint(checkpoint_dir))`, the folder this file saves into
        mention = [path, result if method != "load_state_dict" else None]
        if _site_evidence(facts, config, site, mention):
            continue
        if _built_from_a_recorded_config(facts, site, path):
            continue  # `from_pretrained(cfg.base_model)` with the whole `cfg` in the run's record
        # `try: load(f) except: load(f) with "module." stripped`: one load, one finding
        retry_key = (_enclosing_try(site), _text(facts, path))
        if retry_key[0] is not None and retry_key in reported_in_try:
            continue
        reported_in_try.add(retry_key)
        ctx = _common_context("DLL210", site, anchor_stmt)
        ctx.update({
            "path": _text(facts, path),
            "target": _text(facts, target),
            "result": _text(facts, result),
            "load_result": _text(facts, load_result),  # what load_state_dict returned (missing keys)
            "call": call_name,
        })
        yield site_report(site, ctx)
