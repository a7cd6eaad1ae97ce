"""The whole flow (SPEC §1): rank → sanitize + dedup → pack, as functions and a reusable Packer.

Each stage extends the previous one's per-chunk records (:class:`Chunk`, in fused order):
:func:`rank` fills the scores and ranks, :func:`sanitize` the redactions and dedup decisions,
:func:`pack` the overlap, utilities, knapsack values and the final status.
"""

import math
from array import array
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass
from dataclasses import fields as dataclass_fields
from types import MappingProxyType

from .bm25 import bm25_scores_hashed
from .context import render_context
from .errors import CknValueError, InputError, InputTypeError
from .fusion import DEFAULT_RRF_WEIGHTS, fused_order_unchecked, rank_positions, rrf_unchecked
from .knapsack import solve
from .minhash import MinHasher, dedup, jaccard, shingle_hashes
from .params import PARAMETER_NAMES, Params, closest_name
from .pool import Pool, parse_pool
from .receipt import build_receipt
from .sanitizer import Redaction, content_without_markers, sanitize_text
from .scanner import TermHashes, scan, text_hashes
from .similarity import cosine_scores

__all__ = ["Chunk", "RankResult", "SanitizeResult", "PackResult", "Packer", "rank", "sanitize", "pack"]

TokenCounter = Callable[[str], int]


@dataclass(frozen=True)
class Chunk:
    """Everything ckn decided about one candidate. Later-stage fields are None until reached.

    status: ``"ranked"`` after rank; ``"kept"``, ``"dropped_empty"`` or ``"dropped_duplicate"``
    after sanitize; ``"selected"``, ``"not_selected"`` or a dropped status after pack.
    """

    id: str
    index: int                        # position in the pool's candidates
    fused_rank: int                   # 1-based
    bm25_score: float
    bm25_rank: int
    dense_score: float | None         # None: no query or candidate embedding
    dense_rank: int | None
    rrf_score: float
    status: str = "ranked"
    reason: str = ""
    text: str | None = None           # sanitized text (marker lines kept)
    redactions: tuple[Redaction, ...] = ()
    duplicate_of: str | None = None
    duplicate_estimate: float | None = None
    duplicate_jaccard: float | None = None
    tokens: int = 0                   # knapsack weight: the caller's count, or the recount
    overlap: float | None = None      # max MinHash estimate to higher-ranked survivors
    adjusted_utility: float | None = None
    value: int | None = None          # integer knapsack value


_CHUNK_FIELDS = frozenset(f.name for f in dataclass_fields(Chunk))
# Every field in declaration order (so that vars(chunk) is ordered as Chunk(...) orders it);
# the required ones are always overwritten by _ranked_chunk.
_CHUNK_TEMPLATE = {f.name: None if f.default is MISSING else f.default
                   for f in dataclass_fields(Chunk)}


def replace(chunk: Chunk, **changes) -> Chunk:
    """``dataclasses.replace`` for :class:`Chunk`, without re-running the frozen ``__init__``
    (which sets every field through ``object.__setattr__``: the slowest part of a pack)."""
    unknown = changes.keys() - _CHUNK_FIELDS
    if unknown:
        raise TypeError(f"Chunk has no field {sorted(unknown)[0]!r}")
    new = object.__new__(Chunk)
    state = new.__dict__
    state.update(chunk.__dict__)
    state.update(changes)
    return new


def _ranked_chunk(**values) -> Chunk:
    """``Chunk(**values)`` for the rank stage's fields, built the fast way (see replace)."""
    new = object.__new__(Chunk)
    state = new.__dict__
    state.update(_CHUNK_TEMPLATE)
    state.update(values)
    return new


@dataclass(frozen=True)
class RankResult:
    """Candidates in fused order with their per-list scores and ranks."""

    chunks: tuple[Chunk, ...]
    params: Params

    @property
    def ranked_ids(self) -> list[str]:
        return [c.id for c in self.chunks]

    def as_dict(self) -> dict:
        """JSON shape printed by ``python -m ckn rank``."""
        return {
            "ranked_ids": self.ranked_ids,
            "chunks": [
                {"id": c.id, "fused_rank": c.fused_rank, "rrf_score": c.rrf_score,
                 "bm25_score": c.bm25_score, "bm25_rank": c.bm25_rank,
                 "dense_score": c.dense_score, "dense_rank": c.dense_rank}
                for c in self.chunks
            ],
        }


@dataclass(frozen=True)
class SanitizeResult(RankResult):
    """After redaction and dedup: statuses, sanitized texts and duplicate audits."""

    @property
    def sanitized_chunk_ids(self) -> list[str]:
        return [c.id for c in self.chunks if c.redactions]

    @property
    def dropped_chunk_ids(self) -> list[str]:
        return [c.id for c in self.chunks if c.status.startswith("dropped")]

    def as_dict(self) -> dict:
        """JSON shape printed by ``python -m ckn sanitize``."""
        chunks = []
        for c in self.chunks:
            item = {
                "id": c.id,
                "text": c.text,
                "redacted_lines": [{"line": r.line, "family": r.family, "rule": r.rule}
                                   for r in c.redactions],
                "status": c.status if c.status.startswith("dropped") else "kept",
            }
            if c.status == "dropped_duplicate":
                item.update(duplicate_of=c.duplicate_of, estimate=c.duplicate_estimate,
                            exact_jaccard=c.duplicate_jaccard)
            chunks.append(item)
        return {
            "ranked_ids": self.ranked_ids,
            "sanitized_chunk_ids": self.sanitized_chunk_ids,
            "dropped_chunk_ids": self.dropped_chunk_ids,
            "chunks": chunks,
        }


@dataclass(frozen=True)
class PackResult(SanitizeResult):
    """The knapsack's choice: ``receipt`` (SPEC §9), per-chunk diagnostics, packed ``context``."""

    context: str = ""

    @property
    def selected_ids(self) -> list[str]:
        return [c.id for c in self.chunks if c.status == "selected"]

    @property
    def receipt(self) -> dict:
        """A fresh receipt dict, exactly per the schema (ckn/receipt.schema.json)."""
        selected = [c for c in self.chunks if c.status == "selected"]
        return build_receipt(
            ranked_ids=self.ranked_ids,
            sanitized_chunk_ids=self.sanitized_chunk_ids,
            dropped_chunk_ids=self.dropped_chunk_ids,
            selected_ids=[c.id for c in selected],
            total_tokens=sum(c.tokens for c in selected),
            token_budget=self.params.token_budget,
            adjusted_utilities=[c.adjusted_utility for c in selected],
        )

    def as_dict(self) -> dict:
        """JSON shape printed by ``python -m ckn pack``: the receipt."""
        return self.receipt


class Packer:
    """A reusable, configured flow for services that pack many pools.

    Parameters given here override a pool's own top-level values; keyword arguments of each
    call override both. ``count_tokens`` (optional) recounts each surviving chunk's sanitized
    text so the budget holds for what is emitted (SPEC §10).

    >>> packer = Packer(redundancy_lambda=0.5)
    >>> packer.params.redundancy_lambda
    0.5
    """

    def __init__(self, *, count_tokens: TokenCounter | None = None, **params):
        for key in params:
            if key not in PARAMETER_NAMES:
                hint = closest_name(key, PARAMETER_NAMES, limit=3)
                raise InputTypeError(key, f"unknown parameter; did you mean {hint!r}?" if hint
                                     else "unknown parameter")
        if count_tokens is not None and not callable(count_tokens):
            raise InputTypeError("count_tokens", "expected a callable str -> int")
        self.params = Params.from_mapping(params)
        self._explicit = MappingProxyType(dict(params))
        self._count_tokens = count_tokens
        self._hashers: dict[int, MinHasher] = {}

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self._explicit.items())
        return f"Packer({args})"

    def _pool(self, pool, fields) -> Pool:
        if pool is None:
            pool = {}
        return parse_pool(pool, {**self._explicit, **fields})

    def _hasher(self, permutations: int) -> MinHasher:
        hasher = self._hashers.get(permutations)
        if hasher is None:
            hasher = self._hashers[permutations] = MinHasher(permutations)
        return hasher

    def rank(self, pool: Mapping | None = None, /, **fields) -> RankResult:
        """Rank a pool (SPEC §5). ``pool`` is the JSON-shaped dict; ``fields`` override it."""
        p = self._pool(pool, fields)
        return RankResult(_rank(p), p.params)

    def sanitize(self, pool: Mapping | None = None, /, **fields) -> SanitizeResult:
        """Rank, then redact and dedup (SPEC §6, §7)."""
        p = self._pool(pool, fields)
        return SanitizeResult(self._sanitize(p), p.params)

    def pack(self, pool: Mapping | None = None, /, **fields) -> PackResult:
        """Rank, sanitize + dedup, then choose the exact knapsack optimum (SPEC §8).

        >>> result = pack(query="retry budget", token_budget=100, candidates=[
        ...     {"id": "a", "tokens": 60, "text": "alarm retry budget"},
        ...     {"id": "b", "tokens": 60, "text": "unrelated text"}])
        >>> result.receipt["selected_ids"], result.receipt["total_tokens"]
        (['a'], 60)
        """
        p = self._pool(pool, fields)
        chunks = self._sanitize(p)
        chunks = _pack(chunks, p.params, self._count_tokens)
        context = render_context([(c.id, c.text) for c in chunks if c.status == "selected"])
        return PackResult(chunks, p.params, context)

    def _sanitize(self, p: Pool) -> tuple[Chunk, ...]:
        params = p.params
        survivors: list[int] = []
        # One text pass (docs/algorithms.md): the term hashes BM25 used are reused for the
        # shingles whenever sanitizing left the text exactly as it was; the survivors' term
        # hashes go to the MinHash kernel as one CSR buffer (one call, GIL released).
        scanned = scan([c.text for c in p.candidates])
        values, offsets = memoryview(scanned.values), scanned.offsets
        parts: list = []
        survivor_offsets = [0]
        ranked = _rank(p, scanned)
        changes: list[dict] = []  # per chunk, applied once at the end (see replace)
        for pos, chunk in enumerate(ranked):
            raw = p.candidates[chunk.index].text
            cleaned = sanitize_text(raw)
            content = content_without_markers(cleaned.text)
            if not content.strip():
                reason = "every line was redacted" if cleaned.redactions else "the text is empty"
                changes.append({"text": cleaned.text, "redactions": cleaned.redactions,
                                "status": "dropped_empty", "reason": reason})
            else:
                changes.append({"text": cleaned.text, "redactions": cleaned.redactions,
                                "status": "kept", "reason": "kept after sanitize and dedup"})
                survivors.append(pos)
                i = chunk.index
                hashes = (values[offsets[i]:offsets[i + 1]] if content == raw
                          else text_hashes(content))
                parts.append(hashes)
                survivor_offsets.append(survivor_offsets[-1] + len(hashes))
        term_hashes = array("Q")
        term_hashes.frombytes(b"".join(parts))
        del parts
        term_view = memoryview(term_hashes)
        size = params.shingle_size
        sets: dict[int, object] = {}

        def shingle_set(k: int):
            """Sorted distinct shingle hashes of survivor k (only built where needed)."""
            if k not in sets:
                sets[k] = shingle_hashes(
                    term_view[survivor_offsets[k]:survivor_offsets[k + 1]], size)
            return sets[k]

        hasher = self._hasher(params.minhash_permutations)
        signatures = hasher.term_hash_signatures(term_hashes, survivor_offsets, size)
        result = dedup(signatures, params.near_dup_threshold,
                       exact_sets=([shingle_set(k) for k in range(len(survivors))]
                                   if params.dedup_exact else None))
        for kept, overlap in zip(result.kept, result.max_similarity):
            changes[survivors[kept]]["overlap"] = overlap
        for d in result.dropped:
            original = ranked[survivors[d.duplicate_of]]
            # The audit always reports the exact Jaccard; with dedup_exact it was also the test.
            exact_jaccard = d.exact_jaccard
            if exact_jaccard is None:
                exact_jaccard = jaccard(shingle_set(d.index), shingle_set(d.duplicate_of))
            changes[survivors[d.index]].update(
                status="dropped_duplicate",
                reason=(f"near-duplicate of {original.id}: estimated similarity "
                        f"{d.estimate:.4f} >= {params.near_dup_threshold} "
                        f"(exact Jaccard {exact_jaccard:.4f})"),
                duplicate_of=original.id, duplicate_estimate=d.estimate,
                duplicate_jaccard=exact_jaccard)
        out = [replace(chunk, **change) for chunk, change in zip(ranked, changes)]
        return tuple(out)


def _rank(p: Pool, scanned: TermHashes | None = None) -> tuple[Chunk, ...]:
    """Fused order (SPEC §5); ``scanned`` = ``scan`` of the candidates' texts, if at hand."""
    params = p.params
    if scanned is None:
        scanned = scan([c.text for c in p.candidates])
    # Same scores as bm25_scores over terms(), bit for bit (see ckn.bm25.bm25_scores_hashed).
    bm25 = bm25_scores_hashed(scanned, text_hashes(p.query), k1=params.bm25_k1, b=params.bm25_b)
    bm25_ranks = rank_positions(bm25)
    if p.query_embedding is not None:
        dense = cosine_scores(p.query_embedding, [c.embedding for c in p.candidates])
        dense_ranks = rank_positions(dense)
    else:
        dense = dense_ranks = [None] * len(p.candidates)
    # The ranks come from rank_positions and the parameters were validated: skip the checks.
    weights = {**DEFAULT_RRF_WEIGHTS, **params.rrf_weights}
    rrf = rrf_unchecked(bm25_ranks, dense_ranks, params.rrf_k, weights["bm25"], weights["dense"])
    order = fused_order_unchecked(rrf, bm25_ranks, dense_ranks)
    cands = p.candidates
    return tuple(
        _ranked_chunk(id=cands[i].id, index=i, fused_rank=pos, bm25_score=bm25[i],
                      bm25_rank=bm25_ranks[i], dense_score=dense[i], dense_rank=dense_ranks[i],
                      rrf_score=rrf[i], tokens=cands[i].tokens)
        for pos, i in enumerate(order, start=1)
    )


def _token_count(count_tokens: TokenCounter | None, chunk: Chunk) -> int:
    """The chunk's knapsack weight: the caller's count, or ``count_tokens`` of its sanitized text."""
    if count_tokens is None:
        return chunk.tokens
    n = count_tokens(chunk.text)
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise CknValueError(f"count_tokens({chunk.id!r}): expected a non-negative integer, got {n!r}")
    return n


def _pack(chunks: tuple[Chunk, ...], params: Params, count_tokens: TokenCounter | None,
          ) -> tuple[Chunk, ...]:
    """Overlap-discounted utilities, integer values, and the exact knapsack (SPEC §8)."""
    out = list(chunks)
    positions = [pos for pos, c in enumerate(out) if c.status == "kept"]
    weights, values, changes = [], [], []
    for pos in positions:
        c = out[pos]
        utility = c.rrf_score * (1.0 - params.redundancy_lambda * c.overlap)
        value = math.floor(utility * params.utility_scale + 0.5)
        tokens = _token_count(count_tokens, c)
        changes.append({"adjusted_utility": utility, "value": value, "tokens": tokens})
        weights.append(tokens)
        values.append(value)
    chosen = set(solve(weights, values, params.token_budget).indices)
    budget = params.token_budget
    for k, (pos, change) in enumerate(zip(positions, changes)):
        if k in chosen:
            change.update(status="selected", reason="in the optimal subset")
        elif change["tokens"] > budget:
            change.update(status="not_selected",
                          reason=f"{change['tokens']} tokens exceed the budget of {budget}")
        else:
            change.update(status="not_selected",
                          reason="not in the optimal subset under the token budget")
        out[pos] = replace(out[pos], **change)
    return tuple(out)


_DEFAULT = Packer()


def rank(pool: Mapping | None = None, /, **fields) -> RankResult:
    """Rank a pool (SPEC §5): ``rank(pool_dict)`` or ``rank(query=..., candidates=..., ...)``."""
    return _DEFAULT.rank(pool, **fields)


def sanitize(pool: Mapping | None = None, /, **fields) -> SanitizeResult:
    """Rank, redact and dedup a pool (SPEC §5–§7); arguments as for :func:`rank`."""
    return _DEFAULT.sanitize(pool, **fields)


def pack(pool: Mapping | None = None, /, *, count_tokens: TokenCounter | None = None,
         **fields) -> PackResult:
    """The whole flow (SPEC §1): ``pack(pool_dict, **overrides)`` or
    ``pack(query=..., candidates=..., token_budget=..., query_embedding=...)``.

    ``count_tokens`` (optional) recounts each surviving chunk's sanitized text before packing.
    """
    packer = _DEFAULT if count_tokens is None else Packer(count_tokens=count_tokens)
    return packer.pack(pool, **fields)
