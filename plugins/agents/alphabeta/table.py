"""A fixed-size transposition table with depth-preferred replacement.

Greenblatt, Eastlake & Crocker (1967) introduced the table; the bound flags follow Marsland
(1986, "A review of game-tree pruning") and the replacement scheme is "Deep" of Breuker,
Uiterwijk & van den Herik (1994, "Replacement schemes for transposition tables"): a slot
keeps the entry searched deeper unless the new one is for the same state.

The table lives in `search.py`'s rows (one per slot: the state's words, stamp, depth, ply, flag,
move) and values, indexed by `hash % slots`. The hash is the game's `hash_key(state)` when it has
one, else Python's `hash`; the entry keeps the state itself and a probe compares it, so a hash
collision (or a hash that leaves part of the state out on purpose, as checkers' leaves its draw
counter) can never answer for another state.

A table configured for `size` entries has `slot_count(size)` slots: the largest prime not
above it, the division method of Knuth (TAOCP vol. 3, 6.4: "M a prime"). The games' hash keys
are bitboards packed side by side (LOA: Black's board in the low 64 bits), so a power-of-two
modulus would keep only the low bits of the first board: measured, the 1,705 states within 3
plies of a LOA endgame all fell in one of 65,536 slots, and 65,521 slots (a prime) spread them
over 1,652. Reduction by a prime mixes every bit of the key, and computes the same slot as
cheaply compiled (the probe in `search.negamax`).

An entry records the remaining depth *and* the ply it was searched at, and a flag: EXACT,
LOWER (value >= the true value's lower bound, a fail-high) or UPPER (a fail-low), plus the
HORIZON bit when the subtree evaluated a heuristic leaf (otherwise every leaf under it was a
terminal state and the bound holds for the whole game).
"""

from __future__ import annotations

from functools import cache

EXACT, LOWER, UPPER = 0, 1, 2
BOUND = 3     # mask of the bound kind within a flag
HORIZON = 4   # the subtree stood on at least one heuristic (non-terminal) leaf


@cache
def slot_count(size: int) -> int:
    """The slots of a table of at most `size` entries: the largest prime <= size (1 when size is 1).

    Trial division by 2, 3 and 6k +- 1 up to the square root: about a millisecond for any table that
    fits in memory, paid once per size."""
    for n in range(size, 1, -1):
        if n < 4:
            return n
        if n % 2 and n % 3 and all(n % d and n % (d + 2) for d in range(5, int(n ** 0.5) + 1, 6)):
            return n
    return 1
