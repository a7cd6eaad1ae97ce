"""Two-thread throughput of synthetic jobs built from GIL-held and GIL-free stretches.

Usage: python benchmarks/gil_synthetic.py [--rounds 5]

A job is a list of (held ms, released ms) stretches: a pure-Python loop holds the GIL, a
``hashlib.sha256`` call over a large buffer releases it (both calibrated to milliseconds on this
machine first). Each variant runs 60 jobs on one thread, then on two, ``--rounds`` times, and
prints the median ratio of the two throughputs. The first variant mimics ``Packer.pack`` with
numpy embeddings as ``gil_timeline.py`` measures it (34 % held, ending in one ~2 ms held
stretch); the others show what the ratio does when the held time is cut, or split.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import threading
import time

_MIB = bytes(1 << 20)

# (held ms, released ms) per stretch, in order
VARIANTS = {
    "pack-like (34 % held, 2 ms at the end)": [
        (0.5, 0.5), (0.2, 1.9), (0.2, 0.6), (0.4, 1.9), (0.6, 0.2), (0.05, 2.2), (0.05, 0.5),
        (2.0, 0)],
    "end stretch 2.0 -> 1.3 ms": [
        (0.5, 0.5), (0.2, 1.9), (0.2, 0.6), (0.4, 1.9), (0.6, 0.2), (0.05, 2.2), (0.05, 0.5),
        (1.3, 0)],
    "end stretch split 1.0 + 1.0 ms": [
        (0.5, 0.5), (0.2, 1.9), (0.2, 0.6), (0.4, 1.9), (0.6, 0.2), (0.05, 2.2), (0.05, 0.5),
        (1.0, 0.1), (1.0, 0)],
    "1.2 ms less held in all": [
        (0.5, 0.5), (0.2, 1.9), (0.2, 0.6), (0.4, 1.9), (0.1, 0.2), (0.05, 2.2), (0.05, 0.5),
        (1.3, 0)],
    "35 % held, one stretch of each": [(2.8, 5.2)],
    "35 % held, ten stretches of each": [(0.28, 0.52)] * 10,
}


def _calibrate() -> tuple[float, float]:
    """(seconds per hashed MiB, seconds per loop iteration), the best of five tries."""
    per_mib = per_iter = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(5):
            hashlib.sha256(_MIB).digest()
        per_mib = min(per_mib, (time.perf_counter() - t) / 5)
        n, x = 100_000, 0
        t = time.perf_counter()
        for i in range(n):
            x += i
        per_iter = min(per_iter, (time.perf_counter() - t) / n)
    return per_mib, per_iter


def _job(stretches, per_mib: float, per_iter: float):
    sizes = [int(free / 1e3 / per_mib * (1 << 20)) for _, free in stretches]
    buf = memoryview(bytes(max(sizes)))  # the longest released stretch fits
    plan = [(int(held / 1e3 / per_iter), buf[:size]) for (held, _), size in zip(stretches, sizes)]

    def job():
        for iterations, data in plan:
            x = 0
            for i in range(iterations):
                x += i
            if len(data):
                hashlib.sha256(data).digest()  # releases the GIL above 2 KiB
    return job


def _throughput(job, threads: int, jobs: int = 60) -> float:
    def work():
        for _ in range(jobs // threads):
            job()
    ts = [threading.Thread(target=work) for _ in range(threads)]
    t = time.perf_counter()
    for th in ts:
        th.start()
    for th in ts:
        th.join()
    return jobs / (time.perf_counter() - t)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="gil_synthetic", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    per_mib, per_iter = _calibrate()
    for name, stretches in VARIANTS.items():
        held = sum(h for h, _ in stretches)
        total = sum(h + f for h, f in stretches)
        job = _job(stretches, per_mib, per_iter)
        ratios = [_throughput(job, 2) / _throughput(job, 1) for _ in range(args.rounds)]
        print(f"{name:40s} held {held:.2f} of {total:.2f} ms: two threads "
              f"{statistics.median(ratios):.2f}x one ({min(ratios):.2f}-{max(ratios):.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
