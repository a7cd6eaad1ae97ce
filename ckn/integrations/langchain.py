"""LangChain: ckn as a document compressor (``pip install 'context-knapsack[langchain]'``).

:class:`CknCompressor` is a ``langchain_core`` ``BaseDocumentCompressor``: put it in a
``ContextualCompressionRetriever`` (package ``langchain-classic``) behind any retriever and the
retrieved documents come back ranked (BM25 + dense RRF), redacted, deduplicated and cut to the
knapsack optimum under a token budget. Importing this module imports ``langchain_core``.
"""

from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.callbacks import Callbacks
from langchain_core.documents import BaseDocumentCompressor, Document
from langchain_core.embeddings import Embeddings
from langchain_core.runnables import run_in_executor
from pydantic import ConfigDict

from ..pipeline import Packer
from ._core import diagnostics, make_packer, pack_documents

__all__ = ["CknCompressor"]


class CknCompressor(BaseDocumentCompressor):
    """Pack retrieved documents with :class:`ckn.Packer`.

    Args:
        count_tokens: required; ``str -> int``, the token count of a text in the tokenizer of
            the model the context is for (e.g. ``lambda s: len(enc.encode(s))`` with tiktoken).
            It gives each document's ``tokens`` and recounts the sanitized texts.
        token_budget: the knapsack capacity in tokens (or set it on ``packer``).
        embeddings: optional LangChain ``Embeddings``; with it the query and the documents are
            embedded (one ``embed_documents`` call per compression) and ranked by cosine too;
            without it ranking is BM25 alone.
        packer: a ready :class:`ckn.Packer` (then give no ckn parameters here).
        **options: ckn parameters for a new Packer (``redundancy_lambda=0.5`` …).

    ``compress_documents`` returns the selected documents in fused order: copies whose
    ``page_content`` is the sanitized text (redacted lines replaced by ckn's marker) and whose
    ``metadata["ckn"]`` holds ``id``, ``fused_rank``, ``rrf_score``, ``bm25_rank``,
    ``dense_rank``, ``tokens`` and ``redacted``. Documents without distinct ids are named
    ``doc-<position>`` in the pool. One pack per call: O(total text) plus the knapsack's
    O(n · budget).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    count_tokens: Callable[[str], int]
    token_budget: int | None = None
    embeddings: Embeddings | None = None
    packer: Packer

    def __init__(self, *, count_tokens: Callable[[str], int], token_budget: int | None = None,
                 embeddings: Embeddings | None = None, packer: Packer | None = None,
                 **options: Any):
        super().__init__(count_tokens=count_tokens, token_budget=token_budget,
                         embeddings=embeddings,
                         packer=make_packer(packer, count_tokens, options))

    def _pack(self, documents: Sequence[Document], query: str, query_embedding,
              embeddings) -> list[Document]:
        texts = [d.page_content for d in documents]
        chosen = pack_documents(self.packer, [d.id for d in documents], texts, embeddings,
                                query, query_embedding, self.count_tokens, self.token_budget)
        return [documents[i].model_copy(update={
            "page_content": chunk.text,
            "metadata": {**documents[i].metadata, "ckn": diagnostics(chunk)}})
            for i, chunk in chosen]

    def compress_documents(self, documents: Sequence[Document], query: str,
                           callbacks: Callbacks | None = None) -> Sequence[Document]:
        """The selected documents in fused order (see the class docstring)."""
        query_embedding = embeddings = None
        if self.embeddings is not None and documents:
            query_embedding = self.embeddings.embed_query(query)
            embeddings = self.embeddings.embed_documents([d.page_content for d in documents])
        return self._pack(documents, query, query_embedding, embeddings)

    async def acompress_documents(self, documents: Sequence[Document], query: str,
                                  callbacks: Callbacks | None = None) -> Sequence[Document]:
        """:meth:`compress_documents` with the async embedding calls; the pack runs in the
        default executor."""
        query_embedding = embeddings = None
        if self.embeddings is not None and documents:
            query_embedding = await self.embeddings.aembed_query(query)
            embeddings = await self.embeddings.aembed_documents(
                [d.page_content for d in documents])
        return await run_in_executor(None, self._pack, documents, query, query_embedding,
                                     embeddings)
