"""Instructions per ``Packer.pack`` call, counted by valgrind: a figure the machine's load does not move.

Usage: python benchmarks/pack_instructions.py [random|numpy|prose ...] [--calls 20]

For each pool of ``bench_pack`` (random words with list embeddings, the same with numpy float64
embeddings, English prose), the same Python process is run twice under ``valgrind
--tool=cachegrind --cache-sim=no``: once building the pool and packing it twice (warm-up), once
doing that and then ``--calls`` more packs. The difference, divided by ``--calls``, is printed.
Twenty calls (the default) average out whether a full garbage collection falls among them,
which moves a three-call count by millions. Needs valgrind on the PATH (Debian: ``apt install
valgrind``); a full run takes about ten minutes.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

_CHILD = r"""
import sys
sys.path.insert(0, {root!r})
sys.path.insert(0, {here!r})
import ckn
from bench_pack import SEED, make_pool, with_numpy_embeddings
pool = make_pool(SEED, prose={prose})
if {numpy}:
    pool = with_numpy_embeddings(pool)
packer = ckn.Packer()
packer.pack(pool)
packer.pack(pool)
for _ in range({calls}):
    packer.pack(pool)
"""


def instructions(pool: str, calls: int) -> int:
    """valgrind's instruction count of the child process packing ``pool`` ``calls`` times."""
    return valgrind_instructions(_CHILD.format(root=str(HERE.parent), here=str(HERE),
                                               prose=pool == "prose", numpy=pool == "numpy",
                                               calls=calls))


def valgrind_instructions(code: str) -> int:
    """valgrind's instruction count of a child ``python -c code`` (cachegrind, no cache
    simulation)."""
    out = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                          "--cachegrind-out-file=/dev/null", sys.executable, "-c", code],
                         capture_output=True, text=True, check=True).stderr
    match = re.search(r"I\s+refs:\s+([\d,]+)", out)
    if match is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{out}")
    return int(match.group(1).replace(",", ""))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pools", nargs="*", metavar="random|numpy|prose",
                        help="pools to measure (default: all three)")
    parser.add_argument("--calls", type=int, default=20)
    args = parser.parse_args(argv)
    unknown = sorted(set(args.pools) - {"random", "numpy", "prose"})
    if unknown:
        parser.error(f"unknown pool {unknown[0]!r}; choose from random, numpy, prose")
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian: apt install valgrind)", file=sys.stderr)
        return 2
    for pool in args.pools or ["random", "numpy", "prose"]:
        per_call = (instructions(pool, args.calls) - instructions(pool, 0)) / args.calls
        print(f"{pool}: {per_call / 1e6:.1f} M instructions per pack")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
