"""Batch packing: ``python -m ckn pack --jsonl`` and ``Packer.pack_many``."""

import json
import random
import subprocess
import sys


import ckn
from ckn.cli import main

WORDS = "alarm retry budget sqlite durable object cpu backoff storage limit the a of".split()


def make_pools(n, seed=7):
    rng = random.Random(seed)
    return [{"query": "alarm retry budget", "token_budget": rng.randint(0, 300), "candidates": [
        {"id": f"c{j}", "tokens": rng.randint(1, 80),
         "text": " ".join(rng.choices(WORDS, k=rng.randint(1, 40)))}
        for j in range(rng.randint(1, 20))]} for _ in range(n)]


def test_jsonl_results_are_receipts_in_input_order_with_errors_in_place(tmp_path, capsys):
    pools = make_pools(30)
    lines = [json.dumps(p) for p in pools]
    lines[3] = '{"query": 1, "token_budget": 5, "candidates": []}'
    lines[10] = "not json"
    lines.insert(5, "")  # blank lines are skipped but counted
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.jsonl"
    assert main(["pack", "--jsonl", str(src), "--output", str(out)]) == 2
    records = [json.loads(line) for line in out.read_text().splitlines()]
    numbers = [n for n, line in enumerate(lines, 1) if line.strip()]
    assert [r["line"] for r in records] == numbers
    by_line = {r["line"]: r for r in records}
    assert by_line[4]["error"].startswith("query: expected a string")
    assert by_line[12]["error"].startswith("line 12: invalid JSON")
    for n, line in enumerate(lines, 1):
        if n in (4, 12) or not line:
            continue
        expected = ckn.pack(json.loads(line)).receipt
        assert {k: v for k, v in by_line[n].items() if k != "line"} == expected
    assert capsys.readouterr().err == "ckn: 30 pools, 28 packed, 2 bad\n"


def test_jsonl_on_two_workers_equals_one(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(p) + "\n" for p in make_pools(200, seed=3)))
    outs = []
    for workers in ("1", "2"):
        out = tmp_path / f"out{workers}.jsonl"
        assert main(["pack", "--jsonl", str(src), "--output", str(out), "--workers", workers,
                     "--quiet"]) == 0
        outs.append(out.read_text())
    assert outs[0] == outs[1] and outs[0].count("\n") == 200


def test_jsonl_from_stdin_to_stdout_with_parameters():
    data = "".join(json.dumps(p) + "\n" for p in make_pools(5)).encode()
    proc = subprocess.run([sys.executable, "-m", "ckn", "pack", "--jsonl", "-", "--token-budget",
                           "50", "--quiet"], input=data, capture_output=True)
    assert proc.returncode == 0 and proc.stderr == b""
    records = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["token_budget"] for r in records] == [50] * 5
    assert all(r["total_tokens"] <= 50 for r in records)


def test_jsonl_rejects_single_pool_outputs(tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps(ckn.example_pool()) + "\n")
    assert main(["pack", "--jsonl", str(src), "--context-out", str(tmp_path / "c")]) == 2
    assert "--context-out is for one pool" in capsys.readouterr().err


def test_pack_many_yields_pack_in_order():
    pools = make_pools(20)
    got = [r.receipt for r in ckn.Packer(rrf_k=10).pack_many(pools)]
    assert got == [ckn.pack(p, rrf_k=10).receipt for p in pools]


def test_pack_many_on_two_workers_equals_serial_packing():
    pools = make_pools(40, seed=11)
    packer = ckn.Packer(count_tokens=len, relevance_power=2)
    assert [r.receipt for r in packer.pack_many(pools, workers=2)] == [
        packer.pack(p).receipt for p in pools]
