"""How BM25, MinHash dedup and the knapsack grow with their input: a table of medians.

Usage: python benchmarks/growth.py [--rounds 3] [--only bm25|dedup|knapsack] [--json FILE]

Every case runs in a fresh subprocess, so the peak RSS it reports is that case's own: the
growth of ru_maxrss from after building the inputs to after the timed calls. Times are medians
of ``--rounds`` calls. Inputs are synthetic and seeded (no data files):

* **BM25** (``bm25_scores_hashed``): N candidates of 200 terms drawn from a 200,000-word
  vocabulary, queries of Q distinct terms; "dense table" is the N x Q x 8 bytes a
  documents x query-terms table of counts would take.
* **dedup** (``ckn.minhash.dedup``, 64 slots, threshold 0.75): ``near_dups`` = copies of n/100
  random signatures with up to 8 slots changed (most chunks are dropped); ``exact_dups`` =
  copies of n random signatures (a third dropped); ``similar_kept`` = copies of n/100 bases
  with 20 to 28 slots changed (nearly all kept, each sharing about half its slots with ~100
  others); ``distinct`` = random signatures. The peer is the inverted index without banding
  (``_dedup_by(..., path="auto")``), once at 100,000 chunks, skipped where it would take
  minutes.
* **knapsack** (``ckn.knapsack.solve``): ckn-like pools (values a few thousand, nearly equal,
  tokens lognormal around 180) of n items under budgets up to 1,000,000 tokens, at several
  ``max_memory`` caps; "allocated" is tracemalloc's peak of one call (every block the solver
  allocates goes through PyMem_RawMalloc). Also four chunks of about 2**30 tokens under a
  budget of about 2**31.
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_CHILD = r'''
import json, math, random, resource, statistics, sys, time, tracemalloc
sys.path.insert(0, {root!r})
case = json.loads({case!r})
rounds = case["rounds"]

def timed(f, rounds=rounds):
    out, times = None, []
    for _ in range(rounds):
        t = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - t)
    return out, statistics.median(times)

def rss():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

result = dict(case)
if case["kind"] == "bm25":
    from array import array
    from ckn.bm25 import bm25_scores_hashed
    from ckn.scanner import scan, text_hashes
    rng = random.Random(1)
    texts = [" ".join("w%d" % rng.randrange(200_000) for _ in range(200))
             for _ in range(case["n"])]
    pool = scan(texts)
    query = array("Q", dict.fromkeys(text_hashes(" ".join("w%d" % i for i in range(case["q"])))))
    del texts
    base = rss()
    scores, t = timed(lambda: bm25_scores_hashed(pool, query))
    result.update(ms=t * 1e3, rss_mib=rss() - base)
elif case["kind"] == "dedup":
    import numpy as np
    from ckn.minhash import dedup, _dedup_by
    g = np.random.default_rng(7)
    n, family = case["n"], case["family"]
    if family == "distinct":
        sigs = g.integers(0, 2**31 - 1, size=(n, 64), dtype=np.uint32)
    else:
        bases = {{"near_dups": n // 100, "exact_dups": n, "similar_kept": n // 100}}[family]
        base = g.integers(0, 2**31 - 1, size=(max(1, bases), 64), dtype=np.uint32)
        sigs = base[g.integers(0, len(base), size=n)].copy()
        lo, hi = {{"near_dups": (0, 8), "exact_dups": (0, 0), "similar_kept": (20, 28)}}[family]
        for row in range(n):
            k = int(g.integers(lo, hi + 1))
            if k:
                slots = g.choice(64, size=k, replace=False)
                sigs[row, slots] = g.integers(0, 2**31 - 1, size=k, dtype=np.uint32)
    base_rss = rss()
    res, t = timed(lambda: dedup(sigs, 0.75))
    result.update(ms=t * 1e3, rss_mib=rss() - base_rss, kept=len(res.kept))
    if case["peer"]:
        peer, tp = timed(lambda: _dedup_by(sigs, 0.75, path="auto"), 1 if n >= 100_000 else rounds)
        assert peer == res
        result.update(peer_ms=tp * 1e3)
else:
    from ckn.knapsack import solve
    rng = random.Random(5)
    n = case["n"]
    if case.get("huge"):
        weights = [2**30 + rng.randrange(10**6) for _ in range(n)]
        values = [rng.randint(1_000, 3_000) for _ in range(n)]
    else:
        weights = [min(600, max(20, int(rng.lognormvariate(math.log(180), 0.5))))
                   for _ in range(n)]
        rrf = sorted((1 / (60 + a) + 1 / (60 + rng.randint(1, n)) for a in range(1, n + 1)),
                     reverse=True)
        values = [int(r * (1 - 0.35 * rng.choice([0, 0, rng.random()])) * 100_000 + 0.5)
                  for r in rrf]
    base = rss()
    res, t = timed(lambda: solve(weights, values, case["budget"], max_memory=case["max_memory"]))
    grown = rss() - base
    tracemalloc.start()
    solve(weights, values, case["budget"], max_memory=case["max_memory"])
    allocated = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    result.update(ms=t * 1e3, rss_mib=grown, allocated_mib=allocated / 2**20,
                  value=res.total_value, chosen=len(res.indices))
print(json.dumps(result))
'''


def run(case: dict) -> dict:
    code = _CHILD.format(root=str(ROOT), case=json.dumps(case))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=1800)
    if proc.returncode != 0:
        return dict(case, error=proc.stderr.strip().splitlines()[-1])
    return json.loads(proc.stdout)


def cases(rounds: int, only: set[str]):
    if "bm25" in only:
        for n, q in ((10_000, 10), (10_000, 1_000), (10_000, 10_000), (10_000, 100_000),
                     (1_000, 100_000), (20_000, 20_000)):
            yield {"kind": "bm25", "n": n, "q": q, "rounds": rounds}
    if "dedup" in only:
        for family in ("near_dups", "exact_dups", "distinct", "similar_kept"):
            for n in (1_000, 10_000, 100_000):
                slow_peer = (family == "exact_dups" and n > 30_000) or (
                    family == "similar_kept" and n > 30_000)
                if family == "similar_kept" and n > 30_000:
                    continue  # all pairs of ~100,000 kept chunks: minutes on either path
                yield {"kind": "dedup", "family": family, "n": n, "rounds": rounds,
                       "peer": not slow_peer}
    if "knapsack" in only:
        for budget in (10_000, 100_000, 1_000_000):
            for cap in (256 * 2**20, 2**20, 0):
                yield {"kind": "knapsack", "n": 10_000, "budget": budget, "max_memory": cap,
                       "rounds": rounds}
        yield {"kind": "knapsack", "n": 4, "budget": 2**31 + 2**20, "max_memory": 256 * 2**20,
               "rounds": rounds, "huge": True}


def row(r: dict) -> str:
    if "error" in r:
        return f"| {r['kind']} | {r} | error: {r['error']} |"
    if r["kind"] == "bm25":
        dense = r["n"] * r["q"] * 8 / 2**20
        return (f"| bm25 | {r['n']:,} docs × {r['q']:,} query terms | {r['ms']:.1f} ms | "
                f"{r['rss_mib']:.0f} MiB (dense table: {dense:,.0f} MiB) |")
    if r["kind"] == "dedup":
        peer = (f"{r['peer_ms']:.1f} ms ({r['peer_ms'] / r['ms']:.1f}×)" if "peer_ms" in r
                else "–")
        return (f"| dedup {r['family']} | {r['n']:,} chunks, {r['kept']:,} kept | "
                f"{r['ms']:.1f} ms; without banding {peer} | {r['rss_mib']:.0f} MiB |")
    cap = r["max_memory"]
    cap_s = f"{cap // 2**20} MiB" if cap >= 2**20 else f"{cap} B"
    return (f"| knapsack | {r['n']:,} items, budget {r['budget']:,}, max_memory {cap_s} | "
            f"{r['ms']:.2f} ms | {r['rss_mib']:.0f} MiB RSS, {r['allocated_mib']:.2f} MiB "
            f"allocated |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", choices=("bm25", "dedup", "knapsack"), action="append")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    only = set(args.only or ("bm25", "dedup", "knapsack"))
    print("| kernel | input | median time | peak memory growth |")
    print("|---|---|---|---|")
    results = []
    for case in cases(args.rounds, only):
        r = run(case)
        results.append(r)
        print(row(r), flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
