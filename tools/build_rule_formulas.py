"""Write ``ckn/rule_formulas.json`` and ``ckn/rule_formulas_unicode.json``: every sanitizer
rule's literal-formula programs and starts.

Usage: python tools/build_rule_formulas.py [--check]   (~6 s)

The programs are ``ckn._rule_formula.program(required(rule.pattern))`` and the starts
``ckn._rule_formula.starts(rule.pattern)``, and for an unguarded rule whose pattern is an
alternation, each alternative's too (the sanitizer runs each alternative only where its own
literals occur, from where its matches can start); the unicode file holds
``program(required(rule.pattern, unicode=True))`` (what non-ASCII views are checked against).
Deriving them at run time would cost about a second each, so they ship. Rerun after changing a
rule (the test-suite fails while a file is stale, and until then
``ckn._rule_formula.program_for``, with ``unicode=True`` for the second file, derives the
changed rules' programs itself).
``--check`` compares with the shipped files instead of writing.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ckn._rule_formula import TABLE_PATH, UNICODE_TABLE_PATH, table, unicode_table  # noqa: E402
from ckn.sanitizer import RULES  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    patterns = {rule.name: rule.pattern for rule in RULES}
    stale = 0
    for path, data in [
        (TABLE_PATH, table(patterns, split={rule.name for rule in RULES if not rule.guard})),
        (UNICODE_TABLE_PATH, unicode_table(patterns)),
    ]:
        text = json.dumps(data, separators=(",", ":")) + "\n"
        if args.check:
            same = path.read_text(encoding="ascii") == text
            stale += not same
            print(f"{path.name}: {'up to date' if same else 'STALE: rerun this script'}")
        else:
            path.write_text(text, encoding="ascii")
            print(f"wrote {path} ({len(text):,} bytes, {len(RULES)} rules)")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
