"""The whole flow (SPEC §1): rank → sanitize + dedup → pack, as functions and a reusable Packer.

Each stage extends the previous one's per-chunk records (:class:`Chunk`, in fused order):
:func:`rank` fills the scores and ranks, :func:`sanitize` the redactions and dedup decisions,
:func:`pack` the overlap, utilities, knapsack values and the final status.
"""

from array import array
from collections.abc import Callable, Mapping
from functools import partial
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from types import MappingProxyType

from .context import _render
from .errors import CknValueError, InputTypeError
from ._bm25 import Bm25Pass
from ._dense import build_chunks, knapsack_choice, run_passes, sanitized_survivors
from .fusion import DEFAULT_RRF_WEIGHTS, fuse_unchecked
from .minhash import MinHasher, SignaturePass, dedup, jaccard, shingle_hashes
from .params import PARAMETER_NAMES, Params, closest_name
from .pool import _Columns, _parse_columns
from .receipt import build_receipt
from .sanitizer import (REDACTION_MARKER, Detector, Redaction, candidates_pass, content_without_markers,
                        sanitized_by_pass)
from .scanner import ScanPass, text_hashes
from .similarity import cosine_scores

__all__ = ["Chunk", "RankResult", "SanitizeResult", "PackResult", "Packer", "rank", "sanitize", "pack"]

TokenCounter = Callable[[str], int]


@dataclass(frozen=True, slots=True)
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


_CHUNK_KEYS = tuple(f.name for f in dataclass_fields(Chunk))  # declaration order


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
    text so the budget holds for what is emitted (SPEC §10). ``detector`` (optional) adds a
    line classifier to the built-in sanitizer: ``detector(lines) -> verdicts`` gets the pool's
    normalised lines (docs/security.md shows one wired to a Hugging Face model).

    >>> packer = Packer(redundancy_lambda=0.5)
    >>> packer.params.redundancy_lambda
    0.5
    """

    def __init__(self, *, count_tokens: TokenCounter | None = None, detector: Detector | None = None,
                 **params):
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
        if detector is not None and not callable(detector):
            raise InputTypeError("detector", "expected a callable list[str] -> verdicts")
        self._detector = detector
        self._hashers: dict[int, MinHasher] = {}

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self._explicit.items())
        return f"Packer({args})"

    def _pool(self, pool, fields, stage: int) -> _Columns:
        if pool is None:
            pool = {}
        return _parse_columns(pool, {**self._explicit, **fields}, cosine=True,
                              text_passes=partial(_text_passes, self._hasher, stage))

    def _hasher(self, permutations: int) -> MinHasher:
        hasher = self._hashers.get(permutations)
        if hasher is None:
            hasher = self._hashers[permutations] = MinHasher(permutations)
        return hasher

    def rank(self, pool: Mapping | None = None, /, **fields) -> RankResult:
        """Rank a pool (SPEC §5). ``pool`` is the JSON-shaped dict; ``fields`` override it."""
        cols = self._pool(pool, fields, _RANK)
        return RankResult(_run(cols, self._hasher, None, _RANK), cols.params)

    def sanitize(self, pool: Mapping | None = None, /, **fields) -> SanitizeResult:
        """Rank, then redact and dedup (SPEC §6, §7)."""
        cols = self._pool(pool, fields, _SANITIZE)
        return SanitizeResult(_run(cols, self._hasher, None, _SANITIZE, self._detector), cols.params)

    def pack(self, pool: Mapping | None = None, /, **fields) -> PackResult:
        """Rank, sanitize + dedup, then choose the exact knapsack optimum (SPEC §8).

        >>> result = pack(query="retry budget", token_budget=100, candidates=[
        ...     {"id": "a", "tokens": 60, "text": "alarm retry budget"},
        ...     {"id": "b", "tokens": 60, "text": "unrelated text"}])
        >>> result.receipt["selected_ids"], result.receipt["total_tokens"]
        (['a'], 60)
        """
        cols = self._pool(pool, fields, _PACK)
        chunks = _run(cols, self._hasher, self._count_tokens, _PACK, self._detector)
        context = _render([(c.id, c.text) for c in chunks if c.status == "selected"])
        return PackResult(chunks, cols.params, context)


_RANK, _SANITIZE, _PACK = 1, 2, 3


def _text_passes(hasher: Callable[[int], MinHasher], stage: int, query: str, params: Params,
                 texts: list, scan_pass: ScanPass | None = None) -> tuple[tuple, int]:
    """The pool's text work up to ``stage``, prepared to run in one GIL-free stretch
    (``ckn._passes``), and its size in code points: the scan's term hashes (``scan_pass``, or
    a new one) and BM25 over them; to sanitize, also the sanitizer's compiled pass and the
    MinHash signatures of every text as it came."""
    if scan_pass is None:
        scan_pass = ScanPass(texts, "texts")
    # Same scores as bm25_scores over terms(), bit for bit (see ckn.bm25.bm25_scores_hashed).
    distinct = array("Q", dict.fromkeys(text_hashes(query)))
    passes: tuple = (scan_pass, Bm25Pass(scan_pass.values, scan_pass.offsets, len(texts),
                                         distinct, params.bm25_k1, params.bm25_b))
    if stage != _RANK:
        passes += (candidates_pass(texts),
                   SignaturePass(hasher(params.minhash_permutations), scan_pass.values,
                                 scan_pass.offsets, params.shingle_size))
    return passes, scan_pass.length


def _run(cols: _Columns, hasher: Callable[[int], MinHasher],
         count_tokens: TokenCounter | None, stage: int, detector: Detector | None = None) -> tuple[Chunk, ...]:
    """The flow up to ``stage`` over a validated pool; each Chunk is built once, at the end.

    Per-chunk values live in lists indexed by fused position until then. One text pass
    (docs/algorithms.md): the pool's text work runs in one stretch with the GIL released
    (``ckn._passes``) — the scan's term hashes, BM25 over them and, to sanitize, the
    sanitizer's compiled pass and the MinHash signatures of every text as it came; a survivor
    whose text the sanitizer changed is signed again from its new term hashes.
    """
    params = cols.params
    ids, texts, cand_tokens = cols.ids, cols.texts, cols.tokens
    n = len(ids)
    passes, cols.passes = cols.passes, None  # run while validating (the common input shapes)
    if passes is None:
        passes, work = _text_passes(hasher, stage, cols.query, params, texts)
        run_passes(passes, work)
    if not passes[0].complete:  # rare: texts denser in terms than the scan's first room
        scan_pass, passes = passes[0], None  # (the later passes hold its arrays: let them go)
        scan_pass.run()
        passes, work = _text_passes(hasher, stage, cols.query, params, texts, scan_pass)
        run_passes(passes, work)
    scan_pass, bm25_pass = passes[:2]
    if stage != _RANK:
        lines_pass, signature_pass = passes[2:]
    bm25 = bm25_pass.finish()
    pool_signatures = None if stage == _RANK else signature_pass.finish()
    scanned = scan_pass.finish()  # (after the passes that read its arrays)
    if cols.query_embedding is None:
        dense = None
    elif cols.dense is not None:  # scored while validating (the common input shapes)
        dense = cols.dense
    else:  # validated arrays: read in place, one pass with the GIL released
        dense = cosine_scores(cols.query_embedding, cols.embeddings)
    # The ranks come from rank_positions and the parameters were validated: skip the checks.
    weights = {**DEFAULT_RRF_WEIGHTS, **params.rrf_weights}
    bm25_ranks, dense_ranks, rrf, order = fuse_unchecked(
        bm25, dense, params.rrf_k, weights["bm25"], weights["dense"])
    if dense is None:
        dense = dense_ranks

    if stage == _RANK:
        nones = [None] * n
        return build_chunks(Chunk, _CHUNK_KEYS, order, ids, bm25, bm25_ranks, dense, dense_ranks,
                            rrf, ["ranked"] * n, [""] * n, nones, [()] * n, None,
                            [cand_tokens[i] for i in order], nones, nones, nones)

    # ---- sanitize + dedup (SPEC §6, §7), in fused order
    clean_texts: list = [None] * n
    redactions: list = [()] * n
    status = ["kept"] * n
    reason = ["kept after sanitize and dedup"] * n
    changed = sanitized_by_pass(texts, lines_pass, detector)  # only the texts it changes or redacts
    del passes, scan_pass, bm25_pass, lines_pass, signature_pass  # (their scratch: see dedup)
    # survivors: fused positions of the non-empty chunks; rows: their candidate indices;
    # replaced: survivor k -> term hashes of its changed text
    survivors, rows, replaced, empty = sanitized_survivors(
        order, texts, changed, REDACTION_MARKER, content_without_markers, text_hashes,
        clean_texts, redactions)
    for pos in empty:
        status[pos] = "dropped_empty"
        reason[pos] = "every line was redacted" if redactions[pos] else "the text is empty"
    size = params.shingle_size
    minhasher = hasher(params.minhash_permutations)
    signatures = pool_signatures._gather(rows, {
        k: minhasher.term_hash_signatures(h, [0, len(h)], size) for k, h in replaced.items()})
    del pool_signatures  # (the survivors' rows are copied: the pool's go before dedup's)
    term_view, term_offsets = memoryview(scanned.values), scanned.offsets
    sets: dict[int, object] = {}

    def shingle_set(k: int):
        """Sorted distinct shingle hashes of survivor k (only built where needed)."""
        if k not in sets:
            h = replaced.get(k)
            if h is None:
                r = rows[k]
                h = term_view[term_offsets[r]:term_offsets[r + 1]]
            sets[k] = shingle_hashes(h, size)
        return sets[k]

    result = dedup(signatures, params.near_dup_threshold,
                   exact_sets=([shingle_set(k) for k in range(len(survivors))]
                               if params.dedup_exact else None))
    overlap: list = [None] * n
    for kept, sim in zip(result.kept, result.max_similarity):
        overlap[survivors[kept]] = sim
    duplicate: dict[int, tuple] = {}
    for d in result.dropped:
        pos = survivors[d.index]
        original = ids[order[survivors[d.duplicate_of]]]
        # The audit always reports the exact Jaccard; with dedup_exact it was also the test.
        exact_jaccard = d.exact_jaccard
        if exact_jaccard is None:
            exact_jaccard = jaccard(shingle_set(d.index), shingle_set(d.duplicate_of))
        status[pos] = "dropped_duplicate"
        reason[pos] = (f"near-duplicate of {original}: estimated similarity "
                       f"{d.estimate:.4f} >= {params.near_dup_threshold} "
                       f"(exact Jaccard {exact_jaccard:.4f})")
        duplicate[pos] = (original, d.estimate, exact_jaccard)

    tokens = list(map(cand_tokens.__getitem__, order))
    utility: list = [None] * n
    value: list = [None] * n
    if stage == _PACK:
        # ---- pack (SPEC §8): u = rrf · (1 − λ · overlap) and v = floor(u · scale + 0.5) into
        # utility and value, the exact knapsack over the kept survivors that fit the budget (a
        # chunk longer than the budget is in no feasible subset, so any token count is
        # accepted, SPEC §3), and their statuses and reasons
        def recount(pos: int) -> int:
            return _recount(count_tokens, ids[order[pos]], clean_texts[pos])

        knapsack_choice(survivors, status, reason, order, ids, rrf, overlap,
                        params.redundancy_lambda, params.utility_scale, utility, value, tokens,
                        params.token_budget, None if count_tokens is None else recount)

    return build_chunks(Chunk, _CHUNK_KEYS, order, ids, bm25, bm25_ranks, dense, dense_ranks,
                        rrf, status, reason, clean_texts, redactions, duplicate, tokens, overlap,
                        utility, value)


def _recount(count_tokens: TokenCounter, chunk_id: str, text: str) -> int:
    """A survivor's knapsack weight: ``count_tokens`` of its sanitized text."""
    n = count_tokens(text)
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise CknValueError(f"count_tokens({chunk_id!r}): expected a non-negative integer, got {n!r}")
    return n


_DEFAULT = Packer()


def rank(pool: Mapping | None = None, /, **fields) -> RankResult:
    """Rank a pool (SPEC §5): ``rank(pool_dict)`` or ``rank(query=..., candidates=..., ...)``."""
    return _DEFAULT.rank(pool, **fields)


def sanitize(pool: Mapping | None = None, /, *, detector: Detector | None = None,
             **fields) -> SanitizeResult:
    """Rank, redact and dedup a pool (SPEC §5–§7); arguments as for :func:`rank`, plus the
    optional ``detector`` of :class:`Packer`."""
    return (_DEFAULT if detector is None else Packer(detector=detector)).sanitize(pool, **fields)


def pack(pool: Mapping | None = None, /, *, count_tokens: TokenCounter | None = None,
         **fields) -> PackResult:
    """The whole flow (SPEC §1): ``pack(pool_dict, **overrides)`` or
    ``pack(query=..., candidates=..., token_budget=..., query_embedding=...)``.

    ``count_tokens`` (optional) recounts each surviving chunk's sanitized text before packing.
    """
    packer = _DEFAULT if count_tokens is None else Packer(count_tokens=count_tokens)
    return packer.pack(pool, **fields)
