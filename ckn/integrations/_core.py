"""What every adapter shares: framework documents as a ckn pool, packed, and the diagnostics.

An adapter reduces its framework's documents to ``(id, text, embedding)`` triples; this module
builds the pool (token counts from the caller's ``count_tokens``), runs
:meth:`ckn.Packer.pack` once and hands back the selected candidates in fused order, each with
its sanitized text and a plain-dict summary of ckn's decision for the document's metadata.
"""

from collections.abc import Callable, Mapping, Sequence

from ..errors import CknTypeError
from ..pipeline import Chunk, Packer

__all__ = ["build_pool", "diagnostics", "document_ids", "make_packer", "pack_documents"]

TokenCounter = Callable[[str], int]
Selected = tuple[int, Chunk]  # (index of the document in the input, its record)


def make_packer(packer: Packer | None, count_tokens: TokenCounter,
                options: Mapping) -> Packer:
    """``packer`` as given, or a new :class:`~ckn.Packer` that recounts sanitized texts with
    ``count_tokens`` and takes ``options`` (ckn parameters). Giving both is an error."""
    if not callable(count_tokens):
        raise CknTypeError("count_tokens: expected a callable str -> int (the tokenizer of the "
                           f"model the context is for), got {count_tokens!r}")
    if packer is None:
        return Packer(count_tokens=count_tokens, **options)
    if not isinstance(packer, Packer):
        raise CknTypeError(f"packer: expected a ckn.Packer, got {packer!r}")
    if options:
        raise CknTypeError(f"give ckn parameters either to the Packer or here, not both: "
                           f"{sorted(options)}")
    return packer


def document_ids(ids: Sequence) -> list[str]:
    """The framework's ids when every document has a distinct non-empty string id; else
    ``"doc-0"``, ``"doc-1"`` … by input position for all (stable across runs and processes)."""
    if all(isinstance(i, str) and i for i in ids) and len(set(ids)) == len(ids):
        return list(ids)
    return [f"doc-{i}" for i in range(len(ids))]


def _vector(values) -> list[float]:
    return [float(x) for x in values]


def build_pool(ids: Sequence, texts: Sequence[str], embeddings: Sequence | None,
               query: str, query_embedding, count_tokens: TokenCounter) -> dict:
    """The ckn pool (spec §3) of the documents: ``tokens`` by ``count_tokens`` of each text;
    embeddings only with a query embedding (an absent one leaves the document out of the dense
    list)."""
    candidates = []
    for i, (cid, text) in enumerate(zip(document_ids(ids), texts, strict=True)):
        candidate = {"id": cid, "tokens": count_tokens(text), "text": text}
        if query_embedding is not None and embeddings is not None and embeddings[i] is not None:
            candidate["embedding"] = _vector(embeddings[i])
        candidates.append(candidate)
    pool = {"query": query, "candidates": candidates}
    if query_embedding is not None:
        pool["query_embedding"] = _vector(query_embedding)
    return pool


def pack_documents(packer: Packer, ids: Sequence, texts: Sequence[str],
                   embeddings: Sequence | None, query: str, query_embedding,
                   count_tokens: TokenCounter, token_budget: int | None) -> list[Selected]:
    """Pack the documents (:func:`build_pool`, then :meth:`Packer.pack`; ``token_budget``, if
    not None, overrides the packer's) and return the selected ones in fused order as
    ``(input index, record)``; the record's ``text`` is the sanitized text. No documents: []."""
    if not texts:
        return []
    pool = build_pool(ids, texts, embeddings, query, query_embedding, count_tokens)
    fields = {} if token_budget is None else {"token_budget": token_budget}
    result = packer.pack(pool, **fields)
    return [(c.index, c) for c in result.chunks if c.status == "selected"]


def diagnostics(chunk: Chunk) -> dict:
    """ckn's decision about one selected document, JSON-ready (stored as ``metadata["ckn"]``):
    the pool id, fused rank (1-based), RRF score, BM25 and dense ranks (dense None without
    embeddings), knapsack tokens (the recount of the sanitized text) and whether lines were
    redacted."""
    return {"id": chunk.id, "fused_rank": chunk.fused_rank, "rrf_score": chunk.rrf_score,
            "bm25_rank": chunk.bm25_rank, "dense_rank": chunk.dense_rank,
            "tokens": chunk.tokens, "redacted": bool(chunk.redactions)}
