"""The best-reply search comparison in Rolit: BRS, paranoid and max^n at equal time per move, for 3 and 4 players.

    plyground run tournaments/rolit.yaml && plyground run tournaments/rolit4.yaml &&
    python -m plugins.reports.multiplayer results/rolit results/rolit4 --out results/multiplayer

`write_multiplayer_report(runs, folder)` writes `README.md`: for each run the standings (win rate with its 95%
Wilson interval, win rate per seat), openskill Plackett-Luce ratings, the finished-ahead crosstable and the
wins by seat, beside the claim of M. P. D. Schadd and M. H. M. Winands ("Best Reply Search for Multiplayer
Games", IEEE TCIAIG 3(1), 2011) that BRS wins more games than paranoid and max^n; whether that holds here is
decided from the numbers (the highest win rate, and whether its interval clears the runner-up's).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from framework.analysis.markdown import markdown_table
from framework.analysis.tables import Results

CLAIMANT = "brs"
#: The agents of the paper's comparison: the claim is about these (another seat, e.g. MCTS, is left out).
COMPARED = ("brs", "paranoid", "maxn")


def verdict(standings: pd.DataFrame) -> str:
    """Whether BRS won the most games of the compared searches (participants named after their agents, COMPARED),
    and whether clearly (its interval above the runner-up's)."""
    standings = standings[standings["participant"].isin(COMPARED)]
    ranked = standings.assign(win_pct=100 * standings["wins"] / standings["games"]).sort_values(
        "win_pct", ascending=False, kind="stable")
    if CLAIMANT not in set(ranked["participant"]):
        return "BRS did not play."
    best, second = ranked.iloc[0], ranked.iloc[1]
    leaders = ranked[ranked["win_pct"] == best["win_pct"]]["participant"].tolist()
    if CLAIMANT in leaders and len(leaders) > 1:
        return (f"**Undecided here**: BRS tied for most wins with {', '.join(p for p in leaders if p != CLAIMANT)} "
                f"({best['win_pct']:.1f}% of their games).")
    if best["participant"] != CLAIMANT:
        return (f"**Does not hold here**: {best['participant']} won most ({best['win_pct']:.1f}% of its games); "
                f"BRS won {ranked.set_index('participant').loc[CLAIMANT, 'win_pct']:.1f}%.")
    low = float(best["win_ci95"].split("-")[0])
    high_second = float(second["win_ci95"].split("-")[1].rstrip("%"))
    clear = low > high_second
    return (f"**Holds here**: BRS won most ({best['win_pct']:.1f}%, next {second['participant']} "
            f"{second['win_pct']:.1f}%), " + ("and its 95% interval clears the runner-up's." if clear else
                                               "but the 95% intervals overlap: more games would be needed to "
                                               "call it."))


def section(results: Results) -> str:
    config = results.config
    participants = ", ".join(f"`{p['id']}` ({p['agent']}, {p['budget'].get('time') or '-'} s a move)"
                             for p in config["participants"])
    standings = results.seat_standings()
    seats = int(results.seats["seat"].max()) + 1
    return f"""## {seats} players (`{config['name']}`: {len(results.games)} games)

Participants: {participants}; {config['games_per_pairing']} games per group, each seat rotation equally often.

{markdown_table(standings)}

Ratings (openskill Plackett-Luce; ordinal = mu - 3 sigma):

{markdown_table(results.seat_ratings())}

Finished ahead (% of the games played together in which the row ranked above the column; ties half):

{markdown_table(results.ahead(), index=True)}

Wins by seat:

{markdown_table(results.seat_wins())}

The paper's claim, BRS wins most (of BRS, paranoid and max^n): {verdict(standings)}

"""


def write_multiplayer_report(runs: list[Results], folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    text = f"""# Best-reply search, paranoid and max^n in Rolit

Schadd & Winands (2011) proposed best-reply search (BRS): at each opponent layer only the single opponent
move that is best against the root player is searched, the other opponents passing, so the root player
looks deeper than max^n or paranoid in the same time. The claim checked here, as this project's issue
states it: BRS wins most against paranoid and max^n. Here the three searches (`plugins/agents/multiplayer/`,
each with iterative deepening to the time budget and the `discs` heuristic) play Rolit with every
participant in every seat equally often.

Reproduce: `plyground run tournaments/rolit.yaml && plyground run tournaments/rolit4.yaml &&
python -m plugins.reports.multiplayer results/rolit results/rolit4 --out results/multiplayer`.

{"".join(section(results) for results in runs)}
## Limits of this comparison

Our searches have no move ordering or transposition table and run interpreted through the kernel adapter
at 0.05 s a move, so all three reach only a few plies; deeper searches may rank them differently. The
four-player run fills the fourth seat with MCTS. Time budgets make the games depend on the machine's speed:
a re-run plays other games, with rates inside the intervals more often than not.
"""
    path = folder / "README.md"
    path.write_text(text)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m plugins.reports.multiplayer",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="+", help="results folders of n-player Rolit runs")
    parser.add_argument("--out", default="results/multiplayer", help="where to write README.md")
    args = parser.parse_args(argv)
    print(write_multiplayer_report([Results(folder) for folder in args.results], Path(args.out)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
