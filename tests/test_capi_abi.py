"""The exported C API against the committed snapshot tests/capi_abi.json (cuda-python's check).

Cython checks each cimported function's signature string at import and refuses a mismatch, so
a removed or changed function breaks every compiled consumer: that fails here. Added functions
pass. A deliberate change updates the snapshot, CHANGELOG.md ("C API/ABI") and the minor version.
"""

import ctypes
import importlib
import json
from pathlib import Path

import pytest

SNAPSHOT = json.loads((Path(__file__).parent / "capi_abi.json").read_text("utf-8"))

_get_name = ctypes.pythonapi.PyCapsule_GetName
_get_name.restype = ctypes.c_char_p
_get_name.argtypes = [ctypes.py_object]


def exported(module_name: str) -> dict[str, str]:
    module = importlib.import_module(module_name)
    return {name: _get_name(capsule).decode() for name, capsule in module.__pyx_capi__.items()}


@pytest.mark.parametrize("module_name", sorted(SNAPSHOT))
def test_no_exported_function_removed_or_changed(module_name):
    now = exported(module_name)
    for name, signature in SNAPSHOT[module_name].items():
        assert name in now, f"{module_name}.{name} was removed from the C API"
        assert now[name] == signature, f"{module_name}.{name} changed signature"
