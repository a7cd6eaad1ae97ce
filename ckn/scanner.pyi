"""Type stubs for the compiled ckn.scanner (one text pass: spec §4 terms as spec §7 hashes)."""

from array import array
from collections.abc import Iterable
from typing import NamedTuple

SIMD: str  # "avx512-vbmi2", "avx512", "avx2" or "portable": the ASCII kernel chosen at import

class TermHashes(NamedTuple):
    values: array[int]   # array('Q'): term hashes of every text, concatenated
    offsets: array[int]  # array('q'), n + 1 entries: text k is values[offsets[k]:offsets[k + 1]]

def scan(texts: Iterable[str], /) -> TermHashes: ...
def text_hashes(text: str, /) -> array[int]: ...
def term_counts(text: str, /) -> tuple[dict[int, int], int]: ...
