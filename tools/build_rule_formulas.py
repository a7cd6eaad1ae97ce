"""Write ``ckn/rule_formulas.json`` and ``ckn/rule_formulas_unicode.json``: every sanitizer
rule's literal-formula programs and starts; and ``ckn/phrase_tries.json``: the prefix-trie
regex and the pre-filter words of every phrase list the rules are built from; and
``ckn/search_parts.json``: where each part an unguarded rule's search looks for can start.

Usage: python tools/build_rule_formulas.py [--check]   (~6 s)

The programs are ``ckn._rule_formula.program(required(rule.pattern))`` and the starts
``ckn._rule_formula.starts(rule.pattern)``, and for an unguarded rule whose pattern is an
alternation, each alternative's too (the sanitizer runs each alternative only where its own
literals occur, from where its matches can start); the unicode file holds
``program(required(rule.pattern, unicode=True))`` (what non-ASCII views are checked against).
The tries are ``ckn.sanitizer._trie_of`` of each phrase list ``ckn.sanitizer._alt`` was given
while the module was imported, and the words ``ckn.sanitizer._anchors_of`` of each list
``_list_anchors`` was given, by ``pattern_key`` of the list. Deriving the formulas at run
time would cost about a second each, the tries ~100 ms and the words ~25 ms of every import,
so they ship; so do the ``part_facts`` (starts and first characters) of every pattern, and of
every gate, body and body alternative of a gated one (``ckn.sanitizer._line_search``), which a
rule's first search would spend a parse of each on.
Rerun after changing a rule (the test-suite fails while a file is stale, and until then
``ckn._rule_formula.program_for``, with ``unicode=True`` for the second file, derives the
changed rules' programs itself, and ``_alt`` and ``_list_anchors`` work out the lists they do
not find).
``--check`` compares with the shipped files instead of writing.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ckn._rule_formula import (  # noqa: E402
    PARTS_PATH, TABLE_PATH, TRIES_PATH, UNICODE_TABLE_PATH, table, unicode_table, written_parts)
from ckn.sanitizer import (  # noqa: E402
    _ANCHOR_LISTS, _PHRASE_LISTS, _SEARCHED_PARTS, RULES, _anchors_of, _matcher, _trie_of)


def phrase_tables() -> dict:
    """The content of ``phrase_tries.json``."""
    return {"tries": {key: _trie_of(phrases) for key, phrases in sorted(_PHRASE_LISTS.items())},
            "anchors": {key: sorted(_anchors_of(phrases))
                        for key, phrases in sorted(_ANCHOR_LISTS.items())}}


def search_parts() -> dict:
    """The content of ``search_parts.json``: the facts of every part the unguarded rules'
    searches look for (``ckn.sanitizer._line_search``, made with each rule's matchers: for its
    ASCII twin and for other views)."""
    for index, rule in enumerate(RULES):
        if not rule.guard:
            _matcher(index, True)
            _matcher(index, False)
    return written_parts(_SEARCHED_PARTS)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    patterns = {rule.name: rule.pattern for rule in RULES}
    stale = 0
    for path, data in [
        (TABLE_PATH, table(patterns, split={rule.name for rule in RULES if not rule.guard})),
        (UNICODE_TABLE_PATH, unicode_table(patterns)),
        (TRIES_PATH, phrase_tables()),
        (PARTS_PATH, search_parts()),
    ]:
        text = json.dumps(data, separators=(",", ":")) + "\n"
        if args.check:
            same = path.read_text(encoding="ascii") == text
            stale += not same
            print(f"{path.name}: {'up to date' if same else 'STALE: rerun this script'}")
        else:
            path.write_text(text, encoding="ascii")
            print(f"wrote {path} ({len(text):,} bytes)")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
