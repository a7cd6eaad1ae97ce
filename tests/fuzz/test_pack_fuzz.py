"""Fuzzing ``ckn.pack`` against the pure-Python reference (tests/reference.py).

Hostile shapes on purpose: huge token counts and budgets (up to 2**63 − 1), empty and
whitespace-only texts, the redaction marker with surrounding whitespace, zero and opposite
vectors, duplicate texts. A few hundred examples by default; ``pytest -m slow`` runs thousands.
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ckn
from reference import MARKER, pack_reference

WORDS = "alarm retry budget sqlite durable object cpu backoff storage limit the a of".split()
INT64_MAX = 2**63 - 1

line = st.one_of(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=12).map(" ".join),
    st.sampled_from(["", "   ", "\t", MARKER, f"  {MARKER}  ", f"\t{MARKER}"]))
text = st.lists(line, max_size=5).map("\n".join)
token_count = st.one_of(st.integers(0, 60), st.integers(2**62, INT64_MAX))
vector = st.one_of(st.just([0.0, 0.0, 0.0]),
                   st.lists(st.integers(-3, 3).map(float), min_size=3, max_size=3))


@st.composite
def pools(draw):
    n = draw(st.integers(1, 9))
    texts = draw(st.lists(text, min_size=n, max_size=n))
    if n > 1 and draw(st.booleans()):
        texts[-1] = texts[0]  # an exact duplicate
    candidates = [{"id": f"c{i}", "text": t, "tokens": draw(token_count)}
                  for i, t in enumerate(texts)]
    pool = {"query": "alarm retry budget", "candidates": candidates,
            "token_budget": draw(st.one_of(st.integers(0, 150), st.integers(2**62, INT64_MAX)))}
    if draw(st.booleans()):
        pool["query_embedding"] = draw(vector)
        for c in candidates:
            if draw(st.integers(0, 4)):
                c["embedding"] = draw(vector)
    return pool


def check(pool, power):
    result = ckn.pack(pool, relevance_power=power)
    ranked = ckn.rank(pool)
    index = {c["id"]: i for i, c in enumerate(pool["candidates"])}
    texts = [c["text"] for c in pool["candidates"]]
    tokens = [c["tokens"] for c in pool["candidates"]]
    empty, duplicates, selected = pack_reference(
        [(index[c.id], c.bm25_rank, c.dense_rank) for c in ranked.chunks], texts, tokens,
        pool["token_budget"], dense="query_embedding" in pool, power=power, terms=ckn.terms)
    ids = [c["id"] for c in pool["candidates"]]
    by_status = {}
    for c in result.chunks:
        by_status.setdefault(c.status, set()).add(c.id)
    assert by_status.get("dropped_empty", set()) == {ids[i] for i in empty}
    assert by_status.get("dropped_duplicate", set()) == {ids[i] for i in duplicates}
    order = ranked.ranked_ids
    assert result.receipt["selected_ids"] == [i for i in order if i in {ids[k] for k in selected}]
    assert result.receipt["total_tokens"] == sum(tokens[k] for k in selected) <= pool["token_budget"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pools(), st.sampled_from([1.0, 8.0]))
def test_pack_matches_the_reference(pool, power):
    check(pool, power)


@pytest.mark.slow
@settings(max_examples=4000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pools(), st.sampled_from([0.0, 1.0, 2.0, 8.0, 12.0]))
def test_pack_matches_the_reference_long(pool, power):
    check(pool, power)
