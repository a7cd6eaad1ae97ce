"""MinHash estimates (spec §7) vs exact Jaccard over random pairs spread across [0, 1]."""

import pytest

mh = pytest.importorskip("ckn.minhash", reason="the ckn.minhash extension is not built")

from verify.checks import check_minhash, shingle_set  # noqa: E402


def test_spec_test_vectors_through_independent_shingles():
    # spec §12: shingle hash of "durable object sqlite" is x = 1689487649.
    assert shingle_set(["durable", "object", "sqlite"]) == {1689487649}
    assert shingle_set([]) == set()
    assert len(shingle_set(["a", "b"])) == 1  # fewer terms than the shingle size: one shingle


def test_accuracy_over_2000_pairs():
    r = check_minhash(2, 2000)
    assert r["pairs"] == 2000
    spread = [b["pairs"] for b in r["bias_by_decile"]]
    assert min(spread) >= 50, spread  # exact Jaccard really spans [0, 1]
    assert abs(r["mean_bias"]) < 0.01
    assert r["share_outside_3sigma"] < 0.01
    assert r["far_wrong_decisions"] == 0 and r["text_shingle_mismatches"] == 0
    c = r["confusion"]
    assert sum(c.values()) == 2000 and c["tp"] > 100 and c["tn"] > 1000
    assert r["ok"]


def test_a_biased_estimator_is_caught():
    def biased(s1, s2):
        return min(1.0, mh.similarity(s1, s2) + 0.03)

    r = check_minhash(2, 1000, similarity=biased)
    assert not r["ok"] and r["mean_bias"] > 0.01
