"""UCT with the MCTS-Solver, written once against `framework.kernel.api` (compiled, interpreted or adapter).

The algorithm is the agent's (`plugins/agents/mcts/agent.py` states it and cites the papers); this is its
tree and its iterations over ints and arrays, so numba compiles it and the interpreted bindings run the same
code objects. No recursion: every loop is explicit, so numba caches it (tests/framework/test_search_reload.py).

A node is one row of `tree` (NODE_SIZE int slots, NODE names them) and one float of `totals` (the sum of the
rewards of the seat that moved into it), at index i = its creation order, the root 0. Its slots: `parent`
(-1 at the root), `first`, `last` and `next` (its children in creation order, then its next sibling; -1 for
none), `move` (the move, or chance outcome, that led to it), `visits`, `tried` (children made so far: a
decision node makes them in its legal-move order), `count` (its legal moves; 0 at a chance node, -1 at an end),
`mover` (CHANCE at a chance node) and `winner` (the seat proven to win from it, -1 for none; at an end the
unique leader of the returns). States are not kept: a descent applies the moves from the root. Compiled,
`tree` is an int32 array (NODE_SIZE * 4 + 8 = 48 bytes a node with `totals`); interpreted, a list.

Rewards are each seat's return at an end (`player_return`, when the binding has it: work[returns]; else
`outcome` for the two seats, +-1 or 0), the heuristic's verdict at a cut playout, +-1 at a proven node.
Chance nodes sample an outcome by the kernel's `random_outcome(state, x)` (by `chance_probability`, or the
game's own draw); `chance_probability` and `player_return` are OPTIONAL: a kernel without dice or returns
(LOA, checkers) compiles without them and this code never calls them there.

Random numbers: xorshift32 (G. Marsaglia, "Xorshift RNGs", J. Stat. Softw. 8, 2003) on an int64 slot of
`work`, every intermediate below 2**45, so compiled and interpreted code draw the very same numbers: a playout
move is the kernel's `random_move(state, x)`, move (x * n) >> 32 of the n legal moves (the high bits of the
product; a game may find it without building the list), a chance outcome `random_outcome(state, x)`, a
uniform x / 2**32.

Nodes (the budget's unit): each state an iteration enters counts one (`counted`): the root (again on every
iteration but the first), each node of the descent, the new child, each state of the playout and, in
heuristic playouts, each successor scored. An iteration the budget stops is dropped (no back-up), and the
search ends. `run` returns when the tree is full (work[size] == work[capacity]); the caller grows it and
calls again, the iteration count and generator in `work` carrying on.
"""

from __future__ import annotations

import math

from framework.kernel.api import (
    CHANCE,
    ONGOING,
    apply_move,
    counted,
    evaluate,
    legal_moves,
    outcome,
    player_return,
    random_move,
    random_outcome,
    terminal_score,
    to_move,
)
from framework.layout import layout

#: Primitives called only on games that have them (`framework.kernel.binding.needs`).
OPTIONAL = ("chance_probability", "player_return")
#: What `framework.kernel.binding.bind` reads besides (`declared`): the name in a refusal; a search cut by the
#: budget answers with what it found (ANYTIME); through an adapter, the game's own states pass through (the
#: tree keeps moves, not states); without a heuristic (or with one the kernel does not compile, refused) the
#: kernel's first compiled function is bound, never called.
NAME = "MCTS"
ANYTIME = True
ADAPTER = "pass-through"

INF = float("inf")
MASK32 = 0xFFFFFFFF
#: The slots of a node in `tree`.
NODE, NODE_SIZE = layout("Node", "parent first last next move visits tried count mover winner")
#: The slots of `work`: the budget (as `counted` keeps it), the game's option and seats, the switches
#: (proving: the solver on two seats without dice; playout 1 for heuristic playouts; playout_depth -1 for
#: none; heuristic 1 when there is one; returns 1 when `player_return` is bound), the generator, the tree's
#: size and capacity, and the iterations allowed and done.
WORK, WORK_SIZE = layout("Work", "nodes limit aborted option seats proving playout playout_depth heuristic "
                                 "returns rng size capacity iterations done")


def rng_next(work) -> int:
    """The generator's next 32-bit value (never 0)."""
    x = work[WORK.rng]
    x ^= (x << 13) & MASK32
    x ^= x >> 17
    x ^= (x << 5) & MASK32
    work[WORK.rng] = x
    return x


def uniform(work) -> float:
    """A uniform float in (0, 1)."""
    return rng_next(work) / 4294967296.0


def rewards(state, work, reward) -> None:
    """Each seat's reward at an end, into `reward`."""
    if work[WORK.returns]:
        for seat in range(work[WORK.seats]):
            reward[seat] = player_return(state, seat)
    else:
        first = 1.0 * outcome(state, 0, work[WORK.option])   # WIN 1, LOSS -1, DRAW 0
        reward[0] = first
        reward[1] = -first


def leader(reward, seats: int) -> int:
    """The seat with the unique highest reward, -1 when several share it."""
    top = reward[0]
    for seat in range(1, seats):
        if reward[seat] > top:
            top = reward[seat]
    found = -1
    for seat in range(seats):
        if reward[seat] == top:
            if found >= 0:
                return -1
            found = seat
    return found


def new_node(tree, totals, work, reward, state, move, parent: int) -> int:
    """Add the node of `state`, reached by `move` from `parent`, as its last child; its index."""
    at = work[WORK.size]
    work[WORK.size] = at + 1
    base = at * NODE_SIZE
    tree[base + NODE.parent] = parent
    tree[base + NODE.first] = -1
    tree[base + NODE.last] = -1
    tree[base + NODE.next] = -1
    tree[base + NODE.move] = move
    tree[base + NODE.visits] = 0
    tree[base + NODE.tried] = 0
    tree[base + NODE.winner] = -1
    totals[at] = 0.0
    mover = to_move(state)
    tree[base + NODE.mover] = mover
    if outcome(state, 0, work[WORK.option]) != ONGOING:
        tree[base + NODE.count] = -1
        rewards(state, work, reward)
        tree[base + NODE.winner] = leader(reward, work[WORK.seats])
    elif mover == CHANCE:
        tree[base + NODE.count] = 0
    else:
        tree[base + NODE.count] = len(legal_moves(state))
    if parent >= 0:
        up = parent * NODE_SIZE
        if tree[up + NODE.first] < 0:
            tree[up + NODE.first] = at
        else:
            tree[tree[up + NODE.last] * NODE_SIZE + NODE.next] = at
        tree[up + NODE.last] = at
    return at


def select(tree, totals, node: int, work, exploration: float) -> int:
    """UCT's child of a fully expanded decision node: highest mean + exploration * sqrt(ln N / n), first on
    ties, proven losses for the chooser skipped when proving."""
    base = node * NODE_SIZE
    visits = tree[base + NODE.visits]
    log_n = math.log(visits) if visits else 0.0
    me = tree[base + NODE.mover]
    proving = work[WORK.proving]
    best, best_value = -1, -INF
    child = tree[base + NODE.first]
    while child >= 0:
        at = child * NODE_SIZE
        winner = tree[at + NODE.winner]
        if not (proving and winner >= 0 and winner != me):
            n = tree[at + NODE.visits]
            value = totals[child] / n + exploration * math.sqrt(log_n / n)
            if value > best_value:
                best, best_value = child, value
        child = tree[at + NODE.next]
    return best


def best_successor(state, moves, mover: int, work, weights, deadline: float):
    """The successor the heuristic scores best for the mover, each scored successor a node (`state` itself
    when the budget stops it: work[aborted] says so)."""
    best, best_value = state, -INF
    for move in moves:
        if not counted(work, deadline):
            return state
        child = apply_move(state, move)
        result = outcome(child, mover, work[WORK.option])
        if result != ONGOING:
            value = terminal_score(child, mover, 1, result)
        else:
            value = evaluate(child, mover, weights)
        if value > best_value:
            best, best_value = child, value
    return best


def cut(state, work, reward, weights) -> None:
    """The reward of a playout cut short: a draw without a heuristic, else a win shared by the seats the
    heuristic rates highest (a draw when all tie)."""
    seats = work[WORK.seats]
    if not work[WORK.heuristic]:
        for seat in range(seats):
            reward[seat] = 0.0
        return
    top = -INF
    for seat in range(seats):
        reward[seat] = evaluate(state, seat, weights)
        if reward[seat] > top:
            top = reward[seat]
    leaders = 0
    for seat in range(seats):
        if reward[seat] == top:
            leaders += 1
    share, rest = 0.0, 0.0
    if leaders < seats:
        share, rest = 1.0 / leaders, -1.0 / (seats - leaders)
    for seat in range(seats):
        reward[seat] = share if reward[seat] == top else rest


def play_out(state, work, reward, weights, deadline: float, epsilon: float) -> None:
    """Play to the end (or the playout depth) from `state`, the rewards into `reward` (unset when the budget
    stops it)."""
    plies = 0
    depth = work[WORK.playout_depth]
    while outcome(state, 0, work[WORK.option]) == ONGOING:
        if depth >= 0 and plies >= depth:
            cut(state, work, reward, weights)
            return
        mover = to_move(state)
        if mover == CHANCE:
            state = apply_move(state, random_outcome(state, rng_next(work)))
            if not counted(work, deadline):
                return
        elif work[WORK.playout] and uniform(work) >= epsilon:
            state = best_successor(state, legal_moves(state), mover, work, weights, deadline)
            if work[WORK.aborted]:
                return
        else:
            state = apply_move(state, random_move(state, rng_next(work)))
            if not counted(work, deadline):
                return
        plies += 1
    rewards(state, work, reward)


def back_up(tree, totals, node: int, reward, work) -> None:
    """Add the iteration's rewards from `node` to the root; prove wins and losses on the way (MCTS-Solver)."""
    proving = work[WORK.proving]
    while node >= 0:
        base = node * NODE_SIZE
        tree[base + NODE.visits] += 1
        parent = tree[base + NODE.parent]
        if parent >= 0:
            by = tree[parent * NODE_SIZE + NODE.mover]
            if by >= 0:
                totals[node] += reward[by]
        if proving and tree[base + NODE.winner] < 0 and tree[base + NODE.first] >= 0:
            me = tree[base + NODE.mover]
            won, lost = False, True
            child = tree[base + NODE.first]
            while child >= 0:
                winner = tree[child * NODE_SIZE + NODE.winner]
                if winner == me:
                    won = True
                if winner != 1 - me:
                    lost = False
                child = tree[child * NODE_SIZE + NODE.next]
            if won:
                tree[base + NODE.winner] = me
            elif lost and tree[base + NODE.tried] == tree[base + NODE.count]:
                tree[base + NODE.winner] = 1 - me
        node = parent


def iterate(root_state, tree, totals, work, reward, weights, deadline: float, exploration: float,
            epsilon: float) -> None:
    """One iteration: descend (UCT, sampled outcomes), add a child, play out, back up; dropped (work[aborted]
    set) when the budget stops it."""
    node, state = 0, root_state
    if tree[NODE.visits] and not counted(work, deadline):
        return
    while tree[node * NODE_SIZE + NODE.count] >= 0 and tree[node * NODE_SIZE + NODE.winner] < 0:
        base = node * NODE_SIZE
        if tree[base + NODE.mover] == CHANCE:
            if not counted(work, deadline):
                return
            move = random_outcome(state, rng_next(work))
            state = apply_move(state, move)
            child = tree[base + NODE.first]
            while child >= 0 and tree[child * NODE_SIZE + NODE.move] != move:
                child = tree[child * NODE_SIZE + NODE.next]
            if child < 0:
                node = new_node(tree, totals, work, reward, state, move, node)
                break
            node = child
            continue
        tried = tree[base + NODE.tried]
        if tried < tree[base + NODE.count]:
            if not counted(work, deadline):
                return
            move = legal_moves(state)[tried]
            tree[base + NODE.tried] = tried + 1
            state = apply_move(state, move)
            node = new_node(tree, totals, work, reward, state, move, node)
            break
        node = select(tree, totals, node, work, exploration)
        if not counted(work, deadline):
            return
        state = apply_move(state, tree[node * NODE_SIZE + NODE.move])
    base = node * NODE_SIZE
    if tree[base + NODE.count] < 0:
        rewards(state, work, reward)
    elif tree[base + NODE.winner] >= 0:
        winner = tree[base + NODE.winner]
        reward[winner] = 1.0
        reward[1 - winner] = -1.0
    else:
        play_out(state, work, reward, weights, deadline, epsilon)
        if work[WORK.aborted]:
            return
    back_up(tree, totals, node, reward, work)


def run(root_state, tree, totals, work, weights, deadline: float, exploration: float, epsilon: float) -> None:
    """Iterate until the iterations allowed, the budget, a proof at the root or a full tree (work[size] ==
    work[capacity]: grow it and call again). The first call counts and makes the root."""
    reward = [0.0] * work[WORK.seats]
    if work[WORK.size] == 0:
        if not counted(work, deadline):
            return
        new_node(tree, totals, work, reward, root_state, -1, -1)
    while work[WORK.done] < work[WORK.iterations] and tree[NODE.winner] < 0:
        if work[WORK.size] >= work[WORK.capacity]:
            return
        iterate(root_state, tree, totals, work, reward, weights, deadline, exploration, epsilon)
        if work[WORK.aborted]:
            return
        work[WORK.done] += 1
