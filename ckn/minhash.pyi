"""Type stubs for the compiled ckn.minhash (spec §7 MinHash). See docs/algorithms.md."""

from array import array
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, NamedTuple, SupportsIndex

from typing_extensions import Buffer

PRIME: int  # p = 2**31 - 1
SEED: int  # 0x5EED
SIMD: str  # "avx512", "avx2" or "portable": the widest signature kernel chosen at import
SIGNATURE_KERNEL: str  # "avx512-fixed", "avx512-fold", "avx2" or "portable" (see docs/algorithms.md)

_Ints = Buffer | Iterable[int]

class DroppedChunk(NamedTuple):
    index: int
    duplicate_of: int
    estimate: float
    exact_jaccard: float | None

class DedupResult(NamedTuple):
    kept: tuple[int, ...]
    dropped: tuple[DroppedChunk, ...]
    max_similarity: tuple[float, ...]

class SignatureMatrix:
    def __init__(self, data: array[int], rows: int, cols: int, /) -> None: ...
    def __buffer__(self, flags: int, /) -> memoryview: ...
    @property
    def shape(self) -> tuple[int, int]: ...
    def __len__(self) -> int: ...
    def __getitem__(self, index: SupportsIndex, /) -> memoryview: ...
    def __iter__(self) -> Iterator[memoryview]: ...
    def tolist(self) -> list[list[int]]: ...
    def __eq__(self, other: object, /) -> bool: ...

class MinHasher:
    @property
    def permutations(self) -> int: ...
    def __init__(self, permutations: SupportsIndex = 64) -> None: ...
    @property
    def a(self) -> array[int]: ...
    @property
    def b(self) -> array[int]: ...
    def signature(self, shingles: _Ints, /) -> array[int]: ...
    def signatures(
        self, shingle_sets: Iterable[_Ints], /, *, threads: SupportsIndex = 1
    ) -> SignatureMatrix: ...
    def signatures_flat(
        self, values: _Ints, offsets: _Ints, /, *, threads: SupportsIndex = 1
    ) -> SignatureMatrix: ...
    def term_hash_signatures(
        self,
        values: _Ints,
        offsets: _Ints,
        /,
        shingle_size: SupportsIndex = 3,
        *,
        threads: SupportsIndex = 1,
        rows: _Ints | None = None,
    ) -> SignatureMatrix: ...
    def text_signatures(
        self,
        texts: Iterable[str],
        /,
        shingle_size: SupportsIndex = 3,
        *,
        threads: SupportsIndex = 1,
    ) -> SignatureMatrix: ...
    def text_signature(self, text: str, /, shingle_size: SupportsIndex = 3) -> array[int]: ...

def fnv1a64(term: str, /) -> int: ...
def term_hashes(terms: Iterable[str], /) -> array[int]: ...
def shingle_hashes(term_hashes: _Ints, /, shingle_size: SupportsIndex = 3) -> array[int]: ...
def text_shingles(text: str, /, shingle_size: SupportsIndex = 3) -> array[int]: ...
def similarity(sig1: _Ints, sig2: _Ints, /) -> float: ...
def jaccard(set1: _Ints, set2: _Ints, /) -> float: ...
def dedup(
    signatures: Buffer | Sequence[_Ints],
    /,
    threshold: float,
    *,
    exact_sets: Sequence[_Ints] | None = None,
) -> DedupResult: ...
