"""Simulate knapsack value models on the SQuAD pools of ``benchmarks/qa_recall.py``.

Usage: python benchmarks/diagnostics/qa_models.py [--articles 0-11] [--questions-per-article N]
       [--budgets 128,256,512,1024] [--models NAME,...] [--features FILE] [--json OUT]

For each question it runs ``ckn.sanitize`` once on the pool (the default parameters: fused
order with rrf_k 60, redaction, MinHash dedup, each survivor's overlap) and keeps, per surviving
chunk, its tokens, fused rank, rrf score, BM25 and dense ranks and scores, overlap and whether
its sanitized text holds a gold answer. Each model in ``MODELS`` maps those features to a
utility ``u >= 0`` per survivor; the value is ``floor(u · scale + 0.5)`` and the choice is
``ckn.knapsack.solve`` over the survivors that fit the budget, in fused order (its tie-break
prefers earlier, i.e. higher-ranked, items) — exactly what ``ckn.pack`` does with its own
utility ``rrf · (1 − λ · overlap)``. The greedy rows are those of ``qa_recall.py`` (walk a
``ckn.rank`` order, take what fits). Every model is also run on the bundled worked example
(``ckn.example_pool()``, budget 180), which must select ``chunk.alarm-retry-spec`` and
``chunk.injected-note``; the table marks a model that does not.

``--grid`` adds the k × γ grid of ``power_model``; the proposed model is the grid point with
the largest smallest margin (in questions, over the four budgets) against the best greedy row
on articles 0-11, checked afterwards on articles 12-23. The last column gives, per budget, the
model's answered questions minus the best greedy row's.

Features are cached with ``--features FILE`` (a pickle outside the repository) so a sweep does
not sanitize every pool again. Data and embeddings as in ``qa_recall.py`` (articles 24-47 are
held out: do not run model searches on them).
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import qa_recall

LAMBDA = 0.35   # ckn's redundancy_lambda default
SCALE = 100000  # ckn's utility_scale default
FINE = 10**12   # a scale at which steep utilities keep their tail (floor(u·1e5) is 0 below 5e-6)


def _rrf(f, k):
    """Fused score with constant ``k`` from the per-list ranks (ckn's weights 1, 1)."""
    return 1.0 / (k + f["bm25_rank"]) + 1.0 / (k + f["dense_rank"])


def _red(f, lam=LAMBDA):
    return 1.0 - lam * f["overlap"]


def rrf_model(lam=LAMBDA):
    """ckn's value model: u = rrf · (1 − λ · overlap), rrf with the ranking's k = 60."""
    return (lambda f: f["rrf"] * _red(f, lam), SCALE)


def power_model(k, gamma, scale=FINE, lam=LAMBDA):
    """u = (rrf_k / rrf_k,best)^γ · (1 − λ · overlap): the fused score recomputed with its own
    constant ``k`` (the ranking keeps rrf_k 60), divided by its best possible value
    ``2 / (k + 1)`` (both ranks 1), raised to ``γ``. A function of the two ranks that is
    symmetric in them, so equal fused scores stay equal (the worked example's tie)."""
    return (lambda f: (_rrf(f, k) * (k + 1) / 2) ** gamma * _red(f, lam), scale)


def topk_model(top_k):
    """ckn's value model over the ``top_k`` fused ranks only (a candidate cap)."""
    return (lambda f: np.where(f["fused_rank"] <= top_k, f["rrf"] * _red(f), 0.0), SCALE)


def rank_power_model(alpha):
    """u = fused_rank^−α (breaks the worked example's tie: fused rank 1 beats rank 2)."""
    return (lambda f: f["fused_rank"].astype(float) ** -alpha * _red(f), FINE)


# Model name -> (utility of the survivors' features, integer scale of the values).
MODELS: dict = {
    "ckn default: rrf": rrf_model(),
    "rrf λ=0": rrf_model(0.0),
    "(rrf/best)^16 (k 60)": power_model(60, 16),
    "rrf_k0 γ=1": power_model(0, 1),
    "top10 + rrf": topk_model(10),
    "1/fused_rank": rank_power_model(1),
    "(rrf_k6/best)^8 scale 1e5": power_model(6, 8, SCALE),
    "proposed: (rrf_k6/best)^8": power_model(6, 8),
}


def register_grid():
    """The k × γ grid the proposed model was chosen from (on articles 0-11)."""
    for k in (3, 4, 5, 6, 8, 10):
        for g in (3, 4, 6, 8, 12, 16):
            MODELS[f"(rrf_k{k}/best)^{g}"] = power_model(k, g)


# ---------------------------------------------------------------- features

def features(result, hits: set | None) -> dict:
    """Survivor features (fused order) from a ``ckn.sanitize`` result."""
    kept = [c for c in result.chunks if c.status == "kept"]
    return {
        "id": [c.id for c in kept],
        "tokens": np.array([c.tokens for c in kept], dtype=np.int64),
        "fused_rank": np.array([c.fused_rank for c in kept], dtype=np.int64),
        "rrf": np.array([c.rrf_score for c in kept]),
        "bm25_rank": np.array([c.bm25_rank for c in kept], dtype=np.float64),
        "dense_rank": np.array([c.dense_rank for c in kept], dtype=np.float64),
        "bm25": np.array([c.bm25_score for c in kept]),
        "dense": np.array([c.dense_score for c in kept]),
        "overlap": np.array([c.overlap for c in kept]),
        "hit": np.array([hits is not None and c.id in hits for c in kept]),
    }


def collect(args) -> list[dict]:
    """Per question: survivor features plus the greedy selections' hits per budget."""
    import ckn

    if args.features and Path(args.features).is_file():
        with open(args.features, "rb") as fh:
            cached = pickle.load(fh)
        if cached["key"] == (args.articles, args.questions_per_article, tuple(args.budgets)):
            return cached["rows"]
    data_path = qa_recall.find_data(args.data)
    if data_path is None:
        raise SystemExit("qa_models: SQuAD v1.1 dev not found (see qa_recall.py --help). Skipped.")
    data = json.loads(data_path.read_text("utf-8"))["data"]
    articles = qa_recall.parse_articles(args.articles)
    if any(a >= 24 for a in articles):
        raise SystemExit("qa_models: model search runs on the development half (articles 0-23) only")
    questions = qa_recall.load_questions(data, articles, args.questions_per_article)
    count = qa_recall.token_counter()
    corpus = qa_recall.build_corpus(data, questions, count)
    cache = qa_recall.EmbeddingCache(Path(args.cache_dir or qa_recall.DEFAULT_CACHE).expanduser())
    texts = [q.text for q in questions] + [t for q in questions for _, t in qa_recall.pool_chunks(corpus, q)]
    vectors = cache.vectors(texts)
    rows = []
    for q in questions:
        pool = qa_recall.make_pool(corpus, q, vectors)
        hits = {c["id"] for c in pool["candidates"] if qa_recall.contains_answer(c["text"], q.answers)}
        san = ckn.sanitize(pool)
        hits_clean = {c.id for c in san.chunks if c.status == "kept"
                      and qa_recall.contains_answer(c.text, q.answers)}
        r10 = ckn.rank(pool, rrf_k=10)
        tokens = {c.id: c.tokens for c in san.chunks}
        orders = {
            "fused rrf_k=60": san.ranked_ids,
            "fused rrf_k=10": r10.ranked_ids,
            "bm25": [c.id for c in sorted(san.chunks, key=lambda c: c.bm25_rank)],
            "cosine": [c.id for c in sorted(san.chunks, key=lambda c: c.dense_rank)],
        }
        greedy = {name: [any(c in hits for c in qa_recall.greedy(order, tokens, b))
                         for b in args.budgets] for name, order in orders.items()}
        rows.append({"article": q.article, "f": features(san, hits_clean), "greedy": greedy,
                     "oracle": [any(tokens[c] <= b for c in hits) for b in args.budgets]})
    if args.features:
        with open(args.features, "wb") as fh:
            pickle.dump({"key": (args.articles, args.questions_per_article, tuple(args.budgets)),
                         "rows": rows}, fh)
    return rows


# ---------------------------------------------------------------- simulation

def choose(f: dict, model, budget: int) -> list[int]:
    """Survivor positions the model's knapsack selects (as ckn.pack would, spec §8)."""
    from ckn.knapsack import solve

    fn, scale = model
    u = np.asarray(fn(f), dtype=np.float64)
    values = np.floor(u * scale + 0.5).astype(np.int64)
    fit = np.flatnonzero(f["tokens"] <= budget)
    res = solve(f["tokens"][fit], values[fit], budget)
    return [int(fit[i]) for i in res.indices]


def worked_example_ok(model) -> bool:
    import ckn

    f = features(ckn.sanitize(ckn.example_pool()), None)
    picked = sorted(f["id"][i] for i in choose(f, model, 180))
    return picked == ["chunk.alarm-retry-spec", "chunk.injected-note"]


def evaluate(rows: list[dict], model, budgets: list[int]) -> dict:
    """Recall per budget, mean chunks and mean worst fused rank."""
    hits = np.zeros(len(budgets))
    chunks = np.zeros(len(budgets))
    worst = np.zeros(len(budgets))
    for r in rows:
        f = r["f"]
        for j, b in enumerate(budgets):
            sel = choose(f, model, b)
            hits[j] += bool(f["hit"][sel].any()) if sel else False
            chunks[j] += len(sel)
            worst[j] += f["fused_rank"][sel].max() if sel else 0
    n = max(len(rows), 1)
    return {"recall": (hits / n).tolist(), "chunks": (chunks / n).tolist(), "worst": (worst / n).tolist()}


def baselines(rows: list[dict], budgets: list[int]) -> dict:
    n = max(len(rows), 1)
    out = {"oracle": [sum(r["oracle"][j] for r in rows) / n for j in range(len(budgets))]}
    for name in rows[0]["greedy"] if rows else ():
        out[f"greedy {name}"] = [sum(r["greedy"][name][j] for r in rows) / n for j in range(len(budgets))]
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--articles", default="0-11", help="development articles (default 0-11)")
    parser.add_argument("--questions-per-article", type=int, default=None, metavar="N")
    parser.add_argument("--budgets", default="128,256,512,1024")
    parser.add_argument("--models", default=None, help="comma-separated model names (default: all)")
    parser.add_argument("--grid", action="store_true", help="add the parameter grid to MODELS")
    parser.add_argument("--features", help="pickle to cache the pools' features in (outside the repo)")
    parser.add_argument("--data")
    parser.add_argument("--cache-dir")
    parser.add_argument("--json", metavar="OUT")
    args = parser.parse_args(argv)
    args.budgets = [int(b) for b in args.budgets.split(",")]
    if args.grid:
        register_grid()
    start = time.perf_counter()
    rows = collect(args)
    print(f"{len(rows)} questions, features in {time.perf_counter() - start:.1f} s")
    base = baselines(rows, args.budgets)
    best_greedy = [max(v[j] for k, v in base.items() if k != "oracle") for j in range(len(args.budgets))]
    names = args.models.split(",") if args.models else list(MODELS)
    print("| model | " + " | ".join(f"@{b}" for b in args.budgets) + " | vs best greedy (questions) | example |")
    print("|---|" + "---:|" * len(args.budgets) + "---:|---|")
    for name, rec in base.items():
        print(f"| {name} | " + " | ".join(f"{100 * x:.1f}" for x in rec) + " | | |")
    results = {"baselines": base, "models": {}}
    for name in names:
        model = MODELS[name]
        t0 = time.perf_counter()
        ev = evaluate(rows, model, args.budgets)
        n = len(rows)
        deltas = [round(a * n) - round(g * n) for a, g in zip(ev["recall"], best_greedy)]
        ok = worked_example_ok(model)
        ev.update(delta_questions=deltas, example_ok=ok, seconds=time.perf_counter() - t0)
        results["models"][name] = ev
        print(f"| {name} | " + " | ".join(f"{100 * x:.1f}" for x in ev["recall"])
              + f" | {' '.join(f'{d:+d}' for d in deltas)} | {'ok' if ok else 'BREAKS'} |", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
