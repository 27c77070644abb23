"""Turning a position of any Game plugin into an extensive-form tree, when the tree is small enough.

Every state reachable from the position becomes a node: a terminal state a leaf with the
game's `returns`, any other a decision node of the player to move with one action per legal
move (labelled by its notation, in the game's move order). Transposed states share one node
object, so building costs one visit per distinct state, while the *tree* - what equilibrium
computations range over - may be far larger; both are bounded by `max_nodes`.
"""

from __future__ import annotations

from framework.capabilities import has_chance, player_count
from framework.errors import ConfigError
from framework.gametheory.exact import to_fraction
from framework.gametheory.extensive_form import ExtensiveFormGame, Node, tree_size
from framework.protocols import Game, State

DEFAULT_MAX_NODES = 1_000_000


def tree_from_game(game: Game, state: State, max_nodes: int = DEFAULT_MAX_NODES) -> ExtensiveFormGame:
    """The game tree of `game` from `state`, refused with ConfigError when it has more than `max_nodes` nodes
    (or dice, or more than two players: the extensive form here has two players and no chance nodes)."""
    if has_chance(game) or player_count(game) != 2:
        raise ConfigError(f"{game.name} has dice or more than two players; the game tree here is of two players "
                          "without chance nodes")
    position = game.to_text(state)
    nodes: dict[State, Node] = {}

    def too_large(detail: str) -> ConfigError:
        return ConfigError(f"the game tree of {game.name} from '{position}' has {detail} nodes, over the limit of "
                           f"{max_nodes:,}; choose a position nearer the end or raise the limit (--max-nodes)")

    # Depth-first with an explicit stack (games like checkers are hundreds of plies deep, far past Python's
    # recursion limit); states on the stack count against the limit too, so a deep line stops at max_nodes.
    on_stack: set[State] = set()
    stack: list[list] = []  # [state, its legal moves, its children so far]

    def push(s: State) -> None:
        if len(nodes) + len(stack) >= max_nodes:
            raise too_large(f"more than {max_nodes:,}")
        stack.append([s, () if game.is_terminal(s) else tuple(game.legal_moves(s)), []])
        on_stack.add(s)

    push(state)
    while stack:
        s, moves, children = stack[-1]
        if len(children) < len(moves):
            child = game.apply(s, moves[len(children)])
            if child in nodes:
                children.append(nodes[child])
                continue
            if child in on_stack:
                raise ConfigError(f"the game tree of {game.name} from '{position}' is not finite: the position "
                                  f"'{game.to_text(child)}' can recur; equilibria here need a game whose states "
                                  "never repeat")
            push(child)
            continue
        stack.pop()
        on_stack.discard(s)
        if game.is_terminal(s):
            r = game.returns(s)
            node = Node(payoffs=(to_fraction(r[0], "returns"), to_fraction(r[1], "returns")))
        else:
            node = Node(player=game.to_move(s),
                        actions=tuple((game.format_move(s, m), c) for m, c in zip(moves, children)))
        nodes[s] = node
        if stack:
            stack[-1][2].append(node)
    root = nodes[state]
    size = tree_size(root)
    if size > max_nodes:
        raise too_large(f"{size:,}")
    first, second = game.player_names
    return ExtensiveFormGame(f"{game.name} from {position}", root, (first, second))
