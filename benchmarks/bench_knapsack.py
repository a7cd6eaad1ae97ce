"""ckn.knapsack.solve side by side with OR-Tools, a plain dense DP in C, and PuLP + CBC.

Usage: python benchmarks/bench_knapsack.py [--rounds 7] [--quick] [--json FILE]

Instances (fixed seeds): token-like weights (lognormal around 180, clipped to 20..600) and four
value families:

* ``uncorrelated``  v = U(1..100,000)
* ``weak``          v = max(1, 6w + U(-400..400))
* ``strong``        v = 1000 + 6w + U(0..400)
* ``pool``          values of the shape rrf-scored pools give: floor(rrf * (1 - 0.35 * overlap)
                    * 100,000 + 0.5) for a pool in fused order (two retrievers' ranks fused by
                    RRF, k = 60; half the chunks overlap an earlier one by U(0, 0.6)), so a few
                    thousand and nearly equal: the hardest case for the solver.
* ``subset_sum``    v = w (a stress family beyond issue 5's four: every item has the same
                    efficiency, so no bound can fix anything; ckn answers it with a reachability
                    bitset).

Sizes: 200 items x 8,000 tokens, 1,000 x 128,000 and 5,000 x 128,000.

Contenders, each timed from Python lists to the optimum (what a user would call):

* ``ckn``      ``ckn.knapsack.solve`` (exact, spec §8 tie rules)
* ``ortools``  ``KnapsackSolver`` branch and bound (``init`` + ``solve``)
* ``dense_c``  a plain dense DP in C (two int64 rows, branch-free so the compiler vectorises it,
               keep-bitset, backtracking; any optimal selection), compiled at run time with the
               system ``cc -O3 -march=native`` into a temporary directory and called through
               ctypes; skipped when no compiler is found
* ``pulp_cbc`` PuLP model + CBC (fewer rounds and sizes: it is slow)

Each round runs every contender once on the same instance (order rotated per round). Every
contender's optimum value must equal ckn's (OR-Tools and CBC return any optimal selection, so
values are compared, not selections); a mismatch raises.

``run(rounds=7, quick=False) -> list[dict]`` returns one row per family x size x contender with
keys: ``family``, ``n``, ``budget``, ``contender``, ``rounds``, ``median_ms`` (median wall time),
``ratio_vs_ckn`` (median over rounds of contender time / ckn time in the same round; > 1 means
ckn is faster), ``value`` (the optimum) and ``value_ok``. ``main`` prints a table and writes
JSON (``--json``) with the rows plus machine and load notes.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import math
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from array import array
from pathlib import Path

try:
    import ckn  # noqa: F401
except ImportError:  # run from a checkout: benchmark the in-place build
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

FAMILIES = ("uncorrelated", "weak", "strong", "pool", "subset_sum")
SIZES = ((200, 8_000), (1_000, 128_000), (5_000, 128_000))
QUICK_SIZES = ((200, 8_000), (1_000, 128_000))
PULP_MAX_N = 1_000          # PuLP + CBC only on the two smaller sizes
PULP_ROUNDS = 3


# ----------------------------------------------------------------------------- instances

def instance(family: str, n: int, seed: int = 2026) -> tuple[list[int], list[int]]:
    """Token-like weights and the family's values, deterministic in (family, n, seed)."""
    rng = random.Random(f"{family}/{n}/{seed}")
    weights = [min(600, max(20, int(rng.lognormvariate(math.log(180), 0.5)))) for _ in range(n)]
    if family == "uncorrelated":
        values = [rng.randint(1, 100_000) for _ in range(n)]
    elif family == "weak":
        values = [max(1, 6 * w + rng.randint(-400, 400)) for w in weights]
    elif family == "strong":
        values = [1000 + 6 * w + rng.randint(0, 400) for w in weights]
    elif family == "pool":
        first = list(range(1, n + 1))
        second = first[:]
        rng.shuffle(second)
        rrf = sorted((1 / (60 + a) + 1 / (60 + b) for a, b in zip(first, second)), reverse=True)
        values = []
        for score in rrf:
            overlap = rng.uniform(0, 0.6) if rng.random() < 0.5 else 0.0
            values.append(math.floor(score * (1 - 0.35 * overlap) * 100_000 + 0.5))
    elif family == "subset_sum":
        values = list(weights)
    else:
        raise ValueError(f"family: expected one of {FAMILIES}, got {family!r}")
    return weights, values


# ----------------------------------------------------------------------------- contenders

def ckn_value(weights, values, budget):
    from ckn.knapsack import solve

    return solve(weights, values, budget).total_value


def ortools_value(weights, values, budget):
    from ortools.algorithms.python import knapsack_solver

    solver = knapsack_solver.KnapsackSolver(
        knapsack_solver.SolverType.KNAPSACK_MULTIDIMENSION_BRANCH_AND_BOUND_SOLVER, "bench")
    solver.init(values, [weights], [budget])
    return solver.solve()


def pulp_value(weights, values, budget):
    import pulp

    problem = pulp.LpProblem("knapsack", pulp.LpMaximize)
    x = [pulp.LpVariable(f"x{i}", cat="Binary") for i in range(len(weights))]
    problem += pulp.lpSum(v * xi for v, xi in zip(values, x))
    problem += pulp.lpSum(w * xi for w, xi in zip(weights, x)) <= budget
    problem.solve(pulp.PULP_CBC_CMD(msg=False))
    return sum(v for v, xi in zip(values, x) if xi.value() is not None and xi.value() > 0.5)


DENSE_C = r"""
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
/* Plain dense 0/1 knapsack, written to let the compiler vectorise: two int64 rows, a
   branch-free update that also records a keep byte per cell, the bytes packed into one keep bit
   per item and cell, then backtracking from the full capacity. Returns the optimum or -1. */
int64_t dense_knapsack(const int64_t* w, const int64_t* v, int64_t n, int64_t cap,
                       uint8_t* chosen) {
    int64_t span = cap + 1, words = (span + 63) / 64, i, c;
    int64_t* prev = calloc((size_t)span, sizeof(int64_t));
    int64_t* next = calloc((size_t)span, sizeof(int64_t));
    uint8_t* take = calloc((size_t)words * 64, 1);
    uint64_t* keep = calloc((size_t)(n * words), sizeof(uint64_t));
    if (!prev || !next || !take || !keep) {
        free(prev); free(next); free(take); free(keep); return -1;
    }
    for (i = 0; i < n; i++) {
        int64_t wi = w[i] < span ? w[i] : span, vi = v[i];
        uint64_t* row = keep + i * words;
        memcpy(next, prev, (size_t)wi * sizeof(int64_t));
        memset(take, 0, (size_t)wi);
        for (c = wi; c < span; c++) {
            int64_t cand = prev[c - wi] + vi, cur = prev[c];
            uint8_t t = cand > cur;
            next[c] = t ? cand : cur;
            take[c] = t;
        }
        for (c = 0; c < words; c++) {     /* eight 0/1 bytes -> eight bits per multiply */
            uint64_t bits = 0, x;
            for (int j = 0; j < 8; j++) {
                memcpy(&x, take + c * 64 + 8 * j, 8);
                bits |= ((x * 0x0102040810204080ULL) >> 56) << (8 * j);
            }
            row[c] = bits;
        }
        int64_t* t = prev; prev = next; next = t;
    }
    int64_t best = prev[cap];
    if (n > 0) memset(chosen, 0, (size_t)n);
    for (c = cap, i = n - 1; i >= 0; i--) {
        if ((keep[i * words + (c >> 6)] >> (c & 63)) & 1) { chosen[i] = 1; c -= w[i]; }
    }
    free(prev); free(next); free(take); free(keep);
    return best;
}
"""


class DenseC:
    """The C dense DP, built once per process into a temporary directory."""

    def __init__(self) -> None:
        cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
        if cc is None:
            raise RuntimeError("no C compiler")
        self.dir = tempfile.mkdtemp(prefix="ckn-bench-")
        src = os.path.join(self.dir, "dense.c")
        lib = os.path.join(self.dir, "dense.so")
        with open(src, "w") as f:
            f.write(DENSE_C)
        subprocess.run([cc, "-O3", "-march=native", "-shared", "-fPIC", src, "-o", lib], check=True,
                       capture_output=True)
        self.lib = ctypes.CDLL(lib)
        self.lib.dense_knapsack.restype = ctypes.c_int64
        self.lib.dense_knapsack.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64,
                                            ctypes.c_int64, ctypes.c_void_p]
        self.flags = "-O3 -march=native"

    def __call__(self, weights, values, budget):
        w = array("q", weights)
        v = array("q", values)
        chosen = (ctypes.c_uint8 * max(1, len(w)))()
        best = self.lib.dense_knapsack(w.buffer_info()[0], v.buffer_info()[0], len(w), budget,
                                       ctypes.addressof(chosen))
        if best < 0:
            raise MemoryError("dense DP: out of memory")
        if sum(w[i] for i in range(len(w)) if chosen[i]) > budget:
            raise AssertionError("dense DP overran the budget")
        return best

    def close(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


# ----------------------------------------------------------------------------- timing

def _time(fn, *args):
    start = time.perf_counter()
    value = fn(*args)
    return time.perf_counter() - start, value


def _available():
    contenders = {"ckn": ckn_value}
    notes = {}
    try:
        from ortools.algorithms.python import knapsack_solver  # noqa: F401
        contenders["ortools"] = ortools_value
    except ImportError as exc:
        notes["ortools"] = f"skipped: {exc}"
    dense = None
    try:
        dense = DenseC()
        contenders["dense_c"] = dense
        notes["dense_c"] = f"cc {dense.flags}"
    except (RuntimeError, OSError, subprocess.CalledProcessError) as exc:
        notes["dense_c"] = f"skipped: {exc}"
    try:
        import pulp
        if pulp.PULP_CBC_CMD().available():
            contenders["pulp_cbc"] = pulp_value
        else:
            notes["pulp_cbc"] = "skipped: CBC not available"
    except ImportError as exc:
        notes["pulp_cbc"] = f"skipped: {exc}"
    return contenders, notes, dense


def run(rounds: int = 7, quick: bool = False, families=FAMILIES, sizes=None) -> list[dict]:
    """Rows (see the module docstring), every contender checked against ckn's optimum."""
    contenders, _, dense = _available()
    sizes = sizes or (QUICK_SIZES if quick else SIZES)
    rows = []
    try:
        for family in families:
            for n, budget in sizes:
                rows.extend(_bench_one(contenders, family, n, budget, rounds, quick))
    finally:
        if dense is not None:
            dense.close()
    return rows


def _bench_one(contenders, family, n, budget, rounds, quick):
    weights, values = instance(family, n)
    ckn_value(weights, values, budget)  # warm-up (imports, first-touch)
    names = [name for name in contenders if not (name == "pulp_cbc" and (n > PULP_MAX_N or quick))]
    times = {name: [] for name in names}
    ratios = {name: [] for name in names}
    found = {}
    for r in range(rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        this_round = {}
        for name in order:
            if name == "pulp_cbc" and r >= PULP_ROUNDS:
                continue
            elapsed, value = _time(contenders[name], weights, values, budget)
            this_round[name] = elapsed
            found.setdefault(name, set()).add(value)
        for name, elapsed in this_round.items():
            times[name].append(elapsed)
            ratios[name].append(elapsed / this_round["ckn"])
    optimum = found["ckn"]
    if len(optimum) != 1:
        raise AssertionError(f"ckn returned different optima across rounds: {optimum}")
    [opt] = optimum
    rows = []
    for name in names:
        ok = found[name] == {opt}
        if not ok:
            raise AssertionError(f"{family} n={n} budget={budget}: {name} found {found[name]}, "
                                 f"ckn {opt}")
        rows.append({"family": family, "n": n, "budget": budget, "contender": name,
                     "rounds": len(times[name]),
                     "median_ms": round(statistics.median(times[name]) * 1e3, 3),
                     "ratio_vs_ckn": round(statistics.median(ratios[name]), 2),
                     "value": opt, "value_ok": ok})
    return rows


def table(rows: list[dict]) -> str:
    """Markdown table: one line per family x size, each contender's median and ratio."""
    names = []
    for row in rows:
        if row["contender"] not in names:
            names.append(row["contender"])
    head = "| family | n × budget | " + " | ".join(
        "ckn ms" if x == "ckn" else f"{x} ms (× ckn)" for x in names) + " |"
    lines = [head, "|" + "---|" * (2 + len(names))]
    groups: dict = {}
    for row in rows:
        groups.setdefault((row["family"], row["n"], row["budget"]), {})[row["contender"]] = row
    for (family, n, budget), by_name in groups.items():
        cells = []
        for name in names:
            row = by_name.get(name)
            if row is None:
                cells.append("–")
            elif name == "ckn":
                cells.append(f"{row['median_ms']:.3g}")
            else:
                cells.append(f"{row['median_ms']:.3g} ({row['ratio_vs_ckn']:.3g}×)")
        lines.append(f"| {family} | {n:,} × {budget:,} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="bench_knapsack", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="two sizes, no PuLP")
    parser.add_argument("--json", metavar="FILE", help="write rows and machine notes as JSON")
    parser.add_argument("--families", default=",".join(FAMILIES),
                        help=f"comma-separated subset of {','.join(FAMILIES)}")
    args = parser.parse_args(argv)
    families = tuple(x for x in args.families.split(",") if x)
    for family in families:
        if family not in FAMILIES:
            parser.error(f"--families: expected names from {FAMILIES}, got {family!r}")
    load_before = os.getloadavg()
    contenders, notes, dense = _available()
    if dense is not None:
        dense.close()
    rows = run(rounds=args.rounds, quick=args.quick, families=families)
    load_after = os.getloadavg()
    print(table(rows))
    machine = {"python": sys.version.split()[0], "platform": platform.platform(),
               "cpus": os.cpu_count(), "load_before": load_before, "load_after": load_after,
               "contenders": sorted(contenders), "notes": notes}
    try:
        import ortools
        machine["ortools"] = ortools.__version__
    except ImportError:
        pass
    print(f"\nload average before {load_before[0]:.2f}, after {load_after[0]:.2f}; "
          f"{os.cpu_count()} CPUs; {notes}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": machine, "rows": rows}, f, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
