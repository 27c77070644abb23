"""A small cyclic game and a retrograde-analysis oracle for testing solvers on positions we can solve by brute force.

`retrograde` is independent of every search agent: it labels each reachable state from the
terminal states backwards (a state is a win if some move reaches a state lost for the
opponent, a loss if every move reaches a state won by the opponent) until nothing changes;
what is left is a draw (neither side can force a result; in cyclic games, endless play).
"""

from __future__ import annotations

import random

from framework.errors import MoveParseError


class GraphGame:
    """Players alternately move a token along the edges of a directed graph (cycles allowed).

    State: (vertex, mover). A vertex without edges ends the game with `outcome[vertex]`
    for player 0 (+1, 0 or -1).
    """

    name = "graph"
    player_names = ("zero", "one")
    repetition_limit = 3  # positions can repeat: solvers must treat cycles

    def __init__(self, edges, outcome, start=0):
        self.edges, self.outcome, self.start = edges, outcome, start

    def initial_state(self):
        return (self.start, 0)

    def to_move(self, state):
        return state[1]

    def legal_moves(self, state):
        return list(self.edges.get(state[0], ()))

    def apply(self, state, move):
        return (move, 1 - state[1])

    def is_terminal(self, state):
        return not self.edges.get(state[0])

    def returns(self, state):
        v = float(self.outcome[state[0]])
        return (v, -v)

    def format_move(self, state, move):
        return str(move)

    def parse_move(self, state, text):
        if text.strip().isdigit() and int(text) in self.legal_moves(state):
            return int(text)
        raise MoveParseError(f"'{text}' is not a legal move")

    def render(self, state):
        return str(state)

    def to_text(self, state):
        return f"{state[0]} {state[1]}"

    def from_text(self, text):
        vertex, mover = text.split()
        return (int(vertex), int(mover))


def random_graph_game(rng: random.Random, vertices: int = 9) -> GraphGame:
    """A random digraph with cycles; about a third of the vertices are terminal."""
    edges, outcome = {}, {}
    for v in range(vertices):
        if v and rng.random() < 0.35:
            outcome[v] = rng.choice((-1, 0, 1))
        else:
            edges[v] = rng.sample(range(vertices), rng.randint(1, 3))
    return GraphGame(edges, outcome)


def reachable(game, start) -> set:
    """Every state reachable from `start`, `start` included."""
    states, frontier = {start}, [start]
    while frontier:
        state = frontier.pop()
        if game.is_terminal(state):
            continue
        for move in game.legal_moves(state):
            child = game.apply(state, move)
            if child not in states:
                states.add(child)
                frontier.append(child)
    return states


def retrograde(game, start) -> dict:
    """Value (+1 win, 0 draw, -1 loss) for the side to move of every state reachable from `start`."""
    states = reachable(game, start)
    value = {}
    for state in states:
        if game.is_terminal(state):
            r = game.returns(state)[game.to_move(state)]
            value[state] = 1 if r > 0 else -1 if r < 0 else 0
    changed = True
    while changed:
        changed = False
        for state in states:
            if state in value:
                continue
            children = [value.get(game.apply(state, m)) for m in game.legal_moves(state)]
            if -1 in children:
                value[state], changed = 1, True
            elif all(c == 1 for c in children):
                value[state], changed = -1, True
    return {state: value.get(state, 0) for state in states}


def shortest_wins(game, start) -> dict:
    """Plies in which the side to move can force a win, for every won state reachable from `start`.

    Retrograde analysis by rounds: a terminal state the mover has won takes 0 plies; a state is won
    in k plies if a move reaches a state lost in fewer, lost in k if every move reaches a state won
    in fewer (a terminal loss: 0), each state labelled in the first round that can.
    """
    states = reachable(game, start)
    won, lost = {}, {}
    for state in states:
        if game.is_terminal(state):
            result = game.returns(state)[game.to_move(state)]
            if result:
                (won if result > 0 else lost)[state] = 0
    plies = 0
    while True:
        plies += 1
        new_won, new_lost = {}, {}
        for state in states - won.keys() - lost.keys():
            if game.is_terminal(state):
                continue                      # a drawn end
            children = [game.apply(state, move) for move in game.legal_moves(state)]
            if any(child in lost for child in children):
                new_won[state] = plies
            elif all(child in won for child in children):
                new_lost[state] = plies
        if not new_won and not new_lost:
            return won
        won.update(new_won)
        lost.update(new_lost)
