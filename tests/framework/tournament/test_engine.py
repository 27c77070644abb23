"""Engines outside a tournament (`play`, `serve`): each GuardedAgent plays from an engine process of its own and
keeps its state between moves; an engine released healthy is reset and reused by the next agent of its kind
(at most `keep` idle ones stay); a move's PV comes back as the game's moves."""

from framework.protocols import Budget
from framework.registry import Registry
from framework.tournament.engine import EnginePool, GuardedAgent

REGISTRY = Registry()
GAME = REGISTRY.create_game("tictactoe", {})
START = GAME.initial_state()


def choices(seed: int, count: int) -> list[str]:
    """The first `count` moves a random agent built in this process chooses, always asked at the start."""
    agent = REGISTRY.create_agent("random", GAME, {}, seed=seed)
    return [GAME.format_move(START, agent.select_move(GAME, START, Budget()).move) for _ in range(count)]


def ask(agent: GuardedAgent) -> str:
    return agent.play(GAME, START, Budget(time=1)).text


def test_agents_keep_their_own_state_each_in_an_engine_of_its_own():
    pool = EnginePool(keep=2)
    try:
        twins = [GuardedAgent("random", {}, "tictactoe", {}, seed=0, pool=pool) for _ in range(2)]
        answers: list[list[str]] = [[], []]
        for _ in range(4):
            for i, agent in enumerate(twins):   # asked in turn: each carries on its own generator
                answers[i].append(ask(agent))
        assert answers == [choices(0, 4)] * 2
        assert twins[0].engine.pid != twins[1].engine.pid
    finally:
        pool.close()


def test_an_engine_released_healthy_is_reset_and_reused_by_the_next_agent_of_its_kind():
    pool = EnginePool(keep=1)
    try:
        first = GuardedAgent("random", {}, "tictactoe", {}, seed=0, pool=pool)
        pid = first.engine.pid
        assert [ask(first), ask(first)] == choices(0, 2)
        first.close()
        again = GuardedAgent("random", {}, "tictactoe", {}, seed=0, pool=pool)
        assert again.engine.pid == pid and [ask(again), ask(again)] == choices(0, 2)   # built afresh: same moves
        other = GuardedAgent("random", {}, "tictactoe", {}, seed=1, pool=pool)
        assert other.engine.pid != pid   # the idle one is taken: a busy engine is never shared
        again.close()
        other.close()
        assert len(pool.idle) == 1   # `keep`: the other is stopped
    finally:
        pool.close()


def test_a_guarded_agents_decision_carries_its_pv_as_the_games_moves():
    budget = Budget(nodes=500)
    inside = REGISTRY.create_agent("alphabeta", GAME, {}, seed=0).select_move(GAME, START, budget)
    guarded = GuardedAgent("alphabeta", {}, "tictactoe", {}, seed=0)
    try:
        decision = guarded.select_move(GAME, START, budget)
    finally:
        guarded.close()
    assert decision.move == inside.move and len(inside.stats.pv) > 1
    assert tuple(decision.stats.pv) == tuple(inside.stats.pv)
    assert (decision.stats.nodes, decision.stats.depth) == (inside.stats.nodes, inside.stats.depth)
