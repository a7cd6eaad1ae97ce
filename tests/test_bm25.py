"""ckn.bm25: Okapi BM25 with the Lucene IDF (spec §5)."""

import math
import random
import tracemalloc
from array import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ckn import CknTypeError, CknValueError
from ckn.bm25 import bm25_scores, bm25_scores_hashed
from ckn.scanner import scan, text_hashes
from ckn.terms import terms
from reference import bm25_reference

TERM = st.sampled_from(["a", "b", "c", "d", "e", "東京"])
DOCS = st.lists(st.lists(TERM, max_size=12), max_size=8)
QUERY = st.lists(st.sampled_from(["a", "b", "c", "d", "e", "東京", "zz"]), max_size=6)
K1 = st.floats(min_value=0.0, max_value=5.0)
B = st.floats(min_value=0.0, max_value=1.0)


def test_hand_computed_case():
    # N = 2, avgdl = 3; n_x = 1 → idf = ln 2; n_y = 2 → idf = ln 1.2.
    # d0 (|d| = 2): k1·(1 − b + b·2/3) = 1.125, each term f = 1 → ·2.5/2.125 = ·20/17.
    # d1 (|d| = 4): k1·(1 − b + b·4/3) = 1.875, y has f = 2 → ·5/3.875 = ·40/31.
    scores = bm25_scores([["x", "y"], ["y", "y", "z", "w"]], ["x", "y"])
    assert scores[0] == pytest.approx((math.log(2) + math.log(1.2)) * 20 / 17, rel=1e-14)
    assert scores[1] == pytest.approx(math.log(1.2) * 40 / 31, rel=1e-14)


@given(DOCS, QUERY, K1, B)
def test_matches_reference(documents, query, k1, b):
    got = bm25_scores(documents, query, k1=k1, b=b)
    want = bm25_reference(documents, query, k1=k1, b=b)
    assert got == pytest.approx(want, rel=1e-12, abs=1e-12)


@given(DOCS, QUERY, st.randoms(use_true_random=False))
def test_document_permutation_permutes_scores_exactly(documents, query, rnd):
    order = list(range(len(documents)))
    rnd.shuffle(order)
    scores = bm25_scores(documents, query)
    assert bm25_scores([documents[i] for i in order], query) == [scores[i] for i in order]


@given(DOCS, QUERY)
def test_repeated_query_terms_count_once(documents, query):
    assert bm25_scores(documents, query + query) == bm25_scores(documents, query)


@given(DOCS, QUERY)
def test_scores_are_non_negative_and_zero_without_matches(documents, query):
    for doc, score in zip(documents, bm25_scores(documents, query)):
        assert score >= 0.0
        assert (score > 0.0) == any(t in doc for t in query)


def test_more_occurrences_score_higher_at_equal_length():
    docs = [["a", "b", "c"], ["a", "a", "c"], ["a", "a", "a"]]
    s = bm25_scores(docs, ["a"])
    assert s[0] < s[1] < s[2]


def test_b_zero_ignores_length_and_b_one_penalises_it():
    docs = [["a"], ["a", "x", "y", "z", "w"]]
    flat = bm25_scores(docs, ["a"], b=0.0)
    assert flat[0] == flat[1]
    normalised = bm25_scores(docs, ["a"], b=1.0)
    assert normalised[0] > normalised[1]


def test_k1_zero_is_binary_idf():
    docs = [["a", "a", "a", "b"], ["a", "c"], ["c"]]
    idf_a = math.log(1 + (3 - 2 + 0.5) / (2 + 0.5))
    assert bm25_scores(docs, ["a"], k1=0) == [idf_a, idf_a, 0.0]


def test_empty_inputs():
    assert bm25_scores([], ["a"]) == []
    assert bm25_scores([[], []], ["a"]) == [0.0, 0.0]  # avgdl = 0
    assert bm25_scores([["a"], []], []) == [0.0, 0.0]
    assert bm25_scores([["a"], ["b"]], ["zz"]) == [0.0, 0.0]


def test_accepts_tuples_and_generators_of_query_terms():
    docs = [("a", "b"), ("b",)]
    assert bm25_scores(docs, iter(["a"])) == bm25_scores([list(d) for d in docs], ["a"])


def test_terms_feed_bm25_and_cjk_is_searchable():
    texts = ["東京タワーの高さ", "大阪城の歴史", "Tokyo tower height"]
    scores = bm25_scores([terms(t) for t in texts], terms("東京タワー"))
    assert scores[0] > 0.0
    assert scores[1] == scores[2] == 0.0


@pytest.mark.parametrize(
    "kwargs",
    [{"k1": -0.1}, {"k1": math.inf}, {"k1": math.nan}, {"k1": True}, {"k1": "1.5"},
     {"b": -0.01}, {"b": 1.01}, {"b": math.nan}, {"b": None}],
)
def test_rejects_bad_parameters(kwargs):
    with pytest.raises(CknValueError, match=next(iter(kwargs))):
        bm25_scores([["a"]], ["a"], **kwargs)


def test_rejects_strings_where_terms_are_expected():
    with pytest.raises(CknTypeError, match="query"):
        bm25_scores([["a"]], "a b")
    with pytest.raises(CknTypeError, match=r"documents\[1\]"):
        bm25_scores([["a"], "a b"], ["a"])


def test_large_pool_matches_reference():
    rnd = random.Random(7)
    vocab = [f"w{i}" for i in range(50)]
    docs = [[rnd.choice(vocab) for _ in range(rnd.randrange(0, 40))] for _ in range(60)]
    query = rnd.sample(vocab, 5)
    assert bm25_scores(docs, query) == pytest.approx(bm25_reference(docs, query), rel=1e-12)


def test_matches_bm25s_lucene_up_to_its_constant_factor():
    # bm25s "lucene" follows Lucene >= 8, which drops the constant (k1 + 1) from the numerator;
    # spec §5 keeps it. Same ranking, scores differ by exactly that factor.
    bm25s = pytest.importorskip("bm25s")
    rnd = random.Random(11)
    vocab = [f"w{i}" for i in range(30)]
    docs = [[rnd.choice(vocab) for _ in range(rnd.randrange(1, 30))] for _ in range(40)]
    query = rnd.sample(vocab, 4)
    retriever = bm25s.BM25(method="lucene", k1=1.5, b=0.75)
    retriever.index(docs, show_progress=False)
    assert bm25_scores(docs, query) == pytest.approx(
        [2.5 * float(x) for x in retriever.get_scores(query)], rel=1e-5
    )


# ----------------------------------------------------------------------------- compiled kernel

WIDE_TERM = st.integers(0, 60).map(lambda i: f"t{i}")


@settings(max_examples=200)
@given(st.lists(st.lists(WIDE_TERM, max_size=80), max_size=12),
       st.lists(st.integers(0, 70).map(lambda i: f"t{i}"), max_size=70), K1, B)
def test_hashed_kernel_equals_python_bit_for_bit(documents, query, k1, b):
    # Documents with up to 60 distinct query terms each: their postings are sorted by insertion
    # (short) or qsort (long); the sums must be the Python ones exactly, not approximately.
    texts = [" ".join(doc) for doc in documents]
    got = bm25_scores_hashed(scan(texts), text_hashes(" ".join(query)), k1=k1, b=b)
    assert got == bm25_scores([terms(t) for t in texts], terms(" ".join(query)), k1=k1, b=b)


def test_hashed_kernel_memory_follows_the_pool_not_documents_times_query_terms():
    # 2,000 documents and a 50,000-term query: a documents x query-terms table would be 800 MB;
    # the postings and the query's tables stay in a few MB.
    rng = random.Random(5)
    texts = [" ".join(f"w{rng.randint(0, 80_000)}" for _ in range(40)) for _ in range(2_000)]
    query = array("Q", dict.fromkeys(text_hashes(" ".join(f"w{i}" for i in range(50_000)))))
    pool = scan(texts)
    tracemalloc.start()
    try:
        scores = bm25_scores_hashed(pool, query)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 24 * 2**20, peak
    wanted = set(f"w{i}" for i in range(50_000))
    assert [s > 0 for s in scores] == [any(t in wanted for t in text.split()) for text in texts]


def test_hashed_kernel_with_many_postings_equals_python_bit_for_bit():
    # 1,000 documents each matching ~15 of a 500-term query: ~15,000 postings, past the
    # kernel's first allocation (4,096), so the buffer grows while documents are read.
    rng = random.Random(9)
    texts = [" ".join(f"w{rng.randint(0, 1_000)}" for _ in range(30)) for _ in range(1_000)]
    query = " ".join(f"w{i}" for i in range(0, 1_000, 2))
    got = bm25_scores_hashed(scan(texts), text_hashes(query))
    assert got == bm25_scores([terms(t) for t in texts], terms(query))
