"""Importing ckn writes nothing, starts nothing and fetches nothing."""

import os
import subprocess
import sys
from pathlib import Path

import ckn

PROBE = """
import os, sys, threading
before = set(os.listdir("."))
import ckn, ckn.cli, ckn.sanitize_eval
assert set(os.listdir(".")) == before, "import wrote files"
assert threading.active_count() == 1, "import started a thread"
net = sorted(m for m in ("socket", "ssl", "urllib.request", "http.client") if m in sys.modules)
assert not net, f"import loaded network modules: {net}"
print("ok")
"""


def test_import_has_no_side_effects(tmp_path):
    # Import the ckn under test (installed or in-place build), from an empty directory.
    env = dict(os.environ, PYTHONPATH=str(Path(ckn.__file__).resolve().parent.parent))
    proc = subprocess.run([sys.executable, "-B", "-c", PROBE], cwd=tmp_path, env=env,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "ok\n"
    assert list(tmp_path.iterdir()) == []
