"""The candidate pool (spec §3): validation of the JSON-shaped input into immutable records.

Every violation raises :class:`~ckn.errors.InputError` or :class:`~ckn.errors.InputTypeError`
naming the JSON path (``candidates[3].tokens``) and the rule.
"""

import math
from array import array
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .errors import InputError, InputTypeError
from .params import PARAMETER_NAMES, Params, closest_name, integer_value

from . import _columns  # compiled one-pass paths for candidate dicts, float lists and buffers

__all__ = ["Candidate", "Pool", "parse_pool", "check_overrides", "complete_candidates",
           "candidate_metadata"]

_STRUCTURE = ("query", "query_embedding", "candidates", "embeddings")


@dataclass(frozen=True)
class Candidate:
    """One retrieved chunk: ``tokens`` is the caller's token count of ``text``."""

    id: str
    tokens: int
    text: str
    embedding: array | None  # array('d'), or None when absent


@dataclass(frozen=True)
class Pool:
    """A validated pool: the query, its optional embedding, the candidates and the parameters."""

    query: str
    query_embedding: array | None
    candidates: tuple[Candidate, ...]
    params: Params


def _json_type(x) -> str:
    if x is None:
        return "null"
    if isinstance(x, bool):
        return "a boolean"
    if isinstance(x, str):
        return "a string"
    if isinstance(x, Mapping):
        return "an object"
    if isinstance(x, (int, float)):
        return repr(x)
    if isinstance(x, (list, tuple)):
        return "an array"
    return type(x).__name__


def _vector(path: str, x) -> array:
    """``x`` as array('d') of finite numbers (lists, tuples, array.array, numpy arrays)."""
    if _columns is not None:  # tests set it to None to run the checks below on every input
        out = _columns.float64_array(x)  # one compiled pass; None: take the checks below
        if out is not None:
            return out
    if isinstance(x, (str, bytes, bytearray, Mapping)) or not hasattr(x, "__len__"):
        raise InputTypeError(path, f"expected an array of numbers, got {_json_type(x)}")
    try:
        ndim = memoryview(x).ndim
    except TypeError:  # not a buffer
        ndim = 1
    except (ValueError, BufferError) as exc:  # e.g. a released memoryview
        raise InputTypeError(path, f"expected an array of numbers, got an unreadable buffer ({exc})") from None
    if ndim != 1:
        raise InputTypeError(path, f"expected a 1-D array of numbers, got a {ndim}-D buffer")
    if isinstance(x, (list, tuple)) and bool in set(map(type, x)):  # JSON booleans are not numbers
        i = next(i for i, e in enumerate(x) if isinstance(e, bool))
        raise InputTypeError(f"{path}[{i}]", f"expected a number, got {_json_type(x[i])}")
    try:
        out = array("d", x)
    except (TypeError, ValueError):
        i = next((i for i, e in enumerate(x) if not isinstance(e, (int, float))), 0)
        raise InputTypeError(f"{path}[{i}]", f"expected a number, got {_json_type(x[i])}") from None
    except OverflowError:
        raise InputError(path, "a number is too large for a double") from None
    if not out:
        raise InputError(path, "expected a non-empty array of numbers")
    if not math.isfinite(sum(out)):  # NaN and infinity propagate; a finite overflow is no error
        bad = next((i for i, e in enumerate(out) if not math.isfinite(e)), None)
        if bad is not None:
            raise InputError(f"{path}[{bad}]", f"expected a finite number, got {out[bad]!r}")
    return out


def check_overrides(overrides: Mapping) -> None:
    """Keyword overrides must be parameters or pool fields: a misspelling is an error."""
    for key in overrides:
        if key not in PARAMETER_NAMES and key not in _STRUCTURE:
            hint = closest_name(key, PARAMETER_NAMES + _STRUCTURE, limit=3)
            rule = f"unknown parameter; did you mean {hint!r}?" if hint else "unknown parameter"
            raise InputTypeError(key, rule)


def _check_top_level_keys(data: Mapping) -> None:
    """Unknown top-level keys are ignored unless they look like a misspelt parameter."""
    for key in data:
        if not isinstance(key, str):
            raise InputTypeError("", f"object keys must be strings, got {key!r}")
        if key in PARAMETER_NAMES or key in _STRUCTURE or len(key) > _HINTED_LENGTH:
            continue
        hint = _key_hint(key)
        if hint is not None:
            raise InputError(key, f"unknown key; did you mean {hint!r}?")


# Keys longer than this are more than closest_name's limit (2) away from every name
_HINTED_LENGTH = max(map(len, PARAMETER_NAMES + _STRUCTURE)) + 2


@lru_cache(maxsize=256)
def _key_hint(key: str) -> str | None:
    """``closest_name`` of an unknown top-level key; a service's pools carry the same few keys
    of their own (``"request_id"``) on every call, so their answers are kept."""
    return closest_name(key, PARAMETER_NAMES + _STRUCTURE)


def _candidate(i: int, c, has_query_embedding: bool, dim: int) -> Candidate:
    path = f"candidates[{i}]"
    if not isinstance(c, Mapping):
        raise InputTypeError(path, f"expected an object, got {_json_type(c)}")
    for key in ("id", "tokens", "text"):
        if key not in c:
            raise InputError(f"{path}.{key}", "required field is missing")
    cid, tokens, text = c["id"], c["tokens"], c["text"]
    if not isinstance(cid, str):
        raise InputTypeError(f"{path}.id", f"expected a non-empty string, got {_json_type(cid)}")
    if not cid:
        raise InputError(f"{path}.id", "expected a non-empty string, got an empty string")
    count = integer_value(tokens)  # an int, or an integer scalar such as numpy.int64
    if count is None:
        raise InputTypeError(f"{path}.tokens", f"expected a non-negative integer, got {_json_type(tokens)}")
    if count < 0:
        raise InputError(f"{path}.tokens", f"expected a non-negative integer, got {count}")
    tokens = count
    if not isinstance(text, str):
        raise InputTypeError(f"{path}.text", f"expected a string, got {_json_type(text)}")
    embedding = c.get("embedding")
    if embedding is not None:
        embedding = _vector(f"{path}.embedding", embedding)
        if has_query_embedding and len(embedding) != dim:
            raise InputError(f"{path}.embedding",
                             f"expected {dim} numbers (the length of query_embedding), got {len(embedding)}")
        if not has_query_embedding:
            embedding = None
    return Candidate(cid, tokens, text, embedding)


class _Columns:
    """A validated pool as columns (the pipeline's internal form; :func:`parse_pool` builds
    the public :class:`Pool` from it): ``embeddings`` holds one ``array('d')`` or ``None`` per
    candidate (``None`` for every candidate when the pool has no query embedding), or is
    ``None`` when ``dense`` holds the cosine scores already (``_parse_columns(score=...)``);
    else ``dense`` is ``None``."""

    __slots__ = ("query", "query_embedding", "ids", "tokens", "texts", "embeddings", "dense",
                 "params", "metadata")


def _parse_columns(data: Mapping, overrides: Mapping | None = None, *,
                   base: Params | None = None, score: Callable | None = None,
                   budget: bool = True) -> _Columns:
    """:func:`parse_pool`'s validation, same checks in the same order, into :class:`_Columns`.

    With ``score`` (``ckn.similarity.score_fallback``: query embedding -> the Python scorer of
    one row), the compiled pass may also score the embeddings against the query (the values of
    ``ckn.similarity.cosine_scores``) straight from the input, without making the
    per-candidate arrays: then ``dense`` holds the scores and ``embeddings`` is ``None``.
    ``budget=False`` accepts a pool without ``token_budget`` (ranking needs none)."""
    if not isinstance(data, Mapping):
        raise InputTypeError("", f"the pool must be a JSON object, got {_json_type(data)}")
    _check_top_level_keys(data)
    if overrides:
        check_overrides(overrides)
        data = {**data, **overrides}
    params = Params.from_mapping(data, base=base)
    if budget and params.token_budget is None:
        raise InputError("token_budget", "required field is missing")
    if "query" not in data:
        raise InputError("query", "required field is missing")
    query = data["query"]
    if not isinstance(query, str):
        raise InputTypeError("query", f"expected a string, got {_json_type(query)}")
    query_embedding = data.get("query_embedding")
    if query_embedding is not None:
        query_embedding = _vector("query_embedding", query_embedding)
    if "candidates" not in data:
        raise InputError("candidates", "required field is missing")
    raw = data["candidates"]
    if isinstance(raw, (str, bytes, Mapping)) or not isinstance(raw, Sequence):
        raise InputTypeError("candidates", f"expected an array of objects, got {_json_type(raw)}")
    has_qe = query_embedding is not None
    dim = len(query_embedding) if has_qe else 0
    out = _Columns()
    out.query, out.query_embedding, out.params = query, query_embedding, params
    # The compiled pass takes the common case (JSON-shaped dicts, float lists) whole; any
    # other input goes through the checks below, which accept it or raise the exact error.
    out.dense = None
    if _columns is not None and score is not None and has_qe:
        fast = _columns.candidate_columns(raw, dim, query_embedding, score(query_embedding))
        if fast is not None:
            out.ids, out.tokens, out.texts, out.dense = fast
            out.embeddings = None
            return out
    fast = _columns.candidate_columns(raw, dim) if _columns is not None else None
    if fast is not None:
        out.ids, out.tokens, out.texts, out.embeddings = fast
        return out
    candidates = tuple(_candidate(i, c, has_qe, dim) for i, c in enumerate(raw))
    seen: dict[str, int] = {}
    for i, c in enumerate(candidates):
        if c.id in seen:
            raise InputError(f"candidates[{i}].id", f"duplicate id {c.id!r} (also candidates[{seen[c.id]}])")
        seen[c.id] = i
    out.ids = [c.id for c in candidates]
    out.tokens = [c.tokens for c in candidates]
    out.texts = [c.text for c in candidates]
    out.embeddings = [c.embedding for c in candidates]
    return out


def _new_candidate(cid: str, tokens: int, text: str, embedding: array | None) -> Candidate:
    """``Candidate(cid, tokens, text, embedding)`` without the frozen ``__init__``'s
    ``object.__setattr__`` per field (same instance state, same field order)."""
    new = object.__new__(Candidate)
    new.__dict__.update(id=cid, tokens=tokens, text=text, embedding=embedding)
    return new


def parse_pool(data: Mapping, overrides: Mapping | None = None, *, base: Params | None = None) -> Pool:
    """Validate ``data`` (a pool object) updated by ``overrides``; O(total input size).

    ``base`` supplies parameter values (e.g. a Packer's) that the pool file and then the
    overrides may change. ``token_budget`` must end up set.
    """
    cols = _parse_columns(data, overrides, base=base)
    candidates = tuple(map(_new_candidate, cols.ids, cols.tokens, cols.texts, cols.embeddings))
    return Pool(cols.query, cols.query_embedding, candidates, cols.params)


def _matrix_rows(matrix, n: int) -> list:
    """The ``n`` rows of a C-contiguous 2-D buffer of float32 or float64 as 1-D memoryviews."""
    try:
        view = memoryview(matrix)
    except TypeError:
        raise InputTypeError("embeddings", "expected a 2-D float32 or float64 buffer (a numpy "
                                           f"array), got {_json_type(matrix)}") from None
    if view.ndim != 2 or view.format not in ("f", "d") or not view.c_contiguous:
        raise InputTypeError("embeddings", f"expected a C-contiguous 2-D float32 or float64 "
                                           f"buffer, got ndim={view.ndim} format={view.format!r}")
    rows, dim = view.shape
    if rows != n:
        raise InputError("embeddings", f"expected {n} rows (one per candidate), got {rows}")
    flat, width = view.cast("B"), dim * view.itemsize
    return [flat[k * width:(k + 1) * width].cast(view.format) for k in range(rows)]


def complete_candidates(pool, fields: Mapping, count=None) -> tuple:
    """``pool`` and ``fields`` with what the candidates may leave out filled in: ``tokens``
    counted by ``count`` (a :class:`~ckn.tokenizer.TokenCounter`) from ``text``, and
    ``embedding`` rows taken from a top-level ``embeddings`` matrix (row k belongs to
    candidate k; a candidate's own ``embedding`` is an error then). Anything malformed is left
    for validation to report. O(number of candidates) plus the counting."""
    merged = {**pool, **fields} if isinstance(pool, Mapping) else fields
    raw = merged.get("candidates")
    matrix = merged.get("embeddings")
    if not isinstance(raw, (list, tuple)) or (matrix is None and (count is None or all(
            not isinstance(c, Mapping) or "tokens" in c for c in raw))):
        return pool, fields
    rows = None if matrix is None else _matrix_rows(matrix, len(raw))
    completed = []
    for k, c in enumerate(raw):
        if isinstance(c, Mapping):
            extra = {}
            if count is not None and "tokens" not in c and isinstance(c.get("text"), str):
                extra["tokens"] = count(c["text"])
            if rows is not None:
                if "embedding" in c:
                    raise InputError(f"candidates[{k}].embedding",
                                     "given twice: the pool's embeddings matrix has this row")
                extra["embedding"] = rows[k]
            c = {**c, **extra} if extra else c
        completed.append(c)
    return pool, {**fields, "candidates": completed}


def candidate_metadata(raw) -> list | None:
    """Each candidate's ``metadata`` object (or None) in input order; None when no candidate
    has one. Carried through unchanged, never read. ``raw``: the validated candidates."""
    found = [c.get("metadata") for c in raw]
    for k, m in enumerate(found):
        if m is not None and not isinstance(m, Mapping):
            raise InputTypeError(f"candidates[{k}].metadata", f"expected an object, got {_json_type(m)}")
    return found if any(m is not None for m in found) else None
