"""PN, PN², df-pn and alpha-beta's solver give the same values on solved positions of every game.

The LOA and checkers endgames were sampled 3-7 plies before the end of seeded self-play games
(random and depth-1 alpha-beta moves mixed); each is solved by all four solvers here, and a
winning move is checked by proving the position after it lost with a solver that did not find it.
"""

import random

import pytest

from framework.endgames import create_solver
from framework.protocols import UNLIMITED, Budget, Proof

LOA_ENDGAMES = [  # all wins for the side to move
    "....b.../....b.../...bb.w./..wb...w/..bb..../..b..b.w/..ww.w../...b.... b",
    "....ww../..bw..../.bb.w.../....b.w./.....bbw/....wbbw/.......w/........ b",
    ".......b/......../.b.bbw.w/..b.wbw./...b.w.w/.....bww/......w./..w....b w",
    "......../w.bb..../.b.bww../..bwbw../wb...w../w.b...../.wb...../.......b b",
    "b....b../....w..w/....bwww/..bbbwww/..b..b../.....w../....b..w/........ w",
    "......../......w./......w./.....w../...w.wb./.....w../..w.b.w./..b...b. w",
    "....bbb./..bw.w../...ww.../..bw.b.w/.w....../..ww...b/b......./........ w",
]
CHECKERS_ENDGAMES = {
    "B:W11,22:B1,2,3,4,9,K24,K32": Proof.WIN,
    "W:WK3,K10,K11:BK19:H5": Proof.WIN,
    "B:W8,27,29:B2,3,4,14,K30": Proof.WIN,
    "W:WK11,K14:BK23,K26:H77": Proof.DRAW,  # two kings each, three quiet moves before the 40-move draw
}
SOLVERS = ["pns", "pn2", "dfpn", "alphabeta"]
#: Alpha-beta proves a draw only with an exhausted iteration, which the checkers draw (40-move
#: rule, kings shuffling) does not reach in reasonable time: there it may answer unknown.
ALPHABETA_BUDGET = Budget(nodes=100_000)


def check_agreement(registry, game, state, expected=None):
    results = {name: registry.create_agent(name, game).solve(
        game, state, ALPHABETA_BUDGET if name == "alphabeta" else UNLIMITED) for name in SOLVERS}
    values = {name: r.value for name, r in results.items()}
    value = values["pns"]
    assert value is not Proof.UNKNOWN and (expected is None or value is expected)
    allowed = {value, Proof.UNKNOWN} if value is Proof.DRAW else {value}
    assert values["pn2"] is values["dfpn"] is value and values["alphabeta"] in allowed, (game.to_text(state), values)
    for name, result in results.items():
        if result.value is Proof.WIN:
            after = game.apply(state, result.move)
            checker = "dfpn" if name != "dfpn" else "pns"
            assert registry.create_agent(checker, game).solve(game, after, UNLIMITED).value is Proof.LOSS
    return value


@pytest.mark.parametrize("text", LOA_ENDGAMES)
def test_loa_endgames_are_wins_for_every_solver(registry, text):
    game = registry.create_game("loa")
    check_agreement(registry, game, game.from_text(text), Proof.WIN)


@pytest.mark.parametrize("text, expected", CHECKERS_ENDGAMES.items())
def test_checkers_endgames_agree_including_a_draw(registry, text, expected):
    game = registry.create_game("checkers")
    check_agreement(registry, game, game.from_text(text), expected)


def test_tictactoe_and_matches_positions_agree(registry):
    rng = random.Random(2)
    for name, options in (("tictactoe", {}), ("matches", {"heaps": [2, 3, 4], "k": 2})):
        game = registry.create_game(name, options)
        for _ in range(12):
            state = game.initial_state()
            for _ in range(rng.randrange(4)):
                state = game.apply(state, rng.choice(game.legal_moves(state)))
            if not game.is_terminal(state):
                check_agreement(registry, game, state)


# PN² as published (the default) expands as PN search on trees this small: x f(x) < 1 leaves its second
# level nothing beyond the root. `growth: tree-size` (each second level as large as the first) keeps the
# counts of the first PN².
@pytest.mark.parametrize("game_name, text, counts", [
    ("loa", LOA_ENDGAMES[0], {"pns": 971, "pn2": 971, "pn2:growth=tree-size": 1157, "dfpn": 971}),
    ("checkers", "B:W11,22:B1,2,3,4,9,K24,K32", {"pns": 375, "pn2": 375, "pn2:growth=tree-size": 7224, "dfpn": 929}),
    ("checkers", "W:WK11,K14:BK23,K26:H77", {"pns": 2519, "pn2": 2519, "pn2:growth=tree-size": 3147, "dfpn": 7624}),
])
def test_node_counts_are_part_of_the_contract(registry, game_name, text, counts):
    """Fixed counts in the games' move order, for a compiled path to reproduce exactly."""
    game = registry.create_game(game_name)
    state = game.from_text(text)
    assert {spec: create_solver(registry, game, spec).solve(game, state, UNLIMITED).stats.nodes
            for spec in counts} == counts
