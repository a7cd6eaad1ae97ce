"""The whole flow (spec §1), as functions and a reusable Packer, one stage after the other:

validate (:mod:`ckn.pool`) → rank (:mod:`ckn.scanner`, :mod:`ckn.bm25`, :mod:`ckn.similarity`,
:mod:`ckn.fusion`) → sanitize (:mod:`ckn.sanitizer`) → dedup (:mod:`ckn.minhash`) → select
(:mod:`ckn.select`, :mod:`ckn.knapsack`) → context + receipt (:mod:`ckn.context`,
:mod:`ckn.receipt`). Each stage module takes and returns plain data and imports no later one
(tests/test_import_graph.py); this module calls them in order. The per-chunk records
(:class:`Chunk`, in fused order) grow with the stages: :func:`rank` fills the scores and ranks,
:func:`sanitize` the redactions and dedup decisions, :func:`pack` the overlap, utilities,
knapsack values and the final status.
"""

from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from types import MappingProxyType

from ._version import __version__
from .context import _render, layout_sizes
from .errors import CknValueError, InputTypeError
from ._bm25 import Bm25Pass
from ._pipeline import build_chunks, run_passes, sanitized_survivors
from .fusion import DEFAULT_RRF_WEIGHTS, fuse_unchecked
from .minhash import MinHasher, SignaturePass, dedup, jaccard, shingle_hashes
from .params import PARAMETER_NAMES, Params
from .pool import _Columns, _parse_columns, candidate_metadata, complete_candidates
from .receipt import build_receipt
from .sanitizer import (REDACTION_MARKER, Detector, Redaction, candidates_pass,
                        content_without_markers, sanitized_by_pass)
from .scanner import ScanPass, text_hashes
from .select import choose, choose_within, knapsack_values
from .similarity import cosine_scores, score_fallback
from .tokenizer import TokenCounter, resolve_tokenizer
from .workers import ordered_map

__all__ = ["Chunk", "RankResult", "SanitizeResult", "PackResult", "Packer", "rank", "sanitize", "pack"]


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
    metadata: Mapping | None = None   # the candidate's own "metadata", unchanged


# declaration order; build_chunks sets all but metadata (set only where a candidate has one)
_CHUNK_KEYS = tuple(f.name for f in dataclass_fields(Chunk))[:-1]


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
    """The knapsack's choice: ``receipt`` (spec §9), per-chunk diagnostics, packed ``context``.

    ``context_tokens`` is the context's token count under the configured tokenizer (None
    without one); ``tokenizer`` names it. :meth:`explain` says why each chunk was chosen."""

    context: str = ""
    context_tokens: int | None = None
    tokenizer: str | None = None

    @property
    def selected_ids(self) -> list[str]:
        return [c.id for c in self.chunks if c.status == "selected"]

    @property
    def receipt(self) -> dict:
        """A fresh receipt dict, exactly per the schema (ckn/receipt.schema.json).

        ``total_tokens`` is what the budget counted: the selected chunks' tokens, or under
        ``budget_scope="context"`` the whole context's."""
        selected = [c for c in self.chunks if c.status == "selected"]
        return build_receipt(
            ranked_ids=self.ranked_ids,
            sanitized_chunk_ids=self.sanitized_chunk_ids,
            dropped_chunk_ids=self.dropped_chunk_ids,
            selected_ids=[c.id for c in selected],
            total_tokens=(self.context_tokens if self.params.budget_scope == "context"
                          else sum(c.tokens for c in selected)),
            token_budget=self.params.token_budget,
            adjusted_utilities=[c.adjusted_utility for c in selected],
        )

    def as_dict(self) -> dict:
        """JSON shape printed by ``python -m ckn pack``: the receipt."""
        return self.receipt

    def explain(self) -> dict:
        """The receipt's audit trail (``python -m ckn pack --explain``): the ckn version, the
        parameters used, the tokenizer, the context's size, and per chunk in fused order its
        ranks, scores, knapsack value and weight, status and the reason for it."""
        params = self.params.as_dict()
        return {
            "ckn_version": __version__,
            "parameters": params,
            "tokenizer": self.tokenizer,
            "context_tokens": self.context_tokens,
            "context_chars": len(self.context),
            "receipt": self.receipt,
            "chunks": [
                {"id": c.id, "fused_rank": c.fused_rank, "rrf_score": c.rrf_score,
                 "bm25_rank": c.bm25_rank, "bm25_score": c.bm25_score,
                 "dense_rank": c.dense_rank, "dense_score": c.dense_score,
                 "overlap": c.overlap, "adjusted_utility": c.adjusted_utility,
                 "value": c.value, "tokens": c.tokens, "status": c.status, "reason": c.reason,
                 **({"duplicate_of": c.duplicate_of} if c.duplicate_of is not None else {}),
                 **({"metadata": c.metadata} if c.metadata is not None else {})}
                for c in self.chunks
            ],
        }


class _Unset:
    """The default of a named option: not given (the pool's value, else the spec's default)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<unset>"


_UNSET = _Unset()
_FIELD_NAMES = ("query", "query_embedding", "candidates", "embeddings") + PARAMETER_NAMES


def _given(names: dict) -> dict:
    """The options of ``names`` (a call's ``locals()``) that were given, by name."""
    return {k: names[k] for k in _FIELD_NAMES if k in names and names[k] is not _UNSET}


_OPTIONS_DOC = """
    Options (keyword-only; each defaults to the pool's own value, else spec §2's default):

    - ``token_budget`` (int >= 0): the ceiling on the tokens the budget counts; ``pack`` needs it.
    - ``bm25_k1`` (>= 0, 1.5), ``bm25_b`` (0..1, 0.75): BM25 saturation and length normalisation.
    - ``rrf_k`` (>= 0, 60), ``rrf_weights`` (``{"bm25": 1, "dense": 1}``): reciprocal rank fusion.
    - ``shingle_size`` (terms, 3), ``minhash_permutations`` (64), ``near_dup_threshold``
      (0 < t <= 1, 0.75), ``dedup_exact`` (False: confirm by exact Jaccard), ``dedup`` (True).
    - ``sanitize`` (True; False: redact nothing, blank chunks are still dropped).
    - ``redundancy_lambda`` (0..1, 0.35): the overlap discount of a chunk's utility.
    - ``utility_scale`` (1..1e12), ``relevance_k`` (6), ``relevance_power`` (8): the knapsack's
      integer values (spec §8).
    - ``top_k`` (int >= 1 or None): only the first K survivors compete.
    - ``budget_scope`` (``"chunks"`` or ``"context"``): what the budget counts.
    - ``fence`` (``"full"`` or ``"compact"``), ``preamble`` (str or None): the context's format.
    - ``max_memory`` (bytes or None: 256 MiB): the knapsack's working-memory cap.

    A bad value raises :class:`~ckn.errors.InputError` / :class:`~ckn.errors.InputTypeError`
    naming the option; an unknown keyword is a ``TypeError``, as for any Python function.
"""


class Packer:
    """A reusable, configured flow for services that pack many pools.

    Parameters given here override a pool's own top-level values; keyword arguments of each
    call override both. ``count_tokens`` (optional: ``"cl100k_base"``, ``"o200k_base"``, a
    tiktoken-style encoding or a callable ``str -> int``, see :mod:`ckn.tokenizer`) counts the
    candidates that carry no ``tokens`` and recounts each surviving chunk's sanitized text, so
    the budget holds for what is emitted (spec §10); ``budget_scope="context"`` needs it.
    ``detector`` (optional) adds a line classifier to the built-in sanitizer:
    ``detector(lines) -> verdicts`` gets the pool's normalised lines (docs/security.md wires one
    to a Hugging Face model).

    >>> packer = Packer(redundancy_lambda=0.5)
    >>> packer.params.redundancy_lambda
    0.5
    """

    def __init__(self, *, count_tokens: TokenCounter | None = None,
                 detector: Detector | None = None,
                 bm25_k1=_UNSET, bm25_b=_UNSET, rrf_k=_UNSET, rrf_weights=_UNSET,
                 shingle_size=_UNSET, minhash_permutations=_UNSET, near_dup_threshold=_UNSET,
                 dedup_exact=_UNSET, sanitize=_UNSET, dedup=_UNSET, redundancy_lambda=_UNSET,
                 utility_scale=_UNSET, relevance_k=_UNSET, relevance_power=_UNSET, top_k=_UNSET,
                 budget_scope=_UNSET, fence=_UNSET, preamble=_UNSET, max_memory=_UNSET,
                 token_budget=_UNSET):
        params = _given(locals())
        self.params = Params.from_mapping(params)
        self._explicit = MappingProxyType(dict(params))
        self._count_tokens = resolve_tokenizer(count_tokens)
        if self.params.budget_scope == "context" and self._count_tokens is None:
            raise CknValueError(_NEEDS_TOKENIZER)
        if detector is not None and not callable(detector):
            raise InputTypeError("detector", "expected a callable list[str] -> verdicts")
        self._detector = detector
        self._hashers: dict[int, MinHasher] = {}

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self._explicit.items())
        return f"Packer({args})"

    def __getstate__(self) -> dict:
        """Pickle the configuration; the MinHasher cache is rebuilt on demand."""
        params = {k: dict(v) if isinstance(v, Mapping) else v for k, v in self._explicit.items()}
        return {"count_tokens": self._count_tokens, "detector": self._detector, "params": params}

    def __setstate__(self, state: dict) -> None:
        self.__init__(count_tokens=state["count_tokens"], detector=state.get("detector"),
                      **state["params"])

    def _pool(self, pool, fields, stage: int) -> _Columns:
        if pool is None:
            pool = {}
        pool, fields = complete_candidates(pool, fields, self._count_tokens)
        cols = _parse_columns(pool, {**self._explicit, **fields}, score=score_fallback,
                              budget=stage == _PACK)
        raw = fields["candidates"] if "candidates" in fields else pool["candidates"]
        cols.metadata = candidate_metadata(raw)
        return cols

    def _hasher(self, permutations: int) -> MinHasher:
        hasher = self._hashers.get(permutations)
        if hasher is None:
            hasher = self._hashers[permutations] = MinHasher(permutations)
        return hasher

    def rank(self, pool: Mapping | None = None, /, *,
             query=_UNSET, query_embedding=_UNSET, candidates=_UNSET, embeddings=_UNSET,
             bm25_k1=_UNSET, bm25_b=_UNSET, rrf_k=_UNSET, rrf_weights=_UNSET,
             shingle_size=_UNSET, minhash_permutations=_UNSET, near_dup_threshold=_UNSET,
             dedup_exact=_UNSET, sanitize=_UNSET, dedup=_UNSET, redundancy_lambda=_UNSET,
             utility_scale=_UNSET, relevance_k=_UNSET, relevance_power=_UNSET, top_k=_UNSET,
             budget_scope=_UNSET, fence=_UNSET, preamble=_UNSET, max_memory=_UNSET,
             token_budget=_UNSET) -> RankResult:
        """Rank a pool (spec §5). ``pool`` is the JSON-shaped dict; the named fields (``query``,
        ``query_embedding``, ``candidates``, ``embeddings``) and options override it and this
        Packer's options (see :class:`Packer`)."""
        cols = self._pool(pool, _given(locals()), _RANK)
        return RankResult(_run(cols, self._hasher, None, _RANK), cols.params)

    def sanitize(self, pool: Mapping | None = None, /, *,
                 query=_UNSET, query_embedding=_UNSET, candidates=_UNSET, embeddings=_UNSET,
                 bm25_k1=_UNSET, bm25_b=_UNSET, rrf_k=_UNSET, rrf_weights=_UNSET,
                 shingle_size=_UNSET, minhash_permutations=_UNSET, near_dup_threshold=_UNSET,
                 dedup_exact=_UNSET, sanitize=_UNSET, dedup=_UNSET, redundancy_lambda=_UNSET,
                 utility_scale=_UNSET, relevance_k=_UNSET, relevance_power=_UNSET,
                 top_k=_UNSET, budget_scope=_UNSET, fence=_UNSET, preamble=_UNSET,
                 max_memory=_UNSET, token_budget=_UNSET) -> SanitizeResult:
        """Rank, then redact and dedup (spec §6, §7)."""
        cols = self._pool(pool, _given(locals()), _SANITIZE)
        return SanitizeResult(_run(cols, self._hasher, None, _SANITIZE, self._detector),
                              cols.params)

    def pack(self, pool: Mapping | None = None, /, *,
             query=_UNSET, query_embedding=_UNSET, candidates=_UNSET, embeddings=_UNSET,
             bm25_k1=_UNSET, bm25_b=_UNSET, rrf_k=_UNSET, rrf_weights=_UNSET,
             shingle_size=_UNSET, minhash_permutations=_UNSET, near_dup_threshold=_UNSET,
             dedup_exact=_UNSET, sanitize=_UNSET, dedup=_UNSET, redundancy_lambda=_UNSET,
             utility_scale=_UNSET, relevance_k=_UNSET, relevance_power=_UNSET, top_k=_UNSET,
             budget_scope=_UNSET, fence=_UNSET, preamble=_UNSET, max_memory=_UNSET,
             token_budget=_UNSET) -> PackResult:
        """Rank, sanitize + dedup, then choose the exact knapsack optimum (spec §8).

        >>> result = pack(query="retry budget", token_budget=100, candidates=[
        ...     {"id": "a", "tokens": 60, "text": "alarm retry budget"},
        ...     {"id": "b", "tokens": 60, "text": "unrelated text"}])
        >>> result.receipt["selected_ids"], result.receipt["total_tokens"]
        (['a'], 60)
        """
        cols = self._pool(pool, _given(locals()), _PACK)
        chunks, context, context_tokens = _run(cols, self._hasher, self._count_tokens, _PACK,
                                               self._detector)
        return PackResult(chunks, cols.params, context, context_tokens,
                          None if self._count_tokens is None else self._count_tokens.name)

    def pack_many(self, pools: Iterable[Mapping], /, *, workers: int = 1) -> Iterator[PackResult]:
        """:meth:`pack` of each pool, yielded lazily in input order.

        ``workers > 1`` packs on that many processes (each builds this Packer once; pools and
        results are pickled), reading ahead a bounded window of pools. A bad pool raises its
        CknError when its result is reached. See :mod:`ckn.workers`.

        >>> from ckn import example_pool
        >>> [r.receipt["total_tokens"] for r in Packer().pack_many([example_pool()] * 2)]
        [170, 170]
        """
        return ordered_map(_pack_one, _PackerSpec(self), pools, workers=workers)


Packer.__doc__ += _OPTIONS_DOC


class _PackerSpec:
    """A picklable recipe for a Packer like ``packer`` (for worker processes)."""

    def __init__(self, packer: Packer):
        self.options = dict(packer._explicit)
        self.count_tokens = packer._count_tokens
        self.detector = packer._detector

    def __call__(self) -> Packer:
        return Packer(count_tokens=self.count_tokens, detector=self.detector, **self.options)


def _pack_one(packer: Packer, pool: Mapping) -> PackResult:
    return packer.pack(pool)


_RANK, _SANITIZE, _PACK = 1, 2, 3


def _text_passes(hasher: Callable[[int], MinHasher], stage: int, query: str, params: Params,
                 texts: list, scan_pass: ScanPass | None = None) -> tuple[tuple, int]:
    """The pool's text work up to ``stage``, prepared to run in one GIL-free stretch
    (``ckn._passes``, :func:`ckn._pipeline.run_passes`), and its size in code points: the
    scan's term hashes (``scan_pass``, or a new one) and BM25 over them; to sanitize, also the
    sanitizer's compiled pass and the MinHash signatures of every text as it came."""
    if scan_pass is None:
        scan_pass = ScanPass(texts, "texts")
    # Same scores as bm25_scores over terms(), bit for bit (see ckn.bm25.bm25_scores_hashed).
    distinct = array("Q", dict.fromkeys(text_hashes(query)))
    passes: tuple = (scan_pass, Bm25Pass(scan_pass.values, scan_pass.offsets, len(texts),
                                         distinct, params.bm25_k1, params.bm25_b))
    if stage != _RANK and params.sanitize:
        passes += (candidates_pass(texts),)
    if stage != _RANK and params.dedup:
        passes += (SignaturePass(hasher(params.minhash_permutations), scan_pass.values,
                                 scan_pass.offsets, params.shingle_size),)
    return passes, scan_pass.length


def _run(cols: _Columns, hasher: Callable[[int], MinHasher], count_tokens: TokenCounter | None,
         stage: int, detector: Detector | None = None) -> tuple[Chunk, ...]:
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
    passes, work = _text_passes(hasher, stage, cols.query, params, texts)
    run_passes(passes, work)
    if not passes[0].complete:  # rare: texts denser in terms than the scan's first room
        scan_pass, passes = passes[0], None  # (the later passes hold its arrays: let them go)
        scan_pass.run()
        passes, work = _text_passes(hasher, stage, cols.query, params, texts, scan_pass)
        run_passes(passes, work)
    scan_pass, bm25_pass, *rest = passes
    lines_pass = rest.pop(0) if stage != _RANK and params.sanitize else None
    signature_pass = rest.pop(0) if stage != _RANK and params.dedup else None
    bm25 = bm25_pass.finish()
    pool_signatures = None if signature_pass is None else signature_pass.finish()
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
        return _with_metadata(build_chunks(
            Chunk, _CHUNK_KEYS, order, ids, bm25, bm25_ranks, dense, dense_ranks, rrf,
            ["ranked"] * n, [""] * n, nones, [()] * n, None, [cand_tokens[i] for i in order],
            nones, nones, nones), cols.metadata)

    # ---- sanitize + dedup (spec §6, §7), in fused order
    clean_texts: list = [None] * n
    redactions: list = [()] * n
    status = ["kept"] * n
    reason = ["kept after sanitize and dedup"] * n
    # only the texts the sanitizer changes or redacts (none with sanitize=False)
    changed = {} if lines_pass is None else sanitized_by_pass(texts, lines_pass, detector)
    del passes, rest, scan_pass, bm25_pass, lines_pass, signature_pass  # (their scratch: see dedup)
    # survivors: fused positions of the non-empty chunks; rows: their candidate indices;
    # replaced: survivor k -> term hashes of its changed text
    survivors, rows, replaced, empty = sanitized_survivors(
        order, texts, changed, REDACTION_MARKER, content_without_markers, text_hashes,
        clean_texts, redactions)
    for pos in empty:
        status[pos] = "dropped_empty"
        reason[pos] = "every line was redacted" if redactions[pos] else "the text is empty"
    overlap: list = [None] * n
    duplicate: dict[int, tuple] = {}
    if params.dedup:
        _dedup(params, hasher, pool_signatures, scanned, survivors, rows, replaced, order, ids,
               status, reason, overlap, duplicate)
    else:  # no MinHash work: nothing is a duplicate, nothing overlaps
        for pos in survivors:
            overlap[pos] = 0.0
    del pool_signatures

    tokens = list(map(cand_tokens.__getitem__, order))
    utility: list = [None] * n
    value: list = [None] * n
    context, context_tokens = "", None
    if stage == _PACK:
        ranks = [(bm25_ranks[i], dense_ranks[i]) for i in order]  # by fused position
        context, context_tokens = _select(params, count_tokens, survivors, status, reason, order,
                                          ids, rrf, ranks, cols.query_embedding is not None,
                                          overlap, clean_texts, tokens, utility, value)
    chunks = _with_metadata(build_chunks(
        Chunk, _CHUNK_KEYS, order, ids, bm25, bm25_ranks, dense, dense_ranks, rrf, status,
        reason, clean_texts, redactions, duplicate, tokens, overlap, utility, value),
        cols.metadata)
    return (chunks, context, context_tokens) if stage == _PACK else chunks


def _dedup(params: Params, hasher: Callable[[int], MinHasher], pool_signatures, scanned,
           survivors: list, rows: list, replaced: dict, order: list, ids: list, status: list,
           reason: list, overlap: list, duplicate: dict) -> None:
    """spec §7 over the survivors (fused positions; ``rows``: their candidate indices): each
    survivor's MinHash signature (the pool's, or signed again from ``replaced`` term hashes
    where the sanitizer changed its text), the dedup pass, and into ``overlap``, ``status``,
    ``reason`` and ``duplicate`` its decisions."""
    size = params.shingle_size
    minhasher = hasher(params.minhash_permutations)
    signatures = pool_signatures._gather(rows, {
        k: minhasher.term_hash_signatures(h, [0, len(h)], size) for k, h in replaced.items()})
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
    for kept, sim in zip(result.kept, result.max_similarity):
        overlap[survivors[kept]] = sim
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


def _with_metadata(chunks: tuple, metadata: list | None) -> tuple:
    """Set each chunk's ``metadata`` slot (the one build_chunks leaves): the candidate's own."""
    for c in chunks:
        object.__setattr__(c, "metadata", None if metadata is None else metadata[c.index])
    return chunks


_INT64_MAX = 2**63 - 1
_NEEDS_TOKENIZER = ("budget_scope 'context': counting the whole context needs a tokenizer "
                    "(count_tokens=..., CLI --tokenizer cl100k_base)")


def _select(params: Params, count: TokenCounter | None, survivors: list, status: list,
            reason: list, order: list, ids: list, rrf: list, ranks: list, dense: bool,
            overlap: list, texts: list, tokens: list, utility: list,
            value: list) -> tuple[str, int | None]:
    """spec §8 over the survivors (fused positions) whose ``status`` is still ``"kept"``:
    fills ``utility`` (u = rrf · (1 − λ · overlap), the receipt's adjusted utility), ``value``
    (from the per-list ``ranks``, :func:`ckn.select.knapsack_values`),
    ``tokens`` (the knapsack weights) and the final statuses and reasons; returns the rendered
    context and its token count (None without a counter).

    Weights: the caller's counts, or with ``count`` each chunk's sanitized text; under
    ``budget_scope="context"`` each chunk's fenced block, the context's fixed part taken off
    the budget first and the rendered whole checked against the budget
    (:func:`ckn.select.choose_within`)."""
    kept = [pos for pos in survivors if status[pos] == "kept"]
    lam = params.redundancy_lambda
    for pos in kept:
        utility[pos] = rrf[order[pos]] * (1.0 - lam * overlap[pos])
    weights = {**DEFAULT_RRF_WEIGHTS, **params.rrf_weights}
    for pos, v in zip(kept, knapsack_values(
            [ranks[pos] for pos in kept], [overlap[pos] for pos in kept],
            weights=(weights["bm25"], weights["dense"]), k=params.relevance_k,
            power=params.relevance_power, lam=lam, scale=params.utility_scale, dense=dense)):
        value[pos] = v
    if params.top_k is not None:
        for pos in kept[params.top_k:]:
            status[pos] = "not_selected"
            reason[pos] = f"below the candidate cap: only the first top_k = {params.top_k} survivors compete"
        kept = kept[:params.top_k]
    budget = params.token_budget
    for pos in kept:  # the knapsack weighs int64: a fitting count beyond it cannot be weighed
        if _INT64_MAX < tokens[pos] <= budget:
            i = order[pos]
            raise CknValueError(f"candidates[{i}] ({ids[i]!r}): {tokens[pos]} tokens do not fit "
                                f"in the knapsack's int64 weights; lower token_budget below 2**63")
    pairs = [(ids[order[pos]], texts[pos]) for pos in kept]
    values = [value[pos] for pos in kept]
    if params.budget_scope == "context":
        if count is None:
            raise CknValueError(_NEEDS_TOKENIZER)

        def measure(chosen: tuple[int, ...]) -> int:
            return count(_render([pairs[k] for k in chosen], params.preamble, params.fence))

        fixed, weights = layout_sizes(pairs, count, params.preamble, params.fence)
        chosen, _ = choose_within(weights, values, budget, fixed, measure,
                                  max_memory=params.max_memory)
    else:
        weights = ([count(text) for _, text in pairs] if count is not None
                   else [tokens[pos] for pos in kept])
        chosen = choose(weights, values, min(budget, _INT64_MAX), max_memory=params.max_memory)
    for pos, w in zip(kept, weights):
        tokens[pos] = w
    for k in chosen:
        status[kept[k]] = "selected"
        reason[kept[k]] = "in the optimal subset"
    for pos in kept:
        if status[pos] == "kept":
            status[pos] = "not_selected"
            reason[pos] = (f"{tokens[pos]} tokens exceed the budget of {budget}"
                           if tokens[pos] > budget else
                           "not in the optimal subset under the token budget")
    context = _render([pairs[k] for k in chosen], params.preamble, params.fence)
    return context, None if count is None else count(context)


_DEFAULT = Packer()


def rank(pool: Mapping | None = None, /, *,
         query=_UNSET, query_embedding=_UNSET, candidates=_UNSET, embeddings=_UNSET,
         bm25_k1=_UNSET, bm25_b=_UNSET, rrf_k=_UNSET, rrf_weights=_UNSET, shingle_size=_UNSET,
         minhash_permutations=_UNSET, near_dup_threshold=_UNSET, dedup_exact=_UNSET,
         sanitize=_UNSET, dedup=_UNSET, redundancy_lambda=_UNSET, utility_scale=_UNSET,
         relevance_k=_UNSET, relevance_power=_UNSET, top_k=_UNSET, budget_scope=_UNSET,
         fence=_UNSET, preamble=_UNSET, max_memory=_UNSET, token_budget=_UNSET) -> RankResult:
    """Rank a pool (spec §5): ``rank(pool_dict)`` or ``rank(query=..., candidates=..., ...)``;
    the options of :class:`Packer`."""
    return _DEFAULT.rank(pool, **_given(locals()))


def sanitize(pool: Mapping | None = None, /, *, detector: Detector | None = None,
             query=_UNSET, query_embedding=_UNSET, candidates=_UNSET, embeddings=_UNSET,
             bm25_k1=_UNSET, bm25_b=_UNSET, rrf_k=_UNSET, rrf_weights=_UNSET, shingle_size=_UNSET,
             minhash_permutations=_UNSET, near_dup_threshold=_UNSET, dedup_exact=_UNSET,
             sanitize=_UNSET, dedup=_UNSET, redundancy_lambda=_UNSET, utility_scale=_UNSET,
             relevance_k=_UNSET, relevance_power=_UNSET, top_k=_UNSET, budget_scope=_UNSET,
             fence=_UNSET, preamble=_UNSET, max_memory=_UNSET,
             token_budget=_UNSET) -> SanitizeResult:
    """Rank, redact and dedup a pool (spec §5–§7); arguments as for :func:`rank`, plus the
    optional ``detector`` of :class:`Packer`."""
    packer = _DEFAULT if detector is None else Packer(detector=detector)
    return packer.sanitize(pool, **_given(locals()))


def pack(pool: Mapping | None = None, /, *, count_tokens: TokenCounter | None = None,
         detector: Detector | None = None,
         query=_UNSET, query_embedding=_UNSET, candidates=_UNSET, embeddings=_UNSET,
         bm25_k1=_UNSET, bm25_b=_UNSET, rrf_k=_UNSET, rrf_weights=_UNSET, shingle_size=_UNSET,
         minhash_permutations=_UNSET, near_dup_threshold=_UNSET, dedup_exact=_UNSET,
         sanitize=_UNSET, dedup=_UNSET, redundancy_lambda=_UNSET, utility_scale=_UNSET,
         relevance_k=_UNSET, relevance_power=_UNSET, top_k=_UNSET, budget_scope=_UNSET,
         fence=_UNSET, preamble=_UNSET, max_memory=_UNSET, token_budget=_UNSET) -> PackResult:
    """The whole flow (spec §1): ``pack(pool_dict, token_budget=...)`` or
    ``pack(query=..., candidates=..., token_budget=..., query_embedding=...)``.

    ``query``, ``query_embedding``, ``candidates`` and ``embeddings`` are the pool's fields
    (spec §3); given here, they and the options override ``pool``'s own.
    ``count_tokens`` (optional) recounts each surviving chunk's sanitized text before packing;
    ``detector`` (optional) is :class:`Packer`'s.
    """
    packer = (_DEFAULT if count_tokens is None and detector is None
              else Packer(count_tokens=count_tokens, detector=detector))
    return packer.pack(pool, **_given(locals()))


pack.__doc__ += _OPTIONS_DOC
