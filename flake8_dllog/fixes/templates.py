"""Fix templates (rules/templates.yaml): text with ``{placeholders}``, never evaluated."""
from __future__ import annotations

import functools
import re
from typing import Any, Mapping

import yaml

from ..catalog import CatalogError, rules_dir

PLACEHOLDERS = (
    "logger", "loss", "loss_value", "step", "epoch", "global_step", "every", "path", "device", "seed",
    "config", "config_value", "config_dict", "metrics_format", "metrics_args", "metrics_dict",
    "metrics_dict_float", "writer", "accelerator", "torch", "wandb", "mlflow", "platform",
    "subprocess", "random", "numpy", "tensorflow", "keras", "lightning", "result", "target", "optimizer",
    "versions_format", "versions_args", "versions_print",
)
_PLACEHOLDER_RE = re.compile(r"\{(" + "|".join(PLACEHOLDERS) + r")\}")
MESSAGE_BACKENDS = ("logging", "loguru", "print")


class MissingValue(KeyError):
    """A template needs a value the finding does not provide (the fix is not offered)."""


@functools.lru_cache(maxsize=1)
def load_templates() -> dict[str, Any]:
    path = rules_dir() / "templates.yaml"
    try:
        with path.open("r", encoding="utf-8") as fh:
            data = yaml.safe_load(fh)
    except (OSError, yaml.YAMLError) as exc:
        raise CatalogError(f"{path}: cannot load fix templates: {exc}") from None
    if not isinstance(data, dict):
        raise CatalogError(f"{path}: expected a mapping of rules to templates")
    return data


def placeholders(template: str) -> set[str]:
    return set(_PLACEHOLDER_RE.findall(template))


def render(template: str, values: Mapping[str, Any]) -> str:
    """Replace the known ``{name}`` placeholders by text; other braces are left alone."""

    def sub(m: re.Match) -> str:
        value = values.get(m.group(1))
        if value is None:
            raise MissingValue(m.group(1))
        return str(value)

    return _PLACEHOLDER_RE.sub(sub, template)


def template(code: str, backend: str, shape: str) -> str | None:
    rule = load_templates().get(code) or {}
    by_backend = rule.get(backend) or {}
    text = by_backend.get(shape) if isinstance(by_backend, dict) else None
    return text if isinstance(text, str) else None


def rule_data(code: str) -> dict[str, Any]:
    data = load_templates().get(code)
    return data if isinstance(data, dict) else {}


def setting(name: str, default: Any = None) -> Any:
    return load_templates().get(name, default)
