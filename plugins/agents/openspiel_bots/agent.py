"""OpenSpiel's MCTSBot as a Plyground agent (`openspiel-mcts`), on the openspiel:NAME games and on our games with an
OpenSpiel twin (twins.py).

The search is OpenSpiel's own C++ `MCTSBot` (open_spiel/algorithms/mcts.h: UCT, Kocsis and Szepesvari 2006, with
the MCTS-Solver of Winands, Bjornsson and Saito 2008 when `solve` is on) over a `RandomRolloutEvaluator`
(`rollouts` random playouts to the end per leaf), unchanged: `simulations`, `uct_c`, `rollouts`, `solve` are its
arguments. A bot is made for each decision, seeded from the agent's seed and the number of decisions so far (the
bot's and the evaluator's generators), so the same seed plays the same moves on a node budget; a time budget
is OpenSpiel's `max_wall_clock_time`, which stops the search early (its simulations then vary with the machine),
and a node budget caps the simulations. Stats: `nodes` is the root's visits (the simulations run), `score` the
chosen child's mean return for the mover (-1 to 1), `pv` the most visited line, `extra` the child's visits and
whether the solver proved it.

On an openspiel:NAME game our state holds OpenSpiel's state, and our move is its action: nothing is mapped. On a
twin, the agent follows the game from its start: at each decision it finds the moves played since the position
it last saw (the shortest line of at most MAX_GAP plies, chance outcomes included, by a search over our game),
replays them on OpenSpiel's state by notation and compares the positions at every ply (twins.py); a position it
cannot reach so (a start other than the game's, a move list it was not shown) is an error saying so.
"""

from __future__ import annotations

import time
from typing import Any

from framework.errors import ConfigError
from framework.params import Param
from framework.protocols import CHANCE, Budget, Decision, Game, SearchStats, State
from plugins.agents.openspiel_bots.twins import MappingError, Twin, path_between, twin_of
from plugins.games.openspiel_bridge import _pyspiel
from plugins.games.openspiel_bridge.game import OpenSpielGame

#: The most plies between two decisions the agent looks for, and the most positions it searches to find them.
MAX_GAP = 64
MAX_GAP_STATES = 200_000
#: OpenSpiel's cap on the tree's memory (MB): past it the bot stops its search.
MAX_MEMORY_MB = 1000
#: The most moves of the PV read from the tree.
MAX_PV = 20

PARAMS = (
    Param("simulations", int, 1000, "MCTSBot's max_simulations per move (a node budget caps them too)", minimum=1,
          maximum=10_000_000),
    Param("uct_c", float, 2.0, "MCTSBot's UCT exploration constant c", minimum=0, maximum=100),
    Param("rollouts", int, 1, "random playouts to the end per evaluated leaf (RandomRolloutEvaluator)", minimum=1,
          maximum=1000),
    Param("solve", bool, True, "MCTSBot's MCTS-Solver: back up proven wins and losses"),
)


class OpenSpielMCTS:
    """OpenSpiel's C++ MCTSBot choosing the moves of one game (see the module docstring)."""

    def __init__(self, game: Game, seed: int = 0, simulations: int = 1000, uct_c: float = 2.0, rollouts: int = 1,
                 solve: bool = True) -> None:
        self.pyspiel = _pyspiel()
        self.seed, self.simulations, self.uct_c, self.rollouts, self.solve = seed, simulations, uct_c, rollouts, solve
        self.decisions = 0
        self.twin: Twin | None = None
        if isinstance(game, OpenSpielGame):
            self.spiel_game = game.spiel_game
        else:
            self.twin = twin_of(self.pyspiel, game)
            self.spiel_game = self.twin.spiel_game
            start, spiel = game.initial_state(), self.spiel_game.new_initial_state()
            try:
                self.twin.check(start, spiel)
            except MappingError as exc:
                raise ConfigError(f"openspiel-mcts: {game.name}'s start is not OpenSpiel's "
                                  f"{self.twin.spiel_name}'s: {exc}") from None
            self.known: tuple[State, Any] = (start, spiel)

    def follow(self, game: Game, state: State) -> Any:
        """OpenSpiel's state for our `state`: the moves since the last position seen, replayed and checked."""
        twin = self.twin
        assert twin is not None
        known, spiel = self.known
        path = path_between(game, known, state, MAX_GAP, MAX_GAP_STATES)
        if path is None:
            known, spiel = game.initial_state(), self.spiel_game.new_initial_state()
            path = path_between(game, known, state, MAX_GAP, MAX_GAP_STATES)
        if path is None:
            raise MappingError(f"openspiel-mcts follows {game.name} from its start, move by move, and cannot reach "
                               f"{game.to_text(state)!r} within {MAX_GAP} plies of the last position it saw")
        spiel = spiel.clone()
        for ply, move in enumerate(path, 1):
            if spiel.is_terminal():
                raise MappingError(f"OpenSpiel's {twin.spiel_name} has ended at {spiel_text(spiel)!r} where "
                                   f"{game.name} goes on (their rules differ there)")
            try:
                for action in twin.actions(spiel, known, move):
                    spiel.apply_action(action)
                known = game.apply(known, move)
                if spiel.is_terminal() and not game.is_terminal(known):
                    raise MappingError(f"OpenSpiel's {twin.spiel_name} has ended at {spiel_text(spiel)!r} (returns "
                                       f"{list(spiel.returns())}) where {game.name} goes on: their rules differ "
                                       "there (LOA: OpenSpiel draws at the first repeated board, whoever is to move: "
                                       "play loa with the option repetition=board; checkers: after 40 actions "
                                       "without a capture)")
                twin.check(known, spiel)
            except MappingError as exc:
                raise MappingError(f"openspiel-mcts on {game.name}, ply {ply} of {len(path)} since the last "
                                   f"position it saw: {exc}") from None
        self.known = (state, spiel)
        return spiel

    def select_move(self, game: Game, state: State, budget: Budget) -> Decision:
        wall0, cpu0 = time.perf_counter(), time.process_time()
        spiel = state.spiel if self.twin is None else self.follow(game, state)
        if spiel.is_terminal() or spiel.is_chance_node():
            raise MappingError(f"OpenSpiel's {self.spiel_game} has no decision at {spiel_text(spiel)!r} where "
                               f"{game.name} asks for a move (their rules differ there)")
        player = spiel.current_player()
        simulations = self.simulations if budget.nodes is None else max(1, min(self.simulations, budget.nodes))
        seed = (self.seed * 1_000_003 + self.decisions) % (1 << 31)
        self.decisions += 1
        bot = self.pyspiel.MCTSBot(self.spiel_game, self.pyspiel.RandomRolloutEvaluator(self.rollouts, seed),
                                   self.uct_c, simulations, MAX_MEMORY_MB, self.solve, seed, False,
                                   self.pyspiel.ChildSelectionPolicy.UCT,
                                   -1.0 if budget.time is None else 0.9 * budget.time)
        root = bot.mcts_search(spiel)
        best = root.best_child()
        actions, line = [best.action], spiel.clone()
        line.apply_action(best.action)
        if self.twin is not None and self.twin.continues(line, player):   # the rest of a multi-action move
            while self.twin.continues(line, player):
                action = bot.step(line)
                actions.append(action)
                line.apply_action(action)
        move = best.action if self.twin is None else self.twin.move(spiel, state, actions)
        if self.twin is not None:   # the position after our move, where the next decision's line starts
            self.known = (game.apply(state, move), line)
        return Decision(move, SearchStats(
            nodes=int(root.explore_count), depth=0,
            score=float(best.total_reward) / max(1, int(best.explore_count)),
            pv=self._pv(game, state, root, move), wall_time=time.perf_counter() - wall0,
            cpu_time=time.process_time() - cpu0,
            extra={"visits": int(best.explore_count), "proven": bool(list(best.outcome)),
                   "simulations": simulations}))

    def _pv(self, game: Game, state: State, root: Any, move: Any) -> tuple:
        """The most visited line as our moves: on an openspiel game OpenSpiel's actions are ours; on a twin the
        chosen move alone (the tree's deeper actions would need mapping through positions not played)."""
        if self.twin is not None:
            return (move,)
        pv: list[Any] = []
        node, position = root, state
        while node.children and len(pv) < MAX_PV and not game.is_terminal(position) \
                and game.to_move(position) != CHANCE:
            node = node.best_child()
            if node.action not in game.legal_moves(position):
                break
            pv.append(node.action)
            position = game.apply(position, node.action)
        return tuple(pv)

    def __repr__(self) -> str:
        return (f"OpenSpielMCTS(simulations={self.simulations}, uct_c={self.uct_c}, rollouts={self.rollouts}, "
                f"solve={self.solve})")


def spiel_text(spiel: Any) -> str:
    return str(spiel).split("\n\n")[0].replace("\n", "/")

