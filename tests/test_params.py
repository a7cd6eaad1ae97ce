"""ckn.params: the edit distance and the "did you mean" hints of misspelt names."""

import functools

from hypothesis import given, settings
from hypothesis import strategies as st

from ckn.params import PARAMETER_NAMES, closest_name, edit_distance


@settings(max_examples=500)
@given(st.text("abc_", max_size=9), st.text("abc_", max_size=9), st.integers(0, 4))
def test_a_bounded_edit_distance_is_the_distance_up_to_its_limit(a, b, limit):
    @functools.lru_cache(maxsize=None)
    def distance(i, j):  # of a[i:] and b[j:], by its recursive definition
        if i == len(a) or j == len(b):
            return len(a) - i + len(b) - j
        return min(distance(i + 1, j) + 1, distance(i, j + 1) + 1,
                   distance(i + 1, j + 1) + (a[i] != b[j]))
    full = edit_distance(a, b)
    assert full == distance(0, 0)
    assert edit_distance(a, b, limit) == min(full, limit + 1)


@settings(max_examples=300)
@given(st.text("abcdefghijklmnopqrstuvwxyz_", max_size=20))
def test_closest_name_is_the_nearest_known_name_within_its_limit(name):
    known = PARAMETER_NAMES + ("query", "candidates", "token_budget")
    for limit in (2, 3):
        scored = sorted((edit_distance(name, k), k) for k in known if k != name)  # every name
        expected = scored[0][1] if scored and scored[0][0] <= limit else None
        assert closest_name(name, known, limit) == expected
