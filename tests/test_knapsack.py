"""ckn.knapsack.solve against brute force, metamorphic properties, input handling and errors."""

import random
import subprocess
import sys
import tracemalloc
from array import array
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ckn
from ckn import CknError
from ckn.knapsack import KnapsackResult, _solve_paths, solve
from reference import knapsack_brute_force

# Small weights and values make ties (equal value, equal weight) common, so the tie rules are
# exercised, not just the optimum.
items = st.lists(st.tuples(st.integers(0, 12), st.integers(0, 6)), max_size=12)
budgets = st.integers(0, 40)
# max_memory = 0 leaves no room for any DP: branch and bound; 600 bytes fits small DPs over
# values and small tables.
MEMORY_CAPS = (0, 600)


# Every internal path (private switches of ckn.knapsack._solve_paths): bound-based reduction
# on/off, int32/int64 DP cells, AVX2 on/off, the reachability bitset for items of one common
# efficiency on/off, and each method: keep-bitset table, DP over values (table=False),
# divide and conquer down to single items (table=False, by_value=False), branch and bound
# (max_memory=0, or every DP switched off).
DC = {"table": False, "by_value": False}
BRANCH = {"table": False, "by_value": False, "divide": False}
PATHS = [
    {},
    {"reduction": False},
    {"int32": False},
    {"simd": False},
    {"reduction": False, "int32": False, "simd": False},
    {"max_memory": 0},
    {"reduction": False, "max_memory": 0},
    {"int32": False, "simd": False, "max_memory": 600},
    {"proportional": False},
    {"reduction": False, "proportional": False},
    {"table": False},
    {"reduction": False, "table": False},
    DC,
    {"reduction": False, **DC},
    {"int32": False, "simd": False, **DC},
    BRANCH,
    # one workspace sized for a DP over every item, as the C API's callers allocate it
    {"allocate": False},
    {"allocate": False, "reduction": False},
    {"allocate": False, "max_memory": 0},
    {"allocate": False, "max_memory": 600, "proportional": False},
    {"allocate": False, **DC},
    {"allocate": False, "table": False},
]
# The plain dense DP: no reduction, int64 scalar cells, keep-bitset, no proportional shortcut.
PLAIN = {"reduction": False, "int32": False, "simd": False, "proportional": False}


def check_matches_brute_force(weights, values, budget):
    expected = knapsack_brute_force(weights, values, budget)
    result = solve(weights, values, budget)
    assert result.indices == expected
    assert result.total_weight == sum(weights[i] for i in expected) <= budget
    assert result.total_value == sum(values[i] for i in expected)
    for cap in MEMORY_CAPS:
        assert solve(weights, values, budget, max_memory=cap) == result
    for path in PATHS:
        assert _solve_paths(weights, values, budget, **path) == result, path


@given(items, budgets)
def test_matches_brute_force_including_tie_rules(pairs, budget):
    check_matches_brute_force([w for w, _ in pairs], [v for _, v in pairs], budget)


@given(st.lists(st.tuples(st.integers(0, 200), st.integers(0, 1000)), max_size=14),
       st.integers(0, 1500))
def test_matches_brute_force_wide_weights(pairs, budget):
    check_matches_brute_force([w for w, _ in pairs], [v for _, v in pairs], budget)


@given(st.lists(st.integers(0, 40), max_size=13), st.integers(0, 3), st.integers(1, 3),
       st.integers(0, 200))
def test_one_common_efficiency_matches_brute_force(weights, numerator, denominator, budget):
    # value = weight * numerator / denominator for every item (subset sum when 1/1): the
    # reachability-bitset path, including zero weights and an all-zero-value edge case.
    weights = [w * denominator for w in weights]
    values = [w // denominator * numerator for w in weights]
    check_matches_brute_force(weights, values, budget)


def test_tie_rule_fewest_tokens():
    # {0} and {1, 2} both have value 10; {1, 2} weighs less.
    assert solve([10, 4, 4], [10, 5, 5], 10).indices == (1, 2)


def test_tie_rule_prefers_lower_indices():
    # Every pair below has value 2 and weight 2; the lexicographically first pair wins.
    assert solve([1, 1, 1, 1], [1, 1, 1, 1], 2).indices == (0, 1)
    # {0, 3} beats {1, 2}: item 0 is taken whenever an optimal fewest-token set allows it.
    assert solve([1, 2, 2, 3], [1, 2, 2, 3], 4).indices == (0, 3)


@given(items, budgets, st.integers(0, 20))
def test_optimum_is_monotone_in_budget(pairs, budget, extra):
    weights, values = [w for w, _ in pairs], [v for _, v in pairs]
    assert (solve(weights, values, budget).total_value
            <= solve(weights, values, budget + extra).total_value)


@given(items, budgets, st.integers(1, 50), st.integers(0, 10**6), st.integers(0, 12))
def test_item_heavier_than_budget_changes_nothing(pairs, budget, excess, value, position):
    weights, values = [w for w, _ in pairs], [v for _, v in pairs]
    position = min(position, len(weights))
    base = solve(weights, values, budget)
    weights.insert(position, budget + excess)
    values.insert(position, value)
    result = solve(weights, values, budget)
    assert position not in result.indices
    shift = tuple(i + (i >= position) for i in base.indices)
    assert result.indices == shift
    assert result.total_value == base.total_value


@given(items, budgets, st.randoms(use_true_random=False))
def test_permuting_items_keeps_the_optimum(pairs, budget, rnd):
    weights, values = [w for w, _ in pairs], [v for _, v in pairs]
    order = list(range(len(pairs)))
    rnd.shuffle(order)
    shuffled = solve([weights[i] for i in order], [values[i] for i in order], budget)
    base = solve(weights, values, budget)
    assert (shuffled.total_value, shuffled.total_weight) == (base.total_value, base.total_weight)


@pytest.mark.parametrize("seed", range(6))
def test_memory_capped_paths_equal_the_bitset_path(seed):
    rng = random.Random(seed)
    n = rng.randint(50, 250)
    # Few distinct values and weights: many optimal subsets, so the lexicographic rule matters.
    weights = [rng.choice([0, 3, 5, 7, 11, 40, 90]) for _ in range(n)]
    values = [rng.choice([0, 1, 2, 3, 50]) if rng.random() < 0.5 else 7 * w for w in weights]
    budget = rng.randint(0, sum(weights))
    full = solve(weights, values, budget)
    assert full.total_weight <= budget
    for cap in (0, 1000, 20_000, 200_000):
        assert solve(weights, values, budget, max_memory=cap) == full


def test_zero_weight_items_with_value_are_always_taken():
    result = solve([0, 5, 0, 7], [3, 1, 4, 1], 0)
    assert result.indices == (0, 2)
    assert result == KnapsackResult((0, 2), 7, 0)


def test_empty_and_zero_budget():
    assert solve([], [], 10) == KnapsackResult((), 0, 0)
    assert solve([], [], 0) == KnapsackResult((), 0, 0)
    assert solve([3, 4], [5, 6], 0) == KnapsackResult((), 0, 0)


def test_gcd_scaled_weights_give_the_same_answer():
    weights = [1000, 2000, 3000, 5000]
    values = [10, 21, 30, 52]
    scaled = solve(weights, values, 7999)
    unit = solve([1, 2, 3, 5], values, 7)
    assert scaled.indices == unit.indices == (1, 3)
    assert scaled.total_weight == 1000 * unit.total_weight


def test_huge_budget_with_small_items():
    # The DP is sized by the sum of the fitting weights, not by the budget.
    result = solve([3, 4, 5], [1, 1, 1], 2**62)
    assert result.indices == (0, 1, 2)


def test_thousand_items_under_128k_tokens_never_overrun():
    rng = random.Random(128)
    weights = [min(600, max(20, int(rng.lognormvariate(5.19, 0.5)))) for _ in range(1000)]
    values = [rng.randint(1, 100_000) for _ in range(1000)]
    result = solve(weights, values, 128_000)
    assert result.total_weight <= 128_000
    assert result.total_weight == sum(weights[i] for i in result.indices)
    assert result.total_value == sum(values[i] for i in result.indices)
    # No unchosen item fits in the slack with positive value (a necessary optimality condition).
    slack = 128_000 - result.total_weight
    chosen = set(result.indices)
    assert not any(weights[i] <= slack and values[i] > 0
                   for i in range(1000) if i not in chosen)


@pytest.mark.parametrize("convert", [
    list,
    tuple,
    lambda xs: array("q", xs),
    lambda xs: array("l", xs),
    lambda xs: array("i", xs),
    lambda xs: array("H", xs),
    lambda xs: (x for x in xs),
])
def test_accepts_sequences_buffers_and_iterables(convert):
    weights, values = [95, 96, 75, 175, 40], [1639, 1587, 1572, 1666, 1541]
    expected = solve(weights, values, 180)
    assert solve(convert(weights), convert(values), 180) == expected


def test_accepts_numpy_arrays_including_read_only():
    np = pytest.importorskip("numpy")
    weights, values = [95, 96, 75, 175, 40], [1639, 1587, 1572, 1666, 1541]
    expected = solve(weights, values, 180)
    w = np.array(weights, dtype=np.int64)
    v = np.array(values, dtype=np.int64)
    w.flags.writeable = False
    v.flags.writeable = False
    assert solve(w, v, np.int64(180)) == expected
    assert solve(w.astype(np.int32), v.astype(np.uint16), 180) == expected
    assert solve(np.repeat(weights, 2)[::2], v, 180) == expected  # non-contiguous view


@pytest.mark.parametrize("weights, values, budget, error, message", [
    ([1, -2], [1, 1], 5, ValueError, "weights[1]: expected a non-negative integer, got -2"),
    ([1, 2], [1, -1], 5, ValueError, "values[1]: expected a non-negative integer, got -1"),
    ([1, 2.5], [1, 1], 5, TypeError, "weights[1]: expected an integer, got 2.5"),
    ([1, True], [1, 1], 5, TypeError, "weights[1]: expected an integer, got a boolean"),
    ([1, 2], [1, None], 5, TypeError, "values[1]: expected an integer, got None"),
    ([1, 2], [1], 5, ValueError, "differ in length: 2 != 1"),
    ([1], [1], -1, ValueError, "budget: expected a non-negative integer, got -1"),
    ([1], [1], 1.0, TypeError, "budget: expected a non-negative integer"),
    ([1], [1], True, TypeError, "budget: expected a non-negative integer"),
    (None, [1], 1, TypeError, "weights: expected a sequence of integers, got NoneType"),
    ([1], [2**63], 1, ValueError, "values[0]: 9223372036854775808 does not fit in int64"),
    ([1, 1], [2**62, 2**62], 1, ValueError, "values: their sum overflows int64"),
])
def test_bad_input_raises_clear_errors(weights, values, budget, error, message):
    with pytest.raises(error) as info:
        solve(weights, values, budget)
    assert isinstance(info.value, CknError)
    assert message in str(info.value)


def test_bad_max_memory():
    with pytest.raises(ValueError, match="max_memory"):
        solve([1], [1], 1, max_memory=-1)


# ----------------------------------------------------------------------------- every path agrees

FAMILIES = ("uncorrelated", "weak", "strong", "subset_sum", "equal_efficiency", "ties", "zeros",
            "pool", "heavy")


def family_instance(family, n, seed):
    """Instance families of the reduction tests; weights up to a few hundred (token-like)."""
    rng = random.Random(seed)
    weights = [rng.randint(1, 300) for _ in range(n)]
    if family == "uncorrelated":
        values = [rng.randint(1, 10_000) for _ in weights]
    elif family == "weak":
        values = [max(0, 6 * w + rng.randint(-60, 60)) for w in weights]
    elif family == "strong":
        values = [100 + 6 * w + rng.randint(0, 40) for w in weights]
    elif family == "subset_sum":
        values = list(weights)
    elif family == "equal_efficiency":
        # Every item has the same v/w: the LP bound is flat, ties everywhere.
        values = [3 * w for w in weights]
    elif family == "ties":
        weights = [rng.choice([0, 5, 10, 15, 30]) for _ in range(n)]
        values = [rng.choice([0, 1, 2, 4]) * (w or 7) for w in weights]
    elif family == "zeros":
        values = [rng.randint(0, 10_000) for _ in weights]
        for i in range(n):
            if rng.random() < 0.15:
                weights[i] = 0
            if rng.random() < 0.15:
                values[i] = 0
    elif family == "pool":
        # ckn pools: fused order, values a few thousand and nearly equal (spec §8).
        rrf = sorted((1 / (60 + a) + 1 / (60 + rng.randint(1, n)) for a in range(1, n + 1)),
                     reverse=True)
        values = [int(r * (1 - 0.35 * rng.choice([0, 0, rng.random()])) * 100_000 + 0.5)
                  for r in rrf]
    else:  # heavy: duplicated items and a few heavier than any sensible budget
        base = [(rng.randint(1, 40), rng.randint(1, 40)) for _ in range(8)]
        pairs = [rng.choice(base) for _ in range(n)]
        weights = [w for w, _ in pairs]
        values = [v for _, v in pairs]
        for i in rng.sample(range(n), k=min(n, 5)):
            weights[i] = 50_000
    return weights, values


@settings(max_examples=60)
@given(st.sampled_from(FAMILIES), st.integers(50, 400), st.integers(0, 2**32),
       st.floats(0.0, 0.9))
def test_every_path_equals_the_plain_dense_dp(family, n, seed, fraction):
    weights, values = family_instance(family, n, seed)
    budget = min(20_000, int(fraction * sum(w for w in weights if w < 50_000)))
    plain = _solve_paths(weights, values, budget, **PLAIN)
    assert plain.total_weight <= budget
    for path in PATHS:
        assert _solve_paths(weights, values, budget, **path) == plain, (family, path)
    assert solve(weights, values, budget) == plain


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("seed", range(3))
def test_families_at_token_scale(family, seed):
    # 1,000 items under 32,000 tokens: the reduction must reproduce the dense DP's selection.
    weights, values = family_instance(family, 1000, seed)
    budget = 32_000
    plain = _solve_paths(weights, values, budget, reduction=False)
    assert solve(weights, values, budget) == plain
    assert _solve_paths(weights, values, budget, int32=False, simd=False) == plain


@pytest.mark.parametrize("total", [2**31 - 2, 2**31 - 1, 2**31, 2**31 + 5])
def test_int32_boundary_of_the_value_sum(total):
    # Values summing to around INT32_MAX switch the DP between int32 and int64 cells.
    rng = random.Random(total)
    n = 40
    weights = [rng.randint(1, 50) for _ in range(n)]
    values = [total // n] * n
    values[0] += total - sum(values)
    budget = sum(weights) // 2
    plain = _solve_paths(weights, values, budget, **PLAIN)
    for path in PATHS:
        assert _solve_paths(weights, values, budget, **path) == plain, path


def test_large_weights_and_values_stay_exact():
    # Above 2**31 the bound arithmetic needs 128-bit products. (A common divisor above 2**31
    # keeps the weight DP small.)
    unit = 2**31 + 11
    weights = [3 * unit, 2 * unit, unit, 4 * unit, unit, 2 * unit]
    values = [2**40, 2**33, 2**31 + 9, 2**41, 2**33, 7]
    budget = 5 * unit + 3
    expected = knapsack_brute_force(weights, values, budget)
    for path in PATHS:
        assert _solve_paths(weights, values, budget, **path).indices == expected, path


def test_reduction_keeps_zero_weight_and_drops_zero_value_items():
    weights = [0, 10, 0, 10, 20, 5]
    values = [0, 0, 5, 7, 9, 0]
    for budget in (0, 10, 25, 100):
        expected = knapsack_brute_force(weights, values, budget)
        assert solve(weights, values, budget).indices == expected
        assert 0 in expected and 2 in expected and 1 not in expected and 5 not in expected


# ----------------------------------------------------------------------------- working memory

def test_solve_allocates_the_table_of_the_free_items_only():
    # 10,000 pool-like items under 128,000 tokens: a table over every fitting item would be
    # 10,000 x 128,001 bits (153 MiB); the reduction leaves a few items free and solve()
    # allocates their table after it.
    weights, values = family_instance("pool", 10_000, 5)
    budget = 128_000
    tracemalloc.start()
    try:
        result = solve(weights, values, budget)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * 2**20, peak
    assert result == _solve_paths(weights, values, budget, allocate=False)


_ADDRESS_SPACE_CHILD = """
import random, resource, sys
sys.path[:0] = {paths!r}
from test_knapsack import family_instance
from ckn import CknMemoryError
from ckn.knapsack import _solve_paths, solve

def attempt(f):
    try:
        return f()
    except CknMemoryError as error:
        return "CknMemoryError: " + str(error)

pool = family_instance("pool", 10_000, 5)
equal = family_instance("equal_efficiency", 2_000, 5)  # nothing to fix: a 32 MB table
vm = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmSize:"))
resource.setrlimit(resource.RLIMIT_AS, (vm * 1024 + 24 * 2**20, resource.RLIM_INFINITY))
print(attempt(lambda: solve(*pool, 128_000).total_weight))
print(attempt(lambda: _solve_paths(*pool, 128_000, allocate=False).total_weight))
print(attempt(lambda: solve(*equal, 128_000).total_weight))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_solve_within_an_address_space_limit():
    # A process allowed 24 MiB of address space more than it has: solve() fits (its table is
    # for the free items); a workspace for every item does not (CknMemoryError, no crash);
    # a table of 2,000 items that nothing fixes cannot be allocated either, and solve() then
    # answers by branch and bound in O(n) memory.
    tests = str(Path(__file__).parent)
    package = str(Path(ckn.__file__).resolve().parent.parent)
    proc = subprocess.run([sys.executable, "-c", _ADDRESS_SPACE_CHILD.format(paths=[tests, package])],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    fits, whole_table, no_reduction = proc.stdout.splitlines()
    pool = family_instance("pool", 10_000, 5)
    assert int(fits) == solve(*pool, 128_000).total_weight
    assert whole_table.startswith("CknMemoryError: cannot allocate")
    equal = family_instance("equal_efficiency", 2_000, 5)
    assert int(no_reduction) == solve(*equal, 128_000).total_weight


# ----------------------------------------------------------------------------- huge numbers

def test_fitting_weights_summing_past_int64():
    # Σ of the fitting weights overflows int64: the optimum is still exact.
    top = 2**63 - 1
    assert solve([top, top], [1, 2], top) == KnapsackResult((1,), 2, top)
    assert solve([2**62, 2**62], [1, 2], top) == KnapsackResult((1,), 2, 2**62)
    assert solve([2**62, 2**62 - 1], [5, 5], top) == KnapsackResult((0, 1), 10, 2**63 - 1)
    assert solve([top] * 5, [3, 9, 9, 1, 0], 2**64) == KnapsackResult((1,), 9, top)


def test_a_few_huge_items_are_solved_at_once():
    # Four chunks of about 2**30 tokens under a budget of 2**31: no DP over the budget.
    weights = [2**30 + 17, 2**30 + 5, 2**30 + 1000, 2**30 + 3]
    values = [900, 1000, 950, 10]
    budget = 2**31 + 30
    expected = knapsack_brute_force(weights, values, budget)
    assert expected == (0, 1)
    for cap in (0, 2**20, 2**28):
        assert solve(weights, values, budget, max_memory=cap).indices == expected


huge_items = st.lists(st.tuples(st.integers(0, 2**62), st.integers(0, 2**40)), max_size=11)


@settings(max_examples=150)
@given(huge_items, st.integers(0, 2**63 - 1))
def test_huge_weights_match_brute_force_on_every_path(pairs, budget):
    weights, values = [w for w, _ in pairs], [v for _, v in pairs]
    expected = knapsack_brute_force(weights, values, budget)
    for path in PATHS:
        assert _solve_paths(weights, values, budget, **path).indices == expected, path


@settings(max_examples=150)
@given(st.lists(st.tuples(st.integers(1, 2**60), st.integers(0, 60)), max_size=11),
       st.integers(0, 2**62))
def test_huge_weights_small_values_match_brute_force(pairs, budget):
    # Small values: the DP over values (or branch and bound with many ties) decides.
    weights, values = [w for w, _ in pairs], [v for _, v in pairs]
    expected = knapsack_brute_force(weights, values, budget)
    for path in ({}, {"max_memory": 0}, {"table": False}, BRANCH):
        assert _solve_paths(weights, values, budget, **path).indices == expected, path


# ----------------------------------------------------------------------------- memory cap

def _peak(f):
    tracemalloc.start()
    try:
        result = f()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("family,n,budget", [
    ("uncorrelated", 4, 2**26),          # a budget far above what 4 items need
    ("equal_efficiency", 2_000, 128_000),  # nothing to fix: the table is 32 MB
    ("ties", 3_000, 200_000),
    ("pool", 10_000, 1_000_000),
])
@pytest.mark.parametrize("max_memory", [0, 2**16, 2**20, 2**24])
def test_peak_allocation_stays_within_max_memory(family, n, budget, max_memory):
    # Everything solve() allocates (PyMem_RawMalloc, seen by tracemalloc) stays below
    # max_memory plus O(n): ~100 bytes per item and a constant.
    weights, values = family_instance(family, n, 11)
    if family == "uncorrelated":
        weights = [w + 2**24 for w in weights]
    result, peak = _peak(lambda: solve(weights, values, budget, max_memory=max_memory))
    assert peak <= max_memory + 100 * n + 2**16, peak
    assert result == solve(weights, values, budget)


def test_peak_allocation_of_the_c_api_workspace():
    # One workspace of knapsack_workspace_size bytes for 300 items of up to 2**41 tokens.
    rng = random.Random(2)
    weights = [rng.randint(1, 2**41) for _ in range(300)]
    values = [rng.randint(1, 10**6) for _ in weights]
    budget = sum(weights) // 3
    for max_memory in (0, 2**20):
        result, peak = _peak(lambda: _solve_paths(weights, values, budget, max_memory=max_memory,
                                                  allocate=False))
        assert peak <= max_memory + 100 * 300 + 2**16, peak
        assert result == solve(weights, values, budget)


def test_branch_and_bound_that_gives_up_says_what_would_help():
    rng = random.Random(3)
    weights = [rng.randint(2**40, 2**41) for _ in range(60)]
    values = [w + 2**30 for w in weights]  # strongly correlated: a hard case for the bound
    with pytest.raises(ckn.CknMemoryError, match=r"raise max_memory to \d+") as error:
        _solve_paths(weights, values, sum(weights) // 2, max_memory=2**20, nodes=1000)
    assert "branch and bound did not finish within 1000 nodes" in str(error.value)


@pytest.mark.parametrize("family", FAMILIES)
def test_branch_and_bound_on_every_family(family):
    for seed in range(4):
        weights, values = family_instance(family, 300, seed)
        budget = sum(w for w in weights if w < 50_000) // 3
        report = []
        result = _solve_paths(weights, values, budget, max_memory=0, report=report)
        assert result == _solve_paths(weights, values, budget, **PLAIN), family
        assert report[0] in ("branch", "reduced", "all_fit")


_WIDE_CHECK = r"""
#include <stdio.h>
#include "knapsack_fallback.h"
static uint64_t s = 88172645463325252ULL;
static uint64_t next(void) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s >> (s & 63); }
int main(void) {
    long bad = 0, i;
    for (i = 0; i < 2000000; ++i) {
        uint64_t a = next(), b = next(), c = next(), d = next(), r;
        unsigned __int128 p = (unsigned __int128)a * b, q = (unsigned __int128)c * d, t;
        if (ckn_kp_cmp_products(a, b, c, d) != (p < q ? -1 : p > q)) bad++;
        ckn_kp_u128 x = {a, b}, y = ckn_kp_add64(x, c);
        t = ((unsigned __int128)b << 64) + a + c;
        if (y.lo != (uint64_t)t || y.hi != (uint64_t)(t >> 64)) bad++;
        if (c == 0) continue;
        a %= c;
        t = (unsigned __int128)a * b;
        if (ckn_kp_muldiv_rem(a, b, c, &r) != (uint64_t)(t / c) || r != (uint64_t)(t % c)) bad++;
    }
    printf("%ld\n", bad);
    return 0;
}
"""


@pytest.mark.parametrize("portable", [False, True])
def test_wide_arithmetic_against_int128(portable, tmp_path):
    # knapsack_fallback.h's exact 64 x 64 -> 128-bit products, compares and floor divisions,
    # with the compiler's __int128 and with the portable code other compilers get
    # (CKN_KP_PORTABLE), against __int128 on 2,000,000 random operand sets of every magnitude.
    import shutil
    import sysconfig
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        pytest.skip(f"no C compiler ({compiler})")
    header_dir = Path(__file__).resolve().parents[1] / "ckn"
    if not (header_dir / "knapsack_fallback.h").exists():
        pytest.skip("ckn's C headers are not next to the tests (installed package)")
    source = tmp_path / "wide.c"
    source.write_text(_WIDE_CHECK)
    binary = tmp_path / "wide"
    flags = ["-DCKN_KP_PORTABLE"] if portable else []
    subprocess.run([compiler, "-O2", *flags, "-I", str(header_dir), str(source), "-o", str(binary)],
                   check=True, capture_output=True)
    assert subprocess.run([str(binary)], check=True, capture_output=True,
                          text=True).stdout.strip() == "0"
