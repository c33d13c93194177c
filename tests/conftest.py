"""Shared test configuration: a bounded hypothesis profile for CI and golden-file updates."""

from __future__ import annotations

import os
import sys
import tempfile

from hypothesis import HealthCheck, settings

sys.path.insert(0, os.path.dirname(__file__))
# Each test session gets its own disk cache, so no run depends on an earlier one.
os.environ["TANGENTLIKE_CACHE_DIR"] = tempfile.mkdtemp(prefix="tangentlike-test-cache-")

settings.register_profile(
    "ci", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("thorough", max_examples=400, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_addoption(parser):
    parser.addoption(
        "--update-golden", action="store_true", help="rewrite tests/golden/*.expected.py"
    )
