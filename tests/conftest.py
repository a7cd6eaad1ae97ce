"""Hypothesis profiles (dev / ci / debug) chosen by HYPOTHESIS_PROFILE; all without deadlines."""
import os

from hypothesis import HealthCheck, Verbosity, settings

settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile(
    "ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("debug", max_examples=20, deadline=None, verbosity=Verbosity.verbose)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
