"""Helpers of the tests that run ckn's compiled fast paths (ckn/_columns.pyx, ckn/_fusion.pyx)
against the plain-Python paths: each compiled function either returns exactly what the Python
code returns (bit for bit, same types, same order) or hands the input back to the Python code,
so errors and edge cases stay the Python code's."""

from hypothesis import strategies as st

import ckn
from ckn import InputError, InputTypeError, fusion
from ckn import pool as pool_module

# Vector components for the compiled paths: any finite double (or float32), and the edges.
ANY_COMPONENT = st.floats(allow_nan=False, allow_infinity=False, width=64) | st.sampled_from(
    [0.0, -0.0, 1e-300, 1e300, 5e-324, 1e-160])
ANY_FLOAT32 = st.floats(allow_nan=False, allow_infinity=False, width=32) | st.sampled_from(
    [0.0, -0.0, 1e-45, 1.1754942e-38, 3.4028235e38, -3.4028235e38, 0.1])


def outcome(f, *args):
    try:
        return ("ok", f(*args))
    except (InputError, InputTypeError, ckn.CknValueError, ckn.CknTypeError) as exc:
        return (type(exc), str(exc))


def kernel_name(module) -> str:
    """The attribute holding ``module``'s compiled paths (tests set it to None)."""
    return "_fusion" if module is fusion else "_columns"


def without_dense(module, f, *args):
    """``f(*args)`` with ``module``'s compiled paths switched off (the Python reference)."""
    name = kernel_name(module)
    saved = getattr(module, name)
    setattr(module, name, None)
    try:
        return outcome(f, *args)
    finally:
        setattr(module, name, saved)


def columns(pool):
    """The validated columns of a pool as plain Python values (embeddings as lists)."""
    cols = pool_module._parse_columns(pool)
    return (cols.query, None if cols.query_embedding is None else cols.query_embedding.tolist(),
            cols.ids, cols.tokens, cols.texts,
            [None if e is None else (e.typecode, e.tolist()) for e in cols.embeddings],
            repr(cols.params))
