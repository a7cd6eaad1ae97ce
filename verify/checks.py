"""The checks, and the independent reference implementations they compare ckn against.

Nothing here imports ckn at module level and nothing reuses ckn's internals or its own test
oracles (``tests/reference.py``): the brute-force enumeration, the BM25, the rank/RRF/fused
order and the exact Jaccard below are written from spec §5, §7 and §8 alone. ckn is reached only
through its public functions, passed in (so that ``test_harness.py`` can plant a broken one).
"""

from __future__ import annotations

import json
import math
import os
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from .instances import Instance

__all__ = [
    "FAILURES_DIR",
    "brute_force",
    "check_knapsack",
    "save_failure",
    "bm25_reference",
    "HAND_CORPUS",
    "HAND_QUERY",
    "hand_bm25_expected",
    "check_bm25_hand",
    "check_bm25_pools",
    "rank_reference",
    "rrf_reference",
    "fused_order_reference",
    "check_rrf",
    "check_minhash",
]

FAILURES_DIR = Path(__file__).resolve().parent / "failures"
ENUMERATE_UP_TO = 16
# max_memory values each instance is also solved under: nothing (branch and bound), and caps
# that leave room only for small DPs over values or small tables
MEMORY_CAPS = (0, 4096, 65536)


WIDE = 2**50    # weights or budgets from here on go to the ILPs with exactly split weights


def _ckn_solve():
    from ckn.knapsack import solve

    return solve


# ============================================================================ knapsack

def brute_force(weights: Sequence[int], values: Sequence[int], budget: int):
    """Every subset, by enumeration (n ≤ ~20).

    Returns ``(best_value, fewest_weight, choice, n_optimal)`` where ``choice`` is the tuple of
    indices spec §8 demands: among subsets of maximum value, those of fewest total weight, and
    among them the lexicographically greatest indicator vector (x_0, x_1, ...), i.e. the one
    that keeps the highest-ranked items. ``n_optimal`` counts the maximum-value subsets.
    """
    n = len(weights)
    size = 1 << n
    W = [0] * size
    V = [0] * size
    for m in range(1, size):
        low = m & -m
        i = low.bit_length() - 1
        prev = m ^ low
        W[m] = W[prev] + weights[i]
        V[m] = V[prev] + values[i]
    best = max(V[m] for m in range(size) if W[m] <= budget)
    optimal = [m for m in range(size) if W[m] <= budget and V[m] == best]
    fewest = min(W[m] for m in optimal)
    # The indicator vector read from item 0 is the bit string of m reversed, so the
    # lexicographically greatest vector is the mask whose reversed bits are largest.
    def vector(m: int) -> tuple[int, ...]:
        return tuple((m >> i) & 1 for i in range(n))

    pick = max((m for m in optimal if W[m] == fewest), key=vector)
    return best, fewest, tuple(i for i in range(n) if (pick >> i) & 1), len(optimal)


def _selection_problems(label: str, indices, n: int) -> list[str]:
    if not isinstance(indices, (tuple, list)):
        return [f"{label}: indices is a {type(indices).__name__}, not a sequence"]
    if any(isinstance(i, bool) or not isinstance(i, int) for i in indices):
        return [f"{label}: indices are not all integers: {indices!r}"]
    if any(i < 0 or i >= n for i in indices):
        return [f"{label}: index out of range 0..{n - 1}: {indices!r}"]
    if list(indices) != sorted(set(indices)):
        return [f"{label}: indices not strictly ascending (repeated item?): {indices!r}"]
    return []


def check_knapsack(inst: Instance, *, solver: Callable | None = None, ilp: bool = True,
                   enumerate_up_to: int = ENUMERATE_UP_TO, fewest_tokens_ilp: bool = True,
                   time_limit: float | None = 300) -> dict:
    """Check one instance; returns a JSON-able record with ``status`` ok/mismatch/inconclusive.

    1. ckn's selection is valid, feasible, and its value and weight, recomputed from the chosen
       items, equal what ckn reports.
    2. Under the memory caps ``MEMORY_CAPS`` (``max_memory=0``: no DP fits, branch and bound)
       ckn chooses the identical items, or says it gave up (a CknMemoryError naming the
       ``max_memory`` that would help: counted, not a mismatch).
    3. n ≤ ``enumerate_up_to``: ckn's choice is exactly the spec §8 tie-rule choice among all
       subsets (optimum, then fewest tokens, then lexicographic by rank).
    4. CBC's ILP optimum: its own selection is feasible and its recomputed value equals ckn's.
    5. n > ``enumerate_up_to``: a second ILP (fewest tokens reaching that value) confirms ckn's
       total weight is the fewest possible among optimal subsets.
    """
    solve = solver if solver is not None else _ckn_solve()
    w, v, B = list(inst.weights), list(inst.values), inst.budget
    n = len(w)
    rec: dict = {"seed": inst.seed, "index": inst.index, "kind": inst.kind, "n": n, "budget": B,
                 "checks": [], "problems": [], "inconclusive": []}
    problems: list[str] = rec["problems"]

    t0 = time.perf_counter()
    res = solve(w, v, B)
    rec["time_ckn"] = time.perf_counter() - t0
    sel = tuple(res.indices)
    bad = _selection_problems("ckn", sel, n)
    if bad:
        problems += bad
        rec["status"] = "mismatch"
        return rec
    ckn_w = sum(w[i] for i in sel)
    ckn_v = sum(v[i] for i in sel)
    rec["ckn_value"], rec["ckn_weight"], rec["ckn_indices"] = ckn_v, ckn_w, list(sel)
    if ckn_w > B:
        problems.append(f"ckn selection infeasible: weight {ckn_w} > budget {B}")
    if (res.total_value, res.total_weight) != (ckn_v, ckn_w):
        problems.append(f"ckn reports value/weight {res.total_value}/{res.total_weight}, "
                        f"recomputed from its items {ckn_v}/{ckn_w}")
    rec["checks"].append("feasible+recomputed")
    if "pack_error" in inst.note:
        problems.append(f"ckn.pack raised on this pool: {inst.note['pack_error']}")
    if "pack_selected" in inst.note:  # a pipeline instance: pack must have chosen the same
        if solver is None and tuple(inst.note["pack_selected"]) != sel:
            problems.append(f"ckn.pack selected {tuple(inst.note['pack_selected'])}, the "
                            f"knapsack on its own values selects {sel}")
        rec["checks"].append("pack selection = knapsack")

    rec["gave_up"] = []
    for cap in MEMORY_CAPS:
        try:
            capped = solve(w, v, B, max_memory=cap)
        except Exception as exc:  # noqa: BLE001 - only ckn's documented give-up passes
            if type(exc).__name__ == "CknMemoryError" and "raise max_memory to" in str(exc):
                rec["gave_up"].append(cap)
                continue
            problems.append(f"max_memory={cap} raised {type(exc).__name__}: {exc}")
            continue
        if tuple(capped.indices) != sel:
            problems.append(f"max_memory={cap} path chose {tuple(capped.indices)}, default "
                            f"path {sel}")
    rec["checks"].append("memory-capped identical")

    if n <= enumerate_up_to:
        best, fewest, choice, n_opt = brute_force(w, v, B)
        rec["enum_value"], rec["n_optimal"] = best, n_opt
        if ckn_v != best:
            problems.append(f"enumeration optimum {best} != ckn value {ckn_v}")
        elif ckn_w != fewest:
            problems.append(f"tie rule: an optimal subset has {fewest} tokens, ckn took {ckn_w}")
        elif sel != choice:
            problems.append(f"tie rule: lexicographic choice is {choice}, ckn chose {sel}")
        rec["checks"].append("enumeration+tie rules")

    if ilp:
        _check_against_ilp(rec, w, v, B, ckn_v, ckn_w, enumerate_up_to, fewest_tokens_ilp,
                           time_limit)
    rec["status"] = ("mismatch" if problems else "inconclusive" if rec["inconclusive"] else "ok")
    return rec


def _check_against_ilp(rec, w, v, B, ckn_v, ckn_w, enumerate_up_to, fewest_tokens_ilp,
                       time_limit) -> None:
    """Steps 4 and 5 of :func:`check_knapsack`.

    CBC's answer is contradicted when ckn's selection -- already checked feasible, its value
    recomputed -- is better than CBC's "proven" optimum, or CBC's selection is infeasible. That
    proves CBC wrong, not ckn; CBC 2.10's cut generators are known to cut off optima now and
    then (coin-or/Cbc#723, Cbc#82). Such an ILP is re-solved once with cuts and presolve off;
    if that run agrees with ckn the instance passes and the event is recorded in
    ``rec["cbc_faults"]``, otherwise it is a mismatch.
    """
    from .ilp import solve_ilp, solve_min_weight

    wide = max(max(w, default=0), B) >= WIDE
    if wide:  # past double's exact integers: the ILP with the budget row carried by digits
        from .ilp import solve_ilp_wide as solve_ilp
    problems = rec["problems"]
    ckn_ok = ckn_w <= B  # ckn's selection (valid, value recomputed) is a feasible witness
    rec["cbc_faults"] = []
    t0 = time.perf_counter()
    r = solve_ilp(w, v, B, time_limit=time_limit)
    if not r.proven and r.status.startswith("Infeasible"):  # the empty set is feasible
        rec["cbc_faults"].append("CBC (default settings) called the ILP infeasible; re-solved "
                                 "with cuts and presolve off")
        r = solve_ilp(w, v, B, time_limit=time_limit, plain=True)
    for attempt in (0, 1):
        if not r.proven:
            break
        ilp_w = sum(w[i] for i in r.indices)
        ilp_v = sum(v[i] for i in r.indices)
        contradicted = ckn_ok and (ilp_w > B or ilp_v < ckn_v)
        if attempt == 0 and contradicted:
            rec["cbc_faults"].append(
                f"CBC (default settings) returned a proven optimum of value {ilp_v}, weight "
                f"{ilp_w}, but ckn's feasible selection has value {ckn_v}; re-solved with cuts "
                "and presolve off")
            r = solve_ilp(w, v, B, time_limit=time_limit, plain=True)
            continue
        break
    rec["time_ilp"] = time.perf_counter() - t0
    rec["ilp_status"] = r.status
    if not r.proven:
        rec["inconclusive"].append(f"ILP not proven optimal: {r.status}")
        return
    rec["ilp_value"], rec["ilp_weight"] = ilp_v, ilp_w
    rec["gap"] = ilp_v - ckn_v
    if ilp_w > B:
        problems.append(f"ILP selection infeasible: weight {ilp_w} > budget {B}")
    elif ilp_v > ckn_v:
        problems.append(f"ckn suboptimal: ILP value {ilp_v} > ckn value {ckn_v}")
    elif ilp_v < ckn_v:
        problems.append(f"ILP value {ilp_v} < ckn value {ckn_v} (CBC not optimal?)")
    rec["checks"].append("ILP optimum")
    if not (fewest_tokens_ilp and len(w) > enumerate_up_to and not problems):
        return
    if wide:
        _fewest_tokens_wide(rec, w, v, ckn_v, ckn_w, time_limit)
        return
    t0 = time.perf_counter()
    m = solve_min_weight(w, v, B, ckn_v, time_limit=time_limit)
    if not m.proven and m.status.startswith("Infeasible"):  # ckn's selection is a witness
        rec["cbc_faults"].append(
            f"CBC (default settings) called the fewest-tokens ILP infeasible, but ckn's "
            f"selection (value {ckn_v}, {ckn_w} tokens) satisfies it; re-solved with cuts and "
            "presolve off")
        m = solve_min_weight(w, v, B, ckn_v, time_limit=time_limit, plain=True)
    for attempt in (0, 1):
        if not m.proven:
            break
        mw = sum(w[i] for i in m.indices)
        mv = sum(v[i] for i in m.indices)
        if attempt == 0 and (mw > B or mv < ckn_v or mw > ckn_w):
            rec["cbc_faults"].append(
                f"CBC (default settings) returned a fewest-tokens optimum of {mw} tokens (value "
                f"{mv}) but ckn's selection has {ckn_w} tokens and value {ckn_v}; re-solved "
                "with cuts and presolve off")
            m = solve_min_weight(w, v, B, ckn_v, time_limit=time_limit, plain=True)
            continue
        break
    rec["time_ilp"] += time.perf_counter() - t0
    if not m.proven:
        rec["inconclusive"].append(f"fewest-tokens ILP not proven: {m.status}")
        return
    if mw > B or mv < ckn_v:
        problems.append(f"fewest-tokens ILP selection invalid: {mw} tokens, value {mv}")
    elif mw < ckn_w:
        problems.append(f"tie rule: an optimal subset has {mw} tokens, ckn took {ckn_w}")
    elif mw > ckn_w:
        problems.append(f"fewest-tokens ILP found {mw} > ckn's {ckn_w} (CBC not optimal?)")
    rec["checks"].append("ILP fewest tokens")


def _fewest_tokens_wide(rec, w, v, ckn_v, ckn_w, time_limit) -> None:
    """Step 5 for huge weights: the best value within ckn's weight minus one token is below
    ckn's value (the maximising ILP with exact weights, CBC's selection recomputed), so no
    optimal subset is lighter than ckn's. A minimising ILP over huge weights is not used: CBC
    has been seen to call such a model infeasible although a witness satisfies it."""
    from .ilp import solve_ilp_wide

    problems = rec["problems"]
    t0 = time.perf_counter()
    if ckn_w == 0:
        rec["checks"].append("ILP fewest tokens")
        return
    r = solve_ilp_wide(w, v, ckn_w - 1, time_limit=time_limit)
    if not r.proven:
        rec["cbc_faults"].append(f"CBC did not prove the ILP within {ckn_w - 1} tokens "
                                 f"({r.status}); re-solved with cuts and presolve off")
        r = solve_ilp_wide(w, v, ckn_w - 1, time_limit=time_limit, plain=True)
    rec["time_ilp"] += time.perf_counter() - t0
    if not r.proven:
        rec["inconclusive"].append(f"fewest-tokens ILP not proven: {r.status}")
        return
    lw = sum(w[i] for i in r.indices)
    lv = sum(v[i] for i in r.indices)
    if lw <= ckn_w - 1 and lv >= ckn_v:
        problems.append(f"tie rule: an optimal subset has {lw} tokens, ckn took {ckn_w}")
    elif lw > ckn_w - 1:
        problems.append(f"fewest-tokens ILP selection infeasible: {lw} tokens > {ckn_w - 1}")
    rec["checks"].append("ILP fewest tokens")


def save_failure(inst: Instance, rec: dict, directory: Path | str | None = None) -> Path:
    """Write the instance, its seed and the problems found as JSON; returns the path."""
    directory = Path(directory) if directory is not None else FAILURES_DIR
    directory.mkdir(parents=True, exist_ok=True)
    name = f"{inst.kind}-seed{inst.seed}-i{inst.index}.json"
    if inst.seed is None:
        name = f"{inst.kind}-{os.getpid()}-{time.time_ns()}.json"
    path = directory / name
    payload = {
        "seed": inst.seed,
        "index": inst.index,
        "reproduce": (f"python -m verify --only knapsack --seed {inst.seed} --start {inst.index} "
                       "--instances 1"
                      if inst.seed is not None else f"python -m verify --replay {path}"),
        "instance": inst.to_json(),
        "record": rec,
    }
    path.write_text(json.dumps(payload, indent=1, sort_keys=True) + "\n")
    return path


# ============================================================================ BM25

def bm25_reference(documents: Sequence[Sequence[str]], query: Sequence[str], *,
                   k1: float = 1.5, b: float = 0.75) -> list[float]:
    """spec §5 BM25 written out directly: O(N · |q| · |d|), no shortcuts."""
    N = len(documents)
    if N == 0:
        return []
    avgdl = sum(len(d) for d in documents) / N
    if avgdl == 0:
        return [0.0] * N
    distinct: list[str] = []
    for t in query:
        if t not in distinct:
            distinct.append(t)
    out = []
    for d in documents:
        score = 0.0
        for t in distinct:
            f = d.count(t)
            if f == 0:
                continue
            n_t = sum(1 for other in documents if t in other)
            idf = math.log(1 + (N - n_t + 0.5) / (n_t + 0.5))
            score += idf * f * (k1 + 1) / (f + k1 * (1 - b + b * len(d) / avgdl))
        out.append(score)
    return out


# The hand-computed case of verify/README.md: lengths 4, 8, 2, 6 (avgdl = 5), query of 3 terms.
HAND_CORPUS = (
    "Cat sat on mat",
    "the dog saw the cat and the dog",
    "dog barks",
    "a cat for a sleepy bird",
)
HAND_QUERY = "cat dog mat"


def hand_bm25_expected() -> list[float]:
    """verify/README.md's step-by-step result, k1 = 1.5, b = 0.75, as closed forms.

    idf(cat) = ln(10/7) (n=3), idf(dog) = ln 2 (n=2), idf(mat) = ln(10/3) (n=1);
    K(d) = 1.5·(0.25 + 0.75·|d|/5) = 1.275, 2.175, 0.825, 1.725 for |d| = 4, 8, 2, 6;
    tf part f·2.5/(f + K).
    """
    cat, dog, mat = math.log(10 / 7), math.log(2), math.log(10 / 3)
    return [
        cat * 2.5 / 2.275 + mat * 2.5 / 2.275,
        cat * 2.5 / 3.175 + dog * 5.0 / 4.175,
        dog * 2.5 / 1.825,
        cat * 2.5 / 2.725,
    ]


# The same four numbers as decimals, as printed in verify/README.md.
HAND_DECIMALS = (1.7149975255655698, 1.1109627964543092, 0.9495166856985552, 0.32722471920984625)


def check_bm25_hand(bm25: Callable | None = None, terms: Callable | None = None) -> dict:
    """ckn's BM25 on the hand-computed case, to 1e-12 (absolute)."""
    if bm25 is None:
        from ckn.bm25 import bm25_scores as bm25
    if terms is None:
        from ckn.terms import terms
    got = bm25([terms(t) for t in HAND_CORPUS], terms(HAND_QUERY), k1=1.5, b=0.75)
    expected = hand_bm25_expected()
    err = max(max(abs(g - e) for g, e in zip(got, expected)),
              max(abs(g - e) for g, e in zip(got, HAND_DECIMALS)))
    ok = len(got) == 4 and err <= 1e-12
    return {"ok": ok, "scores": list(got), "expected": expected, "max_abs_error": err}


def _bm25s_scores(docs: list[list[str]], query: list[str], k1: float, b: float) -> list[float]:
    """bm25s (method="lucene", float64) on pre-tokenised input, rescaled to spec §5.

    Read from bm25s/scoring.py (0.2.x/0.3.x): its Lucene IDF is ln(1 + (N − df + 0.5)/(df + 0.5))
    (the same), but its Lucene term part is f / (f + k1·(1 − b + b·|d|/avgdl)) without the
    (k1 + 1) factor, a constant that does not change rankings; we multiply it back. A list of
    lists of strings is indexed as-is (no tokeniser, no stop words, no stemming). Its query
    scoring sums every query token given, so it gets the distinct terms; tokens outside its
    vocabulary are dropped first (they score 0 in both).
    """
    import bm25s
    import numpy as np

    retriever = bm25s.BM25(method="lucene", k1=k1, b=b, dtype="float64")
    retriever.index(docs, show_progress=False)
    vocab = retriever.vocab_dict
    q = [t for t in dict.fromkeys(query) if t in vocab and t != ""]
    if not q:
        return [0.0] * len(docs)
    scores = np.asarray(retriever.get_scores(q), dtype=np.float64)
    return [float(s) * (k1 + 1) for s in scores]


def _random_pool(rng: random.Random):
    vocab_size = rng.randint(3, 40)
    vocab = [f"w{i}" for i in range(vocab_size)]
    extra = ["Straße", "STRASSE", "東京タワー", "naïve", "ﬁle", "x\u200by", "café", "42"]
    n = rng.randint(1, 40)
    docs = []
    for _ in range(n):
        length = 0 if rng.random() < 0.05 else rng.randint(1, 50)
        words = [rng.choice(vocab) if rng.random() < 0.9 else rng.choice(extra)
                 for _ in range(length)]
        docs.append(" ".join(words))
    query = " ".join(rng.choice(vocab + extra) for _ in range(rng.randint(1, 6)))
    k1 = rng.choice((1.5, 1.2, 0.0, 0.9, 2.0, round(rng.uniform(0, 3), 3)))
    b = rng.choice((0.75, 0.0, 1.0, 0.5, round(rng.uniform(0, 1), 3)))
    return docs, query, k1, b


def check_bm25_pools(seed: int, pools: int = 200, *, bm25: Callable | None = None,
                     terms: Callable | None = None, use_bm25s: bool = True) -> dict:
    """ckn's BM25 vs this module's reference and vs bm25s on random pools, to 1e-9."""
    if bm25 is None:
        from ckn.bm25 import bm25_scores as bm25
    if terms is None:
        from ckn.terms import terms
    rng = random.Random(f"ckn-verify-bm25:{seed}")
    max_ref = max_bm25s = 0.0
    failures = []
    compared_bm25s = 0
    for p in range(pools):
        docs, query, k1, b = _random_pool(rng)
        dt = [terms(d) for d in docs]
        qt = terms(query)
        got = bm25(dt, qt, k1=k1, b=b)
        ref = bm25_reference(dt, qt, k1=k1, b=b)
        e_ref = max((abs(g - r) for g, r in zip(got, ref)), default=0.0)
        if len(got) != len(ref):
            e_ref = math.inf
        max_ref = max(max_ref, e_ref)
        e_s = 0.0
        if use_bm25s and sum(map(len, dt)) > 0:
            other = _bm25s_scores(dt, qt, k1, b)
            compared_bm25s += 1
            e_s = max((abs(g - o) / max(1.0, abs(o)) for g, o in zip(got, other)), default=0.0)
            max_bm25s = max(max_bm25s, e_s)
        if e_ref > 1e-9 or e_s > 1e-9:
            failures.append({"pool": p, "seed": seed, "docs": docs, "query": query, "k1": k1,
                             "b": b, "ckn": got, "reference": ref, "err_ref": e_ref,
                             "err_bm25s": e_s})
    return {"pools": pools, "compared_with_bm25s": compared_bm25s,
            "max_err_reference": max_ref, "max_err_bm25s": max_bm25s,
            "mismatches": len(failures), "failures": failures[:5], "ok": not failures}


# ============================================================================ RRF

def rank_reference(scores: Sequence[float | None]) -> list[int | None]:
    """1 + the number of present scores strictly ahead (higher, or equal and earlier)."""
    out: list[int | None] = []
    for i, s in enumerate(scores):
        if s is None:
            out.append(None)
            continue
        ahead = 0
        for j, t in enumerate(scores):
            if t is not None and (t > s or (t == s and j < i)):
                ahead += 1
        out.append(ahead + 1)
    return out


def rrf_reference(rb, rd, *, k: float = 60, w_bm25: float = 1.0, w_dense: float = 1.0):
    out = []
    for i in range(len(rb)):
        if rb[i] is not None and rd is not None and rd[i] is not None:
            out.append(w_bm25 / (k + rb[i]) + w_dense / (k + rd[i]))
        elif rb[i] is not None:
            out.append(w_bm25 / (k + rb[i]))
        elif rd is not None and rd[i] is not None:
            out.append(w_dense / (k + rd[i]))
        else:
            out.append(0.0)
    return out


def fused_order_reference(rrf, rb, rd) -> list[int]:
    """Position of i = number of candidates that precede it under spec §5's rule."""
    n = len(rrf)
    rd = rd if rd is not None else [None] * n

    def precedes(j: int, i: int) -> bool:
        if rrf[j] != rrf[i]:
            return rrf[j] > rrf[i]
        for a, c in ((rb[j], rb[i]), (rd[j], rd[i])):
            if a != c:
                if a is None:
                    return False
                if c is None:
                    return True
                return a < c
        return j < i

    pos = [sum(1 for j in range(n) if j != i and precedes(j, i)) for i in range(n)]
    order = [0] * n
    for i, p in enumerate(pos):
        order[p] = i
    return order


def _rrf_case(rng: random.Random):
    """Score lists or rank lists with planted exact ties."""
    n = rng.randint(0, 150)
    k = rng.choice((60, 60, 0, 1, 10))
    weights = rng.choice(({}, {}, {"bm25": 2.0}, {"dense": 0.5}, {"bm25": 0.0}))
    mode = rng.random()
    if mode < 0.5:
        # Scores from tiny sets: equal scores everywhere, some candidates lack an embedding.
        bm = [rng.choice((0.0, 0.5, 1.25, 2.0)) for _ in range(n)]
        de = [None if rng.random() < 0.15 else rng.choice((-0.5, 0.0, 0.5, 1.0))
              for _ in range(n)]
        return {"n": n, "k": k, "weights": weights, "bm25_scores": bm, "dense_scores": de}
    rb = list(range(1, n + 1))
    rng.shuffle(rb)
    rd: list[int | None] = list(rb)
    # Swapped rank pairs: rrf(i) = 1/(k+a) + 1/(k+b) = rrf(j) exactly (addition commutes).
    idx = list(range(n))
    rng.shuffle(idx)
    for a in range(0, n - 1, 2):
        i, j = idx[a], idx[a + 1]
        if rng.random() < 0.7:
            rd[i], rd[j] = rb[j], rb[i]
    # An absent dense rank against a present pair: 1/(k+a) = 2 · 1/(2(k+a)) when
    # rb = rd = k + 2a for the other candidate (exact in binary floating point).
    if n and mode > 0.85:
        for i in range(n):
            a = rb[i]
            if rng.random() < 0.3 and isinstance(k, int) and k + 2 * a <= n:
                j = rb.index(k + 2 * a)
                rd[i] = None
                rd[j] = k + 2 * a
    dense = None if mode > 0.95 else rd
    return {"n": n, "k": k, "weights": weights, "bm25_ranks": rb, "dense_ranks": dense}


def check_rrf(seed: int, cases: int = 500, *, fusion=None) -> dict:
    """ckn's rank_positions / reciprocal_rank_fusion / fused_order vs the references."""
    if fusion is None:
        import ckn.fusion as fusion
    rng = random.Random(f"ckn-verify-rrf:{seed}")
    failures = []
    tied_pairs = 0
    for c in range(cases):
        case = _rrf_case(rng)
        if "bm25_scores" in case:
            rb = fusion.rank_positions(case["bm25_scores"])
            rd = fusion.rank_positions(case["dense_scores"])
            rb_ref = rank_reference(case["bm25_scores"])
            rd_ref = rank_reference(case["dense_scores"])
            if list(rb) != rb_ref or list(rd) != rd_ref:
                failures.append({"case": c, "what": "rank_positions", **case})
                continue
        else:
            rb, rd = case["bm25_ranks"], case["dense_ranks"]
        w = case["weights"]
        rrf = fusion.reciprocal_rank_fusion(rb, rd, k=case["k"], weights=w)
        ref = rrf_reference(rb, rd, k=case["k"], w_bm25=w.get("bm25", 1.0),
                            w_dense=w.get("dense", 1.0))
        if list(rrf) != ref:
            failures.append({"case": c, "what": "rrf scores", **case})
            continue
        order = fusion.fused_order(rrf, rb, rd)
        ref_order = fused_order_reference(ref, rb, rd)
        seen: dict[float, int] = {}
        for s in ref:
            seen[s] = seen.get(s, 0) + 1
        tied_pairs += sum(m * (m - 1) // 2 for m in seen.values())
        if list(order) != ref_order:
            failures.append({"case": c, "what": "fused order", "ckn": list(order),
                             "reference": ref_order, **case})
    return {"cases": cases, "tied_pairs": tied_pairs, "mismatches": len(failures),
            "failures": failures[:3], "ok": not failures}


# ============================================================================ MinHash

_P = (1 << 31) - 1
_MASK = (1 << 64) - 1


def _fnv1a64(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & _MASK
    return h


def _mix64(z: int) -> int:
    z ^= z >> 30
    z = (z * 0xBF58476D1CE4E5B9) & _MASK
    z ^= z >> 27
    z = (z * 0x94D049BB133111EB) & _MASK
    z ^= z >> 31
    return z


def shingle_set(term_list: Sequence[str], size: int = 3) -> set[int]:
    """spec §7's shingle hashes (x = s mod p) of a term list, from the spec's words alone."""
    if not term_list:
        return set()
    hashes = [_fnv1a64(t.encode("utf-8")) for t in term_list]
    width = min(size, len(hashes))
    out = set()
    for start in range(len(hashes) - width + 1):
        s = 0
        for t in hashes[start:start + width]:
            s = _mix64(s ^ t)
        out.add(s % _P)
    return out


def _set_pair(rng: random.Random):
    """Two sets of values in [0, p) with a chosen exact Jaccard (uniform over [0, 1])."""
    union = rng.randint(20, 400)
    r = rng.random()
    j = 0.0 if r < 0.02 else 1.0 if r < 0.04 else rng.random()
    common = round(j * union)
    pool = rng.sample(range(_P), union)
    a_only = rng.randint(0, union - common)
    A = set(pool[:common + a_only])
    B = set(pool[:common]) | set(pool[common + a_only:])
    return A, B


def _text_pair(rng: random.Random):
    vocab = [f"t{rng.getrandbits(20):x}" for _ in range(rng.randint(20, 400))]
    base = [rng.choice(vocab) for _ in range(rng.randint(3, 120))]
    other = list(base)
    rate = 0.6 * rng.random() ** 2
    for i in range(len(other)):
        if rng.random() < rate:
            other[i] = rng.choice(vocab)
    if rng.random() < 0.3:
        other = other[rng.randint(0, len(other) // 2):]
    return " ".join(base), " ".join(other)


def check_minhash(seed: int, pairs: int = 2000, *, permutations: int = 64,
                  threshold: float = 0.75, similarity: Callable | None = None,
                  minhash_module=None) -> dict:
    """Estimated vs exact Jaccard over random pairs (3/4 integer sets, 1/4 texts).

    Pass criteria: |mean bias| < 0.01; share of estimates outside J ± 3σ, σ = sqrt(J(1−J)/P),
    below 1% (where σ = 0, at J = 0 or 1, any deviation counts as outside); no wrong
    near-duplicate decision for a pair whose exact Jaccard is ≥ 0.3 away from the threshold.
    For text pairs ckn's ``text_shingles`` must equal this module's spec §7 shingle hashes.
    """
    mh = minhash_module
    if mh is None:
        import ckn.minhash as mh
    from ckn.terms import terms

    sim = similarity if similarity is not None else mh.similarity
    hasher = mh.MinHasher(permutations)
    rng = random.Random(f"ckn-verify-minhash:{seed}")
    bias_sum = 0.0
    outside = 0
    far_wrong = 0
    shingle_mismatch = 0
    table = {"tp": 0, "fp": 0, "fn": 0, "tn": 0}
    bins = [[0, 0.0] for _ in range(10)]
    worst = []
    for p in range(pairs):
        if p % 4 == 3:
            ta, tb = _text_pair(rng)
            A, B = shingle_set(terms(ta)), shingle_set(terms(tb))
            if set(mh.text_shingles(ta)) != A or set(mh.text_shingles(tb)) != B:
                shingle_mismatch += 1
        else:
            A, B = _set_pair(rng)
        union = A | B
        J = len(A & B) / len(union) if union else 0.0
        est = float(sim(hasher.signature(sorted(A)), hasher.signature(sorted(B))))
        d = est - J
        bias_sum += d
        sigma = math.sqrt(J * (1 - J) / permutations)
        if abs(d) > 3 * sigma + 1e-12:
            outside += 1
            if len(worst) < 5:
                worst.append({"pair": p, "exact": J, "estimate": est})
        decide, truth = est >= threshold, J >= threshold
        table[("t" if decide == truth else "f") + ("p" if decide else "n")] += 1
        if decide != truth and abs(J - threshold) >= 0.3:
            far_wrong += 1
        b = bins[min(9, int(J * 10))]
        b[0] += 1
        b[1] += d
    bias = bias_sum / pairs if pairs else 0.0
    share = outside / pairs if pairs else 0.0
    return {
        "pairs": pairs, "permutations": permutations, "threshold": threshold,
        "mean_bias": bias, "share_outside_3sigma": share, "outside_3sigma": outside,
        "confusion": table, "far_wrong_decisions": far_wrong,
        "text_shingle_mismatches": shingle_mismatch,
        "bias_by_decile": [{"J": f"[{i / 10:.1f},{(i + 1) / 10:.1f})", "pairs": c,
                            "bias": (s / c if c else None)} for i, (c, s) in enumerate(bins)],
        "examples_outside": worst,
        "ok": abs(bias) < 0.01 and share < 0.01 and far_wrong == 0 and shingle_mismatch == 0,
    }
