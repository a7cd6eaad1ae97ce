"""Train the sanitizer's directive model (``ckn/directive_model.json``, see ``ckn.directive_score``).

Usage: python tools/train_directive_model.py [--check]   (needs numpy; ~30 s)

Data: the labelled lines of ``tests/data/injection_corpus.jsonl`` and the probe sets
``injection_probes_v2`` to ``v8``. ``injection_probes_v9.jsonl`` is held out: it is never read
here, so its figures measure lines the model never saw.

Model: L2-regularised logistic regression (full-batch gradient descent, fixed epochs, so the
result is deterministic) over ``directive_score.features`` of each line's normalised views,
attack = 1, benign = 0. The threshold is the smallest score, in steps of 0.05, at which the
5-fold cross-validated false-positive rate on the benign lines is at most ``MAX_CV_FP``. Family models: one per
family, trained on the attack lines (that family vs the others). Weights below ``PRUNE`` in
absolute value are dropped, the rest rounded to 4 decimals. Anchors: the ASCII words of three or
more letters whose own weight is at least ``ANCHOR_WEIGHT``, that occur in at most
``ANCHOR_MAX_BENIGN`` benign training lines, and that are neither among the sanitizer's common
words nor in ``COMMON_WORDS`` (frequent English and source-code words, a fixed list below); the
sanitizer scores a plain-ASCII segment only when one of them occurs (so the compiled pre-filter
can skip the others), and the threshold is chosen with that rule applied, each fold with the
anchors of its own training part. This is the false-positive policy: benign lines that quote or
discuss attacks use the words attacks use most ("ignore", "instructions", "developer"), so those
words do not open the gate, and the threshold no longer has to rise above every such line
(docs/directive-model.md). ``--check`` retrains and compares with the shipped file instead of
writing it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ckn.directive_score import MODEL_PATH, _weight_sum, features  # noqa: E402
from ckn.sanitizer import _COMMON, FAMILIES, _plan_words, normalized_views  # noqa: E402

DATA = ROOT / "tests" / "data"
TRAIN_FILES = ("injection_corpus.jsonl", "injection_probes_v2.jsonl", "injection_probes_v3.jsonl",
               "injection_probes_v4.jsonl", "injection_probes_v5.jsonl", "injection_probes_v6.jsonl",
               "injection_probes_v7.jsonl", "injection_probes_v8.jsonl")
HELD_OUT = ("injection_probes_v9.jsonl",)
L2 = 1e-3
EPOCHS = 400
STEP = 5.0
FOLDS = 5
MAX_CV_FP = 0.001
PRUNE = 0.05
ANCHOR_WEIGHT = 0.2
ANCHOR_MAX_BENIGN = 1
# Words frequent in ordinary English prose and in source code: never anchors, whatever their
# weight (a fixed list, so the anchors do not depend on files that differ between machines).
COMMON_WORDS = frozenset("""
about above after again against also always another any anything around back because been before
being below between both but came can cannot could did does doing done down during each either
else even ever every few first found from further get gets getting given gives going gone got had
has have having her here hers herself him himself his how however into its itself just last least
less like likely made make makes making many may maybe might more most much must near need needs
neither next none nor not now off often once one only other others otherwise our ours out over own
per perhaps plus rather really said same see seem seems several she should since some something
sometimes still such than that the their theirs them themselves then there these they thing things
this those though through thus together too toward under until upon used uses using very via was
way ways well were what whatever when where whether which while who whom whose why will with within
without would yet you your yours
able add added adding allow allows already although among anyway apply based become becomes begin
best better big bring call called calls case cases change changed changes check checks come comes
common complete contain contains current default different either end ends enough example examples
exactly except fact far final find finds fine following follows form full general good great group
hand handle help high include included includes including instead keep kind known large later left
let level line lines long look low main mean means mode name names never new note number numbers
old open order part place point possible present probably put quite real reason right run second
set show side simple single small sort special start state sure take takes tell term test therefore
third three time times top true try turn two type types unless up update updated updates use useful
usually value values version want whole wide work works write writes written wrong year
sys self def return import class false elif except finally lambda yield assert raise pass break
continue global nonlocal async await print len str int dict list tuple object args kwargs init test
tests data file files path obj func result results item items key keys val msg err error errors
config cfg opt opts param params arg attr attrs node nodes tmp temp module modules doc docs string
strings char chars byte bytes buffer stream format fmt parse parser token tokens output input read
close remove delete copy clear load save dump dumps loads source target base root parent child
children context
""".split())


# Features given no weight: an address is common in real documentation (changelogs, READMEs)
# and rare in the corpora's benign lines, so its weight would be an artefact of the corpora.
NEUTRAL = frozenset({"w:url", "w:https", "w:http", "w:www"})


def load() -> list[dict]:
    rows = []
    for name in TRAIN_FILES:
        with (DATA / name).open(encoding="utf-8") as fh:
            rows.extend(json.loads(line) for line in fh if line.strip())
    return rows


def fit(feature_lists: list[list[str]], y: np.ndarray) -> tuple[float, dict[str, float]]:
    """Logistic regression; returns (bias, weights by feature)."""
    vocab = sorted({f for fs in feature_lists for f in fs})
    index = {f: i for i, f in enumerate(vocab)}
    rows = np.concatenate([np.full(len(fs), k) for k, fs in enumerate(feature_lists)])
    cols = np.array([index[f] for fs in feature_lists for f in fs], dtype=np.int64)
    n, m = len(feature_lists), len(vocab)
    w, b = np.zeros(m), 0.0
    for _ in range(EPOCHS):
        z = np.bincount(rows, weights=w[cols], minlength=n) + b
        g = 1.0 / (1.0 + np.exp(-z)) - y
        w -= STEP * (np.bincount(cols, weights=g[rows], minlength=m) / n + L2 * w)
        b -= STEP * g.mean() / 10
    return float(b), dict(zip(vocab, w.tolist()))


def benign_counts(feature_lists: list[list[str]], y: np.ndarray) -> dict[str, int]:
    """In how many benign lines each word feature occurs."""
    counts: dict[str, int] = {}
    for feats, label in zip(feature_lists, y):
        if not label:
            for f in feats:
                if f.startswith("w:"):
                    counts[f] = counts.get(f, 0) + 1
    return counts


def anchors(weights: dict[str, float], benign: dict[str, int]) -> frozenset[str]:
    return frozenset(f[2:] for f, w in weights.items()
                     if f.startswith("w:") and f[2:].isascii() and len(f) >= 5
                     and f[2:] not in _COMMON and f[2:] not in COMMON_WORDS
                     and w >= ANCHOR_WEIGHT and benign.get(f, 0) <= ANCHOR_MAX_BENIGN)


def words(text: str) -> set[str]:
    """The words the sanitizer's pre-filter compares with the model's anchors."""
    return {w.decode() for w in _plan_words(text.encode("ascii"), True)}


def score(bias: float, weights: dict[str, float], feats: list[str]) -> float:
    return bias + _weight_sum(weights, feats)  # as Model.score adds them


def train() -> dict:
    rows = load()
    base = [[f for f in features(normalized_views(r["text"])) if f not in NEUTRAL] for r in rows]
    y = np.array([r["label"] == "attack" for r in rows], dtype=float)
    # Cross-validated scores (fold = line number mod FOLDS) choose the threshold.
    cv = np.zeros(len(rows))
    for k in range(FOLDS):
        train_idx = [i for i in range(len(rows)) if i % FOLDS != k]
        bias, weights = fit([base[i] for i in train_idx], y[train_idx])
        gate = anchors(weights, benign_counts([base[i] for i in train_idx], y[train_idx]))
        for i in range(k, len(rows), FOLDS):
            scored = not rows[i]["text"].isascii() or not gate.isdisjoint(words(rows[i]["text"]))
            cv[i] = score(bias, weights, base[i]) if scored else -np.inf
    benign = cv[y == 0]
    threshold = 0.0
    while np.mean(benign > threshold) > MAX_CV_FP:
        threshold = round(threshold + 0.05, 2)
    bias, weights = fit(base, y)
    families = {}
    attacks = [i for i in range(len(rows)) if y[i] == 1]
    for family in FAMILIES:
        fy = np.array([rows[i]["family"] == family for i in attacks], dtype=float)
        fb, fw = fit([base[i] for i in attacks], fy)
        families[family] = {"bias": round(fb, 4), "weights": _pruned(fw)}
    return {
        "about": "ckn directive model: logistic regression over ckn.directive_score.features; "
                 "made by tools/train_directive_model.py",
        "trained_on": list(TRAIN_FILES),
        "held_out": list(HELD_OUT),
        "lines": {"attack": int(y.sum()), "benign": int(len(y) - y.sum())},
        "cross_validation": {
            "folds": FOLDS,
            "recall": round(float(np.mean(cv[y == 1] > threshold)), 4),
            "false_positive_rate": round(float(np.mean(benign > threshold)), 4),
        },
        "threshold": threshold,
        "bias": round(bias, 4),
        "anchors": sorted(anchors(_pruned(weights), benign_counts(base, y))),
        "weights": _pruned(weights),
        "families": families,
    }


def _pruned(weights: dict[str, float]) -> dict[str, float]:
    return {f: round(w, 4) for f, w in sorted(weights.items()) if abs(w) >= PRUNE}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="retrain and compare with the shipped model; exit 1 if they differ")
    args = parser.parse_args(argv)
    model = train()
    text = json.dumps(model, ensure_ascii=False, indent=0, sort_keys=True) + "\n"
    if args.check:
        same = MODEL_PATH.read_text(encoding="utf-8") == text
        print("directive model: " + ("up to date" if same else "DIFFERS from a fresh training"))
        return 0 if same else 1
    MODEL_PATH.write_text(text, encoding="utf-8")
    cvr = model["cross_validation"]
    print(f"wrote {MODEL_PATH.name}: {len(model['weights'])} weights, threshold "
          f"{model['threshold']}, cross-validated recall {cvr['recall']:.3f}, "
          f"false positives {cvr['false_positive_rate']:.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
