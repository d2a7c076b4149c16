"""Project configuration: ``[tool.dllog]`` in pyproject.toml or a ``.dllog.yaml``.

The nearest configuration above a checked file wins; at one directory ``.dllog.yaml``
is preferred to ``pyproject.toml``. Every face (CLI, flake8, language server) reads it
through :func:`config_for_path`.
"""
from __future__ import annotations

import fnmatch
import functools
import os
import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath
from typing import Any, Iterable

import yaml

from .catalog import SEVERITIES, Catalog, Vocabulary, load_catalog

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

BACKENDS = ("logging", "loguru", "print", "wandb", "mlflow", "tensorboard", "lightning", "accelerate")
CODE_RE = re.compile(r"^DLL\d{0,3}$")
DEFAULT_EXCLUDE = (
    ".git", ".hg", ".svn", ".venv", "venv", "env", ".env", ".tox", ".nox", "__pycache__",
    "node_modules", "build", "dist", ".eggs", "*.egg-info", ".mypy_cache", ".pytest_cache",
    ".ruff_cache", "site-packages",
)
TEST_PATH_GLOBS = ("test_*.py", "*_test.py", "tests.py", "conftest.py")
TEST_DIR_NAMES = frozenset({"tests", "test", "testing"})
_TEST_NAME_RE = re.compile("|".join(fnmatch.translate(g) for g in TEST_PATH_GLOBS))


@functools.lru_cache(maxsize=4096)
def _has_test_dir(directory: str) -> bool:
    """Does a '/'-separated directory path have a tests/test/testing component?"""
    return any(part in TEST_DIR_NAMES for part in directory.split("/"))


class ConfigError(Exception):
    """Broken or unknown configuration; the message names the file and the key."""


@dataclass(frozen=True)
class Config:
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    print_is_logging: bool = True
    window: int = 3
    backend: str | None = None
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    severity: tuple[tuple[str, str], ...] = ()
    check_tests: bool = False
    vocabulary_extra: tuple[tuple[str, tuple[str, ...]], ...] = ()
    source: str | None = None  # the file this came from, for messages
    root: str | None = None  # the directory relative globs are anchored at

    # -- derived -----------------------------------------------------------------
    @property
    def catalog(self) -> Catalog:
        return load_catalog()

    @property
    def vocabulary(self) -> Vocabulary:
        return _vocabulary(self.vocabulary_extra)

    def enabled_codes(self, path: str | None = None) -> frozenset[str]:
        return _enabled_codes(self.select, self.extend_select, self.ignore, self._file_ignores(path))

    def _file_ignores(self, path: str | None) -> tuple[str, ...]:
        if not path or not self.per_file_ignores:
            return ()
        rel = self.relative(path)
        out: list[str] = []
        for glob, codes in self.per_file_ignores:
            if fnmatch.fnmatch(rel, glob) or fnmatch.fnmatch(PurePosixPath(rel).name, glob):
                out.extend(codes)
        return tuple(out)

    def relative(self, path: str) -> str:
        p = Path(path)
        if self.root:
            try:
                return p.resolve().relative_to(Path(self.root).resolve()).as_posix()
            except (ValueError, OSError, RuntimeError):  # RuntimeError: a symlink loop
                pass
        return p.as_posix()

    def severity_for(self, code: str) -> str:
        best = ""
        chosen = None
        for prefix, level in self.severity:
            if code.startswith(prefix) and len(prefix) > len(best):
                best, chosen = prefix, level
        return chosen or load_catalog().rules[code].severity

    def is_test_path(self, path: str | None) -> bool:
        if not path or self.check_tests:
            return False
        posix = path.replace(os.sep, "/") if os.sep != "/" else path
        posix = posix.rstrip("/")
        while posix.endswith("/."):  # pathlib drops '.' components
            posix = posix[:-2].rstrip("/")
        directory, _, name = posix.rpartition("/")
        if _TEST_NAME_RE.match(os.path.normcase(name)):
            return True
        return _has_test_dir(directory)

    def is_excluded(self, path: Path) -> bool:
        name = path.name
        rel = self.relative(str(path))
        for glob in self.exclude + self.extend_exclude:
            if fnmatch.fnmatch(name, glob) or fnmatch.fnmatch(rel, glob) or fnmatch.fnmatch(rel, glob.rstrip("/") + "/*"):
                return True
        return False

    def with_overrides(self, **changes: Any) -> "Config":
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


@functools.lru_cache(maxsize=64)
def _vocabulary(extra: tuple[tuple[str, tuple[str, ...]], ...]) -> Vocabulary:
    base = load_catalog().vocabulary
    return base.extended({k: list(v) for k, v in extra})


def _matches(code: str, selector: str) -> bool:
    return code.startswith(selector)


@functools.lru_cache(maxsize=256)
def _enabled_codes(select, extend_select, ignore, file_ignores) -> frozenset[str]:
    catalog = load_catalog()

    def chosen(selectors: Iterable[str]) -> set[str]:
        # An exact code enables an off-by-default rule; a prefix enables only the
        # default-on rules under it (so `--select DLL` means "the default set").
        out = set()
        for sel in selectors:
            for code, rule in catalog.rules.items():
                if code == sel or (rule.default and _matches(code, sel)):
                    out.add(code)
        return out

    codes = set(catalog.default_codes) if select is None else chosen(select)
    codes |= chosen(extend_select)
    for sel in tuple(ignore) + tuple(file_ignores):
        codes = {c for c in codes if not _matches(c, sel)}
    return frozenset(codes)


# -- loading ------------------------------------------------------------------------

_KEYS: dict[str, str] = {
    "select": "list of rule codes or prefixes",
    "extend-select": "list of rule codes or prefixes",
    "ignore": "list of rule codes or prefixes",
    "extend-ignore": "list of rule codes or prefixes",
    "per-file-ignores": "table of glob = list of rule codes",
    "print-is-logging": "true or false",
    "window": "a whole number >= 0",
    "backend": "one of " + ", ".join(BACKENDS),
    "exclude": "list of glob patterns",
    "extend-exclude": "list of glob patterns",
    "severity": "table of code-or-prefix = error|warning|information|hint",
    "check-tests": "true or false",
    "vocabulary": "table of category = list of call patterns",
}


def _err(source: str, key: str, expected: str, got: Any = None) -> ConfigError:
    shown = "" if got is None else f", got {got!r}"
    return ConfigError(f"{source}: invalid [tool.dllog] key '{key}': expected {expected}{shown}")


def _codes(source: str, key: str, value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",") if v.strip()]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _err(source, key, _KEYS.get(key, "list of rule codes"), value)
    for v in value:
        if not CODE_RE.match(v.strip()):
            raise _err(source, key, "rule codes like DLL200 or prefixes like DLL2", v)
    return tuple(v.strip() for v in value)


def _strings(source: str, key: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _err(source, key, _KEYS[key], value)
    return tuple(value)


def parse_config(data: dict[str, Any], source: str, root: str | None = None) -> Config:
    """Validate a raw ``[tool.dllog]`` table (keys may use '-' or '_')."""
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: [tool.dllog] must be a table, got {type(data).__name__}")
    kwargs: dict[str, Any] = {"source": source, "root": root}
    known_categories = set(load_catalog().vocabulary.entries)
    for raw_key, value in data.items():
        key = str(raw_key).replace("_", "-")
        if key not in _KEYS:
            raise ConfigError(
                f"{source}: unknown [tool.dllog] key '{raw_key}' (known: {', '.join(sorted(_KEYS))})"
            )
        if key == "select":
            kwargs["select"] = _codes(source, key, value)
        elif key == "extend-select":
            kwargs["extend_select"] = _codes(source, key, value)
        elif key in ("ignore", "extend-ignore"):
            kwargs["ignore"] = kwargs.get("ignore", ()) + _codes(source, key, value)
        elif key == "per-file-ignores":
            if not isinstance(value, dict):
                raise _err(source, key, _KEYS[key], value)
            kwargs["per_file_ignores"] = tuple(
                (str(glob), _codes(source, f"{key}.{glob}", codes)) for glob, codes in value.items()
            )
        elif key in ("print-is-logging", "check-tests"):
            if not isinstance(value, bool):
                raise _err(source, key, _KEYS[key], value)
            kwargs[key.replace("-", "_")] = value
        elif key == "window":
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise _err(source, key, _KEYS[key], value)
            kwargs["window"] = value
        elif key == "backend":
            if value not in BACKENDS:
                raise _err(source, key, _KEYS[key], value)
            kwargs["backend"] = value
        elif key in ("exclude", "extend-exclude"):
            kwargs[key.replace("-", "_")] = _strings(source, key, value)
        elif key == "severity":
            if not isinstance(value, dict):
                raise _err(source, key, _KEYS[key], value)
            pairs = []
            for prefix, level in value.items():
                if not CODE_RE.match(str(prefix)) or level not in SEVERITIES:
                    raise _err(source, f"severity.{prefix}", "error|warning|information|hint for a code or prefix", level)
                pairs.append((str(prefix), str(level)))
            kwargs["severity"] = tuple(pairs)
        elif key == "vocabulary":
            if not isinstance(value, dict):
                raise _err(source, key, _KEYS[key], value)
            extra = []
            for category, patterns in value.items():
                if category not in known_categories and category != "logging":
                    raise _err(source, f"vocabulary.{category}", "a category of rules/vocabulary.yaml: " + ", ".join(sorted(known_categories | {"logging"})))
                if not isinstance(patterns, list) or not all(isinstance(p, str) and p.strip() for p in patterns):
                    raise _err(source, f"vocabulary.{category}", "list of call patterns", patterns)
                # `logging` is the friendly alias for the DL-agnostic logging category.
                extra.append(("logging_general" if category == "logging" else str(category), tuple(patterns)))
            kwargs["vocabulary_extra"] = tuple(extra)
    return Config(**kwargs)


# A repository's pyproject.toml without [tool.dllog] is passed on the way up from every file
# checked: parse it once per version of the file, not once per file checked.
_pyproject_cache: dict[tuple[str, int, int], dict | None] = {}


def _read_pyproject(path: Path) -> dict | None:
    try:
        st = path.stat()
        key = (str(path), st.st_mtime_ns, st.st_size)
    except OSError:
        key = None
    if key is not None and key in _pyproject_cache:
        return _pyproject_cache[key]
    section = _parse_pyproject(path)
    if key is not None:
        if len(_pyproject_cache) > 256:
            _pyproject_cache.clear()
        _pyproject_cache[key] = section
    return section


def _parse_pyproject(path: Path) -> dict | None:
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
    tool = data.get("tool", {})
    return tool.get("dllog") if isinstance(tool, dict) else None


def _read_yaml(path: Path) -> dict:
    try:
        with path.open("r", encoding="utf-8") as fh:
            data = yaml.safe_load(fh)
    except yaml.YAMLError as exc:
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
        raise ConfigError(f"{path}: not valid YAML: {problem}{where}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of dllog settings, got {type(data).__name__}")
    return data


def load_config_file(path: Path) -> Config:
    path = Path(path)
    if path.name == "pyproject.toml":
        data = _read_pyproject(path) or {}
    else:
        data = _read_yaml(path)
    return parse_config(data, str(path), root=str(path.parent))


def find_config_file(start: str | os.PathLike) -> Path | None:
    # The same answer for every file of a directory, found without resolving each file's
    # path (a realpath costs more than the rest of the lookup): only a symlinked file can
    # lead elsewhere than its directory does.
    raw = os.fspath(start)
    near_key = None
    if raw and not os.path.islink(raw):
        absolute = os.path.abspath(raw)
        near_key = absolute if os.path.isdir(absolute) else os.path.dirname(absolute)
        hit = _found_near.get(near_key, _UNKNOWN)
        if hit is not _UNKNOWN:
            return hit  # type: ignore[return-value]
    found = _find_config_file(Path(start))
    if near_key is not None:
        _found_near[near_key] = found
    return found


def _find_config_file(start: Path) -> Path | None:
    try:
        start = start.resolve()
    except (OSError, RuntimeError):  # RuntimeError: a symlink loop (Python < 3.13)
        start = Path(os.path.abspath(start))
    directory = start if start.is_dir() else start.parent
    # Every file of a directory has the same answer; a run over a big tree asked it once per
    # file, walking up with two stats per level. clear_caches() forgets it.
    key = str(directory)
    try:
        return _found_in[key]
    except KeyError:
        pass
    found = None
    for d in (directory, *directory.parents):
        candidate = d / ".dllog.yaml"
        if candidate.is_file():
            found = candidate
            break
        pyproject = d / "pyproject.toml"
        if pyproject.is_file() and _read_pyproject(pyproject) is not None:  # ConfigError propagates, uncached
            found = pyproject
            break
    _found_in[key] = found
    return found


_found_in: dict[str, Path | None] = {}  # resolved directory -> the config file that governs it
_found_near: dict[str, Path | None] = {}  # directory as given -> the same
_UNKNOWN = object()
_cache: dict[tuple[str, float], Config] = {}


def clear_caches() -> None:
    """Forget every configuration read so far (the files changed)."""
    _cache.clear()
    _pyproject_cache.clear()
    _found_in.clear()
    _found_near.clear()


_default_configs: dict[str, Config] = {}


def config_for_path(path: str | os.PathLike | None) -> Config:
    """The configuration that governs ``path`` (a file or a directory)."""
    found = find_config_file(path if path else os.getcwd())
    if found is None:
        # No config file: the defaults, one object per working directory (not one per
        # checked file).
        cwd = os.getcwd()
        cfg = _default_configs.get(cwd)
        if cfg is None:
            cfg = _default_configs[cwd] = Config(root=cwd)
        return cfg
    try:
        key = (str(found), found.stat().st_mtime)
    except OSError:
        key = (str(found), 0.0)
    cfg = _cache.get(key)
    if cfg is None:
        cfg = _cache[key] = load_config_file(found)
    return cfg
