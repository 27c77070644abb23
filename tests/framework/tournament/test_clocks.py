"""Games on a clock: the referee keeps each side's clock from the engine's CPU time, every built-in search manages
its time from the clock it is given, a side whose clock runs out loses on time, and the clock left after every
move is in the store, the JSONL record and the PGN (`[%clk]`)."""

import json
import textwrap
from pathlib import Path

from framework.analysis.tables import Results
from framework.cli import main
from framework.tournament.config import load_config
from framework.tournament.runner import run_tournament

FIXTURES = Path(__file__).with_name("fixture_agents.py")


def run(tmp_path, participants: str, game: str = "tictactoe", **extra) -> Results:
    settings = "".join(f"{key}: {value}\n" for key, value in extra.items())
    path = tmp_path / "t.yaml"
    path.write_text(textwrap.dedent(f"""\
        game: {game}
        games_per_pairing: 2
        seed: 3
        workers: 2
        plugins: [{FIXTURES}]
        results: {tmp_path / 'out'}
        """) + settings + "participants:\n" + textwrap.indent(textwrap.dedent(participants), "  "))
    run_tournament(load_config(path), quiet=True)
    return Results(tmp_path / "out")


def test_searches_on_a_clock_keep_within_it_and_the_clock_is_recorded(tmp_path):
    results = run(tmp_path, """\
        - {id: ab, agent: alphabeta, params: {depth: 64}}
        - {id: mm, agent: minimax}
        """, time_control="'2+0.05'")
    games = results.games
    assert set(games["termination"]) == {"normal"}   # neither search lost on time
    moves = results.moves[results.moves["mover"] >= 0]
    assert moves["clock"].notna().all()
    for _, mine in moves.groupby(["key", "participant"]):
        clocks = mine.sort_values("ply")["clock"].tolist()
        spent = mine.sort_values("ply")["cpu_time"].tolist()
        left = 2.0
        for clock, cpu in zip(clocks, spent):   # what the referee charged: the engine's CPU time, then the increment
            left = left - cpu + 0.05
            assert abs(clock - left) < 1e-4


def test_a_side_whose_clock_runs_out_loses_on_time(tmp_path):
    results = run(tmp_path, """\
        - {id: rnd, agent: random}
        - {id: slow, agent: hanger, time_control: "0.3+0"}
        """)
    forfeits = results.forfeits()
    assert list(forfeits["participant"]) == ["slow", "slow"]
    assert set(forfeits["termination"]) == {"time"}
    assert all("lost on time: it used its 0.300s left and the 0.05s margin on one move" in reason
               for reason in forfeits["reason"]), list(forfeits["reason"])


def test_clocks_appear_in_jsonl_and_in_pgn(tmp_path, capsys):
    run(tmp_path, """\
        - {id: a, agent: random, time_control: "40/5+0.1"}
        - {id: b, agent: random}
        """)
    assert main(["export", str(tmp_path / "out"), "--format", "jsonl"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.strip()]
    for record in lines:
        timed = [m for m in record["moves"] if m["clock"] is not None]
        assert timed and all(m["clock"] > 5.0 for m in timed)   # a's moves: 5 s, plus 0.1 per move, minus little
        assert all(m["clock"] is None for m in record["moves"] if m not in timed)   # b has no clock
    assert main(["export", str(tmp_path / "out"), "--format", "pgn"]) == 0
    pgn = capsys.readouterr().out
    assert "{[%clk 0:00:05." in pgn
    from framework.records import parse_pgn
    parsed = parse_pgn(pgn)
    assert any(m.clock is not None and m.clock > 5.0 for record in parsed for m in record.moves)


def test_a_time_control_is_validated_naming_its_key(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text(textwrap.dedent(f"""\
        game: tictactoe
        results: {tmp_path / 'out'}
        participants:
          - {{id: a, agent: random, time_control: "ten minutes"}}
          - {{id: b, agent: random}}
        """))
    import pytest

    from framework.errors import ConfigError
    with pytest.raises(ConfigError, match=r"t.yaml: participants\[0\]\.time_control: expected a time control as "
                                          r"fastchess writes it"):
        load_config(path)
