"""Fault injection: one bad agent costs only its own games, and no death of the runner or a worker changes results.

Every kind of bad agent (fault_agents.py) plays a gauntlet against an honest random agent, beside a
random-vs-random pairing: the run completes, every game is stored exactly once, the culprit and only
the culprit forfeits (a death from outside is void, never a loss). Every kind of death of the runner
(SIGINT, SIGTERM, SIGKILL) or of a worker (SIGKILL) followed by a resume gives the games, moves and
winners of an uninterrupted run.
"""

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from framework.analysis.tables import Results
from framework.errors import ConfigError
from framework.tournament.config import load_config
from framework.tournament.runner import folder_lock, run_tournament

AGENTS = Path(__file__).with_name("fault_agents.py")
FIXTURES = Path(__file__).with_name("fixture_agents.py")
sys.path.insert(0, str(AGENTS.parent))
from fault_agents import KINDS  # noqa: E402

pytestmark = pytest.mark.slow   # tournaments run end to end (the quick subset leaves them out)

#: kind -> (termination of its games, text its forfeit reason contains); None: it plays honestly.
EXPECTED = {
    "raise": ("crash", "crashed: RuntimeError: deliberate crash"),
    "hang": ("time", "was stopped after 1s on one move (hard time limit)"),
    "illegal": ("illegal_move", "played an illegal move 99999"),
    "non_move": ("invalid_output", "instead of a Decision"),
    "bad_stats": ("invalid_output", "SearchStats.depth must be an integer from -9223372036854775808 to 2**63-1"),
    "unpicklable_stats": ("invalid_output", "SearchStats.extra cannot be stored (TypeError: cannot pickle"),
    "exit_init": ("crash", "crashed when created: its engine exited with code 3 while getting ready for a game"),
    "sys_exit_init": ("crash", "crashed when created: it called sys.exit (exit code 4)"),
    "exit_midgame": ("crash", "crashed: its engine exited with code 5 while choosing a move"),
    "sys_exit": ("crash", "crashed: it called sys.exit (exit code 3)"),
    "segfault": ("crash", "crashed: its engine was killed by signal SIGSEGV while choosing a move"),
    "memory": ("crash", "crashed: MemoryError"),
    "prints": None,
    "killed": ("crash", "crashed: its engine was killed by signal SIGKILL while choosing a move"),
}


def write(folder: Path, text: str) -> Path:
    path = folder / "t.yaml"
    path.write_text(textwrap.dedent(text))
    return path


@pytest.fixture(scope="module")
def gauntlet(tmp_path_factory):
    """Every bad agent against `rnd`, and `rnd` against the honest `rnd2`, two games each, on two workers."""
    folder = tmp_path_factory.mktemp("faults")
    bad = "".join(f"\n          - {{id: {kind}, agent: faulty, params: {{fault: {kind}}}}}" for kind in KINDS)
    path = write(folder, f"""\
        game: tictactoe
        format: gauntlet
        champion: rnd
        move_time_limit: 1
        workers: 2
        plugins: [{AGENTS}]
        results: {folder / 'out'}
        participants:
          - {{id: rnd, agent: random}}
          - {{id: rnd2, agent: random}}""" + bad + "\n")
    summary = run_tournament(load_config(path), quiet=True)
    return summary, folder / "out"


def test_every_bad_agents_tournament_completes_with_every_game_stored_once(gauntlet):
    summary, out = gauntlet
    assert assert_total(summary) == 2 * (len(KINDS) + 1)
    with sqlite3.connect(out / "results.sqlite") as conn:
        keys = [k for (k,) in conn.execute("SELECT key FROM games")]
        per_game = dict(conn.execute("SELECT key, plies FROM games"))
        moves = dict(conn.execute("SELECT key, count(*) FROM moves GROUP BY key"))
    assert len(keys) == len(set(keys)) == summary.total
    assert all(moves.get(key, 0) == plies for key, plies in per_game.items())
    assert (summary.retried, summary.void) == (0, 0)   # its own signal is the `killed` agent's forfeit


def assert_total(summary):
    assert summary.played == summary.total and summary.resumed == 0
    return summary.total


@pytest.mark.parametrize("kind", KINDS)
def test_the_culprit_and_only_the_culprit_forfeits(gauntlet, kind):
    results = Results(gauntlet[1])
    games = results.games.set_index("key")
    forfeits = results.forfeits()
    assert set(forfeits["participant"]) <= set(KINDS) - {"prints"}   # never rnd, never rnd2
    assert set(games.loc[[f"rnd vs rnd2 #{i}" for i in (0, 1)], "termination"]) <= {"normal"}
    mine = forfeits[forfeits["participant"] == kind]
    expected = EXPECTED[kind]
    if expected is None:
        assert len(mine) == 0 and set(games.loc[[f"rnd vs {kind} #{i}" for i in (0, 1)], "termination"]) == {"normal"}
    elif expected[0] == "void":
        assert len(mine) == 0 and kind not in set(results.standings().query("games > 0")["participant"])
        void = results.void.set_index("key")
        for i in (0, 1):
            assert void.loc[f"rnd vs {kind} #{i}", "reason"].startswith(expected[1])
    else:
        assert sorted(mine["key"]) == [f"rnd vs {kind} #0", f"rnd vs {kind} #1"]   # as first and as second player
        assert set(mine["termination"]) == {expected[0]}
        assert all(expected[1] in reason for reason in mine["reason"]), list(mine["reason"])


def test_a_raising_agents_traceback_is_stored_and_reported(gauntlet, capsys):
    from framework.cli import main

    crashes = Results(gauntlet[1]).crashes().set_index("key")
    assert crashes.loc["rnd vs raise #0", "traceback"].rstrip().endswith("RuntimeError: deliberate crash")
    assert 'raise RuntimeError("deliberate crash")' in crashes.loc["rnd vs raise #0", "traceback"]
    assert crashes.loc["rnd vs exit_init #0", "traceback"] == ""   # a dead process leaves none
    assert main(["report", str(gauntlet[1])]) == 0
    out = capsys.readouterr().out
    assert "Crashes (with the agent's traceback where it raised):" in out
    assert 'raise RuntimeError("deliberate crash")' in out
    report = (gauntlet[1] / "report.md").read_text()
    assert "## Crashes" in report and "```\nTraceback (most recent call last):" in report


# -- deaths of the runner and its workers --------------------------------------------------------------

SLOW = """\
    game: tictactoe
    games_per_pairing: 6
    workers: 2
    plugins: [{fixtures}]
    results: {out}
    participants:
      - {{id: a, agent: sleepy, params: {{delay: 0.04}}}}
      - {{id: b, agent: sleepy, params: {{delay: 0.04}}}}
      - {{id: c, agent: random}}
    """
TOTAL = 18


def outcome(out: Path) -> tuple[list, list]:
    """What must not depend on interruptions: each game's players, result and moves (times excluded)."""
    with sqlite3.connect(out / "results.sqlite") as conn:
        games = conn.execute("SELECT key, first, second, winner, termination, reason, plies, final FROM games "
                             "ORDER BY key").fetchall()
        moves = conn.execute("SELECT key, ply, participant, move, nodes FROM moves ORDER BY key, ply").fetchall()
    return games, moves


def stored(out: Path) -> int:
    try:
        with sqlite3.connect(out / "results.sqlite") as conn:
            return conn.execute("SELECT count(*) FROM games").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


def children(pid: int) -> set[int]:
    """The processes whose parent is `pid` (from /proc)."""
    out = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.add(int(entry))
    return out


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def start_run(path: Path) -> subprocess.Popen:
    """`plyground run` as a user starts it: with SIGINT's default action, whatever an earlier test (or the
    shell that started pytest) left ignored here, since an ignored SIGINT is inherited."""
    return subprocess.Popen([sys.executable, "-m", "framework.cli", "run", str(path), "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def wait_for(condition, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    folder = tmp_path_factory.mktemp("reference")
    path = write(folder, SLOW.format(fixtures=FIXTURES, out=folder / "out"))
    run_tournament(load_config(path), quiet=True)
    return outcome(folder / "out")


@pytest.mark.parametrize("death", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
def test_a_runner_killed_part_way_resumes_to_the_uninterrupted_results(tmp_path, reference, death):
    out = tmp_path / "out"
    path = write(tmp_path, SLOW.format(fixtures=FIXTURES, out=out))
    proc = start_run(path)
    wait_for(lambda: stored(out) >= 3)
    workers = children(proc.pid)
    proc.send_signal(death)
    proc.communicate(timeout=30)
    assert proc.returncode == (-signal.SIGKILL if death == signal.SIGKILL else 130)
    assert 3 <= stored(out) < TOTAL
    wait_for(lambda: not any(alive(pid) for pid in workers), 5.0)   # no orphan searches on
    summary = run_tournament(load_config(path), quiet=True)
    assert summary.resumed + summary.played == TOTAL and summary.resumed >= 3
    assert outcome(out) == reference


def test_a_worker_killed_from_outside_is_replayed_and_changes_nothing(tmp_path, reference):
    out = tmp_path / "out"
    path = write(tmp_path, SLOW.format(fixtures=FIXTURES, out=out))
    proc = start_run(path)
    wait_for(lambda: stored(out) >= 2 and children(proc.pid))
    os.kill(min(children(proc.pid)), signal.SIGKILL)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 0, stderr
    assert "1 replays of games whose worker was killed from outside; 0 stored void" in stdout
    assert outcome(out) == reference
    with sqlite3.connect(out / "results.sqlite") as conn:
        assert conn.execute("SELECT sum(retries) FROM games").fetchone()[0] == 1


def test_a_worker_in_a_long_move_dies_with_a_killed_runner(tmp_path):
    path = write(tmp_path, f"""\
        game: tictactoe
        move_time_limit: 600
        plugins: [{FIXTURES}]
        results: {tmp_path / 'out'}
        participants: [{{id: a, agent: hanger}}, {{id: b, agent: hanger}}]
        """)
    proc = start_run(path)
    wait_for(lambda: children(proc.pid))
    workers = children(proc.pid)
    time.sleep(0.5)   # the worker is in its move
    proc.kill()
    proc.communicate(timeout=30)
    wait_for(lambda: not any(alive(pid) for pid in workers), 5.0)


def test_a_second_run_on_the_same_folder_is_refused(tmp_path):
    path = write(tmp_path, f"""\
        game: tictactoe
        results: {tmp_path / 'out'}
        participants: [{{id: a, agent: random}}, {{id: b, agent: random}}]
        """)
    config = load_config(path)
    refused = rf"'{tmp_path / 'out'}' is in use by another 'plyground run' \(it holds .*run.lock\); wait for that run"
    with folder_lock(tmp_path / "out"), pytest.raises(ConfigError, match=refused):
        run_tournament(config, quiet=True)
    assert run_tournament(config, quiet=True).played == 2   # the lock goes with the run that held it
