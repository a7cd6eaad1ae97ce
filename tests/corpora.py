"""Texts the sanitizer tests share: the rules' examples, the labelled corpora and prose."""

import json
from pathlib import Path

from ckn.sanitizer import RULES

DATA = Path(__file__).parent / "data"
PROSE = Path(__file__).parent.parent / "benchmarks" / "data" / "prose_sentences.txt"


def rule_and_corpus_lines() -> list[str]:
    """Every rule's examples, every line of ``tests/data/injection_*.jsonl`` (attacks and
    benign text) and the benchmark's prose sentences."""
    lines = [example for rule in RULES for example in rule.examples]
    for path in sorted(DATA.glob("injection_*.jsonl")):
        with path.open(encoding="utf-8") as f:
            lines.extend(json.loads(line)["text"] for line in f if line.strip())
    return lines + [s for s in PROSE.read_text(encoding="utf-8").split("\n") if s.strip()]
