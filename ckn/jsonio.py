"""Strict JSON reading for pools: what the CLI and the batch job accept.

Rejected, each with a one-line message: invalid JSON (with line and column), ``NaN`` and
``Infinity``, duplicate object keys, nesting too deep for the decoder, and strings holding a
lone surrogate (``"\\ud800"``: not Unicode text, it cannot be written out again).
"""

import json
import re

from .errors import CknValueError

__all__ = ["loads_strict"]

_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _reject_constant(name: str):
    raise ValueError(f"{name} is not valid JSON")


def _unique_keys(pairs):
    out = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r}")
        out[key] = value
    return out


def loads_strict(text: str, name: str):
    """``json.loads(text)`` under the rules above; CknValueError naming ``name`` otherwise."""
    try:
        value = json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as exc:
        raise CknValueError(f"{name}: invalid JSON at line {exc.lineno} column {exc.colno}: "
                            f"{exc.msg}") from None
    except ValueError as exc:
        raise CknValueError(f"{name}: invalid JSON: {exc}") from None
    except RecursionError:  # the decoder recurses once per array or object level
        raise CknValueError(f"{name}: JSON nested too deeply to read") from None
    if _SURROGATE_ESCAPE.search(text):  # a \uD800-style escape: check the decoded strings
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError as exc:
            raise CknValueError(f"{name}: invalid JSON: a string holds a lone surrogate "
                                f"(U+{ord(exc.object[exc.start]):04X}), which is not Unicode "
                                f"text") from None
    return value
