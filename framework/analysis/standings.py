"""Tables over a tournament's games and moves: standings, crosstable, pairs, terminations, search statistics.

Every function takes the `games` / `moves` DataFrames of framework.analysis.tables and
returns a new DataFrame; a row is always labelled with the participant it describes.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from framework.analysis.pairs import pair_stats, pentanomial
from framework.analysis.ratings import fit_elo
from framework.match import Termination

FORFEITS = {t.value for t in Termination if t.is_forfeit}


def with_scores(games: pd.DataFrame) -> pd.DataFrame:
    """`games` with `pair` (colour-swapped pair index), `score_first` (0, 1/2, 1) and `forfeit` added."""
    games = games.copy()
    games["pair"] = games["game_index"] // 2
    games["score_first"] = (games["result_first"] > games["result_second"]) + \
        0.5 * (games["result_first"] == games["result_second"])
    games["forfeit"] = games["termination"].isin(FORFEITS)
    return games


def _long(games: pd.DataFrame) -> pd.DataFrame:
    """One row per participant per game: who, against whom, as which colour, and the points scored."""
    first = pd.DataFrame({"participant": games["first"], "opponent": games["second"], "colour": 0,
                          "points": games["score_first"], "key": games["key"]})
    second = pd.DataFrame({"participant": games["second"], "opponent": games["first"], "colour": 1,
                           "points": 1.0 - games["score_first"], "key": games["key"]})
    return pd.concat([first, second], ignore_index=True)


def _wdl(points: pd.Series) -> tuple[int, int, int]:
    return int((points == 1).sum()), int((points == 0.5).sum()), int((points == 0).sum())


def standings(games: pd.DataFrame, ids: list[str]) -> pd.DataFrame:
    """Games, W/D/L, score %, results by colour and Elo (field mean 0) with its 95% interval."""
    long = _long(games)
    index = {pid: i for i, pid in enumerate(ids)}
    points = np.zeros((len(ids), len(ids)))
    played = np.zeros((len(ids), len(ids)))
    for row in long.itertuples():
        points[index[row.participant], index[row.opponent]] += row.points
        played[index[row.participant], index[row.opponent]] += 1
    # A participant without games (e.g. every one void) has no rating; the fit covers those who played.
    active = [i for i in range(len(ids)) if played[i].sum() > 0]
    fit = fit_elo([ids[i] for i in active], points[np.ix_(active, active)], played[np.ix_(active, active)]) \
        if active else None
    elo, ci95 = np.full(len(ids), np.nan), np.full(len(ids), np.nan)
    if fit:
        elo[active], ci95[active] = fit.elo, fit.ci95
    rows = []
    for i, pid in enumerate(ids):
        mine = long[long["participant"] == pid]
        w, d, losses = _wdl(mine["points"])
        fw, fd, fl = _wdl(mine[mine["colour"] == 0]["points"])
        sw, sd, sl = _wdl(mine[mine["colour"] == 1]["points"])
        n = len(mine)
        rows.append({"participant": pid, "games": n, "wins": w, "draws": d, "losses": losses,
                     "points": float(mine["points"].sum()), "score_pct": 100 * mine["points"].mean() if n else np.nan,
                     "first_wdl": f"{fw}-{fd}-{fl}", "second_wdl": f"{sw}-{sd}-{sl}",
                     "elo": elo[i], "elo_ci95": ci95[i]})
    table = pd.DataFrame(rows).sort_values(["points", "elo"], ascending=False, kind="stable")
    table.attrs["elo_prior_draws"] = fit.prior_draws if fit else 0.0
    return table.reset_index(drop=True)


def crosstable(games: pd.DataFrame, ids: list[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(text, score): 'W-D-L (score%)' of each row participant against each column one, and its score fraction."""
    long = _long(games)
    text = pd.DataFrame("", index=pd.Index(ids, name="participant"), columns=ids)
    score = pd.DataFrame(np.nan, index=pd.Index(ids, name="participant"), columns=ids)
    for (pid, opp), group in long.groupby(["participant", "opponent"]):
        w, d, losses = _wdl(group["points"])
        text.loc[pid, opp] = f"{w}-{d}-{losses} ({100 * group['points'].mean():.0f}%)"
        score.loc[pid, opp] = group["points"].mean()
    return text, score


def pair_table(games: pd.DataFrame) -> pd.DataFrame:
    """Pentanomial statistics per pairing over its complete colour-swapped pairs (games 2k and 2k+1).

    `wl_dd_ratio` splits Ptnml's middle bucket: pairs each side won once over pairs of two draws.
    """
    # each game's points of the pairing's first-named participant, then one row per complete pair of games
    mine = games.assign(mine=np.where(games["first"] == games["pairing_a"], games["score_first"],
                                      1 - games["score_first"]))
    keys = ["pairing_a", "pairing_b", *(["game"] if "game" in games else []), "pair"]
    by_pair = mine.groupby(keys, sort=False)["mine"].agg(["size", "sum", "min", "max"])
    complete = by_pair[by_pair["size"] == 2]
    rows = []
    for (a, b), group in complete.groupby(level=["pairing_a", "pairing_b"], sort=False):
        ptnml = pentanomial(group["sum"].tolist())
        wl = int(((group["min"] == 0.0) & (group["max"] == 1.0)).sum())
        dd = int(((group["min"] == 0.5) & (group["max"] == 0.5)).sum())
        stats = pair_stats(ptnml)
        rows.append({"participant": a, "opponent": b, "pairs": stats.pairs, "ptnml": list(ptnml),
                     "score_pct": 100 * stats.score, "elo": stats.elo, "elo_error": stats.elo_error,
                     "nelo": stats.nelo, "los_pct": 100 * stats.los, "wl_dd_ratio": wl / dd if dd else np.nan})
    return pd.DataFrame(rows, columns=["participant", "opponent", "pairs", "ptnml", "score_pct", "elo", "elo_error",
                                       "nelo", "los_pct", "wl_dd_ratio"])


MATCH_COLUMNS = ["participant", "opponent", "games", "wins", "draws", "losses", "score_pct", "elo", "elo_error",
                 "los_pct", "draw_pct", "pairs", "ptnml"]


def match_table(games: pd.DataFrame) -> pd.DataFrame:
    """Per pairing, what a chess tester reads after a match: the first-named participant's W/D/L, score,
    draw ratio, and Elo with its 95% error and LOS from the pentanomial of its complete pairs."""
    pairs = pair_table(games).set_index(["participant", "opponent"])
    rows = []
    for (a, b), group in games.groupby(["pairing_a", "pairing_b"], sort=False):
        points = np.where(group["first"] == a, group["score_first"], 1 - group["score_first"])
        w, d, losses = _wdl(pd.Series(points))
        stats = pairs.loc[(a, b)] if (a, b) in pairs.index else None
        rows.append({"participant": a, "opponent": b, "games": len(group), "wins": w, "draws": d, "losses": losses,
                     "score_pct": 100 * points.mean(), "draw_pct": 100 * d / len(group),
                     **({k: stats[k] for k in ("elo", "elo_error", "los_pct", "pairs", "ptnml")} if stats is not None
                        else {"elo": np.nan, "elo_error": np.nan, "los_pct": np.nan, "pairs": 0,
                              "ptnml": [0] * 5})})
    return pd.DataFrame(rows, columns=MATCH_COLUMNS)


#: What a figure the games cannot estimate shows: an Elo of a 100% (or 0%) score, an interval of pairs that all
#: ended alike (no spread: one pair, or every pair the same) or that reaches a 0% or 100% score.
NOT_ESTIMATED = "n/a (too few games)"
#: What an interval shows that reaches a 0% or 100% score: its Elo bound is infinite however many games there are.
UNBOUNDED = "n/a (reaches a 0% or 100% score)"
#: The one line that says what the match figures are.
MATCH_LEGEND = ("LOS: likelihood of superiority, the chance that the first-named participant is the stronger; "
                "Ptnml(0-2): the number of colour-swapped game pairs in which it scored 0, 0.5, 1, 1.5 and 2 points")


def elo_estimate(elo: float, error: float, los: float = math.nan) -> tuple[str, str, str]:
    """Elo, its 95% error and LOS (%) as text, NOT_ESTIMATED where the games cannot estimate them.

    LOS needs a spread as the interval does; with none (the error is 0, or the Elo infinite) it is not shown.
    An interval that reaches a 0% or 100% score (an infinite error) reads UNBOUNDED.
    """
    if not math.isfinite(elo):
        return NOT_ESTIMATED, NOT_ESTIMATED, NOT_ESTIMATED
    spread = not math.isfinite(error) or error > 0
    interval = (f"{error:.1f}" if math.isfinite(error) and error > 0 else UNBOUNDED if error == math.inf
                else NOT_ESTIMATED)
    return f"{elo:.1f}", interval, f"{los:.1f}%" if spread and math.isfinite(los) else NOT_ESTIMATED


#: Complete colour-swapped pairs a pairing needs before its match line estimates Elo, interval and LOS: below it
#: the three read NOT_ESTIMATED together (one rule for every pairing, whatever its first few pairs happened to be).
MIN_PAIRS = 5


def match_line(row: pd.Series) -> str:
    """One pairing in one line, e.g. "ab vs rnd: 46 games, W-D-L 44-2-0, score 97.8%, Elo 537.0 +- 254.6, ..."."""
    enough = sum(row["ptnml"]) >= MIN_PAIRS
    elo, error, los = elo_estimate(row["elo"] if enough else math.nan, row["elo_error"], row["los_pct"])
    elo = elo if elo == NOT_ESTIMATED else f"{elo} +- {error}"
    return (f"{row['participant']} vs {row['opponent']}: {row['games']} games, W-D-L {row['wins']}-{row['draws']}-"
            f"{row['losses']}, score {row['score_pct']:.1f}%, Elo {elo}, LOS {los}, draws {row['draw_pct']:.1f}%, "
            f"Ptnml(0-2) {list(row['ptnml'])}")


def terminations(games: pd.DataFrame) -> pd.DataFrame:
    """How games ended: counts and share per termination, split into first-player wins, draws, second wins."""
    rows = []
    for termination, group in games.groupby("termination"):
        rows.append({"termination": termination, "games": len(group),
                     "share_pct": 100 * len(group) / len(games),
                     "first_wins": int((group["score_first"] == 1).sum()),
                     "draws": int((group["score_first"] == 0.5).sum()),
                     "second_wins": int((group["score_first"] == 0).sum())})
    return pd.DataFrame(rows, columns=["termination", "games", "share_pct", "first_wins", "draws", "second_wins"])


def forfeits(games: pd.DataFrame) -> pd.DataFrame:
    """Forfeited games: who lost them, how and why."""
    lost = games[games["forfeit"]]
    loser = np.where(lost["score_first"] == 0, lost["first"], lost["second"])
    return pd.DataFrame({"key": lost["key"], "participant": loser, "termination": lost["termination"],
                         "reason": lost["reason"]}).reset_index(drop=True)


def search_stats(moves: pd.DataFrame) -> pd.DataFrame:
    """Per participant: moves, mean and median nodes per move, nodes per second, mean depth, mean time."""
    grouped = moves.groupby("participant", sort=True)
    table = pd.DataFrame({
        "moves": grouped.size(),
        "mean_nodes": grouped["nodes"].mean(),
        "median_nodes": grouped["nodes"].median(),
        "nodes_per_s": grouped["nodes"].sum() / grouped["wall_time"].sum().replace(0, np.nan),
        "mean_depth": grouped["depth"].mean(),
        "mean_time_ms": 1000 * grouped["wall_time"].mean(),
    })
    return table.reset_index()
