"""max^n, paranoid and best-reply search: each equal to its definition written plainly here (no pruning, the
Game protocol only), shallow pruning equal to plain max^n, and all three playing Rolit for 3 and 4 players."""

import random

import pytest

from framework.errors import ConfigError
from framework.match import play_game
from framework.protocols import CHANCE, Budget
from plugins.agents.multiplayer import BestReplyAgent, MaxnAgent, ParanoidAgent
from plugins.games.pig import Pig
from plugins.games.pig.heuristics import RaceHeuristic
from plugins.games.rolit import DiscsHeuristic, Rolit
from plugins.games.tictactoe import TicTacToe

W = 1000.0


def leaf(game, heuristic, state, seat):
    if game.is_terminal(state):
        return game.returns(state)[seat] * W
    return min(max(heuristic.evaluate(state, seat), -W), W)


def maxn_by_definition(game, heuristic, state, depth):
    n = game.num_players
    if game.is_terminal(state) or depth == 0:
        return [leaf(game, heuristic, state, s) for s in range(n)]
    mover = game.to_move(state)
    children = [(m, maxn_by_definition(game, heuristic, game.apply(state, m), depth - 1))
                for m in game.legal_moves(state)]
    if mover == CHANCE:
        probability = dict(game.chance_outcomes(state))
        return [sum(float(probability[m]) * v[s] for m, v in children) for s in range(n)]
    best = children[0][1]
    for _, v in children[1:]:
        if v[mover] > best[mover]:
            best = v
    return best


def paranoid_by_definition(game, heuristic, state, depth, root):
    if game.is_terminal(state) or depth == 0:
        return leaf(game, heuristic, state, root)
    values = [paranoid_by_definition(game, heuristic, game.apply(state, m), depth - 1, root)
              for m in game.legal_moves(state)]
    return max(values) if game.to_move(state) == root else min(values)


def brs_by_definition(game, heuristic, state, depth, root, max_layer):
    if game.is_terminal(state) or depth == 0:
        return leaf(game, heuristic, state, root)
    if max_layer:
        here = game.pass_to(state, root)
        return max(brs_by_definition(game, heuristic, game.apply(here, m), depth - 1, root, False)
                   for m in game.legal_moves(here))
    replies = [game.apply(game.pass_to(state, (root + k) % game.num_players), m)
               for k in range(1, game.num_players)
               for m in game.legal_moves(game.pass_to(state, (root + k) % game.num_players))]
    return min(brs_by_definition(game, heuristic, child, depth - 1, root, True) for child in replies)


def positions(game, count, seed, plies=(4, 40)):
    rng, found = random.Random(seed), []
    while len(found) < count:
        state = game.initial_state()
        for _ in range(rng.randint(*plies)):
            if game.is_terminal(state):
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if not game.is_terminal(state):
            found.append(state)
    return found


@pytest.mark.parametrize("players", [3, 4])
def test_each_search_finds_the_value_of_its_definition(players):
    game = Rolit(players)
    heuristic = DiscsHeuristic(game)
    for state in positions(game, 12, seed=players):
        root = game.to_move(state)
        children = [game.apply(state, m) for m in game.legal_moves(state)]
        expected = {
            MaxnAgent: max(maxn_by_definition(game, heuristic, c, 1)[root] for c in children),
            ParanoidAgent: max(paranoid_by_definition(game, heuristic, c, 1, root) for c in children),
            BestReplyAgent: max(brs_by_definition(game, heuristic, c, 1, root, False) for c in children),
        }
        for agent_class, value in expected.items():
            decision = agent_class(game, depth=2, heuristic=heuristic).select_move(game, state, Budget())
            assert decision.stats.score == pytest.approx(value), (agent_class.__name__, game.to_text(state))


def test_deeper_paranoid_and_brs_prune_and_keep_the_value():
    game = Rolit(3)
    heuristic = DiscsHeuristic(game)
    for state in positions(game, 4, seed=9):
        root = game.to_move(state)
        children = [game.apply(state, m) for m in game.legal_moves(state)]
        paranoid = ParanoidAgent(game, depth=3, heuristic=heuristic).select_move(game, state, Budget())
        assert paranoid.stats.score == pytest.approx(max(paranoid_by_definition(game, heuristic, c, 2, root)
                                                          for c in children))
        brs = BestReplyAgent(game, depth=3, heuristic=heuristic).select_move(game, state, Budget())
        assert brs.stats.score == pytest.approx(max(brs_by_definition(game, heuristic, c, 2, root, False)
                                                     for c in children))


@pytest.mark.slow
@pytest.mark.parametrize("players, floor, count", [(2, -W, 60), (3, -W, 40), (4, -W, 20)])
def test_shallow_pruning_finds_the_moves_and_values_of_plain_maxn(players, floor, count):
    game = Rolit(players)
    heuristic = DiscsHeuristic(game)
    plain_nodes = pruned_nodes = cutoffs = 0
    for state in positions(game, count, seed=players):
        plain = MaxnAgent(game, depth=3, heuristic=heuristic).select_move(game, state, Budget())
        pruned = MaxnAgent(game, depth=3, heuristic=heuristic, shallow=True, floor=floor).select_move(
            game, state, Budget())
        assert (pruned.move, pruned.stats.score) == (plain.move, pytest.approx(plain.stats.score))
        plain_nodes += plain.stats.nodes
        pruned_nodes += pruned.stats.nodes
        cutoffs += pruned.stats.extra["cutoffs"]
    assert pruned_nodes <= plain_nodes
    if players == 2:     # zero-sum and two players: shallow pruning is alpha-beta one level deep
        assert cutoffs > 0 and pruned_nodes < plain_nodes


def test_maxn_averages_chance_nodes_in_three_player_pig():
    game = Pig(players=3, goal=12)
    heuristic = RaceHeuristic(game)
    state = game.from_text("5,8,3 t=4 p1 goal=12")
    decision = MaxnAgent(game, depth=4, heuristic=heuristic).select_move(game, state, Budget())
    best = max(maxn_by_definition(game, heuristic, game.apply(state, m), 3)[0] for m in game.legal_moves(state))
    assert decision.stats.score == pytest.approx(best)


def test_shallow_pruning_refuses_a_heuristic_outside_its_bounds():
    game = Pig(players=3, goal=12)      # race rates all but the leader below 0
    agent = MaxnAgent(game, depth=2, heuristic=RaceHeuristic(game), shallow=True, floor=0.0)
    with pytest.raises(ConfigError, match="shallow pruning needs every value >= floor .* heuristic 'race' did not"):
        agent.select_move(game, game.from_text("5,8,3 t=4 p1 goal=12"), Budget())


def test_brs_needs_pass_to_and_no_dice(registry):
    with pytest.raises(ConfigError, match="agent 'brs' needs the game capability 'pass_to' and tictactoe has none: "
                                          "pass_to"):
        registry.create_agent("brs", TicTacToe())
    with pytest.raises(ConfigError, match="agent 'brs' cannot search chance nodes and pig has them"):
        registry.create_agent("brs", Pig(players=3))
    assert isinstance(registry.create_agent("maxn", Pig(players=3)), MaxnAgent)


@pytest.mark.parametrize("players", [3, 4])
def test_the_three_searches_play_rolit_to_the_end(registry, players):
    game = Rolit(players)
    names = ["maxn", "paranoid", "brs", "random"][:players]
    agents = [registry.create_agent(name, game, {"depth": 1} if name != "random" else {}, seed=i)
              for i, name in enumerate(names)]
    record = play_game(game, agents, seed=0)
    assert record.termination.value == "normal" and record.plies == 60 and sum(record.result) == pytest.approx(0)


def test_the_searches_need_a_heuristic(registry):
    class Bare(Rolit):          # a game that names no default heuristic
        default_heuristic = None
    with pytest.raises(ConfigError, match="paranoid needs a heuristic, and rolit names no default: give 'heuristic'"):
        registry.create_agent("paranoid", Bare(3))
