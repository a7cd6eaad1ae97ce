"""The rules' ASCII twins give the rules' own answers on the views ``_ascii_view`` accepts.

``ckn.sanitizer`` searches plain-ASCII views with a copy of each rule compiled with
``re.ASCII`` (its ``\\w``, ``\\b`` and ``\\d`` read a byte table instead of the Unicode
database). On ASCII text the two differ only in ``\\s``, which under Unicode also matches FS,
GS, RS and US (``\\x1c``-``\\x1f``); ``_ascii_view`` sends views holding those to the rules
themselves. These tests hold every rule to that: the same match spans on every ASCII view of
the rule examples and the labelled corpora, and on random ASCII text built from rule words and
every ASCII character.
"""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ckn import sanitizer as _sanitizer
from ckn.sanitizer import RULES, sanitize_text

CORPORA = sorted((Path(__file__).parent / "data").glob("injection_*.jsonl"))


def _ascii_views() -> list[str]:
    lines = [example for rule in RULES for example in rule.examples]
    for path in CORPORA:
        with path.open(encoding="utf-8") as f:
            lines.extend(json.loads(line)["text"] for line in f if line.strip())
    views = set()
    for line in lines:
        for segment in _sanitizer._segments(line):
            views.update(v for v in _sanitizer.normalized_views(segment) if v.isascii())
    return sorted(views)


VIEWS = _ascii_views()


def _spans(regex, view: str) -> list[tuple[int, int]]:
    return [m.span() for m in regex.finditer(view)]


@pytest.mark.parametrize("index", range(len(RULES)), ids=[r.name for r in RULES])
def test_each_twin_finds_what_its_rule_finds_on_the_examples_and_corpora(index):
    plain, twin = _sanitizer._regex(index), _sanitizer._regex(index, True)
    checked = 0
    for view in VIEWS:
        if _sanitizer._ascii_view(view):
            assert _spans(plain, view) == _spans(twin, view), view
            checked += 1
    assert checked > 1000


_WORDS = sorted({w for rule in RULES for example in rule.examples if example.isascii()
                 for w in example.lower().split()})
_PIECE = (st.sampled_from(_WORDS) | st.sampled_from([chr(c) for c in range(128)])
          | st.sampled_from([" ", "  ", "\t", "\n", "_", "0", "9", "://", "<|", "|>", "#"]))


@settings(max_examples=150, deadline=None)
@given(st.lists(_PIECE, max_size=40).map(" ".join))
def test_twins_find_what_the_rules_find_on_random_ascii_text(view):
    if not _sanitizer._ascii_view(view):  # FS, GS, RS or US: the rules themselves are used
        assert any(c in view for c in "\x1c\x1d\x1e\x1f")
        return
    for index in range(len(RULES)):
        assert _spans(_sanitizer._regex(index), view) == _spans(_sanitizer._regex(index, True),
                                                                view), (RULES[index].name, view)


def test_views_with_unicode_only_spaces_are_left_to_the_rules():
    # Under Unicode \s matches FS/GS/RS/US and under ASCII it does not: such views must not
    # reach the twins (here a role heading whose spaces are RS: only the rule matches it).
    view = "###\x1esystem:"
    index = next(i for i, r in enumerate(RULES) if r.name == "role_heading")
    assert _sanitizer._regex(index).search(view) and not _sanitizer._regex(index, True).search(view)
    assert not _sanitizer._ascii_view(view)
    assert _sanitizer._ascii_view("### system:") and not _sanitizer._ascii_view("système")
    for line in ["### system:".replace(" ", sep) for sep in "\x1c\x1d\x1e\x1f"]:
        assert sanitize_text(line) == sanitize_text(line, prefilter=False)
        assert sanitize_text(line).redactions
