"""ckn — context knapsack.

Rank retrieved chunks (BM25 + dense cosine fused by RRF), redact prompt-injection lines, drop
MinHash near-duplicates and pick the exact 0/1-knapsack optimum under a token budget.
Importing ckn writes nothing, starts nothing and fetches nothing.
"""

from .errors import CknError, CknMemoryError, CknTypeError, CknValueError
from .terms import normalize, terms

__version__ = "0.1.0"

__all__ = [
    "CknError",
    "CknMemoryError",
    "CknTypeError",
    "CknValueError",
    "normalize",
    "terms",
    "__version__",
]
