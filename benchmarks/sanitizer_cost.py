"""What the sanitizer costs beside ranking, on real prose in eleven languages.

Usage: python benchmarks/sanitizer_cost.py [--rounds 7] [--paragraphs 500] [--json FILE]

Pools are built from the OWASP Top 10 for LLM Applications prose of ``../shared/injection-data/
lines.jsonl`` (or ``$CKN_INJECTION_DATA``; source: OWASP/www-project-top-10-for-large-language-
model-applications, 2025 text, CC BY-SA 4.0): per language, consecutive lines joined into
paragraphs of about 1,200 characters, ``--paragraphs`` of them (cycled when a language has less),
40 tokens each, a query of three words from the first paragraph. Side by side in one process, CPU
medians over rounds (ms):

- ``sanitize_texts`` of the paragraphs (the sanitizer stage alone) against ``ckn.rank`` of the pool
  (target: the ratio ≤ 1 in every language);
- ``ckn.pack`` of each language's pool, and of a ``mixed`` pool (the languages' paragraphs in
  turn), against the English one (target: ≤ 3×);
- lines per CPU second of ``sanitize_texts`` on English documentation lines: every line of
  the Python standard library's docstrings (``pydoc``-style text, first 50,000 lines).
"""
from __future__ import annotations

import argparse
import inspect
import json
import os
import statistics
import sys
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
try:
    import ckn
except ImportError:  # run from a checkout: the in-place build
    sys.path.insert(0, str(HERE.parent))
    import ckn
from ckn.sanitizer import sanitize_texts  # noqa: E402


def data_file() -> Path | None:
    env = os.environ.get("CKN_INJECTION_DATA")
    path = (Path(env) if env else HERE.parent / ".." / "shared" / "injection-data") / "lines.jsonl"
    return path if path.is_file() else None


def paragraphs(path: Path, n: int) -> dict[str, list[str]]:
    by_lang: dict[str, list[str]] = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            if r["source"] == "owasp_llm_top10":
                by_lang.setdefault(r["lang"], []).append(r["text"])
    out = {}
    for lang, lines in sorted(by_lang.items()):
        paras, cur = [], ""
        for text in lines:
            cur = f"{cur} {text}" if cur else text
            if len(cur) >= 1200:
                paras.append(cur)
                cur = ""
        out[lang] = [paras[i % len(paras)] for i in range(n)]
    return out


def pool_of(texts: list[str]) -> dict:
    query = " ".join(texts[0].split()[:3])
    return {"query": query, "token_budget": 400,
            "candidates": [{"id": f"p{i}", "tokens": 40, "text": t} for i, t in enumerate(texts)]}


def cpu_ms(f, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        c0 = time.thread_time()
        f()
        times.append(time.thread_time() - c0)
    return statistics.median(times) * 1e3


def doc_lines(limit: int = 50_000) -> list[str]:
    lines: list[str] = []
    for name in sorted(sys.modules):
        mod = sys.modules[name]
        for obj in [mod, *vars(mod).values()] if inspect.ismodule(mod) else []:
            with warnings.catch_warnings():  # (deprecated aliases warn when their __doc__ is read)
                warnings.simplefilter("ignore")
                doc = getattr(obj, "__doc__", None)
            if isinstance(doc, str):
                lines.extend(x.strip() for x in doc.splitlines() if x.strip())
            if len(lines) >= limit:
                return lines[:limit]
    return lines


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--paragraphs", type=int, default=500)
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    path = data_file()
    rows = []
    if path is None:
        print("../shared/injection-data/lines.jsonl not found (set CKN_INJECTION_DATA): pools skipped")
    else:
        langs = paragraphs(path, args.paragraphs)
        sanitize_texts(["warm up"])
        en_pack = None
        print(f"{'lang':6} {'sanitize_texts':>15} {'rank':>9} {'ratio':>6} {'pack':>9} {'pack/en':>8}")
        names = sorted(langs)
        langs["mixed"] = [langs[names[i % len(names)]][i] for i in range(args.paragraphs)]
        for lang in ["en"] + [x for x in langs if x != "en"]:
            texts = langs[lang]
            pool = pool_of(texts)
            s = cpu_ms(lambda: sanitize_texts(texts), args.rounds)
            r = cpu_ms(lambda: ckn.rank(pool), args.rounds)
            p = cpu_ms(lambda: ckn.pack(pool), args.rounds)
            en_pack = en_pack or p
            rows.append({"lang": lang, "sanitize_ms": s, "rank_ms": r, "pack_ms": p,
                         "sanitize_over_rank": s / r, "pack_over_english": p / en_pack})
            print(f"{lang:6} {s:13.2f}ms {r:7.2f}ms {s / r:6.2f} {p:7.2f}ms {p / en_pack:8.2f}")
    lines = doc_lines()
    ms = cpu_ms(lambda: sanitize_texts(lines), args.rounds)
    rate = len(lines) / (ms / 1e3)
    print(f"English documentation: {len(lines)} lines, {ms:.1f} ms, {rate:,.0f} lines per CPU second")
    if args.json:
        Path(args.json).write_text(json.dumps({"pools": rows, "doc_lines_per_second": rate}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
