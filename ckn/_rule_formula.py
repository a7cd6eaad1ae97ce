"""Literal formulas of the sanitizer's rule regexes: what every match must contain.

``required(pattern)`` reads a regex with CPython's own parser and derives, as RE2's prefilter
does, a formula of literal substrings that every match in ASCII text satisfies: AND over a
concatenation, OR over alternatives, nothing from optional, repeated-zero-times, negated or
case-insensitive parts (a lookaround's literals are in the string too). Literals holding a
non-ASCII character cannot occur in ASCII text and count as false.

``program(formula)`` turns a formula into the form ``ckn._rulefilter.LiteralFormula`` evaluates
in C: its literals (each cut to at most ``MAX_LITERAL`` bytes: a prefix of a literal that
occurs occurs too, so the formula only weakens) and the formula's nodes in prefix order. The
sanitizer skips a rule's regex on an ASCII view whose formula is false: the regex cannot match
there, so the verdict is the same (docs/security.md). The test-suite checks the derivation on
every match of the examples and labelled corpora.

Formulas are tuples: ``("T",)`` true, ``("F",)`` false, ``("L", s)`` "``s`` occurs", and
``("AND", parts)`` / ``("OR", parts)``.
"""

from __future__ import annotations

import re
from array import array

try:  # Python 3.11+
    from re import _constants as _sre
    from re import _parser as _sre_parse
except ImportError:  # Python 3.10
    import sre_constants as _sre
    import sre_parse as _sre_parse

__all__ = ["MAX_LITERAL", "TRUE", "FALSE", "required", "holds", "program"]

TRUE, FALSE = ("T",), ("F",)
MAX_LITERAL = 12   # bytes of a literal the C check looks for (a prefix: it only weakens)
_EXACT_MAX = 4096  # exact string sets up to this size are kept, larger ones become formulas
_CLASS_MAX = 32    # character classes up to this size are exact sets

# Program nodes: (op, argument, end), end = the index of the node after this one's subtree.
OP_LITERAL, OP_AND, OP_OR, OP_FALSE = 0, 1, 2, 3


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


def _formula(info):
    """A node's info as a formula: ("E", strings) → OR of those literals."""
    kind, value = info
    if kind == "M":
        return value
    if "" in value:
        return TRUE
    return _combine("OR", [("L", s) if s.isascii() else FALSE for s in sorted(value)])


_EMPTY = ("E", frozenset({""}))


def _sequence(items):
    """Info of a concatenation: runs of exact nodes stay exact strings (their product)."""
    acc, tail, flushed = TRUE, frozenset({""}), False
    for op, av in items:
        kind, value = _node(op, av)
        if kind == "E" and len(tail) * len(value) <= _EXACT_MAX:
            tail = frozenset(x + y for x in tail for y in value)
            continue
        acc, flushed = _combine("AND", [acc, _formula(("E", tail))]), True
        if kind == "E":
            tail = value
        else:
            acc, tail = _combine("AND", [acc, value]), frozenset({""})
    return ("E", tail) if not flushed else ("M", _combine("AND", [acc, _formula(("E", tail))]))


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
        return ("M", _combine("OR", [_formula(i) for i in infos]))
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


def required(pattern: str, flags: int = re.MULTILINE):
    """A formula of literal substrings that every match of ``pattern`` (compiled with
    ``flags``, ``re.ASCII`` or not) in ASCII text satisfies; TRUE when nothing is known
    (a case-insensitive or verbose pattern)."""
    parsed = _sre_parse.parse(pattern, flags)
    if parsed.state.flags & (re.IGNORECASE | re.VERBOSE):
        return TRUE
    return _formula(_sequence(parsed.data))


def holds(formula, text: str) -> bool:
    """Whether ``text`` satisfies ``formula`` (the reference evaluation, in Python)."""
    kind = formula[0]
    if kind in ("T", "F"):
        return kind == "T"
    if kind == "L":
        return formula[1] in text
    parts = (holds(f, text) for f in formula[1])
    return all(parts) if kind == "AND" else any(parts)


def program(formula) -> tuple[list[bytes], array] | None:
    """``(literals, nodes)`` for ``ckn._rulefilter.LiteralFormula``, or None for TRUE (nothing
    to check). ``literals``: the distinct literals, as ASCII bytes cut to ``MAX_LITERAL``;
    ``nodes``: array('i') of (op, argument, end) triples in prefix order (op ``OP_LITERAL``
    with a literal index, ``OP_AND`` / ``OP_OR`` followed by their children's subtrees, or
    ``OP_FALSE`` alone)."""
    if formula == TRUE:
        return None
    literals: dict[bytes, int] = {}
    nodes = array("i")

    def emit(f) -> None:
        at = len(nodes) // 3
        if f[0] == "F":
            nodes.extend((OP_FALSE, 0, at + 1))
        elif f[0] == "L":
            word = f[1].encode("ascii")[:MAX_LITERAL]
            nodes.extend((OP_LITERAL, literals.setdefault(word, len(literals)), at + 1))
        else:
            nodes.extend((OP_AND if f[0] == "AND" else OP_OR, len(f[1]), 0))
            for part in f[1]:
                emit(part)
            nodes[3 * at + 2] = len(nodes) // 3

    emit(formula)
    return list(literals), nodes
