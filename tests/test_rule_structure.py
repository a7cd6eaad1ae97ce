"""The sanitizer's character requirements, proved from the rules' regexes.

``ckn.sanitizer._REQUIRE_CHARS`` lets the compiled pre-filter skip a rule on a plain-ASCII
segment that lacks a character every match of the rule contains. A wrong entry would silently
let an injection through, and examples only sample the rule. These tests take each rule's
formula from ``ckn._rule_formula.required`` (derived from the regex by CPython's own parser, as
RE2's prefilter does: a formula of literal substrings that every match must satisfy: AND (in
order: SEQ) over a concatenation, OR over alternatives, nothing from optional or negated parts,
a lookaround's formula as present somewhere (P); literals holding a non-ASCII character cannot
occur in a plain-ASCII segment), and check the derivation itself on every match of the
examples and corpora. An entry passes when the formula implies that the
segment holds one of the entry's characters.

The views rules run on only lowercase, blank or join (``normalized_views``), so a punctuation
character in a view is in the segment too.
"""

import json
import string
from pathlib import Path

import pytest

from ckn import sanitizer as _sanitizer
from ckn._rule_formula import holds, required

CORPORA = sorted((Path(__file__).parent / "data").glob("injection_*.jsonl"))


def implies_one_of(formula, chars: str) -> bool:
    """Every string satisfying ``formula`` holds one of ``chars`` (a sufficient test)."""
    kind = formula[0]
    if kind in ("T", "F"):
        return kind == "F"
    if kind == "L":
        return any(c in formula[1] for c in chars)
    if kind == "P":
        return implies_one_of(formula[1], chars)
    parts = (implies_one_of(f, chars) for f in formula[1])
    return any(parts) if kind in ("AND", "SEQ") else all(parts)


_FORMULAS: dict[str, tuple] = {}


def _required_of(rule):
    if rule.name not in _FORMULAS:
        _FORMULAS[rule.name] = required(rule.pattern)
    return _FORMULAS[rule.name]


_RULE_BY_NAME = {rule.name: rule for rule in _sanitizer.RULES}


@pytest.mark.parametrize("name", sorted(_sanitizer._REQUIRE_CHARS))
def test_every_character_requirement_follows_from_the_regex(name):
    formula = _required_of(_RULE_BY_NAME[name])
    for chars in _sanitizer._REQUIRE_CHARS[name]:
        assert implies_one_of(formula, chars), (
            f"{name}: the regex has an ASCII match without any of {chars!r}")


def test_the_proof_rejects_characters_a_rule_does_not_need():
    # The override rule's matches are words and spaces: no punctuation is required.
    formula = _required_of(_RULE_BY_NAME["override_prior_instructions"])
    assert not any(implies_one_of(formula, c) for c in string.punctuation)
    # A URL rule needs ':' and '/' from "://", or '@'; not '?' alone.
    formula = _required_of(_RULE_BY_NAME["post_conversation_to_url"])
    assert implies_one_of(formula, "@/") and not implies_one_of(formula, "?")


def test_formulas_hold_on_every_match_in_the_examples_and_corpora():
    """The derivation itself: on every view that a rule matches (its examples, the labelled
    corpora), the rule's formula holds."""
    lines = [example for rule in _sanitizer.RULES for example in rule.examples]
    for path in CORPORA:
        with path.open(encoding="utf-8") as f:
            lines.extend(json.loads(line)["text"] for line in f if line.strip())
    checked = 0
    for line in lines:
        for segment in _sanitizer._segments(line):
            for view in _sanitizer.normalized_views(segment):
                if not view.isascii():
                    continue
                for index, rule in enumerate(_sanitizer.RULES):
                    if _sanitizer._matches(index, view):
                        checked += 1
                        assert holds(_required_of(rule), view), (rule.name, view)
    assert checked > 1000
