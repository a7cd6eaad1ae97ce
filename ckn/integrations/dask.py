"""Dask: pack many pools on a cluster (``pip install 'context-knapsack[dask]'``).

:func:`pack_bag` packs a ``dask.bag`` of pools, or JSONL files read by partition, with one
:class:`ckn.Packer` per partition (the packer is pickled into each task), and returns or writes
the results in input order. Importing this module imports ``dask``.
"""

import json
import operator
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import dask
import dask.bag as db
from dask import delayed

from ..errors import CknError, CknTypeError
from ..pipeline import Packer

__all__ = ["pack_bag"]


def pack_bag(pools: "db.Bag | str | os.PathLike | Sequence[str | os.PathLike]", *,
             output: "str | os.PathLike | None" = None, client: Any = None,
             blocksize: int | str | None = None, packer: Packer | None = None,
             count_tokens: Callable[[str], int] | None = None,
             **options: Any) -> "list[dict] | list[str]":
    """Pack every pool of ``pools`` and keep the input order.

    ``pools``: a ``dask.bag.Bag`` whose items are pool dicts (or JSON strings), or a JSONL path,
    glob or list of paths (``dask.bag.read_text``; ``blocksize`` splits files into partitions,
    None gives one per file). ``packer`` or ``count_tokens`` and ``options`` (ckn parameters)
    configure the :class:`~ckn.Packer`, validated here before any task runs; it must pickle
    (``count_tokens`` importable on the workers, or a lambda: Dask ships tasks with
    cloudpickle). ``client``: a ``distributed.Client`` to run on; None uses Dask's current
    scheduler (the default client, if one exists).

    Each result is ``{"line": n, **receipt}`` (``n``: the 1-based position in the input, across
    the files in order), or ``{"line": n, "error": "..."}`` for a line that is not JSON or a pool
    that ckn rejects; other exceptions propagate. With ``output`` None the results come back as
    a list; otherwise each partition writes ``output/part-00000.jsonl``, … (a directory the
    workers can all reach) and the list of paths is returned, in order. The results are never
    gathered on the client when writing. Work: one pack per pool, spread over the partitions.
    """
    if packer is None:
        packer = Packer(count_tokens=count_tokens, **options)
    elif not isinstance(packer, Packer) or count_tokens is not None or options:
        raise CknTypeError("give either a ckn.Packer as packer= or count_tokens and ckn "
                           "parameters, not both")
    if isinstance(pools, db.Bag):
        bag = pools
    elif isinstance(pools, (str, os.PathLike)) or (
            isinstance(pools, Sequence) and all(isinstance(p, (str, os.PathLike)) for p in pools)):
        paths = [os.fspath(pools)] if isinstance(pools, (str, os.PathLike)) else \
            [os.fspath(p) for p in pools]
        bag = db.read_text(paths, blocksize=blocksize)
    else:
        raise CknTypeError(f"pools: expected a dask.bag.Bag or JSONL paths, got {pools!r}")
    parts = bag.map_partitions(_pack_partition, packer).to_delayed()
    if output is None:
        lists = _compute(parts, client)
        return [{"line": n, **r} for n, r in enumerate((r for part in lists for r in part), 1)]
    os.makedirs(output, exist_ok=True)
    writes, offset = [], 0
    for i, part in enumerate(parts):
        path = os.path.join(os.fspath(output), f"part-{i:05d}.jsonl")
        writes.append(delayed(_write_part)(part, offset, path))
        offset = delayed(operator.add)(offset, delayed(len)(part))
    return list(_compute(writes, client))


def _compute(objs: list, client) -> Sequence:
    """The values of the delayed ``objs``, on ``client`` if given."""
    return client.compute(objs, sync=True) if client is not None else dask.compute(*objs)


def _pack_partition(items, packer: Packer) -> list[dict]:
    """Receipts (or ``{"error": ...}``) of one partition's pools, in order, by one packer."""
    out = []
    for item in items:
        try:
            pool = json.loads(item) if isinstance(item, (str, bytes)) else item
            if not isinstance(pool, Mapping):
                raise CknTypeError(f"expected a JSON object (a pool), got {type(pool).__name__}")
            out.append(packer.pack(pool).receipt)
        except (CknError, ValueError) as exc:  # json.JSONDecodeError is a ValueError
            out.append({"error": str(exc)})
    return out


def _write_part(results: list[dict], offset: int, path: str) -> str:
    """Write one partition's results as JSONL, lines numbered from ``offset + 1``; the path."""
    with open(path, "w", encoding="utf-8") as f:
        for n, result in enumerate(results, offset + 1):
            f.write(json.dumps({"line": n, **result}) + "\n")
    return path
