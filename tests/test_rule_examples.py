"""Every rule's own examples (rules/DLLnnn.yaml) are its tests, Fixit-style.

A flagged example must report the rule's code; a not-flagged example must not. The docs'
Example / Use instead snippets are run too, so documentation cannot drift from behaviour.
"""
from __future__ import annotations

import textwrap

import pytest

from flake8_dllog.catalog import load_catalog
from flake8_dllog.config import Config
from flake8_dllog.detectors import REGISTRY
from flake8_dllog.engine import check_source

CATALOG = load_catalog()
MIN_EXAMPLES = 4


def _cases(kind: str):
    for code, rule in sorted(CATALOG.rules.items()):
        snippets = list(rule.flagged if kind == "flagged" else rule.not_flagged)
        snippets.append(rule.example if kind == "flagged" else rule.use_instead)
        for i, snippet in enumerate(snippets):
            yield pytest.param(code, snippet, id=f"{code}-{kind}-{i}")


def _codes(code: str, snippet: str) -> list[str]:
    # Select exactly this rule (even when off by default) and check the snippet as a
    # training script would be checked (not as test code).
    cfg = Config()
    result = check_source(textwrap.dedent(snippet), "train_example.py", cfg, codes=frozenset({code}))
    assert result.error is None, result.error
    # A detector that raised is reported as DLL001 "internal error": never a pass.
    crashed = [f.message for f in result.findings if f.code == "DLL001"]
    assert not crashed, crashed
    return [f.code for f in result.findings]


@pytest.mark.parametrize("code,snippet", list(_cases("flagged")))
def test_flagged_example_reports_its_rule(code, snippet):
    assert code in _codes(code, snippet), f"{code} not reported for:\n{snippet}"


@pytest.mark.parametrize("code,snippet", list(_cases("not_flagged")))
def test_not_flagged_example_is_silent(code, snippet):
    assert code not in _codes(code, snippet), f"{code} wrongly reported for:\n{snippet}"


@pytest.mark.parametrize("code", sorted(CATALOG.rules))
def test_rule_has_detector_docs_and_examples(code):
    rule = CATALOG.rules[code]
    assert code in REGISTRY, f"{code} has no detector"
    assert rule.what.strip() and rule.why.strip() and rule.example.strip() and rule.use_instead.strip()
    assert len(rule.flagged) >= MIN_EXAMPLES, f"{code}: {len(rule.flagged)} flagged examples"
    assert len(rule.not_flagged) >= MIN_EXAMPLES, f"{code}: {len(rule.not_flagged)} not-flagged examples"


def test_codes_are_unique_and_every_detector_has_a_rule():
    codes = [r.code for r in CATALOG.rules.values()]
    assert len(codes) == len(set(codes))
    assert set(REGISTRY) <= set(codes), set(REGISTRY) - set(codes)
