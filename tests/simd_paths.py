"""Run a snippet in fresh interpreters with ckn's SIMD paths on and off: ``CKN_NO_SIMD=1``
forces the portable code, ``CKN_NO_AVX512=1`` caps ``ckn.minhash`` and ``ckn.scanner`` at
their AVX2 kernels, ``CKN_NO_VBMI2=1`` runs the scanner's AVX-512 path without VBMI2,
``CKN_MH_KERNEL=fixed`` or ``fold`` picks ``ckn.minhash``'s AVX-512 signature kernel."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The SIMD levels ckn.minhash and ckn.scanner can run at, widest first, as environment settings.
SIMD_LEVELS = ({}, {"CKN_NO_AVX512": "1"}, {"CKN_NO_SIMD": "1"})


def json_with_env(code: str, settings) -> tuple:
    """What ``python -c code`` prints as JSON (run from the repository root), once per
    environment setting of ``settings`` (each a dict added to a copy of ``os.environ`` from
    which ckn's SIMD switches are removed)."""
    results = []
    base = {k: v for k, v in os.environ.items()
            if k not in ("CKN_NO_SIMD", "CKN_NO_AVX512", "CKN_NO_VBMI2", "CKN_MH_KERNEL")}
    for setting in settings:
        proc = subprocess.run([sys.executable, "-c", code], env={**base, **setting},
                              cwd=str(ROOT), capture_output=True, text=True, check=True)
        results.append(json.loads(proc.stdout))
    return tuple(results)


def json_with_and_without_simd(code: str) -> tuple:
    """``json_with_env`` with the default paths, then with ``CKN_NO_SIMD=1``."""
    return json_with_env(code, ({}, {"CKN_NO_SIMD": "1"}))
