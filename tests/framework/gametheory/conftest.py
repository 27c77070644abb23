"""Shared fixtures: the shipped example games, loaded through the registry as a user's `plyground nash NAME` does."""

import pytest

from framework.gametheory.files import load_game


@pytest.fixture(scope="session")
def example(registry):
    def load(name):
        return load_game(registry.game_file_spec(name).path)
    return load
