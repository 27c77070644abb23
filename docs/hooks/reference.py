"""MkDocs hook: the reference pages, generated from the code at every build so they cannot drift.

- `reference/cli.md`: every command's `--help`, from the argparse parsers `plyground` itself uses;
- `reference/plugins.md`: every built-in game's, agent's and heuristic's declared `Param`s, from the registry;
- `reference/yaml.md`: every tournament-file key (the keys come from `framework.tournament.config.KEYS`;
  a key without a line in `YAML_KEYS` below fails the build, naming it);
- `reference/tables.md`: the columns of every results table, read off a tiny tournament and solve run
  made at build time (a stored column without a line in `COLUMNS` below fails the build, naming it).

MkDocs calls `on_files` (https://www.mkdocs.org/user-guide/configuration/#hooks); the pages are added
as generated files, never written into the source tree.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

#: Every key of a tournament file, with what it does; `[]` marks a list entry. Checked against the code.
YAML_KEYS: dict[str, str] = {
    "name": "the tournament's name (default: the file name); names the results folder by default",
    "mode": "`games` (default): play a tournament; `solve`: run solvers on positions; `tune`: SPSA over an "
            "agent's numeric parameters ([how-to](../howto/tuning.md))",
    "game": "the game to play: `NAME`, or `{name: NAME, options: {...}}` with the game's declared options",
    "seed": "every game's (or solve's) seed derives from it and the task's key: same results on any executor "
            "and any number of workers (default 0)",
    "move_time_limit": "seconds of CPU time after which a move still running is stopped and forfeits on time "
                       "(or 2 x its time budget + 1 s, whichever is smaller; a move that waits instead is stopped "
                       "after 3 x that + 5 s of wall time; default 60)",
    "memory_limit_mb": "address space (MiB) each engine may add to what it maps once loaded; an agent that "
                       "needs more forfeits (default 4096)",
    "time_control": "every participant's clock, as fastchess writes it: `BASE+INC` or `MOVES/BASE+INC` (seconds, "
                    "or `m:ss`), e.g. `10+0.1`; a participant's own `time_control` wins (default: none)",
    "plugins": "extra plugin modules as `.py` files, relative to this file",
    "workers": "parallel worker processes, 1 to 4 per CPU (default 1)",
    "results": "the results folder, relative to the current directory (default `results/NAME`)",
    "executor": "where tasks run: `{kind: local}` (default) or `{kind: dask, address: null}` (a Dask "
                "LocalCluster, or the scheduler at `address`)",
    "executor.kind": "`local` or `dask`",
    "executor.address": "a Dask scheduler's address; null starts a LocalCluster on this machine",
    "games": "instead of `game`: a list of games, each pairing plays `games_per_pairing` games of each",
    "games[].name": "the game's name",
    "games[].options": "the game's declared options",
    "games[].start_positions": "this game's own start-positions file",
    "game.name": "the game's name (when `game` is a mapping)",
    "game.options": "the game's declared options (`plyground list --verbose`)",
    "game.start_positions": "the game's start-positions file (the same as the top-level `start_positions`)",
    "participants": "the agents that play: a list of at least two",
    "participants[].id": "a unique id of letters, digits and `_.+-` (default: the agent's name, a program's "
                         "`name` or file name)",
    "participants[].agent": "a registered agent's name (`plyground list`)",
    "participants[].params": "the agent's declared parameters, checked against their types and ranges",
    "participants[].command": "instead of `agent`: a program and its arguments, `[PROGRAM, ARGS...]`, that speaks "
                              "the engine protocol (a path with `/` relative to the file, else on PATH)",
    "participants[].name": "a program's name in the config (default id when it is a valid one)",
    "participants[].protocol": "a program's protocol: `plyground` (default) or `uci` (through the UCI adapter)",
    "participants[].options": "a program's own settings, `{NAME: VALUE}`: sent with each game (`new`'s `params`; "
                              "UCI: `setoption name NAME value VALUE`)",
    "participants[].budget": "per move: `{time: SECONDS, nodes: N}`, either or both (default: none)",
    "participants[].budget.time": "seconds per move",
    "participants[].budget.nodes": "nodes per move",
    "participants[].time_control": "this participant's clock (`BASE+INC` or `MOVES/BASE+INC`), kept by the "
                                   "referee; it loses on time when the clock runs out",
    "format": "`round-robin` (default): every pair plays; `gauntlet`: the `champion` plays every other",
    "champion": "a gauntlet's participant id who plays the field",
    "games_per_pairing": "games each pairing plays, in colour-swapped pairs (a multiple of 2 x the number of "
                         "start positions); with `sprt`, the most it plays",
    "start_positions": "a file of positions in the game's text format, one per line (`#` comments), relative to "
                       "this file; each is played with both colours",
    "max_plies": "adjudicate a draw after this many plies (default: never)",
    "sprt": "stop a two-participant match (or each pairing of a gauntlet) when a sequential probability "
            "ratio test decides",
    "sprt.elo0": "H0's Elo of the first-named participant",
    "sprt.elo1": "H1's Elo",
    "sprt.alpha": "the probability of accepting H1 when H0 holds (default 0.05)",
    "sprt.beta": "the probability of accepting H0 when H1 holds (default 0.05)",
    "sprt.model": "`pentanomial` (default: colour-swapped game pairs) or `trinomial` (single games)",
    "sprt.normalized": "true: `elo0` and `elo1` are normalized Elo (nElo)",
    "adjudication": "end a game early when both engines' own scores agree",
    "adjudication.resign": "`{score, moves}`: one side scores itself at or below -score and the other at or "
                           "above score for `moves` moves of each side",
    "adjudication.draw": "`{score, moves, after}`: both scores within `score` of zero for `moves` moves of each "
                         "side, from move `after` on",
    "opening": "how start positions are used",
    "opening.order": "`file` (default): in file order; `shuffled`: shuffled by the seed",
    "opening.random_plies": "random legal moves from each start, the same for both games of a pair",
    "positions": "solve mode: a file of positions, `POSITION` or `POSITION | note` per line",
    "budget": "solve mode: the budget per position, `{time, nodes}`, for solvers without their own",
    "budget.time": "seconds per position",
    "budget.nodes": "nodes per position",
    "solvers": "solve mode: agents with a `solve` method, written as participants (`id`, `agent`, `params`, "
               "`budget`)",
    "tune": "tune mode: the agent, the parameters SPSA moves, the iterations and the validation match",
    "tune.agent": "the agent to tune, `{agent, params, budget}` as a participant without `id`",
    "tune.parameters": "per parameter (the agent's `NAME`, or its heuristic's `HEURISTIC_PARAM.NAME`): "
                       "`{start, min, max, c_end, r_end}`; `c_end` and `r_end` (default 0.002) are the perturbation "
                       "and learning rate at the last iteration (fishtest's gains)",
    "tune.iterations": "SPSA iterations, each one colour-swapped game pair of θ + cΔ against θ − cΔ; raising it "
                       "continues a stored run",
    "tune.batch": "iterations played at once from the same θ (default 1)",
    "tune.validate": "optional: `{games, sprt}`, the tuned values against the start values, at most `games` "
                     "games, stopped by the SPRT (keys as `sprt`)",
}

#: Every stored column of the results store, with what it holds. Checked against the store.
COLUMNS: dict[str, str] = {
    "games.key": "the game's key: pairing and index (`a~b#3`)",
    "games.pairing_a": "the pairing's first-named participant",
    "games.pairing_b": "the pairing's second-named participant",
    "games.game_index": "the game's number within its pairing",
    "games.game": "the game's name",
    "games.first": "the participant in seat 0 (who moves first from the initial position)",
    "games.second": "the participant in seat 1",
    "games.seed": "the game's seed (derived from the tournament seed and the key)",
    "games.start": "the start position in the game's text format",
    "games.final": "the final position in the game's text format",
    "games.result_first": "seat 0's return: 1 win, 0 draw, -1 loss",
    "games.result_second": "seat 1's return",
    "games.winner": "the winner's participant id, empty for a draw",
    "games.termination": "how it ended: `normal`, a forfeit (`illegal_move`, `crash`, `time`, ...), an "
                         "adjudication, `max_plies` or `void`",
    "games.reason": "why, in words (the game's `end_reason`, or the forfeit's cause)",
    "games.plies": "plies played",
    "games.wall_time": "seconds the game took",
    "games.finished_at": "Unix time the game was stored",
    "games.rss_start": "the worker's resident bytes when the game started",
    "games.rss_peak": "the worker's peak resident bytes",
    "games.rss_scope": "`task`: the peak is this game's own (Linux); `process`: the worker's so far",
    "games.traceback": "the traceback of the exception that cost a crashed agent the game (else empty)",
    "games.retries": "times the game was replayed because its worker was killed from outside",
    "games.moved_first": "the participant who made the first move (a start position may give seat 1 the move)",
    "moves.key": "the game's key",
    "moves.ply": "the ply number, from 1",
    "moves.mover": "the seat that moved (-1, CHANCE: a roll of the dice, drawn by the match)",
    "moves.participant": "the participant who moved (empty for a roll of the dice)",
    "moves.move": "the move in notation",
    "moves.nodes": "nodes the search visited",
    "moves.depth": "depth it completed",
    "moves.score": "its score for the mover, in its heuristic's units (empty: none reported)",
    "moves.wall_time": "seconds the decision took",
    "moves.cpu_time": "CPU seconds it took",
    "moves.pv": "its principal variation in notation, space-separated",
    "moves.binding": "how its search ran: compiled, interpreted or adapter (its `kernel` option; empty: unsaid)",
    "moves.binding_reason": "why its search did not run compiled (empty: compiled, or unsaid)",
    "moves.clock": "seconds left on the mover's clock after the move, under a time control (null: none)",
    "solves.key": "the solve's key: solver and position index",
    "solves.solver": "the solver's id",
    "solves.position_index": "the position's line number among the file's positions, from 0",
    "solves.position": "the position in the game's text format",
    "solves.note": "the text after `|` on the position's line",
    "solves.value": "`win`, `loss`, `draw` or `unknown` for the side to move",
    "solves.move": "a best move in notation, when known",
    "solves.nodes": "nodes the solver visited",
    "solves.depth": "depth it reached",
    "solves.wall_time": "seconds the solve took",
    "solves.cpu_time": "CPU seconds it took",
    "solves.status": "`solved`, `unknown`, `crash`, `time` or `void`",
    "solves.reason": "why, when not solved",
    "solves.finished_at": "Unix time it was stored",
    "solves.peak_entries": "the most entries the solver's memory held (`SearchStats.peak_entries`)",
    "solves.rss_start": "the worker's resident bytes when the solve started",
    "solves.rss_peak": "the worker's peak resident bytes",
    "solves.rss_scope": "`task` or `process`, as for games",
    "solves.retries": "times the solve was replayed because its worker was killed from outside",
    "solves.engine": "the solver's engine as its handshake named it",
    "solves.engine_version": "the version its engine's handshake gave",
}


@contextlib.contextmanager
def _builtins_only() -> Iterator[None]:
    """Only this distribution's plugins, and a fixed terminal width: the pages depend on the code alone."""
    saved = {k: os.environ.get(k) for k in ("PLYGROUND_DISABLE_PLUGIN_AUTOLOAD", "PLYGROUND_PLUGINS", "COLUMNS")}
    os.environ.update(PLYGROUND_DISABLE_PLUGIN_AUTOLOAD="1", PLYGROUND_PLUGINS="plyground", COLUMNS="100")
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def cli_page() -> str:
    from framework.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {choice.dest: choice.help for choice in sub._choices_actions}
    lines = ["# Command line", "", "Generated from the argparse parsers of `plyground` at every docs build.",
             "Errors (unknown names, bad parameters, malformed positions or moves) are one line that quotes",
             "the input and lists the choices; the exit status is 2.", ""]
    for name, command in sub.choices.items():
        lines += [f"## `plyground {name}`", "", f"{helps.get(name, '')}.", "", "```text",
                  command.format_help().rstrip(), "```", ""]
    return "\n".join(lines)


def _param_rows(params: tuple[Any, ...]) -> list[str]:
    if not params:
        return ["No parameters.", ""]
    rows = ["| parameter | type | default | what it does |", "|---|---|---|---|"]
    for p in params:
        rows.append(f"| `{p.name}` | {_cell(p.describe())} | `{p.default!r}` | {_cell(p.help)} |")
    return rows + [""]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def plugins_page() -> str:
    from framework.registry import Registry

    registry = Registry()
    lines = ["# Games, agents and heuristics", "",
             "Every built-in plugin's declared parameters, generated from the registry at every docs build",
             "(`plyground list --verbose` prints the same for whatever is installed, your plugins included).",
             "In YAML they go under `params:` (agents) or `options:` (games); on the command line as",
             "`NAME:key=value,...` (agents) or `--option key=value` (games).", ""]
    tables: tuple[tuple[str, dict[str, Any]], ...] = (("Games", dict(registry.games)),
                                                      ("Agents", dict(registry.agents)))
    for title, table in tables:
        lines += [f"## {title}", ""]
        for name, reg in sorted(table.items()):
            defaults = f" Default of {', '.join(f'`{d}`' for d in reg.spec.default_for)}." \
                if getattr(reg.spec, "default_for", ()) else ""
            lines += [f"### `{name}`", "", f"{reg.spec.help}.{defaults} Provided by `{reg.provenance}`.", ""]
            lines += _param_rows(reg.spec.params)
    lines += ["## Heuristics", ""]
    for (game, name), reg in sorted(registry.heuristics.items()):
        lines += [f"### `{name}` ({game})", "", f"{reg.spec.help}.", ""] + _param_rows(reg.spec.params)
    lines += ["## Game files", "", "For `plyground nash NAME`.", "", "| name | what it is |", "|---|---|"]
    lines += [f"| `{name}` | {_cell(reg.spec.help)} |" for name, reg in sorted(registry.game_files.items())]
    return "\n".join(lines) + "\n"


def yaml_page() -> str:
    from framework.tournament.config import KEYS

    check_yaml_keys(KEYS)
    lines = ["# Tournament files", "",
             "Every key of a tournament file, generated at every docs build from the keys the loader accepts",
             "(`framework/tournament/config.py`). Every mistake is reported before a game starts, with the file,",
             "the key path and what was expected. [How-to pages](../howto/index.md) show them in use.", ""]
    for mode, keys in KEYS.items():
        lines += [f"## `mode: {mode}`", "", "| key | what it does |", "|---|---|"]
        for key in keys:
            for path in [key] + sorted(p for p in YAML_KEYS if _parent(p) == key):
                lines.append(f"| `{path}` | {_cell(YAML_KEYS[path])} |")
        lines.append("")
    return "\n".join(lines)


def _parent(path: str) -> str:
    return path.split(".")[0].split("[")[0] if path != path.split(".")[0].split("[")[0] else ""


def check_yaml_keys(keys: dict[str, tuple[str, ...]]) -> None:
    """Every top-level key the loader accepts is documented, and nothing else is."""
    accepted = {k for mode in keys.values() for k in mode}
    documented = {p for p in YAML_KEYS if _parent(p) == ""}
    if accepted != documented:
        raise ValueError(f"docs/hooks/reference.py YAML_KEYS is out of step with config.KEYS: undocumented "
                         f"{sorted(accepted - documented)}, no longer accepted {sorted(documented - accepted)}")


def _tiny_results(folder: Path) -> tuple[Any, Any]:
    """A two-game tournament and a one-position solve run, made now, loaded as Results."""
    from framework.analysis.tables import Results
    from framework.tournament.config import load_config
    from framework.tournament.runner import run_tournament

    (folder / "pos.txt").write_text("XX./OO./... x | result=win\n")
    (folder / "games.yaml").write_text("game: tictactoe\nresults: games\nparticipants:\n"
                                       "  - {agent: alphabeta, params: {depth: 1, heuristic: lines}}\n"
                                       "  - {agent: random}\n")
    (folder / "solve.yaml").write_text("mode: solve\ngame: tictactoe\npositions: pos.txt\nresults: solve\n"
                                       "solvers: [{agent: pns}]\n")
    out = []
    for name in ("games", "solve"):
        config = load_config(folder / f"{name}.yaml")
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            run_tournament(config, quiet=True)
        out.append(Results(config.results))
    return out[0], out[1]


def tables_page() -> str:
    from framework.analysis.tables import Results

    lines = ["# Results tables", "",
             "`framework.analysis.tables.Results(folder)` loads a results folder; `plyground report` writes the",
             "same tables to `tables/*.csv`. The columns below were read off a tiny tournament and solve run",
             "made at this docs build. [The pandas tutorial](../tutorials/pandas.md) uses them.", ""]
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        try:
            games, solves = _tiny_results(Path(tmp))
        finally:
            os.chdir(cwd)
        missing = [f"{table}.{column}" for table, frame in (("games", games.games), ("moves", games.moves),
                                                            ("solves", solves.solves))
                   for column in frame.columns if f"{table}.{column}" not in COLUMNS
                   and column not in ("pair", "score_first", "forfeit") and not column.startswith("extra_")]
        if missing:
            raise ValueError(f"docs/hooks/reference.py COLUMNS has no line for the stored columns {missing}")
        for mode, results in (("games", games), ("solve", solves)):
            lines += [f"## Tables of a `mode: {mode}` run", ""]
            for name, frame in results.tables().items():
                method = getattr(Results, name, None)
                doc = (method.__doc__ or "").strip().split("\n")[0] if callable(method) else ""
                lines += [f"### `{name}`", "", f"`Results.{name}`" + ("()" if callable(method) else "")
                          + (f": {doc}" if doc else "."), "", "| column | type | what it holds |", "|---|---|---|"]
                for column in frame.columns:
                    help_ = COLUMNS.get(f"{'solves' if name == 'solves' else name}.{column}", _derived(column))
                    lines.append(f"| `{column}` | {frame[column].dtype} | {_cell(help_)} |")
                lines.append("")
    return "\n".join(lines)


def _derived(column: str) -> str:
    return {"pair": "the colour-swapped pair the game belongs to (`game_index // 2`)",
            "score_first": "seat 0's points: 1, 0.5 or 0", "forfeit": "true when the game was forfeited"}.get(
        column, "the solver's own figure from `SearchStats.extra`" if column.startswith("extra_") else "")


def capabilities_page() -> str:
    from dataclasses import fields

    from framework.capabilities import Capabilities

    lines = ["# Game capabilities", "",
             "The optional attributes a game may have, generated from `framework.capabilities.Capabilities` at",
             "every docs build. A search uses a capability when the game offers it and does without otherwise;",
             "a `GameWrapper` hides every capability that depends on a method it overrides.",
             "[Your first game plugin](../tutorials/first-game.md#6-optional-capabilities) says what each one buys.",
             "", "| capability | what it is | depends on |", "|---|---|---|"]
    for f in fields(Capabilities):
        if "help" in f.metadata:
            depends = ", ".join(f"`{name}`" for name in sorted(f.metadata["depends_on"])) or "nothing"
            lines.append(f"| `{f.name}` | {_cell(f.metadata['help'])} | {depends} |")
    return "\n".join(lines) + "\n"


PAGES: dict[str, Callable[[], str]] = {"reference/cli.md": cli_page, "reference/plugins.md": plugins_page,
                                       "reference/yaml.md": yaml_page, "reference/tables.md": tables_page,
                                       "reference/capabilities.md": capabilities_page}


def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File

    with _builtins_only():
        for path, build in PAGES.items():
            files.append(File.generated(config, path, content=build()))
    return files
