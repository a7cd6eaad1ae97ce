"""Behaviour snapshot: the worked example and 500 seeded pools give the stored digests.

Internal moves must keep every digest; a change meant to change results rewrites the snapshot
(``python tests/snapshot.py``) and says so in CHANGELOG.md."""

import json

import ckn
from snapshot import SNAPSHOT, digest, pools

STORED = json.loads(SNAPSHOT.read_text())

def test_worked_example_digest():
    assert digest(ckn.example_pool()) == STORED["worked_example"]

def test_seeded_pools_digests():
    got = [digest(p) for p in pools()]
    assert len(got) == len(STORED["pools"]) == 500
    changed = [i for i, (a, b) in enumerate(zip(got, STORED["pools"])) if a != b]
    assert not changed, f"{len(changed)} pools changed, first: {changed[:10]}"
