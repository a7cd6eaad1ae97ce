"""Slow, obviously-correct oracles the tests compare ckn's kernels against.

Append new oracles as separate functions; keep each one short enough to check by eye.
"""

from itertools import combinations


def knapsack_brute_force(weights, values, budget):
    """Every subset: the SPEC §8 choice as a sorted index tuple (n ≤ ~16).

    Maximise Σ values under Σ weights ≤ budget; ties: fewest total weight; then the
    lexicographically greatest indicator vector (x_0, x_1, …), i.e. prefer lower indices.
    """
    n = len(weights)
    best_key, best = None, ()
    for r in range(n + 1):
        for subset in combinations(range(n), r):
            weight = sum(weights[i] for i in subset)
            if weight > budget:
                continue
            value = sum(values[i] for i in subset)
            indicator = tuple(1 if i in subset else 0 for i in range(n))
            key = (value, -weight, indicator)
            if best_key is None or key > best_key:
                best_key, best = key, subset
    return best


# --- MinHash (SPEC §7) oracles -------------------------------------------------------------

MINHASH_P = (1 << 31) - 1
_M64 = (1 << 64) - 1


def fnv1a64_reference(term):
    """FNV-1a-64 of the UTF-8 bytes of ``term``."""
    h = 0xCBF29CE484222325
    for byte in term.encode("utf-8"):
        h = ((h ^ byte) * 0x100000001B3) & _M64
    return h


def mix64_reference(z):
    """The splitmix64 finaliser, mod 2**64."""
    z ^= z >> 30
    z = (z * 0xBF58476D1CE4E5B9) & _M64
    z ^= z >> 27
    z = (z * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


def minhash_parameters_reference(permutations):
    """(a, b) lists: splitmix64 seeded 0x5EED; a_i = 1 + next() mod (p-1), then b_i = next() mod p."""
    state, a, b = 0x5EED, [], []

    def next_value():
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & _M64
        return mix64_reference(state)

    for _ in range(permutations):
        a.append(1 + next_value() % (MINHASH_P - 1))
        b.append(next_value() % MINHASH_P)
    return a, b


def shingle_set_reference(term_list, shingle_size):
    """Set of x = s mod p over every run of ``shingle_size`` consecutive terms (SPEC §7)."""
    hashes = [fnv1a64_reference(t) for t in term_list]
    if not hashes:
        return set()
    if len(hashes) < shingle_size:
        runs = [hashes]
    else:
        runs = [hashes[i : i + shingle_size] for i in range(len(hashes) - shingle_size + 1)]
    out = set()
    for run in runs:
        s = 0
        for t in run:
            s = mix64_reference(s ^ t)
        out.add(s % MINHASH_P)
    return out


def minhash_signature_reference(shingles, permutations):
    """Slot i = min over the set of (a_i·x + b_i) mod p; an empty set has every slot = p."""
    a, b = minhash_parameters_reference(permutations)
    xs = set(shingles)
    return [min(((ai * x + bi) % MINHASH_P for x in xs), default=MINHASH_P) for ai, bi in zip(a, b)]


def minhash_similarity_reference(sig1, sig2):
    """Fraction of equal slots; 0 when either signature is empty (every slot = p)."""
    if all(v == MINHASH_P for v in sig1) or all(v == MINHASH_P for v in sig2):
        return 0.0
    return sum(1 for u, v in zip(sig1, sig2) if u == v) / len(sig1)


def jaccard_reference(set1, set2):
    """|A ∩ B| / |A ∪ B| of two sets; 0 when both are empty."""
    set1, set2 = set(set1), set(set2)
    union = len(set1 | set2)
    return len(set1 & set2) / union if union else 0.0


def minhash_dedup_reference(signatures, threshold, exact_sets=None):
    """The dedup pass in rank order.

    Chunk i is compared with every kept j < i. It qualifies against j when the estimate is
    ≥ threshold (and, with ``exact_sets``, the exact Jaccard too). If any j qualifies, i is
    dropped as a duplicate of the qualifying j with the highest estimate (ties: lowest j);
    otherwise it is kept, and its max_similarity is its highest estimate against any earlier
    kept chunk (0.0 when there is none).
    Returns (kept, dropped, max_similarity): kept indices; (i, j, estimate, exact or None).
    """
    kept, dropped, max_similarity = [], [], []
    for i, sig in enumerate(signatures):
        best = None
        top = 0.0
        for j in kept:
            est = minhash_similarity_reference(sig, signatures[j])
            top = max(top, est)
            if est < threshold:
                continue
            exact = None
            if exact_sets is not None:
                exact = jaccard_reference(exact_sets[i], exact_sets[j])
                if exact < threshold:
                    continue
            if best is None or est > best[1]:
                best = (j, est, exact)
        if best is None:
            kept.append(i)
            max_similarity.append(top)
        else:
            dropped.append((i, best[0], best[1], best[2]))
    return kept, dropped, max_similarity
