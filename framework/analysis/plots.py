"""PNG plots of a tournament with matplotlib's Agg backend (no display needed, safe in workers and CI)."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def _pyplot() -> ModuleType:
    """matplotlib's pyplot on the Agg backend, imported on the first plot (a run that draws none, as `plyground
    run` printing its match lines, need not pay for the import)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def crosstable_heatmap(scores: pd.DataFrame, path: Path) -> Path:
    """Score fraction of each row participant against each column participant."""
    n = len(scores)
    fig, ax = _pyplot().subplots(figsize=(1.2 * n + 2.5, 1.0 * n + 1.5))
    image = ax.imshow(scores.to_numpy(dtype=float), cmap="RdYlGn", vmin=0, vmax=1)
    ax.set_xticks(range(n), scores.columns, rotation=45, ha="right")
    ax.set_yticks(range(n), scores.index)
    for i in range(n):
        for j in range(n):
            value = scores.iat[i, j]
            if not np.isnan(value):
                ax.text(j, i, f"{100 * value:.0f}%", ha="center", va="center", fontsize=9)
    ax.set_title("Score of row against column")
    fig.colorbar(image, ax=ax, fraction=0.046)
    return _save(fig, path)


def rating_bars(standings: pd.DataFrame, path: Path) -> Path:
    """Elo per participant (field mean 0) with 95% confidence intervals as error bars."""
    fig, ax = _pyplot().subplots(figsize=(max(4.0, 0.9 * len(standings) + 2), 3.5))
    ax.bar(standings["participant"], standings["elo"], yerr=standings["elo_ci95"], capsize=4, color="#4c72b0")
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_ylabel("Elo (field mean 0), 95% CI")
    ax.set_title("Ratings")
    ax.tick_params(axis="x", rotation=45)
    return _save(fig, path)


def nodes_per_move(moves: pd.DataFrame, path: Path) -> Path:
    """Distribution of nodes per move for each participant (log scale)."""
    groups = [(pid, group["nodes"].clip(lower=1).to_numpy()) for pid, group in moves.groupby("participant")]
    fig, ax = _pyplot().subplots(figsize=(max(4.0, 0.9 * len(groups) + 2), 3.5))
    if groups:
        ax.boxplot([g for _, g in groups], tick_labels=[pid for pid, _ in groups])
    ax.set_yscale("log")
    ax.set_ylabel("nodes per move")
    ax.set_title("Nodes per move")
    ax.tick_params(axis="x", rotation=45)
    return _save(fig, path)


def solved_by_nodes(solves: pd.DataFrame, ids: list[str], path: Path) -> Path:
    """Positions solved within a node budget, per solver: the cumulative count against nodes (log scale)."""
    fig, ax = _pyplot().subplots(figsize=(6, 4))
    for sid in ids:
        nodes = np.sort(solves[(solves["solver"] == sid) & (solves["status"] == "solved")]["nodes"].to_numpy())
        if len(nodes):
            ax.step(np.maximum(nodes, 1), np.arange(1, len(nodes) + 1), where="post", label=sid)
    ax.set_xscale("log")
    ax.set_xlabel("node budget")
    ax.set_ylabel("positions solved")
    ax.set_title("Positions solved within a node budget")
    ax.legend()
    return _save(fig, path)


def solved_by_time(solves: pd.DataFrame, ids: list[str], path: Path) -> Path:
    """Positions solved within a time per position, per solver: the cumulative count against seconds (log scale)."""
    fig, ax = _pyplot().subplots(figsize=(6, 4))
    for sid in ids:
        seconds = np.sort(solves[(solves["solver"] == sid) & (solves["status"] == "solved")]["wall_time"].to_numpy())
        if len(seconds):
            ax.step(np.maximum(seconds, 1e-4), np.arange(1, len(seconds) + 1), where="post", label=sid)
    ax.set_xscale("log")
    ax.set_xlabel("time per position (s)")
    ax.set_ylabel("positions solved")
    ax.set_title("Positions solved within a time")
    ax.legend()
    return _save(fig, path)


def nodes_scatter(solves: pd.DataFrame, x: str, y: str, path: Path, y_nodes: str = "nodes") -> Path:
    """Per position both solvers solved: `y`'s nodes (its column `y_nodes`) against `x`'s, log-log, with
    the diagonal, so a point above it is a position `y` needed more nodes for."""
    solved = solves[solves["status"] == "solved"]
    xs = solved[solved["solver"] == x].set_index("position_index")["nodes"]
    ys = pd.to_numeric(solved[solved["solver"] == y].set_index("position_index")[y_nodes]).fillna(
        solved[solved["solver"] == y].set_index("position_index")["nodes"])
    both = pd.concat([xs.rename("x"), ys.rename("y")], axis=1, join="inner").clip(lower=1)
    fig, ax = _pyplot().subplots(figsize=(5, 5))
    ax.scatter(both["x"], both["y"], s=8, alpha=0.6)
    if len(both):
        low, high = min(both.min()), max(both.max())
        ax.plot([low, high], [low, high], color="grey", linewidth=0.8, label="equal nodes")
        ax.legend()
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(f"{x} nodes")
    ax.set_ylabel(f"{y} nodes")
    ax.set_title(f"Per position both solved ({len(both)})")
    return _save(fig, path)


def _save(fig: Figure, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    _pyplot().close(fig)
    return path


def tuning_trajectory(tuning: pd.DataFrame, path: Path, window: int = 50) -> Path:
    """Per tuned parameter: θ after each iteration with the ±c_k band it probed, and the running score of the
    higher probe (the pair's score signed by the perturbation, averaged over the last `window` iterations):
    above 0 the larger values won more, and it drifts to 0 as θ reaches the optimum."""
    names = list(dict.fromkeys(tuning["parameter"]))
    fig, axes = _pyplot().subplots(2, len(names), figsize=(5.5 * len(names), 6), squeeze=False, sharex=True)
    for column, name in enumerate(names):
        rows = tuning[tuning["parameter"] == name]
        top, bottom = axes[0][column], axes[1][column]
        top.plot(rows["iteration"], rows["value"], color="#4c72b0")
        width = rows["perturbation"].abs()
        top.fill_between(rows["iteration"], rows["value"] - width, rows["value"] + width, color="#4c72b0", alpha=0.15)
        top.set_ylabel(name)
        top.set_title(f"{name}: θ (band: ±c_k)")
        signed = (rows["score"] * np.sign(rows["perturbation"])).rolling(window, min_periods=1).mean()
        bottom.plot(rows["iteration"], signed, color="#dd8452")
        bottom.axhline(0, color="black", linewidth=0.8)
        bottom.set_xlabel("iteration")
        bottom.set_ylabel(f"running score (mean of {window})")
    return _save(fig, path)
