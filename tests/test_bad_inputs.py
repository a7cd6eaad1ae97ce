"""Every case of tests/data/bad_inputs.jsonl (tools/make_bad_inputs.py): a clean refusal.

CLI: exit status 2, one ``ckn: error: …`` line naming the problem, nothing on stdout, no file
written. API: ``ckn.pack`` raises a ``CknError`` for every case whose pool is JSON."""

import json
from pathlib import Path

import pytest

import ckn
from ckn.cli import main

CASES = [json.loads(line) for line in
         (Path(__file__).parent / "data" / "bad_inputs.jsonl").read_text("utf-8").splitlines()]


def test_the_corpus_is_large():
    assert len(CASES) >= 150


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_bad_input_is_refused_cleanly(case, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    pool_file = tmp_path / "pool.json"
    pool = case["pool"]
    pool_file.write_text(pool if isinstance(pool, str) else json.dumps(pool), "utf-8")
    argv = [str(pool_file) if a == "POOL" else a for a in case["argv"]]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("ckn: error: ") and err.count("\n") == 1, err
    assert case["expect"] in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pool.json"]
    if not isinstance(pool, str) and argv[:3] == ["pack", "--input", str(pool_file)] and len(argv) == 3:
        with pytest.raises(ckn.CknError):
            ckn.pack(pool)
