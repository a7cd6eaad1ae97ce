"""LlamaIndex: ckn as a node postprocessor (``pip install 'context-knapsack[llama-index]'``).

:class:`CknPostprocessor` is a ``llama_index.core`` ``BaseNodePostprocessor``: pass it in
``node_postprocessors`` of a query engine and the retrieved nodes come back ranked (BM25 + dense
RRF), redacted, deduplicated and cut to the knapsack optimum under a token budget. Importing this
module imports ``llama_index.core``.
"""

from collections.abc import Callable
from typing import Any

from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.schema import MetadataMode, NodeWithScore, QueryBundle

from ..errors import CknValueError
from ..pipeline import Packer
from ._core import diagnostics, make_packer, pack_documents

__all__ = ["CknPostprocessor"]


class CknPostprocessor(BaseNodePostprocessor):
    """Pack retrieved nodes with :class:`ckn.Packer`.

    Args:
        count_tokens: required; ``str -> int``, the token count of a text in the tokenizer of
            the LLM the context is for (e.g. ``lambda s: len(enc.encode(s))`` with tiktoken).
            It gives each node's ``tokens`` and recounts the sanitized texts.
        token_budget: the knapsack capacity in tokens (or set it on ``packer``).
        embed_model: optional; embeds the query when the ``QueryBundle`` carries no embedding
            and the nodes that carry none (one batch call). Without it ckn uses
            ``QueryBundle.embedding`` and ``node.embedding`` where present (a node without one
            gets no dense term) and ranks by BM25 alone when the query has none.
        packer: a ready :class:`ckn.Packer` (then give no ckn parameters here).
        **options: ckn parameters for a new Packer (``redundancy_lambda=0.5`` …).

    Returns the selected nodes in fused order, each a copy whose content is the sanitized text
    (redacted lines replaced by ckn's marker) and whose ``metadata["ckn"]`` holds ``id`` (the
    node id), ``fused_rank``, ``rrf_score``, ``bm25_rank``, ``dense_rank``, ``tokens`` and
    ``redacted``; the key is excluded from the LLM and embedding views of the metadata. Scores
    are the retriever's, unchanged. Text is read with ``MetadataMode.NONE``.
    """

    count_tokens: Callable[[str], int]
    token_budget: int | None = None
    embed_model: BaseEmbedding | None = None
    packer: Packer

    def __init__(self, *, count_tokens: Callable[[str], int], token_budget: int | None = None,
                 embed_model: BaseEmbedding | None = None, packer: Packer | None = None,
                 **options: Any):
        super().__init__(count_tokens=count_tokens, token_budget=token_budget,
                         embed_model=embed_model,
                         packer=make_packer(packer, count_tokens, options))

    @classmethod
    def class_name(cls) -> str:
        return "CknPostprocessor"

    def _postprocess_nodes(self, nodes: list[NodeWithScore],
                           query_bundle: QueryBundle | None = None) -> list[NodeWithScore]:
        if query_bundle is None:
            raise CknValueError("CknPostprocessor needs the query (a QueryBundle)")
        if not nodes:
            return []
        texts = [n.node.get_content(metadata_mode=MetadataMode.NONE) for n in nodes]
        embeddings = [n.node.embedding for n in nodes]
        query_embedding = query_bundle.embedding
        if self.embed_model is not None:
            if query_embedding is None:
                query_embedding = self.embed_model.get_agg_embedding_from_queries(
                    query_bundle.embedding_strs)
            missing = [i for i, e in enumerate(embeddings) if e is None]
            if missing:
                vectors = self.embed_model.get_text_embedding_batch([texts[i] for i in missing])
                for i, vector in zip(missing, vectors, strict=True):
                    embeddings[i] = vector
        chosen = pack_documents(self.packer, [n.node.node_id for n in nodes], texts, embeddings,
                                query_bundle.query_str, query_embedding, self.count_tokens,
                                self.token_budget)
        out = []
        for i, chunk in chosen:
            node = nodes[i].node
            copy = node.model_copy(update={
                "metadata": {**node.metadata, "ckn": diagnostics(chunk)},
                "excluded_llm_metadata_keys": [*node.excluded_llm_metadata_keys, "ckn"],
                "excluded_embed_metadata_keys": [*node.excluded_embed_metadata_keys, "ckn"]})
            copy.set_content(chunk.text)
            out.append(NodeWithScore(node=copy, score=nodes[i].score))
        return out
