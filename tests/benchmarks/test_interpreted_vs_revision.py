"""The interpreted alpha-beta benchmark's rows: the node counts the interpreted twin of revision 078bb74 gave
(`python benchmarks/interpreted_vs_revision.py` printed them for both trees), so the comparison is like for like."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))

from interpreted_vs_revision import rows  # noqa: E402

#: Nodes per row at 078bb74 (and now): the benchmark's own check is that both trees agree.
NODES_AT_078BB74 = {
    "tictactoe to the end, default switches": 6_258, "tictactoe to the end, all off": 18_297,
    "matches depth 4, default switches": 340, "matches depth 4, all off": 272,
    "matches depth 6, default switches": 1_594, "matches depth 6, all off": 2_126,
    "matches depth 8, default switches": 5_311, "matches depth 8, all off": 17_904,
}


def test_every_row_visits_the_nodes_the_replaced_twin_visited():
    assert {row: nodes for row, (nodes, _, _) in rows(1).items()} == NODES_AT_078BB74
