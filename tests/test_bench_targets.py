"""benchmarks/run.py's reading of bench_pack's rows: which latencies are issue-5 targets."""

import importlib.util
from pathlib import Path

RUN = Path(__file__).resolve().parent.parent / "benchmarks" / "run.py"


def _run_module():
    spec = importlib.util.spec_from_file_location("bench_run", RUN)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _latency(case: str, ms: float) -> dict:
    return {"bench": "latency", "case": case, "metric": "median_wall", "value": ms, "unit": "ms",
            "note": "target <= 3 ms"}


def test_the_benchmark_pool_is_a_target_and_realistic_text_is_reported():
    run = _run_module()
    rows = [_latency("500 x 768 x 4,000", 2.9),
            _latency("500 x 768 x 4,000, numpy float32 embeddings", 3.2),
            _latency("500 x 768 x 4,000, English prose", 6.1),
            _latency("500 x 768 x 4,000, stdlib docstrings (prose)", 16.8),
            _latency("500 x 768 x 4,000, es/de/fr/ru/zh/ja prose", 226.0),
            {"bench": "latency", "case": "500 x 768 x 4,000", "metric": "median_cpu",
             "value": 2.8, "unit": "ms", "note": ""}]
    targets = run.pack_targets(rows)
    assert [(t, ok) for t, ok, _ in targets] == [
        ("pack 500 x 768 x 4,000: median <= 3 ms", True),
        ("pack 500 x 768 x 4,000, numpy float32 embeddings: median <= 3 ms", False)]
    reported = run.pack_reported(rows)
    assert [m for _, m in reported] == ["6.10 ms", "16.80 ms", "226.00 ms"]
    assert all("realistic text" in t for t, _ in reported)
