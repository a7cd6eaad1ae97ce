"""Slow, obviously-correct oracles the tests compare ckn's kernels against.

Append new oracles as separate functions; keep each one short enough to check by eye.
"""

from itertools import combinations


def knapsack_brute_force(weights, values, budget):
    """Every subset: the spec §8 choice as a sorted index tuple (n ≤ ~16).

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


# --- MinHash (spec §7) oracles -------------------------------------------------------------

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
    """Set of x = s mod p over every run of ``shingle_size`` consecutive terms (spec §7)."""
    return shingle_hash_set_reference([fnv1a64_reference(t) for t in term_list], shingle_size)


def shingle_hash_set_reference(hashes, shingle_size):
    """:func:`shingle_set_reference` from the terms' hashes."""
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


def bm25_reference(documents, query, k1=1.5, b=0.75):
    """BM25, Lucene IDF, straight from spec §5: every distinct query term, every document.

    Terms are summed in the order of their first appearance in the query; a term with f = 0
    adds nothing (its limit is 0 also when k1 = 0).
    """
    from math import log

    n_docs = len(documents)
    if n_docs == 0 or sum(len(d) for d in documents) == 0:
        return [0.0] * n_docs
    avgdl = sum(len(d) for d in documents) / n_docs
    scores = []
    for d in documents:
        score = 0.0
        for t in dict.fromkeys(query):
            n_t = sum(1 for other in documents if t in other)
            f = list(d).count(t)
            if f:
                idf = log(1 + (n_docs - n_t + 0.5) / (n_t + 0.5))
                score += idf * f * (k1 + 1) / (f + k1 * (1 - b + b * len(d) / avgdl))
        scores.append(score)
    return scores


def cosine_reference(u, v):
    """Cosine via exact rational arithmetic: cos² = dot² / (|u|²·|v|²); 0.0 for a zero vector."""
    from fractions import Fraction
    from math import sqrt

    u, v = [Fraction(x) for x in u], [Fraction(x) for x in v]
    if not any(u) or not any(v):
        return 0.0
    dot = sum(a * c for a, c in zip(u, v))
    squared = dot * dot / (sum(a * a for a in u) * sum(c * c for c in v))
    return -sqrt(float(squared)) if dot < 0 else sqrt(float(squared))


def rank_positions_reference(scores):
    """rank_i = 1 + #(present scores above s_i) + #(earlier equal scores); None stays None."""
    ranks = []
    for i, s in enumerate(scores):
        if s is None:
            ranks.append(None)
            continue
        above = sum(1 for t in scores if t is not None and t > s)
        earlier_equal = sum(1 for t in scores[:i] if t is not None and t == s)
        ranks.append(1 + above + earlier_equal)
    return ranks


def rrf_reference(bm25_ranks, dense_ranks, k=60, w_bm25=1.0, w_dense=1.0):
    """spec §5: Σ over the lists a candidate is present in of w / (k + rank)."""
    return [
        (0.0 if rb is None else w_bm25 / (k + rb)) + (0.0 if rd is None else w_dense / (k + rd))
        for rb, rd in zip(bm25_ranks, dense_ranks)
    ]


def fused_order_reference(rrf_scores, bm25_ranks, dense_ranks):
    """sorted() with the full spec §5 key; a missing rank is larger than any present rank."""
    missing = len(rrf_scores) + 1
    return sorted(
        range(len(rrf_scores)),
        key=lambda i: (
            -rrf_scores[i],
            missing if bm25_ranks[i] is None else bm25_ranks[i],
            missing if dense_ranks[i] is None else dense_ranks[i],
            i,
        ),
    )


# --- the pack stage (spec §6–§8) over a ranking ---------------------------------------------

MARKER = "[REDACTED_UNTRUSTED_DIRECTIVE]"


def pack_reference(ranked, texts, tokens, budget, *, dense, threshold=0.75, lam=0.35, k=6,
                   power=8.0, scale=10**12, permutations=64, shingle_size=3, terms=None):
    """The selection of spec §6–§8 for texts the sanitizer leaves unchanged.

    ``ranked``: candidate indices in fused order with their per-list ranks,
    ``[(i, bm25_rank, dense_rank), ...]`` (None: absent); ``dense``: the pool has a dense list;
    ``texts``/``tokens`` by candidate index; ``terms``: the spec §4 tokenizer. A chunk whose
    lines are all blank or the marker (surrounding whitespace allowed) is dropped as empty;
    the rest are deduplicated in fused order, valued
    ``floor(scale·(r/r_best)^power·(1 − λ·overlap) + 0.5)`` with ``r = Σ 1/(k + rank)``, and
    chosen by brute force (fitting chunks, fused order).
    Returns ``(dropped_empty, dropped_duplicate, selected)`` as candidate-index lists."""
    from math import floor

    def content(text):
        return [line for line in text.replace("\r\n", "\n").split("\n")
                if line.strip() and line.strip() != MARKER]

    empty = [i for i, _, _ in ranked if not content(texts[i])]
    survivors = [(i, rb, rd) for i, rb, rd in ranked if content(texts[i])]
    signatures = []
    for i, _, _ in survivors:
        clean = "\n".join(line for line in texts[i].split("\n") if line.strip() != MARKER)
        hashes = [fnv1a64_reference(t) for t in terms(clean)]
        signatures.append(minhash_signature_reference(
            shingle_hash_set_reference(hashes, shingle_size), permutations))
    kept, dropped, overlap = minhash_dedup_reference(signatures, threshold)
    duplicates = [survivors[d[0]][0] for d in dropped]
    best = (2 if dense else 1) / (k + 1)

    def relevance(rb, rd):
        return (0 if rb is None else 1 / (k + rb)) + (0 if rd is None else 1 / (k + rd))

    values = [floor(scale * (relevance(*survivors[j][1:]) / best) ** power * (1 - lam * o) + 0.5)
              for j, o in zip(kept, overlap)]
    fit = [j for j, k in enumerate(kept) if tokens[survivors[k][0]] <= budget]
    chosen = knapsack_brute_force([tokens[survivors[kept[j]][0]] for j in fit],
                                  [values[j] for j in fit], budget)
    return empty, duplicates, [survivors[kept[fit[c]]][0] for c in chosen]
