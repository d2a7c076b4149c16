"""Client settings → engine configuration.

An editor sends dllog's settings under the section ``"dllog"`` (VS Code: ``dllog.*`` in
``settings.json``). They arrive three ways, all accepted here:

* ``initializationOptions`` of ``initialize`` — either the settings object itself,
  ``{"settings": {...}}`` or ``{"dllog": {...}}``;
* ``workspace/didChangeConfiguration`` — ``params.settings`` shaped the same way
  (``{"dllog": {...}}`` is what vscode-languageclient sends); when it carries nothing the
  server asks for the ``dllog`` section with ``workspace/configuration`` (per workspace
  folder) if the client supports that request;
* ``workspace/configuration`` answers for section ``dllog``.

Mapping (client key → effect). Keys may be nested objects or dotted names
(``"codeAction.fixViolation.enable": false`` and
``{"codeAction": {"fixViolation": {"enable": false}}}`` mean the same):

==================================  ============================================================
client key                          effect on the document's project configuration
==================================  ============================================================
``select`` (list of codes/prefixes)  replaces ``[tool.dllog] select`` (an empty list = not set)
``extendSelect`` (list)              appended to ``extend-select`` (enables off-by-default rules)
``ignore`` (list)                    appended to ``ignore``
``backend`` (str or null)            replaces ``backend`` (the preferred fix backend; ``"auto"``
                                     or empty = decide per file)
``severity`` ({code-or-prefix:       overlays ``severity``; the client's entry wins for the same
error|warning|information|hint})     prefix, the longest matching prefix wins overall (``warn``
                                     and ``info`` are accepted, in any case)
``run`` (``onType`` | ``onSave``)    when to lint: on every (debounced) change, or only on
                                     open/save (default ``onType``)
``codeAction.fixViolation.enable``   offer "dllog (DLLnnn): ..." quick fixes (default true)
``codeAction.disableRuleComment.enable``  offer "Disable DLLnnn for this line" (default true)
``debounce`` (milliseconds)          delay after the last change before linting (default 250)
``enable`` (bool)                    false: publish no diagnostics at all (default true)
==================================  ============================================================

Project files (``pyproject.toml`` ``[tool.dllog]`` / ``.dllog.yaml``, nearest to the document)
stay the base; client settings are applied on top of them ("editor first" for the keys the
client sets, project values everywhere else). Values are validated with the engine's own
:func:`flake8_dllog.config.parse_config`, so an invalid client value is reported in the same
one-line form (``client settings: invalid [tool.dllog] key 'select': ...``) and that key is
ignored; unknown client keys are reported once and ignored.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from flake8_dllog.config import Config, ConfigError, parse_config

SECTION = "dllog"
RUN_MODES = ("onType", "onSave")
DEFAULT_DEBOUNCE_MS = 250

# client key (normalised, dotted) → engine key for parse_config
_ENGINE_KEYS = {
    "select": "select",
    "ignore": "ignore",
    "extendSelect": "extend-select",
    "backend": "backend",
    "severity": "severity",
}
_KNOWN = set(_ENGINE_KEYS) | {
    "run",
    "debounce",
    "enable",
    "codeAction.fixViolation.enable",
    "codeAction.disableRuleComment.enable",
    # accepted and ignored: belong to the editor extension, not the server
    "path",
    "interpreter",
    "importStrategy",
    "trace.server",
    "showNotifications",
    "interpreter",
    "args",
}
_LEVELS = {
    "error": "error",
    "warning": "warning",
    "warn": "warning",
    "information": "information",
    "info": "information",
    "hint": "hint",
}
_ALIASES = {
    "extend_select": "extendSelect",
    "extend-select": "extendSelect",
}


@dataclass(frozen=True)
class ClientSettings:
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    backend: str | None = None
    severity: tuple[tuple[str, str], ...] = ()
    run: str = "onType"
    debounce_ms: int = DEFAULT_DEBOUNCE_MS
    enable: bool = True
    fix_violation: bool = True
    disable_rule_comment: bool = True
    problems: tuple[str, ...] = field(default=(), compare=False)  # one line each, for the log

    def apply(self, project: Config) -> Config:
        """The project configuration with these client settings on top."""
        changes: dict[str, Any] = {}
        if self.select is not None:
            changes["select"] = self.select
        if self.extend_select:
            changes["extend_select"] = tuple(project.extend_select) + self.extend_select
        if self.ignore:
            changes["ignore"] = tuple(project.ignore) + self.ignore
        if self.backend:
            changes["backend"] = self.backend
        if self.severity:
            # Config.severity_for keeps the first entry among equally long prefixes.
            changes["severity"] = self.severity + tuple(project.severity)
        return replace(project, **changes) if changes else project


def unwrap(raw: Any) -> Any:
    """Find the dllog settings object in what a client sent."""
    if not isinstance(raw, dict):
        return raw
    if isinstance(raw.get(SECTION), dict):
        return raw[SECTION]
    settings = raw.get("settings")
    if isinstance(settings, dict):
        return settings[SECTION] if isinstance(settings.get(SECTION), dict) else settings
    return raw


def _flatten(raw: dict, prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in raw.items():
        name = f"{prefix}{key}"
        name = _ALIASES.get(name, name)
        # `severity` is a table of codes, not a namespace to flatten.
        if isinstance(value, dict) and name not in ("severity",):
            out.update(_flatten(value, name + "."))
        else:
            out[name] = value
    return out


def parse_settings(raw: Any) -> ClientSettings:
    """Client settings (any accepted shape) → :class:`ClientSettings`. Never raises."""
    raw = unwrap(raw)
    if raw is None:
        return ClientSettings()
    problems: list[str] = []
    if not isinstance(raw, dict):
        return ClientSettings(problems=(f"client settings: expected an object for '{SECTION}', got {type(raw).__name__}",))
    flat = _flatten(raw)
    kwargs: dict[str, Any] = {}
    engine: dict[str, Any] = {}
    for key, value in flat.items():
        if key in _ENGINE_KEYS:
            # "not set" spellings, as the VS Code extension's settings defaults send them:
            # an empty list (also for `select`: use enable=false to turn dllog off), backend
            # "auto" or "", an empty severity table.
            if value is None or value == [] or value == {} or (key == "backend" and value in ("", "auto")):
                continue
            if key == "severity" and isinstance(value, dict):
                value = {k: _LEVELS.get(str(v).strip().lower(), v) if isinstance(v, str) else v for k, v in value.items()}
            if key in ("select", "ignore", "extendSelect") and isinstance(value, list):
                value = [v.strip().upper() if isinstance(v, str) else v for v in value]
            engine[key] = value
        elif key == "run":
            if value in RUN_MODES:
                kwargs["run"] = value
            elif value is not None:
                problems.append(f"client settings: invalid key 'run': expected onType or onSave, got {value!r}")
        elif key == "debounce":
            if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 60_000:
                kwargs["debounce_ms"] = int(value)
            elif value is not None:
                problems.append(f"client settings: invalid key 'debounce': expected milliseconds 0..60000, got {value!r}")
        elif key in ("enable", "codeAction.fixViolation.enable", "codeAction.disableRuleComment.enable"):
            if isinstance(value, bool):
                name = {
                    "enable": "enable",
                    "codeAction.fixViolation.enable": "fix_violation",
                    "codeAction.disableRuleComment.enable": "disable_rule_comment",
                }[key]
                kwargs[name] = value
            elif value is not None:
                problems.append(f"client settings: invalid key '{key}': expected true or false, got {value!r}")
        elif key not in _KNOWN and not key.startswith(("trace.", "lint.")):
            problems.append(f"client settings: unknown key '{key}' ignored")
    # Validate engine keys one at a time so one bad value does not discard the others.
    for key, value in engine.items():
        try:
            cfg = parse_config({_ENGINE_KEYS[key]: value}, "client settings")
        except ConfigError as exc:
            problems.append(str(exc))
            continue
        except Exception as exc:  # pragma: no cover - defensive
            problems.append(f"client settings: invalid key '{key}': {exc}")
            continue
        if key == "select":
            kwargs["select"] = cfg.select
        elif key == "extendSelect":
            kwargs["extend_select"] = cfg.extend_select
        elif key == "ignore":
            kwargs["ignore"] = cfg.ignore
        elif key == "backend":
            kwargs["backend"] = cfg.backend
        elif key == "severity":
            kwargs["severity"] = cfg.severity
    return ClientSettings(problems=tuple(problems), **kwargs)
