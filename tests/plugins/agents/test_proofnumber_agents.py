"""The proof-number agents in play: proven moves, the fallback agent built by the registry, and agent references."""

import pytest

from framework import AgentRef, AgentSpec, Budget, ConfigError, Param, hookimpl
from framework.match import play_game
from framework.protocols import UNLIMITED, Proof
from framework.registry import Registry
from plugins.agents.alphabeta import AlphaBetaAgent
from plugins.agents.random_agent import RandomAgent


@pytest.fixture
def game(registry):
    return registry.create_game("tictactoe")


@pytest.mark.parametrize("name", ["pns", "pn2", "dfpn", "pds", "pdspn"])
def test_the_winning_move_is_played_when_a_win_is_proven(registry, game, name):
    state = game.from_text("XO./.../... x")  # X wins: a2 threatens a1 and b2
    agent = registry.create_agent(name, game)
    decision = agent.select_move(game, state, UNLIMITED)
    assert decision.stats.extra["proof"] == "win" and decision.stats.score == 1.0
    after = game.apply(state, decision.move)
    assert agent.solve(game, after, UNLIMITED).value is Proof.LOSS  # O is lost after it


@pytest.mark.parametrize("name", ["pns", "pn2", "dfpn", "pds", "pdspn"])
def test_without_a_proof_the_fallback_agent_built_by_the_registry_moves(registry, game, name):
    agent = registry.create_agent(name, game, {"fallback": "alphabeta:depth=2", "solve_share": 0.25})
    assert isinstance(agent.fallback, AlphaBetaAgent) and agent.fallback.depth == 2
    decision = agent.select_move(game, game.initial_state(), Budget(nodes=400))
    extra = decision.stats.extra
    assert extra["proof"] == "unknown" and extra["fallback_nodes"] > 0
    assert decision.stats.nodes == extra["solver_nodes"] + extra["fallback_nodes"] <= 400
    assert extra["solver_nodes"] <= 100  # the solver kept to its quarter


def test_a_fallback_can_be_given_as_a_mapping_as_in_yaml(registry, game):
    agent = registry.create_agent("pns", game, {"fallback": {"agent": "random"}}, seed=5)
    assert isinstance(agent.fallback, RandomAgent)


def test_pns_never_loses_a_game_of_tictactoe_with_a_random_fallback(registry, game):
    for seed in range(3):
        pns = registry.create_agent("pns", game, {"fallback": "random"}, seed=seed)
        record = play_game(game, [RandomAgent(game, seed), pns])
        assert record.winner != 0


@pytest.mark.parametrize("fallback, message", [
    ("nosuch", "agent 'pns': 'fallback': unknown agent 'nosuch'; available agents:"),
    ({"depth": 2}, "'fallback' must name its agent under the key 'agent', got {'depth': 2}"),
    (3, "'fallback' must be an agent"),
    ("alphabeta:depht=2", "unknown parameter 'depht'"),
])
def test_bad_fallbacks_are_reported(registry, game, fallback, message):
    with pytest.raises(ConfigError, match=message.replace("{", r"\{").replace("}", r"\}")):
        registry.create_agent("pns", game, {"fallback": fallback})


class LoopPlugin:
    """An agent whose default fallback is itself: the nesting guard must stop it."""

    @hookimpl
    def plyground_agents(self):
        return [AgentSpec("loop", lambda game, seed, fallback: RandomAgent(game, seed), "loops",
                          (Param("fallback", AgentRef, "loop", "itself"),))]


def test_an_agent_reference_cycle_is_reported_not_followed_forever(game):
    registry = Registry(autoload=False, plugins=[LoopPlugin()])
    with pytest.raises(ConfigError, match="nest more than 8 deep; is there a cycle"):
        registry.create_agent("loop", game)


def test_list_verbose_documents_the_agent_reference(capsys):
    from framework.cli import main

    assert main(["list", "--verbose"]) == 0
    out = capsys.readouterr().out
    assert "fallback: an agent (NAME, NAME:key=value or {agent: NAME, ...}), default None" in out
