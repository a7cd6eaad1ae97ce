"""The LlamaIndex postprocessor in a real RetrieverQueryEngine (MockLLM, a local embedding
model, no network) selects what ckn.pack selects on the same pool."""

import pytest

pytest.importorskip("llama_index.core")

from integration_docs import DOCUMENTS, QUERY, TOKEN_BUDGET, count_words  # noqa: E402
from llama_index.core import VectorStoreIndex  # noqa: E402
from llama_index.core.base.embeddings.base import BaseEmbedding  # noqa: E402
from llama_index.core.llms import MockLLM  # noqa: E402
from llama_index.core.query_engine import RetrieverQueryEngine  # noqa: E402
from llama_index.core.schema import MetadataMode, NodeWithScore, QueryBundle, TextNode  # noqa: E402

import ckn  # noqa: E402
from ckn.integrations.llama_index import CknPostprocessor  # noqa: E402

LETTERS = "abcdefghilmnorst"


def letter_vector(text: str) -> list[float]:
    """A deterministic 16-dimensional embedding: letter counts (plus one, never all zero)."""
    low = text.lower()
    return [float(low.count(ch) + 1) for ch in LETTERS]


class LetterEmbedding(BaseEmbedding):
    """A local embedding model for the test: :func:`letter_vector`."""

    def _get_query_embedding(self, query: str) -> list[float]:
        return letter_vector(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        return letter_vector(text)

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return letter_vector(query)


def nodes():
    return [TextNode(text=text, id_=name, metadata={"source": name}) for name, text in DOCUMENTS]


@pytest.fixture(scope="module")
def index():
    return VectorStoreIndex(nodes(), embed_model=LetterEmbedding())


def reference(retrieved, with_dense):
    pool = {"query": QUERY, "token_budget": TOKEN_BUDGET, "candidates": []}
    for n in retrieved:
        text = n.node.get_content(metadata_mode=MetadataMode.NONE)
        candidate = {"id": n.node.node_id, "tokens": count_words(text), "text": text}
        if with_dense:
            candidate["embedding"] = letter_vector(text)
        pool["candidates"].append(candidate)
    if with_dense:
        pool["query_embedding"] = letter_vector(QUERY)
    return ckn.pack(pool, count_tokens=count_words)


@pytest.mark.parametrize("with_embed_model", [False, True])
def test_query_engine_selects_what_ckn_packs(index, with_embed_model):
    postprocessor = CknPostprocessor(
        count_tokens=count_words, token_budget=TOKEN_BUDGET,
        embed_model=LetterEmbedding() if with_embed_model else None)
    retriever = index.as_retriever(similarity_top_k=len(DOCUMENTS))
    engine = RetrieverQueryEngine.from_args(retriever, llm=MockLLM(),
                                            node_postprocessors=[postprocessor])
    response = engine.query(QUERY)
    got = response.source_nodes
    # The retriever embeds the query into the bundle: dense ranking without an embed_model
    # too, but the stored nodes carry no embedding, so only the embed_model gives them one.
    expected = reference(retriever.retrieve(QUERY), with_dense=with_embed_model)
    assert [n.node.node_id for n in got] == expected.receipt["selected_ids"]
    assert 0 < len(got) < len(DOCUMENTS)
    chunks = {c.id: c for c in expected.chunks}
    for n in got:
        chunk = chunks[n.node.node_id]
        assert n.node.get_content(metadata_mode=MetadataMode.NONE) == chunk.text
        assert n.node.metadata["source"] == n.node.node_id
        assert n.node.metadata["ckn"] == {
            "id": chunk.id, "fused_rank": chunk.fused_rank, "rrf_score": chunk.rrf_score,
            "bm25_rank": chunk.bm25_rank, "dense_rank": chunk.dense_rank,
            "tokens": chunk.tokens, "redacted": bool(chunk.redactions)}
        assert (chunk.dense_rank is None) is not with_embed_model
        assert "ckn" not in n.node.get_content(metadata_mode=MetadataMode.LLM)
    assert sum(n.node.metadata["ckn"]["tokens"] for n in got) <= TOKEN_BUDGET


def test_bundle_and_node_embeddings_are_used():
    given = [NodeWithScore(node=TextNode(text=text, id_=name, embedding=letter_vector(text)),
                           score=0.5) for name, text in DOCUMENTS]
    bundle = QueryBundle(QUERY, embedding=letter_vector(QUERY))
    postprocessor = CknPostprocessor(count_tokens=count_words, token_budget=TOKEN_BUDGET,
                                     redundancy_lambda=0.6)
    got = postprocessor.postprocess_nodes(given, bundle)
    pool = {"query": QUERY, "query_embedding": letter_vector(QUERY),
            "token_budget": TOKEN_BUDGET, "redundancy_lambda": 0.6, "candidates": [
                {"id": name, "tokens": count_words(text), "text": text,
                 "embedding": letter_vector(text)} for name, text in DOCUMENTS]}
    assert [n.node.node_id for n in got] == \
        ckn.pack(pool, count_tokens=count_words).receipt["selected_ids"]
    assert all(n.node.metadata["ckn"]["dense_rank"] is not None for n in got)
    assert all(n.score == 0.5 for n in got)
    assert given[2].node.get_content() == DOCUMENTS[2][1]  # the input nodes are not changed


def test_redaction_and_empty_input():
    postprocessor = CknPostprocessor(count_tokens=count_words, token_budget=1000)
    got = {n.node.node_id: n for n in postprocessor.postprocess_nodes(
        [NodeWithScore(node=node) for node in nodes()], query_str=QUERY)}
    injected = got["injected"].node
    assert injected.metadata["ckn"]["redacted"] is True
    assert "Ignore all previous instructions" not in injected.get_content()
    assert postprocessor.postprocess_nodes([], query_str=QUERY) == []
