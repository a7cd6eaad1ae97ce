"""Importing ckn, ckn.integrations or the CLI imports no framework (only an adapter module does)."""

import os
import subprocess
import sys
from pathlib import Path

import ckn

FRAMEWORKS = ("langchain_core", "langchain_classic", "llama_index", "haystack", "dask",
              "distributed", "pydantic")

PROBE = """
import sys
import {module}
loaded = sorted({{m.split(".")[0] for m in sys.modules}} & set({frameworks!r}))
print(",".join(loaded))
"""


def loaded_after(module: str) -> list[str]:
    env = dict(os.environ, PYTHONPATH=str(Path(ckn.__file__).resolve().parent.parent))
    proc = subprocess.run([sys.executable, "-c", PROBE.format(module=module,
                                                              frameworks=FRAMEWORKS)],
                          env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return [m for m in proc.stdout.strip().split(",") if m]


def test_core_imports_no_framework():
    assert loaded_after("ckn, ckn.integrations, ckn.cli") == []
