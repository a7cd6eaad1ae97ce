"""The C API as a consumer uses it: compile tests/cimport_consumer/*.pyx against the installed
ckn (its shipped .pxd files) in a temporary directory, import it and call the kernels."""

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import ckn.knapsack
import ckn.minhash
from ckn.terms import terms

pytest.importorskip("Cython")
pytest.importorskip("setuptools")

CONSUMER = Path(__file__).parent / "cimport_consumer"

BUILD = """
from setuptools import Extension, setup
from Cython.Build import cythonize
setup(ext_modules=cythonize([Extension("consumer", ["consumer.pyx"])],
                            compiler_directives={"language_level": 3}),
      script_args=["build_ext", "--inplace", "--quiet"])
"""


@pytest.fixture(scope="module")
def consumer(tmp_path_factory):
    build = tmp_path_factory.mktemp("cimport_consumer")
    shutil.copy(CONSUMER / "consumer.pyx", build)
    # Cython finds `cimport ckn.*` through sys.path: put the directory holding the imported ckn
    # package first, so the .pxd files checked are those of the ckn under test.
    ckn_parent = str(Path(ckn.knapsack.__file__).resolve().parent.parent)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ckn_parent, os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, "-c", BUILD], cwd=build, env=env,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    [so] = [p for p in build.iterdir() if p.name.startswith("consumer") and p.suffix in (".so", ".pyd")]
    spec = importlib.util.spec_from_file_location("consumer", so)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("max_memory", [0, 1 << 20])
def test_knapsack_kernel_through_cimport(consumer, max_memory):
    weights, values = [95, 96, 75, 175, 40], [1639, 1587, 1572, 1666, 1541]
    status, chosen, value, weight = consumer.knapsack(weights, values, 180, max_memory)
    assert status == consumer.OK
    expected = ckn.knapsack.solve(weights, values, 180)
    assert tuple(chosen) == expected.indices == (0, 2)
    assert (value, weight) == (expected.total_value, expected.total_weight) == (3211, 170)


def test_knapsack_kernel_reports_small_workspace(consumer):
    assert consumer.knapsack_small_workspace([3, 4], [5, 6], 7) == consumer.ENOMEM


def test_minhash_kernels_through_cimport(consumer):
    spec = "Durable Object SQLite storage alarms retry up to six times with exponential backoff under a strict cpu budget."
    overview = "General storage overview covering durable object sqlite alarm retry budget and unrelated background padding text."
    signatures, sim = consumer.minhash([terms(spec), terms(overview)], 64)
    hasher = ckn.minhash.MinHasher(64)
    assert signatures[0][:4] == [352714083, 24494720, 424488535, 19920883]  # spec §12
    assert signatures[0] == list(hasher.text_signature(spec))
    assert signatures[1] == list(hasher.text_signature(overview))
    assert sim == 0.03125


def test_scanner_kernel_through_cimport(consumer):
    text = "Durable Object_SQLite: alarms retry 6 times, e.g. x2-y3."
    assert consumer.ascii_term_hashes(text.encode("ascii")) == list(
        ckn.minhash.term_hashes(terms(text)))
    assert consumer.ascii_term_hashes(b"") == []
