"""Move coaching: was the move just played optimal, and if not, how much did it cost?

Any agent can coach, for any game. A coach that can *solve* (has the Solver capability)
and proves both the position before the move and the position after it gives an exact
verdict: the game-theoretic value the mover had and the one the move kept (win, draw or
loss). Otherwise the verdict is the coach's judgement: its best move and score for the
position, and the coach's scores of the positions after its best move and after the played
move (negated, since the opponent moves there), both searched alike at the coach's depth and
budget; the move is optimal when it scores at least as well as the coach's own choice. Such
a verdict is only as good as the coach. A move that ends the game is valued by the game's result.

In a game with dice the coach is never asked at a chance node: a position where the dice move next is
valued as the expectation, over the game's `chance_outcomes`, of the coach's values of the positions
each outcome leads to (and solvers give no exact verdict there).
"""

from __future__ import annotations

from dataclasses import dataclass

from framework.protocols import CHANCE, WIN_SCORE, Agent, Budget, Game, Move, Proof, State

_RANK = {Proof.LOSS: 0, Proof.DRAW: 1, Proof.WIN: 2}
_FLIP = {Proof.WIN: Proof.LOSS, Proof.LOSS: Proof.WIN, Proof.DRAW: Proof.DRAW, Proof.UNKNOWN: Proof.UNKNOWN}


@dataclass(frozen=True)
class Verdict:
    """The coach's judgement of one move, values from the mover's point of view.

    `exact` verdicts carry Proof values; otherwise `played_value` / `best_value` are the
    coach's scores (terminal results scaled to +-WIN_SCORE) and `depth` its search depth.
    `optimal` is None when the coach could neither prove nor score the moves (a solver
    without a fallback that ran out of budget): no verdict, rather than a guess.
    """

    move: Move
    best_move: Move | None
    optimal: bool | None
    exact: bool
    played_value: Proof | float | None
    best_value: Proof | float | None
    depth: int = 0
    nodes: int = 0

    def describe(self, game: Game, state: State) -> str:
        """One line for the player, e.g. "a1: mistake — turns a win into a draw; b2 keeps the win"."""
        played = game.format_move(state, self.move)
        best = game.format_move(state, self.best_move) if self.best_move is not None else None
        if self.exact:
            if self.optimal:
                return f"{played}: optimal — the position was a {_fmt(self.best_value)} and stays one"
            keeps = f"; {best} keeps the {_fmt(self.best_value)}" if best else ""
            return f"{played}: mistake — turns a {_fmt(self.best_value)} into a {_fmt(self.played_value)}{keeps}"
        where = f" at depth {self.depth}" if self.depth else ""
        if self.optimal is None:
            return f"{played}: no verdict — the coach neither proved nor scored the moves within its budget"
        if self.optimal:
            return f"{played}: optimal by the coach's search{where} ({_fmt(self.played_value)})"
        # a search score beyond FORCED_SCORE is a result the search saw to the end: changing it is a mistake
        kind = ("mistake" if _forced(self.played_value) != _forced(self.best_value) else "inaccuracy")
        return (f"{played}: {kind} by the coach's search{where} — {_fmt(self.played_value)} "
                f"against {_fmt(self.best_value)} for {best}")


#: Search scores at least this far from 0 are terminal results the search reached (+-WIN_SCORE, perhaps
#: less a distance in plies), not heuristic judgements, which stay well inside WIN_SCORE.
FORCED_SCORE = WIN_SCORE / 2


def _forced(value: Proof | float | None) -> int:
    """+1 / -1 for a score that is a forced win / loss of the mover, 0 otherwise."""
    if not isinstance(value, (int, float)) or abs(value) < FORCED_SCORE:
        return 0
    return 1 if value > 0 else -1


def _fmt(value: Proof | float | None) -> str:
    """A proven value by name ("win"), a forced result as "a forced win" / "a forced loss", a score as a number."""
    if isinstance(value, Proof):
        return value.value
    if value is None:
        return "unknown"
    forced = _forced(value)
    if forced:
        return "a forced win" if forced > 0 else "a forced loss"
    return f"score {round(value, 2) + 0.0:g}"  # rounded as the engine lines are; + 0.0 turns -0.0 into 0


#: The most searches `coach_move` runs in a game without dice, each within the budget: two solves, then three
#: move choices (`searches` counts them where the dice move after a move).
SEARCHES = 5


def searches(game: Game, state: State) -> int:
    """The most searches `coach_move` runs on a move at `state`, each within its budget: SEARCHES, plus one per
    outcome beyond the first where the played or the best move leads to a chance node."""
    widest = max((_outcome_count(game, game.apply(state, move)) for move in game.legal_moves(state)), default=1)
    return SEARCHES + 2 * (widest - 1)


def _outcome_count(game: Game, state: State) -> int:
    return len(game.chance_outcomes(state)) if game.to_move(state) == CHANCE else 1  # type: ignore[attr-defined]


def coach_move(game: Game, state: State, move: Move, coach: Agent, budget: Budget) -> Verdict:
    """Judge `move` played in `state`; `budget` applies to each search the coach runs (at most SEARCHES)."""
    mover = game.to_move(state)
    child = game.apply(state, move)
    nodes = 0
    solve = getattr(coach, "solve", None)
    if solve is not None and game.to_move(child) != CHANCE:
        before = solve(game, state, budget)
        nodes += before.stats.nodes
        if game.is_terminal(child):
            played = _proof(game.returns(child)[mover])
        else:
            after = solve(game, child, budget)
            nodes += after.stats.nodes
            played = _FLIP[after.value]
        if before.value is not Proof.UNKNOWN and played is not Proof.UNKNOWN:
            return Verdict(move, before.move, _RANK[played] >= _RANK[before.value], True, played, before.value,
                           nodes=nodes)
    decision = coach.select_move(game, state, budget)
    nodes += decision.stats.nodes
    played_value, used = _score(game, child, mover, coach, budget)
    nodes += used
    if decision.move == move:
        best_value = played_value
    else:
        best_value, used = _score(game, game.apply(state, decision.move), mover, coach, budget)
        nodes += used
    optimal = None if played_value is None or best_value is None else played_value >= best_value
    return Verdict(move, decision.move, optimal, False, played_value, best_value, decision.stats.depth, nodes)


def _proof(result: float) -> Proof:
    return Proof.WIN if result > 0 else Proof.LOSS if result < 0 else Proof.DRAW


def _score(game: Game, child: State, mover: int, coach: Agent, budget: Budget) -> tuple[float | None, int]:
    """The mover's value of `child` by the coach (negating the opponent's score), and the nodes it took; at a
    chance node the expectation over its outcomes (None when the coach scored one of them None)."""
    if game.is_terminal(child):
        return game.returns(child)[mover] * WIN_SCORE, 0
    if game.to_move(child) == CHANCE:
        total: float | None = 0.0
        nodes = 0
        for outcome, probability in game.chance_outcomes(child):  # type: ignore[attr-defined]
            value, used = _score(game, game.apply(child, outcome), mover, coach, budget)
            nodes += used
            total = None if value is None or total is None else total + float(probability) * value
        return total, nodes
    decision = coach.select_move(game, child, budget)
    score = decision.stats.score
    if score is not None and game.to_move(child) != mover:
        score = -score
    return score, decision.stats.nodes
