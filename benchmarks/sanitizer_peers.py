"""Compare ckn's line sanitizer with two offline peer approaches on the same labelled corpus.

    python benchmarks/sanitizer_peers.py [--corpus tests/data/injection_corpus.jsonl ...]

(default: every ``tests/data/injection_*.jsonl``; the output maps each corpus file name to its
report)

Prints JSON: for each approach, recall (overall, per language, per family), false-positive rate
and lines/s over the corpus. The peers, reimplemented here because neither needs a model or a
network call:

* ``rebuff_heuristic`` — the keyword heuristic of Rebuff (protectai/rebuff,
  ``python-sdk/rebuff/detect_pi_heuristics.py``, Apache-2.0; the same heuristic is LiteLLM's
  prompt-injection check): 11 override verbs × 8 adjectives × 20 objects × 5 endings, each
  compared with every equally long word window of the normalised input; score = matched-word
  score − 0.1 × difflib similarity; a line is flagged when the score exceeds Rebuff's default
  ``max_heuristic_score`` of 0.75 (``rebuff_heuristic``), or 0.5, the value Rebuff's own test
  configuration uses (``rebuff_heuristic_0.5``). Only windows whose word score can exceed the
  threshold are scored, which gives the same verdict much faster.
* ``keyword_blocklist`` — a representative case-insensitive English blocklist of the kind found in
  many guardrail snippets (written for this comparison, not a specific product).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from difflib import SequenceMatcher
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ckn.sanitizer import scan_line  # noqa: E402

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "injection_corpus.jsonl"

_VERBS = ["ignore", "disregard", "skip", "forget", "neglect", "overlook", "omit", "bypass",
          "pay no attention to", "do not follow", "do not obey"]
_ADJECTIVES = ["", "prior", "previous", "preceding", "above", "foregoing", "earlier", "initial"]
_ENDINGS = ["", "and start over", "and start anew", "and begin afresh", "and start from scratch"]
_OBJECTS = ["content", "text", "instructions", "instruction", "directives", "directive",
            "commands", "command", "context", "conversation", "input", "inputs", "data",
            "message", "messages", "communication", "response", "responses", "request", "requests"]
_KEYWORDS = [
    " ".join(f"{v} {a} {o} {e}".split())
    for v in _VERBS for a in _ADJECTIVES for o in _OBJECTS for e in _ENDINGS
]
_KEYWORD_PARTS = [(k, k.split(" ")) for k in _KEYWORDS]


def rebuff_heuristic(line: str, threshold: float = 0.75) -> bool:
    """Rebuff's heuristic verdict for one line (score > threshold)."""
    text = re.sub(r"\s+", " ", re.sub(r"[^\w\s]|_", "", line.lower())).strip()
    words = text.split(" ")
    for keyword, parts in _KEYWORD_PARTS:
        n = len(parts)
        for i in range(len(words) - n + 1):
            window = words[i : i + n]
            matched = sum(1 for p, w in zip(parts, window) if p == w)
            word_score = 0.5 + 0.5 * min(matched / 5, 1) if matched else 0.0
            if word_score <= threshold:
                continue
            ratio = SequenceMatcher(None, " ".join(window), keyword).ratio()
            if word_score - ratio * 0.1 > threshold:
                return True
    return False


_BLOCKLIST = re.compile(
    r"ignore (all )?(the )?(previous|prior|above) (instructions|prompts?)|disregard (all )?"
    r"(previous|prior|the above)|forget (everything|all)|you are now|system prompt|jailbreak"
    r"|dan|developer mode|act as|pretend to be|api[ _-]?key|password|<\|im_start\|>|system:",
    re.IGNORECASE,
)


def keyword_blocklist(line: str) -> bool:
    """A typical English guardrail blocklist (note the bare ``dan`` and ``api key``)."""
    return _BLOCKLIST.search(line) is not None


def ckn_sanitizer(line: str) -> bool:
    return scan_line(line) is not None


def measure(detect, records: list[dict]) -> dict:
    caught = defaultdict(lambda: [0, 0])
    flagged = benign = 0
    start = time.perf_counter()
    verdicts = [detect(r["text"]) for r in records]
    elapsed = time.perf_counter() - start
    for record, hit in zip(records, verdicts):
        if record["label"] == "attack":
            for key in ("all", "lang:" + record["language"], "family:" + record["family"]):
                caught[key][0] += hit
                caught[key][1] += 1
        else:
            benign += 1
            flagged += hit
    recall = {k: round(h / n, 4) for k, (h, n) in sorted(caught.items())}
    return {
        "recall": recall.pop("all"),
        "recall_by": recall,
        "false_positive_rate": round(flagged / benign, 4),
        "false_positives": flagged,
        "lines_per_second": round(len(records) / elapsed),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, action="append", help="repeatable")
    args = parser.parse_args(argv)
    corpora = args.corpus or [CORPUS, *sorted(p for p in CORPUS.parent.glob("injection_*.jsonl") if p != CORPUS)]
    report = {}
    for path in corpora:
        records = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
        report[path.name] = {
            name: measure(detect, records)
            for name, detect in (
                ("ckn_sanitizer", ckn_sanitizer),
                ("rebuff_heuristic", rebuff_heuristic),
                ("rebuff_heuristic_0.5", lambda line: rebuff_heuristic(line, 0.5)),
                ("keyword_blocklist", keyword_blocklist),
            )
        }
    json.dump(report, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
