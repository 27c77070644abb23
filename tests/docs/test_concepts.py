"""The concepts page names every word a first run prints or a tournament file uses, and the thesis the
project reproduces; the README names the thesis too."""

import re

from tests.docs.examples import ROOT

THESIS = ('Mark H.M. Winands, *Informed Search in Complex Games*, PhD thesis,\nUniversiteit Maastricht, 2004')


def _defined(text: str) -> set[str]:
    return {word.lower() for word in re.findall(r"\*\*([\w -]+?)\*\*", text)}


def test_the_concepts_page_defines_the_words_of_a_first_run():
    text = (ROOT / "docs" / "guide" / "concepts.md").read_text()
    assert {"agent", "game", "heuristic", "tournament", "pairing", "pair", "ratings", "participants", "state",
            "node", "budget", "pentanomial", "los", "solve"} <= _defined(text)


def test_the_concepts_page_names_the_thesis_and_its_table():
    text = " ".join((ROOT / "docs" / "guide" / "concepts.md").read_text().split())
    assert " ".join(THESIS.split()) in text
    assert "**Table 4.2** compares alpha-beta with proof-number search as solvers of 488 Lines of Action endgame" \
        in text


def test_the_readme_names_the_thesis():
    text = " ".join((ROOT / "README.md").read_text().split())
    assert "Mark H.M. Winands, *Informed Search in Complex Games*, PhD thesis, Universiteit Maastricht, 2004" in text
    assert "Table 4.2" in text
