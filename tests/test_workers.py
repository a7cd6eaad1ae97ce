"""ckn.workers.ordered_map: input order, lazy reading, worker processes."""

import pytest

from ckn.workers import ordered_map


def _square(offset, x):
    return x * x + offset


def _offset():
    return 1


@pytest.mark.parametrize("workers", [1, 2])
def test_ordered_map_keeps_input_order_and_reads_lazily(workers):
    assert list(ordered_map(_square, _offset, range(300), workers=workers, batch_size=7)) == [
        x * x + 1 for x in range(300)]
    consumed = []

    def items():
        for i in range(10**6):
            consumed.append(i)
            yield i

    first = next(iter(ordered_map(_square, _offset, items(), workers=1)))
    assert first == 1 and len(consumed) == 1
