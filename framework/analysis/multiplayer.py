"""Tables of games of more than two players, from the store's `seats` (one row per game and seat).

- `seat_standings`: per participant, games, points (the seats with the best result share 1), wins (sole
  first places), mean rank, and the win rate from each seat (a fair seating plays every seat equally often);
- `seat_ratings`: a multi-player rating with its uncertainty: openskill's Plackett-Luce model (Weng & Lin,
  "A Bayesian Approximation Method for Online Ranking", JMLR 12, 2011) updated game by game in the order the
  games were scheduled, with `ordinal` = mu - 3 sigma (the conservative estimate openskill sorts by);
- `ahead_table`: the pairwise "finished ahead of" crosstable: the share of the games two participants played
  together in which the row participant ranked above the column one (ties count half);
- `seat_wins`: per seat, how often it won at all (the seat's advantage).
"""

from __future__ import annotations

import math

import pandas as pd

#: 95% two-sided normal quantile, for the Wilson interval of a win rate.
Z95 = 1.959964


def wilson(wins: float, games: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate of `wins` in `games`."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + Z95 ** 2 / (2 * games)) / (1 + Z95 ** 2 / games)
    half = Z95 * math.sqrt(p * (1 - p) / games + Z95 ** 2 / (4 * games ** 2)) / (1 + Z95 ** 2 / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


def with_points(seats: pd.DataFrame) -> pd.DataFrame:
    """`seats` with `points` (first places share 1) and `won` (a sole first place) added."""
    seats = seats.copy()
    firsts = seats[seats["rank"] == 1].groupby("key").size()
    shared = seats["key"].map(firsts)
    seats["points"] = (seats["rank"] == 1) / shared
    seats["won"] = (seats["rank"] == 1) & (shared == 1)
    return seats


def seat_standings(seats: pd.DataFrame, ids: list[str]) -> pd.DataFrame:
    """Per participant: games, points, score % (points per game), wins with a 95% interval, mean rank, and the
    win rate from each seat."""
    seats = with_points(seats)
    rows = []
    for pid in ids:
        mine = seats[seats["participant"] == pid]
        games = len(mine)
        low, high = wilson(float(mine["won"].sum()), games)
        row = {"participant": pid, "games": games, "points": float(mine["points"].sum()),
               "score_pct": 100 * mine["points"].mean() if games else float("nan"),
               "wins": int(mine["won"].sum()), "win_ci95": f"{100 * low:.1f}-{100 * high:.1f}%",
               "mean_rank": mine["rank"].mean() if games else float("nan")}
        for seat, group in mine.groupby("seat"):
            row[f"win_pct_seat{seat}"] = 100 * group["won"].mean()
        rows.append(row)
    return pd.DataFrame(rows).sort_values("points", ascending=False, kind="stable").reset_index(drop=True)


def seat_ratings(seats: pd.DataFrame, order: list[str], ids: list[str]) -> pd.DataFrame:
    """openskill Plackett-Luce ratings (mu, sigma, ordinal = mu - 3 sigma), games taken in `order` (their keys)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {pid: model.rating(name=pid) for pid in ids}
    by_key = {key: group.sort_values("seat") for key, group in seats.groupby("key")}
    for key in order:
        group = by_key.get(key)
        if group is None:
            continue
        players = list(group["participant"])
        rated = model.rate([[ratings[p]] for p in players], ranks=[int(r) for r in group["rank"]])
        for p, (new,) in zip(players, rated):
            ratings[p] = new
    rows = [{"participant": pid, "mu": r.mu, "sigma": r.sigma, "ordinal": r.mu - 3 * r.sigma}
            for pid, r in ratings.items()]
    return pd.DataFrame(rows).sort_values("ordinal", ascending=False, kind="stable").reset_index(drop=True)


def ahead_table(seats: pd.DataFrame, ids: list[str]) -> pd.DataFrame:
    """Row participant's share of the shared games in which it ranked above the column participant (%)."""
    rank = seats.pivot_table(index="key", columns="participant", values="rank", aggfunc="first")
    table = pd.DataFrame(index=ids, columns=ids, dtype=float)
    for a in ids:
        for b in ids:
            if a == b or a not in rank or b not in rank:
                continue
            both = rank[[a, b]].dropna()
            if len(both):
                table.loc[a, b] = 100 * ((both[a] < both[b]).sum() + 0.5 * (both[a] == both[b]).sum()) / len(both)
    return table


def seat_wins(seats: pd.DataFrame) -> pd.DataFrame:
    """Per seat: games and the share of them the seat won outright, with a 95% interval."""
    seats = with_points(seats)
    rows = []
    for seat, group in seats.groupby("seat"):
        low, high = wilson(float(group["won"].sum()), len(group))
        rows.append({"seat": int(seat), "games": len(group), "win_pct": 100 * group["won"].mean(),
                     "win_ci95": f"{100 * low:.1f}-{100 * high:.1f}%"})
    return pd.DataFrame(rows)
