"""Two-player extensive-form games of perfect information, with chance nodes: trees, normal form, SPE.

Shoham & Leyton-Brown, *Multiagent Systems* (2009), ch. 5, as the thesis follows it: a pure
strategy of a player chooses an action at *every* one of that player's decision nodes, reached
or not, so the pure strategies are the Cartesian product of the action sets of those nodes.
The *order* of a strategy's choices is the pre-order (depth-first, a node before its children,
actions in the order given) of the player's decision nodes, so in the thesis' 8 x 4 example
player 1's strategy (1,7,9) chooses 1 at the root, then 7, then 9.

A subgame-perfect equilibrium (SPE) is a profile whose restriction to every subgame is a Nash
equilibrium; in a finite perfect-information game backward induction finds them (Kuhn's
theorem; Shoham & Leyton-Brown §5.1.3). Ties: when a mover has several best actions given the
continuation, *each* of them starts a different SPE, so `subgame_perfect_equilibria` lists all
of them and `count_subgame_perfect` counts them; `backward_induction` returns the one that takes
the first best action in action order.

Chance nodes ("nature moves") pick a child with given exact probabilities; a pure profile then
yields a lottery over leaves, and its payoffs are the expectation (von Neumann-Morgenstern utilities),
so the induced normal form holds expected payoffs and backward induction takes the expectation at
chance nodes (Shoham & Leyton-Brown §5.3 treat nature as a player with a fixed mixed strategy). A
chance node is not a decision node: no strategy chooses there.

Nodes may be shared between branches (a tree built from a Game plugin shares transposed
states); everything here treats the tree as a tree (a shared subtree counts once per path),
and memoises per node object, so shared subtrees are solved once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from itertools import product
from typing import cast

from framework.errors import ConfigError
from framework.gametheory.exact import to_fraction
from framework.gametheory.normal_form import NormalFormGame

Payoffs = tuple[Fraction, Fraction]
Path = tuple[int, ...]  # action indices from the root


@dataclass(frozen=True, eq=False)
class Node:
    """A decision node (`player` 0 or 1 chooses among `actions`), a terminal node (`payoffs`), or a chance
    node (`probabilities[i]` of moving to `actions[i]`; build it with `Node.chance_node`, which checks them)."""

    player: int | None = None
    actions: tuple[tuple[str, Node], ...] = ()
    payoffs: Payoffs | None = None
    probabilities: tuple[Fraction, ...] = ()

    @classmethod
    def chance_node(cls, outcomes: Sequence[tuple[object, Node]], where: str = "chance node") -> Node:
        """A chance node from (probability, child) pairs; its outcomes are labelled 'chance 1', 'chance 2', ...

        Raises ConfigError naming `where` unless the probabilities are exact, positive and sum to 1.
        """
        if not outcomes:
            raise ConfigError(f"{where}: a chance node needs at least one [probability, child] outcome")
        probabilities = tuple(to_fraction(p, f"{where} outcome {i + 1} probability")
                              for i, (p, _) in enumerate(outcomes))
        for i, p in enumerate(probabilities):
            if p <= 0:
                raise ConfigError(f"{where}: outcome {i + 1} has probability {p}; chance probabilities must be "
                                  "positive (leave out an outcome that cannot happen)")
        if sum(probabilities) != 1:
            raise ConfigError(f"{where}: the probabilities {', '.join(map(str, probabilities))} sum to "
                              f"{sum(probabilities)}, not 1; write them as exact fractions like '1/3'")
        return cls(actions=tuple((f"chance {i + 1}", child) for i, (_, child) in enumerate(outcomes)),
                   probabilities=probabilities)

    @property
    def is_terminal(self) -> bool:
        return self.payoffs is not None

    @property
    def is_chance(self) -> bool:
        return bool(self.probabilities)

    @property
    def mover(self) -> int:
        """The player choosing at this decision node (read only at decision nodes)."""
        return cast(int, self.player)

    @property
    def value(self) -> Payoffs:
        """The payoffs of this terminal node (read only where `is_terminal`)."""
        return cast(Payoffs, self.payoffs)


@dataclass(frozen=True)
class SubgamePerfect:
    """One SPE as the action index chosen at each decision node (by node object), with its (expected)
    outcome; `path` is the equilibrium play from the root up to the first chance node or leaf."""

    payoffs: Payoffs
    path: tuple[str, ...]
    choices: dict[int, int]  # id(node) -> action index


@dataclass(frozen=True)
class ExtensiveFormGame:
    """A named perfect-information game tree for two players, possibly with chance nodes."""

    name: str
    root: Node
    players: tuple[str, str] = ("1", "2")

    def size(self) -> int:
        """Number of nodes of the tree (shared subtrees counted once per path)."""
        return tree_size(self.root)

    def has_chance(self) -> bool:
        return any(node.is_chance for node in postorder(self.root))

    def decision_paths(self, player: int) -> list[Path]:
        """`player`'s decision nodes, in pre-order, as paths of action indices from the root."""
        found: list[Path] = []

        def visit(node: Node, path: Path) -> None:
            if node.player == player:
                found.append(path)
            for index, (_, child) in enumerate(node.actions):
                visit(child, path + (index,))

        visit(self.root, ())
        return found

    def pure_strategies(self, player: int) -> list[tuple[str, ...]]:
        """All of `player`'s pure strategies: one action label per decision node, nodes in pre-order."""
        nodes = [self.node_at(path) for path in self.decision_paths(player)]
        return list(product(*([label for label, _ in node.actions] for node in nodes)))

    def strategy_counts(self) -> tuple[int, int]:
        """How many pure strategies each player has (the product of their nodes' action counts),
        without listing them."""
        counts = [1, 1]
        for p in (0, 1):
            for path in self.decision_paths(p):
                counts[p] *= len(self.node_at(path).actions)
        return counts[0], counts[1]

    def node_at(self, path: Path) -> Node:
        node = self.root
        for index in path:
            node = node.actions[index][1]
        return node

    @cached_property
    def _positions(self) -> dict[int, dict[Path, int]]:
        """For each player, the position of each decision node (by path) in their strategies."""
        return {p: {path: i for i, path in enumerate(self.decision_paths(p))} for p in (0, 1)}

    def outcome(self, strategies: tuple[tuple[str, ...], tuple[str, ...]]) -> Payoffs:
        """Payoffs of the pure profile: follow each mover's choice from the root to a leaf, taking the
        expectation over the outcomes of each chance node on the way (exact)."""
        return self._outcome_from(strategies, self.root, Path())

    def _outcome_from(self, strategies: tuple[tuple[str, ...], tuple[str, ...]], node: Node, path: Path) -> Payoffs:
        where = self._positions
        while not node.is_terminal:
            if node.is_chance:
                return expectation(node, [self._outcome_from(strategies, child, path + (i,))
                                          for i, (_, child) in enumerate(node.actions)])
            label = strategies[node.mover][where[node.mover][path]]
            index = next(i for i, (name, _) in enumerate(node.actions) if name == label)
            node, path = node.actions[index][1], path + (index,)
        return node.value

    def to_normal_form(self, max_cells: int = 1_000_000) -> NormalFormGame:
        """The induced normal form; strategies are labelled like the thesis' (1,7,9).

        Raises ConfigError when it would have more than `max_cells` cells.
        """
        rows, cols = self.strategy_counts()
        if rows * cols > max_cells:
            raise ConfigError(f"the normal form of '{self.name}' has {rows} x {cols} = {rows * cols} cells, more than "
                              f"the limit of {max_cells}")
        strategies = (self.pure_strategies(0), self.pure_strategies(1))
        outcomes = [[self.outcome((s, t)) for t in strategies[1]] for s in strategies[0]]
        labels = [[strategy_label(s) for s in strategies[p]] for p in (0, 1)]
        return NormalFormGame.from_matrices([[o[0] for o in row] for row in outcomes],
                                            [[o[1] for o in row] for row in outcomes],
                                            name=self.name, players=self.players, strategies=labels)

    def subgame_perfect_equilibria(self, limit: int = 10_000) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
        """Every SPE as a pair of pure strategies (normal-form order), ties giving several.

        Raises ConfigError when there are more than `limit` of them (count them instead).
        """
        total = sum(count_subgame_perfect(self.root).values())
        if total > limit:
            raise ConfigError(f"'{self.name}' has {total} subgame-perfect equilibria, more than the limit of {limit}")
        paths = (self.decision_paths(0), self.decision_paths(1))
        profiles = []
        for _, choice in _enumerate(self.root, ()):
            first, second = (tuple(self.node_at(p).actions[choice[p]][0] for p in paths[player]) for player in (0, 1))
            profiles.append((first, second))
        return profiles


def expectation(node: Node, outcomes: Sequence[Payoffs]) -> Payoffs:
    """The expected payoffs at chance node `node` when its children are worth `outcomes`."""
    return (sum((p * o[0] for p, o in zip(node.probabilities, outcomes)), Fraction(0)),
            sum((p * o[1] for p, o in zip(node.probabilities, outcomes)), Fraction(0)))


def strategy_label(choices: tuple[str, ...]) -> str:
    """A pure strategy as the thesis writes it: '(1,7,9)'."""
    return "(" + ",".join(choices) + ")"


def postorder(root: Node) -> list[Node]:
    """Each distinct node object once, children before parents, without recursion (game trees can be
    far deeper than Python's recursion limit)."""
    done: set[int] = set()
    out: list[Node] = []
    stack: list[tuple[Node, int]] = [(root, 0)]
    while stack:
        node, next_child = stack.pop()
        if next_child < len(node.actions):
            stack.append((node, next_child + 1))
            child = node.actions[next_child][1]
            if id(child) not in done:
                stack.append((child, 0))
        elif id(node) not in done:
            done.add(id(node))
            out.append(node)
    return out


def tree_size(root: Node) -> int:
    sizes: dict[int, int] = {}
    for node in postorder(root):
        sizes[id(node)] = 1 + sum(sizes[id(child)] for _, child in node.actions)
    return sizes[id(root)]


def _enumerate(node: Node, path: Path) -> list[tuple[Payoffs, dict[Path, int]]]:
    """All SPE of the subtree at `node`: ((expected) outcome, action index at every decision path below)."""
    if node.is_terminal:
        return [(node.value, {})]
    children = [_enumerate(child, path + (i,)) for i, (_, child) in enumerate(node.actions)]
    found = []
    for combo in product(*children):
        merged: dict[Path, int] = {}
        for _, choices in combo:
            merged.update(choices)
        if node.is_chance:  # nobody chooses here: one SPE per combination of the children's
            found.append((expectation(node, [payoffs for payoffs, _ in combo]), merged))
            continue
        best = max(payoffs[node.mover] for payoffs, _ in combo)
        for index, (payoffs, _) in enumerate(combo):
            if payoffs[node.mover] == best:
                found.append((payoffs, {**merged, path: index}))
    return found


def count_subgame_perfect(root: Node) -> dict[Payoffs, int]:
    """How many SPE of the tree lead to each outcome (memoised per node, so shared subtrees are cheap)."""
    memo: dict[int, dict[Payoffs, int]] = {}
    for node in postorder(root):
        if node.is_terminal:
            result = {node.value: 1}
        else:
            result = {}
            for combo in product(*(memo[id(child)].items() for _, child in node.actions)):
                if node.is_chance:
                    value = expectation(node, [payoffs for payoffs, _ in combo])
                    result[value] = result.get(value, 0) + math.prod(n for _, n in combo)
                    continue
                best = max(payoffs[node.mover] for payoffs, _ in combo)
                ways = 1
                for _, n in combo:
                    ways *= n
                for payoffs, _ in combo:
                    if payoffs[node.mover] == best:
                        result[payoffs] = result.get(payoffs, 0) + ways
        memo[id(node)] = result
    return memo[id(root)]


def backward_induction(root: Node) -> SubgamePerfect:
    """One SPE: at every decision node the mover takes the first action of highest payoff to them."""
    choices: dict[int, int] = {}
    values: dict[int, Payoffs] = {}
    for node in postorder(root):
        if node.is_terminal:
            values[id(node)] = node.value
        elif node.is_chance:
            values[id(node)] = expectation(node, [values[id(child)] for _, child in node.actions])
        else:
            outcomes = [values[id(child)] for _, child in node.actions]
            best = max(range(len(outcomes)), key=lambda i: outcomes[i][node.mover])  # first maximum
            choices[id(node)] = best
            values[id(node)] = outcomes[best]
    payoffs = values[id(root)]
    path, node = [], root
    while not node.is_terminal and not node.is_chance:
        label, node = node.actions[choices[id(node)]]
        path.append(label)
    return SubgamePerfect(payoffs, tuple(path), choices)
