"""Fuzzing every text parser: whatever is typed or written, only Plyground's own errors come out.

Each registered game's `from_text` and `parse_move`, the YAML reader, `NAME:key=value` options and
the tournament loader get thousands of inputs per run: arbitrary text, and valid texts with a few
characters inserted, deleted or replaced (digits of other scripts, separators, NUL, very long
numbers). Accepted positions must round-trip; accepted moves must be legal. Hypothesis runs
derandomized (the same examples on every run, so CI is reproducible) with a deadline per example,
so a parser that hangs on some input fails here.
"""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from framework.agentspec import parse_agent_spec
from framework.errors import PlygroundError
from framework.registry import Registry
from framework.safeyaml import load_yaml
from framework.tournament.config import load_config

#: Slow (tests/conftest.py): the fuzzers.
pytestmark = pytest.mark.slow

#: Examples per parser and per game; deadline per example in milliseconds.
EXAMPLES = 1500
FUZZ = settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=1000,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

#: Characters that mean something to some parser, look like one (other scripts' digits, '²'), or break one.
PIECES = list("0123456789-x:,./ |KkHBWbwXOoa=kh{}[]&*!#'\"\n\t") + [
    "²", "٣", "١٢", "\x00", "ß", "İ", "\u2028", "9" * 25, "9" * 5000, ": ", "- ", "!!float ", "!!int 0x",
    "&a ", "*a", "<<: "]


def mutate(text: str, edits: list[tuple[int, int, str]]) -> str:
    """`text` with each edit applied: (position, 0 insert / 1 delete / 2 replace, piece)."""
    for position, kind, piece in edits:
        i = position % (len(text) + 1)
        if kind == 0:
            text = text[:i] + piece + text[i:]
        elif kind == 1:
            text = text[:i] + text[i + 1:]
        else:
            text = text[:i] + piece + text[i + len(piece):]
    return text


def inputs(valid: list[str]) -> st.SearchStrategy[str]:
    """Arbitrary text, and mutations of the valid texts."""
    edits = st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 2), st.sampled_from(PIECES)),
                     min_size=1, max_size=6)
    return st.one_of(st.text(max_size=200), st.builds(mutate, st.sampled_from(valid), edits))


REGISTRY = Registry(autoload=True)
GAMES = sorted(REGISTRY.games)


def sample_states(game, count: int = 12) -> list:
    """The start and the positions of a seeded random game: the seeds of the mutations."""
    rng = random.Random(0)
    state = game.initial_state()
    states = [state]
    while len(states) < count and not game.is_terminal(state):
        state = game.apply(state, rng.choice(list(game.legal_moves(state))))
        states.append(state)
    return states


@pytest.mark.parametrize("name", GAMES)
def test_from_text_raises_only_position_errors(name):
    game = REGISTRY.create_game(name)
    valid = [game.to_text(s) for s in sample_states(game)]

    @FUZZ
    @given(inputs(valid))
    def check(text: str) -> None:
        try:
            state = game.from_text(text)
        except PlygroundError:
            return
        assert game.from_text(game.to_text(state)) == state

    check()


@pytest.mark.parametrize("name", GAMES)
def test_parse_move_raises_only_move_errors(name):
    game = REGISTRY.create_game(name)
    states = [s for s in sample_states(game) if not game.is_terminal(s)]
    valid = [game.format_move(s, m) for s in states for m in list(game.legal_moves(s))[:5]]

    @FUZZ
    @given(st.sampled_from(states), inputs(valid))
    def check(state, text: str) -> None:
        try:
            move = game.parse_move(state, text)
        except PlygroundError:
            return
        assert move in game.legal_moves(state)

    check()


TOURNAMENTS = [p.read_text() for p in sorted((Path(__file__).parents[2] / "tournaments").glob("*.yaml"))]


@FUZZ
@given(inputs(TOURNAMENTS))
def test_the_yaml_reader_raises_only_config_errors(text):
    try:
        load_yaml(text, "fuzz.yaml")
    except PlygroundError:
        pass


@FUZZ
@given(inputs(["alphabeta:depth=3,heuristic=lines", "mcts:exploration=1.4,playout=heuristic", "pns:fallback=random",
               "matches:heaps=[3,5,7],k=3"]))
def test_agent_specs_raise_only_config_errors(text):
    try:
        parse_agent_spec(text, "--first")
    except PlygroundError:
        pass


SMALL = textwrap.dedent("""\
    name: fuzz
    game: tictactoe
    seed: 1
    games_per_pairing: 4
    move_time_limit: 5
    workers: 1
    participants:
      - {id: ab, agent: alphabeta, params: {depth: 2, heuristic: lines, tt_size: 1000}}
      - {id: mm, agent: minimax, params: {depth: 1}, budget: {time: 1, nodes: 100}}
      - id: mc
        agent: mcts
        params: {iterations: 10, exploration: 1.4}
    """)
MATCHES = SMALL.replace("game: tictactoe", "game: {name: matches, options: {heaps: [3, 5], k: 2}}") \
    .replace(", heuristic: lines", "")


@pytest.fixture(scope="module")
def tournament_file(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz") / "t.yaml"


@FUZZ
@given(text=inputs([SMALL, MATCHES]))
def test_the_tournament_loader_raises_only_its_own_errors(tournament_file, text):
    tournament_file.write_text(text, encoding="utf-8")
    try:
        load_config(tournament_file, REGISTRY)
    except PlygroundError:
        pass
