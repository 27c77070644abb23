"""No search pays for loading inside its clock: an engine loads, compiles and warms up before a game's clock
starts (`isready`), so each built-in compiled search's first move of a tournament game costs no more than 3x its
median move + 20 ms of the engine's CPU time (measured by the referee), in every game."""

import statistics
import textwrap

import pytest

from framework.analysis.tables import Results
from framework.tournament.config import load_config
from framework.tournament.runner import run_tournament

pytestmark = pytest.mark.slow

#: (agent, its parameters, the game and its options): a compiled search of each family on a game with a kernel.
SEARCHES = [
    ("alphabeta", {"depth": 3, "heuristic": "mobility"}, "loa", {}),
    ("pns", {}, "loa", {}),
    ("mcts", {}, "checkers", {}),
    ("expectiminimax", {"depth": 2}, "einstein", {}),
    ("maxn", {"depth": 2}, "rolit", {"players": 3}),
]


@pytest.mark.parametrize("agent, params, game, options", SEARCHES, ids=[s[0] for s in SEARCHES])
def test_a_built_in_searchs_first_move_costs_no_more_than_its_others(tmp_path, compiled_kernels_on, agent, params,
                                                                      game, options):
    seats = options.get("players", 2)
    others = "".join(f"  - {{id: r{i}, agent: random}}\n" for i in range(1, seats))
    path = tmp_path / "t.yaml"
    path.write_text(textwrap.dedent(f"""\
        game: {{name: {game}, options: {options}}}
        games_per_pairing: {seats}
        max_plies: 24
        seed: 5
        workers: 1
        results: {tmp_path / 'out'}
        participants:
          - {{id: s, agent: {agent}, params: {params}, budget: {{nodes: 3000}}}}
        """) + others)
    run_tournament(load_config(path), quiet=True)
    moves = Results(tmp_path / "out").moves
    mine = moves[moves["participant"] == "s"].sort_values(["key", "ply"])
    assert len(set(mine["key"])) >= 2
    for key, game_moves in mine.groupby("key"):
        cpu = game_moves["cpu_time"].tolist()
        assert len(cpu) >= 3, key
        first, median = cpu[0], statistics.median(cpu[1:])
        assert first <= 3 * median + 0.02, (key, first, median, cpu)
