"""Agents cannot touch each other's games (issue 25): one test per way an agent attacked the framework.

Every attack of `rogue` (untrusted_agents.py) plays a gauntlet against the honest `w1`, beside the honest
pairing `w1 vs w2`, in one run on two workers: the run finishes, the honest pairing's games equal those of a
run without any rogue (D1 a leftover thread that ends its process later, D2 a mutated game object, D5
spinning threads: each game's agents run in a process of their own), the rogue alone answers for what it did
(D3, D6, D10, D15, D18 and damage to its descriptors), and nothing it started outlives the run (D4). Then:
void games are replayed on resume (D16), a plugin that ends the worker at import is named (D19), store
faults are one line (D11, D12), tracebacks are stored capped (D14), and command-line numbers are bounded (D13).
"""

import os
import re
import sqlite3
import sys
import textwrap
from pathlib import Path

import pytest

from framework.analysis.tables import Results
from framework.cli import main
from framework.errors import ConfigError, WorkerError
from framework.tournament import store as store_module
from framework.tournament.config import load_config
from framework.tournament.runner import run_tournament
from framework.tournament.store import Store

AGENTS = Path(__file__).with_name("untrusted_agents.py")
sys.path.insert(0, str(AGENTS.parent))
from untrusted_agents import ATTACKS  # noqa: E402

#: attack -> (the terminations its own games may end with, text its forfeits' reasons contain: None for none)
EXPECTED = {
    "time_bomb": ({"normal", "crash"}, None),
    "mutate_game": ({"normal", "crash", "illegal_move"}, None),   # it breaks its own engine's game object only
    "buggy_cache": ({"normal", "crash", "illegal_move"}, None),
    "bogus_forfeit": ({"crash"}, "crashed: Forfeit: the opponent forfeits"),
    "fork": ({"normal"}, None),
    "double_fork": ({"normal"}, None),
    "spin_threads": ({"normal", "time"}, None),   # the engine's whole CPU is its time: threads included
    "hog": ({"crash"}, "crashed: MemoryError"),
    "self_term": ({"crash"}, "crashed: its engine was killed by signal SIGTERM while choosing a move"),
    "self_stop": ({"normal"}, None),
    "slow_build": ({"normal"}, None),
    "void_forfeit": ({"crash"}, "crashed: Forfeit: the game must be void"),
    "take_back": ({"crash"}, "crashed: TakeBack"),
    "float_move": ({"normal", "crash", "illegal_move"}, None),   # a move is its notation: 4.0 may name a legal one
    "equal_all": ({"crash", "illegal_move"}, None),
    "huge_traceback": ({"crash"}, "crashed: RuntimeError: start of the message"),
    "close_fds": ({"crash"}, "crashed: its engine"),
    "ctor_exit": ({"normal", "crash"}, None),   # its engine ends: its games at worst (it ended the run before)
    "ctor_spin": ({"normal"}, None),
    "patch_store": ({"normal"}, None),
    "rewrite_store": ({"normal"}, None),
    "forge_result": ({"invalid_output"}, "broke the protocol while choosing a move: a message of unknown type "
                                         "'result'"),
    "kill_others": ({"normal"}, None),
    "fuse": ({"normal", "crash"}, None),
    "busy_threads": ({"time"}, "(hard time limit)"),
    # its ~255 forks (and their children's start) count on its CPU clock: ~0.4 s from a bare host, ~0.6 s from one
    # forked with numba loaded (framework.engine.forkserver), near the 1 s limit on a loaded machine
    "fork_bomb": ({"normal", "crash", "time"}, None),
}
HONEST = "w1 vs w2"


def config_text(folder: Path, attacks: tuple[str, ...], **extra: object) -> Path:
    rogues = "".join(f"\n  - {{id: {a}, agent: rogue, params: {{attack: {a}}}}}" for a in attacks)
    settings = "".join(f"{key}: {value}\n" for key, value in extra.items())
    path = folder / "t.yaml"
    path.write_text(textwrap.dedent(f"""\
        game: tictactoe
        format: gauntlet
        champion: w1
        move_time_limit: 1
        workers: 2
        plugins: [{AGENTS}]
        results: {folder / 'out'}
        """) + settings + f"participants:\n  - {{id: w1, agent: witness}}\n  - {{id: w2, agent: witness}}{rogues}\n")
    return path


def honest_games(out: Path) -> tuple[list, list]:
    """The honest pairing's games and moves (times excluded)."""
    with sqlite3.connect(out / "results.sqlite") as conn:
        games = conn.execute("SELECT key, winner, termination, reason, plies, final FROM games WHERE pairing_b = 'w2' "
                             "ORDER BY key").fetchall()
        moves = conn.execute("SELECT m.key, ply, participant, move, nodes FROM moves m JOIN games g ON g.key = m.key "
                             "WHERE pairing_b = 'w2' ORDER BY m.key, ply").fetchall()
    return games, moves


def workers_of(pid: int) -> list[int]:
    """The worker processes whose parent is `pid`."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_bytes()
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if int(stat.rsplit(b")", 1)[1].split()[1]) == pid and b"framework.tournament.worker" in cmdline:
                found.append(int(entry))
    return found


def engines_of(pid: int) -> list[int]:
    """Engine processes descended from `pid` (its own, or its workers')."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if b"framework.engine.host" in cmdline and alive(int(entry)) and pid in ancestors(int(entry)):
                found.append(int(entry))
    return found


def ancestors(pid: int) -> list[int]:
    """The processes above `pid`, its parent first."""
    chain = []
    while pid > 1:
        try:
            pid = int(Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[1])
        except (OSError, ValueError):
            break
        chain.append(pid)
    return chain


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.fixture(scope="module")
def attacked(tmp_path_factory):
    """Every attack against w1 beside w1 vs w2, and the same honest pairing alone."""
    clean = tmp_path_factory.mktemp("clean")
    run_tournament(load_config(config_text(clean, ())), quiet=True)
    folder = tmp_path_factory.mktemp("attacked")
    os.environ["PLYGROUND_TEST_RESULTS"] = str(folder / "out" / "results.sqlite")
    try:
        summary = run_tournament(load_config(config_text(folder, ATTACKS)), quiet=True)
    finally:
        del os.environ["PLYGROUND_TEST_RESULTS"]
    left = workers_of(os.getpid())
    with sqlite3.connect(folder / "out" / "results.sqlite") as conn:
        pids = [nodes for (nodes,) in conn.execute("SELECT nodes FROM moves WHERE participant IN ('fork', "
                                                     "'double_fork') AND nodes > 1")]
    return summary, folder / "out", clean / "out", pids, left


def test_the_run_finishes_with_every_game_stored_once(attacked):
    summary, out, _, _, _ = attacked
    assert summary.played == summary.total == 2 * (len(ATTACKS) + 1)
    assert (summary.retried, summary.void) == (0, 0)   # no attack passes for a death from outside


def test_the_honest_pairing_plays_exactly_as_without_any_rogue(attacked):
    """D1, D2, D5: nothing a rogue did in its games reaches another game."""
    _, out, clean, _, _ = attacked
    games, moves = honest_games(out)
    assert len(games) == 2 and (games, moves) == honest_games(clean)
    assert {nodes for *_, nodes in moves} == {1}   # one thread in the honest agents' processes, always


def test_no_process_an_agent_started_outlives_the_run(attacked):
    """D4: children and daemons in sessions of their own are gone, and so are the workers and the engines (the
    constructor threads of `ctor_spin` that never end, the children of `fork_bomb`)."""
    _, _, _, pids, left = attacked
    assert len(pids) >= 4   # `fork` and `double_fork`: one a move, two games each
    assert not [pid for pid in pids if alive(pid)]
    assert left == []
    assert not engines_of(os.getpid())


def test_no_engine_reaches_the_store_or_another_process(attacked):
    """`rewrite_store` cannot open the results store (Landlock: no reads or writes there), `kill_others` cannot
    signal another game's engine or a worker (Landlock's signal scope), `patch_store` patched the store of its
    own process only: the runner's is untouched, and the honest games equal a clean run's (above)."""
    _, out, _, _, _ = attacked
    with sqlite3.connect(out / "results.sqlite") as conn:
        assert conn.execute("SELECT count(*) FROM moves WHERE depth = -1").fetchone()[0] == 0
    from framework.tournament import store
    assert not hasattr(store, "PATCHED")
    honest = Results(out).games.set_index("key").loc[["w1 vs w2 #0", "w1 vs w2 #1"]]
    assert "rewrite_store" not in set(honest["winner"].dropna())


def test_a_fork_bomb_is_held_at_the_engines_process_limit(attacked):
    """A pids control group (256 processes, root included) stops the bomb; its children die with its engine. A
    bomb stopped on its clock first reports nothing (test_sandbox.py holds one engine to the limit alone)."""
    _, out, _, _, _ = attacked
    with sqlite3.connect(out / "results.sqlite") as conn:
        made = [n for (n,) in conn.execute("SELECT nodes FROM moves WHERE participant = 'fork_bomb' AND nodes > 1")]
        timed = conn.execute("SELECT count(*) FROM games WHERE pairing_b = 'fork_bomb' AND termination = 'time'")
    assert (made or timed.fetchone()[0]) and all(n < 256 for n in made)


@pytest.mark.parametrize("attack", ATTACKS)
def test_the_rogue_alone_answers_for_its_attack(attacked, attack):
    _, out, _, _, _ = attacked
    results = Results(out)
    games = results.games.set_index("key")
    assert set(results.forfeits()["participant"]) <= set(ATTACKS)   # never w1, never w2
    mine = games.loc[[f"w1 vs {attack} #{i}" for i in (0, 1)]]
    terminations, reason = EXPECTED[attack]
    assert set(mine["termination"]) <= terminations, list(mine["reason"])
    forfeited = mine[mine["termination"] != "normal"]
    assert all(winner == "w1" for winner in forfeited["winner"])
    if reason is not None:
        assert all(reason in text for text in mine["reason"]), list(mine["reason"])


def test_a_huge_traceback_is_stored_capped_with_its_head_and_tail(attacked):
    """D14."""
    crashes = Results(attacked[1]).crashes().set_index("key")
    stored = crashes.loc["w1 vs huge_traceback #0", "traceback"]
    assert len(stored) < 70_000
    assert stored.startswith("Traceback (most recent call last):")
    assert stored.rstrip().endswith(" end of the message") and "characters cut] ..." in stored


def test_a_move_that_waits_is_stopped_at_its_wall_bound(tmp_path):
    """D10: CPU time judges a move; one that sleeps (uses none) is stopped after 3 x its limit + 5 s of wall time."""
    path = config_text(tmp_path, ("sleep",)).read_text().replace("move_time_limit: 1", "move_time_limit: 0.2")
    (tmp_path / "t.yaml").write_text(path)
    run_tournament(load_config(tmp_path / "t.yaml"), quiet=True)
    games = Results(tmp_path / "out").games.set_index("key")
    assert set(games.loc[["w1 vs sleep #0", "w1 vs sleep #1"], "termination"]) == {"time"}
    assert games.loc["w1 vs sleep #0", "reason"] == ("O (sleep) was stopped after 5.6s on one move (hard time limit "
                                                     "of wall time: it waited or was starved)")
    assert set(games.loc[["w1 vs w2 #0", "w1 vs w2 #1"], "termination"]) == {"normal"}


def test_void_games_are_replayed_on_resume(tmp_path):
    """D16: a void game has no result, so a resumed run plays it again."""
    path = config_text(tmp_path, ())
    run_tournament(load_config(path), quiet=True)
    reference = honest_games(tmp_path / "out")
    with sqlite3.connect(tmp_path / "out" / "results.sqlite") as conn:
        conn.execute("DELETE FROM moves WHERE key = 'w1 vs w2 #1'")
        conn.execute("UPDATE games SET termination = 'void', reason = 'no result: killed', plies = 0, "
                     "winner = NULL WHERE key = 'w1 vs w2 #1'")
    summary = run_tournament(load_config(path), quiet=True)
    assert (summary.resumed, summary.played) == (1, 1)
    assert honest_games(tmp_path / "out") == reference


def test_a_plugin_that_ends_its_worker_at_import_is_named(tmp_path, monkeypatch):
    """D19: the error names the plugins being loaded, not a task that never ran."""
    monkeypatch.setenv("PLYGROUND_TEST_EXIT_AT_IMPORT", "1")
    with pytest.raises(WorkerError, match=rf"a worker process exited with code 9 while loading the plugins .*"
                                          rf"{AGENTS.name}"):
        run_tournament(load_config(config_text(tmp_path, ())), quiet=True)
    assert workers_of(os.getpid()) == []


# -- store and command-line faults -------------------------------------------------------------------------


class FullDisk:
    """A connection whose writes fail as SQLite's do on a full disk."""

    def __init__(self, conn):
        self.conn = conn

    def __enter__(self):
        return self.conn.__enter__()

    def __exit__(self, *exc):
        return self.conn.__exit__(*exc)

    def execute(self, sql, *args):
        if sql.lstrip().upper().startswith(("INSERT", "DELETE", "UPDATE")):
            raise sqlite3.OperationalError("database or disk is full")
        return self.conn.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self.conn, name)


def test_a_full_disk_is_one_line_and_loses_nothing(tmp_path, monkeypatch, capsys):
    """D11."""
    path = config_text(tmp_path, ())
    run_tournament(load_config(path.with_name("t.yaml")), quiet=True)
    with sqlite3.connect(tmp_path / "out" / "results.sqlite") as conn:
        conn.execute("DELETE FROM moves WHERE key = 'w1 vs w2 #1'")
        conn.execute("DELETE FROM seats WHERE key = 'w1 vs w2 #1'")
        conn.execute("DELETE FROM games WHERE key = 'w1 vs w2 #1'")
    opened = Store.__init__

    def full(self, *args, **kwargs):
        opened(self, *args, **kwargs)
        self.conn = FullDisk(self.conn)

    monkeypatch.setattr(Store, "__init__", full)
    assert main(["run", str(path), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err == (f"plyground: error: cannot store 'w1 vs w2 #1' in '{tmp_path / 'out'}': the disk is full; nothing "
                   "stored before was lost; free some space and run the same command again\n")
    monkeypatch.undo()
    assert len(Results(tmp_path / "out").games) == 1


@pytest.mark.parametrize("damage", [b"not a database at all" * 100, b"SQLite format 3\x00" + b"\xff" * 4000])
def test_a_damaged_store_is_one_line_for_run_and_report(tmp_path, capsys, damage):
    """D12: a results file that is not a database, or a damaged one."""
    path = config_text(tmp_path, ())
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "results.sqlite").write_bytes(damage)
    for argv in (["run", str(path), "--quiet"], ["report", str(tmp_path / "out")]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1
        assert err.startswith(f"plyground: error: cannot use '{tmp_path / 'out'}' as a results folder: ")
        assert "nothing stored before was lost; restore it from a copy, or run into a new folder" in err
    assert (tmp_path / "out" / "results.sqlite").read_bytes() == damage


def test_report_reads_a_folder_it_cannot_write(tmp_path, monkeypatch, capsys):
    """D12: the summary from a read-only folder, and one line where the report cannot be written."""
    run_tournament(load_config(config_text(tmp_path, ())), quiet=True)
    out = tmp_path / "out"
    for extra in out.glob("results.sqlite-*"):
        extra.unlink()
    monkeypatch.setattr(store_module.os, "access", lambda path, mode: False)   # tests run as root: chmod is ignored
    assert len(Store(out, create=False).done()) == 2
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the report's folder would be")
    assert main(["report", str(out), "--out", str(blocked)]) == 2
    captured = capsys.readouterr()
    assert "w1" in captured.out and captured.err.count("\n") == 1
    assert captured.err.startswith(f"plyground: error: cannot write the report into '{blocked}'")
    assert captured.err.endswith("write it elsewhere with --out DIR\n")


def test_a_store_that_cannot_be_written_is_one_line():
    error = store_module.fault(sqlite3.OperationalError("attempt to write a readonly database"), Path("r"),
                               "run in 'r'")
    assert str(error) == ("cannot run in 'r': the folder is read-only; nothing stored before was lost; make it "
                          "writable, or name another folder (--results DIR)")
    assert isinstance(error, ConfigError)


@pytest.mark.parametrize(("argv", "message"), [
    (["perft", "pig", "3000", "--divide"], "perft DEPTH must be a positive integer (at most 64), got '3000'"),
    (["perft", "tictactoe", "٣"], "perft DEPTH must be a positive integer (at most 64), got '٣'"),
    (["serve", "--port", "٣"], "argument --port: expected an integer, got '٣'"),
    (["serve", "--port", "70000"], "argument --port: expected an integer from 0 to 65,535, got 70000"),
    (["play", "tictactoe", "--seed", "٣"], "argument --seed: expected an integer, got '٣'"),
])
def test_command_line_numbers_are_bounded_and_ascii(capsys, monkeypatch, argv, message):
    """D13: a usage error (argparse exits) or one line, never a traceback, a RecursionError or a server on port 3."""
    import uvicorn

    def serve(*args, **kwargs):
        raise AssertionError(f"the server started with {kwargs}")

    monkeypatch.setattr(uvicorn, "run", serve)
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    assert code == 2
    assert message in capsys.readouterr().err


def test_play_leaves_no_process_an_engine_started(capsys):
    """D4 for `plyground play`: the children each move started (their pids shown as the move's nodes) are gone."""
    assert main(["play", "tictactoe", "--first", "rogue:attack=double_fork", "--second", "rogue:attack=fork",
                 "--plugin", str(AGENTS), "--time", "1"]) == 0
    out = capsys.readouterr().out
    assert "Result:" in out
    started = [int(n) for n in re.findall(r"\(nodes (\d+),", out)]
    assert len(started) >= 2 and not [pid for pid in started if alive(pid)]
    assert workers_of(os.getpid()) == [] and not engines_of(os.getpid())
