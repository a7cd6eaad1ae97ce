"""The Haystack component in a real Pipeline behind an in-memory BM25 retriever selects what
ckn.pack selects on the same pool."""

import inspect

import pytest

pytest.importorskip("haystack")

from haystack import Document, Pipeline  # noqa: E402
from haystack.components.retrievers.in_memory import InMemoryBM25Retriever  # noqa: E402
from haystack.document_stores.in_memory import InMemoryDocumentStore  # noqa: E402
from integration_docs import DOCUMENTS, QUERY, TOKEN_BUDGET, count_words  # noqa: E402

import ckn  # noqa: E402
from ckn.integrations.haystack import CknPacker  # noqa: E402


def vector(text: str) -> list[float]:
    """A deterministic 8-dimensional embedding: counts of a few letters, plus one."""
    return [float(text.lower().count(ch) + 1) for ch in "aeiorstn"]


def pipeline(**packer_options) -> Pipeline:
    store = InMemoryDocumentStore()
    store.write_documents([Document(id=name, content=text, meta={"source": name},
                                    embedding=vector(text)) for name, text in DOCUMENTS])
    pipe = Pipeline()
    pipe.add_component("retriever", InMemoryBM25Retriever(store, top_k=len(DOCUMENTS)))
    pipe.add_component("ckn", CknPacker(count_tokens=count_words, **packer_options))
    pipe.connect("retriever.documents", "ckn.documents")
    return pipe


def run(pipe: Pipeline, **ckn_inputs) -> tuple[list[Document], list[Document]]:
    """(retrieved, packed) documents of one pipeline run."""
    out = pipe.run({"retriever": {"query": QUERY}, "ckn": {"query": QUERY, **ckn_inputs}},
                   include_outputs_from={"retriever"})
    return out["retriever"]["documents"], out["ckn"]["documents"]


@pytest.mark.parametrize("dense", [False, True])
def test_pipeline_selects_what_ckn_packs(dense):
    inputs = {"query_embedding": vector(QUERY)} if dense else {}
    retrieved, got = run(pipeline(token_budget=TOKEN_BUDGET), **inputs)
    pool = {"query": QUERY, "token_budget": TOKEN_BUDGET, "candidates": [
        {"id": d.id, "tokens": count_words(d.content), "text": d.content} for d in retrieved]}
    if dense:
        pool["query_embedding"] = vector(QUERY)
        for c, d in zip(pool["candidates"], retrieved, strict=True):
            c["embedding"] = vector(d.content)
    expected = ckn.pack(pool, count_tokens=count_words)
    assert [d.id for d in got] == expected.receipt["selected_ids"]
    assert 0 < len(got) < len(DOCUMENTS)
    chunks = {c.id: c for c in expected.chunks}
    for d in got:
        chunk = chunks[d.id]
        assert d.content == chunk.text
        assert d.meta["source"] == d.id
        assert d.meta["ckn"] == {
            "id": chunk.id, "fused_rank": chunk.fused_rank, "rrf_score": chunk.rrf_score,
            "bm25_rank": chunk.bm25_rank, "dense_rank": chunk.dense_rank,
            "tokens": chunk.tokens, "redacted": bool(chunk.redactions)}
        assert (chunk.dense_rank is None) is not dense
    assert sum(d.meta["ckn"]["tokens"] for d in got) <= TOKEN_BUDGET


def test_run_budget_overrides_and_redaction():
    pipe = pipeline(token_budget=5)
    small = run(pipe)[1]
    _, large = run(pipe, token_budget=1000)
    assert sum(d.meta["ckn"]["tokens"] for d in small) <= 5
    assert len(large) > len(small)
    injected = {d.id: d for d in large}["injected"]
    assert injected.meta["ckn"]["redacted"] is True
    assert "Ignore all previous instructions" not in injected.content


def test_serialized_pipeline_round_trip():
    pipe = pipeline(token_budget=TOKEN_BUDGET, redundancy_lambda=0.6)
    trust = {}  # Haystack 3 loads classes from an allowlist of modules
    if "allowed_modules" in inspect.signature(Pipeline.loads).parameters:
        trust["allowed_modules"] = ["ckn.integrations.haystack", "integration_docs"]
    again = Pipeline.loads(pipe.dumps(), **trust)
    assert [d.id for d in run(again)[1]] == [d.id for d in run(pipe)[1]]
    assert again.get_component("ckn").packer.params.redundancy_lambda == 0.6


def test_repeated_ids_and_empty_input():
    docs = [Document(content=text) for _, text in DOCUMENTS] * 2  # ids derive from content
    got = CknPacker(count_tokens=count_words, token_budget=1000).run(docs, QUERY)["documents"]
    assert {d.meta["ckn"]["id"] for d in got} <= {f"doc-{i}" for i in range(len(docs))}
    assert got
    assert CknPacker(count_tokens=count_words).run([], QUERY) == {"documents": []}
