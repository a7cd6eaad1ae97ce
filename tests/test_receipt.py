"""ckn.receipt: the receipt's keys, totals and schema (spec §9)."""
import pytest
from hypothesis import given, strategies as st

import ckn
from ckn.receipt import RECEIPT_KEYS, build_receipt, receipt_schema

_TYPES = {"array": list, "integer": int, "number": (int, float)}


def _check_against_schema(receipt: dict, schema: dict) -> None:
    """The schema's rules a receipt uses: required keys, no others, and the JSON types."""
    assert set(receipt) == set(schema["required"]) == set(schema["properties"])
    for key, rule in schema["properties"].items():
        assert isinstance(receipt[key], _TYPES[rule["type"]]), key
        if rule["type"] == "array":
            assert all(isinstance(x, str) for x in receipt[key])


def test_the_schema_lists_the_receipt_keys_in_order():
    assert tuple(receipt_schema()["required"]) == RECEIPT_KEYS


def test_receipt_schema_is_a_fresh_copy():
    receipt_schema()["required"].clear()
    assert tuple(receipt_schema()["required"]) == RECEIPT_KEYS


@given(st.lists(st.floats(min_value=0, max_value=1e6, allow_nan=False), max_size=30))
def test_the_total_is_the_in_order_sum_rounded_to_6_decimals(utilities):
    receipt = build_receipt(ranked_ids=["a"], sanitized_chunk_ids=[], dropped_chunk_ids=[],
                            selected_ids=["a"], total_tokens=3, token_budget=5,
                            adjusted_utilities=utilities)
    total = 0.0
    for u in utilities:
        total += u
    assert receipt["total_adjusted_utility"] == round(total, 6)
    assert tuple(receipt) == RECEIPT_KEYS


@pytest.mark.parametrize("budget", [0, 60, 180, 10_000])
def test_pack_receipts_follow_the_schema(budget):
    receipt = ckn.pack(ckn.example_pool(), token_budget=budget).receipt
    _check_against_schema(receipt, receipt_schema())
    assert tuple(receipt) == RECEIPT_KEYS
    assert receipt["total_tokens"] <= receipt["token_budget"] == budget
    assert set(receipt["selected_ids"]) <= set(receipt["ranked_ids"])
