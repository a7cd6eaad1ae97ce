"""spec §8 tie rules by enumeration: max value, then fewest tokens, then keep higher-ranked items."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ckn.knapsack import solve
from verify.checks import brute_force
from verify.instances import Instance, generate, knapsack_instances


def _all_subsets_choice(w, v, budget):
    """The same rule as brute_force, via itertools (a second, dumber enumeration)."""
    best = None
    for bits in itertools.product((1, 0), repeat=len(w)):  # (1, 1, ...) first: lexicographic
        weight = sum(b * x for b, x in zip(bits, w))
        if weight > budget:
            continue
        value = sum(b * x for b, x in zip(bits, v))
        key = (value, -weight)
        if best is None or key > best[0]:  # strict: the first (lexicographically greatest) wins
            best = (key, bits)
    return tuple(i for i, b in enumerate(best[1]) if b)


@pytest.mark.parametrize("w, v, budget, expected", [
    ([3, 1, 2], [3, 1, 2], 3, (0,)),          # {0} and {1, 2}: same value and tokens
    ([1, 2, 1], [1, 2, 1], 3, (0, 1)),        # {0,1} beats {1,2}
    ([2, 1, 1], [5, 3, 2], 2, (0,)),          # {0} and {1,2} both 5/2
    ([4, 3], [7, 7], 4, (1,)),                 # equal value: fewest tokens wins over rank
    ([0, 5, 0], [0, 9, 0], 5, (0, 1, 2)),     # 0-token 0-value items are kept (lexicographic)
    ([2, 0], [0, 0], 5, (1,)),                 # a value-0 item with tokens is not
    ([5, 5, 5], [1, 1, 1], 10, (0, 1)),       # identical items: the higher-ranked ones
    ([6, 6], [1, 1], 5, ()),                   # nothing fits
    ([], [], 0, ()),
])
def test_hand_made_tie_cases(w, v, budget, expected):
    assert brute_force(w, v, budget)[2] == expected
    assert _all_subsets_choice(w, v, budget) == expected if w else True
    assert solve(w, v, budget).indices == expected
    assert solve(w, v, budget, max_memory=0).indices == expected


@settings(max_examples=300)
@given(knapsack_instances(max_n=10, max_weight=6, max_value=4, max_budget=20))
def test_heavy_ties_enumerated(inst):
    best, fewest, choice, n_opt = brute_force(inst.weights, inst.values, inst.budget)
    assert choice == _all_subsets_choice(inst.weights, inst.values, inst.budget)
    got = solve(list(inst.weights), list(inst.values), inst.budget)
    assert (got.total_value, got.total_weight, got.indices) == (best, fewest, choice), inst.dumps()
    assert solve(list(inst.weights), list(inst.values), inst.budget, max_memory=0).indices == choice


@pytest.mark.parametrize("index", [i for i in range(600) if i % 8 == 4][:60])
def test_seeded_tie_instances_up_to_16_items(index):
    inst = generate(11, index)
    assert inst.kind == "ties"
    if inst.n > 16:
        inst = Instance(inst.weights[:16], inst.values[:16], inst.budget, "ties", 11, index)
    best, fewest, choice, n_opt = brute_force(inst.weights, inst.values, inst.budget)
    got = solve(list(inst.weights), list(inst.values), inst.budget)
    assert got.indices == choice, (inst.dumps(), n_opt)


@given(st.lists(st.integers(0, 3), min_size=1, max_size=12), st.integers(0, 12))
def test_permuting_identical_items_keeps_the_front_ones(ws, budget):
    # All items identical in value per token: the choice must be a prefix-preferring set.
    vs = list(ws)
    choice = brute_force(ws, vs, budget)[2]
    assert solve(ws, vs, budget).indices == choice
