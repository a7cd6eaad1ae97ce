"""ckn.jsonio: strict JSON reading of pools (what the CLI and the batch job accept)."""
import json

import pytest
from hypothesis import given, strategies as st

from ckn import CknValueError
from ckn.jsonio import loads_strict

_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text()
_values = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=4)
                       | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=20)


@given(_values)
def test_valid_json_reads_as_json_loads_does(value):
    text = json.dumps(value)
    assert loads_strict(text, "pool") == json.loads(text)


@pytest.mark.parametrize("text, message", [
    ('{"a": NaN}', "NaN is not valid JSON"),
    ('[Infinity]', "Infinity is not valid JSON"),
    ('{"a": 1, "a": 2}', "duplicate key 'a'"),
    ('{"a": "\\ud800"}', "lone surrogate (U+D800)"),
    ('{"a": 1,\n "b": }', "line 2 column"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
])
def test_each_rejection_is_one_message_naming_the_input(text, message):
    with pytest.raises(CknValueError) as info:
        loads_strict(text, "in.json")
    assert str(info.value).startswith("in.json: ")
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_a_surrogate_pair_escape_is_text():
    assert loads_strict('{"a": "\\ud83d\\ude00"}', "pool") == {"a": "\U0001F600"}
