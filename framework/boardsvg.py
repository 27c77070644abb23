"""SVG boards for the browser workbench: a grid of squares with pieces, drawn the same way for every grid game.

A game's `render_svg` capability (framework/capabilities.py) describes its board as `Cell`s and
calls `grid`; a game that is not a grid writes its own SVG with the same convention: each place a
player clicks is an element with `data-square="NAME"`, and NAME is what `move_clicks` returns.
Colours are CSS classes (`light`, `dark`, `piece-0`, `piece-1`), so the page's stylesheet themes
every game at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

SIZE = 60  # pixels per square in the viewBox; the page scales the SVG


@dataclass(frozen=True)
class Cell:
    """One square: its click name (None: not clickable), whether it is dark, and what stands on it.

    `piece` is the seat (0 or 1) whose piece stands there (None: empty); `mark` a short text drawn
    instead of a disc (tic-tac-toe's X and O) and `crown` a letter on the disc (a checkers king).
    """

    name: str | None
    dark: bool = False
    piece: int | None = None
    mark: str = ""
    crown: str = ""


def grid(cells: list[list[Cell]], *, flipped: bool = False, files: str = "", ranks: tuple[str, ...] = (),
         title: str = "") -> str:
    """An SVG of `cells` (rows top to bottom as seen by seat 0); `flipped` turns it half a turn.

    `files` / `ranks` label the columns under the board and the rows at its left (left to right,
    top to bottom as given; flipped with the board).
    """
    rows = len(cells)
    cols = len(cells[0]) if rows else 0
    margin = SIZE // 3 if files or ranks else 0
    width, height = cols * SIZE + margin, rows * SIZE + margin
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="0 0 {width} {height}" '
           f'width="{width}" height="{height}" role="img" aria-label="{escape(title or "board")}">']
    for r in range(rows):
        for c in range(cols):
            cell = cells[rows - 1 - r][cols - 1 - c] if flipped else cells[r][c]
            x, y = margin + c * SIZE, r * SIZE
            attrs = f' data-square="{escape(cell.name)}"' if cell.name is not None else ""
            out.append(f'<g class="cell"{attrs}><rect x="{x}" y="{y}" width="{SIZE}" height="{SIZE}" '
                       f'class="{"dark" if cell.dark else "light"}"/>{_piece(cell, x, y)}</g>')
    half = SIZE // 2
    labels_x = list(reversed(files)) if flipped else list(files)
    labels_y = list(reversed(ranks)) if flipped else list(ranks)
    for c, label in enumerate(labels_x):
        out.append(f'<text class="label" x="{margin + c * SIZE + half}" y="{rows * SIZE + margin - 5}" '
                   f'text-anchor="middle">{escape(label)}</text>')
    for r, label in enumerate(labels_y):
        out.append(f'<text class="label" x="{margin // 2}" y="{r * SIZE + half + 5}" '
                   f'text-anchor="middle">{escape(label)}</text>')
    out.append("</svg>")
    return "".join(out)


def _piece(cell: Cell, x: int, y: int) -> str:
    if cell.piece is None:
        return ""
    cx, cy = x + SIZE // 2, y + SIZE // 2
    if cell.mark:
        return (f'<text class="mark piece-{cell.piece}" x="{cx}" y="{cy + SIZE // 5}" text-anchor="middle" '
                f'font-size="{SIZE * 2 // 3}">{escape(cell.mark)}</text>')
    disc = f'<circle class="piece piece-{cell.piece}" cx="{cx}" cy="{cy}" r="{SIZE * 2 // 5}"/>'
    if cell.crown:
        disc += (f'<text class="crown" x="{cx}" y="{cy + SIZE // 8}" text-anchor="middle" '
                 f'font-size="{SIZE // 3}">{escape(cell.crown)}</text>')
    return disc
