"""Time controls parse as fastchess and cutechess-cli write them, and a clock keeps time as they do."""

import pytest

from framework.errors import ConfigError
from framework.timecontrol import Clock, TimeControl, clock_text


@pytest.mark.parametrize("text, base, increment, moves", [
    ("10+0.1", 10.0, 0.1, None),
    ("1+0.01", 1.0, 0.01, None),
    ("60", 60.0, 0.0, None),
    ("40/60+0.6", 60.0, 0.6, 40),
    ("40/60", 60.0, 0.0, 40),
    ("1:30+1", 90.0, 1.0, None),
    ("2:00", 120.0, 0.0, None),
    ("0.5+0.005", 0.5, 0.005, None),
    (" 8+0.08 ", 8.0, 0.08, None),
])
def test_time_controls_parse_as_fastchess_writes_them(text, base, increment, moves):
    control = TimeControl.parse(text)
    assert (control.base, control.increment, control.moves) == (base, increment, moves)
    assert TimeControl.parse(str(control)) == control   # the text form round-trips


@pytest.mark.parametrize("text", ["", "10+", "+0.1", "-5+1", "0+0.1", "0/10+1", "10+0.1+1", "ten", "1:2:3", "inf",
                                  None, 10, "10 + 0.1"])
def test_a_bad_time_control_is_an_error_naming_the_key_and_the_syntax(text):
    with pytest.raises(ConfigError, match=r"^participants\[0\]\.time_control: ") as error:
        TimeControl.parse(text, "participants[0].time_control")
    assert "BASE+INC" in str(error.value) or "gives no time" in str(error.value)


def test_a_clock_adds_its_increment_after_each_move_and_loses_below_the_margin():
    clock = Clock(TimeControl(1.0, 0.1), margin=0.05)
    assert clock.message() == {"time": 1.0, "inc": 0.1}
    assert clock.spend(0.3) and clock.left == pytest.approx(0.8)
    assert clock.spend(0.84) and clock.left == pytest.approx(0.06)    # 0.04 below zero: within the margin
    assert not clock.spend(0.12)                                      # 0.06 below zero: lost on time


def test_a_period_refills_the_clock_after_its_moves():
    clock = Clock(TimeControl(60.0, 0.0, moves=2))
    assert clock.message()["movestogo"] == 2
    assert clock.spend(10.0) and clock.message()["movestogo"] == 1
    assert clock.spend(10.0) and clock.left == pytest.approx(100.0) and clock.message()["movestogo"] == 2


@pytest.mark.parametrize("seconds, text", [(0, "0:00:00.0"), (9.87, "0:00:09.8"), (61.5, "0:01:01.5"),
                                           (3723.46, "1:02:03.4"), (-0.2, "0:00:00.0")])
def test_clocks_read_as_pgn_clk_writes_them(seconds, text):
    assert clock_text(seconds) == text
