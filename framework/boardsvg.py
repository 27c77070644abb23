"""SVG boards for the browser workbench: a grid of squares with pieces, drawn the same way for every grid game.

A game's `render_svg` capability (framework/capabilities.py) describes its board as `Cell`s and
calls `grid`; a game that is not a grid writes its own SVG with the same convention: each place a
player clicks is an element with `data-square="NAME"`, and NAME is what `move_clicks` returns.
Colours are CSS classes (`light`, `dark`, `piece-0` ... `piece-5` by seat), so the page's stylesheet
themes every game at once; a `theme` class on the <svg> lets one game recolour its seats (Rolit's
four colours). `side` draws beside a grid what is not on it (a die, the scores); `die` and
`document` serve games that are no grid at all (Pig).
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

SIZE = 60  # pixels per square in the viewBox; the page scales the SVG


@dataclass(frozen=True)
class Cell:
    """One square: its click name (None: not clickable), whether it is dark, and what stands on it.

    `piece` is the seat whose piece stands there (None: empty); `mark` a short text drawn instead of
    a disc (tic-tac-toe's X and O), `crown` a letter on the piece (a checkers king, an EinStein cube's
    number), `cube` a square piece instead of a disc, `note` a small label in the square's corner (a
    checkers square number) and `tags` extra CSS classes of the square (`goal`, `movable`).
    """

    name: str | None
    dark: bool = False
    piece: int | None = None
    mark: str = ""
    crown: str = ""
    cube: bool = False
    note: str = ""
    tags: str = ""


def document(width: int, height: int, body: str, title: str, theme: str = "") -> str:
    """An <svg> of the board class with `body` inside, scaled by the page from its viewBox."""
    classes = f"board {theme}".strip()
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="{escape(classes)}" viewBox="0 0 {width} {height}" '
            f'width="{width}" height="{height}" role="img" aria-label="{escape(title or "board")}">{body}</svg>')


#: Where the pips of each face sit, in thirds of the die from its top-left corner.
PIPS = {1: ((1, 1),), 2: ((0, 0), (2, 2)), 3: ((0, 0), (1, 1), (2, 2)), 4: ((0, 0), (2, 0), (0, 2), (2, 2)),
        5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)), 6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2))}


def die(x: float, y: float, face: int | None, size: int = SIZE, name: str | None = None, caption: str = "",
        text: str = "?") -> str:
    """A die at (x, y) showing `face` in pips; None: `text` on it instead (a die in the air: "?"); `name` makes
    it clickable, `caption` is written under it."""
    attrs = f' data-square="{escape(name)}"' if name is not None else ""
    out = [f'<g class="die{" blank" if face is None else ""}"{attrs}>'
           f'<rect x="{x}" y="{y}" width="{size}" height="{size}" rx="{size // 6}" class="die-face"/>']
    if face is None:
        font = size // (2 if len(text) < 2 else 4)
        out.append(f'<text class="die-unknown" x="{x + size / 2}" y="{y + size / 2 + font * 0.36:g}" '
                   f'text-anchor="middle" font-size="{font}">{escape(text)}</text>')
    else:
        step = size / 4
        out.extend(f'<circle class="pip" cx="{x + step * (1 + px):g}" cy="{y + step * (1 + py):g}" '
                   f'r="{size / 11:.1f}"/>' for px, py in PIPS[face])
    if caption:
        out.append(f'<text class="label" x="{x + size / 2}" y="{y + size + 16}" text-anchor="middle">'
                   f'{escape(caption)}</text>')
    out.append("</g>")
    return "".join(out)


def grid(cells: list[list[Cell]], *, flipped: bool = False, files: str = "", ranks: tuple[str, ...] = (),
         title: str = "", theme: str = "", side: str = "", side_width: int = 0, lines: bool = False) -> str:
    """An SVG of `cells` (rows top to bottom as seen by seat 0); `flipped` turns it half a turn.

    `files` / `ranks` label the columns under the board and the rows at its left (left to right,
    top to bottom as given; flipped with the board). `side` is SVG drawn right of the board in its
    own coordinates (0, 0 its top left), `side_width` wide. `lines` draws the grid's inner lines
    only, no squares (tic-tac-toe).
    """
    rows = len(cells)
    cols = len(cells[0]) if rows else 0
    margin = SIZE // 3 if files or ranks else 0
    board_width = cols * SIZE + margin
    width, height = board_width + side_width, rows * SIZE + margin
    out = []
    for r in range(rows):
        for c in range(cols):
            cell = cells[rows - 1 - r][cols - 1 - c] if flipped else cells[r][c]
            x, y = margin + c * SIZE, r * SIZE
            attrs = f' data-square="{escape(cell.name)}"' if cell.name is not None else ""
            shade = "blank" if lines else "dark" if cell.dark else "light"
            note = f'<text class="note" x="{x + 2}" y="{y + 10}">{escape(cell.note)}</text>' if cell.note else ""
            tags = f" {escape(cell.tags)}" if cell.tags else ""
            out.append(f'<g class="cell{tags}"{attrs}><rect x="{x}" y="{y}" width="{SIZE}" height="{SIZE}" '
                       f'class="{shade}"/>{_piece(cell, x, y)}{note}</g>')
    if lines:
        out.extend(f'<line class="grid-line" x1="{margin + c * SIZE}" y1="4" x2="{margin + c * SIZE}" '
                   f'y2="{rows * SIZE - 4}"/>' for c in range(1, cols))
        out.extend(f'<line class="grid-line" x1="{margin + 4}" y1="{r * SIZE}" x2="{margin + cols * SIZE - 4}" '
                   f'y2="{r * SIZE}"/>' for r in range(1, rows))
    half = SIZE // 2
    labels_x = list(reversed(files)) if flipped else list(files)
    labels_y = list(reversed(ranks)) if flipped else list(ranks)
    for c, label in enumerate(labels_x):
        out.append(f'<text class="label" x="{margin + c * SIZE + half}" y="{rows * SIZE + margin - 5}" '
                   f'text-anchor="middle">{escape(label)}</text>')
    for r, label in enumerate(labels_y):
        out.append(f'<text class="label" x="{margin // 2}" y="{r * SIZE + half + 5}" '
                   f'text-anchor="middle">{escape(label)}</text>')
    if side:
        out.append(f'<g class="side" transform="translate({board_width},0)">{side}</g>')
    return document(width, height, "".join(out), title, theme)


def _piece(cell: Cell, x: int, y: int) -> str:
    if cell.piece is None:
        return ""
    cx, cy = x + SIZE // 2, y + SIZE // 2
    if cell.mark:
        return (f'<text class="mark piece-{cell.piece}" x="{cx}" y="{cy + SIZE // 5}" text-anchor="middle" '
                f'font-size="{SIZE * 2 // 3}">{escape(cell.mark)}</text>')
    if cell.cube:
        edge = SIZE * 7 // 10
        disc = (f'<rect class="piece cube piece-{cell.piece}" x="{cx - edge // 2}" y="{cy - edge // 2}" '
                f'width="{edge}" height="{edge}" rx="{SIZE // 10}"/>')
    else:
        disc = f'<circle class="piece piece-{cell.piece}" cx="{cx}" cy="{cy}" r="{SIZE * 2 // 5}"/>'
    if cell.crown:
        disc += (f'<text class="crown" x="{cx}" y="{cy + SIZE // 8}" text-anchor="middle" '
                 f'font-size="{SIZE // 3}">{escape(cell.crown)}</text>')
    return disc
