"""Measure the line sanitizer: ``python -m ckn.sanitize_eval [--corpus PATH ...] [--json]``.

Reads one or more JSONL corpora (one record per line: ``text``, ``label`` = ``attack``/``benign``,
``family`` for attacks, ``language``, ``style``) and prints

* recall on attack lines (a line counts as caught when it is redacted, whatever family fired),
  overall and per labelled family, language and style, plus how often the firing family equals
  the labelled one;
* the false-positive rate on benign lines, overall and per language;
* throughput of :func:`ckn.sanitizer.sanitize_text` in lines per CPU second (one core; the median
  of five runs), on the corpus itself (every line a hard case) and on "typical" text: the first
  50,000 lines of the Python standard library's sources, a fixed, offline stand-in for code and
  documentation; it is also given for the pure-Python pre-filter (``ckn._linescan`` not used);
* every missed attack and every false positive.

The default corpora are every ``tests/data/injection_*.jsonl`` of a source checkout: the
project's corpus (``injection_corpus.jsonl``) and the later probe sets (``injection_probes_*``),
each reported on its own. With ``--json`` and one corpus the report is printed as is; with
several, as ``{"corpora": {file name: report}, "lines_per_second_typical": …}``.
"""

from __future__ import annotations

import argparse
import json
import sys
import sysconfig
import time
from collections import defaultdict
from pathlib import Path

from . import sanitizer as _sanitizer
from .sanitizer import FAMILIES, sanitize_text, scan_line

__all__ = ["evaluate", "main"]

DATA_DIR = Path(__file__).resolve().parent.parent / "tests" / "data"
DEFAULT_CORPUS = DATA_DIR / "injection_corpus.jsonl"


def default_corpora() -> list[Path]:
    """The project's corpus first, then the probe sets, in name order."""
    others = sorted(p for p in DATA_DIR.glob("injection_*.jsonl") if p != DEFAULT_CORPUS)
    return [DEFAULT_CORPUS, *others]
TYPICAL_LINES = 50_000


def _load(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _rate(hits: int, total: int) -> float:
    return hits / total if total else 0.0


def _typical_lines(limit: int) -> list[str]:
    """The first ``limit`` non-empty lines of the standard library's .py files, sorted by path."""
    lines: list[str] = []
    for path in sorted(Path(sysconfig.get_paths()["stdlib"]).glob("*.py")):
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.strip():
                lines.append(line)
                if len(lines) == limit:
                    return lines
    return lines


def _throughput(lines: list[str], min_seconds: float = 1.0, *, compiled: bool = True) -> float:
    """Lines per CPU second through :func:`sanitize_text`, in blocks of 50 lines (median of 5
    runs); ``compiled=False`` measures the pure-Python pre-filter instead of ``ckn._linescan``.

    CPU time of this process (``time.process_time``) is one core's time, so the figure does not
    drop when other processes share the machine.
    """
    blocks = ["\n".join(lines[i : i + 50]) for i in range(0, len(lines), 50)]
    scanner = _sanitizer._LINE_SCANNER
    if not compiled:
        _sanitizer._LINE_SCANNER = None
    try:
        times = []
        for _ in range(5):
            rounds, start = 0, time.process_time()
            while True:
                for block in blocks:
                    sanitize_text(block)
                rounds += 1
                elapsed = time.process_time() - start
                if elapsed >= min_seconds / 5:
                    break
            times.append(elapsed / rounds)
    finally:
        _sanitizer._LINE_SCANNER = scanner
    return len(lines) / sorted(times)[2]


def evaluate(records: list[dict], *, measure_speed: bool = True, typical: bool = True) -> dict:
    """Quality (and optionally speed) figures for a labelled corpus; see the module docstring."""
    groups: dict[str, dict[str, list[int]]] = {
        k: defaultdict(lambda: [0, 0]) for k in ("family", "language", "style", "benign_language")
    }
    misses, false_positives = [], []
    family_agree = caught = attacks = benign = flagged = 0
    for record in records:
        hit = scan_line(record["text"])
        if record["label"] == "attack":
            attacks += 1
            caught += hit is not None
            family_agree += hit is not None and hit.family == record["family"]
            for key in ("family", "language", "style"):
                cell = groups[key][record[key]]
                cell[0] += hit is not None
                cell[1] += 1
            if hit is None:
                misses.append(record)
        else:
            benign += 1
            flagged += hit is not None
            cell = groups["benign_language"][record["language"]]
            cell[0] += hit is not None
            cell[1] += 1
            if hit is not None:
                false_positives.append({**record, "family": hit.family, "rule": hit.rule})

    def table(key: str) -> dict:
        return {
            name: {"rate": round(_rate(*groups[key][name]), 4), "hits": h, "total": n}
            for name, (h, n) in sorted(groups[key].items())
        }

    report = {
        "attack_lines": attacks,
        "benign_lines": benign,
        "recall": round(_rate(caught, attacks), 4),
        "family_agreement": round(_rate(family_agree, caught), 4),
        "recall_by_family": {f: v for f in FAMILIES for k, v in table("family").items() if k == f},
        "recall_by_language": table("language"),
        "recall_by_style": table("style"),
        "false_positive_rate": round(_rate(flagged, benign), 4),
        "false_positive_rate_by_language": table("benign_language"),
        "misses": misses,
        "false_positives": false_positives,
    }
    if measure_speed:
        report["lines_per_second_corpus"] = round(_throughput([r["text"] for r in records]))
        if typical:
            report.update(_typical_speed())
    return report


def _typical_speed() -> dict:
    lines = _typical_lines(TYPICAL_LINES)
    speed = {"lines_per_second_typical": round(_throughput(lines))}
    if _sanitizer._LINE_SCANNER is not None:
        speed["lines_per_second_typical_python_prefilter"] = round(_throughput(lines, compiled=False))
    return speed


def _print_text(report: dict, out) -> None:
    def pct(x: float) -> str:
        return f"{100 * x:6.2f} %"

    print(f"attack lines {report['attack_lines']}, benign lines {report['benign_lines']}", file=out)
    print(f"recall overall       {pct(report['recall'])}", file=out)
    print(f"family agreement     {pct(report['family_agreement'])} (of caught lines)", file=out)
    print(f"false-positive rate  {pct(report['false_positive_rate'])}", file=out)
    if "lines_per_second_typical" in report:
        print(f"throughput typical   {report['lines_per_second_typical']:,} lines/s", file=out)
    if "lines_per_second_typical_python_prefilter" in report:
        print(
            f"  (pure-Python pre-filter {report['lines_per_second_typical_python_prefilter']:,}"
            " lines/s)",
            file=out,
        )
    if "lines_per_second_corpus" in report:
        print(f"throughput corpus    {report['lines_per_second_corpus']:,} lines/s", file=out)
    for title, key in (
        ("recall by family", "recall_by_family"),
        ("recall by language", "recall_by_language"),
        ("recall by style", "recall_by_style"),
        ("false positives by language", "false_positive_rate_by_language"),
    ):
        print(f"\n{title}", file=out)
        for name, cell in report[key].items():
            print(f"  {name:28s} {pct(cell['rate'])}  ({cell['hits']}/{cell['total']})", file=out)
    print(f"\nmisses ({len(report['misses'])})", file=out)
    for r in report["misses"]:
        print(f"  [{r['language']} {r['family']} {r['style']}] {r['text']!r}", file=out)
    print(f"\nfalse positives ({len(report['false_positives'])})", file=out)
    for r in report["false_positives"]:
        print(f"  [{r['language']} {r['family']}/{r['rule']}] {r['text']!r}", file=out)


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m ckn.sanitize_eval", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--corpus", type=Path, action="append",
        help="labelled JSONL corpus (repeatable; default: every tests/data/injection_*.jsonl)",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--no-speed", action="store_true", help="skip the throughput measurement")
    args = parser.parse_args(argv)
    corpora = args.corpus or default_corpora()
    for path in corpora:
        if not path.is_file():
            print(f"ckn.sanitize_eval: error: corpus not found: {path}", file=sys.stderr)
            return 2
    speed = not args.no_speed
    if len(corpora) == 1:
        report = evaluate(_load(corpora[0]), measure_speed=speed)
        if args.json:
            json.dump(report, sys.stdout, ensure_ascii=False, indent=2)
            print()
        else:
            _print_text(report, sys.stdout)
        return 0
    reports = {p.name: evaluate(_load(p), measure_speed=speed, typical=False) for p in corpora}
    typical = _typical_speed() if speed else {}
    if args.json:
        json.dump({"corpora": reports, **typical}, sys.stdout, ensure_ascii=False, indent=2)
        print()
        return 0
    for index, (name, report) in enumerate(reports.items()):
        print(f"{'' if index == 0 else chr(10)}=== {name}", file=sys.stdout)
        _print_text({**report, **typical}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
