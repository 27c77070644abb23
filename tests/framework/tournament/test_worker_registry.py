"""A worker loads only the plugins its tournament uses, and still resolves any other name on demand."""

import textwrap

import pytest

from framework.analysis.tables import Results
from framework.cli import main
from framework.errors import PluginError
from framework.registry import WorkerRegistry


def test_a_worker_registry_starts_with_the_named_plugins_and_loads_the_rest_when_a_name_is_missing():
    registry = WorkerRegistry(("tictactoe", "proofnumber"))
    assert set(registry.plugins) == {"tictactoe", "proofnumber"} and "random" not in registry.agents
    game = registry.create_game("tictactoe")
    agent = registry.create_agent("pns", game, {"fallback": "random"})   # 'random' comes from another plugin
    assert registry.complete and "random" in registry.agents and "loa" in registry.games
    assert type(agent.fallback).__name__ == type(registry.create_agent("random", game)).__name__
    with pytest.raises(PluginError, match="unknown agent 'nobody'; available agents: "):
        registry.agent_spec("nobody")


def test_a_tournament_whose_agent_names_an_agent_of_an_unused_plugin_plays_normally(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text(textwrap.dedent(f"""\
        game: tictactoe
        results: {tmp_path / 'out'}
        participants:
          - {{id: pns, agent: pns, params: {{fallback: minimax}}, budget: {{nodes: 50}}}}
          - {{id: rnd, agent: random}}
        """))
    assert main(["run", str(path), "--quiet"]) == 0
    games = Results(tmp_path / "out").games
    assert len(games) == 2 and not games["termination"].isin(["crash", "time", "illegal_move"]).any()
