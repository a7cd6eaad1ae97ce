"""Leave-one-source-out evaluation of the sanitizer's line detector.

    python tools/sanitizer_eval.py [--json PATH]

For every source S (each third-party source in ``../shared/injection-data/``, ``cse2_en`` and
``cse2_multilingual_mt`` together as ``cse2``, and every project file ``tests/data/injection_*``):
train without S, choose the threshold without S, then score S. Reported per source and group:
recall on attack lines of the line-detectable groups, false-positive rate on benign lines (per
language for the multilingual benign sources). ``task_hijack`` and ``direct_social`` (a plain task
or question, undecidable from the line alone) are reported apart and never trained on. Per language:
each language of ``cse2_multilingual_mt`` is left out on its own. Documents: every document of
``documents.jsonl`` is scanned line by line with the model that held out its attack's source; its
verdict on the spliced line must equal the verdict on the same line alone.

A verdict is: a structural entry of ``ckn.sanitizer.STRUCTURAL`` matches, the score reaches the
threshold, or a segment is in the held-out model's memory of known attacks (reported apart too).
Sources with fewer than 20 attack lines are pooled as ``small`` in the macro average.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_sanitizer as ts  # noqa: E402

fold_of = ts.fold_of


def structural_flags(rows) -> list[bool]:
    """Whether a row has a segment the structural table marks (``ckn.sanitizer`` when importable)."""
    try:
        from ckn.sanitizer import structural_hit
    except ImportError:
        return [False] * len(rows)
    return [any(structural_hit(s) for s in ts.segments(r["text"])) for r in rows]


def _rate(a: int, n: int) -> str:
    return f"{100 * a / n:5.1f} % ({a}/{n})" if n else "   -"


def report(rows, feats, keys, queries, n_feat, out_json=None, sources_only=False) -> dict:
    """Print the evaluation (``keys``, ``queries``: ``train_sanitizer.memory_keys`` with and without
    ``every``); the figures as a dict (and as JSON to ``out_json``)."""
    struct_hit = structural_flags(rows)
    folds = sorted({fold_of(r) for r in rows if r["source"] != ts.OWN})
    result = {"sources": {}, "languages": {}, "documents": {}}
    verdicts: dict[int, bool] = {}
    by_memory: dict[int, bool] = {}       # flagged, and by the memory alone
    models = {}
    for fold in folds:
        test = [i for i, r in enumerate(rows) if fold_of(r) == fold]
        train = [i for i, r in enumerate(rows) if fold_of(r) != fold]
        w, t, mem = ts.train(rows, feats, keys, train, n_feat)
        models[fold] = (w, t, mem)
        for i, s, m in zip(test, ts.row_scores(feats, w, test), ts.known_rows(queries, mem, test)):
            verdicts[i] = struct_hit[i] or s >= t or m
            by_memory[i] = m and not (struct_hit[i] or s >= t)
    # per source / group
    stats = defaultdict(lambda: [0, 0])
    for i, r in enumerate(rows):
        if i not in verdicts:
            continue
        key = (r["source"], r["label"], r.get("group") or "")
        stats[key][0] += verdicts[i]
        stats[key][1] += 1
    print("\nleave-one-source-out (train without the source, threshold without it, score it)")
    print(f"{'source':28} {'label':7} {'group':26} {'flagged':>20}")
    for (src, lab, grp), (a, n) in sorted(stats.items()):
        tag = "  (not line-detectable)" if grp in ts.UNDETECTABLE else ""
        print(f"{src:28} {lab:7} {grp[:26]:26} {_rate(a, n):>20}{tag}")
    # macro recall over third-party detectable attack sources
    per_src = defaultdict(lambda: [0, 0, 0])   # flagged, lines, flagged by the memory alone
    bfp = defaultdict(lambda: [0, 0])
    for i, r in enumerate(rows):
        if i not in verdicts:
            continue
        third = not r["source"].startswith("injection_")
        if r["label"] == "attack" and r.get("group") not in ts.UNDETECTABLE:
            per_src[(third, r["source"])][0] += verdicts[i]
            per_src[(third, r["source"])][1] += 1
            per_src[(third, r["source"])][2] += by_memory[i]
        elif r["label"] == "benign":
            src = r["source"]
            if src in ("owasp_llm_top10",):
                bfp[(third, f"{src}/{r['lang']}")][0] += verdicts[i]
                bfp[(third, f"{src}/{r['lang']}")][1] += 1
            bfp[(third, src)][0] += verdicts[i]
            bfp[(third, src)][1] += 1
    pooled = defaultdict(lambda: [0, 0, 0])
    for (third, src), (a, n, m) in per_src.items():
        if third:
            name = src if n >= 20 else "small"
            for j, v in enumerate((a, n, m)):
                pooled[name][j] += v
    recalls = {s: a / n for s, (a, n, _m) in pooled.items()}
    macro = sum(recalls.values()) / max(1, len(recalls))
    unaided = sum((a - m) / n for a, n, m in pooled.values()) / max(1, len(pooled))
    print(f"\nthird-party line-detectable attack recall, macro over {len(recalls)} sources: {100 * macro:.1f} % "
          f"({100 * unaided:.1f} % without the memory of known attacks)")
    for s, v in sorted(recalls.items(), key=lambda x: x[1]):
        print(f"  {s:28} {100 * v:5.1f} %  ({pooled[s][0]}/{pooled[s][1]}; by the memory alone {pooled[s][2]})")
    worst = max((a / n, k) for k, (a, n) in bfp.items() if n >= 20)
    print(f"benign false positives (held out), worst block: {worst[1][1]} {100 * worst[0]:.2f} %")
    for (third, src), (a, n) in sorted(bfp.items()):
        print(f"  {src:34} {_rate(a, n)}")
    proj_a = [per_src[k][:2] for k in per_src if not k[0]]
    proj_b = [bfp[k] for k in bfp if not k[0]]
    pa = (sum(a for a, _ in proj_a), sum(n for _, n in proj_a))
    pb = (sum(a for a, _ in proj_b), sum(n for _, n in proj_b))
    print(f"project files (each held out): recall {_rate(*pa)}, false positives {_rate(*pb)}")
    result.update(macro_recall=macro, macro_without_memory=unaided, recalls=recalls, worst_fp=worst[0],
                  project={"recall": pa, "fp": pb},
                  sources={"/".join(k): v for k, v in stats.items()},
                  benign={k[1]: v for k, v in bfp.items()})
    if sources_only:
        return result
    # per language of the multilingual CyberSecEval set
    print("\nleave-one-language-out (cse2_multilingual_mt, line-detectable groups)")
    langs = sorted({r["lang"] for r in rows if r["source"] == "cse2_multilingual_mt"})
    for lang in langs:
        test = [i for i, r in enumerate(rows) if r["source"] == "cse2_multilingual_mt" and r["lang"] == lang]
        train = [i for i, r in enumerate(rows) if not (r["source"] == "cse2_multilingual_mt" and r["lang"] == lang)]
        w, t, mem = ts.train(rows, feats, keys, train, n_feat)
        det = [i for i in test if rows[i].get("group") not in ts.UNDETECTABLE]
        by_form = [struct_hit[i] or s >= t for i, s in zip(det, ts.row_scores(feats, w, det))]
        mem_v = ts.known_rows(queries, mem, det)
        a = sum(f or m for f, m in zip(by_form, mem_v))
        alone = sum(m and not f for f, m in zip(by_form, mem_v))
        soc = [i for i in test if rows[i].get("group") in ts.UNDETECTABLE]
        b = sum(struct_hit[i] or s >= t or m
                for i, s, m in zip(soc, ts.row_scores(feats, w, soc), ts.known_rows(queries, mem, soc)))
        result["languages"][lang] = (a, len(det), alone)
        print(f"  {lang:9} {_rate(a, len(det)):>20} (by the memory alone {alone})   direct_social {_rate(b, len(soc))}")
    documents(models, result)
    if out_json:
        Path(out_json).write_text(json.dumps(result, indent=1, default=list))
    return result


def documents(models, result) -> None:
    """Document verdicts (held-out model of the attack's source) against the single-line verdicts."""
    data = ts.shared_dir()
    if data is None or not (data / "documents.jsonl").is_file():
        return
    import sanitizer_reference as ref
    fold = ts.fold_table()
    trie = ref.Trie(ts.lexicon_entries(fold))
    k = len(ts.CONCEPTS)
    try:
        from ckn.sanitizer import structural_hit
    except ImportError:
        def structural_hit(_s):
            return False

    def flagged(line, w, t, mem):  # the line or a payload in it
        return any(structural_hit(s) or (bool(f := ref.line_features(s, trie, k, fold)) and ref.score(f, w) >= t)
                   or ref.known(ref.line_keys(s, fold), mem) for s in ts.segments(line))

    same = caught = fp_lines = lines = 0
    docs = [json.loads(x) for x in open(data / "documents.jsonl", encoding="utf-8")]
    for d in docs:
        w, t, mem = models[ts.fold_of({"source": d["attack_source"]})]
        flags = [flagged(s, w, t, mem) for s in ts.lines(d["text"])]
        attack = set(d["attack_lines"])
        raw_lines = d["text"].split("\n")
        alone = [flagged(ts.lines(raw_lines[j])[0], w, t, mem) for j in attack]
        doc_v = [flags[j] for j in sorted(attack)]
        same += doc_v == alone
        caught += any(doc_v)
        fp_lines += sum(v for j, v in enumerate(flags) if j not in attack)
        lines += len(flags) - len(attack)
    print(f"\ndocuments.jsonl: {len(docs)} documents; spliced-line verdict equals the line-alone verdict in "
          f"{same}/{len(docs)}; attack line redacted in {caught}; benign lines redacted {_rate(fp_lines, lines)}")
    result["documents"] = {"n": len(docs), "same": same, "caught": caught, "fp_lines": (fp_lines, lines)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", help="also write the figures as JSON to this path")
    ap.add_argument("--sources-only", action="store_true", help="skip the per-language and document runs")
    args = ap.parse_args(argv)
    rows = ts.load_rows()
    fold = ts.fold_table()
    feats = ts.featurize(rows, ts.lexicon_entries(fold), fold)
    report(rows, feats, ts.memory_keys(rows, fold, every=True), ts.memory_keys(rows, fold),
           ts.ref.n_features(len(ts.CONCEPTS)), args.json, args.sources_only)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
