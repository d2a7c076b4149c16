"""Detectors for the training rules (DLL100, DLL101, DLL102) and the shared notion of a
training loop that other families build on (entry points, DLL500/502/601).

API used by other detector modules:
    training_loops(facts) -> list[TrainingLoop]   # one per loop nest, cached on facts
    is_training_module(facts) -> bool             # a training loop or a framework fit/train call
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field

from ..facts import CallSite, ModuleFacts, Scope
from . import Report, rule  # noqa: F401


@dataclass(eq=False)
class TrainingLoop:
    loop: ast.AST  # outermost loop of the nest in its scope (the reported site)
    inner: ast.AST  # innermost loop holding the update (where per-step logging goes)
    scope: Scope
    updates: list[CallSite] = field(default_factory=list)
    backwards: list[CallSite] = field(default_factory=list)
    loss_exprs: list[ast.expr] = field(default_factory=list)


def training_loops(facts: ModuleFacts) -> list[TrainingLoop]:
    return []  # placeholder until the real analysis lands (same signature)


def is_training_module(facts: ModuleFacts) -> bool:
    return bool(training_loops(facts))
