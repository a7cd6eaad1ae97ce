"""Build ckn's wheel and sdist, install each into a fresh virtualenv and smoke-test it there.

    python tools/check_dist.py [--keep DIR] [--no-sdist-tests]
    python tools/check_dist.py --smoke      # only the smoke checks, in this interpreter

Steps: ``python -m build`` (the ``build`` package; its isolated build environment fetches
setuptools and Cython) writes a wheel and an sdist into a temporary directory. For each artifact
a new virtualenv is made (``python -m venv``) and the artifact installed into it without the
project's source on the path (the sdist compiles the extensions again). There the smoke checks
run (``--smoke``): ``import ckn``; ``python -m ckn pack --example`` prints the worked example's
receipt; every compiled module is a native extension loaded from the installed package, not a
``.py`` fallback, and is called once through its Python API. For the sdist, its own ``tests/``
(unpacked from the archive) then run against the installed copy: ``test_import.py`` and
``test_pickle.py`` (needs pytest and hypothesis from the package index; skipped with
``--no-sdist-tests``). One verdict line per artifact; exit status 0 when every artifact passes,
1 otherwise.
"""

import argparse
import importlib
import importlib.machinery
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMPILED = ("knapsack", "minhash", "_minhash_common", "_dedup", "scanner", "_bm25", "_columns",
            "_fusion", "_pipeline", "_sanitize")
SDIST_TESTS = ("tests/test_import.py", "tests/test_pickle.py")
TEST_REQUIREMENTS = ("pytest>=7", "hypothesis>=6")


def smoke() -> None:
    """The checks run inside the environment under test; raises AssertionError on failure."""
    import ckn  # noqa: PLC0415 (main() keeps the source tree off sys.path)

    package = Path(ckn.__file__).resolve().parent
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    for name in COMPILED:
        module = importlib.import_module(f"ckn.{name}")
        assert module.__file__.endswith(suffixes), f"ckn.{name} is not compiled: {module.__file__}"
        assert Path(module.__file__).resolve().parent == package, module.__file__
    out = subprocess.run([sys.executable, "-m", "ckn", "pack", "--example"], check=True,
                         capture_output=True, text=True).stdout
    receipt = json.loads(out)
    assert receipt == ckn.pack(ckn.example_pool()).receipt, out
    assert receipt["selected_ids"], out
    # The kernels once each through their Python API (no cimport, no compiler needed).
    from ckn.knapsack import solve  # noqa: PLC0415
    from ckn.minhash import MinHasher, similarity  # noqa: PLC0415

    assert solve([3, 4, 5], [4, 5, 7], 8).indices == (0, 2)
    hasher = MinHasher(32)
    one, two = hasher.text_signature("alarm retry budget six times"), \
        hasher.text_signature("alarm retry budget six times")
    assert len(one) == 32 and similarity(one, two) == 1.0
    assert ckn.terms("Alarm retries") == ["alarm", "retries"]
    ranked = ckn.rank(query="alarm retry", query_embedding=[1.0, 0.0], token_budget=5, candidates=[
        {"id": "a", "tokens": 1, "text": "alarm retry budget", "embedding": [1.0, 0.0]},
        {"id": "b", "tokens": 1, "text": "invoices", "embedding": [0.0, 1.0]}])
    assert ranked.ranked_ids == ["a", "b"], ranked.ranked_ids
    print(f"smoke ok: ckn {ckn.__version__} from {package}")


def run(cmd: list, **kwargs) -> subprocess.CompletedProcess:
    """``cmd`` with output captured; raises CalledProcessError (with the output) on failure."""
    return subprocess.run([str(c) for c in cmd], check=True, capture_output=True, text=True,
                          **kwargs)


def new_venv(path: Path) -> Path:
    """A fresh virtualenv at ``path`` with an up-to-date pip; its python."""
    run([sys.executable, "-m", "venv", path])
    python = path / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    run([python, "-m", "pip", "install", "-q", "-U", "pip"])
    return python


def check(artifact: Path, work: Path, sdist_tests: bool) -> tuple[bool, str]:
    """Install ``artifact`` in a new virtualenv under ``work`` and smoke-test it: (ok, note)."""
    kind = "wheel" if artifact.suffix == ".whl" else "sdist"
    python = new_venv(work / f"venv-{kind}")
    started = time.monotonic()
    run([python, "-m", "pip", "install", "-q", artifact])
    installed = time.monotonic() - started
    clean = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    empty = work / f"cwd-{kind}"  # neither the source tree nor the unpacked sdist
    empty.mkdir()
    out = run([python, Path(__file__).resolve(), "--smoke"], cwd=empty, env=clean).stdout
    if str(ROOT / "ckn") in out:
        return False, f"the smoke checks imported the source tree: {out.strip()}"
    note = f"installed in {installed:.0f} s, smoke ok"
    if kind == "sdist" and sdist_tests:
        with tarfile.open(artifact) as tar:
            tar.extractall(work / "unpacked", filter="data")
        (top,) = (work / "unpacked").iterdir()
        missing = [t for t in SDIST_TESTS if not (top / t).is_file()]
        if missing:
            return False, f"{note}; the sdist lacks {', '.join(missing)} (MANIFEST.in)"
        run([python, "-m", "pip", "install", "-q", *TEST_REQUIREMENTS])
        # --import-mode=append: the installed ckn wins over the unpacked ckn/ next to tests/
        result = run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                      "--import-mode=append", *(Path(t).name for t in SDIST_TESTS)],
                     cwd=top / "tests", env=clean)
        note += f"; its tests: {result.stdout.strip().splitlines()[-1]}"
    return True, note


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--smoke", action="store_true",
                        help="only run the smoke checks in this interpreter")
    parser.add_argument("--keep", type=Path, help="build and install under DIR and keep it")
    parser.add_argument("--no-sdist-tests", action="store_true",
                        help="do not run the sdist's tests (they need pytest from the index)")
    args = parser.parse_args(argv)
    if args.smoke:
        sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT]
        smoke()
        return 0
    with tempfile.TemporaryDirectory(prefix="ckn-dist-") as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        dist = work / "dist"
        started = time.monotonic()
        try:
            # from the temporary directory: a build/ folder in the checkout would shadow `build`
            run([sys.executable, "-m", "build", "--outdir", dist, ROOT], cwd=work)
        except subprocess.CalledProcessError as exc:
            print(f"build: FAIL\n{exc.stdout[-3000:]}{exc.stderr[-3000:]}")
            return 1
        print(f"build: wheel and sdist in {time.monotonic() - started:.0f} s")
        failures = 0
        for artifact in sorted(dist.iterdir()):
            try:
                ok, note = check(artifact, work, not args.no_sdist_tests)
            except subprocess.CalledProcessError as exc:
                ok, note = False, f"{' '.join(map(str, exc.cmd[:4]))} failed:\n" \
                                  f"{exc.stdout[-2000:]}{exc.stderr[-2000:]}"
            failures += not ok
            print(f"{artifact.name}: {'PASS' if ok else 'FAIL'}: {note}")
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
