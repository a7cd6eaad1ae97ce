"""ckn.similarity: cosine over lists, tuples, array.array, memoryview and numpy (spec §5)."""

import array
import ctypes
import math

import pytest
from fastpaths import ANY_COMPONENT, outcome, without_dense
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from reference import cosine_reference

import ckn
from ckn import CknTypeError, CknValueError, similarity
from ckn.similarity import cosine_scores, cosine_similarity

COMPONENT = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)


@st.composite
def vector_pairs(draw, min_size=1, max_size=16):
    n = draw(st.integers(min_value=min_size, max_value=max_size))
    vector = st.lists(COMPONENT, min_size=n, max_size=n)
    return draw(vector), draw(vector)


@given(vector_pairs())
def test_matches_reference(pair):
    u, v = pair
    assert cosine_similarity(u, v) == pytest.approx(cosine_reference(u, v), abs=1e-9)


@given(vector_pairs())
def test_symmetric_bounded_and_scale_invariant_exactly(pair):
    u, v = pair
    c = cosine_similarity(u, v)
    assert c == cosine_similarity(v, u)
    assert -1.0 <= c <= 1.0
    # Power-of-two scaling is exact while no product underflows into the subnormal range
    # (hypothesis found 8.3e-17 * 2.2e-308, which rounds to 0 but its double does not).
    assume(all(x == 0.0 or abs(x) >= 1e-100 for x in u + v))
    assert cosine_similarity([2.0 * x for x in u], v) == c


@given(st.lists(COMPONENT, min_size=1, max_size=16))
def test_self_similarity_is_one(u):
    assume(any(u))
    assert cosine_similarity(u, u) == pytest.approx(1.0, abs=1e-12)
    assert cosine_similarity(u, [-x for x in u]) == pytest.approx(-1.0, abs=1e-12)


def test_known_values():
    assert cosine_similarity([1.0, 0.0], [0.0, 3.0]) == 0.0
    assert cosine_similarity([3.0, 4.0], [6.0, 8.0]) == 1.0
    assert cosine_similarity([1, 1], [1, 0]) == pytest.approx(1 / math.sqrt(2), rel=1e-15)


def test_zero_vector_has_similarity_zero():
    assert cosine_similarity([0.0, 0.0], [1.0, 2.0]) == 0.0
    assert cosine_similarity([1.0, 2.0], [0.0, -0.0]) == 0.0
    assert cosine_similarity([0.0], [0.0]) == 0.0
    assert cosine_similarity([], []) == 0.0
    assert cosine_scores([0.0, 0.0], [[1.0, 0.0], None]) == [0.0, None]


def test_extreme_magnitudes_are_rescaled():
    assert cosine_similarity([1e200, 1e200], [3e200, 3e200]) == pytest.approx(1.0, abs=1e-15)
    assert cosine_similarity([1e-200, 0.0], [5e-300, 5e-300]) == pytest.approx(
        1 / math.sqrt(2), rel=1e-15
    )
    assert cosine_similarity([5e-324, 0.0], [1.0, 1.0]) == pytest.approx(1 / math.sqrt(2))
    assert cosine_similarity([1e300, -1e300], [1.0, 1.0]) == pytest.approx(0.0, abs=1e-15)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_non_finite_values_are_rejected(bad):
    with pytest.raises(CknValueError, match="finite"):
        cosine_similarity([1.0, bad], [1.0, 1.0])
    with pytest.raises(CknValueError, match=r"embeddings\[1\]"):
        cosine_scores([1.0, 1.0], [[1.0, 1.0], [bad, 1.0]])


def test_length_mismatch_is_an_error():
    with pytest.raises(CknValueError, match="length 2"):
        cosine_similarity([1.0, 2.0], [1.0, 2.0, 3.0])
    with pytest.raises(CknValueError, match=r"embeddings\[2\]: expected length 2"):
        cosine_scores([1.0, 2.0], [[1.0, 2.0], None, [1.0]])


@pytest.mark.parametrize("bad", ["1.0 2.0", b"\x01\x02", 3.0, None])
def test_non_vectors_are_type_errors(bad):
    with pytest.raises(CknTypeError):
        cosine_similarity(bad, [1.0, 2.0])


def test_array_array_memoryview_tuple_and_iterables():
    u, v = [0.5, -1.0, 2.0], [1.5, 0.25, -3.0]
    want = cosine_similarity(u, v)
    assert cosine_similarity(array.array("d", u), array.array("d", v)) == want
    assert cosine_similarity(memoryview(array.array("d", u)), tuple(v)) == want
    assert cosine_similarity(iter(u), (x for x in v)) == want
    f32 = array.array("f", u)  # these values are exact in float32
    assert cosine_similarity(f32, v) == want
    ints = array.array("i", [1, 2, 3])
    assert cosine_similarity(ints, [1.0, 2.0, 3.0]) == pytest.approx(1.0, abs=1e-15)


def test_numpy_arrays():
    np = pytest.importorskip("numpy")
    u, v = [0.5, -1.0, 2.0, 4.0], [1.5, 0.25, -3.0, 0.0]
    want = cosine_similarity(u, v)
    assert cosine_similarity(np.array(u), np.array(v)) == want
    assert cosine_similarity(np.array(u, dtype=np.float32), v) == want
    assert cosine_similarity(np.array(u, dtype=np.float16), v) == want  # read element-wise
    assert cosine_similarity(np.array(u, dtype=">f8"), v) == want  # non-native byte order
    assert cosine_similarity(np.repeat(u, 2)[::2], v) == want  # strided view
    assert cosine_similarity(np.array([1, 2, 3]), [1.0, 2.0, 3.0]) == pytest.approx(1.0)
    matrix = np.array([u, v, [0.0] * 4])
    assert cosine_scores(np.array(u), matrix) == [1.0, want, 0.0]
    with pytest.raises(CknValueError, match="one-dimensional"):
        cosine_similarity(matrix, v)


@given(
    st.integers(min_value=1, max_value=6).flatmap(
        lambda n: st.tuples(
            st.lists(COMPONENT, min_size=n, max_size=n),
            st.lists(st.none() | st.lists(COMPONENT, min_size=n, max_size=n), max_size=8),
        )
    )
)
def test_scores_equal_pairwise_similarity_and_keep_none(case):
    query, embeddings = case
    scores = cosine_scores(query, embeddings)
    assert len(scores) == len(embeddings)
    for e, s in zip(embeddings, scores):
        assert s == (None if e is None else cosine_similarity(query, e))


def test_cosine_scores_accepts_a_generator_of_embeddings():
    assert cosine_scores([1.0, 0.0], (e for e in [[1.0, 0.0], None])) == [1.0, None]


# --- cosine over the pool's validated arrays ---------------------------------------------------

@st.composite
def matrices(draw):
    d = draw(st.integers(1, 9))
    n = draw(st.integers(0, 11))
    q = draw(st.lists(ANY_COMPONENT, min_size=d, max_size=d) | st.just([0.0] * d))
    rows = draw(st.lists(st.lists(ANY_COMPONENT, min_size=d, max_size=d) | st.just([0.0] * d)
                         | st.none() | st.lists(ANY_COMPONENT, max_size=10), min_size=n, max_size=n))
    return q, rows


@given(matrices())
@settings(max_examples=300)
def test_cosine_over_arrays_equals_python_cosine_scores(data):
    # Four rows are summed interleaved in C; every row's sums keep Python's order.
    q, rows = data
    arrays = [None if r is None else array.array("d", r) for r in rows]
    want = without_dense(similarity, similarity.cosine_scores, q, rows)
    assert repr(outcome(similarity.cosine_scores, array.array("d", q), arrays)) == repr(want)
    assert repr(outcome(similarity.cosine_scores, q, rows)) == repr(want)
    # Other buffers: "<d" and ">d" formats (the Python path rejects both), strided views.
    kinds = [lambda r: (ctypes.c_double * len(r))(*r),
             lambda r: (ctypes.c_double.__ctype_be__ * len(r))(*r),
             lambda r: memoryview(array.array("d", [x for v in r for x in (v, 9.0)]))[::2],
             lambda r: memoryview(array.array("d", r))]
    mixed = [None if r is None else kinds[k % 4](r) for k, r in enumerate(rows)]
    want = without_dense(similarity, similarity.cosine_scores, q, mixed)
    assert repr(outcome(similarity.cosine_scores, q, mixed)) == repr(want)
    # float32 buffers (query and rows, subnormals and extremes included): widened exactly,
    # so the scores are those of the same float32 values given as Python floats
    singles = [None if r is None else array.array("f", r) for r in rows]
    exact = [None if r is None else r.tolist() for r in singles]
    for query in (array.array("f", q), array.array("f", q).tolist()):
        want = without_dense(similarity, similarity.cosine_scores, list(query), exact)
        assert repr(outcome(similarity.cosine_scores, query, singles)) == repr(want)


def test_cosine_releases_the_buffers_it_reads():
    q = array.array("d", [1.0, 0.0])
    rows = [array.array("d", [1.0, 2.0]), array.array("d", [0.0, 0.0])]
    assert similarity.cosine_scores(q, rows) == [1 / math.sqrt(5), 0.0]
    for a in (q, *rows):
        a.append(1.0)  # no export left behind: the arrays can be resized again
    # Also when a later row raises on the Python path while earlier buffers are held open.
    with pytest.raises(ckn.CknError):
        similarity.cosine_scores(q, [rows[0], rows[1], [1.0, 2.0]])
    for a in (q, *rows):
        a.append(1.0)
