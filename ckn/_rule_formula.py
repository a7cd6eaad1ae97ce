"""Literal formulas of the sanitizer's rule regexes: what every match must contain.

``required(pattern)`` reads a regex with CPython's own parser and derives, as RE2's prefilter
does, a formula of literal substrings that every match in ASCII text satisfies: AND over a
concatenation, OR over alternatives, nothing from optional, repeated-zero-times, negated or
case-insensitive parts (a lookaround's literals are in the string too). Literals holding a
non-ASCII character cannot occur in ASCII text and count as false; with ``unicode=True`` they
are kept, and the formula holds on every match in any text (the derivation reads only literal
characters and classes of at most ``_CLASS_MAX`` listed characters, never ``\\w``-style
categories, so ``re.ASCII`` changes nothing it reads): the sanitizer checks non-ASCII views
against those (UTF-8 literals).

Order is kept too: a concatenation is cut into pieces wherever no exact text joins one part to
the next (after ``\\W*`` and the like), and its formula is the SEQ of the pieces' formulas: the
pieces match one after another, so some literal occurrence satisfying the first piece ends at
or before the start of one satisfying the second ("ignore" … "previous" holds on "ignore
previous", not on "previous ignore"). A lookaround's formula may hold anywhere in the string:
it is wrapped in P (present), which requires it but places nothing.

``program(formula)`` turns a formula into the form ``ckn._rulefilter.LiteralFormula`` evaluates
in C: its literals (each cut to at most ``MAX_LITERAL`` bytes: a prefix of a literal that
occurs occurs too, so the formula only weakens) and the formula's nodes in prefix order. The
sanitizer skips a rule's regex on an ASCII view whose formula is false: the regex cannot match
there, so the verdict is the same (docs/security.md). The test-suite checks the derivation on
every match of the examples and labelled corpora, and on small random regexes.

``alternatives(pattern)`` splits a top-level alternation ``A|B|C`` into its alternatives: the
pattern matches where one of them does, and each has a formula of its own, often far stronger
than the OR they make together. The sanitizer runs an unguarded rule's alternatives one by one,
each only where its own formula holds.

``starts(pattern)`` gives the strings one of which every match begins with (the prefixes the
same derivation keeps, cut to ``MAX_LITERAL`` bytes), or None when a match may start anywhere:
the sanitizer then runs a regex on an ASCII view only from the places they start
(``ckn._rulefilter.StartFinder``), where ``re`` would try every position.
``line_anchored(pattern)`` tells a pattern whose matches start where lines do, and
``gated(pattern)`` splits a gated one, ``^(?=[^\\n]*?GATE)[^\\n]*?BODY``, into GATE and BODY,
which the sanitizer searches for on their own on a one-line view (``group_alternatives`` splits
a BODY that is one group).

Deriving the rules' programs takes about a second, so they ship in ``rule_formulas.json``
(``tools/build_rule_formulas.py`` writes it, with the starts; a test checks it against the
derivation). Each entry carries a hash of its rule's pattern: ``program_for`` and
``starts_for`` derive afresh for a rule whose pattern no longer matches its entry.

Formulas are tuples: ``("T",)`` true, ``("F",)`` false, ``("L", s)`` "``s`` occurs",
``("AND", parts)`` / ``("OR", parts)``, ``("SEQ", parts)`` (every part holds, in that order)
and ``("P", part)`` (the part holds somewhere).

``holds`` evaluates a formula over the positions of its literals in the text. For each part it
derives a lower bound on where a match region of that part ends (E) and an upper bound on
where it starts (S): a literal's first end and last start; the min E / max S over an OR's true
parts; the max E / min S over an AND's or a SEQ's parts; nothing (0, infinity) for P. A SEQ
holds when each part holds and no earlier part's E exceeds a later part's S (a SEQ of more
than ``MAX_PIECES`` parts: order unchecked). If the regex matches, every part's region lies
inside the match in that order, so these bounds hold and the formula does (the tests check it
on every match): skipping the regex where it fails changes no verdict.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import sys
from array import array
from functools import lru_cache
from pathlib import Path

try:  # Python 3.11+
    from re import _constants as _sre
    from re import _parser as _sre_parse
except ImportError:  # Python 3.10
    import sre_constants as _sre
    import sre_parse as _sre_parse

__all__ = ["MAX_LITERAL", "UNICODE_MAX_LITERAL", "MAX_PIECES", "TABLE_PATH", "UNICODE_TABLE_PATH",
           "TRUE", "FALSE", "required", "starts", "holds", "holds_over", "cut", "program",
           "program_for", "alternatives", "alternatives_for", "starts_for", "pattern_key",
           "load_table", "load_phrase_tables", "table", "unicode_table", "line_anchored", "gated",
           "group_alternatives", "first_chars", "from_first_chars", "part_key", "part_facts",
           "load_parts", "written_parts", "PARTS_PATH"]

TRUE, FALSE = ("T",), ("F",)
MAX_LITERAL = 12   # bytes of a literal the C check looks for (a prefix: it only weakens)
UNICODE_MAX_LITERAL = 6  # the same for the unicode programs (keeps their trie at ~8 MB)
MAX_PIECES = 16    # pieces of a SEQ whose order is checked (a longer SEQ counts as an AND)
_EXACT_MAX = 4096  # exact string sets up to this size are kept, larger ones become formulas
_CLASS_MAX = 32    # character classes up to this size are exact sets

# Program nodes: (op, argument, end), end = the index of the node after this one's subtree.
OP_LITERAL, OP_AND, OP_OR, OP_FALSE, OP_SEQ, OP_PRESENT, OP_PIECE = 0, 1, 2, 3, 4, 5, 6


def _combine(kind: str, parts):
    """AND, OR or SEQ of formulas, flattened; TRUE and FALSE absorb or vanish."""
    absorbing, neutral = (TRUE, FALSE) if kind == "OR" else (FALSE, TRUE)
    out = []
    for f in parts:
        if f == absorbing:
            return absorbing
        if f != neutral:
            out.extend(f[1] if f[0] == kind else [f])
    return neutral if not out else out[0] if len(out) == 1 else (kind, tuple(out))


def _formula(info, keep: bool):
    """A node's info as a formula: ("E", strings) → OR of those literals (a literal with a
    non-ASCII character FALSE unless ``keep``)."""
    kind, value = info[0], info[1]
    if kind == "M":
        return value
    if "" in value:
        return TRUE
    return _combine("OR", [("L", s) if keep or s.isascii() else FALSE for s in sorted(value)])


_NOTHING = frozenset({""})  # a prefix or suffix set that says nothing
_EMPTY = ("E", _NOTHING)
_FREE = ("M", TRUE, _NOTHING, _NOTHING)  # a node that requires and tells nothing


def _product(xs: frozenset, ys: frozenset) -> frozenset | None:
    """Every x + y, or None when there would be more than ``_EXACT_MAX``."""
    if len(xs) * len(ys) > _EXACT_MAX:
        return None
    return frozenset(x + y for x in xs for y in ys)


def _present(formula):
    """``formula`` required somewhere in the string, placing nothing (a lookaround's)."""
    return formula if formula in (TRUE, FALSE) else ("P", formula)


def _sequence(items, keep: bool):
    """Info of a concatenation. Runs of exact nodes stay exact strings (their product); an
    inexact node's known prefixes are joined to the exact strings before it, and its known
    suffixes start the next run, so literals stay contiguous across it. Where an inexact node
    leaves no known suffix, nothing joins it to what follows: the piece so far is closed and
    the formula is the SEQ of the pieces (each piece's literals lie inside its own stretch of
    the match). A lookaround is zero-width: its formula joins the result as present (P) and the
    run goes on across it."""
    pieces, acc, tail, head, exact, around = [], TRUE, _NOTHING, _NOTHING, True, TRUE
    for op, av in items:
        info = _node(op, av, keep)
        if info[0] == "A":  # lookaround
            around = _combine("AND", [around, _present(info[1])])
            continue
        if info[0] == "E":
            joined = _product(tail, info[1])
            if joined is not None:
                tail = joined
                continue
            acc = _combine("AND", [acc, _formula(("E", tail), keep)])
            if exact:
                head, exact = tail, False
            tail = info[1]
            continue
        _, formula, prefixes, suffixes = info
        joined = _product(tail, prefixes)
        if joined is None:
            joined = tail
        acc = _combine("AND", [acc, _formula(("E", joined), keep), formula])
        if exact:
            head, exact = joined, False
        tail = suffixes
        if tail == _NOTHING:
            pieces.append(acc)
            acc = TRUE
    if exact:
        return ("E", tail)
    pieces.append(_combine("AND", [acc, _formula(("E", tail), keep)]))
    return ("M", _combine("AND", [_combine("SEQ", pieces), around]), head, tail)


def _node(op, av, keep: bool):
    """("E", the strings the node can match), ("M", a formula every match satisfies, strings
    one of which every match starts with, strings one of which every match ends with), or, for
    a lookaround, ("A", a formula the string satisfies)."""
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
                return _FREE
        return ("E", frozenset(chars)) if len(chars) <= _CLASS_MAX else _FREE
    if op is _sre.AT or op is _sre.ASSERT_NOT:
        return _EMPTY
    if op is _sre.ASSERT:  # a lookaround's text is in the string too
        return ("A", _formula(_sequence(av[1], keep), keep))
    if op is _sre.SUBPATTERN:
        _, add_flags, _, pattern = av
        if add_flags & (re.IGNORECASE | re.VERBOSE):
            return _FREE
        return _sequence(pattern, keep)
    if op is _sre.BRANCH:
        infos = [_sequence(p, keep) for p in av[1]]
        if all(kind == "E" for kind, *_ in infos):
            union = frozenset().union(*(info[1] for info in infos))
            if len(union) <= _EXACT_MAX:
                return ("E", union)
        prefixes = frozenset().union(*(i[1] if i[0] == "E" else i[2] for i in infos))
        suffixes = frozenset().union(*(i[1] if i[0] == "E" else i[3] for i in infos))
        return ("M", _combine("OR", [_formula(i, keep) for i in infos]),
                prefixes if len(prefixes) <= _EXACT_MAX else _NOTHING,
                suffixes if len(suffixes) <= _EXACT_MAX else _NOTHING)
    if op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT, getattr(_sre, "POSSESSIVE_REPEAT", None)):
        low, high, pattern = av
        inner = _sequence(pattern, keep)
        if low == high == 1:
            return inner
        if low == 0 and high == 1:
            return _FREE if inner[0] == "M" else ("E", inner[1] | {""})
        if low == 0:
            return _FREE
        if inner[0] == "E":  # at least once: starts and ends with one of its strings
            return ("M", _formula(inner, keep), inner[1], inner[1])
        return inner
    if op is getattr(_sre, "ATOMIC_GROUP", None):
        return _sequence(av, keep)
    return _FREE  # anything else (ANY, NOT_LITERAL, GROUPREF, ...) requires nothing


_CATEGORY_CLASS = {
    _sre.CATEGORY_DIGIT: r"\d", _sre.CATEGORY_NOT_DIGIT: r"\D",
    _sre.CATEGORY_SPACE: r"\s", _sre.CATEGORY_NOT_SPACE: r"\S",
    _sre.CATEGORY_WORD: r"\w", _sre.CATEGORY_NOT_WORD: r"\W",
}


def _class_text(code: int) -> str:
    """A code point as it may stand in a character class."""
    return re.escape(chr(code)) if chr(code) in "\\]^-[" or code < 33 else chr(code)


def _first(data) -> tuple[set[str] | None, bool]:
    """The class items (text) one of which every non-empty match of the parsed sequence
    ``data`` starts with, and whether it can match the empty string; None for the items when
    a match may start with any character (``.``, a negated class, a backreference, ...)."""
    items: set[str] = set()
    for op, av in data:
        if op is _sre.LITERAL:
            items.add(_class_text(av))
            return items, False
        if op is _sre.IN:
            for item, arg in av:
                if item is _sre.LITERAL:
                    items.add(_class_text(arg))
                elif item is _sre.RANGE:
                    items.add(_class_text(arg[0]) + "-" + _class_text(arg[1]))
                elif item is _sre.CATEGORY and arg in _CATEGORY_CLASS:
                    items.add(_CATEGORY_CLASS[arg])
                else:  # NEGATE, and anything else
                    return None, False
            return items, False
        if op is _sre.AT or op is _sre.ASSERT or op is _sre.ASSERT_NOT:
            continue  # takes no character
        if op is _sre.SUBPATTERN:
            if av[1] & (re.IGNORECASE | re.VERBOSE):
                return None, False
            inner, empty = _first(av[3])
        elif op is _sre.BRANCH:
            inner, empty = set(), False
            for branch in av[1]:
                part, part_empty = _first(branch)
                if part is None:
                    return None, False
                inner |= part
                empty = empty or part_empty
        elif op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT, getattr(_sre, "POSSESSIVE_REPEAT", None)):
            low, high, sub = av
            if high == 0:
                continue
            inner, empty = _first(sub)
            empty = empty or low == 0
        elif op is getattr(_sre, "ATOMIC_GROUP", None):
            inner, empty = _first(av)
        else:  # ANY, NOT_LITERAL, GROUPREF, ...
            return None, False
        if inner is None:
            return None, False
        items |= inner
        if not empty:
            return items, False
    return items, True


def first_chars(pattern: str, flags: int = re.MULTILINE) -> str | None:
    """A character class (regex text, for the same ``flags``) holding every character a match
    of ``pattern`` can start with, or None when that is not known, a match can be empty or the
    pattern holds what nesting it in another would change (``_UNSPLITTABLE``): a
    case-insensitive or verbose pattern, a ``.`` or a negated class first, ..."""
    if _UNSPLITTABLE.search(pattern):
        return None
    parsed = _sre_parse.parse(pattern, flags)
    if parsed.state.flags & (re.IGNORECASE | re.VERBOSE):
        return None
    items, empty = _first(parsed.data)
    if items is None or empty or not items:
        return None
    return "[" + "".join(sorted(items)) + "]"


def from_first_chars(pattern: str, first: str | None) -> str:
    """A pattern whose search finds a match exactly where ``pattern``'s does (the same flags,
    the same start; the match itself is its first character only), given ``first``, the
    ``first_chars`` of ``pattern``: ``first(?<=(?=(?:pattern))[\\s\\S])``. It begins with a
    character class, so ``re`` skips the places whose character cannot start a match in one
    tight loop, where it tried every alternative of ``pattern`` at every place. ``pattern``
    itself when ``first`` is None."""
    if first is None:
        return pattern
    return first + "(?<=(?=(?:" + pattern + "))[\\s\\S])"


def part_key(part: str, flags: int) -> str:
    """The key of a searched pattern's facts (``part_facts``) in ``PARTS_PATH``."""
    return pattern_key(("a:" if flags & re.ASCII else "u:") + part)


def part_facts(part: str, flags: int) -> tuple[list[bytes] | None, str | None]:
    """Where a search for ``part`` needs to look: ``(starts(part, flags), first)``, ``first``
    its ``first_chars`` for views that are not plain ASCII (``flags`` without ``re.ASCII``),
    else None: in an ASCII view the starts' literals are fewer places than a class, and
    ``from_first_chars``' lookarounds cost more than the alternatives they skip where nearly
    every place is a candidate. Each costs a parse of ``part``; ``PARTS_PATH`` ships them."""
    return starts(part, flags), None if flags & re.ASCII else first_chars(part, flags)


def _ascii_json(path: Path):
    """The JSON of the ASCII file at ``path``, read as bytes (text mode's newline translation
    costs more than the decoding); UnicodeDecodeError (a ValueError) for a byte above 127."""
    return json.loads(path.read_bytes().decode("ascii"))


def load_parts(path: Path | None = None) -> dict[str, tuple[list[bytes] | None, str | None]]:
    """The ``part_facts`` of ``PARTS_PATH`` by ``part_key``, or an empty dict when the file is
    missing or unreadable: every part's facts are then worked out."""
    try:
        data = _ascii_json(path or PARTS_PATH)["parts"]
        parts = {key: (None if entry.get("starts") is None
                       else [word.encode("ascii") for word in entry["starts"]],
                       entry.get("first"))
                 for key, entry in data.items()}
        if all(first is None or isinstance(first, str) for _, first in parts.values()):
            return parts
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass
    return {}


def written_parts(parts: dict[str, tuple[str, int]]) -> dict:
    """The content of ``PARTS_PATH`` for ``{part_key: (part, flags)}``: each part's facts
    (JSON escapes keep the file ASCII)."""
    out = {}
    for key, (part, flags) in sorted(parts.items()):
        firsts, first = part_facts(part, flags)
        entry = {}
        if firsts is not None:
            entry["starts"] = [word.decode("ascii") for word in firsts]
        if first is not None:
            entry["first"] = first
        out[key] = entry
    return {"parts": out}


def required(pattern: str, flags: int = re.MULTILINE, *, unicode: bool = False):
    """A formula of literal substrings that every match of ``pattern`` (compiled with
    ``flags``, ``re.ASCII`` or not) in ASCII text satisfies, or with ``unicode`` in any text
    (literals with non-ASCII characters kept: the derivation reads only literal characters
    and small classes of them, which match the same characters under both flags); TRUE when
    nothing is known (a case-insensitive or verbose pattern)."""
    parsed = _sre_parse.parse(pattern, flags)
    if parsed.state.flags & (re.IGNORECASE | re.VERBOSE):
        return TRUE
    return _formula(_sequence(parsed.data, unicode), unicode)


def starts(pattern: str, flags: int = re.MULTILINE) -> list[bytes] | None:
    """The literals one of which every match of ``pattern`` in ASCII text starts with (ASCII
    bytes, each cut to ``MAX_LITERAL``, sorted; a prefix of a match's first string starts the
    match too), or None when a match may start anywhere: its first strings are not known (an
    optional or repeated-zero-times start, a class of more than ``_CLASS_MAX`` characters, a
    case-insensitive part) or one of them is empty. An empty list: no match in ASCII text.
    These are the known prefixes of ``_sequence`` (what ``required`` reads first)."""
    parsed = _sre_parse.parse(pattern, flags)
    if parsed.state.flags & (re.IGNORECASE | re.VERBOSE):
        return None
    info = _sequence(parsed.data, False)
    firsts = info[1] if info[0] == "E" else info[2]
    if "" in firsts:
        return None
    return sorted({s.encode("ascii")[:MAX_LITERAL] for s in firsts if s.isascii()})


# What a pattern must not hold to be split into its alternatives: inline flags (a global one
# applies to the whole pattern), comments, backreferences and conditionals (group numbers).
_UNSPLITTABLE = re.compile(r"\(\?[aiLmsux-]|\(\?#|\(\?P=|\(\?\(|\\[1-9]|\\g<")


# The tokens that decide where a pattern's top level is: an escape, a character class (a "]"
# first in it is literal; "(", ")" and "|" inside it are literal) and the group and alternation
# characters; everything between them is read past in C.
_TOKEN = re.compile(r"\\.|\[\^?\]?(?:\\.|[^\]\\])*\]|[()|]", re.DOTALL)


def alternatives(pattern: str) -> list[str]:
    """The top-level alternatives of ``pattern``: ``"A|B|C"`` gives ``["A", "B", "C"]``, and
    a search for the pattern finds a match exactly when a search for one of them does (same
    flags). ``[pattern]`` when it has a single alternative or holds what splitting would
    change (``_UNSPLITTABLE``). Escapes, character classes and groups hide their ``|``."""
    return _parts(pattern, _alternative_starts(pattern))


def line_anchored(pattern: str) -> bool:
    """Whether every match of ``pattern`` starts where a line does (at 0 or after a newline,
    compiled with ``re.MULTILINE``; at 0 without it): it begins with ``^`` (which nothing can
    repeat) and has one top-level alternative. False when unsure (``_UNSPLITTABLE``)."""
    return (pattern.startswith("^") and not _UNSPLITTABLE.search(pattern)
            and len(_alternative_starts(pattern)) == 1)


_GATE_OPEN = "^(?=[^\\n]*?"
_BODY_OPEN = "[^\\n]*?"


def gated(pattern: str) -> tuple[str, str] | None:
    """``(GATE, BODY)`` when ``pattern`` is ``^(?=[^\\n]*?GATE)[^\\n]*?BODY``, GATE and BODY
    sequences (no top-level ``|``) and the whole ``line_anchored``; else None. On a string
    without a newline, it matches (compiled with the same flags) exactly when GATE matches
    somewhere and BODY matches somewhere: the lazy ``[^\\n]*?`` before each reaches every
    position of the line, and the lookahead's match is not read after it (no
    backreferences)."""
    if not pattern.startswith(_GATE_OPEN) or not line_anchored(pattern):
        return None
    close = _group_close(pattern, len(_GATE_OPEN))
    if close is None or close[2]:
        return None
    gate, rest = pattern[len(_GATE_OPEN):close[0]], pattern[close[1]:]
    if not rest.startswith(_BODY_OPEN) or not gate:
        return None
    return gate, rest[len(_BODY_OPEN):]


def group_alternatives(pattern: str) -> list[str]:
    """The alternatives inside ``pattern`` when it is one non-capturing group, ``(?:A|B|C)``
    (a search for it finds a match exactly when a search for one of A, B, C does); else
    ``[pattern]``."""
    close = _group_close(pattern, 3) if pattern.startswith("(?:") else None
    if close is None or close[1] != len(pattern):
        return [pattern]
    return alternatives(pattern[3:-1])


def _group_close(pattern: str, start: int) -> tuple[int, int, bool] | None:
    """For the group whose ``(`` (and ``?:``, ``?=`` ...) ends at ``start``: where its ``)``
    starts and ends, and whether a ``|`` stands at the group's own level; None when it does
    not close."""
    depth, bar = 1, False
    for token in _TOKEN.finditer(pattern, start):
        c = token.group()
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return token.start(), token.end(), bar
        elif c == "|" and depth == 1:
            bar = True
    return None


def _alternative_starts(pattern: str) -> list[int]:
    """Where each of ``alternatives(pattern)`` starts in ``pattern`` (each ends one character,
    its ``|``, before the next starts)."""
    if _UNSPLITTABLE.search(pattern):
        return [0]
    at, depth = [0], 0
    for token in _TOKEN.finditer(pattern):
        c = token.group()
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            at.append(token.end())
    return at


def _parts(pattern: str, at: list[int]) -> list[str]:
    """The alternatives of ``pattern`` that start at ``at`` (``_alternative_starts``)."""
    return [pattern[a:b - 1] for a, b in zip(at, at[1:])] + [pattern[at[-1]:]]


def cut(formula):
    """``formula`` with every literal cut to ``MAX_LITERAL`` characters: what ``program``
    makes of it, so what the C check evaluates."""
    if formula[0] == "L":
        return ("L", formula[1][:MAX_LITERAL])
    if formula[0] in ("AND", "OR", "SEQ"):
        return (formula[0], tuple(cut(part) for part in formula[1]))
    if formula[0] == "P":
        return ("P", cut(formula[1]))
    return formula


_FAR = float("inf")


def _placed(formula, where) -> tuple[int, float] | None:
    """``(E, S)`` of ``formula`` (see the module docstring) when it holds, else None;
    ``where(literal)`` gives the literal's first end and last start, or None when absent."""
    kind = formula[0]
    if kind in ("T", "F"):
        return (0, _FAR) if kind == "T" else None
    if kind == "L":
        return where(formula[1])
    if kind == "P":
        return None if _placed(formula[1], where) is None else (0, _FAR)
    if kind == "OR":
        true = [b for b in (_placed(f, where) for f in formula[1]) if b is not None]
        return (min(b[0] for b in true), max(b[1] for b in true)) if true else None
    ends, starts = [0], [_FAR]
    for part in formula[1]:
        bounds = _placed(part, where)
        if bounds is None or (kind == "SEQ" and len(formula[1]) <= MAX_PIECES
                              and max(ends) > bounds[1]):
            return None
        ends.append(bounds[0])
        starts.append(bounds[1])
    return max(ends), min(starts)


def holds_over(formula, texts) -> bool:
    """Whether ``formula`` holds over the literals of all ``texts`` together, each literal
    placed at its earliest end and latest start in any of them (what the compiled candidate
    pass evaluates over a segment's views: weaker than holding on one of them)."""
    def where(literal: str):
        found = [(t.find(literal) + len(literal), t.rfind(literal))
                 for t in texts if literal in t]
        return (min(f[0] for f in found), max(f[1] for f in found)) if found else None

    return _placed(formula, where) is not None


def holds(formula, text: str) -> bool:
    """Whether ``text`` satisfies ``formula`` (the reference evaluation, in Python)."""
    return holds_over(formula, (text,))


def program(formula, max_literal: int = MAX_LITERAL) -> tuple[list[bytes], array] | None:
    """``(literals, nodes)`` for ``ckn._rulefilter.LiteralFormula``, or None for TRUE (nothing
    to check). ``literals``: the distinct literals, as UTF-8 bytes cut to ``max_literal``
    (a prefix of a literal's bytes occurs wherever the literal does);
    ``nodes``: array('i') of (op, argument, end) triples in prefix order (op ``OP_LITERAL``
    with a literal index, ``OP_AND`` / ``OP_OR`` with the number of children, followed by
    their subtrees, ``OP_PRESENT`` followed by its one child's, or ``OP_FALSE`` alone). A SEQ
    is ``OP_SEQ`` with its number of pieces, followed by the conjuncts of all its pieces (a
    piece's AND parts), each as ``OP_PIECE`` with the piece's index followed by the conjunct's
    subtree: like an AND's parts, they come smallest first for the presence check, and the
    piece indices give the order."""
    if formula == TRUE:
        return None
    literals: dict[bytes, int] = {}
    nodes = array("i")

    def size(f) -> int:
        return (1 if f[0] in ("L", "F") else size(f[1]) if f[0] == "P"
                else sum(map(size, f[1])))

    def emit(f) -> None:
        at = len(nodes) // 3
        if f[0] == "F":
            nodes.extend((OP_FALSE, 0, at + 1))
        elif f[0] == "L":
            word = f[1].encode("utf-8")[:max_literal]
            nodes.extend((OP_LITERAL, literals.setdefault(word, len(literals)), at + 1))
        elif f[0] == "P":
            nodes.extend((OP_PRESENT, 1, 0))
            emit(f[1])
            nodes[3 * at + 2] = len(nodes) // 3
        elif f[0] == "SEQ":
            nodes.extend((OP_SEQ, len(f[1]), 0))
            conjuncts = [(piece, part) for piece, whole in enumerate(f[1])
                         for part in (whole[1] if whole[0] == "AND" else (whole,))]
            for piece, part in sorted(conjuncts, key=lambda c: size(c[1])):
                start = len(nodes) // 3
                nodes.extend((OP_PIECE, piece, 0))
                emit(part)
                nodes[3 * start + 2] = len(nodes) // 3
            nodes[3 * at + 2] = len(nodes) // 3
        else:
            nodes.extend((OP_AND if f[0] == "AND" else OP_OR, len(f[1]), 0))
            # the smaller parts first: a false part of an AND, or a true part of an OR, ends
            # the evaluation, and small parts cost little to try
            for part in sorted(f[1], key=size):
                emit(part)
            nodes[3 * at + 2] = len(nodes) // 3

    emit(formula)
    return list(literals), nodes


TABLE_PATH = Path(__file__).with_name("rule_formulas.json")
UNICODE_TABLE_PATH = Path(__file__).with_name("rule_formulas_unicode.json")
TRIES_PATH = Path(__file__).with_name("phrase_tries.json")
PARTS_PATH = Path(__file__).with_name("search_parts.json")


@lru_cache(maxsize=1024)
def pattern_key(pattern: str) -> str:
    """The hash a table entry carries of its rule's pattern (SHA-256, 16 hex digits); kept for
    the last 1,024 patterns (a process's first pack asks 261 times for 99 patterns, 1 MB of
    them; the rules, phrase lists and search parts are about 600)."""
    return hashlib.sha256(pattern.encode("utf-8")).hexdigest()[:16]


def _written(compiled) -> dict:
    """A program as the table writes it: ``"literals"`` (bytes as Latin-1 strings, so that a
    literal cut inside a UTF-8 character survives) and ``"nodes"``, as base64 of little-endian
    uint16 when every value fits (a JSON list of ~380,000 numbers took ~25 ms to decode) or a
    list; nothing for TRUE."""
    if compiled is None:
        return {}
    nodes = list(compiled[1])
    if all(0 <= value < 65536 for value in nodes):
        packed = array("H", nodes)
        if sys.byteorder == "big":
            packed.byteswap()
        nodes = base64.b64encode(packed.tobytes()).decode("ascii")
    return {"literals": [word.decode("latin-1") for word in compiled[0]], "nodes": nodes}


def _entry(pattern: str) -> dict:
    """The pattern's program as the table writes it (``_written``) and its ``starts`` as ASCII
    strings (nothing for None)."""
    compiled, firsts = program(required(pattern)), starts(pattern)
    entry = _written(compiled)
    if firsts is not None:
        entry["starts"] = [word.decode("ascii") for word in firsts]
    return entry


def _loaded(entry: dict):
    """A program as ``_written`` wrote it, its nodes in an ``array('H')`` (or ``array('i')``
    when written as a list); None for TRUE."""
    if "nodes" not in entry:
        return None
    nodes = entry["nodes"]
    if isinstance(nodes, str):
        nodes = array("H", base64.b64decode(nodes, validate=True))
        if sys.byteorder == "big":
            nodes.byteswap()
    else:
        nodes = array("i", nodes)
    return [word.encode("latin-1") for word in entry["literals"]], nodes


def _loaded_starts(entry: dict) -> list[bytes] | None:
    """The ``starts`` as ``_entry`` wrote them; None when it wrote none."""
    if "starts" not in entry:
        return None
    return [word.encode("ascii") for word in entry["starts"]]


def table(patterns: dict[str, str], split: frozenset | set = frozenset()) -> dict:
    """The table of ``rule_formulas.json`` for ``{rule name: pattern}``: per rule its pattern
    key and program, and its starts (``_entry``) unless it is named in ``split`` (the unguarded
    rules: where each part of their searches can start ships in ``PARTS_PATH``); for those,
    where their ``alternatives`` start (``"at"``: splitting a pattern again cost ~16 ms of a
    process's first sanitize) and, when there are several, each alternative's program
    (``"alternatives"``)."""
    rules = {}
    for name, pattern in patterns.items():
        entry = {"pattern": pattern_key(pattern), **_entry(pattern)}
        if name in split:
            entry.pop("starts", None)
            entry["at"] = _alternative_starts(pattern)
            parts = _parts(pattern, entry["at"])
            if len(parts) > 1:
                entry["alternatives"] = [_written(program(required(part))) for part in parts]
        rules[name] = entry
    return {"max_literal": MAX_LITERAL, "rules": rules}


def unicode_table(patterns: dict[str, str]) -> dict:
    """The table of ``rule_formulas_unicode.json``: per rule its pattern key and the program
    of ``required(pattern, unicode=True)`` with literals cut to ``UNICODE_MAX_LITERAL`` bytes
    (what non-ASCII views are checked against)."""
    return {"max_literal": UNICODE_MAX_LITERAL,
            "rules": {name: {"pattern": pattern_key(pattern),
                             **_written(program(required(pattern, unicode=True),
                                                UNICODE_MAX_LITERAL))}
                      for name, pattern in patterns.items()}}


def load_table(path: Path = TABLE_PATH, max_literal: int = MAX_LITERAL) -> dict[str, tuple]:
    """The rules of the table at ``path`` (``TABLE_PATH`` or ``UNICODE_TABLE_PATH``), each as
    ``(pattern key, program or None, alternatives' programs or None, starts or None, where the
    alternatives start or None)``, nodes in arrays
    (``_loaded``: compact, the table stays loaded). An empty dict when the file is missing,
    unreadable or made for another ``max_literal`` (``UNICODE_MAX_LITERAL`` for the unicode
    table): every program is then derived."""
    try:
        data = _ascii_json(path)
        if not isinstance(data, dict) or data.get("max_literal") != max_literal:
            return {}
        return {name: (entry["pattern"], _loaded(entry),
                       [_loaded(part) for part in entry["alternatives"]]
                       if "alternatives" in entry else None,
                       _loaded_starts(entry),
                       [int(a) for a in entry["at"]] if "at" in entry else None)
                for name, entry in data["rules"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def load_phrase_tables(path: Path = TRIES_PATH) -> tuple[dict[str, str], dict[str, list[str]]]:
    """The phrase-trie regexes (``ckn.sanitizer._alt``'s) and pre-filter words
    (``ckn.sanitizer._list_anchors``') of ``TRIES_PATH``, each by ``pattern_key`` of its
    phrase list; two empty dicts when the file is missing or unreadable: every trie and word
    set is then worked out."""
    try:
        data = _ascii_json(path)
        tries, anchors = data["tries"], data["anchors"]
        if (isinstance(tries, dict) and all(isinstance(v, str) for v in tries.values())
                and isinstance(anchors, dict) and all(
                    isinstance(v, list) and all(isinstance(w, str) for w in v)
                    for v in anchors.values())):
            return tries, anchors
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return {}, {}


def program_for(name: str, pattern: str, rules: dict[str, tuple], *, unicode: bool = False):
    """``program(required(pattern))``, or with ``unicode`` ``program(required(pattern,
    unicode=True), UNICODE_MAX_LITERAL)``, from the loaded table (``TABLE_PATH``'s, or
    ``UNICODE_TABLE_PATH``'s) when its entry for ``name`` was made from this very pattern."""
    entry = rules.get(name)
    if entry is not None and entry[0] == pattern_key(pattern):
        return entry[1]
    if unicode:
        return program(required(pattern, unicode=True), UNICODE_MAX_LITERAL)
    return program(required(pattern))


def _alternatives_of(name: str, pattern: str, rules: dict[str, tuple]) -> list[str]:
    """``alternatives(pattern)``, where the loaded table's entry for ``name``, made from this
    very pattern, says they start."""
    entry = rules.get(name)
    if entry is not None and len(entry) == 5 and entry[4] and entry[0] == pattern_key(pattern):
        return _parts(pattern, entry[4])
    return alternatives(pattern)


def alternatives_for(name: str, pattern: str, rules: dict[str, tuple]) -> list[tuple]:
    """``(alternative, program)`` for each of ``alternatives(pattern)`` (one pair, the whole
    pattern's, when it has one), the programs from the loaded table when its entry for
    ``name`` was made from this very pattern with its alternatives."""
    parts = _alternatives_of(name, pattern, rules)
    if len(parts) == 1:
        return [(pattern, program_for(name, pattern, rules))]
    entry = rules.get(name)
    if (entry is not None and entry[0] == pattern_key(pattern) and entry[2] is not None
            and len(entry[2]) == len(parts)):
        return list(zip(parts, entry[2]))
    return [(part, program(required(part))) for part in parts]


def starts_for(name: str, pattern: str, rules: dict[str, tuple]) -> list[bytes] | None:
    """``starts(pattern)``, from the loaded table when its entry for ``name`` was made from
    this very pattern."""
    entry = rules.get(name)
    if entry is not None and len(entry) >= 4 and entry[0] == pattern_key(pattern):
        return entry[3]
    return starts(pattern)
