"""Inputs users have: candidate metadata carried through, one 2-D embeddings matrix."""

import array
import json

import pytest

import ckn


def test_metadata_is_carried_through_unchanged_and_never_read():
    pool = ckn.example_pool()
    meta = [{"source": f"doc{i}", "page": i, "nested": {"a": [1, 2]}}
            for i in range(len(pool["candidates"]))]
    for c, m in zip(pool["candidates"], meta):
        c["metadata"] = m
    result = ckn.pack(pool)
    assert result.receipt == ckn.pack(ckn.example_pool()).receipt
    for c in result.chunks:
        assert c.metadata is meta[c.index]
    explained = {c["id"]: c["metadata"] for c in result.explain()["chunks"]}
    assert explained["chunk.alarm-retry-spec"] == meta[0]
    assert all(c.metadata is None for c in ckn.pack(ckn.example_pool()).chunks)


def test_metadata_must_be_an_object():
    pool = ckn.example_pool()
    pool["candidates"][2]["metadata"] = [1, 2]
    with pytest.raises(ckn.InputTypeError, match=r"candidates\[2\]\.metadata: expected an object"):
        ckn.pack(pool)


@pytest.mark.parametrize("typecode", ["f", "d"])
def test_an_embeddings_matrix_equals_per_candidate_embeddings(typecode):
    np = pytest.importorskip("numpy")
    pool = ckn.example_pool()
    rows = [c.pop("embedding") for c in pool["candidates"]]
    matrix = np.array(rows, dtype={"f": np.float32, "d": np.float64}[typecode])
    by_matrix = ckn.pack(pool, embeddings=matrix)
    reference = ckn.example_pool()
    for c, row in zip(reference["candidates"], matrix):
        c["embedding"] = array.array(typecode, row.tolist())
    assert by_matrix.receipt == ckn.pack(reference).receipt
    assert [c.dense_score for c in by_matrix.chunks] == [
        c.dense_score for c in ckn.pack(reference).chunks]


def test_an_embeddings_matrix_is_checked():
    np = pytest.importorskip("numpy")
    pool = ckn.example_pool()
    matrix = np.array([c["embedding"] for c in pool["candidates"]], dtype=np.float32)
    with pytest.raises(ckn.InputError, match="given twice"):
        ckn.pack(pool, embeddings=matrix)
    for c in pool["candidates"]:
        del c["embedding"]
    with pytest.raises(ckn.InputError, match="expected 5 rows"):
        ckn.pack(pool, embeddings=matrix[:3])
    with pytest.raises(ckn.InputTypeError, match="2-D float32 or float64"):
        ckn.pack(pool, embeddings=matrix.astype(np.int32))
    with pytest.raises(ckn.InputTypeError, match="2-D float32 or float64"):
        ckn.pack(pool, embeddings=[[0.1] * 4] * 5)
    json.dumps(ckn.pack(pool, embeddings=matrix).receipt)


def test_trusted_corpora_can_turn_sanitizing_and_dedup_off():
    pool = ckn.example_pool()
    pool["candidates"].append({"id": "blank", "tokens": 0, "text": "  \n "})
    plain = ckn.pack(pool, sanitize=False)
    assert plain.receipt["sanitized_chunk_ids"] == []
    note = {c.id: c for c in plain.chunks}["chunk.injected-note"]
    original = next(c["text"] for c in pool["candidates"] if c["id"] == "chunk.injected-note")
    assert note.text == original and note.redactions == ()
    assert set(plain.receipt["dropped_chunk_ids"]) == {"chunk.alarm-retry-dup", "blank"}
    kept = ckn.pack(pool, dedup=False)
    assert set(kept.receipt["dropped_chunk_ids"]) == {"chunk.pure-injection", "blank"}
    assert all(c.overlap == 0.0 for c in kept.chunks if c.overlap is not None)
    assert kept.explain()["parameters"]["dedup"] is False
    assert plain.explain()["parameters"]["sanitize"] is False
    assert ckn.pack(pool).receipt == ckn.pack(pool, sanitize=True, dedup=True).receipt
