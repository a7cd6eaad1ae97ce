"""Running a function over many items in order, in a bounded window, on worker processes if asked.

:func:`ordered_map` runs a function over an iterable in batches on ``workers`` processes (or
inline for one worker), keeping at most ``window`` batches in flight, and yields the results in
input order; memory is bounded by the window, not the input. Used by
:meth:`ckn.Packer.pack_many` and :func:`ckn.batch.pack_lines`.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable, Iterable, Iterator

__all__ = ["ordered_map", "BATCH_SIZE"]

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
