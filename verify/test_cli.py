"""``python -m verify``: exit status, summary and JSON report."""

import json
import subprocess
import sys
from pathlib import Path

from verify.runner import main

ROOT = Path(__file__).resolve().parent.parent


def test_small_run_writes_a_passing_report(tmp_path, capsys):
    report = tmp_path / "r.json"
    code = main(["--instances", "16", "--seed", "5", "--jobs", "1", "--quiet",
                 "--report", str(report), "--failures-dir", str(tmp_path / "f")])
    out = capsys.readouterr().out
    assert code == 0, out
    data = json.loads(report.read_text())
    assert data["passed"] and data["seed"] == 5
    k = data["knapsack"]
    assert k["instances"] == 16 and k["mismatches"] == 0 and k["max_gap"] == 0
    assert data["bm25"]["hand"]["ok"] and data["bm25"]["pools"]["pools"] == 200
    assert data["rrf"]["ok"] and data["minhash"]["pairs"] == 2000
    assert "RESULT: PASS" in out and "16 instances" in out
    assert not (tmp_path / "f").exists()


def test_replay_of_a_saved_instance(tmp_path, capsys):
    f = tmp_path / "inst.json"
    f.write_text(json.dumps({"instance": {"weights": [3, 1, 2], "values": [3, 1, 2],
                                          "budget": 3}}))
    assert main(["--replay", str(f)]) == 0
    assert json.loads(capsys.readouterr().out)["ckn_indices"] == [0]


def test_module_entry_point_runs_one_section():
    p = subprocess.run([sys.executable, "-m", "verify", "--only", "rrf", "--quiet"],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "RRF: 500 cases" in p.stdout and "RESULT: PASS" in p.stdout
