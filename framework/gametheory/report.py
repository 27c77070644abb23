"""Plain-text reports of a game's analysis, as printed by `plyground nash` and `plyground spe`."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from framework.gametheory.dominance import Dominance, dominant_strategy_equilibrium, iterated_elimination
from framework.gametheory.exact import format_number
from framework.gametheory.extensive_form import (
    ExtensiveFormGame,
    backward_induction,
    count_subgame_perfect,
    strategy_label,
)
from framework.gametheory.maxmin import security
from framework.gametheory.n_player import NPlayerGame
from framework.gametheory.normal_form import NormalFormGame
from framework.gametheory.support_enumeration import mixed_equilibria


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """Columns aligned left, a rule under the header; cells are str()-ed."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _pair(payoffs: Sequence[Fraction | float]) -> str:
    return ", ".join(format_number(p) for p in payoffs)


def count_text(count: int) -> str:
    """A count with thousands separators, or its order of magnitude when it is astronomically large."""
    if count < 10 ** 15:
        return f"{count:,}"
    return f"about 10^{math.floor(math.log10(count))}"


def normal_form_report(game: NormalFormGame) -> str:
    """The payoff matrix, game type, pure and mixed equilibria, dominance steps and security values."""
    m, n = game.shape
    p1, p2 = game.players
    rows, cols = game.strategies
    out = [f"{game.name}: normal form, {m} x {n} (row player {p1}, column player {p2})", ""]
    out.append(table([f"{p1} \\ {p2}", *cols],
                     [[rows[i], *(_pair((game.row_payoffs[i][j], game.column_payoffs[i][j])) for j in range(n))]
                      for i in range(m)]))
    constant = game.is_constant_sum()
    kind = ("zero-sum" if constant == 0 else f"constant-sum (payoffs add up to {format_number(constant)})"
            if constant is not None else "common-payoff" if game.is_common_payoff() else "general-sum")
    if constant is not None and game.is_common_payoff():
        kind += " and common-payoff"
    out += ["", f"Type: {kind}", "", "Pure Nash equilibria:"]
    pure = game.pure_equilibria()
    out.append(table([p1, p2, "payoffs", "kind"],
                     [[rows[e.row], cols[e.column], _pair(e.payoffs), "strict" if e.strict else "weak"]
                      for e in pure]) if pure else "  none")
    result = mixed_equilibria(game)
    out += ["", "Nash equilibria by support enumeration:"]
    out.append(table(["#", p1, p2, f"payoff {p1}", f"payoff {p2}"],
                     [[k, *game.describe_profile(e.row, e.column), format_number(e.payoffs[0]),
                       format_number(e.payoffs[1])] for k, e in enumerate(result.equilibria, start=1)])
               if result.equilibria else "  none found")
    if result.degenerate is not None:
        out.append(f"WARNING: the game is degenerate - {result.degenerate.describe(game)}. Support enumeration "
                   f"may miss equilibria of degenerate games (with supports of unequal size, or infinitely many); "
                   f"the {len(result.equilibria)} listed are equilibria, but the list may be incomplete.")
    out += ["", "Iterated elimination of dominated strategies (by pure strategies; row player first, "
            "lower index first):"]
    steps_rows, survivors = [], []
    for kind_ in Dominance:
        steps, alive = iterated_elimination(game, kind_)
        for k, step in enumerate(steps, start=1):
            names = game.strategies[step.player]
            steps_rows.append([kind_.value, k, game.players[step.player], names[step.strategy],
                               names[step.dominated_by]])
        survivors.append(f"  {kind_.value}: {p1} keeps {', '.join(rows[i] for i in alive[0])}; "
                         f"{p2} keeps {', '.join(cols[j] for j in alive[1])}")
    out.append(table(["dominance", "step", "player", "eliminated", "dominated by"], steps_rows)
               if steps_rows else "  no strategy is dominated")
    out += ["Surviving strategies:", *survivors]
    dominant = dominant_strategy_equilibrium(game, Dominance.STRICT)
    if dominant is not None:
        out.append(f"Equilibrium in strictly dominant strategies: ({rows[dominant[0]]}, {cols[dominant[1]]})")
    out += ["", "Security (maxmin) values, by linear programming:"]
    sec_rows = []
    for player in (0, 1):
        s = security(game, player)
        own, other = game.strategies[player], game.strategies[1 - player]
        sec_rows.append([game.players[player], format_number(s.value),
                         ", ".join(f"{format_number(p)} {label}" for p, label in zip(s.maxmin_strategy, own) if p),
                         ", ".join(f"{format_number(p)} {label}" for p, label in zip(s.minmax_strategy, other) if p),
                         "yes" if s.exact else "no (floats)"])
    out.append(table(["player", "maxmin value", "maxmin strategy", "opponent's minmax strategy", "exact"], sec_rows))
    return "\n".join(out)


def n_player_report(game: NPlayerGame, max_listed: int = 1000) -> str:
    """The payoff of every profile (up to `max_listed` profiles) and the pure Nash equilibria."""
    shape = " x ".join(str(size) for size in game.shape)
    out = [f"{game.name}: normal form, {len(game.players)} players ({', '.join(game.players)}), {shape}", ""]
    if game.cells() <= max_listed:
        out.append(table([*game.players, "payoffs"],
                         [[*game.describe(profile), _pair(payoffs)]
                          for profile, payoffs in sorted(game.payoffs.items())]))
    else:
        out.append(f"{game.cells():,} profiles, more than {max_listed:,}: payoff table not printed.")
    out += ["", "Pure Nash equilibria (no player gains by deviating alone):"]
    pure = game.pure_equilibria()
    out.append(table([*game.players, "payoffs", "kind"],
                     [[*game.describe(e.profile), _pair(e.payoffs), "strict" if e.strict else "weak"] for e in pure])
               if pure else "  none")
    return "\n".join(out)


def extensive_form_report(game: ExtensiveFormGame, max_cells: int, max_listed: int = 100) -> str:
    """Subgame-perfect equilibria, then the induced normal form's report (strategies in pre-order).

    Up to `max_listed` SPE are listed (more are counted); the normal form is analysed only when
    it has at most `max_cells` cells.
    """
    chance = " and chance nodes (payoffs are expectations)" if game.has_chance() else ""
    out = [f"{game.name}: extensive form with perfect information{chance}, {game.size():,} nodes", ""]
    total = sum(count_subgame_perfect(game.root).values())
    out.append(f"Subgame-perfect equilibria (backward induction; every tie gives one): {count_text(total)}")
    if total <= max_listed:
        out.append(table(["#", game.players[0], game.players[1], "payoffs"],
                         [[k, strategy_label(s), strategy_label(t), _pair(game.outcome((s, t)))]
                          for k, (s, t) in enumerate(game.subgame_perfect_equilibria(max_listed), start=1)]))
    else:
        result = backward_induction(game.root)
        out.append(f"  too many to list; the first-best-action one plays {' '.join(result.path)} "
                   f"for payoffs {_pair(result.payoffs)}")
    out += ["", "Strategies list a player's choices at each of their decision nodes in pre-order "
            "(depth first, a node before its children).", ""]
    rows, cols = game.strategy_counts()
    if rows * cols > max_cells:
        out.append(f"The induced normal form has {rows:,} x {cols:,} = {rows * cols:,} cells, more than --max-cells "
                   f"{max_cells:,}: not analysed.")
    else:
        out.append(normal_form_report(game.to_normal_form(max_cells)))
    return "\n".join(out)


def position_report(game: ExtensiveFormGame, mover_names: tuple[str, str]) -> str:
    """Subgame-perfect outcome of a Game-plugin position: value, path, count, and each first move's value."""
    root = game.root
    result = backward_induction(root)
    counts = count_subgame_perfect(root)
    out = [f"{game.name}: game tree of {game.size():,} nodes", ""]
    out.append("Subgame-perfect outcome: " + ", ".join(f"{mover_names[p]} {format_number(result.payoffs[p])}"
                                                      for p in (0, 1)))
    out.append("Equilibrium path (the first best move at ties): " + (" ".join(result.path) or "(terminal)"))
    out.append(f"Subgame-perfect equilibria: {count_text(sum(counts.values()))}"
               + ("" if len(counts) == 1 else f", with {len(counts)} different outcomes"))
    if not root.is_terminal:
        values = {label: backward_induction(child).payoffs for label, child in root.actions}
        best = max(v[root.mover] for v in values.values())
        out += ["", f"Moves of {mover_names[root.mover]} (to move), each followed by subgame-perfect play:"]
        out.append(table(["move", mover_names[0], mover_names[1], "best"],
                         [[label, format_number(v[0]), format_number(v[1]), "*" if v[root.mover] == best else ""]
                          for label, v in values.items()]))
    return "\n".join(out)
