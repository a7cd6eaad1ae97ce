"""Write ``ckn/rule_formulas.json``: every sanitizer rule's literal-formula program and starts.

Usage: python tools/build_rule_formulas.py [--check]   (~3 s)

The programs are ``ckn._rule_formula.program(required(rule.pattern))`` and the starts
``ckn._rule_formula.starts(rule.pattern)``, and for an unguarded rule whose pattern is an
alternation, each alternative's too (the sanitizer runs each alternative only where its own
literals occur, from where its matches can start); deriving them at run time would cost about
a second, so they ship. Rerun after changing a rule (the test-suite
fails while the file is stale, and until then ``ckn._rule_formula.program_for`` derives the
changed rules' programs itself). ``--check`` compares with the shipped file instead of writing.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ckn._rule_formula import TABLE_PATH, table  # noqa: E402
from ckn.sanitizer import RULES  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    text = json.dumps(table({rule.name: rule.pattern for rule in RULES},
                            split={rule.name for rule in RULES if not rule.guard}),
                      separators=(",", ":")) + "\n"
    if args.check:
        same = TABLE_PATH.read_text(encoding="ascii") == text
        print(f"{TABLE_PATH.name}: {'up to date' if same else 'STALE: rerun this script'}")
        return 0 if same else 1
    TABLE_PATH.write_text(text, encoding="ascii")
    print(f"wrote {TABLE_PATH} ({len(text):,} bytes, {len(RULES)} rules)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
