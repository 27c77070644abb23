"""framework.kernel.binding.bind: which binding a search gets, said openly, and every refusal naming its reason."""

from __future__ import annotations

import types

import pytest

from framework.errors import ConfigError, PluginError
from framework.kernel import api, numba_backend
from framework.kernel.binding import bind, needed_here, needs
from framework.protocols import Budget
from plugins.agents.alphabeta import search as alphabeta_search
from plugins.agents.expectiminimax import ExpectiminimaxAgent
from plugins.agents.expectiminimax import search as dice_search
from plugins.agents.mcts import search as mcts_search
from plugins.agents.multiplayer import BestReplyAgent, MaxnAgent, ParanoidAgent
from plugins.agents.multiplayer import search as seat_search
from plugins.agents.proofnumber import search as pn_search
from plugins.games.loa import kernel as loa_kernel
from plugins.games.loa import rules as loa_rules
from plugins.games.loa.game import LinesOfAction
from plugins.games.loa.heuristics import GroupsHeuristic
from plugins.games.tictactoe import TicTacToe
from tests.framework import dice_race_sample as race
from tests.framework.test_search_reload import DiceRace, LeadHeuristic


def test_a_search_needs_the_primitives_it_calls_and_those_its_derived_functions_call():
    assert needs(seat_search) >= {"legal_moves", "apply_move", "to_move", "outcome", "pass_to",
                                  "score"}        # `evaluate` calls `score`
    assert "pass_to" not in needs(dice_search) and "score" not in needs(pn_search)
    # called only at a chance node and with more than two seats (the searches' OPTIONAL): a kernel without dice
    # fits without `chance_probability`, a two-seat one without `player_return`
    assert {"chance_probability", "player_return"}.isdisjoint(needs(seat_search) | needs(dice_search))


def test_the_optional_primitives_a_game_calls_for_are_needed_there():
    assert needed_here(seat_search, DiceRace(3, dice=True)) == {"chance_probability", "player_return"}
    assert needed_here(dice_search, DiceRace(2, dice=True)) == {"chance_probability"}
    assert needed_here(seat_search, LinesOfAction()) == needed_here(pn_search, DiceRace(3)) == set()


class ThreeSeatLOA(LinesOfAction):
    """LOA claiming three seats: its kernel has no `player_return`, which a search needs for more than two."""

    num_players = 3


@pytest.mark.parametrize("agent", [MaxnAgent, ParanoidAgent])
def test_a_kernel_without_returns_is_refused_for_more_than_two_seats(agent):
    game = ThreeSeatLOA()
    with pytest.raises(ConfigError, match="kernel: interpreted does not fit plugins.agents.multiplayer.search on "
                                          "loa: the loa kernel has no player_return"):
        agent(game, heuristic=GroupsHeuristic(game), kernel="interpreted")
    assert bind(seat_search, game, GroupsHeuristic(game)).reason == "the loa kernel has no player_return"
    two = LinesOfAction()
    assert bind(seat_search, two, GroupsHeuristic(two)).binding in ("compiled", "interpreted")


def test_an_interpreted_loa_search_takes_the_interface_defaults_for_the_rules_compiled_only_functions():
    """LOA's rules count and draw moves line by line for their compiled twins only (`COMPILED_ONLY`): interpreted,
    a search calls `api.move_count` and `api.random_move` over the rules' `legal_moves`, which agree with them."""
    game = LinesOfAction()
    assert loa_rules.COMPILED_ONLY == ("move_count", "random_move")
    interpreted = vars(loa_kernel.KERNEL.interpreted)
    assert "count_moves" in interpreted and not {"move_count", "random_move"} & set(interpreted)
    for search, name in ((pn_search, "move_count"), (mcts_search, "random_move")):
        bound = bind(search, game, GroupsHeuristic(game), "interpreted")
        called = next(f for f in vars(bound.functions).values() if name in f.__code__.co_names).__globals__[name]
        assert (called.__module__, called.__qualname__) == ("framework.kernel.api", name)
    state = tuple(int(w) for w in game.kernel.to_kernel(game.initial_state()))
    moves = loa_rules.legal_moves(state)
    assert loa_rules.move_count(state) == len(moves)
    assert [loa_rules.random_move(state, draw) for draw in (0, 2**31, 2**32 - 1)] == \
           [moves[api.draw_index(draw, len(moves))] for draw in (0, 2**31, 2**32 - 1)]


@pytest.mark.parametrize("names", [("legal_moves",), ("missing_function",)])
def test_compiled_only_names_only_derived_functions_the_module_defines(names):
    module = types.ModuleType("rules_with_compiled_only")
    module.__dict__.update({k: v for k, v in vars(race).items() if not k.startswith("__")}, COMPILED_ONLY=names)
    with pytest.raises(PluginError, match=f"rules_with_compiled_only: COMPILED_ONLY names '{names[0]}', not a "
                                          r"function of framework.kernel.api's DERIVED \(ordered_moves, "):
        numba_backend.Kernel(module, tag="rules_with_compiled_only")


def test_auto_runs_compiled_where_the_kernel_fits_interpreted_with_compiled_kernels_off(monkeypatch):
    game = DiceRace(3, dice=True)
    monkeypatch.setenv("PLYGROUND_JIT", "1")
    bound = bind(seat_search, game, LeadHeuristic(game))
    assert (bound.binding, bound.adapter) == ("compiled", None)
    assert list(bound.weights) == [1.0, 0.0]     # the heuristic's weights, then its slot of `choice`
    monkeypatch.setenv("PLYGROUND_JIT", "0")
    assert bind(seat_search, game, LeadHeuristic(game)).binding == "interpreted"


def test_every_heuristic_of_a_game_runs_in_one_compiled_search_whose_weights_point_to_its_function(
        compiled_kernels_on):
    game = LinesOfAction()
    state = game.apply(game.initial_state(), game.legal_moves(game.initial_state())[3])
    bounds = {cls: bind(alphabeta_search, game, cls(game), "compiled") for cls in game.kernel.scores}
    assert len({id(b.functions) for b in bounds.values()}) == 1      # one search (so one compile) for all
    own = game.kernel.heuristics.interpreted
    words = tuple(int(w) for w in game.kernel.to_kernel(state))
    values = set()
    for cls, bound in bounds.items():
        function = getattr(own, game.kernel.scores[cls])
        assert tuple(bound.weights[:-1]) == tuple(cls(game).weights)
        value = bound.functions.interpreted.score(words, bound.weights)   # `choice.score`'s code, run as Python
        assert value == function(words, bound.weights[:-1])
        values.add(value)
    assert len(values) == len(bounds)                                 # each slot calls a different function
    interpreted = bind(alphabeta_search, game, GroupsHeuristic(game), "interpreted")
    assert interpreted.weights == tuple(GroupsHeuristic(game).weights)  # Python calls the function directly


def test_auto_on_a_game_without_a_kernel_says_it_chose_the_adapter_and_why():
    bound = bind(pn_search, TicTacToe())
    assert (bound.binding, bound.reason) == ("adapter", "tictactoe has no kernel")


@pytest.mark.parametrize("kernel", ["compiled", "interpreted"])
def test_asking_for_a_kernel_the_game_lacks_is_refused_naming_why(kernel):
    with pytest.raises(ConfigError, match=f"kernel: {kernel} does not fit plugins.agents.proofnumber.search on "
                                          "tictactoe: tictactoe has no kernel"):
        bind(pn_search, TicTacToe(), None, kernel)


def test_a_kernel_without_a_primitive_the_search_calls_is_refused_at_the_agent():
    game = DiceRace(3, dice=False)
    module = types.ModuleType("dice_race_without_pass_to")
    module.__dict__.update({k: v for k, v in vars(race).items() if k != "pass_to" and not k.startswith("__")})
    rules = numba_backend.Kernel(module, tag="dice_race_without_pass_to")
    game.kernel = api.GameKernel("dice_race_without_pass_to", rules, tuple, heuristics=rules,
                                 scores={LeadHeuristic: "lead"}, key_shifts=(0, 16), move_space=4)
    with pytest.raises(ConfigError, match="kernel: compiled does not fit plugins.agents.multiplayer.search on "
                                          "dice_race: the dice_race kernel has no pass_to"):
        BestReplyAgent(game, heuristic=LeadHeuristic(game), kernel="compiled")
    decision = BestReplyAgent(game, heuristic=LeadHeuristic(game)).select_move(game, game.initial_state(), Budget())
    assert decision.stats.extra["binding"] == "adapter"


def test_a_heuristic_the_kernel_does_not_compile_is_refused_for_compiled():
    game = DiceRace(2, dice=True)

    class Other(LeadHeuristic):
        name = "other"

    with pytest.raises(ConfigError, match="heuristic 'other' has no compiled function in the dice_race kernel"):
        ExpectiminimaxAgent(game, heuristic=Other(game), kernel="interpreted")


def test_compiled_with_compiled_kernels_turned_off_is_refused(monkeypatch):
    monkeypatch.setenv("PLYGROUND_JIT", "0")
    game = DiceRace(2, dice=True)
    with pytest.raises(ConfigError, match="kernel: compiled, but PLYGROUND_JIT=0 turns compiled kernels off"):
        bind(dice_search, game, LeadHeuristic(game), "compiled")


def test_an_unknown_binding_is_refused():
    with pytest.raises(ConfigError, match="kernel: must be one of auto, compiled, interpreted, adapter, got 'jit'"):
        bind(pn_search, TicTacToe(), None, "jit")


def test_the_adapter_and_the_interpreted_kernel_visit_the_same_nodes_and_record_how_they_ran(monkeypatch):
    monkeypatch.setenv("PLYGROUND_JIT", "0")
    game = DiceRace(2, dice=True)
    state = race.apply_move(game.initial_state(), 2)
    runs = {}
    for kernel in ("adapter", "interpreted", "auto"):
        decision = ExpectiminimaxAgent(game, depth=5, heuristic=LeadHeuristic(game), kernel=kernel).select_move(
            game, state, Budget())
        extra = decision.stats.extra
        runs[kernel] = (decision.move, decision.stats.score, decision.stats.nodes, extra["binding"],
                        extra["binding_reason"])
    assert runs["adapter"][:3] == runs["interpreted"][:3] == runs["auto"][:3]
    assert [run[3:] for run in runs.values()] == [("adapter", "asked for"), ("interpreted", "asked for"),
                                                  ("interpreted", "compiled kernels are off (PLYGROUND_JIT=0)")]


def test_a_compiled_binding_records_no_reason(monkeypatch):
    monkeypatch.setenv("PLYGROUND_JIT", "1")
    game = DiceRace(2, dice=True)
    assert bind(dice_search, game, LeadHeuristic(game)).recorded() == {"binding": "compiled"}


@pytest.mark.parametrize("fields, message", [
    ({"tag": "dice race"}, "GameKernel: tag must be a name (it names the compiled searches' cache files), "
                           "got 'dice race'"),
    ({"move_space": -1}, "GameKernel 'race': move_space must be ints >= 0, got -1"),
    ({"key_shifts": (0, 1.5)}, "GameKernel 'race': key_shifts must be ints >= 0, got 1.5"),
    ({"option": True}, "GameKernel 'race': option must be ints >= 0, got True")])
def test_a_game_kernel_record_that_cannot_be_is_refused_naming_the_field(fields, message):
    rules = numba_backend.Kernel(race, tag="race")
    with pytest.raises(PluginError, match=message.replace("(", r"\(").replace(")", r"\)")):
        api.GameKernel(**{"tag": "race", "rules": rules, "to_kernel": tuple, **fields})


def test_a_kernel_chained_on_what_is_not_a_compiled_kernel_is_refused():
    with pytest.raises(PluginError, match="dice_race_sample: rules must be a numba_backend.Kernel, got 'rules'"):
        numba_backend.Kernel(race, rules="rules", tag="refused")


def test_a_numba_without_an_internal_the_backend_touches_is_refused_naming_its_version():
    import numba
    owner = types.SimpleNamespace(__name__="internals", present=1)
    numba_backend._require(owner, "present")
    with pytest.raises(numba_backend.NumbaInternalsError, match=f"numba {numba.__version__} has no "
                                                                "internals.absent, an internal the compiled"):
        numba_backend._require(owner, "absent")
