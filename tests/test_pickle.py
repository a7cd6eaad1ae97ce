"""Packer, Params and the results pickle with the standard module (what process pools and Dask
send between processes) and come back equal."""

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ckn
from ckn import Packer, Params


def count_words(text: str) -> int:
    """A module-level token counter (picklable by reference)."""
    return len(text.split())


def roundtrip(obj):
    return pickle.loads(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL))


@pytest.mark.parametrize("protocol", range(2, pickle.HIGHEST_PROTOCOL + 1))
def test_params_roundtrip_equal(protocol):
    params = Params.from_mapping({"rrf_weights": {"dense": 2.5}, "token_budget": 40,
                                  "shingle_size": 2})
    back = pickle.loads(pickle.dumps(params, protocol=protocol))
    assert back == params
    assert back.as_dict() == params.as_dict()
    with pytest.raises(TypeError):  # still a read-only view after the trip
        back.rrf_weights["dense"] = 1.0


unit = st.floats(0, 1, exclude_min=True)
PARAMS = st.fixed_dictionaries({}, optional={
    "bm25_k1": st.floats(0, 10), "bm25_b": st.floats(0, 1), "rrf_k": st.integers(0, 200),
    "rrf_weights": st.dictionaries(st.sampled_from(["bm25", "dense"]), st.floats(0, 5)),
    "shingle_size": st.integers(1, 6), "minhash_permutations": st.integers(1, 256),
    "near_dup_threshold": unit, "dedup_exact": st.booleans(),
    "redundancy_lambda": st.floats(0, 1), "utility_scale": st.floats(1, 1e9),
    "token_budget": st.none() | st.integers(0, 10**6)})


@given(PARAMS)
def test_any_valid_parameters_roundtrip(values):
    packer = Packer(**values)
    back = roundtrip(packer)
    assert back.params == packer.params == Params.from_mapping(values)
    assert repr(back) == repr(packer)


def test_packer_roundtrip_keeps_configuration_and_results():
    pool = ckn.example_pool()
    packer = Packer(count_tokens=count_words, rrf_weights={"bm25": 0.5}, redundancy_lambda=0.6)
    packer.pack(pool)  # fills the MinHasher cache, which is not part of the pickle
    back = roundtrip(packer)
    assert repr(back) == repr(packer)
    assert back.params == packer.params
    assert back.pack(pool) == packer.pack(pool)
    selected = [c for c in back.pack(pool).chunks if c.status == "selected"]
    assert selected and all(c.tokens == count_words(c.text) for c in selected)  # recounted


def test_default_packer_roundtrip():
    back = roundtrip(Packer())
    assert back.params == Params()
    assert back.pack(ckn.example_pool()).receipt == ckn.pack(ckn.example_pool()).receipt


@pytest.mark.parametrize("stage", [ckn.rank, ckn.sanitize, ckn.pack])
def test_results_roundtrip_equal(stage):
    result = stage(ckn.example_pool())
    back = roundtrip(result)
    assert type(back) is type(result)
    assert back == result
    assert back.as_dict() == result.as_dict()
    if stage is ckn.pack:
        assert back.context == result.context
        assert back.receipt == result.receipt
