"""`plyground play` runs engines under the runner's guard: no hang, no silent end, the reason and traceback shown."""

from pathlib import Path

import pytest

from framework.cli import main

AGENTS = Path(__file__).parent / "tournament" / "fault_agents.py"


def play(capsys, second, *extra):
    code = main(["play", "tictactoe", "--plugin", str(AGENTS), "--first", "random", "--second", second, *extra])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


@pytest.mark.parametrize("fault, result", [
    ("hang", ("Result: X (random) wins — time: O (faulty:fault=hang) was stopped after 1.4s on one move "
              "(hard time limit)")),
    ("sys_exit", ("Result: X (random) wins — crash: O (faulty:fault=sys_exit) crashed: it called sys.exit "
                  "(exit code 3)")),
    ("exit_midgame", ("Result: X (random) wins — crash: O (faulty:fault=exit_midgame) crashed: its engine "
                      "exited with code 5 while choosing a move")),
])
def test_a_hung_or_exiting_engine_forfeits_with_the_reason(capsys, fault, result):
    out = play(capsys, f"faulty:fault={fault}", "--time", "0.2")
    assert result in out


@pytest.mark.parametrize("fault, reason", [
    ("exit_init", "its engine exited with code 3 while getting ready for a game"),
    ("sys_exit_init", "it called sys.exit (exit code 4)"),
    ("raise_init", "ZeroDivisionError: the agent divides by zero"),
])
def test_an_engine_that_cannot_be_built_is_a_one_line_error_naming_it(capsys, fault, reason):
    code = main(["play", "tictactoe", "--plugin", str(AGENTS), "--first", "random",
                 "--second", f"faulty:fault={fault}"])
    assert code == 2
    assert capsys.readouterr().err == (f"plyground: error: --second 'faulty:fault={fault}': the agent could not be "
                                       f"built: {reason}\n")


def test_a_crashing_engines_traceback_is_shown(capsys):
    out = play(capsys, "faulty:fault=raise")
    assert "crash: O (faulty:fault=raise) crashed: RuntimeError: deliberate crash\nTraceback (most recent" in out
    assert 'raise RuntimeError("deliberate crash")' in out


def test_an_honest_engine_in_its_worker_keeps_its_state_between_moves(capsys):
    """The same seed gives the same game as the agent built once in-process (its generator carries on)."""
    from framework.match import play_game
    from framework.registry import Registry

    registry = Registry()
    game = registry.create_game("tictactoe", {})
    agents = [registry.create_agent("random", game, {}, seed=s) for s in (0, 1)]
    expected = [f"{m.ply}. {game.player_names[m.mover]} plays {m.move}" for m in play_game(game, agents).moves]
    out = main(["play", "tictactoe", "--first", "random", "--second", "random"]), capsys.readouterr().out
    assert [line for line in out[1].splitlines() if " plays " in line] == expected


def test_an_engine_killed_by_a_signal_forfeits_a_kill_from_outside_cannot_be_told_apart(capsys):
    """Its own SIGKILL, or an operator's: the referee cannot tell them apart, so it is the engine's crash (an OOM
    kill the kernel reports is the exception: docs/guide/engine-protocol.md)."""
    out = play(capsys, "faulty:fault=killed")
    assert ("Result: X (random) wins — crash: O (faulty:fault=killed) crashed: its engine was killed by signal "
            "SIGKILL while choosing a move") in out


def test_a_coach_runs_guarded_and_one_that_crashes_gives_no_verdict(capsys):
    out = play(capsys, "random", "--coach", "faulty:fault=raise", "--max-plies", "2")
    verdicts = [line for line in out.splitlines() if line.startswith("   coach: ")]
    assert len(verdicts) == 2
    assert all(line.endswith(": no verdict — the coach crashed: RuntimeError: deliberate crash") for line in verdicts)


def test_a_person_cannot_coach(capsys):
    code = main(["play", "tictactoe", "--first", "random", "--second", "random", "--coach", "human"])
    assert code == 2
    assert capsys.readouterr().err == ("plyground: error: --coach 'human' is a person at the keyboard; a coach is an "
                                       "agent that searches\n")
