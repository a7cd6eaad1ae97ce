"""minhash_signature through the C API with arbitrary permutation parameters: the AVX-512, AVX2
and portable kernels must give exactly min over x of (a*x + b) mod p for every a in [1, p - 1],
b in [0, p - 1] and x < 2**32 (an x >= p acting as x mod p, as ckn/minhash.pxd documents),
including the edges of the single-fold bound (a = p - 1, b = p - 1, x = p, p + 1, 2**32 - 1).

The Python API cannot reach these inputs (it fixes a, b and rejects x >= p), so a small
extension is compiled against the ckn under test, as tests/test_cimport.py does."""

import importlib.util
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ckn.minhash

pytest.importorskip("Cython")
pytest.importorskip("setuptools")

P = 2**31 - 1

KERNEL_PYX = """
from cpython cimport array
import array as pyarray
from ckn.minhash cimport minhash_signature
from ckn.typedefs cimport slot_t

def signature(xs, a, b):
    cdef array.array x = pyarray.array("I", xs)
    cdef array.array pa = pyarray.array("I", a)
    cdef array.array pb = pyarray.array("I", b)
    cdef Py_ssize_t m = len(x), n = len(pa)
    cdef array.array out = pyarray.array("I", bytes(4 * n))
    with nogil:
        minhash_signature(<slot_t*>x.data.as_voidptr, m, <slot_t*>pa.data.as_voidptr,
                          <slot_t*>pb.data.as_voidptr, n, <slot_t*>out.data.as_voidptr)
    return list(out)
"""

BUILD = """
from setuptools import Extension, setup
from Cython.Build import cythonize
setup(ext_modules=cythonize([Extension("mh_kernel", ["mh_kernel.pyx"])],
                            compiler_directives={"language_level": 3}),
      script_args=["build_ext", "--inplace", "--quiet"])
"""

CKN_PARENT = str(Path(ckn.minhash.__file__).resolve().parent.parent)


def reference(xs, a, b):
    return [min(((ai * x + bi) % P for x in xs), default=P) for ai, bi in zip(a, b)]


@pytest.fixture(scope="module")
def kernel_so(tmp_path_factory):
    build = tmp_path_factory.mktemp("mh_kernel")
    (build / "mh_kernel.pyx").write_text(KERNEL_PYX)
    env = dict(os.environ,
               PYTHONPATH=os.pathsep.join([CKN_PARENT, os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, "-c", BUILD], cwd=build, env=env,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    [so] = [p for p in build.iterdir()
            if p.name.startswith("mh_kernel") and p.suffix in (".so", ".pyd")]
    return so


@pytest.fixture(scope="module")
def kernel(kernel_so):
    spec = importlib.util.spec_from_file_location("mh_kernel", kernel_so)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


A_EDGE = [1, 2, 3, P // 2, P - 3, P - 2, P - 1]
B_EDGE = [0, 1, 2, P // 2, P - 3, P - 2, P - 1]
X_EDGE = [0, 1, 2, P - 2, P - 1, P, P + 1, P + 2, 2 * P - 1, 2 * P, 2**32 - 2, 2**32 - 1]
A = st.one_of(st.sampled_from(A_EDGE), st.integers(1, P - 1))
B = st.one_of(st.sampled_from(B_EDGE), st.integers(0, P - 1))
X = st.one_of(st.sampled_from(X_EDGE), st.integers(0, 2**32 - 1))


@st.composite
def parameters(draw):
    # up to 80 permutations: 64-wide passes of 8-lane vectors, the last one masked (AVX-512),
    # 8-wide blocks and 32-wide passes (AVX2) and portable remainders
    n = draw(st.integers(1, 80))
    return draw(st.lists(A, min_size=n, max_size=n)), draw(st.lists(B, min_size=n, max_size=n))


@given(st.lists(X, max_size=12), parameters())
def test_kernel_is_exact_for_any_parameters(kernel, xs, ab):
    a, b = ab
    assert kernel.signature(xs, a, b) == reference(xs, a, b)


@pytest.mark.parametrize("width", [13, 24, 40, 64, 70, 72, 80])
def test_kernel_single_fold_bound_edges(kernel, width):
    # Every (a, b) edge pair in every lane position of the SIMD passes, with each x edge alone
    # and all of them together.
    pairs = [(a, b) for a in A_EDGE for b in B_EDGE]
    for start in range(0, len(pairs), width):
        chunk = (pairs[start:start + width] * width)[:width]
        a, b = [p[0] for p in chunk], [p[1] for p in chunk]
        for xs in [[x] for x in X_EDGE] + [X_EDGE]:
            assert kernel.signature(xs, a, b) == reference(xs, a, b), (xs, a, b)


# a with 4a = -1 (mod p): floor(a * 2**64 / p) drops the largest fraction (p - 1) / p, which
# the AVX-512 kernel's fixed-point bound must absorb (ckn/minhash_simd.h); likewise for b.
FRACTION_EDGE = (3 * P - 1) // 4


def fixed_point_edge_cases():
    """For each (a, b) edge pair, the x (and x + p, x + 2p below 2**32) that give r = 0, 1,
    p - 2, p - 1, alone and together: the extremes of the fixed-point kernel's error
    (largest truncated fractions, x up to 2**32 - 1, r at both ends of [0, p)). (a, b) sits
    in lanes 0 and 9 of 11 (both vectors, the second one masked)."""
    a_edges = A_EDGE + [FRACTION_EDGE]
    b_edges = B_EDGE + [FRACTION_EDGE]
    pairs = [(a, b) for a in a_edges for b in b_edges]
    cases = []
    for a0, b0 in pairs:
        inverse = pow(a0, -1, P)
        xs = []
        for r in (0, 1, P - 2, P - 1):
            x = (r - b0) * inverse % P
            xs += [v for v in (x, x + P, x + 2 * P) if v < 2**32]
        a = [a0] + [p[0] for p in pairs[:8]] + [a0, 2]
        b = [b0] + [p[1] for p in pairs[:8]] + [b0, 3]
        cases += [(chosen, a, b) for chosen in [[x] for x in xs] + [xs]]
    return cases


def test_kernel_fixed_point_edges(kernel):
    # In-process: the kernel this CPU picks (every kernel runs them in the test below).
    for chosen, a, b in fixed_point_edge_cases():
        assert kernel.signature(chosen, a, b) == reference(chosen, a, b), (chosen, a, b)


@pytest.mark.parametrize("setting, paths", [
    ({"CKN_MH_KERNEL": "fixed"}, ("avx512-fixed", "avx2", "portable")),
    ({"CKN_MH_KERNEL": "fold"}, ("avx512-fold", "avx2", "portable")),
    ({"CKN_NO_AVX512": "1"}, ("avx2", "portable")),   # the AVX2 kernel where the CPU has it
    ({"CKN_NO_SIMD": "1"}, ("portable",)),
])
def test_every_kernel_is_exact(kernel_so, setting, paths):
    # The same checks on each kernel the CPU has, chosen by the environment (read when
    # ckn.minhash is imported): both AVX-512 kernels, AVX2, portable.
    code = (
        "import importlib.util, json, sys\n"
        "import ckn.minhash\n"
        "spec = importlib.util.spec_from_file_location('mh_kernel', sys.argv[1])\n"
        "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
        "cases = json.loads(sys.stdin.read())\n"
        "print(json.dumps([ckn.minhash.SIGNATURE_KERNEL, [m.signature(*c) for c in cases]]))\n")
    rnd = random.Random(7)

    def pick(edges, lo, hi):    # an edge value half of the time, else uniform in [lo, hi)
        return rnd.choice(edges) if rnd.random() < 0.5 else rnd.randrange(lo, hi)

    cases = []
    for n in (1, 7, 8, 9, 16, 17, 24, 31, 32, 33, 40, 48, 64, 65, 72, 79, 80):
        for _ in range(20):
            a = [pick(A_EDGE, 1, P) for _ in range(n)]
            b = [pick(B_EDGE, 0, P) for _ in range(n)]
            xs = [pick(X_EDGE, 0, 2**32) for _ in range(rnd.randrange(12))]
            cases.append((xs, a, b))
    cases += fixed_point_edge_cases()
    env = {k: v for k, v in os.environ.items()
           if k not in ("CKN_NO_SIMD", "CKN_NO_AVX512", "CKN_MH_KERNEL")}
    env.update(setting, PYTHONPATH=os.pathsep.join([CKN_PARENT, os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, "-c", code, str(kernel_so)], input=json.dumps(cases),
                          env=env, capture_output=True, text=True, check=True)
    simd, got = json.loads(proc.stdout)
    assert simd in paths
    assert got == [reference(*c) for c in cases]
