"""Detectors for the reproducibility rules: DLL500 (unseeded entry point), DLL501 (seed
never logged), DLL502 (no determinism flags, off by default) and DLL601 (no provenance,
off by default).

An *entry point* is a module that runs training when executed: an
``if __name__ == "__main__":`` guard (or module-level code) from which a training loop or a
framework ``fit``/``train`` call is reachable through same-module functions and classes
(called, or handed over as ``mp.spawn(main_worker)`` / ``fire.Fire(main)``). A library
module that merely defines ``train()`` is not one.

Seeding evidence is generous on purpose (a false "unseeded" costs more trust than a
miss): any call, keyword, name or string mentioning a seed, and the Hugging Face
``Trainer`` (it seeds from ``TrainingArguments.seed`` by itself).
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Iterator

from ..config import Config
from ..facts import CallSite, ModuleFacts, Scope, dotted_name, elided_block, has_elision, walk
from . import Report, header_span, rule
from .configuration import (
    _NODE_FIELDS,
    _node_fields,
    config_file_kept,
    config_loads,
    config_names,
    config_aliases,
    config_recorded,
    hydra_configs,
    mentions,
    mentions_whole,
    plain_dotted,
    root_name,
    scope_params,
    stmt_targets,
)
from .saving import _BUILTIN_NAMES, SETTINGS_MODULE, from_unseen_caller, index_of, is_project_helper, project_module_of
from .training import calls_named_ending, framework_training_calls, is_training_module, timing_benchmark, training_loops

LIBRARIES = ("random", "numpy", "torch", "tensorflow")
SEED_WORD = re.compile(r"seed", re.I)
DETERMINISM_WORD = re.compile(r"determinis|CUBLAS_WORKSPACE_CONFIG|TF_DETERMINISTIC_OPS", re.I)
PROVENANCE_WORD = re.compile(
    r"__version__|git_?hash|git_?commit|git_?rev|commit_?hash|rev-parse|git describe|collect_env|"
    r"get_device_name|get_device_properties|cuda_version|version\.cuda|torch\.version|sys\.version|"
    r"nvidia-smi|pip freeze|environment_info|env_info|sysinfo|system_info",
    re.I,
)
# Libraries whose seeding helpers we know (anything else imported may log the seed).
KNOWN_SEED_MODULES = (
    "torch.", "numpy.", "random.", "tensorflow.", "keras.", "transformers.", "accelerate.",
    "jax.", "pytorch_lightning.", "lightning.", "lightning_fabric.", "paddle.", "mindspore.",
)
# Frameworks that seed by themselves from their arguments (HF Trainer: args.seed, default 42).
SELF_SEEDING = re.compile(r"^(transformers|trl|setfit)\.(\w+\.)*\w*Trainer$")
# Functions whose parameters come from the command line.
CLI_DECORATOR = re.compile(r"(^|\.)(option|argument|command|main)$")


# -- entry points ---------------------------------------------------------------------


@dataclass(eq=False)
class EntryPoint:
    kind: str  # "main_guard" | "module"
    site: ast.stmt  # the guard, or the first module-level statement that runs training

    def span(self) -> tuple[int, int, int, int]:
        if isinstance(self.site, ast.If):
            # `if __name__ == "__main__":` — the header only, never the guarded body.
            test = self.site.test
            return (self.site.lineno, self.site.col_offset, test.end_lineno or self.site.lineno, (test.end_col_offset or 0) + 1)
        if isinstance(self.site, (ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith)):
            return header_span(self.site)
        s = self.site
        return (s.lineno, s.col_offset, s.end_lineno or s.lineno, s.end_col_offset or s.col_offset)


def _referenced_functions(facts: ModuleFacts, nodes: list[ast.AST], class_name: str | None) -> set[str]:
    """Same-module functions a piece of code calls or hands over (``spawn(main_worker)``),
    and the methods of same-module classes it instantiates."""
    index = _refs_index(facts)
    names, attrs, nested = index.own_refs(nodes)
    return index.resolve(names, attrs, nested, class_name)


def _scope_references(facts: ModuleFacts, scope: Scope) -> set[str]:
    """``_referenced_functions(facts, scope.body, scope.class_name) | scope.callees``,
    once per scope."""
    index = _refs_index(facts)
    found = index.by_scope.get(id(scope))
    if found is None:
        names, attrs, nested = index.own_scope_refs(scope)
        found = index.by_scope[id(scope)] = index.resolve(names, attrs, nested, scope.class_name) | scope.callees
    return found


class _RefsIndex:
    """What each function body refers to, found by one walk per body.

    A body's references include those of the functions nested in it (with the outer
    function's class for ``self.<method>``): each body's own nodes are walked once, and a
    nested function's findings are reused by every function around it.
    """

    def __init__(self, facts: ModuleFacts):
        self.facts = facts
        methods: dict[str, list[str]] = {}
        for s in facts.scopes:
            if s.class_name:
                methods.setdefault(s.class_name, []).append(s.qualname)
        self.methods = methods
        # a name refers to a same-module function, or to a class (and so its methods)
        self.known = {name for name in facts.functions if "." not in name} | set(methods)
        self.scope_of_def = {id(s.node): s for s in facts.scopes if not s.is_module}
        self.own: dict[int, tuple[set[str], set[str], list[Scope]]] = {}
        self.by_scope: dict[int, set[str]] = {}
        self._attrs_used_by_class: dict[str | None, set[str]] | None = None
        self._used_outside: dict[str, set[str]] = {}

    def used_outside(self, class_name: str) -> set[str]:
        """Attribute names called (or passed as a call's argument) by code outside the
        methods of ``class_name``."""
        found = self._used_outside.get(class_name)
        if found is not None:
            return found
        by_class = self._attrs_used_by_class
        if by_class is None:
            by_class = self._attrs_used_by_class = {}
            for site in self.facts.calls:
                node = site.node
                used = by_class.setdefault(site.scope.class_name, set())
                if node.func.__class__ is ast.Attribute:
                    used.add(node.func.attr)
                for arg in node.args:
                    if arg.__class__ is ast.Attribute:
                        used.add(arg.attr)
                for kw in node.keywords:
                    if kw.value.__class__ is ast.Attribute:
                        used.add(kw.value.attr)
        found = self._used_outside[class_name] = set()
        for owner, used in by_class.items():
            if owner != class_name:
                found |= used
        return found

    def own_scope_refs(self, scope: Scope) -> tuple[set[str], set[str], list[Scope]]:
        found = self.own.get(id(scope))
        if found is None:
            found = self.own[id(scope)] = self.own_refs(scope.body)
        return found

    def own_refs(self, nodes: list[ast.AST]) -> tuple[set[str], set[str], list[Scope]]:
        """(names of functions/classes read, attributes read off ``self``/``cls``, the
        functions defined inside, whose bodies are left to their own walk)."""
        names: set[str] = set()
        attrs: set[str] = set()
        nested: list[Scope] = []
        known = self.known
        scope_of_def = self.scope_of_def
        name_type, attribute_type, constant_type, load_type = ast.Name, ast.Attribute, ast.Constant, ast.Load
        call_type = ast.Call
        def_types = (ast.FunctionDef, ast.AsyncFunctionDef)
        ast_type = ast.AST
        stack = list(nodes)
        pop, push = stack.pop, stack.append
        while stack:
            node = pop()
            cls = node.__class__
            if cls is name_type:
                if node.id in known and node.ctx.__class__ is load_type:
                    names.add(node.id)
                continue
            if cls is constant_type:
                continue
            if cls is attribute_type:
                value = node.value
                if value.__class__ is name_type:
                    # the name itself, read here rather than pushed
                    value_id = value.id
                    if value_id in ("self", "cls"):
                        attrs.add(node.attr)
                    if value_id in known and value.ctx.__class__ is load_type:
                        names.add(value_id)
                elif value.__class__ is not constant_type:
                    push(value)
                continue
            if cls is call_type:
                push(node.func)
                for arg in node.args:
                    if arg.__class__ is not constant_type:
                        push(arg)
                for kw in node.keywords:
                    push(kw.value)
                continue
            skip_body = False
            if cls in def_types:
                inner = scope_of_def.get(id(node))
                if inner is not None:
                    nested.append(inner)
                    skip_body = True
            for fname in _node_fields(cls):
                if skip_body and fname == "body":
                    continue
                v = getattr(node, fname, None)
                if v.__class__ is list:
                    for item in v:
                        if isinstance(item, ast_type):
                            push(item)
                elif isinstance(v, ast_type):
                    push(v)
        return names, attrs, nested

    def resolve(self, names: set[str], attrs: set[str], nested: list[Scope], class_name: str | None) -> set[str]:
        functions = self.facts.functions
        names = set(names)
        attrs = set(attrs)
        todo = list(nested)
        while todo:
            inner_names, inner_attrs, inner_nested = self.own_scope_refs(todo.pop())
            names |= inner_names
            attrs |= inner_attrs
            todo.extend(inner_nested)
        out: set[str] = set()
        for name in names:
            scope = functions.get(name)
            if scope is not None:
                out.add(scope.qualname)
            methods = self.methods.get(name)
            if methods:
                # A class made here runs its `__init__` (and other dunders); its other
                # methods only if some code outside the class calls or hands over a method
                # of that name (`t = Trainer(); t.train()`, `spawn(t.run)`): a main block
                # that only builds `Diffusion(100)` runs no training method.
                used = self.used_outside(name)
                out.update(m for m in methods if m.rpartition(".")[2].startswith("__") or m.rpartition(".")[2] in used)
        if class_name:
            for attr in attrs:
                scope = functions.get(f"{class_name}.{attr}")
                if scope is not None:
                    out.add(scope.qualname)
        return out


def _refs_index(facts: ModuleFacts) -> _RefsIndex:
    index = getattr(facts, "_dllog_refs_index", None)
    if index is None:
        index = facts._dllog_refs_index = _RefsIndex(facts)  # type: ignore[attr-defined]
    return index


# Frameworks whose `fit`/`train` we know (whether they seed, log versions...). A `.train()`
# on an object imported from elsewhere in the project may seed inside: not judged.
KNOWN_FRAMEWORKS = ("tensorflow", "keras", "pytorch_lightning", "lightning", "lightning_fabric", "transformers", "trl")


def _framework_calls(facts: ModuleFacts) -> list[CallSite]:
    if not any(m.split(".")[0] in KNOWN_FRAMEWORKS for m in facts.imported_modules) and not any(
        (name or "").startswith(KNOWN_FRAMEWORKS) for name in _call_names(facts)
    ):
        return []
    return framework_training_calls(facts)


def _training_scopes(facts: ModuleFacts) -> set[str]:
    scopes = {tl.scope.qualname for tl in training_loops(facts)}
    scopes |= {c.scope.qualname for c in _framework_calls(facts)}
    return scopes


def entry_point(facts: ModuleFacts) -> EntryPoint | None:
    """The module's training entry point, if it has one (cached on facts)."""
    if hasattr(facts, "_dllog_entry"):
        return facts._dllog_entry  # type: ignore[attr-defined]
    entry = _find_entry_point(facts)
    facts._dllog_entry = entry  # type: ignore[attr-defined]
    return entry


def _an_excerpt(facts: ModuleFacts) -> bool:
    """Notes, slides and cheat sheets: a file that imports nothing at all (``model``, ``tf``
    and the data come from code that is not there) or whose code is cut short with ``...``.
    Whether "the run" seeds or records its provenance is decided in the part that is missing.
    (A snippet's single sites, a save or a device move, are still judged.)"""
    lines = facts.lines
    # (`imported_modules` leaves out relative imports: `from . import utils`)
    if not facts.imported_modules and not any(line.lstrip().startswith(("import ", "from ")) for line in lines):
        return True
    if _fits_names_from_missing_cells(facts):
        return True
    if "..." not in facts.text:
        return False  # (the usual case: no walk)
    body = facts.tree.body
    if any(stmt.__class__ is ast.Assign and stmt.value.__class__ is ast.Constant and stmt.value.value is Ellipsis for stmt in body):
        return True  # `dataset = ...`, `model = ...` at the top: placeholders of a docs template
    return elided_block(body) or any(
        has_elision(stmt) for stmt in body if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    )


def _fits_names_from_missing_cells(facts: ModuleFacts) -> bool:
    """A notebook cell pasted into a file: its top-level ``model.fit(np.array(x_tr), ...)``
    or ``for epoch in range(num_epochs)`` reads names that nothing in the file imports or
    binds before it (``np``, ``model``, ``x_tr``, ``num_epochs`` come from cells that are
    not there, and so may the seeding)."""
    if facts.main_guard is not None:
        return False  # (a script written as one: its names are its own to define)
    fits = [site for site in framework_training_calls(facts) if site.scope.is_module]
    # (or `for epoch in range(num_epochs): for x, y in train_loader:` at the top level)
    loops = [tl.loop for tl in training_loops(facts) if tl.scope.is_module and isinstance(tl.loop, (ast.For, ast.AsyncFor))]
    if not (fits or loops) or any(stmt.__class__ is ast.ImportFrom and any(a.name == "*" for a in stmt.names) for stmt in facts.tree.body):
        return False
    idx = index_of(facts)
    defined = {stmt.name for stmt in facts.tree.body if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    reads: list[tuple[ast.AST, list[ast.expr]]] = []
    for site in fits:
        func = site.node.func
        roots = [func.value] if func.__class__ is ast.Attribute else []
        reads.append((site.node, roots + [a.func if a.__class__ is ast.Call else a for a in site.node.args]))
    for loop in loops:
        it = loop.iter
        reads.append((loop, [it.func.value] if it.__class__ is ast.Call and it.func.__class__ is ast.Attribute else [n for n in walk(it) if n.__class__ is ast.Name]))
    for node, roots in reads:
        line = node.lineno
        for root in roots:
            while root.__class__ is ast.Attribute:
                root = root.value
            if root.__class__ is not ast.Name:
                continue
            name = root.id
            if name in facts.aliases or name in defined or name in _BUILTIN_NAMES:
                continue
            if any(stmt.lineno < line for stmt, _ in idx.bindings(facts.module, name)):
                continue
            if any(name in _loop_or_with_targets(info.stmt) for info in facts.scope_stmts(facts.module) if info.stmt.lineno <= line):
                continue
            return True
    return False


def _loop_or_with_targets(stmt: ast.stmt) -> set[str]:
    if isinstance(stmt, (ast.For, ast.AsyncFor)):
        targets = [stmt.target]
    elif isinstance(stmt, (ast.With, ast.AsyncWith)):
        targets = [item.optional_vars for item in stmt.items if item.optional_vars is not None]
    else:
        return set()
    return {n.id for t in targets for n in walk(t) if isinstance(n, ast.Name)}


def _find_entry_point(facts: ModuleFacts) -> EntryPoint | None:
    if not is_training_module(facts):
        return None
    training = _training_scopes(facts)
    if not training or _an_excerpt(facts):
        return None
    top_level = [
        s for s in facts.tree.body
        if not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom))
        and not _is_dunder_all(s)
    ]
    guard = facts.main_guard
    roots: list[ast.AST] = list(top_level)
    if guard is not None:
        # CLI frameworks register commands by decorator; the guard only calls `cli()`.
        for scope in facts.scopes:
            if any(CLI_DECORATOR.search(d) for d in scope.decorators):
                roots.extend(scope.body)
    module_trains = "<module>" in training and any(
        _contains_training(facts, stmt) for stmt in top_level
    )
    if not module_trains and not _reaches(facts, roots, training):
        return None
    if guard is not None:
        return EntryPoint("main_guard", guard)
    # Module-level training without a guard: report the statement that starts it.
    reaching: set[str] | None = None
    for stmt in top_level:
        if _contains_training(facts, stmt):
            return EntryPoint("module", stmt)
        if reaching is None:
            reaching = _reaching_training(facts, training)
        if _referenced_functions(facts, [stmt], None) & reaching:
            return EntryPoint("module", stmt)
    return None


def _is_dunder_all(stmt: ast.stmt) -> bool:
    """``__all__ = [train, evaluate]`` names the module's exports; it runs none of them."""
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(stmt, (ast.AnnAssign, ast.AugAssign)) else []
    return any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets)


def _reaches(facts: ModuleFacts, roots: list[ast.AST], training: set[str]) -> bool:
    """Is one of the ``training`` functions reachable from ``roots`` through same-module
    functions? (Searched breadth-first; stops at the first one.)"""
    reachable = _referenced_functions(facts, roots, None)
    if reachable & training:
        return True
    todo = list(reachable)
    while todo:
        scope = facts.functions.get(todo.pop())
        if scope is None:
            continue
        for name in _scope_references(facts, scope):
            if name not in reachable:
                if name in training:
                    return True
                reachable.add(name)
                todo.append(name)
    return False


def _contains_training(facts: ModuleFacts, stmt: ast.stmt) -> bool:
    start, end = stmt.lineno, stmt.end_lineno or stmt.lineno
    for tl in training_loops(facts):
        if tl.scope.is_module and start <= tl.loop.lineno <= end:
            return True
    for c in _framework_calls(facts):
        if c.scope.is_module and start <= c.node.lineno <= end:
            return True
    return False


def _reaching_training(facts: ModuleFacts, training: set[str]) -> set[str]:
    """Functions from which a training scope is reachable."""
    out = set(training)
    changed = True
    while changed:
        changed = False
        for scope in facts.scopes:
            if scope.is_module or scope.qualname in out:
                continue
            if _scope_references(facts, scope) & out:
                out.add(scope.qualname)
                changed = True
    return out


def _call_names(facts: ModuleFacts) -> set[str | None]:
    """The distinct dotted names of the module's calls (a few hundred for thousands of
    calls), for questions about names alone (cached on facts)."""
    names = getattr(facts, "_dllog_call_names", None)
    if names is None:
        names = facts._dllog_call_names = {c.name for c in facts.calls}  # type: ignore[attr-defined]
    return names


def _libraries(facts: ModuleFacts) -> list[str]:
    present = {m.split(".")[0] for m in facts.imported_modules}
    if present & {"lightning", "pytorch_lightning", "lightning_fabric", "accelerate"}:
        present.add("torch")  # PyTorch wrappers: seeding and determinism are torch's
    for name in _call_names(facts):
        head = (name or "").split(".", 1)[0]
        if head in LIBRARIES:
            present.add(head)
    return [lib for lib in LIBRARIES if lib in present]


def _entry_anchor(facts: ModuleFacts, entry: EntryPoint) -> dict:
    """Where a fix that must run first in the entry point goes."""
    if entry.kind == "main_guard":
        return {"anchor": "body_start", "anchor_line": entry.site.lineno}
    last_import = None
    for stmt in facts.tree.body:
        if stmt.lineno >= entry.site.lineno:
            break
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            last_import = stmt
    if last_import is not None:
        return {"anchor": "after", "anchor_line": last_import.lineno}
    return {"anchor": "before", "anchor_line": entry.site.lineno}


# The words of the case-insensitive patterns above, lower-cased: on ASCII text, a search
# for them in the lower-cased text is the pattern's search, and many times faster.
_PATTERN_WORDS = {
    SEED_WORD: ("seed",),
    DETERMINISM_WORD: ("determinis", "cublas_workspace_config", "tf_deterministic_ops"),
}


def _text_mentions(facts: ModuleFacts, word: re.Pattern) -> bool:
    text = facts.text
    words = _PATTERN_WORDS.get(word)
    if words is not None and text.isascii():
        lowered = text.lower()
        return any(w in lowered for w in words)
    return word.search(text) is not None


def _mentions_word(facts: ModuleFacts, word: re.Pattern) -> bool:
    # Only comments can mention the word without the tree doing so: check the text first.
    if not _text_mentions(facts, word):
        return False
    # Names, attributes, keywords, definitions, parameters, strings and imports; the whole
    # tree is walked (hand-rolled: it is several times faster than a generator walk).
    search = word.search
    name_type, attribute_type, constant_type, keyword_type = ast.Name, ast.Attribute, ast.Constant, ast.keyword
    arg_type, alias_type = ast.arg, ast.alias
    definition_types = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    ast_type = ast.AST
    stack: list[ast.AST] = [facts.tree]
    pop, push = stack.pop, stack.append
    while stack:
        node = pop()
        cls = node.__class__
        if cls is name_type:
            if search(node.id):
                return True
            continue
        if cls is constant_type:
            if isinstance(node.value, str) and search(node.value):
                return True
            continue
        if cls is attribute_type:
            if search(node.attr):
                return True
            push(node.value)
            continue
        if cls is keyword_type:
            if search(node.arg or ""):
                return True
        elif cls in definition_types:
            if search(node.name):
                return True
        elif cls is arg_type:
            if search(node.arg):
                return True
        elif cls is alias_type:
            if search(node.name + " " + (node.asname or "")):
                return True
            continue
        for fname in _node_fields(cls):
            v = getattr(node, fname, None)
            if v.__class__ is list:
                for item in v:
                    if isinstance(item, ast_type):
                        push(item)
            elif isinstance(v, ast_type):
                push(v)
    return False


def _seeding_sites(facts: ModuleFacts) -> list[CallSite]:
    return [c for c in facts.calls_in("seed") if not _is_generator_seed(c)]


def _is_generator_seed(site: CallSite) -> bool:
    # `torch.Generator().manual_seed(...)` seeds one generator (a data split), not the run.
    return "Generator" in (site.name or "")


def is_seeded(facts: ModuleFacts) -> bool:
    if _seeding_sites(facts):
        return True
    # (a self-seeding trainer's name ends with "Trainer": the regex is tried on those only)
    if any(name and name.endswith("Trainer") and SELF_SEEDING.search(name) for name in _call_names(facts)):
        return True
    if _subclassed_self_seeding_trainer(facts) or _subclassed_lightning_cli(facts):
        return True
    return _mentions_word(facts, SEED_WORD)


def _subclassed_lightning_cli(facts: ModuleFacts) -> bool:
    """``class MyCLI(LightningCLI): ...`` built here: LightningCLI seeds the run itself."""
    if "LightningCLI" not in facts.text:
        return False
    classes = {
        node.name for node in facts.tree.body
        if isinstance(node, ast.ClassDef) and any((dotted_name(b, facts.aliases) or "").endswith("LightningCLI") for b in node.bases)
    }
    return bool(classes) and any(name in classes for name in _call_names(facts) if name)


def _subclassed_self_seeding_trainer(facts: ModuleFacts) -> bool:
    """``class WeightedTrainer(Trainer): def compute_loss(...)`` built and run here: still the
    Hugging Face Trainer, which seeds from ``TrainingArguments.seed``."""
    if "Trainer" not in facts.text:
        return False
    classes = {
        scope.class_name
        for scope in facts.scopes
        if scope.class_name and any(base.endswith("Trainer") and SELF_SEEDING.search(base) for base in scope.class_bases)
    }
    if classes and any(name in classes for name in _call_names(facts) if name):
        return True
    # `MyTrainer(model=model, args=training_args)` with `training_args = TrainingArguments(...)`:
    # the project's own subclass (imported), run with the Hugging Face arguments
    if "TrainingArguments" not in facts.text:
        return False
    return any(
        site.kwarg("args") is not None and is_project_helper(facts, site)
        for site in calls_named_ending(facts, "Trainer", in_order=False)
    )


def _base_context(entry: EntryPoint, facts: ModuleFacts) -> dict:
    ctx = {"entry": entry.kind, "scope": "<module>", "class_bases": []}
    ctx.update(_entry_anchor(facts, entry))
    return ctx


# -- DLL500 ---------------------------------------------------------------------------


def _star_imports_project_module(facts: ModuleFacts) -> bool:
    """``from Main.DCGAN import *``: the project module runs its top level on import, and
    may seed there (the DCGAN tutorial's ``torch.manual_seed(999)``); this file cannot tell."""
    idx = index_of(facts)
    if not idx.star_imports_project:
        return False
    # A settings module (`from parameters import *`, `from config import *`) is where a
    # project keeps its constants, and often its `torch.manual_seed(1)`.
    if any(SETTINGS_MODULE.search((node.module or "").rsplit(".", 1)[-1]) for node in idx.star_imports):
        return True
    # ... or the setup is there too: the optimizers this file steps are bound nowhere in it
    # (a file that builds its own model and optimizer is judged: `from utils import *` is
    # usually helpers).
    bound = _names_bound_in_file(facts)
    receivers = [site.receiver for site in facts.calls_in("training_update")]
    return bool(receivers) and all(isinstance(r, ast.Name) and r.id not in bound for r in receivers)


def _names_bound_in_file(facts: ModuleFacts) -> set[str]:
    names: set[str] = set()
    for node in walk(facts.tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return names


@rule("DLL500")
def unseeded_training(facts: ModuleFacts, config: Config) -> Iterator[Report]:
    entry = entry_point(facts)
    if entry is None or is_seeded(facts) or _star_imports_project_module(facts):
        return
    if _fits_only_made_up_data(facts) or _loops_only_on_made_up_data(facts):
        return  # a smoke test or API demo on `np.ones(...)`: no result to reproduce
    loops = training_loops(facts)
    if loops and all(timing_benchmark(facts, tl) for tl in loops):
        return  # a speed benchmark: what it measures is seconds, not a trained model
    ctx = _base_context(entry, facts)
    ctx.update({"seed": None, "libraries": _libraries(facts)})
    yield Report(entry.site, span=entry.span(), context=ctx)


# Arrays made up on the spot: constant or noise inputs of a smoke test or an API demo.
MADE_UP_ARRAY = re.compile(r"^(np|numpy|tf|torch)\.(random\.)?(ones|zeros|full|ones_like|zeros_like|rand|randn|randint|random|normal|uniform)$")


def _fits_only_made_up_data(facts: ModuleFacts) -> bool:
    """Every training call is a Keras-style ``model.fit(x, y)`` whose inputs are arrays made
    up in the file (``np.ones((10, 28, 28, 1))``, ``x = np.random.rand(32, 8, 8, 3)``) and no
    loop of this file trains: a smoke test of an integration or an API demo."""
    fits = [site for site in facts.calls if site.method == "fit" and site.node.args]
    if not fits or facts.calls_in("training_backward"):
        return False
    idx = index_of(facts)
    for site in fits:
        inputs = site.node.args[0]
        if isinstance(inputs, ast.Name):
            binds = idx.bindings(site.scope, inputs.id) or idx.bindings(facts.module, inputs.id)
            if len(binds) != 1:
                return False
            inputs = binds[0][1]
        if not (isinstance(inputs, ast.Call) and MADE_UP_ARRAY.match(dotted_name(inputs.func, facts.aliases) or "")):
            return False
    return True


def _loops_only_on_made_up_data(facts: ModuleFacts) -> bool:
    """Every training loop draws its inputs afresh each step (``x = torch.rand(10, 2, 24,
    24)`` in the loop), the file reads no data and saves nothing: an API walkthrough or a
    smoke test of the training step. Nothing it produces outlives the process."""
    loops = training_loops(facts)
    if not loops or facts.calls_in("save") or facts.calls_in("load"):
        return False
    if any(CLI_DECORATOR.search(d) for scope in facts.scopes for d in scope.decorators) or config_loads(facts):
        return False  # a command-line tool with options: its runs are meant to be compared
    if any(DATA_SOURCE.match(last) or OUTPUT_WRITE.match(last) for last in ((name or "").rsplit(".", 1)[-1] for name in _call_names(facts))):
        return False
    for tl in loops:
        start, end = tl.loop.lineno, tl.loop.end_lineno or tl.loop.lineno
        if not any(
            start <= c.node.lineno <= end and MADE_UP_ARRAY.match(dotted_name(c.node.func, facts.aliases) or "")
            for c in tl.scope.calls
        ):
            return False
    return True


# A call (by its last name segment) that reads a dataset or data file, or an environment.
DATA_SOURCE = re.compile(r"^(\w*DataLoader|\w*Dataset|\w*dataset|load\w*|read\w*|open|fetch\w*|download\w*|from_tensor_slices|ImageFolder|MNIST|FashionMNIST|CIFAR\d*|make|reset|get_batch\w*|next)$")


# A call that writes a result out (a figure, a table, a file): a run whose output outlives it.
OUTPUT_WRITE = re.compile(r"^(save\w*|savefig|imwrite|imsave|to_csv|to_json|to_parquet|dump\w*|write\w*|export\w*)$")


# -- DLL501 ---------------------------------------------------------------------------


DATA_WORKER_INIT = re.compile(r"worker_init|seed_worker|init_worker|worker_seed", re.I)


def _in_worker_init(scope: Scope) -> bool:
    """A DataLoader ``worker_init_fn`` (per-worker seeding), not a DDP ``main_worker``."""
    s: Scope | None = scope
    while s is not None and not s.is_module:
        if DATA_WORKER_INIT.search(s.name) or "worker_id" in scope_params(s):
            return True
        s = s.parent
    return False


def _seed_arg(site: CallSite) -> ast.expr | None:
    for kw in site.node.keywords:
        if kw.arg in ("seed", "random_seed", "s", "a"):
            return kw.value
    if site.node.args and not isinstance(site.node.args[0], ast.Starred):
        return site.node.args[0]
    return None


RANDOM_SOURCES = re.compile(
    r"(^|\.)(randint|getrandbits|randrange|random|time|time_ns|perf_counter|urandom|randbits|token_hex|uuid4)$"
)


def _assignments(facts: ModuleFacts, scope: Scope, name: str) -> list[ast.AST]:
    out = []
    for info in facts.scope_stmts(scope):
        if isinstance(info.stmt, (ast.Assign, ast.AnnAssign)) and name in stmt_targets(info.stmt):
            if info.stmt.value is not None:
                out.append(info.stmt.value)
    return out


def _first_origin(facts, parts, scope, names, depth):
    """The origin of the first part whose seed origin is known (see seed_origin)."""
    for part in parts:
        origin, carriers = seed_origin(facts, part, scope, names, depth + 1)
        if origin:
            return origin, carriers
    return None, set()


def _field_set_to_a_literal(facts: ModuleFacts, scope: Scope, field: str) -> bool:
    """``config.seed = 42``, the only assignment of that field in the scope (or, for a
    function that never sets it, in the module)."""
    idx = index_of(facts)
    binds = idx.bindings(scope, field) or (idx.bindings(facts.module, field) if not scope.is_module else [])
    if len(binds) != 1 or not (isinstance(binds[0][1], ast.Constant) and isinstance(binds[0][1].value, int)):
        return False
    # (`if args.seed is None: args.seed = 0` is a default: the command line may set another)
    info = facts.info(binds[0][0])
    if info is None:
        return False
    parent = info.parent
    while parent is not None and parent.scope is info.scope:
        if isinstance(parent.stmt, (ast.If, ast.Try, ast.For, ast.While)):
            return False
        parent = parent.parent
    return True


def _project_module_constant(facts: ModuleFacts, scope: Scope, expr: ast.Attribute) -> bool:
    """``params.seed`` with ``import params`` (a module of the project, not rebound here)."""
    if project_module_of(facts, scope, expr) is None:
        return False
    # The name is a whole module (`import params`), or `from pkg import params` next to an
    # `import params`: not a value imported from one (nor a relative import, unresolved here).
    head = expr.value.id  # type: ignore[attr-defined]
    module = facts.aliases.get(head)
    return module is not None and (
        module in facts.imported_modules or (module.rsplit(".", 1)[-1] == head and head in facts.imported_modules)
    )


def seed_origin(facts: ModuleFacts, expr: ast.AST, scope: Scope, names: set[str], depth: int = 0) -> tuple[str | None, set[str]]:
    """Where a seed value comes from: "config" (args/cfg/env/CLI), "random" (drawn at run
    time), or None (a literal, a per-worker value, or unknown). Also returns the names that
    carry it (to recognise a log of it)."""
    if depth > 4 or expr is None:
        return None, set()
    if isinstance(expr, ast.Constant):
        return None, set()
    if isinstance(expr, ast.Call):
        name = dotted_name(expr.func, facts.aliases) or ""
        if name in ("os.environ.get", "os.getenv", "environ.get", "getenv"):
            if expr.args and _names_rank_variable(expr.args[0]):
                return None, set()  # `1337 + int(os.environ.get("RANK", 0))`: a per-process offset
            return "config", set()
        if name.endswith("initial_seed") or name.endswith("get_state"):
            return None, set()  # derived from an existing seed (per-worker seeding)
        if RANDOM_SOURCES.search(name) and name.split(".")[0] in ("random", "numpy", "time", "os", "secrets", "torch", "uuid", "randint"):
            return "random", set()
        if isinstance(expr.func, ast.Attribute) and expr.func.attr == "get":
            r = root_name(expr.func.value)
            if r in names or r == "self":
                return "config", set()
        return _first_origin(facts, expr.args, scope, names, depth)
    if isinstance(expr, ast.BinOp):
        if _is_rank_offset(expr.left) or _is_rank_offset(expr.right):
            return None, set()  # `args.seed + rank`: per-worker seeding of a base seed set elsewhere
        return _first_origin(facts, (expr.left, expr.right), scope, names, depth)
    if isinstance(expr, ast.IfExp):
        return _first_origin(facts, (expr.body, expr.orelse), scope, names, depth)
    if isinstance(expr, (ast.Attribute, ast.Subscript)):
        dotted = dotted_name(expr, facts.aliases) or ""
        if dotted.startswith(("os.environ", "sys.argv")):
            if isinstance(expr, ast.Subscript) and _names_rank_variable(expr.slice):
                return None, set()  # `os.environ["RANK"]`: which process this is, not a setting
            return "config", set()
        root = root_name(expr)
        text = plain_dotted(expr)
        if root in _literal_configs(facts):
            return None, set()  # `config = {"seed": 42, ...}`: a literal seed in the source
        if isinstance(expr, ast.Attribute) and _project_module_constant(facts, scope, expr):
            return None, set()  # `import params` ... `params.seed`: written in the project's settings module
        if text and isinstance(expr, ast.Attribute) and _field_set_to_a_literal(facts, scope, text):
            return None, set()  # `config = ConfigDict(); config.seed = 42`
        if root in names or (root == "self" and _self_config(expr, names)):
            return "config", {text} if text else set()
        if root and root not in ("self",) and not isinstance(expr, ast.Subscript):
            # A local bound from a config: `train_cfg = cfg.train; seed(train_cfg.seed)`.
            for value in _assignments(facts, scope, root):
                origin, carriers = seed_origin(facts, value, scope, names, depth + 1)
                if origin == "config":
                    return origin, ({text} if text else set()) | carriers
        return None, set()
    if isinstance(expr, ast.Name):
        values = _assignments(facts, scope, expr.id)
        if not values and not scope.is_module:
            if expr.id in scope_params(scope):
                # Parameters of CLI commands (click/typer) come from the command line.
                if any(CLI_DECORATOR.search(d) for d in scope.decorators) and not any(
                    d.endswith("hydra.main") for d in scope.decorators
                ):
                    return "config", {expr.id}
                return None, set()
            values = _assignments(facts, facts.module, expr.id)
        for value in values:
            origin, carriers = seed_origin(facts, value, scope, names, depth + 1)
            if origin:
                return origin, carriers | {expr.id}
        return None, set()
    return None, set()


_ASSIGNMENTS = frozenset({ast.Assign, ast.AnnAssign})

# Environment variables that say which process of a distributed launch this is (torchrun,
# SLURM, Open MPI, MPICH): a seed offset by one is per-worker seeding of a literal seed.
RANK_VARIABLE = re.compile(r"(?:LOCAL_|NODE_|GROUP_|WORLD_)?RANK|SLURM_(?:PROCID|LOCALID|NODEID)|OMPI_COMM_WORLD_(?:LOCAL_)?RANK|PMI_RANK")


# A variable holding which worker this is: `args.seed + rank`, `seed + worker_id`.
RANK_NAME = re.compile(r"(?:local_|global_|node_|proc(?:ess)?_?)?rank|worker_(?:id|index|rank)|process_index|proc_id|local_process_index", re.I)


def _is_rank_offset(expr: ast.AST) -> bool:
    if isinstance(expr, ast.Call) and expr.args and dotted_name(expr.func) in ("int",):
        expr = expr.args[0]
    name = expr.id if isinstance(expr, ast.Name) else expr.attr if isinstance(expr, ast.Attribute) else None
    if name is None and isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute):
        name = expr.func.attr  # `dist.get_rank()`
    return bool(name) and RANK_NAME.fullmatch(name.lstrip("_").replace("get_", "", 1)) is not None


def _names_rank_variable(key: ast.AST) -> bool:
    return isinstance(key, ast.Constant) and isinstance(key.value, str) and RANK_VARIABLE.fullmatch(key.value) is not None


def _literal_configs(facts: ModuleFacts) -> set[str]:
    """Names bound somewhere in the module to a dict literal (``config = {"seed": 42}``)."""
    cached = getattr(facts, "_dllog_literal_configs", None)
    if cached is None:
        cached = set()
        for stmt in [info.stmt for info in facts.stmt_infos.values() if info.stmt.__class__ in _ASSIGNMENTS]:
            if stmt.value is not None:
                value = stmt.value
                literal = isinstance(value, ast.Dict) or (
                    isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict" and not value.args
                )
                if literal:
                    cached.update(stmt_targets(stmt))
        facts._dllog_literal_configs = cached  # type: ignore[attr-defined]
    return cached


def _self_config(expr: ast.AST, names: set[str]) -> bool:
    """``self.hparams.seed`` / ``self.args.seed`` / ``self.cfg.seed``."""
    node = expr
    chain = []
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        if isinstance(node, ast.Attribute):
            chain.append(node.attr)
        node = node.value
    chain.reverse()
    return bool(chain) and chain[0] in (names | {"hparams"})


def _self_logging_seed(facts: ModuleFacts, site: CallSite) -> bool:
    if not facts.is_category(site, "self_logging_seed"):
        return False
    verbose = site.kwarg("verbose")
    return not (isinstance(verbose, ast.Constant) and not verbose.value)


def _seed_calls(facts: ModuleFacts) -> list[tuple[CallSite, Scope | None, ast.expr | None]]:
    """Seeding calls we can judge: library seeding functions, and same-module helpers that
    seed (``set_seed(args.seed)`` defined in this file). Imported project helpers may log
    the seed themselves: not judged."""
    # A local seeding helper seeds from one of its own parameters (`def set_seed(seed)`);
    # `main()` merely reaching a seed call somewhere is not one.
    library_seeds = _seeding_sites(facts)
    if not library_seeds:
        return []
    # (the target first: most calls have none, and it is cheaper to read than the node)
    local_calls = [(c, t) for c in facts.calls if (t := c.target) is not None and isinstance(c.node.func, (ast.Name, ast.Attribute))]
    local_seeders: dict[str, str] = {}  # helper qualname -> the parameter it seeds from
    for _ in range(3):
        before = len(local_seeders)
        candidates = [(c, _seed_arg(c)) for c in library_seeds if facts.local_target(c) is None] + [
            (c, _helper_seed_arg(c, t, local_seeders[t.qualname])) for c, t in local_calls if t.qualname in local_seeders
        ]
        for site, arg in candidates:
            scope = site.scope
            if scope.is_module or scope.qualname in local_seeders:
                continue
            if isinstance(arg, ast.Name) and arg.id in scope_params(scope):
                local_seeders[scope.qualname] = arg.id
        if len(local_seeders) == before:
            break
    out: list[tuple[CallSite, Scope | None, ast.expr | None]] = []
    for site, target in local_calls:
        if target.qualname in local_seeders:
            out.append((site, target, _helper_seed_arg(site, target, local_seeders[target.qualname])))
    for site in library_seeds:
        if facts.local_target(site) is None and (site.name or "").startswith(KNOWN_SEED_MODULES):
            out.append((site, None, _seed_arg(site)))
    out.sort(key=lambda t: (t[0].node.lineno, t[0].node.col_offset))
    return out


def _helper_seed_arg(site: CallSite, helper: Scope, param: str) -> ast.expr | None:
    """The argument a call passes for a local helper's seed parameter."""
    for kw in site.node.keywords:
        if kw.arg == param:
            return kw.value
    params = scope_params(helper)
    if helper.class_name and params and params[0] in ("self", "cls"):
        params = params[1:]
    if param in params:
        index = params.index(param)
        args = site.node.args
        if index < len(args) and not any(isinstance(a, ast.Starred) for a in args[: index + 1]):
            return args[index]
    return None


@rule("DLL501")
def seed_not_logged(facts: ModuleFacts, config: Config) -> Iterator[Report]:
    seed_calls = _seed_calls(facts)
    if not seed_calls:
        return
    names = config_names(facts)
    hydra_params = {param for _, param in hydra_configs(facts)}
    if hydra_params:
        # `args = cfg` in the @hydra.main function: still Hydra's recorded config.
        hydra_params |= {a.split(".")[0] for a in config_aliases(facts, hydra_params)}
    log_exprs = [e for site in facts.logging_calls for e in list(site.node.args) + [k.value for k in site.node.keywords]]
    reported: dict[tuple[str, str], Report] = {}
    # Several RNGs are usually seeded with the same value in the same function: the copies
    # of a value and whether it is logged are worked out once.
    copies: dict[tuple[int, frozenset[str]], set[str]] = {}
    logged: dict[frozenset[str], bool] = {}
    for site, local_helper, expr in seed_calls:
        if _in_worker_init(site.scope) or _self_logging_seed(facts, site):
            continue
        if local_helper is not None and (
            facts.scope_logs(local_helper) or any(_self_logging_seed(facts, c) for c in local_helper.calls)
        ):
            continue  # the helper logs (the seed, presumably) itself, or seeds through one that does
        if expr is None:
            continue
        if _handed_in_from_elsewhere(facts, site, expr):
            continue  # `def run(model, loader, args)` run by another file's launcher, which may print its args
        origin, carriers = seed_origin(facts, expr, site.scope, names)
        if origin is None:
            continue
        if origin == "random" and _drawn_from_a_seeded_rng(facts, site, expr, seed_calls):
            continue
        text = facts.segment(expr)
        carriers = set(carriers) | ({text} if text else set())
        key = (site.scope.qualname, text)
        if key in reported:
            # Several RNGs seeded with the same value: one finding, fix after the last.
            prev = reported[key]
            if site.info.block is facts.info(prev.context["_stmt"]).block:
                prev.context["anchor_line"] = site.stmt.lineno
            continue
        copies_key = (id(site.scope), frozenset(carriers))
        if copies_key not in copies:
            copies[copies_key] = _copies_of(facts, site.scope, carriers)
        carriers |= copies[copies_key]
        logged_key = frozenset(carriers)
        if logged_key not in logged:
            logged[logged_key] = _carriers_logged(facts, carriers, log_exprs)
        if logged[logged_key]:
            continue
        root = root_name(expr) if isinstance(expr, (ast.Attribute, ast.Subscript)) else None
        roots = {c.split(".")[0].split("[")[0] for c in carriers} | ({root} if root else set())
        roots = {r for r in roots if r}
        if roots & hydra_params:
            continue  # Hydra saves the composed config (and its seed) in the run directory
        # `seed = int(config.get("seed", 42))`: the config the value was read from
        roots |= _get_receivers(facts, site.scope, expr)
        config_roots = {r for r in roots if r in names}
        if made_by_project_options_class(facts, site.scope, roots):
            continue  # `opt = config.get_options()`: the helper in another file may print it
        if _handed_to_a_project_trainer(facts, {r for r in roots if any(c.startswith((r + ".", r + "[")) for c in carriers)}):
            continue  # `Trainer(args=training_args)` from the project: it may record them
        self_roots = {c.rsplit(".", 1)[0] for c in carriers if c.startswith("self.")}
        if (config_roots or self_roots) and config_recorded(facts, config_roots | self_roots):
            continue
        if any(set(load.names) & config_roots and config_file_kept(facts, load) for load in config_loads(facts)):
            continue  # the config file (with its seed) is copied next to the run
        reported[key] = Report(
            site.node,
            context={
                "seed": text,
                "seed_origin": origin,
                "anchor": "after",
                "anchor_line": site.stmt.lineno,
                "scope": site.scope.qualname,
                "class_bases": list(site.scope.class_bases),
                "_stmt": site.stmt,
            },
        )
    for report in reported.values():
        report.context.pop("_stmt", None)
        yield report


def _handed_in_from_elsewhere(facts: ModuleFacts, site: CallSite, expr: ast.expr) -> bool:
    """``torch.manual_seed(args.seed)`` where ``args`` is a parameter that only another
    file's code fills in (through this file's own functions, perhaps): the seed is chosen,
    and may be printed, there. (Not a config this function loads from a path it is given.)"""
    root = root_name(expr) if isinstance(expr, (ast.Attribute, ast.Subscript)) else expr.id if isinstance(expr, ast.Name) else None
    idx = index_of(facts)
    if root is None or root not in idx.parameters(site.scope) or idx.bindings(site.scope, root):
        return False
    # (handed through this file's own functions: a lone uncalled `def main(args)` is an
    # excerpt of an entry point more often than a worker of another file's)
    return bool(idx.callers(site.scope)) and from_unseen_caller(facts, site, expr)


TRAINER_NAME = re.compile(r"trainer|runner|solver|engine|experiment|diffusion|agent", re.I)


def _handed_to_a_project_trainer(facts: ModuleFacts, roots: set[str]) -> bool:
    """The config holding the seed goes whole into the project's own trainer
    (``trainer = Trainer(args=training_args)`` with ``from trainer import Trainer``,
    ``DenoisingDiffusion(config).train(data)``), whose file may write it to W&B or into
    every checkpoint: this file alone cannot tell, so it is silent. (A model built from
    the config, ``UNet(args)``, records nothing.)"""
    return bool(roots) and not roots.isdisjoint(_names_handed_to_project_trainers(facts))


def _names_handed_to_project_trainers(facts: ModuleFacts) -> frozenset[str]:
    cached = getattr(facts, "_dllog_trainer_args", None)
    if cached is not None:
        return cached
    project = index_of(facts).project_imports
    found: set[str] = set()
    if project:
        for site in facts.calls:
            func = site.node.func
            head = func
            while head.__class__ is ast.Attribute:
                head = head.value
            if head.__class__ is not ast.Name:
                continue
            # `trainer_type(config)` with `trainer_type = parser.get_trainer()`: a trainer
            # class chosen at run time (neither imported nor defined here) is as unseen.
            runtime_class = head is func and head.id not in facts.aliases and head.id not in facts.functions and site.target is None
            if head.id not in project and not runtime_class:
                continue
            callee = func.attr if isinstance(func, ast.Attribute) else head.id
            if TRAINER_NAME.search(callee):
                found.update(a.id for a in list(site.node.args) + [k.value for k in site.node.keywords] if isinstance(a, ast.Name))
    cached = facts._dllog_trainer_args = frozenset(found)  # type: ignore[attr-defined]
    return cached


def made_by_project_options_class(facts: ModuleFacts, scope: Scope, roots: set[str]) -> bool:
    """Is one of these names bound to what a project's own options class parsed
    (``args = Arguments().parse_args()``, ``opt = TrainOptions().parse()``)? Such classes
    commonly print and save the options (pix2pix, SPIN); their code is not in this file.
    (A plain helper function, ``args = get_args()``, is still judged: most only wrap argparse.)"""
    project = index_of(facts).project_imports
    if not project:
        return False
    for root in roots:
        for value in _assignments(facts, scope, root) + (_assignments(facts, facts.module, root) if not scope.is_module else []):
            node = value
            while isinstance(node, (ast.Call, ast.Attribute, ast.Subscript)):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node is not value:
                    name = node.func.id
                    if name[:1].isupper() and name in project:
                        return True
                node = node.func if isinstance(node, ast.Call) else node.value
    return False


def _drawn_from_a_seeded_rng(facts: ModuleFacts, site: CallSite, expr: ast.expr, seed_calls) -> bool:
    """``np.random.seed(args.seed); torch.manual_seed(np.random.randint(1, 10000))`` (Rainbow):
    the drawn seed is a function of a seed set just before; that one is judged."""
    draws = {
        (dotted_name(n.func, facts.aliases) or "").rsplit(".", 1)[0]
        for n in walk(expr)
        if isinstance(n, ast.Call)
    }
    draws.discard("")
    for other, _, _ in seed_calls:
        if other is site or other.scope is not site.scope or other.node.lineno >= site.node.lineno:
            continue
        seeded = (other.name or "").rsplit(".", 1)[0]
        if seeded and seeded in draws:
            return True
    return False


def _get_receivers(facts: ModuleFacts, scope: Scope, expr: ast.AST) -> set[str]:
    """Root names of ``X.get(...)`` and ``X["key"]`` reads in a seed expression, or in the
    value its name was bound to (one assignment back)."""
    exprs = [expr]
    if isinstance(expr, ast.Name):
        exprs += _assignments(facts, scope, expr.id)
    found: set[str] = set()
    for e in exprs:
        for node in walk(e):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
                r = root_name(node.func.value)
                if r:
                    found.add(r)
            elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
                r = root_name(node.value)  # `seed = params["seed"]`
                if r:
                    found.add(r)
    return found


def _copies_of(facts: ModuleFacts, scope: Scope, carriers: set[str]) -> set[str]:
    """Local names holding the same value: ``seed = int(args.seed)`` next to
    ``np.random.seed(int(args.seed))`` — logging ``seed`` logs the seed."""
    out: set[str] = set()
    dotted = {c for c in carriers if "[" not in c}
    for info in facts.scope_stmts(scope):
        if not isinstance(info.stmt, (ast.Assign, ast.AnnAssign)) or info.stmt.value is None:
            continue
        if mentions_whole([info.stmt.value], dotted) or (facts.segment(info.stmt.value) in carriers):
            targets = stmt_targets(info.stmt)
            out.update(targets)
            # `run_dir = "logs/seed_" + str(args.seed); log_dir = run_dir + "/tb"`: copies of copies
            dotted.update(targets)
    return out


# Tracker writers whose log directory or run name is part of the record of a run.
RUN_WRITERS = ("SummaryWriter", "create_file_writer", "FileWriter", "TensorBoardLogger", "CSVLogger", "WandbLogger")


def _carriers_logged(facts: ModuleFacts, carriers: set[str], log_exprs: list[ast.AST]) -> bool:
    if not carriers:
        return False
    dotted = {c for c in carriers if "[" not in c}
    whole, fields = mentions(log_exprs, dotted)
    if whole:
        return True
    # `config["seed"]` or `int(os.environ.get("SEED", "0"))` carriers: compare source text.
    texts = {c for c in carriers if "[" in c or "(" in c}
    if texts:
        for e in log_exprs:
            for node in walk(e):
                if isinstance(node, (ast.Subscript, ast.Call, ast.BinOp)) and facts.segment(node) in texts:
                    return True
    # `wandb.init(config={"seed": args.seed})`, `torch.save({"seed": args.seed, ...}, path)`,
    # `SummaryWriter(log_dir=f"runs/seed{args.seed}")`: a run directory named by the seed.
    writers = calls_named_ending(facts, RUN_WRITERS, in_order=False)
    for site in facts.calls_in("config_record") + facts.calls_in("save") + writers:
        exprs = list(site.node.args) + [k.value for k in site.node.keywords]
        w, f = mentions(exprs, dotted)
        if w or f:
            return True
    return False


def _built_from_config(facts: ModuleFacts) -> bool:
    """Trainer and loggers built from a config we cannot see (``hydra.utils.instantiate``,
    ``Trainer(**cfg.trainer)``, ``Trainer.from_argparse_args(args)``): they may set
    ``deterministic=True`` or attach a W&B logger; the file alone cannot tell."""
    trainers = set()
    for name in _call_names(facts):
        last = (name or "").rsplit(".", 1)[-1]
        if last in ("instantiate", "from_argparse_args", "from_config", "from_cfg"):
            return True
        if last.endswith("Trainer"):
            trainers.add(name)
    # (only the calls named like a trainer need their keywords read)
    return bool(trainers) and any(
        site.name in trainers and any(kw.arg is None for kw in site.node.keywords) for site in facts.calls
    )


# -- DLL502 ---------------------------------------------------------------------------


def _determinism_set(facts: ModuleFacts) -> bool:
    if facts.calls_in("determinism"):
        return True
    matcher = facts.vocabulary.matcher("determinism")
    for info in facts.stmt_infos.values():
        stmt = info.stmt
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(stmt, (ast.AnnAssign, ast.AugAssign)) else []
        for t in targets:
            name = dotted_name(t, facts.aliases) or ""
            if matcher.match(name) or name.endswith("cudnn.benchmark") or name.endswith("cudnn.deterministic"):
                return True
    return _mentions_word(facts, DETERMINISM_WORD)


@rule("DLL502")
def nondeterministic_training(facts: ModuleFacts, config: Config) -> Iterator[Report]:
    entry = entry_point(facts)
    if entry is None or not is_seeded(facts):
        return
    libraries = [lib for lib in _libraries(facts) if lib in ("torch", "tensorflow")]
    if not libraries or _determinism_set(facts) or _built_from_config(facts):
        return
    seeds = _seeding_sites(facts)
    if not seeds or any(not (s.name or "").startswith(KNOWN_SEED_MODULES) and facts.local_target(s) is None for s in seeds):
        return  # seeded by an imported project helper (or we only saw the word): it may set the flags too
    seed = next((s for s in seeds if facts.local_target(s) is None), None)
    if seed is not None:
        yield Report(
            seed.node,
            context={
                "anchor": "after",
                "anchor_line": seed.stmt.lineno,
                "scope": seed.scope.qualname,
                "class_bases": list(seed.scope.class_bases),
                "libraries": libraries,
                "entry": entry.kind,
            },
        )
        return
    ctx = _base_context(entry, facts)
    ctx["libraries"] = libraries
    yield Report(entry.site, span=entry.span(), context=ctx)


# -- DLL601 ---------------------------------------------------------------------------


def _provenance_recorded(facts: ModuleFacts) -> bool:
    if facts.calls_in("provenance"):
        return True
    # Every attribute chain (import aliases resolved), string and name in the tree
    # (hand-rolled walk: several times faster than a generator walk). The same names come
    # back again and again: each text is searched once.
    search = PROVENANCE_WORD.search
    searched: set[str] = set()  # texts without the word
    aliases = facts.aliases
    name_type, attribute_type, constant_type, call_type = ast.Name, ast.Attribute, ast.Constant, ast.Call
    ast_type = ast.AST
    node_fields = _NODE_FIELDS
    stack: list[ast.AST] = [facts.tree]
    pop, push = stack.pop, stack.append
    while stack:
        node = pop()
        cls = node.__class__
        if cls is name_type:
            text = node.id
        elif cls is constant_type:
            text = node.value
            if not isinstance(text, str):
                continue
        elif cls is attribute_type:
            # The whole chain `a.b.c` at once: the text of each inner attribute (`a.b`) is a
            # prefix of the outer one's, so the outer text alone tells (the pattern has no
            # anchors); the name it hangs off is checked as written.
            head = node.value
            while head.__class__ is attribute_type:
                head = head.value
            if head.__class__ is name_type:
                if head.id not in searched:
                    if search(head.id):
                        return True
                    searched.add(head.id)
            else:
                push(head)
            text = dotted_name(node, aliases)
        elif cls is call_type:
            push(node.func)
            for arg in node.args:
                push(arg)
            for kw in node.keywords:
                push(kw.value)
            continue
        else:
            fields = node_fields.get(cls)
            if fields is None:
                fields = _node_fields(cls)
            for fname in fields:
                v = getattr(node, fname, None)
                if v.__class__ is list:
                    for item in v:
                        if isinstance(item, ast_type):
                            push(item)
                elif isinstance(v, ast_type):
                    push(v)
            continue
        if text not in searched:
            if search(text):
                return True
            searched.add(text)
    return False


@rule("DLL601")
def no_run_provenance(facts: ModuleFacts, config: Config) -> Iterator[Report]:
    entry = entry_point(facts)
    if entry is None or _provenance_recorded(facts) or _built_from_config(facts):
        return
    ctx = _base_context(entry, facts)
    ctx["libraries"] = _libraries(facts)
    yield Report(entry.site, span=entry.span(), context=ctx)
