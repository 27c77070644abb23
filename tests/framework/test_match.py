"""The match runner checks every move and turns misbehaviour into a recorded forfeit."""

import time

import pytest

from framework import Budget, ConfigError, Decision, SearchStats
from framework.match import Termination, play_game
from plugins.agents.random_agent import RandomAgent
from plugins.games.tictactoe import TicTacToe

GAME = TicTacToe()


class Scripted:
    """Plays the given moves in order (by notation)."""

    def __init__(self, *moves):
        self.moves = list(moves)

    def select_move(self, game, state, budget):
        return Decision(game.parse_move(state, self.moves.pop(0)), SearchStats(nodes=7, depth=2, score=0.5))


class Illegal:
    def select_move(self, game, state, budget):
        return Decision(99)


class Crashing:
    def select_move(self, game, state, budget):
        raise RuntimeError("out of ideas")


class Slow:
    def select_move(self, game, state, budget):
        time.sleep(0.3)
        return Decision(game.legal_moves(state)[0])


class NotADecision:
    def select_move(self, game, state, budget):
        return game.legal_moves(state)[0]


def test_a_normal_game_is_recorded_move_by_move():
    record = play_game(GAME, [Scripted("a3", "b3", "c3"), Scripted("a1", "b1")], players=("alice", "bob"))
    assert [m.move for m in record.moves] == ["a3", "a1", "b3", "b1", "c3"]
    assert record.termination is Termination.NORMAL and record.reason == ""
    assert record.winner == 0 and record.result == (1.0, -1.0)
    assert record.plies == 5 and record.players == ("alice", "bob") and record.game == "tictactoe"
    assert record.start == ".../.../... x" and record.final == "XXX/.../OO. o"
    first = record.moves[0]
    assert (first.ply, first.mover, first.nodes, first.depth, first.score) == (1, 0, 7, 2, 0.5)
    assert first.wall_time >= 0 and first.cpu_time == 0.0


@pytest.mark.parametrize("culprit, termination, reason", [
    (Illegal(), Termination.ILLEGAL_MOVE, "X (first) played an illegal move 99"),
    (Crashing(), Termination.CRASH, "X (first) crashed: RuntimeError: out of ideas"),
    (NotADecision(), Termination.INVALID_OUTPUT, "X (first) returned 0 instead of a Decision"),
])
def test_misbehaviour_forfeits_the_game_with_the_reason(culprit, termination, reason):
    record = play_game(GAME, [culprit, RandomAgent(GAME)])
    assert record.termination is termination and record.termination.is_forfeit
    assert record.reason == reason and record.winner == 1 and record.result == (-1.0, 1.0)


def test_exceeding_the_time_budget_forfeits():
    record = play_game(GAME, [RandomAgent(GAME), Slow()], budgets=(Budget(time=0.05), Budget(time=0.05)))
    assert record.termination is Termination.TIME and record.winner == 0
    assert record.reason.startswith("O (second) took 0.3")


def test_max_plies_adjudicates_a_draw():
    record = play_game(GAME, [RandomAgent(GAME, 1), RandomAgent(GAME, 2)], max_plies=3)
    assert record.termination is Termination.MAX_PLIES and record.winner is None and record.plies == 3


def test_repetition_limit_of_a_game_is_enforced():
    class Cycle:
        """A game of two positions that alternate forever: only the repetition rule ends it."""
        name, player_names, repetition_limit = "cycle", ("A", "B"), 3
        initial_state = staticmethod(lambda: 0)
        to_move = staticmethod(lambda s: s)
        legal_moves = staticmethod(lambda s: ["go"])
        apply = staticmethod(lambda s, m: 1 - s)
        is_terminal = staticmethod(lambda s: False)
        returns = staticmethod(lambda s: (0.0, 0.0))
        format_move = staticmethod(lambda s, m: m)
        to_text = staticmethod(str)

    game = Cycle()
    record = play_game(game, [RandomAgent(game), RandomAgent(game)])
    assert record.termination is Termination.REPETITION and record.plies == 4 and record.winner is None


def test_same_seeds_replay_the_same_game():
    def game_moves(seed):
        return [m.move for m in play_game(GAME, [RandomAgent(GAME, seed), RandomAgent(GAME, seed + 1)]).moves]
    assert game_moves(5) == game_moves(5)
    assert len({tuple(game_moves(seed)) for seed in range(10)}) > 1


def test_the_start_position_and_callback_are_honoured():
    seen = []
    record = play_game(GAME, [Scripted("c1"), Scripted("b1")], start=GAME.from_text("XXO/.X./O.. o"),
                       on_move=lambda before, rec, after: seen.append((GAME.to_text(before), rec.move)))
    assert record.start == "XXO/.X./O.. o"
    assert seen == [("XXO/.X./O.. o", "b1"), ("XXO/.X./OO. x", "c1")]
    assert record.winner == 0 and record.final == "XXO/.X./OOX o"


@pytest.mark.parametrize("budget, message", [
    (dict(time=0), "budget time must be a positive number of seconds, got 0"),
    (dict(nodes=-5), "budget nodes must be a positive integer, got -5"),
    (dict(nodes=2.5), "budget nodes must be a positive integer, got 2.5"),
])
def test_bad_budgets_are_refused(budget, message):
    with pytest.raises(ConfigError, match=message):
        Budget(**budget)


class Returns:
    """Answers every move with `make(legal_moves)`."""

    def __init__(self, make):
        self.make = make

    def select_move(self, game, state, budget):
        return self.make(game.legal_moves(state))


class Exits:
    def select_move(self, game, state, budget):
        raise SystemExit(3)


class Unprintable(int):
    def __repr__(self):
        raise ValueError("no repr")

    __str__ = __repr__


class Unpicklable:
    def __reduce__(self):
        raise TypeError("cannot pickle this")


@pytest.mark.parametrize("make, reason", [
    (lambda legal: Decision(legal[0], None), "returned stats None instead of a SearchStats"),
    (lambda legal: Decision(legal[0], SearchStats(score="not-a-number")),
     "SearchStats.score must be a finite number, got 'not-a-number'"),
    (lambda legal: Decision(legal[0], SearchStats(score=float("nan"))), "SearchStats.score must be a finite number"),
    (lambda legal: Decision(legal[0], SearchStats(depth=10**30)),
     "SearchStats.depth must be an integer from -9223372036854775808 to 2**63-1, got 1000000000000000000000000000000"),
    (lambda legal: Decision(legal[0], SearchStats(nodes=-1)), "SearchStats.nodes must be an integer from 0"),
    (lambda legal: Decision(legal[0], SearchStats(nodes=True)), "SearchStats.nodes must be an integer"),
    (lambda legal: Decision(legal[0], SearchStats(cpu_time=float("inf"))),
     "SearchStats.cpu_time must be a finite number >= 0, got inf"),
    (lambda legal: Decision(legal[0], SearchStats(wall_time=-1.0)),
     "SearchStats.wall_time must be a finite number >= 0"),
    (lambda legal: Decision(legal[0], SearchStats(extra={"x": Unpicklable()})),
     "SearchStats.extra cannot be stored (TypeError: cannot pickle this)"),
    (lambda legal: Decision(legal[0], SearchStats(extra=[1])), "SearchStats.extra must be a mapping, got [1]"),
    (lambda legal: Decision(legal[0], SearchStats(peak_entries=2.5)), "SearchStats.peak_entries must be an integer"),
])
def test_statistics_that_cannot_be_stored_forfeit_as_invalid_output(make, reason):
    record = play_game(GAME, [RandomAgent(GAME), Returns(make)])
    assert record.termination is Termination.INVALID_OUTPUT and record.winner == 0
    assert record.reason.startswith(f"O (second) {reason}"), record.reason


def test_a_move_that_cannot_be_printed_is_replaced_by_the_games_own_move_or_quoted_safely():
    record = play_game(GAME, [Returns(lambda legal: Decision(Unprintable(legal[0]))), RandomAgent(GAME)], max_plies=1)
    assert record.termination is Termination.MAX_PLIES and record.moves[0].move == "a3"
    record = play_game(GAME, [Returns(lambda legal: Decision(Unprintable(99))), RandomAgent(GAME)])
    assert record.reason == "X (first) played an illegal move <unprintable Unprintable>"


def test_sys_exit_in_an_agent_is_a_crash_with_its_exit_code():
    record = play_game(GAME, [RandomAgent(GAME), Exits()])
    assert record.termination is Termination.CRASH and record.winner == 0
    assert record.reason == "O (second) crashed: it called sys.exit (exit code 3)"


def test_a_crash_keeps_the_traceback():
    record = play_game(GAME, [Crashing(), RandomAgent(GAME)])
    assert record.traceback.startswith("Traceback (most recent call last):")
    assert 'raise RuntimeError("out of ideas")' in record.traceback
    assert record.traceback.rstrip().endswith("RuntimeError: out of ideas")
    assert play_game(GAME, [RandomAgent(GAME), RandomAgent(GAME)]).traceback == ""


def test_numpy_statistics_are_stored_as_plain_numbers():
    import numpy as np

    record = play_game(GAME, [Returns(lambda legal: Decision(legal[0], SearchStats(nodes=np.int64(5), score=np.float32(
        0.5), depth=np.int32(2)))), RandomAgent(GAME)], max_plies=1)
    move = record.moves[0]
    assert (move.nodes, move.depth, move.score) == (5, 2, 0.5)
    assert (type(move.nodes), type(move.depth), type(move.score)) == (int, int, float)
