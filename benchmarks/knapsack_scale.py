"""Median time and peak memory of ckn.knapsack.solve on token-like instances.

Usage: python benchmarks/knapsack_scale.py [--n 1000] [--budget 128000] [--rounds 7]

Weights are lognormal around 180 tokens clipped to 20..600, values uniform in 1..100,000
(seed 128). Each configuration runs in a fresh subprocess so ru_maxrss is its own peak; the
baseline is the same process after building the instance but before solving. Also reported:
the minor page faults per call (fresh pages the allocator had to map) and the peak of what
one call allocates (tracemalloc: ``PyMem_RawMalloc`` blocks included, touched or not).
Prints JSON.
"""

import argparse
import json
import math
import random
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc


def instance(n: int, seed: int = 128):
    rng = random.Random(seed)
    weights = [min(600, max(20, int(rng.lognormvariate(math.log(180), 0.5)))) for _ in range(n)]
    values = [rng.randint(1, 100_000) for _ in range(n)]
    return weights, values


def measure(n: int, budget: int, rounds: int, max_memory: int) -> dict:
    from ckn.knapsack import solve

    weights, values = instance(n)
    before = resource.getrusage(resource.RUSAGE_SELF)
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        result = solve(weights, values, budget, max_memory=max_memory)
        times.append(time.perf_counter() - start)
    after = resource.getrusage(resource.RUSAGE_SELF)
    before_kib, peak_kib = before.ru_maxrss, after.ru_maxrss
    tracemalloc.start()
    solve(weights, values, budget, max_memory=max_memory)
    allocated = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert result.total_weight <= budget
    return {"n": n, "budget": budget, "max_memory": max_memory, "rounds": rounds,
            "median_ms": round(statistics.median(times) * 1e3, 2),
            "min_ms": round(min(times) * 1e3, 2),
            "peak_rss_growth_mib": round((peak_kib - before_kib) / 1024, 1),
            "peak_rss_mib": round(peak_kib / 1024, 1),
            "page_faults_per_call": round((after.ru_minflt - before.ru_minflt) / rounds, 1),
            "peak_allocated_mib": round(allocated / 2**20, 2),
            "total_weight": result.total_weight, "total_value": result.total_value}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--budget", type=int, default=128_000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        print(json.dumps(measure(args.n, args.budget, args.rounds, args.child)))
        return
    rows = []
    for max_memory in (256 * 2**20, 0):  # keep-bitset path, then the O(C) divide and conquer
        out = subprocess.run([sys.executable, __file__, "--n", str(args.n), "--budget",
                              str(args.budget), "--rounds", str(args.rounds), "--child",
                              str(max_memory)], capture_output=True, text=True, check=True)
        rows.append(json.loads(out.stdout))
    assert rows[0]["total_value"] == rows[1]["total_value"]
    print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
