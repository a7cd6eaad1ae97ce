"""Batch packing throughput: ``python -m ckn pack --jsonl`` on 1 and N worker processes.

Writes ``--pools`` seeded pools of ``--chunks`` candidates (JSONL, in a temporary directory),
then times the whole command, ``python -m ckn pack --jsonl FILE --output FILE --quiet
--workers W``, for each W in ``--workers`` (default 1,2), ``--rounds`` times each, in
alternation. Prints the median seconds, pools per second and the speed-up over one worker,
and checks that every worker count wrote the same bytes.

    python benchmarks/bench_batch.py                      # 100,000 pools of 50 chunks
    python benchmarks/bench_batch.py --pools 20000 --rounds 3 --workers 1,2
"""

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

WORDS = ("alarm retry budget sqlite durable object storage cpu backoff limit worker queue cache "
         "index shard replica lease token window context chunk vector query answer the a of to "
         "in is for with on by").split()


def write_pools(path: str, pools: int, chunks: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as f:
        for _ in range(pools):
            pool = {"query": " ".join(rng.choices(WORDS, k=4)), "token_budget": 400,
                    "query_embedding": [rng.uniform(-1, 1) for _ in range(8)],
                    "candidates": [{"id": f"c{j}", "tokens": rng.randint(10, 120),
                                    "text": " ".join(rng.choices(WORDS, k=rng.randint(10, 60))),
                                    "embedding": [rng.uniform(-1, 1) for _ in range(8)]}
                                   for j in range(chunks)]}
            f.write(json.dumps(pool) + "\n")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pools", type=int, default=100_000)
    parser.add_argument("--chunks", type=int, default=50)
    parser.add_argument("--workers", default="1,2", help="comma-separated worker counts")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    counts = [int(w) for w in args.workers.split(",")]
    with tempfile.TemporaryDirectory(prefix="ckn-batch-") as tmp:
        source = os.path.join(tmp, "pools.jsonl")
        write_pools(source, args.pools, args.chunks)
        times = {w: [] for w in counts}
        outputs = {}
        for _ in range(args.rounds):
            for w in counts:
                out = os.path.join(tmp, f"out{w}.jsonl")
                start = time.perf_counter()
                subprocess.run([sys.executable, "-m", "ckn", "pack", "--jsonl", source,
                                "--output", out, "--quiet", "--workers", str(w)], check=True)
                times[w].append(time.perf_counter() - start)
                with open(out, "rb") as f:
                    outputs[w] = f.read()
    same = len(set(outputs.values())) == 1
    base = statistics.median(times[counts[0]])
    print(f"{args.pools} pools of {args.chunks} chunks, {os.cpu_count()} CPUs, "
          f"median of {args.rounds} rounds; identical outputs: {same}")
    print("| workers | seconds | pools/s | speed-up |")
    print("|---:|---:|---:|---:|")
    for w in counts:
        t = statistics.median(times[w])
        print(f"| {w} | {t:.2f} | {args.pools / t:,.0f} | {base / t:.2f}x |")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
