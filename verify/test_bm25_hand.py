"""BM25 (spec §5) against the hand computation of verify/README.md and against bm25s."""

import math

import pytest

from ckn.bm25 import bm25_scores
from ckn.terms import terms
from verify.checks import (HAND_CORPUS, HAND_DECIMALS, HAND_QUERY, bm25_reference,
                           check_bm25_hand, check_bm25_pools, hand_bm25_expected)

DOCS = [terms(t) for t in HAND_CORPUS]
QUERY = terms(HAND_QUERY)


def test_hand_case_inputs_are_what_the_doc_says():
    assert [len(d) for d in DOCS] == [4, 8, 2, 6]          # avgdl = 20 / 4 = 5
    assert QUERY == ["cat", "dog", "mat"]
    assert [sum(1 for d in DOCS if t in d) for t in QUERY] == [3, 2, 1]


def test_hand_case_step_by_step():
    k1, b, N, avgdl = 1.5, 0.75, 4, 5.0
    idf = {t: math.log(1 + (N - n + 0.5) / (n + 0.5)) for t, n in (("cat", 3), ("dog", 2), ("mat", 1))}
    assert idf["cat"] == pytest.approx(math.log(10 / 7), abs=1e-15)
    assert idf["dog"] == pytest.approx(math.log(2), abs=1e-15)
    assert idf["mat"] == pytest.approx(math.log(10 / 3), abs=1e-15)
    K = [k1 * (1 - b + b * len(d) / avgdl) for d in DOCS]
    assert K == pytest.approx([1.275, 2.175, 0.825, 1.725], abs=1e-15)
    got = bm25_scores(DOCS, QUERY, k1=k1, b=b)
    for s, e, dec in zip(got, hand_bm25_expected(), HAND_DECIMALS):
        assert abs(s - e) <= 1e-12
        assert abs(s - dec) <= 1e-12


def test_hand_case_check_passes_and_a_wrong_bm25_fails_it():
    assert check_bm25_hand()["ok"]

    def no_plus_one_idf(docs, query, *, k1, b):  # the classic Robertson IDF slip
        N = len(docs)
        avgdl = sum(map(len, docs)) / N
        out = []
        for d in docs:
            s = 0.0
            for t in dict.fromkeys(query):
                f = d.count(t)
                if f:
                    n = sum(t in x for x in docs)
                    s += math.log((N - n + 0.5) / (n + 0.5)) * f * (k1 + 1) / (
                        f + k1 * (1 - b + b * len(d) / avgdl))
            out.append(s)
        return out

    assert not check_bm25_hand(bm25=no_plus_one_idf)["ok"]


def test_reference_edge_cases():
    assert bm25_reference([], ["a"]) == []
    assert bm25_reference([[], []], ["a"]) == [0.0, 0.0]
    assert bm25_scores([[], []], ["a"]) == [0.0, 0.0]
    # A repeated query term counts once.
    assert bm25_scores(DOCS, QUERY + ["cat"]) == bm25_scores(DOCS, QUERY)


def test_random_pools_against_reference_and_bm25s():
    pytest.importorskip("bm25s")
    r = check_bm25_pools(3, 200)
    assert r["pools"] == 200 and r["compared_with_bm25s"] >= 190
    assert r["ok"], r["failures"]
    assert r["max_err_bm25s"] <= 1e-9 and r["max_err_reference"] <= 1e-9
