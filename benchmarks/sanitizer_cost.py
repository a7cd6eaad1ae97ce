"""What the sanitizer costs per kind of text, benign and hostile: a pool of retrieved chunks is
untrusted, so its cost must stay linear in its length whatever it holds.

Usage: python benchmarks/sanitizer_cost.py [--rounds 5] [--json FILE]
       python benchmarks/sanitizer_cost.py --instructions [--calls 2] [FAMILY ...]

Each family is 500 chunks of about 1,200 characters (fixed seeds), passed to
``ckn.sanitizer.sanitize_texts`` as ``ckn.pack`` does, after one untimed call (the rules' regexes
are compiled on first use). Prints, per family, the median time, the throughput (MB/s of UTF-8)
and how many chunks the sanitizer changed. Benign: random words, English prose, the standard
library's source code and docstrings, JSON records, Spanish/German/French/Russian/Chinese/
Japanese corpus lines. Hostile (what an attacker who controls retrieved text can send): anchor
words (ignore, previous, system, prompt ...) with and without sentence ends, spaced-out letters,
in-word punctuation, chat-template markers, quoted anchor words, leetspeak, zero-width
characters inside words, Cyrillic homoglyphs, one anchor word per line, and URLs with anchor
words in their paths.

``--instructions`` prints instead valgrind's instructions per ``sanitize_texts`` call for the
families whose names contain one of the FAMILY words (all without any): a figure the machine's
load does not move (``pack_instructions.py``'s way: a child process run twice, with one
untimed call and with ``--calls`` more; needs valgrind, ~1-2 minutes per family).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
try:
    import ckn  # noqa: F401
except ImportError:  # run from a checkout: benchmark the in-place build
    sys.path.insert(0, str(HERE.parent))

from bench_pack import docstring_chunks, make_pool, multilingual_chunks, write_rows  # noqa: E402
from ckn.sanitizer import sanitize_texts  # noqa: E402
from pack_instructions import valgrind_instructions  # noqa: E402

ANCHORS = ("ignore previous prior instructions system prompt key secret reveal user assistant "
           "rules override forget disregard admin developer mode jailbreak password token api "
           "above earlier").split()
CHUNKS, CHARS = 500, 1200


def _chunks(word, rnd: random.Random) -> list[str]:
    """CHUNKS texts of about CHARS characters, each the words ``word(rnd)`` joined by spaces."""
    out = []
    for _ in range(CHUNKS):
        words, size = [], 0
        while size < CHARS:
            words.append(word(rnd))
            size += len(words[-1]) + 1
        out.append(" ".join(words))
    return out


def _stdlib_code(rnd: random.Random) -> list[str]:
    """CHUNKS slices of CHARS characters of the standard library's own modules."""
    lib = Path(json.__file__).resolve().parent.parent
    source = "".join(p.read_text("utf-8", "replace") for p in sorted(lib.glob("*.py"))[:80])
    return [source[k:k + CHARS] for k in (rnd.randrange(len(source) - CHARS)
                                          for _ in range(CHUNKS))]


def families() -> dict[str, list[str]]:
    rnd = random.Random(2026)
    vocab = ["".join(rnd.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rnd.randrange(2, 10)))
             for _ in range(5000)]
    soup = ANCHORS + vocab[:30]
    prose = [c["text"] for c in make_pool(7, n=CHUNKS, dim=1, prose=True)["candidates"]]
    code = _stdlib_code(rnd)
    records = [json.dumps({"id": i, "url": f"https://docs.example.org/guide/{i}",
                           "title": "Configure the system prompt key", "tags": ["user", "admin"],
                           "body": code[i][:800]}) for i in range(CHUNKS)]
    return {
        "benign: random words": _chunks(lambda r: r.choice(vocab) + ("." if r.random() < 0.08
                                                                    else ""), rnd),
        "benign: English prose": prose,
        "benign: stdlib docstrings": docstring_chunks(),
        "benign: stdlib code": code,
        "benign: JSON records": records,
        "benign: es/de/fr/ru/zh/ja lines": multilingual_chunks(7),
        "hostile: anchor words": _chunks(lambda r: r.choice(soup) + ("." if r.random() < 0.08
                                                                    else ""), rnd),
        "hostile: anchor words, no sentence end": _chunks(lambda r: r.choice(soup), rnd),
        "hostile: spaced-out letters": _chunks(lambda r: " ".join(r.choice(vocab)), rnd),
        "hostile: in-word punctuation": _chunks(lambda r: ".".join(r.choice(ANCHORS)), rnd),
        "hostile: chat-template markers": _chunks(lambda r: r.choice(
            ["<|im_start|>", "[INST]", "<<SYS>>", "</s>", "###", r.choice(vocab)]), rnd),
        "hostile: quoted anchor words": _chunks(lambda r: f'"{r.choice(ANCHORS)}"', rnd),
        "hostile: leetspeak": _chunks(lambda r: r.choice(ANCHORS).translate(
            str.maketrans("eoi", "301")), rnd),
        "hostile: zero-width characters": _chunks(lambda r: "\u200b".join(r.choice(ANCHORS)), rnd),
        "hostile: Cyrillic homoglyphs": _chunks(lambda r: r.choice(ANCHORS).translate(
            str.maketrans("oaepc", "\u043e\u0430\u0435\u0440\u0441")), rnd),
        "hostile: one anchor word per line": ["\n".join(rnd.choice(ANCHORS) for _ in range(150))
                                              for _ in range(CHUNKS)],
        "hostile: URLs with anchor words": _chunks(lambda r: f"https://example.com/"
                                                   f"{r.choice(ANCHORS)}/{r.choice(vocab)}"
                                                   f"?key={r.choice(vocab)}", rnd),
    }


def run(rounds: int = 5) -> list[dict]:
    """Rows with keys ``family``, ``mb`` (UTF-8 megabytes), ``median_ms``, ``mb_per_s`` and
    ``changed`` (chunks the sanitizer changed or redacted)."""
    rows = []
    for family, texts in families().items():
        changed = len(sanitize_texts(texts))  # compiles what this family needs
        times = []
        for _ in range(rounds):
            start = time.perf_counter()
            sanitize_texts(texts)
            times.append(time.perf_counter() - start)
        mb = sum(len(t.encode("utf-8", "surrogatepass")) for t in texts) / 1e6
        median = statistics.median(times)
        rows.append({"family": family, "mb": round(mb, 3), "median_ms": median * 1e3,
                     "mb_per_s": mb / median, "changed": changed})
    return rows


_CHILD = r"""
import json, sys
sys.path.insert(0, {root!r})
from ckn.sanitizer import sanitize_texts
with open({path!r}, encoding="utf-8") as fh:
    texts = json.load(fh)
for _ in range(1 + {calls}):
    sanitize_texts(texts)
"""


def instructions(texts: list[str], calls: int) -> float:
    """valgrind's instructions per ``sanitize_texts(texts)`` call: a child's count with
    ``calls`` calls after the untimed one, less its count without them, over ``calls``."""
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "texts.json")
        Path(path).write_text(json.dumps(texts), encoding="utf-8")
        counts = [valgrind_instructions(_CHILD.format(root=str(HERE.parent), path=path, calls=n))
                  for n in (calls, 0)]
    return (counts[0] - counts[1]) / calls


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", help="write the rows here")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions per call under valgrind instead of timing")
    parser.add_argument("--calls", type=int, default=2, help="calls counted (--instructions)")
    parser.add_argument("family", nargs="*", help="words of the family names (--instructions)")
    args = parser.parse_args(argv)
    if args.instructions:
        if shutil.which("valgrind") is None:
            print("valgrind is not installed (Debian: apt install valgrind)", file=sys.stderr)
            return 2
        if args.calls < 1:
            parser.error("--calls must be at least 1")
        for family, texts in families().items():
            if not args.family or any(word in family for word in args.family):
                print(f"{family:42s} {instructions(texts, args.calls) / 1e6:10.1f} M "
                      "instructions per call", flush=True)
        return 0
    if args.family:
        parser.error("FAMILY words go with --instructions")
    rows = run(args.rounds)
    print(f"{'family':42s} {'MB':>6s} {'median ms':>10s} {'MB/s':>8s} {'changed':>8s}")
    for row in rows:
        print(f"{row['family']:42s} {row['mb']:6.2f} {row['median_ms']:10.1f} "
              f"{row['mb_per_s']:8.2f} {row['changed']:8d}")
    if args.json:
        write_rows(args.json, rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
