"""ckn.similarity: cosine over lists, tuples, array.array, memoryview and numpy (spec §5)."""

import array
import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from ckn import CknTypeError, CknValueError
from ckn.similarity import cosine_scores, cosine_similarity
from reference import cosine_reference

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
