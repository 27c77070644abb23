"""Test-wide setup: only this distribution's plugins load, so a developer's installed plugins never leak in."""

import os

import pytest

os.environ["PLYGROUND_DISABLE_PLUGIN_AUTOLOAD"] = "1"
os.environ["PLYGROUND_PLUGINS"] = "plyground"

from framework.registry import Registry  # noqa: E402  (after the environment is set)


@pytest.fixture(scope="session")
def registry() -> Registry:
    return Registry()
