"""Train the sanitizer's line scorer and write ``ckn/sanitizer_weights.bin``; print the held-out evaluation.

    python tools/train_sanitizer.py            # train on everything, write the weights, evaluate
    python tools/train_sanitizer.py --no-eval  # weights only

Reproducible: fixed order, deterministic L-BFGS on one thread (``OMP_NUM_THREADS=1`` is set
before numpy loads), so the same data gives the same weights file byte for byte. Needs numpy and
scipy (tools only; the package has no runtime dependency).

Training data (nothing else is read):

- the project's corpora ``tests/data/injection_corpus.jsonl`` and ``injection_probes_v*.jsonl``;
- ``tools/sanitizer_lines.jsonl``: lines written for ckn in twenty languages: attacks of every kind
  (override, role headers, prompt extraction, output manipulation, content and code insertion,
  exfiltration, tool abuse, personas, notes addressed to AI readers) and benign hard negatives
  (security prose that describes or quotes attacks, LLM engineering text and recommendations,
  technical documentation, e-mails and chat, role-like labels, everyday instructions);
- docstring lines of this Python's standard library (read with ``ast``, nothing imported) as
  benign English documentation;
- ``../shared/injection-data/lines.jsonl`` and ``lines_more.jsonl`` (or ``$CKN_INJECTION_DATA``): lines
  from public sources, not committed here. They can be rebuilt from microsoft/BIPIA (``benchmark/``),
  meta-llama/PurpleLlama (CyberSecEval 2 ``prompt_injection.json`` and its multilingual set),
  OWASP/www-project-top-10-for-large-language-model-applications (2025 text, 11 languages),
  swisskyrepo/PayloadsAllTheThings (``Prompt Injection/``), TakSec/Prompt-Injection-Everywhere,
  mik0w/pallms, sherdencooper/GPTFuzz, whylabs/langkit (``themes.json``), greshake/llm-security,
  deepset/prompt-injections and the python-docs-{fr,es,ja,ko,zh-cn,pt-br,pl} translations; the
  data directory's README lists the commits and selection rules.

The model is logistic regression over the features of ``tools/sanitizer_reference.py`` with
source-balanced sample weights (each source's attack lines, and each source's benign lines, weigh
in proportion to the square root of their number; the lines written for ckn count as one source
per language), so neither a large source nor a language decides the boundary. The weights are the
mean of BAGS fits, each without about a quarter of the sources (drawn by hash), which favours
features that hold across sources over those one source alone supports. The threshold is the
smallest score at which every benign source of the training data (sources under 300 lines
pooled) has at most FP_TARGET of its lines at or above it. The memory of known attacks holds the
keys (``ref.memory_keys``: whole short lines, runs of three or more words of longer ones, from
every word) of every trainable attack line that no benign line has.
"""
from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import ast  # noqa: E402
import hashlib  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
import sys  # noqa: E402
import sysconfig  # noqa: E402
import unicodedata  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
from scipy.optimize import minimize  # noqa: E402
from scipy.sparse import csr_matrix  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import sanitizer_reference as ref  # noqa: E402
from sanitizer_lexicon import CONCEPTS  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
WEIGHTS = ROOT / "ckn" / "sanitizer_weights.bin"
SCALE = 1024                      # weights are stored as round(w * SCALE)
L2 = 1.0                          # ridge strength (the sample weights sum to the number of lines)
L2_WORDS = 8.0                    # on hashed words and word pairs: many, and bound to a language
BENIGN_SHARE = 0.5                # benign lines and attack lines weigh alike (the threshold guards FP)
BAGS = 4                          # fits averaged, each without about a quarter of the sources
FP_TARGET = 0.0025                # training false-positive rate allowed on every benign source
SMALL_SOURCE = 300                # benign sources under this many lines are pooled for the threshold
STDLIB_LINES = 4000               # standard-library docstring lines used as benign documentation
OWN = "sanitizer_lines"
UNDETECTABLE = frozenset({"task_hijack", "direct_social"})   # not decidable from the line alone
BOUNDARIES = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"


def shared_dir() -> Path | None:
    env = os.environ.get("CKN_INJECTION_DATA")
    path = Path(env) if env else ROOT / ".." / "shared" / "injection-data"
    return path if (path / "lines.jsonl").is_file() else None


def load_rows() -> list[dict]:
    """Every labelled line with its ``source`` (project files: one source per file)."""
    rows = []
    data = shared_dir()
    if data is None:
        print("note: ../shared/injection-data not found (set CKN_INJECTION_DATA); third-party lines skipped",
              file=sys.stderr)
    else:
        for name in ("lines.jsonl", "lines_more.jsonl"):
            with open(data / name, encoding="utf-8") as fh:
                rows += [json.loads(line) for line in fh]
    for path in sorted((ROOT / "tests" / "data").glob("injection_*.jsonl")) + [ROOT / "tools" / "sanitizer_lines.jsonl"]:
        if not path.is_file():
            continue
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                r = json.loads(line)
                r.setdefault("source", path.stem)
                r.setdefault("lang", r.get("language", "en"))
                r.setdefault("group", r.get("family", "other"))
                rows.append(r)
    rows += [{"text": t, "label": "benign", "source": "stdlib_docs", "lang": "en", "group": "docstring"}
             for t in stdlib_lines(STDLIB_LINES)]
    return rows


def stdlib_lines(limit: int) -> list[str]:
    """Distinct docstring lines (20-300 characters, mostly letters) of the standard library's
    modules, read with ``ast`` (tests, idlelib and turtledemo skipped), ordered by SHA-1, the
    first ``limit``."""
    root = Path(sysconfig.get_paths()["stdlib"])
    skip = {"test", "tests", "idlelib", "site-packages", "__pycache__", "lib2to3", "turtledemo"}
    seen: set[str] = set()
    for path in sorted(root.rglob("*.py")):
        if skip & set(path.relative_to(root).parts):
            continue
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                for line in (ast.get_docstring(node) or "").splitlines():
                    line = line.strip()
                    if 20 <= len(line) <= 300 and sum(c.isalpha() for c in line) >= 0.6 * len(line):
                        seen.add(line)
    return sorted(seen, key=lambda t: hashlib.sha1(t.encode()).digest())[:limit]


# Dropped before matching: format and invisible code points (zero-width, bidi controls, soft
# hyphen, variation selectors, Hangul fillers, Tag controls); Tags U+E0020..E007E are decoded.
INVISIBLE = ((0xAD, 0xAD), (0x34F, 0x34F), (0x61C, 0x61C), (0x115F, 0x1160), (0x17B4, 0x17B5),
             (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
             (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0x1BCA0, 0x1BCA3),
             (0x1D173, 0x1D17A), (0xE0000, 0xE001F), (0xE007F, 0xE007F), (0xE0100, 0xE01EF))
# Look-alike letters (after casefold) read as the Latin letter they imitate.
CONFUSABLE = {0x0430: "a", 0x0435: "e", 0x043E: "o", 0x0440: "p", 0x0441: "c", 0x0443: "y", 0x0445: "x",
              0x0456: "i", 0x0458: "j", 0x0455: "s", 0x0501: "d", 0x04BB: "h", 0x04CF: "l", 0x03B1: "a",
              0x03BF: "o", 0x03C1: "p", 0x03B9: "i", 0x03BA: "k", 0x03BD: "v", 0x03C5: "u", 0x03C7: "x",
              0x0131: "i", 0x0251: "a", 0x0261: "g", 0x0578: "n", 0x057D: "u"}


def _fold_once(text: str) -> str:
    """NFKC, casefold, NFD, combining accents U+0300..U+036F dropped, NFC (Hangul syllables
    recompose), invisible characters dropped, look-alikes mapped."""
    s = unicodedata.normalize("NFKC", text).casefold()
    s = "".join(ch for ch in unicodedata.normalize("NFD", s) if not 0x300 <= ord(ch) <= 0x36F)
    s = unicodedata.normalize("NFC", s)
    return "".join(CONFUSABLE.get(ord(ch), ch) for ch in s
                   if not any(a <= ord(ch) <= b for a, b in INVISIBLE))


def fold_table() -> dict[int, tuple[int, ...]]:
    """The sanitizer's per-code-point fold, from this Python's ``unicodedata`` (stored in the
    weights file, so the package needs no Unicode database and reads the same on every Python):
    for every code point whose fold differs from itself, the code points it folds to (applied
    until nothing changes). Tag characters U+E0020..U+E007E fold as the ASCII they shadow."""
    table = {}
    for c in range(0x110000):
        if 0xD800 <= c <= 0xDFFF:
            continue
        s = chr(c - 0xE0000) if 0xE0020 <= c <= 0xE007E else chr(c)
        for _ in range(4):
            t = _fold_once(s)
            if t == s:
                break
            s = t
        if s != chr(c):
            if len(s) > ref.MAX_FOLD:
                raise ValueError(f"U+{c:04X} folds to {len(s)} code points (> {ref.MAX_FOLD})")
            table[c] = tuple(map(ord, s))
    return table


def lexicon_entries(fold) -> list[tuple[list[int], int, int]]:
    """(folded stem code points, concept id, whole word) for every lexicon entry, in table order."""
    entries = []
    for cid, (_name, stems) in enumerate(CONCEPTS.items()):
        for stem in stems.split("|"):
            whole = int(stem.endswith("$"))
            points = [c for c in ref.fold_points(stem.rstrip("$"), fold) if ref.word_char(c)]
            if points:
                entries.append((points, cid, whole))
    return entries


def lines(text: str) -> list[str]:
    """The text's lines, cut at every boundary the sanitizer cuts at (``\r\n`` once)."""
    return re.split("\r\n|[" + BOUNDARIES + "]", text)


def segments(text: str) -> list[str]:
    """The text's lines, then the text encoded in them (``payloads``): a row scores as the
    highest of these."""
    cut = lines(text)
    return cut + [p for line in cut for p in ref.payloads(line)]


def featurize(rows, entries, fold) -> list[list[list[int]]]:
    """Per row, the feature lists of its segments."""
    trie = ref.Trie(entries)
    k = len(CONCEPTS)
    return [[ref.line_features(s, trie, k, fold) for s in segments(r["text"])] for r in rows]


def memory_keys(rows, fold, every: bool = False) -> list[list[list[int]]]:
    """Per row, the memory keys of its segments (``ref.memory_keys``; ``every``: those stored)."""
    return [[ref.line_keys(s, fold, every) for s in segments(r["text"])] for r in rows]


def memory(rows, keys, idx) -> frozenset:
    """The memory of known attacks from rows ``idx`` (``keys``: :func:`memory_keys` with ``every``):
    every key of a trainable attack row's segments that no benign row's segment has."""
    attack, benign = set(), set()
    for i in idx:
        if trainable(rows[i]):
            (attack if rows[i]["label"] == "attack" else benign).update(k for seg in keys[i] for k in seg)
    return frozenset(attack - benign)


def known_rows(keys, mem, idx) -> list[bool]:
    """Whether a segment of each row ``idx`` is a known attack (``ref.known``; ``keys``:
    :func:`memory_keys`)."""
    return [any(ref.known(seg, mem) for seg in keys[i]) for i in idx]


def sample_weights(rows, idx) -> np.ndarray:
    """Balanced: each (source, label) block weighs in proportion to the square root of its size; benign
    lines weigh BENIGN_SHARE of the total (false alarms are kept rare by the threshold, not by the
    fit). The lines written for ckn form one source per language."""
    blocks: dict[tuple[str, str], list[int]] = {}
    for j, i in enumerate(idx):
        src = rows[i]["source"]
        if src == OWN:
            src = f"{OWN}/{rows[i]['lang']}"
        blocks.setdefault((src, rows[i]["label"]), []).append(j)
    mass = {lab: sum(len(m) ** 0.5 for (s, l), m in blocks.items() if l == lab) for lab in ("attack", "benign")}
    share = {"attack": 1.0 - BENIGN_SHARE, "benign": BENIGN_SHARE}
    w = np.zeros(len(idx))
    for (_s, lab), members in blocks.items():
        w[members] = len(idx) * share[lab] * len(members) ** 0.5 / mass[lab] / len(members)
    return w


def trainable(row) -> bool:
    return not (row["label"] == "attack" and row.get("group") in UNDETECTABLE)


def fold_of(row) -> str:
    """The unit a source is left out as: ``cse2_en`` and ``cse2_multilingual_mt`` translate the same
    items, so they count as one."""
    return "cse2" if row["source"].startswith("cse2_") else row["source"]


def fit(rows, feats, idx, n_feat: int) -> np.ndarray:
    """Mean weights of BAGS fits of :func:`fit_one`, fit ``b`` without the sources whose SHA-1 of
    ``"b/source"`` is 0 modulo BAGS (the lines written for ckn are always kept)."""
    sources = sorted({fold_of(rows[i]) for i in idx if rows[i]["source"] != OWN})
    fits = []
    for b in range(BAGS):
        drop = {s for s in sources if hashlib.sha1(f"{b}/{s}".encode()).digest()[0] % BAGS == 0}
        fits.append(fit_one(rows, feats, [i for i in idx if fold_of(rows[i]) not in drop], n_feat))
    return np.mean(fits, axis=0)


def fit_one(rows, feats, idx, n_feat: int) -> np.ndarray:
    """Float weights of the L2-regularised logistic regression on rows ``idx``: every scored segment
    is a sample with its row's label, a row's weight shared among its segments."""
    idx = [i for i in idx if trainable(rows[i])]
    data, cols, indptr, y, sw = [], [], [0], [], []
    base_w = sample_weights(rows, idx)
    for j, i in enumerate(idx):
        segs = [f for f in feats[i] if f]
        for f in segs:
            cols += f
            data += [1.0] * len(f)
            indptr.append(len(cols))
            y.append(1.0 if rows[i]["label"] == "attack" else -1.0)
            sw.append(base_w[j] / len(segs))
    X = csr_matrix((np.array(data), np.array(cols), np.array(indptr)), shape=(len(y), n_feat))
    y = np.array(y)
    sw = np.array(sw)
    reg = np.full(n_feat, L2)
    reg[n_feat - (1 << ref.WORD_BITS):] = L2_WORDS
    reg[0] = 0.0

    def loss(w):
        m = y * (X @ w)
        lo = np.logaddexp(0.0, -m)
        g = -(sw * y * np.exp(-np.logaddexp(0.0, m)))
        return float(sw @ lo + 0.5 * (reg * w) @ w), X.T @ g + reg * w

    res = minimize(loss, np.zeros(n_feat), jac=True, method="L-BFGS-B", options={"maxiter": 500})
    return res.x


def quantise(w: np.ndarray) -> list[int]:
    """Weights in int16 units of 1/SCALE (the file's type; L2 keeps them far inside it)."""
    q = np.round(w * SCALE).astype(np.int64)
    top = int(np.abs(q).max(initial=0))
    if top > 32767:
        raise ValueError(f"a weight of {top / SCALE:.1f} does not fit int16 at SCALE {SCALE}")
    return [int(v) for v in q]


def row_scores(feats, weights: list[int], idx) -> list[int]:
    """Row score = highest segment score (segments without words never fire)."""
    out = []
    for i in idx:
        s = [ref.score(f, weights) for f in feats[i] if f]
        out.append(max(s) if s else -(1 << 30))
    return out


def benign_blocks(rows, idx) -> dict[str, list[int]]:
    """Benign rows by source; sources with under SMALL_SOURCE rows pooled as ``small``. The lines
    written for ckn are left out: they are built to sit near the boundary."""
    blocks: dict[str, list[int]] = {}
    for i in idx:
        if rows[i]["label"] == "benign" and rows[i]["source"] != OWN:
            blocks.setdefault(rows[i]["source"], []).append(i)
    small = [i for s, m in blocks.items() if len(m) < SMALL_SOURCE for i in m]
    blocks = {s: m for s, m in blocks.items() if len(m) >= SMALL_SOURCE}
    if small:
        blocks["small"] = small
    return blocks


def train(rows, feats, keys, idx, n_feat):
    """Quantised weights fitted on rows ``idx``, the threshold: the smallest score at which every
    benign block (:func:`benign_blocks`) has at most FP_TARGET of its lines at or above it, and the
    memory of known attacks (:func:`memory`)."""
    w = quantise(fit(rows, feats, idx, n_feat))
    t = -(1 << 30)
    for members in benign_blocks(rows, idx).values():
        s = sorted(row_scores(feats, w, members), reverse=True)
        allowed = int(FP_TARGET * len(s))
        if allowed < len(s):
            t = max(t, s[allowed] + 1)
    return w, t, memory(rows, keys, idx)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--no-eval", action="store_true", help="write the weights without the held-out evaluation")
    args = ap.parse_args(argv)
    rows = load_rows()
    fold = fold_table()
    entries = lexicon_entries(fold)
    k = len(CONCEPTS)
    feats = featurize(rows, entries, fold)
    keys = memory_keys(rows, fold, every=True)
    w, t, mem = train(rows, feats, keys, list(range(len(rows))), ref.n_features(k))
    ref.write_weights(WEIGHTS, ref.VERSION, k, t, entries, w, fold, mem)
    print(f"wrote {WEIGHTS.relative_to(ROOT)}: {len(entries)} stems, {len(w)} weights, threshold {t}, "
          f"{len(fold)} folded code points, {len(mem)} keys of known attacks")
    if not args.no_eval:
        import sanitizer_eval
        sanitizer_eval.report(rows, feats, keys, memory_keys(rows, fold), ref.n_features(k))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
