"""PDN text for checkers: FEN positions and move notation, with errors that quote the input.

FEN (Portable Draughts Notation 3.0): `B:W21,22,...,32:B1,2,...,12` — the side to move
(`B` or `W`), then one field per colour listing its squares, `K` before a king's square.
Accepted variations: the colour fields in either order, ranges of men such as `B1-12`,
spaces around items, and a final `.` as some PDN writers emit. One extension: an optional
last field `:H<n>`, the plies since the last capture or man move (the draw counter), which
`to_text` writes only when it is not zero so standard positions stay standard; it is at most
`rules.MAX_QUIET_PLIES`, as no `quiet_moves` rule can use more. Numbers are ASCII digits only.
A position must be reachable as far as the pieces show: the side that has just moved has a piece.

Moves (ints, see `rules`): `11-15` for a step; `15x24` or `15x24x31` for a capture, naming
every landing square, so the notation names the path exactly (a jump's landing square fixes the jumped
piece). `parse_move` also accepts the short form `15x31` (first and last square only)
when exactly one legal capture matches it, and says which paths it could mean otherwise.
"""

from __future__ import annotations

from framework.errors import MoveParseError, PositionError
from plugins.games.checkers.rules import (
    BIT_SQUARE,
    BLACK,
    BLACK_CROWN,
    DELTA,
    DIRECTIONS_AT,
    MAX_QUIET_PLIES,
    SQUARE_BIT,
    WHITE,
    WHITE_CROWN,
    Move,
    State,
    jumps,
)

FEN_EXAMPLE = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
_EXPECTED = (f"expected PDN FEN: the side to move (B or W), ':W' and White's squares, ':B' and Black's squares "
             f"(1-32, comma separated, K before a king), e.g. '{FEN_EXAMPLE}'")
MAX_PIECES = 12


def _number(item: str, digits: int) -> int | None:
    """`item` as a number of at most `digits` ASCII digits, else None (`int` would take '٣' or 10,000 digits)."""
    return int(item) if 1 <= len(item) <= digits and item.isascii() and item.isdecimal() else None


def _parse_square(item: str, text: str) -> int:
    square = _number(item, 2)
    if square is None or not 1 <= square <= 32:
        raise PositionError(f"'{text}': '{item}' is not a square; squares are numbered 1 to 32. {_EXPECTED}")
    return square


def _parse_field(field: str, text: str) -> tuple[list[int], list[int]]:
    """The men and kings listed in one colour field (without its colour letter)."""
    men: list[int] = []
    kings: list[int] = []
    for raw in field.split(","):
        item = raw.strip()
        if not item:
            if field.strip():
                raise PositionError(f"'{text}' has an empty item in a square list. {_EXPECTED}")
            continue
        if item[0] in "Kk":
            kings.append(_parse_square(item[1:].strip(), text))
        elif "-" in item:
            first, _, last = item.partition("-")
            a, b = _parse_square(first.strip(), text), _parse_square(last.strip(), text)
            if a > b:
                raise PositionError(f"'{text}': the range '{item}' runs backwards; write it as '{b}-{a}'")
            men.extend(range(a, b + 1))
        else:
            men.append(_parse_square(item, text))
    return men, kings


def parse_fen(text: str) -> State:
    """A state from PDN FEN, or PositionError saying what is wrong and what was expected."""
    body = text.strip()
    if body.endswith("."):
        body = body[:-1].rstrip()
    parts = [p.strip() for p in body.split(":")]
    if len(parts) < 3 or parts[0].upper() not in ("B", "W"):
        raise PositionError(f"'{text}' is not a checkers position; {_EXPECTED}")
    mover = BLACK if parts[0].upper() == "B" else WHITE
    quiet = 0
    if len(parts) == 4 and parts[3][:1].upper() == "H":
        count = _number(parts[3][1:].strip(), len(str(MAX_QUIET_PLIES)))
        if count is None or count > MAX_QUIET_PLIES:
            raise PositionError(f"'{text}': the draw counter field '{parts[3]}' must be H and a number of plies "
                                f"from 0 to {MAX_QUIET_PLIES}, e.g. 'H12'")
        quiet = count
        parts = parts[:3]
    if len(parts) != 3:
        raise PositionError(f"'{text}' has {len(parts)} ':'-separated fields; {_EXPECTED}")
    colours = sorted(p[:1].upper() for p in parts[1:])
    if colours != ["B", "W"]:
        raise PositionError(f"'{text}' must have one field for White (':W...') and one for Black (':B...'); "
                            f"{_EXPECTED}")
    pieces = {}
    for part in parts[1:]:
        pieces[part[0].upper()] = _parse_field(part[1:], text)
    seen: dict[int, str] = {}
    boards = {}
    for colour, name in (("B", "Black"), ("W", "White")):
        men, kings = pieces[colour]
        if len(men) + len(kings) > MAX_PIECES:
            raise PositionError(f"'{text}' gives {name} {len(men) + len(kings)} pieces; a side has at most "
                                f"{MAX_PIECES}")
        crown = BLACK_CROWN if colour == "B" else WHITE_CROWN
        bits = king_bits = 0
        for square in men + kings:
            if square in seen:
                raise PositionError(f"'{text}' puts two pieces on square {square} ({seen[square]} and {name})")
            seen[square] = name
            bits |= SQUARE_BIT[square]
        for square in men:
            if SQUARE_BIT[square] & crown:
                raise PositionError(f"'{text}' has a {name} man on square {square}, its crowning row; "
                                    f"a man there is a king: write K{square}")
        for square in kings:
            king_bits |= SQUARE_BIT[square]
        boards[colour] = (bits, king_bits)
    moved = "W" if mover == BLACK else "B"
    if not boards[moved][0]:
        raise PositionError(f"'{text}' cannot arise in play: {'White' if moved == 'W' else 'Black'}, who has "
                            "just moved, has no pieces")
    return (boards["B"][0], boards["W"][0], boards["B"][1] | boards["W"][1], mover, quiet)


def _field(pieces: int, kings: int) -> str:
    """The squares of `pieces`, kings marked, in ascending order (bit indices ascend with square numbers)."""
    out = []
    while pieces:
        low = pieces & -pieces
        out.append(("K" if low & kings else "") + str(BIT_SQUARE[low.bit_length() - 1]))
        pieces ^= low
    return ",".join(out)


def format_fen(state: State) -> str:
    """PDN FEN of a state; the `:H<n>` draw counter only when it is not zero."""
    black, white, kings, mover, quiet = state
    text = f"{'BW'[mover]}:W{_field(white, kings)}:B{_field(black, kings)}"
    return text + (f":H{quiet}" if quiet else "")


def move_squares(move: Move) -> tuple[int, ...]:
    """The squares a move visits: where it starts, then every square it lands on."""
    index = move & 63
    squares = [BIT_SQUARE[index]]
    jumped = jumps(move)
    for k in range(max(jumped, 1)):
        index += DELTA[move >> (DIRECTIONS_AT + 2 * k) & 3] * (2 if jumped else 1)
        squares.append(BIT_SQUARE[index])
    return tuple(squares)


def format_move(move: Move) -> str:
    """`11-15` for a step, `15x24x31` for a capture (every landing square)."""
    return ("x" if jumps(move) else "-").join(map(str, move_squares(move)))


def parse_move_text(text: str, legal: list) -> Move:
    """The legal move that `text` names, or MoveParseError quoting it and listing the legal moves."""
    cleaned = text.strip().lower()
    separator = "x" if "x" in cleaned else "-"
    items = cleaned.split(separator)
    numbers = [_number(i.strip(), 2) for i in items]
    if len(items) < 2 or not all(n is not None and 1 <= n <= 32 for n in numbers) \
            or (separator == "-" and len(items) != 2):
        raise MoveParseError(f"'{text}' is not checkers notation; expected squares 1-32 as '11-15' for a move "
                             "or '15x24x31' for a capture (every landing square)")
    squares = tuple(numbers)
    if separator == "-":
        step = next((m for m in legal if BIT_SQUARE[m & 63] == squares[0] and not jumps(m)
                     and move_squares(m) == squares), None)
        if step is not None:
            return step
        if any(jumps(m) for m in legal):
            raise MoveParseError(f"'{text}' is not legal here: a capture is compulsory; legal moves: {_listing(legal)}")
        raise MoveParseError(f"'{text}' is not a legal move here; legal moves: {_listing(legal)}")
    captures = [(m, move_squares(m)) for m in legal if jumps(m)]
    matches = [m for m, path in captures if path == squares]
    if not matches and len(squares) == 2:
        matches = [m for m, path in captures if (path[0], path[-1]) == squares]
    if len(matches) == 1:
        return matches[0]
    if matches:
        paths = " ".join(sorted(format_move(m) for m in matches))
        raise MoveParseError(f"'{text}' is ambiguous: capture paths {paths} share its first and last square; "
                             "name every landing square")
    raise MoveParseError(f"'{text}' is not a legal capture here; legal moves: {_listing(legal)}")


def _listing(legal: list) -> str:
    """The legal moves, sorted, for an error message (formatted only when a text names none of them)."""
    return " ".join(sorted(format_move(m) for m in legal)) or "none"
