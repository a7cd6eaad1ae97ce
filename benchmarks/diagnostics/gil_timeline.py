"""Where ``Packer.pack`` holds the GIL: the median timeline of GIL-held and GIL-free stretches.

Usage: python benchmarks/diagnostics/gil_timeline.py [--kind numpy|lists] [--pools 8] [--packs 200]
                                         [--threads 1|2]

Linux only; needs a C compiler (``cc``). The script compiles a small ``LD_PRELOAD`` library that
wraps ``PyEval_SaveThread`` / ``PyEval_RestoreThread`` (what ``with nogil`` calls) and records
when each is called and returns, then runs itself again under it: ``--packs`` packs of
``bench_pack``'s pools (rotating over ``--pools`` pools so that they do not all stay in cache).

One thread: it prints, per pack, the median of each stretch in order — G (GIL held) or N
(released) — and the total held. Alone nobody waits for the GIL, so these are the stretches a
second thread has to fit around; the last line simulates two threads running them with one GIL
taken first come first served (a waiting thread taking over 0, 10 or 30 µs after the release)
and prints their rate as a multiple of one thread's. ``ckn.pack``'s order is validation (with a
list pool, reading its floats), then one stretch without the GIL for the cosine and the text
passes (scan, BM25, the sanitizer's compiled pass, MinHash of every text: ``ckn._passes``),
fusion, the sanitized texts rebuilt, the survivors' marker test (N), dedup (N), the
knapsack's values, the knapsack (N), the result records, the context (its SHA-256: N).

``--threads 2``: two threads pack their own halves of the pools at once; per thread, the medians
per pack of the time holding the GIL, waiting for it and running without it, and the packs per
second of both.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BENCHMARKS))  # bench_pack
sys.path.insert(0, str(BENCHMARKS.parent))  # the checkout's in-place build, if not installed

_SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <time.h>
#define MAXEV 4000000
/* events: 0 release, 1 got the GIL back, 2 pack start (gil_mark), 3 asks for it back; each with
   the slot of its thread (0: not registered, 1, 2: gil_register) */
static double ev_t[MAXEV]; static int ev_kind[MAXEV]; static int ev_slot[MAXEV];
static long nev = 0; static int on = 0; static __thread int slot = 0;
static double now(void) {
    struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts); return ts.tv_sec + ts.tv_nsec * 1e-9;
}
static void rec(int kind) {
    if (on) {
        long i = __atomic_fetch_add(&nev, 1, __ATOMIC_RELAXED);
        if (i < MAXEV) { ev_t[i] = now(); ev_kind[i] = kind; ev_slot[i] = slot; }
    }
}
void* PyEval_SaveThread(void) {
    static void* (*real)(void) = 0;
    if (!real) real = (void* (*)(void))dlsym(RTLD_NEXT, "PyEval_SaveThread");
    rec(0);
    return real();
}
void PyEval_RestoreThread(void* ts) {
    static void (*real)(void*) = 0;
    if (!real) real = (void (*)(void*))dlsym(RTLD_NEXT, "PyEval_RestoreThread");
    rec(3);
    real(ts);
    rec(1);
}
void gil_register(int k) { slot = k; }
void gil_mark(void) { rec(2); }
void gil_start(void) { nev = 0; on = 1; }
void gil_stop(void) { on = 0; }
long gil_count(void) { return nev < MAXEV ? nev : MAXEV; }
double gil_time(long i) { return ev_t[i]; }
int gil_kind(long i) { return ev_kind[i]; }
int gil_slot(long i) { return ev_slot[i]; }
"""


def _simulate(stretches: list[float], handoff: float, packs: int = 400) -> float:
    """Packs per second of two threads that each run ``stretches`` (held, released, held, …)
    over and over, one GIL, first come first served, a waiting thread taking over ``handoff``
    seconds after the release; as a multiple of one thread's rate."""
    clock, step, done, free_at = [0.0, 0.0], [0, 0], [0, 0], 0.0
    while min(done) < packs:
        k = 0 if clock[0] <= clock[1] else 1   # the thread whose next stretch starts first
        length = stretches[step[k]]
        if step[k] % 2 == 0:                  # a held stretch: wait for the GIL if taken
            start = clock[k] if free_at <= clock[k] else free_at + handoff
            clock[k] = free_at = start + length
        else:
            clock[k] += length
        step[k] += 1
        if step[k] == len(stretches):
            step[k], done[k] = 0, done[k] + 1
    return 2 * packs / max(clock) * sum(stretches)


def _library(lib_path: str):
    lib = ctypes.PyDLL(lib_path)  # PyDLL: calling it keeps the GIL, so it adds no events
    lib.gil_time.restype = ctypes.c_double
    for name in ("gil_time", "gil_kind", "gil_slot"):
        getattr(lib, name).argtypes = [ctypes.c_long]
    lib.gil_count.restype = ctypes.c_long
    lib.gil_register.argtypes = [ctypes.c_int]
    return lib


def _pools(kind: str, n_pools: int) -> list:
    from bench_pack import SEED, make_pool, with_numpy_embeddings

    pools = [make_pool(SEED + k) for k in range(n_pools)]
    if kind == "numpy":
        pools = [with_numpy_embeddings(p) for p in pools]
        if pools[0] is None:
            raise SystemExit("numpy is not installed")
    return pools


def _timeline(kind: str, n_pools: int, packs: int, lib_path: str) -> None:
    import ckn

    lib = _library(lib_path)
    pools = _pools(kind, n_pools)
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
        if k == 3:  # asking for the GIL back: alone, a thread gets it at once
            continue
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
    medians = [statistics.median(s[j] for s in same) for j in range(common)]
    for j, seconds in enumerate(medians):
        print(f"  {j:2d} {'GN'[j % 2]} {seconds * 1e3:8.3f} ms")
    if len(medians) % 2:  # the pack ends holding the GIL, as the next one starts: one stretch
        medians = [medians[-1] + medians[0]] + medians[1:-1]
    print("two threads running these stretches, one GIL taken first come first served "
          "(simulated): " + ", ".join(f"{_simulate(medians, us * 1e-6):.2f}x with a {us} us "
                                      f"hand-off" for us in (0, 10, 30)))


def _two_threads(kind: str, n_pools: int, packs: int, lib_path: str) -> None:
    """Each of two threads packs its own half of the pools; per pack and thread, the medians of
    the time holding the GIL, waiting for it and running without it."""
    import threading

    import ckn

    lib = _library(lib_path)
    pools = _pools(kind, n_pools)
    packers = [ckn.Packer() for _ in pools]
    for packer, pool in zip(packers, pools):
        packer.pack(pool)
    barrier = threading.Barrier(3)

    def work(slot: int) -> None:
        lib.gil_register(slot)
        barrier.wait()
        for k in range(packs):
            j = 2 * (k % (n_pools // 2)) + slot - 1
            lib.gil_mark()
            packers[j].pack(pools[j])
        lib.gil_mark()

    threads = [threading.Thread(target=work, args=(slot,)) for slot in (1, 2)]
    for t in threads:
        t.start()
    lib.gil_start()
    barrier.wait()
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    lib.gil_stop()
    print(f"{kind} embeddings, two threads, {packs} packs each over {n_pools} pools: "
          f"{2 * packs / wall:.0f} packs/s")
    for slot in (1, 2):
        events = [(lib.gil_time(i), lib.gil_kind(i)) for i in range(lib.gil_count())
                  if lib.gil_slot(i) == slot]
        per_pack, sums = [], None
        for (t, k), (t_next, _) in zip(events, events[1:]):
            if k == 2:
                if sums is not None:
                    per_pack.append(sums)
                sums = [0.0, 0.0, 0.0]
            if sums is not None:  # held after a start or a got, waiting after an ask
                sums[0 if k in (1, 2) else 1 if k == 3 else 2] += t_next - t
        print(f"  thread {slot}: per pack, held {statistics.median(s[0] for s in per_pack) * 1e3:.3f}"
              f" ms, waiting {statistics.median(s[1] for s in per_pack) * 1e3:.3f} ms, released "
              f"{statistics.median(s[2] for s in per_pack) * 1e3:.3f} ms")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="gil_timeline", description=__doc__.splitlines()[0])
    parser.add_argument("--kind", choices=("numpy", "lists"), default="numpy")
    parser.add_argument("--pools", type=int, default=8)
    parser.add_argument("--packs", type=int, default=200)
    parser.add_argument("--threads", type=int, choices=(1, 2), default=1,
                        help="2: two threads pack their own pools; time held, waiting, released")
    parser.add_argument("--shim", help=argparse.SUPPRESS)  # set in the re-run under the shim
    args = parser.parse_args(argv)
    if args.threads == 2 and args.pools < 2:
        parser.error("--threads 2 needs --pools 2 or more (each thread packs its own)")
    if args.shim:
        (_two_threads if args.threads == 2 else _timeline)(args.kind, args.pools, args.packs,
                                                           args.shim)
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
                               str(args.pools), "--packs", str(args.packs), "--threads",
                               str(args.threads), "--shim", str(lib)], env=env).returncode


if __name__ == "__main__":
    raise SystemExit(main())
