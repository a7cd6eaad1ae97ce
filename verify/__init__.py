"""ckn's verification suite: proofs and cross-checks independent of ckn's own code paths.

* knapsack optimality against an integer program solved by PuLP + CBC (``ilp.py``), tie rules by
  enumeration (``checks.brute_force``), memory-capped solves against the default one, and a
  sweep of weights and budgets up to 2**63 - 1 (an exact digit-carried ILP);
* BM25 against a hand-computed case and against bm25s; RRF/fused order and MinHash accuracy
  against reference code written here from the spec.

Run ``python -m verify`` (quick) or ``python -m verify --long``; ``python -m pytest verify``
collects the same checks as tests. Opt-in dependencies: ``pulp`` (required), ``bm25s``.
See README.md in this directory.
"""
