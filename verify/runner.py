"""``python -m verify``: run every check, print a summary, write a JSON report.

Exit status 0 when everything was proved (no mismatch, nothing inconclusive), 1 otherwise,
2 on bad arguments or missing dependencies.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from . import checks
from .instances import HUGE_KINDS, KINDS, Instance, generate, generate_huge

QUICK_INSTANCES = 800
LONG_INSTANCES = 12_000
QUICK_HUGE = 100
LONG_HUGE = 1_000
DEFAULT_SEED = 20_240_601


def _knapsack_task(job):
    seed, index, time_limit, huge = job
    inst = (generate_huge if huge else generate)(seed, index)
    rec = checks.check_knapsack(inst, time_limit=time_limit)
    return rec, (inst.to_json() if rec["status"] != "ok" else None)


def run_knapsack(instances, *, jobs: int = 1, solver=None, time_limit: float | None = 300,
                 failures_dir=None, progress=None, huge: bool = False) -> dict:
    """Check instances; returns the knapsack section of the report.

    ``instances`` is either a list of :class:`Instance` (checked in this process, optionally
    with a planted ``solver``) or a ``(seed, start, count)`` triple (generated -- by
    ``generate_huge`` when ``huge`` -- and checked in ``jobs`` worker processes with ckn's
    solver).
    """
    t0 = time.perf_counter()
    if isinstance(instances, tuple):
        seed, start, count = instances
        work = [(seed, i, time_limit, huge) for i in range(start, start + count)]
        if jobs > 1 and count > 1:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                results = pool.map(_knapsack_task, work, chunksize=4)
                records = _collect(results, count, progress)
        else:
            records = _collect(map(_knapsack_task, work), count, progress)
    else:
        def local():
            for inst in instances:
                rec = checks.check_knapsack(inst, solver=solver, time_limit=time_limit)
                yield rec, (inst.to_json() if rec["status"] != "ok" else None)

        records = _collect(local(), len(instances), progress)
    wall = time.perf_counter() - t0

    status = Counter(rec["status"] for rec, _ in records)
    by_kind: dict[str, Counter] = {}
    for rec, _ in records:
        by_kind.setdefault(rec["kind"], Counter())[rec["status"]] += 1
    gaps = [abs(rec["gap"]) for rec, _ in records if "gap" in rec]
    enumerated = [rec for rec, _ in records if "n_optimal" in rec]
    saved = []
    bad = []
    for rec, inst_json in records:
        if rec["status"] == "ok":
            continue
        inst = Instance.from_json(inst_json)
        path = checks.save_failure(inst, rec, failures_dir)
        saved.append(str(path))
        bad.append({"seed": rec["seed"], "index": rec["index"], "kind": rec["kind"],
                    "n": rec["n"], "budget": rec["budget"], "status": rec["status"],
                    "problems": rec["problems"] + rec["inconclusive"], "saved": str(path),
                    "instance": inst_json if len(inst_json["weights"]) <= 40 else "see file"})
    cbc_faults = [{"seed": rec["seed"], "index": rec["index"], "kind": rec["kind"],
                   "n": rec["n"], "status": rec["status"], "faults": rec["cbc_faults"]}
                  for rec, _ in records if rec.get("cbc_faults")]
    return {
        "instances": len(records),
        "cbc_faults": len(cbc_faults),
        "cbc_fault_instances": cbc_faults[:50],
        "ok": status["ok"],
        "mismatches": status["mismatch"],
        "inconclusive": status["inconclusive"],
        "max_gap": max(gaps, default=0),
        "ilp_proven": len(gaps),
        "enumerated": len(enumerated),
        "enumerated_with_tied_optima": sum(1 for r in enumerated if r["n_optimal"] > 1),
        "max_optimal_subsets": max((r["n_optimal"] for r in enumerated), default=0),
        "fewest_tokens_ilp": sum(1 for rec, _ in records if "ILP fewest tokens" in rec["checks"]),
        "memory_capped_identical": sum(
            1 for rec, _ in records
            if "memory-capped identical" in rec["checks"]
            and not any("max_memory=" in p for p in rec["problems"])),
        "memory_capped_gave_up": sum(len(rec.get("gave_up", ())) for rec, _ in records),
        "max_n": max((rec["n"] for rec, _ in records), default=0),
        "max_budget": max((rec["budget"] for rec, _ in records), default=0),
        "by_kind": {k: dict(v) for k, v in sorted(by_kind.items())},
        "time_ckn_s": round(sum(rec.get("time_ckn", 0.0) for rec, _ in records), 3),
        "time_ilp_s": round(sum(rec.get("time_ilp", 0.0) for rec, _ in records), 3),
        "wall_s": round(wall, 3),
        "failures": bad[:20],
        "failure_files": saved,
        "passed": status["ok"] == len(records),
    }


def _collect(results, count, progress):
    out = []
    step = max(1, count // 10)
    for k, item in enumerate(results, start=1):
        out.append(item)
        rec = item[0]
        if rec["status"] != "ok" and progress:
            progress(f"  {rec['status'].upper()}: seed {rec['seed']} index {rec['index']} "
                     f"({rec['kind']}, n={rec['n']}, budget={rec['budget']}): "
                     f"{'; '.join(rec['problems'] + rec['inconclusive'])}")
        if progress and (k % step == 0 or k == count):
            progress(f"  knapsack {k}/{count}")
    return out


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m verify",
        description="Prove ckn's knapsack optimal against PuLP+CBC on random instances and check "
                    "BM25, RRF and MinHash against independent implementations.")
    p.add_argument("--instances", type=int, default=None,
                   help=f"knapsack instances (default {QUICK_INSTANCES}, "
                        f"{LONG_INSTANCES} with --long)")
    p.add_argument("--huge", type=int, default=None,
                   help=f"knapsack instances with weights up to 2**63 - 1 (default {QUICK_HUGE}, "
                        f"{LONG_HUGE} with --long)")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help="sweep seed (default %(default)s)")
    p.add_argument("--start", type=int, default=0, help="first instance index (to reproduce one)")
    p.add_argument("--report", type=Path, default=None, help="write the JSON report here")
    p.add_argument("--long", action="store_true",
                   help="long sweep: more instances, pools, pairs and cases")
    p.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                   help="worker processes for the knapsack sweep (default %(default)s)")
    p.add_argument("--time-limit", type=float, default=300,
                   help="CBC time limit per ILP in seconds; a run that hits it is inconclusive")
    p.add_argument("--failures-dir", type=Path, default=None,
                   help="where failing instances are saved (default verify/failures/)")
    p.add_argument("--replay", type=Path, default=None,
                   help="re-check one saved failure (or instance) JSON file and exit")
    p.add_argument("--only", choices=("knapsack", "bm25", "rrf", "minhash"), action="append",
                   help="run only these sections (repeatable)")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    return p


def _versions() -> dict:
    from .ilp import cbc_path

    out = {"python": platform.python_version(), "cbc": cbc_path()}
    for mod in ("ckn", "pulp", "bm25s"):
        try:
            out[mod] = __import__(mod).__version__
        except Exception as exc:  # noqa: BLE001 - a report field, not control flow
            out[mod] = f"unavailable ({type(exc).__name__})"
    return out


def _summary(report: dict) -> str:
    lines = [f"ckn verify — seed {report['seed']}, {report['mode']} mode, "
             f"{report['wall_s']:.1f} s wall, {report['jobs']} jobs"]
    for key, label in (("knapsack", "knapsack"), ("knapsack_huge", "knapsack, huge numbers")):
        k = report.get(key)
        if not k:
            continue
        lines.append(
            f"{label} vs PuLP+CBC: {k['instances']} instances (n ≤ {k['max_n']}, budget ≤ "
            f"{k['max_budget']}), {k['mismatches']} mismatches, {k['inconclusive']} inconclusive, "
            f"max gap {k['max_gap']}; {k['ilp_proven']} ILP optima proven, "
            f"{k['fewest_tokens_ilp']} fewest-token ILPs, {k['memory_capped_identical']} "
            f"identical under max_memory {'/'.join(map(str, checks.MEMORY_CAPS))} "
            f"({k['memory_capped_gave_up']} capped runs gave up); {k['wall_s']:.1f} s")
        if k["cbc_faults"]:
            lines.append(
                f"  CBC contradicted by ckn's feasible selection on {k['cbc_faults']} instance(s)"
                f"; re-solved with cuts and presolve off: " + ", ".join(
                    f"seed {f['seed']} index {f['index']} -> {f['status']}"
                    for f in k["cbc_fault_instances"][:5]))
        lines.append(
            f"  tie rules by enumeration: {k['enumerated']} instances with n ≤ "
            f"{checks.ENUMERATE_UP_TO} ({k['enumerated_with_tied_optima']} with several optimal "
            f"subsets, up to {k['max_optimal_subsets']})")
        lines.append("  by kind: " + ", ".join(
            f"{kind} {sum(c.values())}" for kind, c in k["by_kind"].items()))
        for f in k["failures"][:5]:
            lines.append(f"  FAIL seed {f['seed']} index {f['index']} ({f['kind']}): "
                         f"{'; '.join(f['problems'])} -> {f['saved']}")
    b = report.get("bm25")
    if b:
        h, p = b["hand"], b["pools"]
        lines.append(
            f"BM25: hand-computed case {'ok' if h['ok'] else 'FAILED'} (max error "
            f"{h['max_abs_error']:.1e}); {p['pools']} random pools, {p['mismatches']} mismatches "
            f"(max error vs reference {p['max_err_reference']:.1e}, vs bm25s "
            f"{p['max_err_bm25s']:.1e} on {p['compared_with_bm25s']} pools)")
    r = report.get("rrf")
    if r:
        lines.append(f"RRF: {r['cases']} cases, {r['tied_pairs']} exactly tied pairs, "
                     f"{r['mismatches']} mismatches")
    m = report.get("minhash")
    if m:
        c = m["confusion"]
        lines.append(
            f"MinHash (P={m['permutations']}): {m['pairs']} pairs, mean bias "
            f"{m['mean_bias']:+.4f}, {100 * m['share_outside_3sigma']:.2f}% outside 3σ, "
            f"near-dup at {m['threshold']}: TP {c['tp']} FP {c['fp']} FN {c['fn']} TN {c['tn']}, "
            f"{m['far_wrong_decisions']} wrong decisions ≥ 0.3 from the threshold")
    lines.append("RESULT: " + ("PASS" if report["passed"] else "FAIL"))
    return "\n".join(lines)


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    try:
        import pulp  # noqa: F401
    except ImportError:
        print("verify: PuLP is not installed (pip install pulp); it provides the CBC solver "
              "the knapsack proofs run against", file=sys.stderr)
        return 2
    from .ilp import cbc_path

    if cbc_path() is None:
        print("verify: no CBC executable found (pip install 'pulp[cbc]', or set CKN_VERIFY_CBC)",
              file=sys.stderr)
        return 2
    log = (lambda s: None) if args.quiet else (lambda s: print(s, file=sys.stderr, flush=True))

    if args.replay is not None:
        data = json.loads(args.replay.read_text())
        inst = Instance.from_json(data.get("instance", data))
        rec = checks.check_knapsack(inst, time_limit=args.time_limit)
        print(json.dumps(rec, indent=1, sort_keys=True))
        return 0 if rec["status"] == "ok" else 1

    count = args.instances if args.instances is not None else (
        LONG_INSTANCES if args.long else QUICK_INSTANCES)
    if count < 0 or args.jobs < 1:
        print("verify: --instances must be >= 0 and --jobs >= 1", file=sys.stderr)
        return 2
    sections = set(args.only or ("knapsack", "bm25", "rrf", "minhash"))
    scale = 10 if args.long else 1
    t0 = time.perf_counter()
    report: dict = {"seed": args.seed, "mode": "long" if args.long else "quick",
                    "jobs": args.jobs, "argv": sys.argv[1:] if argv is None else list(argv),
                    "versions": _versions(), "kinds": list(KINDS) + list(HUGE_KINDS)}
    passed = True
    if "knapsack" in sections:
        log(f"knapsack: {count} instances, seed {args.seed}, {args.jobs} jobs")
        k = run_knapsack((args.seed, args.start, count), jobs=args.jobs,
                         time_limit=args.time_limit, failures_dir=args.failures_dir,
                         progress=log)
        report["knapsack"] = k
        passed &= k["passed"]
        huge = args.huge if args.huge is not None else (LONG_HUGE if args.long else QUICK_HUGE)
        log(f"knapsack, huge numbers: {huge} instances, seed {args.seed}")
        k = run_knapsack((args.seed, args.start, huge), jobs=args.jobs,
                         time_limit=args.time_limit, failures_dir=args.failures_dir,
                         progress=log, huge=True)
        report["knapsack_huge"] = k
        passed &= k["passed"]
    if "bm25" in sections:
        log("bm25: hand-computed case and random pools")
        t = time.perf_counter()
        try:
            import bm25s  # noqa: F401
            use_bm25s = True
        except ImportError:
            log("  bm25s not installed: cross-check against it skipped (pip install bm25s)")
            use_bm25s = False
        report["bm25"] = {"hand": checks.check_bm25_hand(),
                          "pools": checks.check_bm25_pools(args.seed, 200 * scale,
                                                           use_bm25s=use_bm25s)}
        report["bm25"]["wall_s"] = round(time.perf_counter() - t, 3)
        report["bm25"]["bm25s_used"] = use_bm25s
        passed &= report["bm25"]["hand"]["ok"] and report["bm25"]["pools"]["ok"]
    if "rrf" in sections:
        log("rrf: fused order vs reference")
        t = time.perf_counter()
        report["rrf"] = checks.check_rrf(args.seed, 500 * scale)
        report["rrf"]["wall_s"] = round(time.perf_counter() - t, 3)
        passed &= report["rrf"]["ok"]
    if "minhash" in sections:
        log("minhash: estimated vs exact Jaccard")
        t = time.perf_counter()
        report["minhash"] = checks.check_minhash(args.seed, 2000 * (5 if args.long else 1))
        report["minhash"]["wall_s"] = round(time.perf_counter() - t, 3)
        passed &= report["minhash"]["ok"]
    report["wall_s"] = round(time.perf_counter() - t0, 3)
    report["passed"] = bool(passed)
    text = _summary(report)
    report["summary"] = text
    if args.report is not None:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(json.dumps(report, indent=1, sort_keys=True) + "\n")
    try:
        print(text, flush=True)
    except BrokenPipeError:  # as json.tool does
        sys.stderr.close()
    return 0 if passed else 1
