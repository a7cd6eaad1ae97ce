"""The JSONL job of ``python -m ckn pack --jsonl``: many pools, in order, on worker processes if asked.

:func:`pack_lines` reads one pool per line and gives one JSON line out (the receipt with its
1-based ``line`` number, or ``{"line": n, "error": "…"}``), through
:func:`ckn.workers.ordered_map` (bounded window, input order).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

from .errors import CknError
from .jsonio import loads_strict
from .pipeline import Packer
from .workers import BATCH_SIZE, ordered_map

__all__ = ["ordered_map", "pack_lines", "BATCH_SIZE"]


class _Job:
    """A picklable ``make_state`` for :func:`pack_lines`: builds the worker's Packer."""

    def __init__(self, packer_options: dict, overrides: dict):
        self.packer_options, self.overrides = packer_options, overrides

    def __call__(self):
        return Packer(**self.packer_options), self.overrides


def _pack_line(state, numbered: tuple[int, str]) -> tuple[bool, str]:
    """One JSONL line: ``(False, receipt with "line")`` or ``(True, error record)``, as JSON."""
    (packer, overrides), (number, text) = state, numbered
    try:
        pool = loads_strict(text, f"line {number}")
        if not isinstance(pool, dict):
            raise CknError("the pool must be a JSON object")
        record = {"line": number, **packer.pack(pool, **overrides).receipt}
    except (CknError, MemoryError) as exc:
        return True, json.dumps({"line": number, "error": str(exc) or type(exc).__name__},
                                ensure_ascii=False)
    return False, json.dumps(record, ensure_ascii=False)


def pack_lines(lines: Iterable[str], *, packer_options: dict, overrides: dict,
               workers: int = 1) -> Iterator[tuple[bool, str]]:
    """``(failed, JSON result line)`` for the non-blank JSONL ``lines``, in input order.

    Blank lines are skipped but counted, so ``line`` is the 1-based line number in the file."""
    numbered = ((n, text) for n, text in enumerate(lines, 1) if text.strip())
    return ordered_map(_pack_line, _Job(packer_options, overrides), numbered, workers=workers)
