"""The LangChain compressor inside a real ContextualCompressionRetriever selects what ckn.pack
selects on the same pool, with sanitized texts and ckn's diagnostics in the metadata."""

import asyncio

import pytest

langchain_core = pytest.importorskip("langchain_core")
retrievers = pytest.importorskip("langchain_classic.retrievers")

from integration_docs import DOCUMENTS, QUERY, TOKEN_BUDGET, count_words  # noqa: E402
from langchain_core.documents import Document  # noqa: E402
from langchain_core.embeddings import DeterministicFakeEmbedding  # noqa: E402
from langchain_core.vectorstores import InMemoryVectorStore  # noqa: E402

import ckn  # noqa: E402
from ckn.integrations.langchain import CknCompressor  # noqa: E402


@pytest.fixture(scope="module")
def embedding():
    return DeterministicFakeEmbedding(size=16)


@pytest.fixture(scope="module")
def base_retriever(embedding):
    store = InMemoryVectorStore(embedding)
    store.add_documents([Document(page_content=text, metadata={"source": name}, id=name)
                         for name, text in DOCUMENTS])
    return store.as_retriever(search_kwargs={"k": len(DOCUMENTS)})


def reference(documents, embedding=None):
    """ckn.pack on the pool the adapter should build, assembled here by hand."""
    pool = {"query": QUERY, "token_budget": TOKEN_BUDGET, "candidates": [
        {"id": d.id, "tokens": count_words(d.page_content), "text": d.page_content}
        for d in documents]}
    if embedding is not None:
        pool["query_embedding"] = embedding.embed_query(QUERY)
        for c, d in zip(pool["candidates"], documents, strict=True):
            c["embedding"] = embedding.embed_query(d.page_content)  # the fake embeds alike
    return ckn.pack(pool, count_tokens=count_words)


@pytest.mark.parametrize("with_embeddings", [False, True])
def test_retriever_selects_what_ckn_packs(base_retriever, embedding, with_embeddings):
    compressor = CknCompressor(count_tokens=count_words, token_budget=TOKEN_BUDGET,
                               embeddings=embedding if with_embeddings else None)
    retriever = retrievers.ContextualCompressionRetriever(base_compressor=compressor,
                                                          base_retriever=base_retriever)
    got = retriever.invoke(QUERY)
    expected = reference(base_retriever.invoke(QUERY), embedding if with_embeddings else None)
    assert [d.id for d in got] == expected.receipt["selected_ids"]
    assert 0 < len(got) < len(DOCUMENTS)
    chunks = {c.id: c for c in expected.chunks}
    for d in got:
        chunk = chunks[d.id]
        assert d.page_content == chunk.text
        assert d.metadata["source"] == d.id  # the document's own metadata is kept
        assert d.metadata["ckn"] == {
            "id": d.id, "fused_rank": chunk.fused_rank, "rrf_score": chunk.rrf_score,
            "bm25_rank": chunk.bm25_rank, "dense_rank": chunk.dense_rank,
            "tokens": chunk.tokens, "redacted": bool(chunk.redactions)}
        assert (d.metadata["ckn"]["dense_rank"] is None) is not with_embeddings
    assert [d.metadata["ckn"]["fused_rank"] for d in got] == sorted(
        d.metadata["ckn"]["fused_rank"] for d in got)
    assert sum(d.metadata["ckn"]["tokens"] for d in got) <= TOKEN_BUDGET


def test_redacted_text_is_returned(base_retriever):
    compressor = CknCompressor(count_tokens=count_words, token_budget=1000)
    retriever = retrievers.ContextualCompressionRetriever(base_compressor=compressor,
                                                          base_retriever=base_retriever)
    got = {d.id: d for d in retriever.invoke(QUERY)}
    injected = got["injected"]
    assert injected.metadata["ckn"]["redacted"] is True
    assert "Ignore all previous instructions" not in injected.page_content
    assert injected.page_content.startswith("Retries are logged to the audit trail.")
    assert "spec-copy" not in got or "spec" not in got  # the near-duplicate is dropped


def test_async_matches_sync(base_retriever, embedding):
    compressor = CknCompressor(count_tokens=count_words, token_budget=TOKEN_BUDGET,
                               embeddings=embedding, redundancy_lambda=0.5)
    retriever = retrievers.ContextualCompressionRetriever(base_compressor=compressor,
                                                          base_retriever=base_retriever)
    assert asyncio.run(retriever.ainvoke(QUERY)) == retriever.invoke(QUERY)


def test_documents_without_ids_get_positional_ids():
    docs = [Document(page_content=text) for _, text in DOCUMENTS]
    compressor = CknCompressor(count_tokens=count_words, token_budget=TOKEN_BUDGET)
    got = compressor.compress_documents(docs, QUERY)
    pool = {"query": QUERY, "token_budget": TOKEN_BUDGET, "candidates": [
        {"id": f"doc-{i}", "tokens": count_words(d.page_content), "text": d.page_content}
        for i, d in enumerate(docs)]}
    assert [d.metadata["ckn"]["id"] for d in got] == \
        ckn.pack(pool, count_tokens=count_words).receipt["selected_ids"]
    assert all(d.id is None for d in got)
    assert compressor.compress_documents([], QUERY) == []


def test_ready_packer_and_bad_arguments():
    packer = ckn.Packer(count_tokens=count_words, token_budget=TOKEN_BUDGET)
    compressor = CknCompressor(count_tokens=count_words, packer=packer)
    docs = [Document(page_content=text, id=name) for name, text in DOCUMENTS]
    assert compressor.compress_documents(docs, QUERY)
    with pytest.raises(ckn.CknTypeError):
        CknCompressor(count_tokens=count_words, packer=packer, redundancy_lambda=0.2)
    with pytest.raises(ckn.CknTypeError):
        CknCompressor(count_tokens=None, token_budget=10)
    with pytest.raises(TypeError, match="token_budjet"):  # Packer's options are named
        CknCompressor(count_tokens=count_words, token_budjet=10)
