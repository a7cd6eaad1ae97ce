"""pytest setup for verify/: skip everything cleanly without PuLP/CBC; hypothesis profiles.

The suite is opt-in (not in ``testpaths``): ``python -m pytest verify``. Without PuLP (or with
a PuLP whose bundled CBC cannot run) every test here is reported as skipped with the reason,
instead of erroring at import.
"""

import os

import pytest

try:
    import pulp  # noqa: F401

    from verify.ilp import cbc_path

    _SKIP = None if cbc_path() else (
        "verify/ skipped: PuLP is installed but no CBC executable was found "
        "(pip install 'pulp[cbc]', or set CKN_VERIFY_CBC to a cbc binary)")
except ImportError:
    _SKIP = ("verify/ skipped: PuLP is not installed; the knapsack proofs need its CBC solver "
             "(pip install pulp bm25s, or the project's test extra)")

try:
    from hypothesis import HealthCheck, settings
except ImportError:  # hypothesis-based tests skip themselves
    settings = None

if settings is not None:
    # Same names as tests/conftest.py; ILP-heavy tests cap their own max_examples.
    settings.register_profile("dev", deadline=None,
                              suppress_health_check=[HealthCheck.too_slow])
    settings.register_profile("ci", deadline=None,
                              suppress_health_check=[HealthCheck.too_slow])
    settings.register_profile("debug", deadline=None,
                              suppress_health_check=[HealthCheck.too_slow])
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def pytest_report_header(config):
    return _SKIP or f"verify/: PuLP + CBC ({cbc_path()})"


def pytest_collection_modifyitems(config, items):
    if _SKIP is None:
        return
    here = os.path.dirname(os.path.abspath(__file__))
    marker = pytest.mark.skip(reason=_SKIP)
    for item in items:
        if str(item.fspath).startswith(here):
            item.add_marker(marker)
