"""Build script: declares the Cython extensions; metadata lives in pyproject.toml.

Environment switches:
  CKN_DEBUG=1     bounds/initialisation checks back on, built with -O0 -g
  CKN_SANITIZE=1  AddressSanitizer + UndefinedBehaviorSanitizer
"""
import os

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("CKN_DEBUG") == "1"
SANITIZE = os.environ.get("CKN_SANITIZE") == "1"

COMPILER_DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": False,
    "initializedcheck": DEBUG,
    "nonecheck": False,
    "cdivision": True,
    "embedsignature": True,
}

MODULES = ["ckn.knapsack", "ckn.minhash", "ckn._minhash_common", "ckn._dedup", "ckn.scanner",
           "ckn._bm25", "ckn._columns", "ckn._fusion", "ckn._pipeline", "ckn._sanitize"]

# -ffp-contract=off: no fused multiply-add, so compiled float sums match Python bit for bit.
compile_args = (["-O0", "-g"] if DEBUG else ["-O3"]) + ["-ffp-contract=off"]
link_args = []
if SANITIZE:
    compile_args += ["-fsanitize=address,undefined", "-fno-omit-frame-pointer"]
    link_args += ["-fsanitize=address,undefined"]

extensions = [
    Extension(
        name,
        [name.replace(".", "/") + ".pyx"],
        extra_compile_args=compile_args,
        extra_link_args=link_args,
    )
    for name in MODULES
]

setup(ext_modules=cythonize(extensions, compiler_directives=COMPILER_DIRECTIVES))
