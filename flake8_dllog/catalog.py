"""The rule catalog and vocabularies, loaded from the YAML data under ``rules/``.

The data directory is ``rules/`` beside the package in a checkout (editable install) and
``flake8_dllog/_rules`` inside an installed wheel; both are looked up the same way.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

import yaml

_PACKAGE_DIR = Path(__file__).resolve().parent

RULE_FIELDS = ("code", "name", "phase", "default", "severity", "message", "docs", "examples")
DOC_FIELDS = ("what", "why", "example", "use_instead")
SEVERITIES = ("error", "warning", "information", "hint")


class CatalogError(Exception):
    """The bundled catalog is broken (a packaging bug, not a user error)."""


def rules_dir() -> Path:
    """Where the YAML catalog lives, in a wheel or in a checkout."""
    for candidate in (_PACKAGE_DIR / "_rules", _PACKAGE_DIR.parent / "rules"):
        if (candidate / "vocabulary.yaml").is_file():
            return candidate
    raise CatalogError(f"dllog rule catalog not found next to {_PACKAGE_DIR}")


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    phase: str
    default: bool
    severity: str
    message: str
    what: str
    why: str
    example: str
    use_instead: str
    flagged: tuple[str, ...]
    not_flagged: tuple[str, ...]
    fixable: bool = True

    @property
    def docs_markdown(self) -> str:
        return (
            f"# {self.code} {self.name}\n\n"
            f"Phase: {self.phase}. Default: {'on' if self.default else 'off'}.\n\n"
            f"## What it does\n\n{self.what.strip()}\n\n"
            f"## Why is this bad?\n\n{self.why.strip()}\n\n"
            f"## Example\n\n```python\n{self.example.rstrip()}\n```\n\n"
            f"## Use instead\n\n```python\n{self.use_instead.rstrip()}\n```\n"
        )

    @property
    def docs_url(self) -> str:
        return f"https://github.com/dllog/dllog/blob/main/docs/rules/{self.code}.md"


def _segment_regex(segment: str) -> str:
    return "".join("[^.]*" if ch == "*" else re.escape(ch) for ch in segment)


def pattern_to_regex(pattern: str) -> str:
    """Turn one dotted glob into a regex body (see vocabulary.yaml for the syntax)."""
    pattern = pattern.strip()
    prefix = ""
    if pattern.startswith("**."):
        prefix = r"(?:[^.]*\.)*"
        pattern = pattern[3:]
    body = r"\.".join(_segment_regex(seg) for seg in pattern.split("."))
    return prefix + body


def last_segment(pattern: str) -> str:
    return pattern.rsplit(".", 1)[-1]


class Matcher:
    """Matches dotted call names against a list of patterns, fast.

    Patterns whose last segment is a plain word are bucketed by that word, so a call
    is only tested against the few patterns that could match it.
    """

    def __init__(self, patterns: Iterable[str]):
        self.patterns = tuple(dict.fromkeys(p.strip() for p in patterns if p and p.strip()))
        by_last: dict[str, list[str]] = {}
        wild: list[str] = []
        wild_last_only: list[str] = []  # wild last segment, any head (`**.*accuracy*`)
        heads: set[str] = set()  # `neptune.*`: a literal head module, any tail
        for pat in self.patterns:
            last = last_segment(pat).lower()
            if "*" in last:
                wild.append(pat)
                head = pat.split(".", 1)[0]
                if not pat.startswith("**.") and "*" not in head:
                    heads.add(head.lower())
                else:
                    wild_last_only.append(pat)
            else:
                by_last.setdefault(last, []).append(pat)
        self.heads = frozenset(heads)
        self._matched: dict[str | None, bool] = {}  # dotted name -> match()
        self._by_last = {
            key: re.compile("|".join(f"(?:{pattern_to_regex(p)})" for p in pats) + r"\Z", re.I)
            for key, pats in by_last.items()
        }
        self._wild_last = (
            re.compile("|".join(f"(?:{_segment_regex(last_segment(p))})" for p in wild_last_only) + r"\Z", re.I)
            if wild_last_only
            else None
        )
        self._wild = (
            re.compile("|".join(f"(?:{pattern_to_regex(p)})" for p in wild) + r"\Z", re.I)
            if wild
            else None
        )

    @property
    def literal_lasts(self) -> Iterable[str]:
        """The plain (wildcard-free) last segments of the patterns, lower-case."""
        return self._by_last.keys()

    @property
    def has_wild_last(self) -> bool:
        """Is there a pattern with a wildcard last segment and no literal head module?"""
        return self._wild_last is not None

    def may_match_wild_last(self, last: str) -> bool:
        """Could ``last`` (lower-case) match one of those patterns' last segments?"""
        return self._wild_last is not None and self._wild_last.match(last) is not None

    def __bool__(self) -> bool:
        return bool(self.patterns)

    def match(self, dotted: str | None) -> bool:
        # The answer depends on the name and the patterns only, and the same call names
        # recur in every file: each is tested once (the dict stays bounded for a
        # long-lived language server).
        found = self._matched.get(dotted)
        if found is None:
            if len(self._matched) > 100_000:
                self._matched.clear()
            found = self._matched[dotted] = self._match(dotted)
        return found

    def _match(self, dotted: str | None) -> bool:
        if not dotted:
            return False
        last = dotted.rsplit(".", 1)[-1].lower()
        rx = self._by_last.get(last)
        if rx is not None and rx.match(dotted):
            return True
        return bool(self._wild is not None and self._wild.match(dotted))

    def last_segment_regex(self) -> str:
        """A regex for the words a matching call must contain (for line pre-filtering)."""
        words = {re.escape(k) for k in self._by_last}
        words |= {_segment_regex(last_segment(p)).replace("[^.]*", r"\w*") for p in self.patterns if "*" in last_segment(p)}
        return "|".join(sorted(words))


@dataclass
class Vocabulary:
    entries: dict[str, tuple[str, ...]]
    _matchers: dict[str, Matcher] = field(default_factory=dict, repr=False)
    _last_categories: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False)
    _name_categories: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False)

    def matcher(self, category: str) -> Matcher:
        m = self._matchers.get(category)
        if m is None:
            m = self._matchers[category] = Matcher(self.entries.get(category, ()))
        return m

    def categories_for_last(self, last: str) -> tuple[str, ...]:
        """The categories a call whose last name segment is ``last`` (lower-case) may
        match, other than through a literal head module (``Matcher.heads``). Cached across
        files: the same method names recur everywhere, and one lookup per distinct name of
        a file replaces one test per name and category."""
        cache = self._last_categories
        hit = cache.get(last)
        if hit is None:
            if len(cache) > 200_000:  # a long-lived language server: stay bounded
                cache.clear()
            literal, wild = self._last_index
            hit = literal.get(last, ())
            extra = tuple(c for c, m in wild if c not in hit and m.may_match_wild_last(last))
            if extra:
                hit += extra
            cache[last] = hit
        return hit

    @functools.cached_property
    def _last_index(self) -> tuple[dict[str, tuple[str, ...]], tuple[tuple[str, Matcher], ...]]:
        """(plain last segment -> the categories with a pattern ending in it, the
        categories with a wildcard last segment and their matchers)."""
        literal: dict[str, list[str]] = {}
        wild: list[tuple[str, Matcher]] = []
        for category in self.entries:
            matcher = self.matcher(category)
            for key in matcher.literal_lasts:
                literal.setdefault(key, []).append(category)
            if matcher.has_wild_last:
                wild.append((category, matcher))
        return {key: tuple(cats) for key, cats in literal.items()}, tuple(wild)

    def categories_for_name(self, name: str) -> tuple[str, ...]:
        """categories_for_last() of a dotted call name's last segment, cached per name
        (the same call names recur from file to file)."""
        cache = self._name_categories
        hit = cache.get(name)
        if hit is None:
            if len(cache) > 200_000:
                cache.clear()
            hit = cache[name] = self.categories_for_last(name.rsplit(".", 1)[-1].lower())
        return hit

    def extended(self, extra: dict[str, list[str]]) -> "Vocabulary":
        if not extra:
            return self
        merged = dict(self.entries)
        for category, patterns in extra.items():
            merged[category] = tuple(merged.get(category, ())) + tuple(patterns)
        return Vocabulary(merged)


@dataclass(frozen=True)
class Catalog:
    rules: dict[str, Rule]
    vocabulary: Vocabulary

    def rule(self, code: str) -> Rule:
        return self.rules[code]

    @property
    def default_codes(self) -> frozenset[str]:
        return frozenset(code for code, rule in self.rules.items() if rule.default)


def _load_yaml(path: Path):
    with path.open("r", encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def _parse_rule(path: Path, data: dict) -> Rule:
    if not isinstance(data, dict):
        raise CatalogError(f"{path}: expected a mapping")
    missing = [k for k in RULE_FIELDS if k not in data]
    if missing:
        raise CatalogError(f"{path}: missing {', '.join(missing)}")
    docs = data["docs"] or {}
    examples = data["examples"] or {}
    for key in DOC_FIELDS:
        if not isinstance(docs.get(key), str) or not docs[key].strip():
            raise CatalogError(f"{path}: docs.{key} must be non-empty text")
    if data["severity"] not in SEVERITIES:
        raise CatalogError(f"{path}: severity must be one of {SEVERITIES}")
    return Rule(
        code=str(data["code"]),
        name=str(data["name"]),
        phase=str(data["phase"]),
        default=bool(data["default"]),
        severity=str(data["severity"]),
        message=str(data["message"]),
        what=docs["what"],
        why=docs["why"],
        example=docs["example"],
        use_instead=docs["use_instead"],
        flagged=tuple(examples.get("flagged") or ()),
        not_flagged=tuple(examples.get("not_flagged") or ()),
        fixable=bool(data.get("fixable", True)),
    )


@functools.lru_cache(maxsize=1)
def load_catalog() -> Catalog:
    base = rules_dir()
    rules: dict[str, Rule] = {}
    for path in sorted(base.glob("DLL*.yaml")):
        rule = _parse_rule(path, _load_yaml(path))
        if rule.code in rules:
            raise CatalogError(f"{path}: duplicate rule code {rule.code}")
        if path.stem != rule.code:
            raise CatalogError(f"{path}: file name does not match code {rule.code}")
        rules[rule.code] = rule
    vocab_data = _load_yaml(base / "vocabulary.yaml") or {}
    entries = {str(k): tuple(str(p) for p in (v or ())) for k, v in vocab_data.items()}
    return Catalog(rules=rules, vocabulary=Vocabulary(entries))
