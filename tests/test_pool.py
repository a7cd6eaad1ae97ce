"""ckn.pool: validation of the JSON-shaped pool (spec §3), the inputs users have (candidate
metadata carried through, one 2-D embeddings matrix), and its compiled one-pass path
(ckn/_columns.pyx) against the plain-Python checks."""

import array
import ctypes
import json
import math

import pytest
from fastpaths import ANY_COMPONENT, ANY_FLOAT32, columns, outcome, without_dense
from hypothesis import given, settings
from hypothesis import strategies as st

import ckn
from ckn import InputError, InputTypeError, _columns, similarity
from ckn import pool as pool_module
from ckn.similarity import score_fallback


def test_metadata_is_carried_through_unchanged_and_never_read():
    pool = ckn.example_pool()
    meta = [{"source": f"doc{i}", "page": i, "nested": {"a": [1, 2]}}
            for i in range(len(pool["candidates"]))]
    for c, m in zip(pool["candidates"], meta):
        c["metadata"] = m
    result = ckn.pack(pool)
    assert result.receipt == ckn.pack(ckn.example_pool()).receipt
    for c in result.chunks:
        assert c.metadata is meta[c.index]
    explained = {c["id"]: c["metadata"] for c in result.explain()["chunks"]}
    assert explained["chunk.alarm-retry-spec"] == meta[0]
    assert all(c.metadata is None for c in ckn.pack(ckn.example_pool()).chunks)


def test_metadata_must_be_an_object():
    pool = ckn.example_pool()
    pool["candidates"][2]["metadata"] = [1, 2]
    with pytest.raises(ckn.InputTypeError, match=r"candidates\[2\]\.metadata: expected an object"):
        ckn.pack(pool)


@pytest.mark.parametrize("typecode", ["f", "d"])
def test_an_embeddings_matrix_equals_per_candidate_embeddings(typecode):
    np = pytest.importorskip("numpy")
    pool = ckn.example_pool()
    rows = [c.pop("embedding") for c in pool["candidates"]]
    matrix = np.array(rows, dtype={"f": np.float32, "d": np.float64}[typecode])
    by_matrix = ckn.pack(pool, embeddings=matrix)
    reference = ckn.example_pool()
    for c, row in zip(reference["candidates"], matrix):
        c["embedding"] = array.array(typecode, row.tolist())
    assert by_matrix.receipt == ckn.pack(reference).receipt
    assert [c.dense_score for c in by_matrix.chunks] == [
        c.dense_score for c in ckn.pack(reference).chunks]


def test_an_embeddings_matrix_is_checked():
    np = pytest.importorskip("numpy")
    pool = ckn.example_pool()
    matrix = np.array([c["embedding"] for c in pool["candidates"]], dtype=np.float32)
    with pytest.raises(ckn.InputError, match="given twice"):
        ckn.pack(pool, embeddings=matrix)
    for c in pool["candidates"]:
        del c["embedding"]
    with pytest.raises(ckn.InputError, match="expected 5 rows"):
        ckn.pack(pool, embeddings=matrix[:3])
    with pytest.raises(ckn.InputTypeError, match="2-D float32 or float64"):
        ckn.pack(pool, embeddings=matrix.astype(np.int32))
    with pytest.raises(ckn.InputTypeError, match="2-D float32 or float64"):
        ckn.pack(pool, embeddings=[[0.1] * 4] * 5)
    json.dumps(ckn.pack(pool, embeddings=matrix).receipt)


def test_trusted_corpora_can_turn_sanitizing_and_dedup_off():
    pool = ckn.example_pool()
    pool["candidates"].append({"id": "blank", "tokens": 0, "text": "  \n "})
    plain = ckn.pack(pool, sanitize=False)
    assert plain.receipt["sanitized_chunk_ids"] == []
    note = {c.id: c for c in plain.chunks}["chunk.injected-note"]
    original = next(c["text"] for c in pool["candidates"] if c["id"] == "chunk.injected-note")
    assert note.text == original and note.redactions == ()
    assert set(plain.receipt["dropped_chunk_ids"]) == {"chunk.alarm-retry-dup", "blank"}
    kept = ckn.pack(pool, dedup=False)
    assert set(kept.receipt["dropped_chunk_ids"]) == {"chunk.pure-injection", "blank"}
    assert all(c.overlap == 0.0 for c in kept.chunks if c.overlap is not None)
    assert kept.explain()["parameters"]["dedup"] is False
    assert plain.explain()["parameters"]["sanitize"] is False
    assert ckn.pack(pool).receipt == ckn.pack(pool, sanitize=True, dedup=True).receipt


# --- pool validation: one compiled pass == the Python checks -----------------------------------

BAD_NUMBER = st.sampled_from([math.nan, math.inf, -math.inf, True, False, "1", None, [1.0],
                              {"a": 1}, 2**1100, -2**1100, 10**400, b"x"])
GOOD_NUMBER = (st.floats(allow_nan=False, allow_infinity=False) | st.integers(-2**70, 2**70)
               | st.sampled_from([0.0, -0.0, 5e-324, 1e-300, 1e300, 2**53 + 1]))


@st.composite
def raw_pools(draw):
    dim = draw(st.integers(1, 4))
    with_qe = draw(st.booleans())
    n = draw(st.integers(0, 5))
    candidates = []
    for i in range(n):
        c = {"id": f"c{i}", "tokens": draw(st.integers(0, 50)), "text": draw(st.text(max_size=8))}
        kind = draw(st.sampled_from(["list", "list", "none", "absent", "bad", "short", "long",
                                     "tuple", "array", "ints", "array_bad", "array_short",
                                     "float32", "float32_bad", "ctypes_f", "ctypes_f_be",
                                     "view", "ctypes", "ctypes_be", "strided", "matrix"]))
        vec = draw(st.lists(GOOD_NUMBER, min_size=dim, max_size=dim))
        if kind == "list":
            c["embedding"] = vec
        elif kind == "none":
            c["embedding"] = None
        elif kind == "bad":
            vec[draw(st.integers(0, dim - 1))] = draw(BAD_NUMBER)
            c["embedding"] = vec
        elif kind == "short":
            c["embedding"] = vec[:-1]
        elif kind == "long":
            c["embedding"] = vec + [1.0]
        elif kind == "tuple":
            c["embedding"] = tuple(vec)
        elif kind == "array":
            c["embedding"] = array.array("d", [float(x) for x in vec]) if all(
                abs(x) < 1e308 for x in vec) else vec
        elif kind == "array_bad":  # a non-finite value in a double buffer
            c["embedding"] = array.array("d", [0.5] * dim)
            c["embedding"][draw(st.integers(0, dim - 1))] = draw(st.sampled_from([math.nan, math.inf]))
        elif kind == "array_short":
            c["embedding"] = array.array("d", [0.5] * (dim - 1))
        elif kind == "float32":  # float32 values (subnormals, extremes), widened exactly
            c["embedding"] = array.array("f", draw(st.lists(ANY_FLOAT32, min_size=dim, max_size=dim)))
        elif kind == "float32_bad":  # a non-finite value in a float32 buffer
            c["embedding"] = array.array("f", [0.5] * dim)
            c["embedding"][draw(st.integers(0, dim - 1))] = draw(st.sampled_from([math.nan, -math.inf]))
        elif kind in ("ctypes_f", "ctypes_f_be"):  # formats "<f" / ">f" (the Python path)
            single = ctypes.c_float if kind == "ctypes_f" else ctypes.c_float.__ctype_be__
            c["embedding"] = (single * dim)(*draw(st.lists(ANY_FLOAT32, min_size=dim, max_size=dim)))
        elif kind == "view":  # a C-contiguous double buffer that is not an array
            c["embedding"] = memoryview(array.array("d", [0.5 * k for k in range(dim)]))
        elif kind in ("ctypes", "ctypes_be"):  # formats "<d" / ">d", maybe a non-finite value
            double = ctypes.c_double if kind == "ctypes" else ctypes.c_double.__ctype_be__
            c["embedding"] = (double * dim)(*[0.25 * k for k in range(dim)])
            if draw(st.booleans()):
                c["embedding"][draw(st.integers(0, dim - 1))] = draw(st.sampled_from([math.nan, -math.inf]))
        elif kind == "strided":  # not C-contiguous
            c["embedding"] = memoryview(array.array("d", [0.5] * (2 * dim)))[::2]
        elif kind == "matrix":  # 2-D, one row
            c["embedding"] = memoryview(array.array("d", [0.5] * dim)).cast("B").cast("d", [1, dim])
        elif kind == "ints":
            c["embedding"] = [draw(st.integers(-3, 3)) for _ in range(dim)]
        mutation = draw(st.integers(0, 30))
        if mutation == 0:
            c["tokens"] = draw(st.sampled_from([-1, True, 2.0, "3", None, 2**80]))
        elif mutation == 1:
            c["id"] = draw(st.sampled_from(["", 3, None, "c0"]))
        elif mutation == 2:
            c.pop(draw(st.sampled_from(["id", "tokens", "text"])))
        elif mutation == 3:
            c["text"] = draw(st.sampled_from([None, b"x", 3]))
        elif mutation == 4:
            c = draw(st.sampled_from([None, "c", 7, [c]]))
        candidates.append(c)
    pool = {"query": "q", "candidates": candidates, "token_budget": 10}
    if with_qe:  # as a list or as a buffer (float64_array's two paths)
        pool["query_embedding"] = draw(st.sampled_from([
            [1.0] * dim, array.array("d", [1.0] * dim), (ctypes.c_double * dim)(*[1.0] * dim),
            (ctypes.c_double.__ctype_be__ * dim)(*[1.0] * dim), array.array("f", [1.0] * dim),
            array.array("f", [0.1] * dim), array.array("f", [1.0] * (dim - 1) + [math.nan]),
            array.array("d", [1.0] * (dim - 1) + [math.inf])]))
    return pool


@given(raw_pools())
@settings(max_examples=400)
def test_pool_columns_fast_path_equals_python(pool):
    want = without_dense(pool_module, columns, pool)
    got = outcome(columns, pool)
    assert repr(got) == repr(want)  # repr: -0.0 vs 0.0, exact digits, error texts


@given(raw_pools())
@settings(max_examples=150)
def test_parse_pool_fast_path_equals_python(pool):
    got = outcome(pool_module.parse_pool, pool)
    want = without_dense(pool_module, pool_module.parse_pool, pool)
    assert repr(got) == repr(want)
    if got[0] == "ok":
        assert got == want
        for c in got[1].candidates:
            assert list(vars(c)) == ["id", "tokens", "text", "embedding"]
            assert c.embedding is None or c.embedding.typecode == "d"


@pytest.mark.parametrize("bad, error, message", [
    (math.nan, InputError, "candidates[1].embedding[2]: expected a finite number, got nan"),
    (math.inf, InputError, "candidates[1].embedding[2]: expected a finite number, got inf"),
    (True, InputTypeError, "candidates[1].embedding[2]: expected a number, got a boolean"),
    ("x", InputTypeError, "candidates[1].embedding[2]: expected a number, got a string"),
    ([1.0], InputTypeError, "candidates[1].embedding[2]: expected a number, got an array"),
    (10**400, InputError, "candidates[1].embedding: a number is too large for a double"),
])
def test_bad_embedding_values_give_the_python_errors(bad, error, message):
    pool = {"query": "q", "query_embedding": [1.0, 0.0, 0.0], "token_budget": 5,
            "candidates": [{"id": "a", "tokens": 1, "text": "x", "embedding": [1.0, 2.0, 3.0]},
                           {"id": "b", "tokens": 1, "text": "y", "embedding": [1.0, 2.0, bad]}]}
    for run in (lambda: outcome(columns, pool), lambda: without_dense(pool_module, columns, pool)):
        assert run() == (error, message)
    pool["candidates"][1]["embedding"] = [1.0, 2.0]
    wrong = (InputError, "candidates[1].embedding: expected 3 numbers (the length of "
                         "query_embedding), got 2")
    assert outcome(columns, pool) == without_dense(pool_module, columns, pool) == wrong


def test_fast_columns_hold_exactly_the_floats():
    floats = [0.1, -0.0, 5e-324, 1.7976931348623157e308, -2.5, 3]
    assert _columns.candidate_columns(
        [{"id": "a", "tokens": 0, "text": "", "embedding": floats}, {"id": "b", "tokens": 2,
                                                                    "text": "t"}], 6) == (
        ["a", "b"], [0, 2], ["", "t"], [array.array("d", [float(x) for x in floats]), None])
    # Anything unusual goes to the Python checks: subclasses, tuples, duplicates, no embedding
    # dimension.
    class D(dict):
        pass
    for raw, dim in [([D(id="a", tokens=0, text="")], 0), ((), 0),
                     ([{"id": "a", "tokens": 0, "text": ""}] * 2, 0),
                     ([{"id": "a", "tokens": 0, "text": "", "embedding": [1.0]}], 0),
                     ([{"id": "a", "tokens": 0, "text": "", "embedding": (1.0,)}], 1)]:
        assert _columns.candidate_columns(raw, dim) is None


@pytest.mark.parametrize("tokens", [0, 1, 256, 257, 180_000, 2**63 - 1, 2**63, 10**30])
def test_fast_columns_keep_every_token_count(tokens):
    # The counts come back as new ints of the same value (the fast pass stays taken for counts
    # beyond int64 too); a negative count, even beyond int64, is left to the Python checks.
    raw = [{"id": "a", "tokens": tokens, "text": "x"}, {"id": "b", "tokens": 7, "text": "y"}]
    got = _columns.candidate_columns(raw, 0)
    assert got is not None and got[1] == [tokens, 7]
    assert all(type(t) is int for t in got[1])
    raw[0]["tokens"] = -1 - tokens
    assert _columns.candidate_columns(raw, 0) is None
    assert outcome(columns, {"query": "q", "token_budget": 5, "candidates": raw})[0] is InputError


def test_double_buffers_are_copied_exactly_above_the_nogil_threshold():
    # 70 x 1,024 values: the buffers are checked and copied in one pass without the GIL.
    dim = 1024
    rows = [[(k * dim + i) * 0.125 - 3.0 for i in range(dim)] for k in range(70)]
    raw = [{"id": f"c{k}", "tokens": k, "text": "t",
            "embedding": array.array("d", r) if k % 2 else (ctypes.c_double * dim)(*r)}
           for k, r in enumerate(rows)]
    got = _columns.candidate_columns(raw, dim)
    assert [e.tolist() for e in got[3]] == rows
    raw[69]["embedding"][dim - 1] = math.nan   # the very last value
    assert _columns.candidate_columns(raw, dim) is None
    pool = {"query": "q", "query_embedding": [1.0] * dim, "token_budget": 5, "candidates": raw}
    assert outcome(columns, pool) == (
        InputError, f"candidates[69].embedding[{dim - 1}]: expected a finite number, got nan")


def scored_columns(pool):
    """``_parse_columns(pool, score=score_fallback)`` as plain values: the scores where the compiled
    pass took them, else the embeddings (then the pipeline scores them)."""
    cols = pool_module._parse_columns(pool, score=score_fallback)
    return (cols.ids, cols.tokens, cols.texts, cols.dense,
            None if cols.embeddings is None else [None if e is None else e.tolist()
                                                  for e in cols.embeddings])


@given(raw_pools(), st.none() | st.lists(ANY_COMPONENT, min_size=4, max_size=4))
@settings(max_examples=300)
def test_scoring_while_validating_equals_cosine_over_the_columns(pool, values):
    # Same scores, bit for bit, as cosine_scores over the validated arrays; same errors.
    for c in pool["candidates"]:  # maybe values that need the rescaling path, zeros, subnormals
        if values and isinstance(c, dict) and isinstance(c.get("embedding"), list):
            c["embedding"] = [values[i % 4] for i in range(len(c["embedding"]))]
    got = outcome(scored_columns, pool)
    want = outcome(columns, pool)
    assert got[0] == want[0]
    if got[0] != "ok":
        assert got == want
        return
    ids, tokens, texts, dense, embeddings = got[1]
    _, query, want_ids, want_tokens, want_texts, want_embeddings, _ = want[1]
    assert (ids, tokens, texts) == (want_ids, want_tokens, want_texts)
    if dense is None:  # the compiled pass declined: the pipeline scores the arrays
        assert embeddings == [None if e is None else e[1] for e in want_embeddings]
        return
    assert embeddings is None and query is not None
    arrays = [None if e is None else array.array("d", e[1]) for e in want_embeddings]
    assert repr(dense) == repr(similarity.cosine_scores(array.array("d", query), arrays))


def scored_in_validation(raw, query):
    """The pool of ``raw`` and ``query``, after checking that validation scored it (no arrays
    made) exactly as ``cosine_scores`` scores the validated arrays; and those scores."""
    query = array.array("d", query)
    pool = {"query": "q", "query_embedding": query, "token_budget": 5, "candidates": raw}
    cols = pool_module._parse_columns(pool, score=score_fallback)
    want = similarity.cosine_scores(query, [None if c["embedding"] is None
                                            else array.array("d", c["embedding"]) for c in raw])
    assert cols.embeddings is None and repr(cols.dense) == repr(want)
    return pool, want


@pytest.mark.parametrize("dim", [3, 8, 1024])
def test_buffer_rows_at_the_ends_of_the_finite_range_are_accepted(dim):
    # The finite check reads the exponent bits: the largest doubles (exponent one below all
    # ones), -0.0 and subnormals are finite, and are scored as cosine_scores scores them (with
    # the rescaling path for squared norms out of range); inf and nan next to them are not.
    extremes = [1.7976931348623157e308, -2.0 ** 1023, 2.0 ** 1023 * 1.5, -0.0, 5e-324, 1.0]
    raw = [{"id": f"c{k}", "tokens": 1, "text": "x",
            "embedding": array.array("d", [extremes[(k + i) % len(extremes)] for i in range(dim)])}
           for k in range(300)]
    scored_in_validation(raw, [1.0 + (i % 3) for i in range(dim)])
    raw[150]["embedding"][dim - 1] = -math.inf
    assert outcome(scored_columns, {"query": "q", "query_embedding": array.array("d", [1.0] * dim),
                                    "token_budget": 5, "candidates": raw}) == (
        InputError, f"candidates[150].embedding[{dim - 1}]: expected a finite number, got -inf")


def test_scoring_reads_buffers_in_place_above_the_nogil_threshold():
    # 300 rows of 1,024 (307,200 values): checked and scored with the GIL released, float64
    # buffers in place, float32 buffers (every fourth of the lists' rows) widened first
    dim = 1024
    rows = [[((k * dim + i) % 97) * 0.125 - 3.0 for i in range(dim)] for k in range(300)]
    rows[5] = [0.0] * dim
    rows[6] = [1e300] * dim          # squared norm out of range: the Python rescaling path
    rows[200] = [-1e300] * dim
    raw = [{"id": f"c{k}", "tokens": k, "text": "t",
            "embedding": array.array("d", r) if k % 3 == 0 else (ctypes.c_double * dim)(*r)
            if k % 3 == 1 else array.array("f", r) if k % 4 == 0 and k != 200 else r}
           for k, r in enumerate(rows)]
    raw[7]["embedding"] = None
    pool, want = scored_in_validation(raw, [(i % 13) - 6.0 for i in range(dim)])
    assert want[5] == 0.0 and want[7] is None and want[6] is not None and want[200] is not None
    for k in range(0, 300, 3):
        raw[k]["embedding"].append(1.0)  # no export left behind
        raw[k]["embedding"].pop()
    raw[290]["tokens"] = -1          # invalid after two batches were scored: the exact error
    assert outcome(scored_columns, pool) == (
        InputError, "candidates[290].tokens: expected a non-negative integer, got -1")
    raw[290]["tokens"] = 290
    raw[297]["embedding"][dim - 1] = math.inf   # a buffer row in the last batch
    assert outcome(scored_columns, pool) == (
        InputError, f"candidates[297].embedding[{dim - 1}]: expected a finite number, got inf")
    raw[297]["embedding"][dim - 1] = 0.0
    raw[67]["embedding"][dim - 1] = math.inf    # a buffer row in the first batch
    assert outcome(scored_columns, pool) == (
        InputError, f"candidates[67].embedding[{dim - 1}]: expected a finite number, got inf")
    raw[67]["embedding"][dim - 1] = 0.0
    assert raw[8]["embedding"].typecode == "f"
    raw[8]["embedding"][3] = math.nan          # a float32 row
    assert outcome(scored_columns, pool) == (
        InputError, "candidates[8].embedding[3]: expected a finite number, got nan")


@pytest.mark.parametrize("dim", [7, 8, 9, 127, 128, 129, 255, 256, 257, 700])
def test_float_lists_are_read_whole_across_the_prefetch_distance(dim):
    # The float lists are read after the dicts, in one pass that prefetches _PREFETCH_AHEAD
    # (128) items ahead, into the next list, and the next lists' item arrays a line (8 items)
    # at a time: every value lands in its row, whatever the neighbours are (float32
    # buffers, None, ints), and a bad value anywhere, or a list of the wrong length, is the
    # Python checks' exact error.
    rows = [[((k * dim + i) % 89) * 0.25 - 7.0 for i in range(dim)] for k in range(6)]
    rows[2] = [(i % 5) - 2 for i in range(dim)]                    # ints
    raw = [{"id": f"c{k}", "tokens": k, "text": "t", "embedding": list(r)}
           for k, r in enumerate(rows)]
    raw[3]["embedding"] = array.array("f", rows[3])               # a float32 row between lists
    raw.insert(4, {"id": "none", "tokens": 1, "text": "t", "embedding": None})
    pool, _ = scored_in_validation(raw, [(i % 11) - 5.0 for i in range(dim)])
    assert [list(e) for e in _columns.candidate_columns(raw, dim)[3] if e is not None] == [
        [float(x) for x in r] for r in rows]
    for k, i, bad in [(0, dim - 1, math.nan), (1, 0, math.inf), (5, max(0, dim - 200), True),
                      (6, dim - 1, 10**400), (6, 0, "x")]:
        saved = raw[k]["embedding"][i]
        raw[k]["embedding"][i] = bad
        got = outcome(scored_columns, pool)
        assert got[0] != "ok" and got == without_dense(pool_module, scored_columns, pool)
        assert got[1].startswith(f"candidates[{k}].embedding")
        raw[k]["embedding"][i] = saved
    raw[6]["embedding"].append(0.5)                                 # the last list too long
    assert outcome(scored_columns, pool) == (InputError, f"candidates[6].embedding: expected "
                                             f"{dim} numbers (the length of query_embedding), "
                                             f"got {dim + 1}")


@pytest.mark.parametrize("count", [5, 6])
def test_lists_of_floats_summed_as_read_give_the_python_checks_errors(count):
    # Only exact floats: the cosine's sums are taken as the lists are read, two side by side.
    # A non-finite value in either list of a pair (or the odd last one) is the Python checks'
    # exact error; finite values whose squares overflow are scored by the rescaling path.
    dim = 300
    raw = [{"id": f"c{k}", "tokens": k, "text": "t",
            "embedding": [((k * dim + i) % 89) * 0.25 - 7.0 for i in range(dim)]}
           for k in range(count)]
    pool, _ = scored_in_validation(raw, [(i % 11) - 5.0 for i in range(dim)])
    for k, i, bad in [(0, dim - 1, math.nan), (1, 0, math.inf), (2, 7, -math.inf),
                      (count - 1, dim // 2, math.nan)]:
        saved = raw[k]["embedding"][i]
        raw[k]["embedding"][i] = bad
        assert outcome(scored_columns, pool) == (
            InputError, f"candidates[{k}].embedding[{i}]: expected a finite number, got {bad}")
        raw[k]["embedding"][i] = saved
    raw[count - 2]["embedding"][5] = 1e200
    scored_in_validation(raw, [(i % 11) - 5.0 for i in range(dim)])


def test_a_key_that_drops_an_earlier_embedding_while_validating_is_harmless():
    # The compiled pass looks the fields up in every dict before it reads the float lists; a
    # key whose __eq__ runs Python code there (a hash equal to "embedding"'s) may drop an
    # earlier candidate's embedding list. The pass holds the lists it found, so it reads
    # those, alive: the score is that of the list it saw.
    dim = 300
    raw = [{"id": "a", "tokens": 1, "text": "x", "embedding": [1.0] + [0.0] * (dim - 1)}]
    armed, meddled = [], []

    class Meddler:
        def __hash__(self):
            return hash("embedding")

        def __eq__(self, other):
            if armed and not meddled:  # the only reference to the first list goes
                raw[0]["embedding"] = [0.0, 1.0] + [0.0] * (dim - 2)
                meddled.append(True)
            return NotImplemented

    raw.append({"id": "b", "tokens": 1, "text": "y", Meddler(): 0, "embedding": [2.0] * dim})
    armed.append(True)
    query = array.array("d", [1.0] + [0.0] * (dim - 1))
    got = _columns.candidate_columns(raw, dim, query, similarity.score_fallback(query))
    assert meddled and got is not None
    assert got[3] == [1.0, pytest.approx(dim ** -0.5)]


def test_a_key_that_resizes_an_earlier_embedding_while_validating_is_harmless():
    # The same key may empty a list the pass has already measured: it measures the lists
    # again before reading them, and the Python checks decide (here: a wrong length).
    dim = 300
    first = [1.0] * dim
    raw = [{"id": "a", "tokens": 1, "text": "x", "embedding": first}]
    armed = []

    class Meddler:
        def __hash__(self):
            return hash("embedding")

        def __eq__(self, other):
            if armed:
                first.clear()
                armed.clear()
            return NotImplemented

    raw.append({"id": "b", "tokens": 1, "text": "y", Meddler(): 0, "embedding": [2.0] * dim})
    armed.append(True)
    query = array.array("d", [1.0] * dim)
    assert _columns.candidate_columns(raw, dim, query, similarity.score_fallback(query)) is None
    assert not armed and first == []


def test_unusable_buffers_are_input_errors():
    released = memoryview(array.array("d", [1.0, 2.0]))
    released.release()
    matrix = memoryview(array.array("d", [1.0, 2.0])).cast("B").cast("d", [1, 2])
    for emb, message in [
            (released, "candidates[0].embedding: expected an array of numbers, got an unreadable "
                       "buffer (operation forbidden on released memoryview object)"),
            (matrix, "candidates[0].embedding: expected a 1-D array of numbers, got a 2-D buffer")]:
        pool = {"query": "q", "query_embedding": [1.0, 0.0], "token_budget": 5,
                "candidates": [{"id": "a", "tokens": 1, "text": "x", "embedding": emb}]}
        assert outcome(columns, pool) == without_dense(pool_module, columns, pool) == (
            InputTypeError, message)
