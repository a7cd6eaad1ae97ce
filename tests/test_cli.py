"""``python -m ckn``: outputs, atomic files, exit codes and one-line errors."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

import ckn
from ckn.cli import main

DATA = Path(__file__).parent / "data"
EXPECTED_RECEIPT = json.loads((DATA / "worked_example.receipt.json").read_text("utf-8"))


@pytest.fixture
def example_file(tmp_path):
    path = tmp_path / "pool.json"
    path.write_text(json.dumps(ckn.example_pool()), "utf-8")
    return path


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_subprocess_pack_equals_the_receipt_file(example_file):
    proc = subprocess.run([sys.executable, "-m", "ckn", "pack", "--input", str(example_file)],
                          capture_output=True, text=True, check=True)
    assert json.loads(proc.stdout) == EXPECTED_RECEIPT
    assert proc.stderr == ""


def test_pack_example_pretty(capsys):
    code, out, err = run(["pack", "--example", "--pretty"], capsys)
    assert code == 0 and err == ""
    assert json.loads(out) == EXPECTED_RECEIPT
    assert out.startswith('{\n  "ranked_ids": [')
    assert list(json.loads(out)) == list(EXPECTED_RECEIPT)  # key order as in the schema


def test_stdin_input(monkeypatch, capsys, example_file):
    with open(example_file, encoding="utf-8") as stdin:
        monkeypatch.setattr(sys, "stdin", stdin)
        code, out, _ = run(["pack", "--input", "-"], capsys)
    assert code == 0 and json.loads(out) == EXPECTED_RECEIPT


def test_flags_override_the_file(capsys, example_file):
    code, out, _ = run(["pack", "--input", str(example_file), "--token-budget", "75"], capsys)
    assert code == 0
    receipt = json.loads(out)
    assert receipt["token_budget"] == 75 and receipt["selected_ids"] == ["chunk.injected-note"]
    code, out, _ = run(["rank", "--example", "--rrf-weights", "bm25=0,dense=1"], capsys)
    assert json.loads(out)["ranked_ids"][0] == "chunk.alarm-retry-spec"  # best cosine


def test_rank_output(capsys):
    code, out, _ = run(["rank", "--example"], capsys)
    data = json.loads(out)
    assert data["ranked_ids"] == EXPECTED_RECEIPT["ranked_ids"]
    first = data["chunks"][0]
    assert set(first) == {"id", "fused_rank", "rrf_score", "bm25_score", "bm25_rank",
                          "dense_score", "dense_rank"}
    assert first["rrf_score"] == 1 / 61 + 1 / 62


def test_sanitize_output(capsys):
    code, out, _ = run(["sanitize", "--example"], capsys)
    data = json.loads(out)
    assert data["sanitized_chunk_ids"] == EXPECTED_RECEIPT["sanitized_chunk_ids"]
    assert data["dropped_chunk_ids"] == EXPECTED_RECEIPT["dropped_chunk_ids"]
    chunks = {c["id"]: c for c in data["chunks"]}
    assert [c["id"] for c in data["chunks"]] == EXPECTED_RECEIPT["ranked_ids"]
    dup = chunks["chunk.alarm-retry-dup"]
    assert dup["status"] == "dropped_duplicate"
    assert (dup["duplicate_of"], dup["estimate"], dup["exact_jaccard"]) == (
        "chunk.alarm-retry-spec", 1.0, 1.0)
    note = chunks["chunk.injected-note"]
    assert note["status"] == "kept"
    assert [(r["line"], r["family"]) for r in note["redacted_lines"]] == [
        (1, "learned_directive")]
    assert note["text"].endswith("\n[REDACTED_UNTRUSTED_DIRECTIVE]")
    assert chunks["chunk.pure-injection"]["status"] == "dropped_empty"


def test_output_and_context_files(tmp_path, capsys):
    receipt, context = tmp_path / "r.json", tmp_path / "c.txt"
    code, out, _ = run(["pack", "--example", "--output", str(receipt),
                        "--context-out", str(context)], capsys)
    assert code == 0 and out == ""
    assert json.loads(receipt.read_text("utf-8")) == EXPECTED_RECEIPT
    text = context.read_text("utf-8")
    assert "chunk.alarm-retry-spec" in text and "chunk.bloated-overview" not in text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.txt", "r.json"]  # no temp files


MALFORMED = [
    ('{"query": "q", "candidates": [], "token_budget": -1}', "token_budget: expected an integer >= 0, got -1"),
    ('{"query": "q", "candidates": [{"id": "a", "tokens": -5, "text": ""}], "token_budget": 1}',
     "candidates[0].tokens: expected a non-negative integer, got -5"),
    ('{"query": "q", "candidates": [], "token_budjet": 1}', "token_budjet: unknown key; did you mean 'token_budget'?"),
    ('{"query": "q", "candidates": [], "token_budget": 1', "invalid JSON at line 1"),
    ('{"query": "q", "query": "r", "candidates": [], "token_budget": 1}', "duplicate key 'query'"),
    ('{"query": "q", "query_embedding": [NaN], "candidates": [], "token_budget": 1}', "NaN is not valid JSON"),
    ('{"query": "a", "candidates": [{"id": "a", "tokens": 1, "text": "a b"}], "token_budget": 1, '
     '"rrf_k": 0, "rrf_weights": {"bm25": 1e308}, "utility_scale": 1e308}',
     "rrf_weights.bm25: expected a number with 0 <= x <= 1e+06, got 1e+308"),
    ('{"query": "a", "candidates": [{"id": "a", "tokens": 1, "text": "a b"}], "token_budget": 1, '
     '"utility_scale": 1e308}', "utility_scale: expected a number with 1 <= x <= 1e+12"),
    ('[1, 2]', "the pool must be a JSON object"),
    ('', "invalid JSON"),
    ('{"query": "q", "candidates": [], "token_budget": 1, "meta": ' + "[" * 100_000 + "]" * 100_000
     + "}", "JSON nested too deeply to read"),
]


@pytest.mark.parametrize("text, message", MALFORMED)
def test_malformed_input_exits_2_with_one_line_and_writes_nothing(tmp_path, capsys, text, message):
    pool = tmp_path / "pool.json"
    pool.write_text(text, "utf-8")
    out_file, ctx_file = tmp_path / "out.json", tmp_path / "ctx.txt"
    code, out, err = run(["pack", "--input", str(pool), "--output", str(out_file),
                          "--context-out", str(ctx_file)], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("ckn: error: ") and message in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pool.json"]


@pytest.mark.parametrize("argv, message", [
    (["pack"], "one of the arguments --input --jsonl --example is required"),
    (["pack", "--example", "--token-budget", "ten"], "expected a non-negative integer (digits 0-9), got 'ten'"),
    (["pack", "--example", "--token-budget", "١٢٣"], "expected a non-negative integer (digits 0-9)"),
    (["pack", "--example", "--token-budget", "1_000"], "expected a non-negative integer (digits 0-9)"),
    (["pack", "--example", "--token-budget", "+7"], "expected a non-negative integer (digits 0-9)"),
    (["pack", "--example", "--rrf-k", "nan"], "expected a number, got 'nan'"),
    (["pack", "--example", "--rrf-k", "1e999"], "expected a finite number"),
    (["pack", "--example", "--max-memory", "12Q"], "expected a byte count"),
    (["pack", "--example", "--budget-scope", "page"], "expected one of chunks, context"),
    (["pack", "--example", "--tokenizer", "gpt2"], "expected one of cl100k_base, o200k_base"),
    (["pack", "--example", "--rrf-weights", '{"bm25": ' + "[" * 50_000], "nested too deeply"),
    (["pack", "--example", "--near-dup-threshold", "1.5"], "near_dup_threshold"),
    (["frobnicate"], "invalid choice"),
    ([], "the following arguments are required"),
    (["pack", "--input", "/nonexistent/pool.json"], "cannot read /nonexistent/pool.json"),
    (["pack", "--example", "--output", "/nonexistent/dir/out.json"], "cannot write"),
])
def test_usage_errors_exit_2_with_one_line(capsys, argv, message):
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("ckn: error: ") and message in err


def test_running_out_of_memory_is_an_error_not_a_bug(monkeypatch, capsys):
    import ckn.cli

    def exhausted(args):
        raise MemoryError
    monkeypatch.setattr(ckn.cli, "_run", exhausted)
    code, out, err = run(["pack", "--example"], capsys)
    assert code == 2 and out == "" and err.startswith("ckn: error: out of memory")


def test_existing_output_survives_a_failed_run(tmp_path, capsys):
    target = tmp_path / "out.json"
    target.write_text("previous", "utf-8")
    code, _, _ = run(["pack", "--example", "--token-budget", "-3", "--output", str(target)], capsys)
    assert code == 2 and target.read_text("utf-8") == "previous"


def test_help_has_examples(capsys):
    with pytest.raises(SystemExit) as info:
        main(["pack", "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert "python -m ckn pack --example --pretty" in out and "--context-out" in out


def test_broken_pipe_is_quiet(tmp_path):
    big = {"query": "alarm", "token_budget": 10, "candidates": [
        {"id": f"c{i}", "tokens": 1, "text": f"alarm number {i}"} for i in range(3000)]}
    path = tmp_path / "big.json"
    path.write_text(json.dumps(big), "utf-8")
    cmd = f'"{sys.executable}" -m ckn rank --input "{path}" --pretty | head -n 1'
    proc = subprocess.run(cmd, shell=True, capture_output=True, text=True)
    assert proc.stdout == "{\n"
    assert proc.stderr == ""


# ---- where the CLI writes: files replaced atomically, links followed, special files in place


def test_dash_means_stdout(capsys):
    assert main(["pack", "--example", "--output", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["total_tokens"] == 170


def test_a_symlink_is_followed_and_its_target_replaced(tmp_path, capsys):
    target = tmp_path / "receipt.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    assert main(["pack", "--example", "--output", str(link)]) == 0
    assert link.is_symlink() and json.loads(target.read_text())["total_tokens"] == 170


def test_new_files_get_the_umask_mode_and_replaced_files_keep_theirs(tmp_path):
    import os
    old = os.umask(0o022)
    try:
        new = tmp_path / "new.json"
        assert main(["pack", "--example", "--output", str(new)]) == 0
        assert new.stat().st_mode & 0o777 == 0o644
        kept = tmp_path / "kept.json"
        kept.write_text("old")
        kept.chmod(0o640)
        assert main(["pack", "--example", "--output", str(kept)]) == 0
        assert kept.stat().st_mode & 0o777 == 0o640 and "total_tokens" in kept.read_text()
    finally:
        os.umask(old)


def test_a_fifo_is_written_in_place(tmp_path):
    import os
    import threading
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    assert main(["pack", "--example", "--output", str(fifo)]) == 0
    reader.join(10)
    assert fifo.exists() and not fifo.is_file()
    assert json.loads(got[0])["total_tokens"] == 170


def test_process_substitution_paths_are_written_in_place(tmp_path):
    out = tmp_path / "out.json"
    cmd = (f"{sys.executable} -m ckn pack --example --output >(cat > {out}) && sleep 0.2")
    proc = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(out.read_text())["total_tokens"] == 170


@pytest.mark.parametrize("data, message", [
    (b'{"query": "q", "token_budget": 5, "candidates": [{"id": "\\ud800", "tokens": 1, "text": "a"}]}',
     "lone surrogate (U+D800)"),
    (b'{"query": "q\xff", "token_budget": 5, "candidates": []}', "stdin: not UTF-8 text"),
])
def test_unrepresentable_stdin_is_a_clean_error(data, message):
    proc = subprocess.run([sys.executable, "-m", "ckn", "pack", "--input", "-"], input=data,
                          capture_output=True)
    assert proc.returncode == 2 and proc.stdout == b""
    err = proc.stderr.decode()
    assert err.startswith("ckn: error: ") and message in err and err.count("\n") == 1


def test_surrogate_pairs_are_text():
    data = b'{"query": "q", "token_budget": 5, "candidates": [{"id": "\\ud83d\\ude00", "tokens": 1, "text": "a"}]}'
    proc = subprocess.run([sys.executable, "-m", "ckn", "pack", "--input", "-"], input=data,
                          capture_output=True)
    assert proc.returncode == 0 and json.loads(proc.stdout)["selected_ids"] == ["\U0001F600"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_a_large_budget_pool_is_solved_within_a_memory_cap(tmp_path):
    # 10,000 candidates, a 1,000,000-token budget, --max-memory 256M: solved exactly with the
    # whole process's peak RSS under 300 MiB.
    import random
    rng = random.Random(5)
    words = "alarm retry budget sqlite durable object cpu storage limit".split()
    pool = {"query": "alarm retry budget", "token_budget": 1_000_000, "candidates": [
        {"id": f"c{i}", "tokens": rng.randint(1, 400),
         "text": " ".join(rng.choices(words, k=rng.randint(3, 30))) + f" n{i}"}
        for i in range(10_000)]}
    path = tmp_path / "pool.json"
    path.write_text(json.dumps(pool))
    # VmHWM: this process image's peak RSS (ru_maxrss would include the forking parent's)
    report_peak = ("import runpy, sys\nsys.argv = ['ckn'] + sys.argv[1:]\n"
                   "try:\n    runpy.run_module('ckn', run_name='__main__')\nfinally:\n"
                   "    hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM')]\n"
                   "    print(hwm[0].split()[1], file=sys.stderr)")
    proc = subprocess.run([sys.executable, "-c", report_peak, "pack", "--input", str(path),
                           "--max-memory", "256M"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    peak_kib = int(proc.stderr.split()[-1])  # the whole process: interpreter, pool and solve
    receipt = json.loads(proc.stdout)
    assert receipt["total_tokens"] <= 1_000_000
    assert peak_kib < 300 * 1024
    weights = {c["id"]: c["tokens"] for c in pool["candidates"]}
    chunks = ckn.pack(pool, max_memory=0).chunks  # the tightest cap gives the same choice
    assert [c.id for c in chunks if c.status == "selected"] == receipt["selected_ids"]
    assert sum(weights[i] for i in receipt["selected_ids"]) == receipt["total_tokens"]
