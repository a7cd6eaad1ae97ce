"""Token counting: named BPE encodings, tiktoken-style encodings or any ``str -> int`` callable.

``resolve_tokenizer(spec)`` turns what a user has into a :class:`TokenCounter`:

- ``"cl100k_base"`` or ``"o200k_base"``: OpenAI's encodings, counted offline by the optional
  package ``bpe-openai`` (``pip install 'context-knapsack[tokens]'``; the same token ids as ``tiktoken``),
  or by ``tiktoken`` when only that is installed (it downloads the encoding on first use);
- an object with ``encode_ordinary`` or ``encode`` (a ``tiktoken.Encoding``, a ``bpe_openai``
  encoding, a Hugging Face tokenizer): the length of its encoding of the text;
- a callable ``str -> int``.

Counts are cached per text (keyed by a BLAKE2b digest of the UTF-8 text, so the cache holds no
text), up to :data:`CACHE_SIZE` entries; special-token strings inside a text are counted as
ordinary text, as a model reading the text would see them.
"""

from __future__ import annotations

import hashlib
import importlib
import warnings
from collections import OrderedDict
from collections.abc import Callable, Iterable

from .errors import CknTypeError, CknValueError

__all__ = ["ENCODINGS", "CACHE_SIZE", "TokenCounter", "resolve_tokenizer"]

ENCODINGS = ("cl100k_base", "o200k_base")
CACHE_SIZE = 1 << 16  # entries (~100 bytes each)


class TokenCounter:
    """A cached ``str -> int`` token counter; ``name`` says what counts (for receipts).

    >>> counter = TokenCounter(lambda text: len(text.split()), name="words")
    >>> counter("three small words"), counter.count_many(["a b", ""])
    (3, [2, 0])
    """

    __slots__ = ("name", "_count", "_cache")

    def __init__(self, count: Callable[[str], int], *, name: str = "callable"):
        self.name = name
        self._count = count
        self._cache: OrderedDict[bytes, int] = OrderedDict()

    def __repr__(self) -> str:
        return f"TokenCounter(name={self.name!r})"

    def __reduce__(self):  # the cache is not pickled
        return (TokenCounter, (self._count,), {"name": self.name})

    def __setstate__(self, state):
        self.name = state["name"]

    def __call__(self, text: str) -> int:
        key = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
        cache = self._cache
        n = cache.get(key)
        if n is None:
            n = self._count(text)
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise CknValueError(
                    f"count_tokens ({self.name}): expected a non-negative integer, got {n!r}")
            cache[key] = n
            if len(cache) > CACHE_SIZE:
                cache.popitem(last=False)
        return n

    def count_many(self, texts: Iterable[str]) -> list[int]:
        """Counts of ``texts`` in order (each distinct text counted once)."""
        return [self(text) for text in texts]


def _named_encoding(name: str):
    """The encoding ``name`` from bpe-openai (offline) or tiktoken; CknValueError if neither."""
    for module_name in ("bpe_openai", "tiktoken"):
        try:
            with warnings.catch_warnings():  # bpe-openai 0.1 reads its data by a deprecated API
                warnings.simplefilter("ignore", DeprecationWarning)
                module = importlib.import_module(module_name)
        except ImportError:
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                return module.get_encoding(name)
        except Exception as exc:  # noqa: BLE001 - e.g. tiktoken offline: report, try the next
            last = f"{module_name} could not load {name!r}: {exc}"
            continue
    else:
        last = "neither bpe-openai nor tiktoken is installed"
    raise CknValueError(f"tokenizer {name!r}: {last}; install the optional counter with "
                        f"pip install 'context-knapsack[tokens]' (bpe-openai, offline)")


class _Encoded:
    """``len(encoding.encode_ordinary(text))`` (or ``encode``), picklable by name when named."""

    __slots__ = ("encode",)

    def __init__(self, encoding):
        encode = getattr(encoding, "encode_ordinary", None)
        if encode is None:
            encode = encoding.encode
        self.encode = encode

    def __call__(self, text: str) -> int:
        return len(self.encode(text))


def resolve_tokenizer(spec) -> TokenCounter | None:
    """A :class:`TokenCounter` for ``spec`` (see the module docstring); None for None."""
    if spec is None or isinstance(spec, TokenCounter):
        return spec
    if isinstance(spec, str):
        if spec not in ENCODINGS:
            raise CknValueError(f"tokenizer: unknown encoding {spec!r}; expected one of "
                                f"{', '.join(ENCODINGS)}, an encoding object or a callable")
        return TokenCounter(_Named(spec, _Encoded(_named_encoding(spec))), name=spec)
    if hasattr(spec, "encode_ordinary") or hasattr(spec, "encode"):
        return TokenCounter(_Encoded(spec), name=str(getattr(spec, "name", type(spec).__name__)))
    if callable(spec):
        return TokenCounter(spec, name=getattr(spec, "__qualname__", type(spec).__name__))
    raise CknTypeError(f"tokenizer: expected an encoding name ({', '.join(ENCODINGS)}), an "
                       f"object with encode(), or a callable str -> int, got {spec!r}")


class _Named:
    """A named encoding's counter; pickles as its name (workers load the encoding again)."""

    __slots__ = ("name", "count")

    def __init__(self, name: str, count: Callable[[str], int]):
        self.name, self.count = name, count

    def __call__(self, text: str) -> int:
        return self.count(text)

    def __reduce__(self):
        return (_load_named, (self.name,))


def _load_named(name: str) -> _Named:
    return resolve_tokenizer(name)._count
