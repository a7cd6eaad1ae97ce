"""The sanitizer's character requirements, proved from the rules' regexes.

``ckn.sanitizer._REQUIRE_CHARS`` lets the compiled pre-filter skip a rule on a plain-ASCII
segment that lacks a character every match of the rule contains. A wrong entry would silently
let an injection through, and examples only sample the rule. These tests read each rule's regex
(CPython's own parser) and derive, as RE2's prefilter does, a formula of literal substrings that
every match must satisfy: AND over a concatenation, OR over alternatives, nothing from optional
or negated parts. Literals holding a non-ASCII character cannot occur in a plain-ASCII segment.
An entry passes when the formula implies that the segment holds one of the entry's characters.

The views rules run on only lowercase, blank or join (``normalized_views``), so a punctuation
character in a view is in the segment too.
"""

import json
import re
import string
from pathlib import Path

import pytest

from ckn import sanitizer as _sanitizer

try:  # Python 3.11+
    from re import _constants as _sre
    from re import _parser as _sre_parse
except ImportError:  # Python 3.10
    import sre_constants as _sre
    import sre_parse as _sre_parse

CORPORA = sorted((Path(__file__).parent / "data").glob("injection_*.jsonl"))

TRUE, FALSE = ("T",), ("F",)
_EXACT_MAX = 4096  # exact string sets up to this size are kept, larger ones become formulas
_CLASS_MAX = 32    # character classes up to this size are exact sets


def _combine(kind: str, parts):
    """AND or OR of formulas, flattened; TRUE and FALSE absorb or vanish."""
    absorbing, neutral = (TRUE, FALSE) if kind == "OR" else (FALSE, TRUE)
    out = []
    for f in parts:
        if f == absorbing:
            return absorbing
        if f != neutral:
            out.extend(f[1] if f[0] == kind else [f])
    return neutral if not out else out[0] if len(out) == 1 else (kind, tuple(out))


def _or(parts):
    return _combine("OR", parts)


def _and(parts):
    return _combine("AND", parts)


def _formula(info):
    """A node's info as a formula: ("E", strings) → OR of those literals."""
    kind, value = info
    if kind == "M":
        return value
    if "" in value:
        return TRUE
    return _or([("L", s) if s.isascii() else FALSE for s in sorted(value)])


_EMPTY = ("E", frozenset({""}))


def _sequence(items):
    """Info of a concatenation: runs of exact nodes stay exact strings (their product)."""
    acc, tail, flushed = TRUE, frozenset({""}), False
    for op, av in items:
        kind, value = _node(op, av)
        if kind == "E" and len(tail) * len(value) <= _EXACT_MAX:
            tail = frozenset(x + y for x in tail for y in value)
            continue
        acc, flushed = _and([acc, _formula(("E", tail))]), True
        if kind == "E":
            tail = value
        else:
            acc, tail = _and([acc, value]), frozenset({""})
    return ("E", tail) if not flushed else ("M", _and([acc, _formula(("E", tail))]))


def _node(op, av):
    """("E", the strings the node can match) or ("M", a formula every match satisfies)."""
    if op is _sre.LITERAL:
        return ("E", frozenset({chr(av)}))
    if op is _sre.IN:
        chars = set()
        for item, arg in av:
            if item is _sre.LITERAL:
                chars.add(chr(arg))
            elif item is _sre.RANGE and arg[1] - arg[0] < _CLASS_MAX:
                chars.update(map(chr, range(arg[0], arg[1] + 1)))
            else:  # NEGATE, CATEGORY, wide ranges
                return ("M", TRUE)
        return ("E", frozenset(chars)) if len(chars) <= _CLASS_MAX else ("M", TRUE)
    if op is _sre.AT or op is _sre.ASSERT_NOT:
        return _EMPTY
    if op is _sre.ASSERT:  # a lookaround's text is in the string too
        return ("M", _formula(_sequence(av[1])))
    if op is _sre.SUBPATTERN:
        _, add_flags, _, pattern = av
        if add_flags & (re.IGNORECASE | re.VERBOSE):
            return ("M", TRUE)
        return _sequence(pattern)
    if op is _sre.BRANCH:
        infos = [_sequence(p) for p in av[1]]
        if all(kind == "E" for kind, _ in infos):
            union = frozenset().union(*(value for _, value in infos))
            if len(union) <= _EXACT_MAX:
                return ("E", union)
        return ("M", _or([_formula(i) for i in infos]))
    if op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT, getattr(_sre, "POSSESSIVE_REPEAT", None)):
        low, high, pattern = av
        inner = _sequence(pattern)
        if low == high == 1:
            return inner
        if low == 0 and high == 1:
            return ("M", TRUE) if inner[0] == "M" else ("E", inner[1] | {""})
        return ("M", _formula(inner)) if low >= 1 else ("M", TRUE)
    if op is getattr(_sre, "ATOMIC_GROUP", None):
        return _sequence(av)
    return ("M", TRUE)  # anything else (ANY, NOT_LITERAL, GROUPREF, ...) requires nothing


def required(pattern: str):
    """A formula of literal substrings that every match of ``pattern`` in ASCII text satisfies."""
    return _formula(_sequence(_sre_parse.parse(pattern, re.MULTILINE).data))


def holds(formula, text: str) -> bool:
    kind = formula[0]
    if kind in ("T", "F"):
        return kind == "T"
    if kind == "L":
        return formula[1] in text
    parts = (holds(f, text) for f in formula[1])
    return all(parts) if kind == "AND" else any(parts)


def implies_one_of(formula, chars: str) -> bool:
    """Every string satisfying ``formula`` holds one of ``chars`` (a sufficient test)."""
    kind = formula[0]
    if kind in ("T", "F"):
        return kind == "F"
    if kind == "L":
        return any(c in formula[1] for c in chars)
    parts = (implies_one_of(f, chars) for f in formula[1])
    return any(parts) if kind == "AND" else all(parts)


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
