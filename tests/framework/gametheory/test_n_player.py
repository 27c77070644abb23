"""Pure equilibria of n-player normal-form games: known 3-player games listed by hand, a brute-force check of the
definition, agreement with the two-player code, and `plyground nash` on a 3-player file."""

import random
from fractions import Fraction as F
from itertools import product

from framework.cli import main
from framework.gametheory.files import load_game
from framework.gametheory.n_player import NPlayerGame
from framework.gametheory.normal_form import NormalFormGame

COORDINATION = """\
name: Three-way coordination
players: [Ann, Bob, Cat]
strategies: [[A, B], [A, B], [A, B]]
payoffs:                      # Ann's strategy, then Bob's, then Cat's
  - [[[2, 2, 2], [0, 0, 0]],
     [[0, 0, 0], [0, 0, 0]]]
  - [[[0, 0, 0], [0, 0, 0]],
     [[0, 0, 0], [1, 1, 1]]]
"""


def majority_vote():
    """Three voters pick X or Y, the majority wins; Ann and Bob like X (1), Cat likes Y (1)."""
    cells = {}
    for profile in product(range(2), repeat=3):
        winner = int(sum(profile) >= 2)  # 0: X, 1: Y
        cells[profile] = (F(winner == 0), F(winner == 0), F(winner == 1))
    nested = [[[list(cells[(a, b, c)]) for c in range(2)] for b in range(2)] for a in range(2)]
    return NPlayerGame.from_nested(nested, "vote", ["Ann", "Bob", "Cat"], [["X", "Y"]] * 3)


def brute_force(game):
    """Profiles where no player gains by any unilateral deviation, and whether every deviation loses."""
    found = []
    for profile in sorted(game.payoffs):
        gains, losses_all = False, True
        for p, size in enumerate(game.shape):
            for s in range(size):
                if s == profile[p]:
                    continue
                other = game.payoffs[profile[:p] + (s,) + profile[p + 1:]][p]
                gains |= other > game.payoffs[profile][p]
                losses_all &= other < game.payoffs[profile][p]
        if not gains:
            found.append((profile, losses_all))
    return found


def test_three_way_coordination_has_its_two_unanimous_strict_equilibria(tmp_path):
    path = tmp_path / "coordination.yaml"
    path.write_text(COORDINATION)
    game = load_game(path)
    assert isinstance(game, NPlayerGame) and game.shape == (2, 2, 2)
    assert game.payoffs[(1, 1, 1)] == (1, 1, 1) and game.payoffs[(0, 1, 0)] == (0, 0, 0)
    assert [(game.describe(e.profile), e.payoffs, e.strict) for e in game.pure_equilibria()] == [
        (("A", "A", "A"), (2, 2, 2), True), (("B", "B", "B"), (1, 1, 1), True)]


def test_majority_vote_equilibria_are_the_hand_listed_weak_ones():
    # XXX and YYY: no single voter changes the outcome; XXY: Cat alone cannot overturn X, and Ann or Bob switching
    # would hand the vote to Y. Every other profile has a pivotal voter who gains by switching.
    game = majority_vote()
    assert [(game.describe(e.profile), e.strict) for e in game.pure_equilibria()] == [
        (("X", "X", "X"), False), (("X", "X", "Y"), False), (("Y", "Y", "Y"), False)]


def random_game(rng, shape):
    n = len(shape)
    def nest(prefix):
        if len(prefix) == n:
            return [rng.randrange(3) for _ in range(n)]
        return [nest(prefix + (s,)) for s in range(shape[len(prefix)])]
    return NPlayerGame.from_nested(nest(()), players=[f"p{i}" for i in range(n)])


def test_random_games_match_a_brute_force_check_of_the_definition():
    rng = random.Random(3)
    total = 0
    for _ in range(200):
        shape = tuple(rng.randint(1, 3) for _ in range(rng.randint(2, 4)))
        game = random_game(rng, shape)
        got = [(e.profile, e.strict) for e in game.pure_equilibria()]
        assert got == brute_force(game)
        assert all(e.payoffs == game.payoffs[e.profile] for e in game.pure_equilibria())
        total += len(got)
    assert total > 100


def test_two_players_agree_with_the_two_player_game():
    rng = random.Random(4)
    for _ in range(100):
        game = random_game(rng, (rng.randint(1, 4), rng.randint(1, 4)))
        m, n = game.shape
        two = NormalFormGame.from_matrices([[game.payoffs[(i, j)][0] for j in range(n)] for i in range(m)],
                                           [[game.payoffs[(i, j)][1] for j in range(n)] for i in range(m)])
        assert [((e.row, e.column), e.strict) for e in two.pure_equilibria()] == \
            [(e.profile, e.strict) for e in game.pure_equilibria()]


def test_nash_prints_the_profiles_and_equilibria_of_a_three_player_file(tmp_path, capsys):
    (tmp_path / "coordination.yaml").write_text(COORDINATION)
    assert main(["nash", str(tmp_path / "coordination.yaml")]) == 0
    out = capsys.readouterr().out
    assert "Three-way coordination: normal form, 3 players (Ann, Bob, Cat), 2 x 2 x 2" in out
    assert out.count("0, 0, 0") == 6
    equilibria = out.split("Pure Nash equilibria (no player gains by deviating alone):\n")[1].splitlines()
    assert equilibria == ["Ann  Bob  Cat  payoffs  kind", "---  ---  ---  -------  ------",
                          "A    A    A    2, 2, 2  strict", "B    B    B    1, 1, 1  strict"]


def test_a_file_without_players_takes_the_player_count_from_the_nesting(tmp_path):
    path = tmp_path / "three.yaml"
    path.write_text("payoffs: [[[[1, 0, 0], [0, 1, 0]]]]\n")
    game = load_game(path)
    assert isinstance(game, NPlayerGame)
    assert game.players == ("1", "2", "3") and game.strategies == (("s1",), ("s1",), ("s1", "s2"))
    assert [e.profile for e in game.pure_equilibria()] == [(0, 0, 0), (0, 0, 1)]
