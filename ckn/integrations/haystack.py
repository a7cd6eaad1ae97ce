"""Haystack: ckn as a pipeline component (``pip install 'context-knapsack[haystack]'``).

:class:`CknPacker` is a Haystack ``@component``: connect a retriever's ``documents`` to it
and its ``documents`` output holds the retrieved documents ranked (BM25 + dense RRF), redacted,
deduplicated and cut to the knapsack optimum under a token budget. Importing this module imports
``haystack``.
"""

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from haystack import Document, component, default_from_dict, default_to_dict
from haystack.utils import deserialize_callable, serialize_callable

from ..pipeline import Packer
from ._core import diagnostics, make_packer, pack_documents

__all__ = ["CknPacker"]


@component
class CknPacker:
    """Pack retrieved documents with :class:`ckn.Packer`.

    Args:
        count_tokens: required; ``str -> int``, the token count of a text in the tokenizer of
            the LLM the context is for (e.g. ``lambda s: len(enc.encode(s))`` with tiktoken;
            an importable function if the pipeline is serialized). It gives each document's
            ``tokens`` and recounts the sanitized texts.
        token_budget: the default knapsack capacity in tokens (``run`` may override it).
        packer: a ready :class:`ckn.Packer` (then give no ckn parameters here).
        **options: ckn parameters for a new Packer (``redundancy_lambda=0.5`` …).

    Dense ranking uses ``Document.embedding`` where present when ``run`` gets a
    ``query_embedding`` (e.g. from a text embedder); otherwise BM25 alone.
    """

    def __init__(self, *, count_tokens: Callable[[str], int], token_budget: int | None = None,
                 packer: Packer | None = None, **options: Any):
        self.count_tokens = count_tokens
        self.token_budget = token_budget
        self.packer = make_packer(packer, count_tokens, options)

    def to_dict(self) -> dict[str, Any]:
        """Serialize: ``count_tokens`` by import path, the budget and the ckn parameters."""
        return default_to_dict(self, count_tokens=serialize_callable(self.count_tokens),
                               token_budget=self.token_budget,
                               **self.packer.__getstate__()["params"])

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "CknPacker":
        """Inverse of :meth:`to_dict`."""
        init = data["init_parameters"]
        init["count_tokens"] = deserialize_callable(init["count_tokens"])
        return default_from_dict(cls, data)

    @component.output_types(documents=list[Document])
    def run(self, documents: list[Document], query: str, token_budget: int | None = None,
            query_embedding: list[float] | None = None) -> dict[str, list[Document]]:
        """The selected documents in fused order: copies whose ``content`` is the sanitized
        text (redacted lines replaced by ckn's marker) and whose ``meta["ckn"]`` holds ``id``,
        ``fused_rank``, ``rrf_score``, ``bm25_rank``, ``dense_rank``, ``tokens`` and
        ``redacted``; scores are the retriever's. ``token_budget`` overrides the component's.
        Documents are named by their ids in the pool, or ``doc-<position>`` when ids repeat
        (Haystack derives ids from content)."""
        budget = self.token_budget if token_budget is None else token_budget
        chosen = pack_documents(self.packer, [d.id for d in documents],
                                [d.content or "" for d in documents],
                                [d.embedding for d in documents], query, query_embedding,
                                self.count_tokens, budget)
        return {"documents": [replace(documents[i], content=chunk.text,
                                      meta={**documents[i].meta, "ckn": diagnostics(chunk)})
                              for i, chunk in chosen]}
