"""ckn's text kernels side by side with rank_bm25, bm25s, rensa and datasketch.

Usage: python benchmarks/bench_text.py [--rounds 7] [--quick] [--json FILE]
                                      [--only bm25|minhash_text|minhash_hashes]

Workloads (synthetic text generated here, fixed seeds; words of 2..10 lowercase letters drawn
from a 20,000-word Zipf(1.1) vocabulary, sentences capitalised and punctuated, so every
contender's tokeniser sees the same words):

* ``bm25``: a fresh 1,000-chunk pool (~200 words each) per query: tokenise + index + score
  one 5-word query. Contenders, each with its own tokenisation:
    - ``ckn``       ``bm25_scores_hashed(scan(texts), text_hashes(query))`` (spec §4 terms)
    - ``rank_bm25`` ``BM25Okapi([re.findall(r"\\w+", t.lower()) ...]).get_scores(q)``
    - ``bm25s``     ``bm25s.tokenize(texts, stopwords=None)`` + ``BM25(method="lucene")``
                    ``.index`` + ``get_scores``
  Check: bm25s lucene must give ckn's top-10 (scores equal up to the constant (k1 + 1) that
  Lucene >= 8 drops, rel. 1e-4); rank_bm25's Okapi IDF differs, so its top-10 overlap with
  ckn's is reported, not required.
* ``minhash_text``: 10,000 chunks (~200 words; the last 500 are near-copies of the first 500
  with 5..40 % of words replaced) -> 64-slot signatures of word 3-shingles:
    - ``ckn``            ``MinHasher(64).text_signatures(texts)``
    - ``rensa``          shingles built in Python, one ``RMinHash(64)`` per chunk (the issue's
                         baseline)
    - ``rensa_bulk``     the same shingles through ``RMinHash.digest_matrix_from_token_sets``
    - ``datasketch``     the same shingles (UTF-8 bytes) through ``MinHash.bulk`` (not in
                         ``--quick``: it takes seconds)
  Check: for the 500 near-copy pairs, mean |estimate - exact Jaccard| of each contender's
  shingle sets (all must be < 0.06, the 64-slot standard error).
* ``minhash_hashes``: the same 10,000 chunks' shingle hashes, precomputed, in one flat buffer
  plus row offsets -> signatures:
    - ``ckn``           ``MinHasher(64).signatures_flat(values, offsets)`` (one thread)
    - ``ckn_threads2``  the same with ``threads=2``
    - ``rensa``         ``RMinHash.digest_matrix_from_flat_token_hashes(values, offsets, 64,
                        seed)`` (rensa uses its own thread pool by default)
  Check: each ckn variant's rows equal ``MinHasher.signature`` of each set (spec §7), and the
  two variants' matrices are equal; the ``ckn_threads2`` row also reports rensa / ckn_threads2.

Each round runs every contender once on the same input (order rotated per round).
``run(rounds=7, quick=False) -> list[dict]`` returns one row per workload x contender with
keys ``bench``, ``size``, ``contender``, ``rounds``, ``median_ms`` (median wall time),
``median_cpu_ms`` (median process CPU time, all threads: steadier than wall time on a shared
machine, and it counts the worker threads of rensa and of ckn ``threads=2``), ``ratio_vs_ckn``
(median over rounds of contender wall time / ckn wall time in the same round; > 1 means ckn is
faster), ``ratio_cpu_vs_ckn`` (the same with CPU times), ``check`` (what was checked) and
``ok``. ``main`` prints a table and writes JSON (``--json``) with the rows and machine notes.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import statistics
import sys
import time
from array import array
from pathlib import Path

try:
    import ckn  # noqa: F401
except ImportError:  # run from a checkout: benchmark the in-place build
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ckn.bm25 import bm25_scores_hashed
from ckn.minhash import PRIME, MinHasher, jaccard, shingle_hashes, similarity
from ckn.scanner import scan, text_hashes

SEED = 20261130
PERMS = 64
_WORD = re.compile(r"\w+")


# --- synthetic text ---------------------------------------------------------------------------

def _vocabulary(rnd: random.Random, size: int = 20_000) -> tuple[list[str], list[float]]:
    words = set()
    while len(words) < size:
        words.add("".join(rnd.choice("abcdefghijklmnopqrstuvwxyz")
                          for _ in range(rnd.randrange(2, 11))))
    vocab = sorted(words)
    rnd.shuffle(vocab)
    weights = [1.0 / (k + 1) ** 1.1 for k in range(size)]
    return vocab, weights


def _chunk(rnd: random.Random, vocab, weights, n_words: int) -> str:
    words = rnd.choices(vocab, weights, k=n_words)
    out, start = [], 0
    while start < n_words:
        end = min(n_words, start + rnd.randrange(8, 20))
        sentence = " ".join(words[start:end])
        out.append(sentence[0].upper() + sentence[1:] + rnd.choice(".,;!?"))
        start = end
    return " ".join(out)


def make_pool(seed: int, n: int = 1000) -> tuple[list[str], str]:
    rnd = random.Random(seed)
    vocab, weights = _vocabulary(rnd)
    texts = [_chunk(rnd, vocab, weights, rnd.randrange(150, 250)) for _ in range(n)]
    # a query of mid-frequency words, so that scores are spread out
    query = " ".join(rnd.choice(vocab[50:2000]) for _ in range(5))
    return texts, query


def make_corpus(seed: int, n: int = 10_000, near: int = 500) -> list[str]:
    rnd = random.Random(seed)
    vocab, weights = _vocabulary(rnd)
    texts = [_chunk(rnd, vocab, weights, rnd.randrange(150, 250)) for _ in range(n - near)]
    for k in range(near):          # near-copies: replace 5..40 % of the words
        words = texts[k].split()
        rate = rnd.uniform(0.05, 0.40)
        words = [rnd.choice(vocab) if rnd.random() < rate else w for w in words]
        texts.append(" ".join(words))
    return texts


def python_shingles(text: str) -> list[str]:
    """Word 3-shingles as a user would build them for rensa/datasketch."""
    words = _WORD.findall(text.lower())
    if len(words) < 3:
        return [" ".join(words)] if words else []
    return [" ".join(words[i:i + 3]) for i in range(len(words) - 2)]


# --- timing -----------------------------------------------------------------------------------

def _timed(f):
    c0, t0 = time.process_time(), time.perf_counter()
    out = f()
    return time.perf_counter() - t0, time.process_time() - c0, out


def _median_ratio(runs, base_runs, index: int) -> float:
    """Median over rounds of runs[r][index] / base_runs[r][index] (0: wall, 1: CPU)."""
    return statistics.median(run[index] / max(base[index], 1e-9)
                             for run, base in zip(runs, base_runs))


def _rounds(contenders: dict, rounds: int, make_input):
    """Run every contender once per round, order rotated; returns {name: [(wall, cpu, out)]}."""
    names = list(contenders)
    results = {name: [] for name in names}
    for r in range(rounds):
        data = make_input(r)
        order = names[r % len(names):] + names[:r % len(names)]
        for name in order:
            results[name].append(_timed(lambda: contenders[name](data)))
    return results


def _rows(bench: str, size: str, results: dict, checks: dict) -> list[dict]:
    ckn_runs = results["ckn"]
    rows = []
    for name, runs in results.items():
        walls = [w for w, _, _ in runs]
        cpus = [c for _, c, _ in runs]
        check, ok = checks.get(name, ("", True))
        rows.append({"bench": bench, "size": size, "contender": name, "rounds": len(runs),
                     "median_ms": statistics.median(walls) * 1e3,
                     "median_cpu_ms": statistics.median(cpus) * 1e3,
                     "ratio_vs_ckn": _median_ratio(runs, ckn_runs, 0),
                     "ratio_cpu_vs_ckn": _median_ratio(runs, ckn_runs, 1),
                     "check": check, "ok": ok})
    return rows


# --- BM25 -------------------------------------------------------------------------------------

def _top(scores, k=10) -> list[int]:
    return sorted(range(len(scores)), key=lambda i: (-scores[i], i))[:k]


def bench_bm25(rounds: int) -> list[dict]:
    import bm25s
    from rank_bm25 import BM25Okapi

    def ckn_bm25(data):
        texts, query = data
        return bm25_scores_hashed(scan(texts), text_hashes(query), k1=1.5, b=0.75)

    def rank_bm25(data):
        texts, query = data
        corpus = [_WORD.findall(t.lower()) for t in texts]
        return list(BM25Okapi(corpus, k1=1.5, b=0.75).get_scores(_WORD.findall(query.lower())))

    def bm25s_lucene(data):
        texts, query = data
        tokens = bm25s.tokenize(texts, stopwords=None, show_progress=False)
        retriever = bm25s.BM25(method="lucene", k1=1.5, b=0.75)
        retriever.index(tokens, show_progress=False)
        q = bm25s.tokenize([query], stopwords=None, show_progress=False, return_ids=False)[0]
        return [float(x) for x in retriever.get_scores(q)]

    contenders = {"ckn": ckn_bm25, "rank_bm25": rank_bm25, "bm25s": bm25s_lucene}
    results = _rounds(contenders, rounds, lambda r: make_pool(SEED + r))
    # checks on every round
    bm25s_ok, overlap = True, []
    for r in range(rounds):
        mine = results["ckn"][r][2]
        theirs = [2.5 * s for s in results["bm25s"][r][2]]
        top = _top(mine)
        bm25s_ok &= all(abs(theirs[i] - mine[i]) <= 1e-4 * max(1.0, mine[i]) for i in
                        range(len(mine))) and _top(theirs) == top
        overlap.append(len(set(top) & set(_top(results["rank_bm25"][r][2]))) / 10)
    checks = {
        "ckn": ("scores: see bm25s (lucene) and tests/test_scanner.py (== Python BM25 bit for bit)",
                True),
        "bm25s": ("top-10 order and scores (x(k1+1)) equal ckn's, every round", bm25s_ok),
        "rank_bm25": (f"Okapi IDF differs; top-10 overlap with ckn {statistics.mean(overlap):.2f}",
                      True),
    }
    return _rows("bm25", "1,000 chunks", results, checks)


# --- MinHash from text ------------------------------------------------------------------------

def bench_minhash_text(rounds: int, quick: bool) -> list[dict]:
    import rensa

    hasher = MinHasher(PERMS)

    def ckn_text(texts):
        return hasher.text_signatures(texts, 3)

    def rensa_each(texts):
        out = []
        for t in texts:
            m = rensa.RMinHash(num_perm=PERMS, seed=42)
            m.update(python_shingles(t))
            out.append(m)
        return out

    def rensa_bulk(texts):
        return rensa.RMinHash.digest_matrix_from_token_sets(
            [python_shingles(t) for t in texts], PERMS, 42)

    contenders = {"ckn": ckn_text, "rensa": rensa_each, "rensa_bulk": rensa_bulk}
    if not quick:
        from datasketch import MinHash

        def datasketch_bulk(texts):
            return MinHash.bulk([[s.encode("utf-8") for s in python_shingles(t)] for t in texts],
                                num_perm=PERMS)

        contenders["datasketch"] = datasketch_bulk
    corpus = make_corpus(SEED)
    results = _rounds(contenders, rounds, lambda r: corpus)

    # accuracy on the 500 near-copy pairs, each contender against its own exact Jaccard
    n, near = len(corpus), 500
    pairs = [(k, n - near + k) for k in range(near)]
    errors = {}
    sigs = results["ckn"][0][2]
    errs = []
    for i, j in pairs:
        exact = jaccard(shingle_hashes(text_hashes(corpus[i])), shingle_hashes(text_hashes(corpus[j])))
        errs.append(abs(similarity(sigs[i], sigs[j]) - exact))
    errors["ckn"] = statistics.mean(errs)
    py_sets = {k: set(python_shingles(corpus[k])) for pair in pairs for k in pair}

    def exact_py(i, j):
        a, b = py_sets[i], py_sets[j]
        return len(a & b) / len(a | b) if a | b else 0.0

    objs = results["rensa"][0][2]
    errors["rensa"] = statistics.mean(abs(objs[i].jaccard(objs[j]) - exact_py(i, j))
                                      for i, j in pairs)
    rows_b = results["rensa_bulk"][0][2].to_rows()
    errors["rensa_bulk"] = statistics.mean(
        abs(sum(x == y for x, y in zip(rows_b[i], rows_b[j])) / PERMS - exact_py(i, j))
        for i, j in pairs)
    if "datasketch" in results:
        ds = results["datasketch"][0][2]
        errors["datasketch"] = statistics.mean(abs(ds[i].jaccard(ds[j]) - exact_py(i, j))
                                               for i, j in pairs)
    checks = {name: (f"mean |estimate - exact Jaccard| over {near} near-copy pairs: {err:.4f}",
                     err < 0.06) for name, err in errors.items()}
    return _rows("minhash_text", "10,000 chunks", results, checks)


# --- MinHash from precomputed shingle hashes --------------------------------------------------

def bench_minhash_hashes(rounds: int) -> list[dict]:
    import rensa

    hasher = MinHasher(PERMS)
    corpus = make_corpus(SEED)
    values = array("I")
    offsets = [0]
    for text in corpus:
        values.extend(shingle_hashes(text_hashes(text)))
        offsets.append(len(values))
    values64 = array("Q", values)
    offsets64 = array("Q", offsets)

    contenders = {
        "ckn": lambda _: hasher.signatures_flat(values, offsets),
        "ckn_threads2": lambda _: hasher.signatures_flat(values, offsets, threads=2),
        "rensa": lambda _: rensa.RMinHash.digest_matrix_from_flat_token_hashes(
            values64, offsets64, PERMS, 42),
    }
    results = _rounds(contenders, rounds, lambda r: None)
    sample = random.Random(SEED).sample(range(len(corpus)), 200)
    expected = {k: hasher.signature(values[offsets[k]:offsets[k + 1]]).tolist() for k in sample}

    def rows_ok(name):
        sigs = results[name][0][2]
        return all(sigs[k].tolist() == expected[k] for k in sample)

    same = all(run[2] == results["ckn"][0][2] for run in results["ckn_threads2"])
    rensa_runs, threads2_runs = results["rensa"], results["ckn_threads2"]
    vs_rensa = (f"rensa/ckn_threads2 = {_median_ratio(rensa_runs, threads2_runs, 0):.2f} (wall), "
                f"{_median_ratio(rensa_runs, threads2_runs, 1):.2f} (CPU)")
    checks = {"ckn": ("200 sampled rows == MinHasher.signature (spec §7)", rows_ok("ckn")),
              "ckn_threads2": ("200 sampled rows == MinHasher.signature, matrix == ckn's; "
                               + vs_rensa, rows_ok("ckn_threads2") and same),
              "rensa": ("its own hash family (not spec §7): timing only", True)}
    return _rows("minhash_hashes", f"10,000 chunks, {len(values):,} shingles", results, checks)


WORKLOADS = ("bm25", "minhash_text", "minhash_hashes")


def run(rounds: int = 7, quick: bool = False, only: str | None = None) -> list[dict]:
    """All three workloads, or just ``only``; ``quick`` skips datasketch and uses at most 3
    rounds."""
    if quick:
        rounds = min(rounds, 3)
    rows = []
    if only in (None, "bm25"):
        rows += bench_bm25(rounds)
    if only in (None, "minhash_text"):
        rows += bench_minhash_text(max(3, rounds // 2) if not quick else rounds, quick)
    if only in (None, "minhash_hashes"):
        rows += bench_minhash_hashes(rounds)
    return rows


def table(rows: list[dict]) -> str:
    lines = ["| workload | contender | median ms | CPU ms | × ckn (wall) | × ckn (CPU) | check |",
             "|---|---|---|---|---|---|---|"]
    for row in rows:
        ok = "" if row["ok"] else " **FAILED**"
        lines.append(f"| {row['bench']} ({row['size']}) | {row['contender']} | "
                     f"{row['median_ms']:.3g} | {row['median_cpu_ms']:.3g} | "
                     f"{row['ratio_vs_ckn']:.3g} | {row['ratio_cpu_vs_ckn']:.3g} | "
                     f"{row['check']}{ok} |")
    return "\n".join(lines)


def machine_notes(load_before, load_after) -> dict:
    import ckn.minhash
    notes = {"python": sys.version.split()[0], "platform": platform.platform(),
             "cpus": os.cpu_count(), "load_before": load_before, "load_after": load_after,
             "minhash_simd": ckn.minhash.SIMD,
             "minhash_signatures": ckn.minhash.SIGNATURE_KERNEL}
    for mod in ("rank_bm25", "bm25s", "rensa", "datasketch"):
        try:
            from importlib.metadata import version
            notes[mod] = version(mod.replace("_", "-"))
        except Exception:  # noqa: BLE001 - a missing peer is noted, not fatal
            notes[mod] = None
    return notes


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="bench_text", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="3 rounds, no datasketch")
    parser.add_argument("--json", metavar="FILE", help="write rows and machine notes as JSON")
    parser.add_argument("--only", choices=WORKLOADS, help="run just this workload")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    rows = run(rounds=args.rounds, quick=args.quick, only=args.only)
    load_after = os.getloadavg()
    print(table(rows))
    print(f"\nload average before {load_before[0]:.2f}, after {load_after[0]:.2f}; "
          f"{os.cpu_count()} CPUs")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": machine_notes(load_before, load_after), "rows": rows}, f,
                      indent=2)
    return 0 if all(row["ok"] for row in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
