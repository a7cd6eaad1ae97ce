from collections.abc import Iterable
from typing import NamedTuple, SupportsIndex

BRANCH_NODES: int
DEFAULT_MAX_MEMORY: int

class KnapsackResult(NamedTuple):
    indices: tuple[int, ...]
    total_value: int
    total_weight: int

def solve(
    weights: Iterable[SupportsIndex],
    values: Iterable[SupportsIndex],
    budget: SupportsIndex,
    /,
    *,
    max_memory: int = ...,
) -> KnapsackResult: ...
