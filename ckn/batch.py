"""Packing many pools: in order, in a bounded window, on worker processes if asked.

:func:`ordered_map` runs a function over an iterable in batches on ``workers`` processes (or
inline for one worker), keeping at most ``window`` batches in flight, and yields the results in
input order; memory is bounded by the window, not the input. :func:`pack_lines` is the JSONL
job of ``python -m ckn pack --jsonl``: one pool per line in, one JSON line out (the receipt with
its 1-based ``line`` number, or ``{"line": n, "error": "…"}``).
"""

from __future__ import annotations

import itertools
import json
from collections import deque
from collections.abc import Callable, Iterable, Iterator

from .errors import CknError
from .jsonio import loads_strict

__all__ = ["ordered_map", "pack_lines", "BATCH_SIZE"]

BATCH_SIZE = 64  # items per task sent to a worker: amortises the inter-process round trip

_worker_state: dict = {}


def _init_worker(make_state: Callable[[], object]) -> None:
    _worker_state["state"] = make_state()


def _run_batch(function: Callable, batch: list) -> list:
    state = _worker_state["state"]
    return [function(state, item) for item in batch]


def ordered_map(function: Callable, make_state: Callable[[], object], items: Iterable, *,
                workers: int = 1, batch_size: int = BATCH_SIZE,
                window: int | None = None) -> Iterator:
    """``function(state, item)`` for each item, in input order, with ``state = make_state()``
    built once per worker process (once in all with ``workers=1``, in this process).

    ``function`` and ``make_state`` must be picklable (module-level) for ``workers > 1``. At
    most ``window`` batches (default ``4 · workers``) are in flight, so the input is read
    lazily. A worker's exception propagates when its result is reached."""
    if workers <= 1:
        state = make_state()
        yield from (function(state, item) for item in items)
        return
    from concurrent.futures import ProcessPoolExecutor  # (not at import: it loads socket)

    window = window or 4 * workers
    batches = iter(lambda it=iter(items): list(itertools.islice(it, batch_size)), [])
    with ProcessPoolExecutor(workers, initializer=_init_worker, initargs=(make_state,)) as pool:
        pending: deque = deque()
        for batch in batches:
            pending.append(pool.submit(_run_batch, function, batch))
            if len(pending) >= window:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()


class _Job:
    """A picklable ``make_state`` for :func:`pack_lines`: builds the worker's Packer."""

    def __init__(self, packer_options: dict, overrides: dict):
        self.packer_options, self.overrides = packer_options, overrides

    def __call__(self):
        from .pipeline import Packer  # (a worker imports the pipeline once)
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
