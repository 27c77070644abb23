"""Engines in guarded workers outside a tournament (`play`, `serve`): agents sharing an EnginePool keep their
own state, a worker keeps at most MAX_AGENTS agents built, and a move's PV comes back as the game's moves."""

from framework.protocols import Budget
from framework.registry import Registry
from framework.tournament.engine import MAX_AGENTS, EnginePool, GuardedAgent

REGISTRY = Registry()
GAME = REGISTRY.create_game("tictactoe", {})
START = GAME.initial_state()


def choices(seed: int, count: int) -> list[str]:
    """The first `count` moves a random agent built in this process chooses, always asked at the start."""
    agent = REGISTRY.create_agent("random", GAME, {}, seed=seed)
    return [GAME.format_move(START, agent.select_move(GAME, START, Budget()).move) for _ in range(count)]


def ask(agent: GuardedAgent) -> str:
    return agent.play(GAME, START, Budget(time=1)).text


def test_agents_sharing_a_pool_keep_their_own_state_in_one_worker():
    pool = EnginePool(keep=1)
    try:
        twins = [GuardedAgent("random", {}, "tictactoe", {}, seed=0, pool=pool) for _ in range(2)]
        pids = set()
        answers: list[list[str]] = [[], []]
        for _ in range(4):
            for i, agent in enumerate(twins):   # asked in turn: each carries on its own generator
                answers[i].append(ask(agent))
                pids.add(pool.idle[0].proc.pid)
        assert answers == [choices(0, 4)] * 2
        assert len(pids) == 1
    finally:
        pool.close()


def test_a_worker_drops_the_agent_asked_least_recently_past_max_agents():
    expected = choices(0, 3)
    assert expected[2] != expected[0]   # a rebuilt agent is told from one that carries on
    pool = EnginePool(keep=1)
    try:
        first, *others = [GuardedAgent("random", {}, "tictactoe", {}, seed=0, pool=pool) for _ in range(MAX_AGENTS + 1)]
        assert [ask(first), ask(first)] == expected[:2]
        for agent in others:
            ask(agent)
        assert ask(first) == expected[0]   # dropped when the last one was built, so built again
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
