"""Alpha-beta: exact node counts on hand-computed trees, minimax equivalence, budgets, errors."""


import time

import pytest

from framework.errors import ConfigError, PositionError
from framework.playouts import random_positions
from framework.protocols import UNLIMITED, WIN_SCORE, BaseHeuristic, Budget
from plugins.agents.alphabeta import ALL_OFF, EXACT_ONLY, PARAMS, AlphaBetaAgent
from plugins.agents.alphabeta.settings import ENHANCEMENTS, Settings
from plugins.agents.alphabeta.table import slot_count
from plugins.agents.mcts import MCTSAgent
from plugins.agents.minimax import MinimaxAgent
from plugins.games.tictactoe import LinesHeuristic, TicTacToe

TTT = TicTacToe()


class TreeGame:
    """An explicit game tree. A leaf is a number (the terminal payoff of player 0, who moves first);
    an inner node is `(static value for player 0, [children])`; moves into `noisy` paths are noisy."""

    name = "tree"
    player_names = ("max", "min")

    def __init__(self, tree, noisy=()):
        self.tree, self.noisy = tree, set(noisy)

    def node(self, state):
        node = self.tree
        for i in state:
            node = node[1][i] if isinstance(node, tuple) else node[i]
        return node

    def initial_state(self):
        return ()

    def to_move(self, state):
        return len(state) % 2

    def legal_moves(self, state):
        node = self.node(state)
        children = node[1] if isinstance(node, tuple) else node
        return [] if isinstance(node, (int, float)) else list(range(len(children)))

    def apply(self, state, move):
        return (*state, move)

    def is_terminal(self, state):
        return isinstance(self.node(state), (int, float))

    def returns(self, state):
        value = self.node(state)
        return (value, -value)

    def is_noisy(self, state, move):
        return (*state, move) in self.noisy


class StaticValue(BaseHeuristic):
    """The tree's static value of an inner node, for the player asked."""

    name = "static"

    def evaluate(self, state, player):
        value = self.game.node(state)[0]
        return value if player == 0 else -value


# The tree of Russell & Norvig's Figure 5.2: MAX chooses among A, B, C; MIN then picks a leaf.
AIMA = TreeGame([[3, 12, 8], [2, 4, 6], [14, 5, 2]])


def test_the_aima_tree_costs_minimax_13_nodes_and_alphabeta_11_as_the_textbook_prunes_two_leaves():
    minimax = MinimaxAgent(AIMA).select_move(AIMA, (), UNLIMITED)
    plain = AlphaBetaAgent(AIMA, **ALL_OFF).select_move(AIMA, (), UNLIMITED)
    assert (minimax.move, minimax.stats.score, minimax.stats.nodes) == (0, 3, 13)
    # root, A and its 3 leaves, B and its first leaf (2 <= 3 prunes 4 and 6), C and its 3 leaves
    assert (plain.move, plain.stats.score, plain.stats.nodes) == (0, 3, 11)
    assert plain.stats.pv == (0, 0)
    assert AlphaBetaAgent(AIMA).select_move(AIMA, (), UNLIMITED).stats.nodes == 11


def test_pvs_counts_its_null_window_probe_and_the_re_search_as_nodes():
    game = TreeGame([[1, 1], [5, 6]])   # the first move is not the best one: PVS must re-search B
    plain = AlphaBetaAgent(game, **ALL_OFF).select_move(game, (), UNLIMITED)
    pvs = AlphaBetaAgent(game, **{**ALL_OFF, "pvs": True}).select_move(game, (), UNLIMITED)
    assert (plain.move, plain.stats.score, plain.stats.nodes) == (1, 5, 7)
    # root, A + 2 leaves, the probe of B + 2 leaves (it beats 1), the full re-search of B + 2 leaves
    assert (pvs.move, pvs.stats.score, pvs.stats.nodes) == (1, 5, 10)


def test_in_a_tic_tac_toe_endgame_minimax_visits_14_nodes_and_alphabeta_10():
    # X X O / O O X / . . . with X to move: X must block a1; b1 and c1 let O win at once.
    state = TTT.from_text("XXO/OOX/... x")
    minimax = MinimaxAgent(TTT).select_move(TTT, state, UNLIMITED)
    assert (TTT.format_move(state, minimax.move), minimax.stats.score, minimax.stats.nodes) == ("a1", 0, 14)
    for options in (ALL_OFF, {}):   # after a1 draws, b1 and c1 are each refuted by O's first reply
        decision = AlphaBetaAgent(TTT, **options).select_move(TTT, state, UNLIMITED)
        assert (decision.move, decision.stats.score, decision.stats.nodes) == (minimax.move, 0, 10)


def test_plain_alphabeta_from_the_empty_board_visits_the_published_18297_nodes():
    # The figure quoted beside minimax's 549,946 for alpha-beta without enhancements.
    decision = AlphaBetaAgent(TTT, **ALL_OFF).select_move(TTT, TTT.initial_state(), UNLIMITED)
    assert decision.stats.nodes == 18_297 and decision.stats.score == 0


def test_quiescence_searches_noisy_moves_past_the_horizon_and_stands_pat_only_with_a_quiet_move():
    # A looks best statically (5), but MIN there has a noisy move to a terminal -10 for MAX;
    # B (static 1) has no noisy move. A MIN node with only noisy moves cannot stand pat.
    game = TreeGame([(5, [-10, (0, [7])]), (1, [(0, [0])])], noisy={(0, 0)})
    heuristic = StaticValue(game)
    off = AlphaBetaAgent(game, depth=1, heuristic=heuristic, **{**ALL_OFF}).select_move(game, (), UNLIMITED)
    on = AlphaBetaAgent(game, depth=1, heuristic=heuristic, **{**ALL_OFF, "quiescence": True}).select_move(
        game, (), UNLIMITED)
    assert (off.move, off.stats.score, off.stats.nodes) == (0, 5, 3)
    assert (on.move, on.stats.score, on.stats.nodes) == (1, 1, 4)   # root, A, A's noisy child, B
    assert on.stats.extra["seldepth"] == 2
    forced = TreeGame([(5, [20]), (1, [(0, [0])])], noisy={(0, 0)})   # MIN at A must take the noisy move
    decision = AlphaBetaAgent(forced, depth=1, heuristic=StaticValue(forced),
                              **{**ALL_OFF, "quiescence": True}).select_move(forced, (), UNLIMITED)
    assert (decision.move, decision.stats.score) == (0, 20 * WIN_SCORE)
    optional = TreeGame([(5, [20, (0, [0])]), (1, [(0, [0])])], noisy={(0, 0)})   # ...but may stand pat here
    decision = AlphaBetaAgent(optional, depth=1, heuristic=StaticValue(optional),
                              **{**ALL_OFF, "quiescence": True}).select_move(optional, (), UNLIMITED)
    assert (decision.move, decision.stats.score) == (0, 5)


def _random_positions(count, seed):
    return random_positions(TTT, count, seed, max_plies=7)


EXACT_CONFIGS = {
    "all off": ALL_OFF,
    "defaults": EXACT_ONLY,
    "exact on, with PVS and aspiration": {**EXACT_ONLY, "pvs": True, "aspiration": True},
    "PVS without transposition table": {**EXACT_ONLY, "pvs": True, "transposition_table": False},
}


@pytest.mark.parametrize("config", EXACT_CONFIGS, ids=list(EXACT_CONFIGS))
@pytest.mark.parametrize("budget", [UNLIMITED, Budget(nodes=10**9)], ids=["direct", "deepening"])
def test_exact_enhancements_return_minimax_values_at_fixed_depth(config, budget):
    heuristic = LinesHeuristic(TTT)
    for i, state in enumerate(_random_positions(60, seed=11)):
        depth = 1 + i % 4
        expected = MinimaxAgent(TTT, depth=depth, heuristic=heuristic).select_move(TTT, state, UNLIMITED)
        decision = AlphaBetaAgent(TTT, depth=depth, heuristic=heuristic, **EXACT_CONFIGS[config]).select_move(
            TTT, state, budget)
        assert decision.stats.score == expected.stats.score, TTT.to_text(state)
        assert decision.stats.extra["complete"]
        assert decision.stats.depth == depth or decision.stats.depth < depth and budget is not UNLIMITED


def test_with_every_enhancement_off_alphabeta_never_visits_more_nodes_than_minimax():
    heuristic = LinesHeuristic(TTT)
    for i, state in enumerate(_random_positions(40, seed=5)):
        depth = 1 + i % 4
        expected = MinimaxAgent(TTT, depth=depth, heuristic=heuristic).select_move(TTT, state, UNLIMITED)
        decision = AlphaBetaAgent(TTT, depth=depth, heuristic=heuristic, **ALL_OFF).select_move(TTT, state, UNLIMITED)
        assert decision.stats.nodes <= expected.stats.nodes
        assert decision.stats.score == expected.stats.score


def test_the_principal_variation_replays_to_the_reported_score():
    heuristic = LinesHeuristic(TTT)
    for state in _random_positions(30, seed=8):
        decision = AlphaBetaAgent(TTT, depth=3, heuristic=heuristic, transposition_table=False).select_move(
            TTT, state, UNLIMITED)
        line, end = decision.stats.pv, state
        assert line[0] == decision.move
        for move in line:
            end = TTT.apply(end, move)
        mover = TTT.to_move(state)
        expected = heuristic.terminal(end, mover, len(line)) if TTT.is_terminal(end) else heuristic.evaluate(end, mover)
        assert decision.stats.score == expected


class EndlessGame:
    """A game that never ends (three moves everywhere), for budget tests that no search can finish."""

    name = "endless"
    player_names = ("first", "second")

    def initial_state(self):
        return (1, 0)

    def to_move(self, state):
        return state[1]

    def legal_moves(self, state):
        return [0, 1, 2]

    def apply(self, state, move):
        return ((state[0] * 3 + move + 1) % 1_000_003, 1 - state[1])

    def is_terminal(self, state):
        return False

    def returns(self, state):
        return (0.0, 0.0)


class Scrambled(BaseHeuristic):
    name = "scrambled"

    def evaluate(self, state, player):
        value = float(state[0] * 2_654_435_761 % 201 - 100)
        return value if player == 0 else -value


ENDLESS = EndlessGame()


@pytest.mark.parametrize("nodes", [1, 2, 37, 1000, 4321])
def test_a_node_budget_is_never_exceeded_and_the_move_comes_from_the_deepest_completed_iteration(nodes):
    agent = AlphaBetaAgent(ENDLESS, heuristic=Scrambled(ENDLESS), pvs=True, aspiration=True)
    decision = agent.select_move(ENDLESS, ENDLESS.initial_state(), Budget(nodes=nodes))
    assert decision.stats.nodes == nodes
    assert decision.stats.extra["complete"] is False
    assert decision.move in (0, 1, 2)
    if decision.stats.depth:
        fixed = AlphaBetaAgent(ENDLESS, depth=decision.stats.depth, heuristic=Scrambled(ENDLESS))
        assert decision.stats.score == fixed.select_move(ENDLESS, ENDLESS.initial_state(), UNLIMITED).stats.score


def test_a_time_budget_is_kept_within_ten_percent_plus_a_little_slack(keeps_time_budget):
    agent = AlphaBetaAgent(ENDLESS, heuristic=Scrambled(ENDLESS))
    decision = keeps_time_budget(lambda budget: agent.select_move(ENDLESS, ENDLESS.initial_state(), budget), 0.4)
    assert decision.stats.depth >= 3 and decision.stats.extra["complete"] is False


class Slow(Scrambled):
    """Scrambled at 5 ms of CPU a leaf, as an adapted game's costly heuristic (OpenSpiel's chess scored by
    random playouts: 20 ms)."""

    def evaluate(self, state, player):
        until = time.process_time() + 0.005
        while time.process_time() < until:
            pass
        return super().evaluate(state, player)


@pytest.mark.parametrize("search", [AlphaBetaAgent, MCTSAgent])
def test_a_time_budget_is_kept_where_a_node_costs_milliseconds(keeps_time_budget, search):
    """The clock is read at every node in Python: at every 256th, 5 ms nodes overran 0.4 s by 1.3 s (alpha-beta
    lost each chess game on time at its first move)."""
    agent = search(ENDLESS, heuristic=Slow(ENDLESS), **({"playout_depth": 0} if search is MCTSAgent else {}))
    keeps_time_budget(lambda budget: agent.select_move(ENDLESS, ENDLESS.initial_state(), budget), 0.4)


def test_the_same_configuration_chooses_the_same_move_with_the_same_node_count():
    heuristic = LinesHeuristic(TTT)
    for state in _random_positions(10, seed=3):
        runs = [AlphaBetaAgent(TTT, seed=seed, depth=4, heuristic=heuristic, lmr=True, singular=True, pvs=True)
                .select_move(TTT, state, Budget(nodes=500)) for seed in (1, 1, 2)]
        assert len({(d.move, d.stats.nodes, d.stats.score) for d in runs}) == 1


@pytest.mark.parametrize("game_name", ["tictactoe", "checkers"])
def test_a_decision_depends_only_on_its_position_not_on_the_decisions_before_it(registry, game_name):
    """An agent renews its last search for the next decision: every decision of one agent, in any order, equals a
    fresh agent's (move, nodes, score, PV and every statistic), also after a solve between them."""
    game = registry.create_game(game_name, {})
    params = {"depth": 3, "lmr": True, "singular": True, "pvs": True}
    states = random_positions(game, 8, seed=5, min_plies=2, max_plies=30)

    def decide(agent, state):
        d = agent.select_move(game, state, Budget(nodes=400))
        return d.move, d.stats.nodes, d.stats.depth, d.stats.score, d.stats.pv, d.stats.extra, d.stats.peak_entries
    fresh = [decide(registry.create_agent("alphabeta", game, params, seed=0), s) for s in states]
    agent = registry.create_agent("alphabeta", game, params, seed=0)
    assert [decide(agent, s) for s in states] == fresh
    agent.solve(game, states[0], Budget(nodes=300))
    assert [decide(agent, s) for s in reversed(states)] == fresh[::-1]


@pytest.mark.parametrize("selective", [{"lmr": True}, {"singular": True}, {"lmr": True, "singular": True}])
def test_selective_enhancements_still_search_to_the_exact_value_of_an_endgame(selective):
    # O to move in O X . / X X O / . . . must block b1 and then draws; every other move loses.
    state = TTT.from_text("OX./XXO/... o")
    exact = MinimaxAgent(TTT).select_move(TTT, state, UNLIMITED)
    agent = AlphaBetaAgent(TTT, heuristic=LinesHeuristic(TTT), lmr_min_depth=2, lmr_moves=1, singular_min_depth=2,
                           pvs=True, aspiration=True, **selective)
    decision = agent.select_move(TTT, state, Budget(nodes=10**6))
    assert decision.stats.score == exact.stats.score * WIN_SCORE and decision.stats.extra["complete"]


def test_every_enhancement_is_a_declared_parameter_of_the_settings():
    assert {p.name for p in ENHANCEMENTS} == set(Settings.__dataclass_fields__)
    assert [p.name for p in PARAMS[:2]] == ["depth", "heuristic"]
    assert set(ALL_OFF) == {p.name for p in ENHANCEMENTS if p.type is bool}


def test_an_unknown_enhancement_is_a_config_error_naming_it():
    with pytest.raises(ConfigError, match="unknown parameter 'nul_move'"):
        AlphaBetaAgent(TTT, nul_move=True)
    with pytest.raises(ConfigError, match="'lmr' must be true or false"):
        AlphaBetaAgent(TTT, lmr="yes")


def test_a_depth_without_a_heuristic_is_a_config_error():
    with pytest.raises(ConfigError, match="alphabeta with depth 3 needs a heuristic"):
        AlphaBetaAgent(TTT, depth=3)


def test_choosing_a_move_in_a_finished_game_is_a_position_error():
    with pytest.raises(PositionError, match="'XXX/OO./... o': the game is over"):
        AlphaBetaAgent(TTT).select_move(TTT, TTT.from_text("XXX/OO./... o"), UNLIMITED)


def test_the_registry_builds_alphabeta_with_switches_from_configuration(registry):
    agent = registry.create_agent("alphabeta", TTT, {"depth": 2, "killers": False, "tt_size": 1024})
    # 1,021 slots: the largest prime not above 1,024
    assert agent.heuristic.name == "lines" and agent.settings.killers is False
    assert slot_count(agent.settings.tt_size) == 1021
    with pytest.raises(ConfigError, match="'tt_size' must be at least 1"):
        registry.create_agent("alphabeta", TTT, {"tt_size": 0})


@pytest.mark.parametrize("size, slots", [(1, 1), (2, 2), (3, 3), (4, 3), (100, 97), (1 << 16, 65_521),
                                         (1_000_000, 999_983), ((1 << 31) - 1, (1 << 31) - 1),
                                         (1 << 31, (1 << 31) - 1)])
def test_a_table_has_the_largest_prime_number_of_slots_not_above_its_size(size, slots):
    # 65,521 and 999,983 are the largest primes below 2**16 and 10**6; 2**31 - 1 is a Mersenne prime (Euler, 1772)
    assert slot_count(size) == slots
