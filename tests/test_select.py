"""Selection: knapsack values, the candidate cap, the context-scoped budget, token counting."""

import itertools
import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ckn
from ckn.cli import main
from ckn.select import choose, choose_within, knapsack_values
from ckn.tokenizer import TokenCounter, resolve_tokenizer

try:
    COUNTER = resolve_tokenizer("cl100k_base")
except ckn.CknValueError:  # not installed: the word-count fallback keeps the property meaningful
    COUNTER = TokenCounter(lambda text: len(text.split()), name="words")


def words(text: str) -> int:
    return len(text.split())


def test_values_keep_rank_ties_and_sharpen_with_the_power():
    ranks = [(1, 2), (2, 1), (3, 3), (9, None), (None, 9)]
    options = dict(weights=(1.0, 1.0), k=6, lam=0.5, scale=1000, dense=True)
    for p in (0, 1, 4, 12):
        v = knapsack_values(ranks, [0.0] * 5, power=p, **options)
        assert v[0] == v[1] >= v[2] >= v[3] == v[4]
    best = 2 / 7
    v = knapsack_values(ranks, [0.0, 0.5, 0.0, 0.0, 0.0], power=4, **options)
    assert v[0] == math.floor(1000 * ((1 / 7 + 1 / 8) / best) ** 4 + 0.5)
    assert v[1] == math.floor(1000 * ((1 / 7 + 1 / 8) / best) ** 4 * 0.75 + 0.5)
    assert knapsack_values([(1, None)], [0.0], power=8, **{**options, "dense": False}) == [1000]
    assert knapsack_values([(1, 1)], [0.0], power=8, **{**options, "weights": (0.0, 0.0)}) == [0]


@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 50)), max_size=9),
       st.integers(0, 80))
def test_choose_is_the_brute_force_optimum(items, budget):
    weights = [w for w, _ in items]
    values = [v for _, v in items]
    chosen = choose(weights, values, budget)
    best = max((sum(values[i] for i in s), -sum(weights[i] for i in s))
               for r in range(len(items) + 1) for s in itertools.combinations(range(len(items)), r)
               if sum(weights[i] for i in s) <= budget)
    assert (sum(values[i] for i in chosen), -sum(weights[i] for i in chosen)) == best


@given(st.lists(st.tuples(st.integers(1, 30), st.integers(1, 50)), max_size=8),
       st.integers(0, 100), st.integers(0, 20), st.integers(0, 5))
def test_choose_within_always_holds_the_measured_budget(items, budget, fixed, slack):
    weights = [w for w, _ in items]
    values = [v for _, v in items]

    def measure(chosen):  # the estimate is off by up to `slack` per chosen item
        return 0 if not chosen else fixed + sum(weights[i] + slack for i in chosen)

    chosen, size = choose_within(weights, values, budget, fixed, measure)
    assert size == measure(chosen) <= budget


def pool_strategy():
    text = st.lists(st.sampled_from("alarm retry budget sqlite the a of storage durable "
                                    "object cpu backoff limit 東京 café".split()),
                    min_size=0, max_size=40).map(" ".join)
    return st.lists(text, min_size=1, max_size=8).map(lambda texts: {
        "query": "alarm retry budget durable",
        "candidates": [{"id": f"c{i}", "text": t} for i, t in enumerate(texts)]})


@settings(max_examples=60, deadline=None)
@given(pool_strategy(), st.integers(0, 400), st.sampled_from(["full", "compact"]),
       st.booleans())
def test_context_scope_budget_holds_for_the_emitted_context(pool, budget, fence, preamble):
    result = ckn.pack(pool, count_tokens=COUNTER, token_budget=budget, budget_scope="context",
                      fence=fence, **({} if preamble else {"preamble": None}))
    assert COUNTER(result.context) <= budget
    assert result.context_tokens == COUNTER(result.context) == result.receipt["total_tokens"]
    selected = [c for c in result.chunks if c.status == "selected"]
    assert (result.context == "") == (not selected)


def test_context_scope_fills_what_the_chunk_scope_overfills():
    pool = ckn.example_pool()
    chunk_scoped = ckn.pack(pool, count_tokens=words, token_budget=60)
    assert chunk_scoped.receipt["total_tokens"] <= 60 < chunk_scoped.context_tokens
    context_scoped = ckn.pack(pool, count_tokens=words, token_budget=120,
                              budget_scope="context", fence="compact", preamble=None)
    assert 0 < context_scoped.context_tokens <= 120
    assert words(context_scoped.context) == context_scoped.context_tokens


def test_context_scope_needs_a_tokenizer():
    with pytest.raises(ckn.CknValueError, match="needs a tokenizer"):
        ckn.pack(ckn.example_pool(), budget_scope="context")


def test_tokens_are_optional_with_a_tokenizer_and_counted_on_the_text():
    pool = {"query": "alarm retry", "token_budget": 5, "candidates": [
        {"id": "a", "text": "alarm retry budget"}, {"id": "b", "text": "one two three four"}]}
    with pytest.raises(ckn.InputError, match=r"candidates\[0\]\.tokens: required field"):
        ckn.pack(pool)
    chunks = {c.id: c for c in ckn.pack(pool, count_tokens=words).chunks}
    assert (chunks["a"].tokens, chunks["a"].status) == (3, "selected")
    assert (chunks["b"].tokens, chunks["b"].status) == (4, "not_selected")
    ranked = ckn.Packer(count_tokens=words).rank(pool)
    assert [c.tokens for c in ranked.chunks] == [3, 4]


def test_rank_needs_no_budget():
    pool = ckn.example_pool()
    del pool["token_budget"]
    assert ckn.rank(pool).ranked_ids[0] == "chunk.bloated-overview"
    with pytest.raises(ckn.InputError, match="token_budget: required field"):
        ckn.pack(pool)


def test_top_k_caps_the_candidates_before_the_knapsack():
    result = ckn.pack(ckn.example_pool(), top_k=1, token_budget=1000)
    statuses = {c.id: (c.status, c.reason) for c in result.chunks}
    assert result.receipt["selected_ids"] == ["chunk.bloated-overview"]
    assert statuses["chunk.alarm-retry-spec"][0] == "not_selected"
    assert "top_k = 1" in statuses["chunk.alarm-retry-spec"][1]


def test_explain_says_why_each_chunk_was_or_was_not_selected():
    result = ckn.pack(ckn.example_pool(), count_tokens=words)
    explain = result.explain()
    assert explain["ckn_version"] == ckn.__version__
    assert explain["parameters"]["token_budget"] == 180
    assert explain["tokenizer"] == "words" and explain["context_tokens"] == words(result.context)
    assert explain["receipt"] == result.receipt
    reasons = {c["id"]: (c["status"], c["reason"]) for c in explain["chunks"]}
    assert reasons["chunk.alarm-retry-dup"][0] == "dropped_duplicate"
    assert "near-duplicate of chunk.alarm-retry-spec" in reasons["chunk.alarm-retry-dup"][1]
    assert reasons["chunk.pure-injection"] == ("dropped_empty", "every line was redacted")
    assert reasons["chunk.alarm-retry-spec"] == ("selected", "in the optimal subset")
    json.dumps(explain)  # plain JSON


def test_cli_context_scope_writes_a_context_within_the_budget(tmp_path, capsys):
    if COUNTER.name != "cl100k_base":
        pytest.skip("bpe-openai is not installed: pip install 'context-knapsack[tokens]'")
    pool = ckn.example_pool()
    for c in pool["candidates"]:
        del c["tokens"]
    path = tmp_path / "pool.json"
    path.write_text(json.dumps(pool))
    context, explain = tmp_path / "context.txt", tmp_path / "explain.json"
    assert main(["pack", "--input", str(path), "--tokenizer", "cl100k_base", "--budget-scope",
                 "context", "--token-budget", "150", "--context-out", str(context),
                 "--explain", str(explain)]) == 0
    receipt = json.loads(capsys.readouterr().out)
    size = COUNTER(context.read_text())
    assert size == receipt["total_tokens"] <= 150
    assert json.loads(explain.read_text())["context_tokens"] == size


def test_cli_notes_a_context_larger_than_a_chunk_scoped_budget(capsys):
    if COUNTER.name != "cl100k_base":
        pytest.skip("bpe-openai is not installed: pip install 'context-knapsack[tokens]'")
    assert main(["pack", "--example", "--tokenizer", "cl100k_base"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("ckn: note: the emitted context is ") and "--budget-scope context" in err
