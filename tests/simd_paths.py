"""Run a snippet in fresh interpreters with ckn's AVX2 paths on and off (``CKN_NO_SIMD``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def json_with_and_without_simd(code: str) -> tuple:
    """What ``python -c code`` prints as JSON (run from the repository root) with
    ``CKN_NO_SIMD=0``, then with ``CKN_NO_SIMD=1``, which ckn's extensions read at import."""
    results = []
    for flag in ("0", "1"):
        env = {**os.environ, "CKN_NO_SIMD": flag}
        proc = subprocess.run([sys.executable, "-c", code], env=env, cwd=str(ROOT),
                              capture_output=True, text=True, check=True)
        results.append(json.loads(proc.stdout))
    return tuple(results)
