"""Where ``Packer.pack`` holds the GIL: the median timeline of GIL-held and GIL-free stretches.

Usage: python benchmarks/gil_timeline.py [--kind numpy|lists] [--pools 8] [--packs 200]

Linux only; needs a C compiler (``cc``). The script compiles a small ``LD_PRELOAD`` library that
wraps ``PyEval_SaveThread`` / ``PyEval_RestoreThread`` (what ``with nogil`` calls) and records
when each is called, then runs itself again under it: ``--packs`` packs of ``bench_pack``'s
pools (one thread, rotating over ``--pools`` pools so that they do not all stay in cache). It
prints, per pack, the median of each stretch in order — G (GIL held) or N (released) — and the
total held. In a single thread nobody waits for the GIL, so these are the stretches a second
thread would have to fit around: with two threads, the held stretches of both run one at a
time. ``ckn.pack``'s order is validation, cosine (N), scan (N), BM25 (N), fusion and the
sanitizer's set-up, the sanitizer pass (N), the rules on candidate lines, the survivors' marker
test (N), the copy of their term hashes (N), MinHash (N, two calls), dedup (N), the knapsack's
values, the knapsack (N), the result records, the context (its SHA-256: N).
"""

from __future__ import annotations

import argparse
import ctypes
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

_SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <time.h>
#define MAXEV 4000000
static double ev_t[MAXEV]; static int ev_kind[MAXEV]; static long nev = 0; static int on = 0;
static double now(void) {
    struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts); return ts.tv_sec + ts.tv_nsec * 1e-9;
}
static void rec(int kind) { if (on && nev < MAXEV) { ev_t[nev] = now(); ev_kind[nev++] = kind; } }
void* PyEval_SaveThread(void) {
    static void* (*real)(void) = 0;
    if (!real) real = (void* (*)(void))dlsym(RTLD_NEXT, "PyEval_SaveThread");
    rec(0);
    return real();
}
void PyEval_RestoreThread(void* ts) {
    static void (*real)(void*) = 0;
    if (!real) real = (void (*)(void*))dlsym(RTLD_NEXT, "PyEval_RestoreThread");
    real(ts);
    rec(1);
}
void gil_mark(void) { rec(2); }
void gil_start(void) { nev = 0; on = 1; }
void gil_stop(void) { on = 0; }
long gil_count(void) { return nev; }
double gil_time(long i) { return ev_t[i]; }
int gil_kind(long i) { return ev_kind[i]; }
"""


def _timeline(kind: str, n_pools: int, packs: int, lib_path: str) -> None:
    import ckn
    from bench_pack import SEED, make_pool, with_numpy_embeddings

    lib = ctypes.PyDLL(lib_path)  # PyDLL: calling it keeps the GIL, so it adds no events
    lib.gil_time.restype = ctypes.c_double
    lib.gil_time.argtypes = [ctypes.c_long]
    lib.gil_kind.argtypes = [ctypes.c_long]
    lib.gil_count.restype = ctypes.c_long
    pools = [make_pool(SEED + k) for k in range(n_pools)]
    if kind == "numpy":
        pools = [with_numpy_embeddings(p) for p in pools]
        if pools[0] is None:
            raise SystemExit("numpy is not installed")
    packer = ckn.Packer()
    for k in range(2 * n_pools):
        packer.pack(pools[k % n_pools])
    lib.gil_start()
    for k in range(packs):
        lib.gil_mark()
        packer.pack(pools[k % n_pools])
    lib.gil_mark()
    lib.gil_stop()
    events = [(lib.gil_time(i), lib.gil_kind(i)) for i in range(lib.gil_count())]
    timelines, stretch, last = [], [], None
    for t, k in events:
        if last is not None:
            stretch.append(t - last)
        last = t
        if k == 2:
            if stretch:
                timelines.append(stretch)
            stretch = []
    # stretch j of a pack: G when j is even (a pack starts holding the GIL), N when odd
    common = statistics.mode(len(s) for s in timelines)
    same = [s for s in timelines if len(s) == common]
    walls = [sum(s) for s in timelines]
    held = [sum(s[0::2]) for s in timelines]
    print(f"{kind} embeddings, {n_pools} pools, {packs} packs ({len(same)} with the usual "
          f"{common} stretches)")
    print(f"pack wall {statistics.median(walls) * 1e3:.3f} ms, GIL held "
          f"{statistics.median(held) * 1e3:.3f} ms "
          f"({statistics.median(h / w for h, w in zip(held, walls)):.0%})")
    for j in range(common):
        ms = statistics.median(s[j] for s in same) * 1e3
        print(f"  {j:2d} {'GN'[j % 2]} {ms:8.3f} ms")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="gil_timeline", description=__doc__.splitlines()[0])
    parser.add_argument("--kind", choices=("numpy", "lists"), default="numpy")
    parser.add_argument("--pools", type=int, default=8)
    parser.add_argument("--packs", type=int, default=200)
    parser.add_argument("--shim", help=argparse.SUPPRESS)  # set in the re-run under the shim
    args = parser.parse_args(argv)
    if args.shim:
        _timeline(args.kind, args.pools, args.packs, args.shim)
        return 0
    if not sys.platform.startswith("linux"):
        print("gil_timeline: needs Linux (LD_PRELOAD)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        src, lib = Path(tmp) / "gil_shim.c", Path(tmp) / "gil_shim.so"
        src.write_text(_SHIM)
        built = subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", str(lib), str(src), "-ldl"],
                               capture_output=True, text=True)
        if built.returncode != 0:
            print(f"gil_timeline: cannot compile the shim:\n{built.stderr}", file=sys.stderr)
            return 2
        env = {**os.environ, "LD_PRELOAD": str(lib)}
        return subprocess.run([sys.executable, __file__, "--kind", args.kind, "--pools",
                               str(args.pools), "--packs", str(args.packs), "--shim", str(lib)],
                              env=env).returncode


if __name__ == "__main__":
    raise SystemExit(main())
