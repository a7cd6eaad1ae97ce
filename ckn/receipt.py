"""The packed-context receipt (spec §9) and its JSON schema, shipped as package data."""

import json
from importlib import resources

__all__ = ["RECEIPT_KEYS", "build_receipt", "receipt_schema"]

RECEIPT_KEYS = ("ranked_ids", "sanitized_chunk_ids", "dropped_chunk_ids", "selected_ids",
                "total_tokens", "token_budget", "total_adjusted_utility")


def receipt_schema() -> dict:
    """The receipt's JSON schema (``template.packed-context`` of the seed pack), a fresh copy."""
    return json.loads(resources.files("ckn").joinpath("receipt.schema.json").read_text("utf-8"))


def build_receipt(*, ranked_ids, sanitized_chunk_ids, dropped_chunk_ids, selected_ids,
                  total_tokens: int, token_budget: int, adjusted_utilities) -> dict:
    """The receipt dict with keys in schema order; lists in fused order.

    ``total_adjusted_utility`` is the sum of ``adjusted_utilities`` (added in the given order)
    rounded to 6 decimals with Python's ``round``.
    """
    total = 0.0
    for u in adjusted_utilities:
        total += u
    return {
        "ranked_ids": list(ranked_ids),
        "sanitized_chunk_ids": list(sanitized_chunk_ids),
        "dropped_chunk_ids": list(dropped_chunk_ids),
        "selected_ids": list(selected_ids),
        "total_tokens": int(total_tokens),
        "token_budget": int(token_budget),
        "total_adjusted_utility": round(total, 6),
    }
