"""The import graph of ``ckn/`` follows the pipeline's stages: importing a stage's module alone
(in a fresh interpreter, without the package facade ``ckn/__init__.py``, which imports the
whole flow) loads no module of a later stage, so no stage calls back into an earlier one's
caller and the stages form no cycle."""

import json
import subprocess
import sys

import pytest

# Stage of each module of ckn/ (compiled kernels with the stage that uses them). Modules of
# stage 0 are shared foundations (errors, parameters, the term rules, token counting).
STAGES = {
    0: ["ckn._version", "ckn.errors", "ckn.params", "ckn.jsonio", "ckn.terms", "ckn.tokenizer",
        "ckn.workers"],
    1: ["ckn.pool", "ckn._columns"],
    2: ["ckn.scanner", "ckn.bm25", "ckn._bm25", "ckn.similarity", "ckn.fusion", "ckn._fusion"],
    3: ["ckn.sanitizer", "ckn._sanitize"],
    4: ["ckn.minhash", "ckn._minhash_common", "ckn._dedup"],
    5: ["ckn.select", "ckn.knapsack"],
    6: ["ckn.context", "ckn.receipt"],
    7: ["ckn.pipeline", "ckn._pipeline"],
    8: ["ckn.batch", "ckn.cli", "ckn.integrations._core"],
}
STAGE_OF = {name: stage for stage, names in STAGES.items() for name in names}

_PROBE = """
import importlib, importlib.util, json, sys, types
spec = importlib.util.find_spec("ckn")
package = types.ModuleType("ckn")          # the package without its __init__ (the facade)
package.__path__ = list(spec.submodule_search_locations)
sys.modules["ckn"] = package
importlib.import_module(sys.argv[1])
print(json.dumps(sorted(m for m in sys.modules if m.startswith("ckn."))))
"""


def _loaded(module: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", _PROBE, module], capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)


def test_every_module_has_a_stage():
    import pkgutil

    import ckn
    found = {f"ckn.{m.name}" for m in pkgutil.iter_modules(ckn.__path__)} - {"ckn.__main__"}
    assert found - {"ckn.integrations"} <= set(STAGE_OF), sorted(found - set(STAGE_OF))


@pytest.mark.parametrize("module", sorted(STAGE_OF))
def test_a_module_loads_no_later_stage(module):
    later = [m for m in _loaded(module) if STAGE_OF.get(m, 0) > STAGE_OF[module]]
    assert later == [], f"{module} (stage {STAGE_OF[module]}) imports {later}"
