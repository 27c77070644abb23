"""Our MCTS against OpenSpiel's MCTSBot at equal simulations on Lines of Action: the match, and why it ends there.

    plyground run tournaments/mcts-vs-openspiel.yaml &&
    python -m plugins.reports.spiel_mcts results/mcts-vs-openspiel

Both searches count the same simulations (descent, one new node, one random playout to the end, back-up) and
select by the same UCT formula, so equal simulations should give equal strength. What differs is what a
playout sees: OpenSpiel's state carries the game's history, and its lines_of_action draws at any board seen
before, in the game or in the playout; our kernel state is the board and the mover only, so our playouts end
only by a connection. `playout_study` measures both from positions of the match's own games: the share of
random playouts from there that end drawn, and their length. `write_spiel_mcts_report(folder)` writes
`README.md` with the match line, how games ended, the playout study and the verdict read off the numbers.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from framework.analysis.markdown import markdown_table
from framework.analysis.standings import MATCH_LEGEND, MIN_PAIRS, match_line
from framework.analysis.tables import Results
from framework.records import game_for, replay_states

OURS, THEIRS = "mcts-200", "openspiel-mcts-200"
#: Plies into a stored game at which the playout study samples positions.
SAMPLE_PLIES = (10, 30, 50)


@dataclass(frozen=True)
class Playouts:
    """Random playouts from one position: how many ended drawn, and their mean length in plies."""

    runs: int
    draws: int
    mean_plies: float


def spiel_playouts(pyspiel_state, runs: int, rng: random.Random) -> Playouts:
    """`runs` uniformly random playouts on OpenSpiel's state (its history kept), as MCTSBot's rollouts play."""
    draws, plies = 0, 0
    for _ in range(runs):
        state = pyspiel_state.clone()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            plies += 1
        draws += state.returns()[0] == 0
    return Playouts(runs, draws, plies / runs)


def our_playouts(game, state, runs: int, rng: random.Random) -> Playouts:
    """`runs` uniformly random playouts on our game's state (the board and the mover: no history)."""
    draws, plies = 0, 0
    for _ in range(runs):
        s = state
        while not game.is_terminal(s):
            s = game.apply(s, rng.choice(list(game.legal_moves(s))))
            plies += 1
        draws += game.returns(s)[0] == 0
    return Playouts(runs, draws, plies / runs)


def spiel_state(spiel_game, moves: list[str]):
    """OpenSpiel's state after our stored moves (LOA's notation is OpenSpiel's: "b1-b3", "c1xa3")."""
    state = spiel_game.new_initial_state()
    for text in moves:
        player = state.current_player()
        state.apply_action(next(a for a in state.legal_actions() if state.action_to_string(player, a) == text))
    return state


def playout_study(results: Results, positions: int, runs: int, seed: int = 1) -> pd.DataFrame:
    """Per sampled position (a stored game at one of SAMPLE_PLIES): draws and mean length of `runs` random
    playouts in OpenSpiel's lines_of_action (history kept) and in ours."""
    import pyspiel

    game = game_for(results, results.config["game"])
    spiel_game = pyspiel.load_game("lines_of_action")
    moves = results.moves.sort_values(["key", "ply"]).groupby("key")["move"].apply(list)
    rng = random.Random(seed)
    rows = []
    for key in sorted(rng.sample(sorted(moves.index), min(positions, len(moves)))):
        played = moves[key]
        start = results.games.set_index("key").loc[key, "start"]
        for ply in (p for p in SAMPLE_PLIES if p < len(played)):
            ours = our_playouts(game, replay_states(game, start, played[:ply])[-1], runs, rng)
            theirs = spiel_playouts(spiel_state(spiel_game, played[:ply]), runs, rng)
            rows.append({"game": key, "ply": ply, "runs": runs, "openspiel_draws": theirs.draws,
                         "openspiel_plies": theirs.mean_plies, "our_draws": ours.draws, "our_plies": ours.mean_plies})
    return pd.DataFrame(rows)


def by_ply(study: pd.DataFrame) -> pd.DataFrame:
    """The study summed per sampled ply: positions, playouts, the share drawn on each side, mean lengths."""
    rows = []
    for ply, group in study.groupby("ply"):
        runs = int(group["runs"].sum())
        rows.append({"ply": ply, "positions": len(group), "playouts": runs,
                     "openspiel_drawn_pct": 100 * group["openspiel_draws"].sum() / runs,
                     "our_drawn_pct": 100 * group["our_draws"].sum() / runs,
                     "openspiel_mean_plies": group["openspiel_plies"].mean(),
                     "our_mean_plies": group["our_plies"].mean()})
    return pd.DataFrame(rows)


def verdict(match: pd.Series, study: pd.DataFrame) -> str:
    """Whether equal simulations gave equal strength (the Elo interval holds 0), and what the playouts show."""
    elo, error = float(match["elo"]), float(match["elo_error"])
    runs = int(study["runs"].sum())
    theirs = 100 * study["openspiel_draws"].sum() / runs
    ours = 100 * study["our_draws"].sum() / runs
    first, second = match["participant"], match["opponent"]
    if sum(match["ptnml"]) < MIN_PAIRS or not math.isfinite(error) or not math.isfinite(elo):
        head = f"Too few games to tell: {first} scored {match['score_pct']:.1f}% against {second}."
    elif abs(elo) <= error:
        head = f"Equal simulations gave equal strength: Elo {elo:+.1f} +- {error:.1f} (95%) holds 0."
    else:
        head = (f"Equal simulations did not give equal strength: {first} scored {match['score_pct']:.1f}% against "
                f"{second}, Elo {elo:+.1f} +- {error:.1f} (95%), which does not hold 0.")
    return (f"{head} Of {runs:,} random playouts from positions of these games, {theirs:.1f}% ended drawn in "
            f"OpenSpiel's lines_of_action (a board seen before, in the game or the playout, draws) and "
            f"{ours:.1f}% in ours (our playouts carry no history, so only a connection ends them). A drawn "
            f"playout scores 0 for every move on its path, whichever side the position favours: it narrows the "
            f"differences UCT reads, so the same count of simulations tells MCTSBot less. Otherwise the two "
            f"searches count the same simulations, select by the same UCT formula and constant, play uniform "
            f"playouts and prove wins and losses; they differ in the order a node's untried children are first "
            f"visited (ours in generation order, MCTSBot's shuffled), which a uniform playout makes no better "
            f"or worse. The playouts are the likely cause; a direct test would run MCTSBot's rollouts without "
            f"the history, which OpenSpiel's lines_of_action does not offer.")


def write_spiel_mcts_report(folder: str | Path, positions: int = 20, runs: int = 100) -> Path:
    """README.md in `folder`: the match, how its games ended, the playout study and the verdict."""
    folder = Path(folder)
    results = Results(folder)
    match = results.match()
    row = match.iloc[0]
    study = playout_study(results, positions, runs)
    study.to_csv(folder / "playouts.csv", index=False)
    config = results.config
    text = f"""# Our MCTS against OpenSpiel's MCTSBot at equal simulations ({config['game']})

Reproduce: `plyground run tournaments/mcts-vs-openspiel.yaml && python -m plugins.reports.spiel_mcts
results/mcts-vs-openspiel` (the playout study: {positions} games of the match sampled at plies
{', '.join(map(str, SAMPLE_PLIES[:-1]))} and {SAMPLE_PLIES[-1]}; {runs} random playouts from each position on each
side).

**Verdict.** {verdict(row, study)}

## The match

{match_line(row)}

{MATCH_LEGEND}

{markdown_table(results.terminations())}

## The playouts

Per sampled ply: the share of random playouts that ended drawn, and their mean length, in OpenSpiel's state
(the game's history kept, as MCTSBot's RandomRolloutEvaluator plays them) and in ours (the board and the mover).
Per position: `playouts.csv`.

{markdown_table(by_ply(study))}
"""
    path = folder / "README.md"
    path.write_text(text, encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m plugins.reports.spiel_mcts",
                                     description="Write README.md for the MCTS against MCTSBot match.")
    parser.add_argument("results", help="results folder of tournaments/mcts-vs-openspiel.yaml")
    parser.add_argument("--positions", type=int, default=20, help="games sampled for the playout study")
    parser.add_argument("--runs", type=int, default=100, help="random playouts from each sampled position")
    args = parser.parse_args(argv)
    print(write_spiel_mcts_report(args.results, args.positions, args.runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
