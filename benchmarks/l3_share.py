"""How much of the shared L3 this host leaves a process: the list pool's validation (what
``ckn.pack`` runs first: 384,000 float objects and their lists, ~12.3 MB, read and summed for
the cosine) timed alone, repeatedly, and with N MiB copied (read and written) between two
calls.

Usage: python benchmarks/l3_share.py [--rounds 60] [--mib 0 1 2 4 8 16]

When the float objects stay in the L3 between calls the validation takes about half the time
it takes when they come from memory; how much other traffic it takes to push them out shows
how much of the L3 the host's other tenants leave (docs/performance.md, the machine note). A
pack's own other traffic is about 2 MiB (texts, term hashes, signatures, Python objects):
``bench_pack.py``'s row "validate pool + cosine, right after a pack" is the same validation
timed between packs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
try:
    import ckn  # noqa: F401
except ImportError:  # run from a checkout: benchmark the in-place build
    sys.path.insert(0, str(HERE.parent))

from bench_pack import SEED, make_pool  # noqa: E402
from ckn.pool import _parse_columns  # noqa: E402


def validation_ms(pool: dict, mib: int, rounds: int) -> float:
    """Median CPU ms of the pool's validation with ``mib`` MiB copied before each call."""
    source, buffer = bytes(mib << 20), bytearray(mib << 20)
    times = []
    for _ in range(rounds):
        if mib:
            buffer[:] = source
        c0 = time.thread_time()
        _parse_columns(pool, cosine=True)
        times.append(time.thread_time() - c0)
    return statistics.median(times) * 1e3


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="l3_share", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--mib", type=int, nargs="+", default=[0, 1, 2, 4, 8, 16])
    args = parser.parse_args(argv)
    pool = make_pool(SEED)
    print("| MiB copied between calls | validation of the list pool (median ms, CPU) |")
    print("|---|---|")
    for mib in args.mib:
        print(f"| {mib} | {validation_ms(pool, mib, args.rounds):.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
