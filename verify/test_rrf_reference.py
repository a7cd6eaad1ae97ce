"""Ranks, RRF scores and fused order (spec §5) against straightforward reference code."""

from ckn.fusion import fused_order, rank_positions, reciprocal_rank_fusion
from verify.checks import check_rrf, fused_order_reference, rank_reference, rrf_reference


def test_worked_example_tie():
    # bloated-overview (bm25 1, dense 2) and alarm-retry-spec (bm25 2, dense 1) tie exactly.
    rb, rd = [2, 1, 3], [1, 2, 3]
    ref = rrf_reference(rb, rd)
    assert ref[0] == ref[1] == 1 / 61 + 1 / 62
    assert fused_order_reference(ref, rb, rd) == [1, 0, 2]
    assert fused_order(reciprocal_rank_fusion(rb, rd), rb, rd) == [1, 0, 2]


def test_absent_dense_rank_sorts_last_among_equals():
    # 1/(60+1) == 1/122 + 1/122 exactly; candidate 0 has no embedding, candidate 1 rank 62/62.
    rb = [1] + list(range(2, 62)) + [62]
    rd = [None] + list(range(1, 61)) + [62]
    rb[1], rb[-1] = 62, 2
    rd[1], rd[-1] = 62, 1
    ref = rrf_reference(rb, rd)
    assert ref[0] == ref[1]
    assert list(fused_order(reciprocal_rank_fusion(rb, rd), rb, rd)) == fused_order_reference(ref, rb, rd)


def test_ranks_with_equal_scores_keep_input_order():
    scores = [0.5, None, 1.0, 0.5, 1.0, None, 0.0]
    assert rank_reference(scores) == [3, None, 1, 4, 2, None, 5]
    assert rank_positions(scores) == rank_reference(scores)


def test_random_cases_with_planted_ties():
    r = check_rrf(5, 400)
    assert r["ok"], r["failures"]
    assert r["tied_pairs"] > 1000  # the planted ties really are there


def test_check_catches_a_fused_order_without_the_bm25_tie_break():
    import ckn.fusion as real

    class Broken:
        rank_positions = staticmethod(real.rank_positions)
        reciprocal_rank_fusion = staticmethod(real.reciprocal_rank_fusion)

        @staticmethod
        def fused_order(rrf, rb, rd=None):
            return sorted(range(len(rrf)), key=lambda i: (-rrf[i], i))  # input order only

    assert not check_rrf(5, 200, fusion=Broken)["ok"]
