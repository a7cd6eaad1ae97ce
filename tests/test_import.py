"""Importing ckn writes nothing, starts nothing and fetches nothing."""

import os
import subprocess
import sys
from pathlib import Path

import ckn

PROBE = """
import os, sys, threading
before = set(os.listdir("."))
import ckn, ckn.cli
assert set(os.listdir(".")) == before, "import wrote files"
assert threading.active_count() == 1, "import started a thread"
net = sorted(m for m in ("socket", "ssl", "urllib.request", "http.client") if m in sys.modules)
assert not net, f"import loaded network modules: {net}"
print("ok")
"""


def _probe(code: str, cwd: Path) -> None:
    """Run ``code`` with the ckn under test (installed or in-place build) in a fresh
    interpreter from ``cwd``; it prints "ok"."""
    env = dict(os.environ, PYTHONPATH=str(Path(ckn.__file__).resolve().parent.parent))
    proc = subprocess.run([sys.executable, "-B", "-c", code], cwd=cwd, env=env,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "ok\n"


def test_import_has_no_side_effects(tmp_path):
    _probe(PROBE, tmp_path)  # from an empty directory
    assert list(tmp_path.iterdir()) == []


LAZY_PROBE = """
import json, pathlib, sys
import ckn
from ckn import sanitizer
terms = sys.modules["ckn.terms"]  # (ckn.terms is the function)
assert sanitizer._MODEL is None, "sanitizer weights loaded at import"
assert terms._cjk_run.cache_info().currsize == 0, "compiled at import"
example = json.loads((pathlib.Path(ckn.__file__).parent / "worked_example.json").read_text())
ckn.pack(example)
assert sanitizer._MODEL is not None, "weights not loaded by the first sanitize"
assert terms._cjk_run.cache_info().currsize == 0, "compiled by an ASCII pack"
assert ckn.terms("東京タ") == ["東京", "京タ"] and terms._cjk_run.cache_info().currsize == 1
print("ok")
"""


def test_costly_tables_load_on_first_use(tmp_path):
    # An import loads neither the sanitizer's weights nor the CJK pattern; the first pack loads
    # the weights, and a pack of ASCII text never compiles the CJK pattern.
    _probe(LAZY_PROBE, tmp_path)
