"""Write tests/data/bad_inputs.jsonl: the corpus of bad inputs every interface must refuse.

Each line is ``{"name", "argv", "pool", "expect"}``: run ``python -m ckn`` with ``argv`` (the
placeholder ``POOL`` is a file holding ``pool``, written as given when it is a string, else as
JSON), and expect exit status 2, one ``ckn: error: …`` line containing ``expect`` on stderr,
nothing on stdout and no file written. The API twin (``ckn.pack(pool)`` raising ``CknError``) runs
on every case whose ``pool`` is JSON. Rerun after adding cases: ``python tools/make_bad_inputs.py``.
"""

import copy
import json
from pathlib import Path

GOOD = {"query": "alarm retry budget", "query_embedding": [0.8, 0.4, 0.2], "token_budget": 100,
        "candidates": [{"id": "a", "tokens": 10, "text": "alarm retry", "embedding": [0.8, 0.4, 0.2]},
                       {"id": "b", "tokens": 20, "text": "budget", "embedding": [0.1, 0.2, 0.3]}]}
HUGE = 10**400  # beyond any double

cases = []


def case(name, expect, pool=None, argv=None):
    cases.append({"name": name, "argv": ["pack", "--input", "POOL"] if argv is None else argv,
                  "pool": GOOD if pool is None else pool, "expect": expect})


def pool_with(**changes):
    pool = copy.deepcopy(GOOD)
    for key, value in changes.items():
        if value is ...:
            pool.pop(key, None)
        else:
            pool[key] = value
    return pool


def candidate_with(index=0, **changes):
    pool = copy.deepcopy(GOOD)
    for key, value in changes.items():
        if value is ...:
            pool["candidates"][index].pop(key, None)
        else:
            pool["candidates"][index][key] = value
    return pool


# ---- the document itself
for text, expect in [("", "invalid JSON"), ("{", "invalid JSON"), ("[1, 2]", "must be a JSON object"),
                     ("null", "must be a JSON object"), ('"pool"', "must be a JSON object"),
                     ("42", "must be a JSON object"), ('{"query": NaN}', "NaN is not valid JSON"),
                     ('{"query": Infinity}', "Infinity is not valid JSON"),
                     ('{"a": 1, "a": 2}', "duplicate key"), ("[" * 100000, "nested too deeply"),
                     ('{"query": "\\ud800"}', "lone surrogate"), ('{"query": "\\udfff x"}', "lone surrogate"),
                     ("{'query': 'x'}", "invalid JSON"), ('{"query": "x",}', "invalid JSON"),
                     ("\ufeff{}", "invalid JSON"), ('{"token_budget": 1' + "0" * 5000 + "}", "invalid JSON")]:
    case(f"document {text[:20]!r}", expect, pool=text)

# ---- required fields and structure
case("no query", "query: required field", pool_with(query=...))
case("no candidates", "candidates: required field", pool_with(candidates=...))
case("no budget", "token_budget: required field", pool_with(token_budget=...))
for bad in (1, None, ["q"], {"q": 1}, True):
    case(f"query {bad!r}", "query: expected a string", pool_with(query=bad))
for bad in ("abc", {"a": 1}, 5, True):
    case(f"candidates {bad!r}", "candidates: expected an array", pool_with(candidates=bad))
case("misspelt budget key", "did you mean 'token_budget'", pool_with(token_budjet=5))
case("misspelt rrf key", "did you mean 'rrf_k'", pool_with(rrf_kk=5))

# ---- candidates
for field in ("id", "tokens", "text"):
    case(f"candidate without {field}", f"candidates[0].{field}: required field", candidate_with(**{field: ...}))
for bad in (None, 5, ["a"], True, ""):
    case(f"id {bad!r}", "candidates[0].id", candidate_with(id=bad))
case("duplicate id", "duplicate id 'a'", candidate_with(1, id="a"))
for bad in (-1, 1.5, 3.0, "10", None, True, [1], {"n": 1}, -HUGE):
    case(f"tokens {bad!r}"[:40], "candidates[0].tokens", candidate_with(tokens=bad))
for bad in (None, 5, ["a"], {"t": 1}, True):
    case(f"text {bad!r}", "candidates[0].text", candidate_with(text=bad))
for bad in ("x", 5, {"a": 1}, [], [1, 2], [1, 2, 3, 4], [1, "a", 2], [1, None, 2], [True, 1, 2],
            [1, [2], 3]):
    case(f"embedding {bad!r}", "candidates[0].embedding", candidate_with(embedding=bad))
case("embedding overflows a double", "candidates[0].embedding", candidate_with(embedding=[HUGE, 1, 2]))
case("candidate not an object", "candidates[1]", pool_with(candidates=[GOOD["candidates"][0], 7]))
case("candidate a list", "candidates[0]", pool_with(candidates=[["a", 1, "x"]]))

# ---- query embedding
for bad in ("x", 5, {"a": 1}, [], [1, "a"], [True, False, True], [1, None, 1]):
    case(f"query_embedding {bad!r}", "query_embedding", pool_with(query_embedding=bad))
case("query_embedding overflows a double", "query_embedding", pool_with(query_embedding=[HUGE, 0, 1]))

# ---- parameters: types, ranges, huge numbers
NUMBERS = {"bm25_k1": (-1, "x"), "bm25_b": (1.5, "x"), "rrf_k": (-1, "x"),
           "near_dup_threshold": (0, "x"), "redundancy_lambda": (2, "x"),
           "utility_scale": (0.5, "x"), "relevance_power": (-1, "x")}
for name, (out_of_range, wrong_type) in NUMBERS.items():
    case(f"{name} out of range", f"{name}: expected", pool_with(**{name: out_of_range}))
    case(f"{name} wrong type", f"{name}: expected a number", pool_with(**{name: wrong_type}))
    case(f"{name} huge integer", f"{name}: expected a finite number", pool_with(**{name: HUGE}))
    case(f"{name} boolean", f"{name}: expected a number", pool_with(**{name: True}))
    case(f"{name} null", f"{name}: expected a number", pool_with(**{name: None}))
INTEGERS = {"token_budget": -1, "shingle_size": 0, "minhash_permutations": 0, "top_k": 0,
            "max_memory": -1}
for name, low in INTEGERS.items():
    case(f"{name} below range", f"{name}: expected", pool_with(**{name: low}))
    case(f"{name} float", f"{name}: expected", pool_with(**{name: 2.5}))
    case(f"{name} string", f"{name}: expected", pool_with(**{name: "5"}))
    case(f"{name} boolean", f"{name}: expected", pool_with(**{name: True}))
for name in ("shingle_size", "minhash_permutations"):
    case(f"{name} beyond int64", f"{name}: expected an integer with", pool_with(**{name: 2**63}))
    case(f"{name} huge", f"{name}: expected an integer with", pool_with(**{name: HUGE}))
for bad in ({"bm25": -1}, {"bm25": "x"}, {"bm25": HUGE}, {"bm25": 1e7}, {"sparse": 1}, [1, 1], "x",
            {"dense": None}):
    case(f"rrf_weights {bad!r}"[:60], "rrf_weights", pool_with(rrf_weights=bad))
for name, bad in (("dedup_exact", 1), ("dedup_exact", "yes"), ("budget_scope", "page"),
                  ("budget_scope", 1), ("fence", "thin"), ("fence", None), ("preamble", 5),
                  ("preamble", ["x"])):
    case(f"{name} {bad!r}", f"{name}: expected", pool_with(**{name: bad}))
case("context scope without tokenizer", "needs a tokenizer", pool_with(budget_scope="context"))

# ---- command-line flags
FLAGS = [("--token-budget", ["ten", "-3", "+7", "1_000", "١٢٣", "1.0", "", " 5", "0x10"]),
         ("--shingle-size", ["9223372036854775808", "0", "x"]),
         ("--minhash-permutations", ["0", "70000", "-1"]),
         ("--rrf-k", ["nan", "inf", "1e999", "x", "-1", "1" + "0" * 400]),
         ("--bm25-k1", ["-0.5", "x"]), ("--bm25-b", ["2", "x"]),
         ("--near-dup-threshold", ["1.5", "0"]), ("--redundancy-lambda", ["-1", "x"]),
         ("--utility-scale", ["0", "1e13"]), ("--relevance-power", ["-1", "x"]),
         ("--top-k", ["0", "x"]), ("--max-memory", ["12Q", "-1", "M", "1.5G"]),
         ("--budget-scope", ["page"]), ("--fence", ["thin"]), ("--tokenizer", ["gpt2", ""]),
         ("--rrf-weights", ["x", "bm25", "bm25=x", '{"bm25": [', '{"bm25": -1}', "sparse=1"]),
         ("--workers", ["0", "x"])]
for flag, values in FLAGS:
    for value in values:
        case(f"{flag} {value!r}"[:50], "ckn: error", argv=["pack", "--input", "POOL", flag, value])
for argv, expect in [([], "required"), (["frobnicate"], "invalid choice"), (["pack"], "required"),
                     (["pack", "--input", "POOL", "--example"], "not allowed with"),
                     (["pack", "--input", "/nonexistent/pool.json"], "cannot read"),
                     (["pack", "--input", "/"], "cannot read"),
                     (["pack", "--input", "POOL", "--output", "/nonexistent/dir/out.json"], "cannot write"),
                     (["pack", "--input", "POOL", "--context-out", "/nonexistent/c.txt"], "cannot write"),
                     (["rank", "--input", "POOL", "--context-out", "x"], "unrecognized arguments"),
                     (["pack", "--jsonl", "/nonexistent/in.jsonl"], "cannot read"),
                     (["pack", "--jsonl", "POOL", "--explain", "x"], "--explain is for one pool"),
                     (["pack", "--jsonl", "POOL", "--bm25-b", "2"], "bm25_b: expected"),
                     (["pack", "--jsonl", "POOL", "--budget-scope", "context"], "needs a tokenizer"),
                     (["pack", "--input", "POOL", "--bogus"], "unrecognized arguments")]:
    case(f"argv {' '.join(argv)}"[:60], expect, argv=argv)

if __name__ == "__main__":
    out = Path(__file__).resolve().parents[1] / "tests" / "data" / "bad_inputs.jsonl"
    names = [c["name"] for c in cases]
    assert len(names) == len(set(names)), "case names must be unique"
    with open(out, "w", encoding="utf-8") as f:
        for c in cases:
            f.write(json.dumps(c, ensure_ascii=False) + "\n")
    print(f"{len(cases)} cases -> {out}")
