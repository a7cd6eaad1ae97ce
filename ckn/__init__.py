"""ckn — context knapsack.

Rank retrieved chunks (BM25 + dense cosine fused by RRF), redact prompt-injection lines, drop
MinHash near-duplicates and pick the exact 0/1-knapsack optimum under a token budget.
Importing ckn writes nothing, starts nothing and fetches nothing. "spec §n" in the docstrings
refers to section n of the behaviour contract, docs/spec.md.

>>> import ckn
>>> ckn.pack(ckn.example_pool()).receipt["selected_ids"]
['chunk.alarm-retry-spec', 'chunk.injected-note']
"""

import json
from importlib import resources

from ._version import __version__
from .errors import CknError, CknMemoryError, CknTypeError, CknValueError, InputError, InputTypeError
from .params import Params
from .pipeline import Chunk, Packer, PackResult, RankResult, SanitizeResult, pack, rank, sanitize
from .receipt import receipt_schema
from .terms import normalize, terms

__all__ = [
    "Chunk",
    "CknError",
    "CknMemoryError",
    "CknTypeError",
    "CknValueError",
    "InputError",
    "InputTypeError",
    "PackResult",
    "Packer",
    "Params",
    "RankResult",
    "SanitizeResult",
    "example_pool",
    "normalize",
    "pack",
    "rank",
    "receipt_schema",
    "sanitize",
    "terms",
    "__version__",
]


def example_pool() -> dict:
    """The bundled synthetic 5-chunk worked example pool (spec §11), a fresh dict."""
    return json.loads(resources.files("ckn").joinpath("worked_example.json").read_text("utf-8"))
