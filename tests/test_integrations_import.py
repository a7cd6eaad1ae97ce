"""Importing ckn or ckn.integrations imports no framework; each adapter imports only its own."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

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


@pytest.mark.parametrize("module", ["ckn", "ckn.integrations", "ckn.cli"])
def test_core_imports_no_framework(module):
    assert loaded_after(module) == []


@pytest.mark.parametrize("module, framework", [
    ("ckn.integrations.langchain", "langchain_core"),
    ("ckn.integrations.llama_index", "llama_index"),
    ("ckn.integrations.haystack", "haystack"),
    ("ckn.integrations.dask", "dask"),
])
def test_adapter_imports_its_framework(module, framework):
    pytest.importorskip(framework)
    loaded = loaded_after(module)
    assert framework in loaded
    others = {"langchain_core", "llama_index", "haystack", "dask"} - {framework}
    assert not others & set(loaded)
