"""ckn.tokenizer: resolving a token counter, its cache and its checks."""

import pytest

import ckn
from ckn.tokenizer import resolve_tokenizer


def test_token_counter_caches_and_rejects_bad_counts():
    calls = []
    counter = resolve_tokenizer(lambda text: calls.append(text) or len(text))
    assert counter.count_many(["ab", "ab", "abc"]) == [2, 2, 3] and calls == ["ab", "abc"]
    with pytest.raises(ckn.CknValueError, match="count_tokens"):
        resolve_tokenizer(lambda text: -1)("x")
    with pytest.raises(ckn.CknValueError, match="unknown encoding 'gpt2'"):
        resolve_tokenizer("gpt2")
    with pytest.raises(ckn.CknTypeError, match="expected an encoding name"):
        resolve_tokenizer(42)
