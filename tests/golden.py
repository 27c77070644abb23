"""A golden set as one test: every case of the set is checked, and every case that fails is reported together,
as a table in the failure message, instead of one test item per case.

`assert_each_equal(cases, pair)` compares `got == expected` for each case (`pair(case)` returns both) and lists
the fields that differ; `assert_each_holds(cases, check)` runs `check(case)`, a function of plain `assert`
statements, and lists the first line of each failed assertion. An exception other than a failed assertion is a
row of the table too, so one broken case never hides the others.
"""

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import pytest

Case = TypeVar("Case")

#: A cell of the table is cut to this many characters; the test's own assertion shows the full values.
CELL = 70
#: At most this many rows are printed (the count of failed cases is always whole).
ROWS = 60


def cell(value: Any, width: int = CELL) -> str:
    text = value if isinstance(value, str) else repr(value)
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 3] + "..."


def differences(got: Any, expected: Any, path: str = "", depth: int = 2) -> list[tuple[str, Any, Any]]:
    """(field, got, expected) for each field that differs, sequences and mappings opened `depth` levels deep."""
    if got == expected:
        return []
    if depth > 0 and isinstance(got, Mapping) and isinstance(expected, Mapping):
        return [row for key in sorted({*got, *expected}, key=repr)
                for row in differences(got.get(key, "<missing>"), expected.get(key, "<missing>"),
                                       f"{path}.{key}" if path else str(key), depth - 1)]
    if (depth > 0 and isinstance(got, Sequence) and isinstance(expected, Sequence) and len(got) == len(expected)
            and not isinstance(got, str) and not isinstance(expected, str)):
        return [row for i, (g, e) in enumerate(zip(got, expected))
                for row in differences(g, e, f"{path}[{i}]", depth - 1)]
    return [(path or "(whole)", got, expected)]


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(header[c]), *(len(row[c]) for row in rows)) for c in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        return " | ".join(text.ljust(width) for text, width in zip(cells, widths)).rstrip()
    return "\n".join([line(header), "-+-".join("-" * width for width in widths)] + [line(row) for row in rows])


def report(what: str, total: int, failed: int, header: Sequence[str], rows: list[list[str]], verb: str) -> None:
    if failed:
        shown = rows[:ROWS] + ([["...", f"{len(rows) - ROWS} more rows"] + [""] * (len(header) - 2)]
                               if len(rows) > ROWS else [])
        pytest.fail(f"{failed} of {total} {what} {verb}:\n{table(header, shown)}", pytrace=False)


def raised(error: BaseException) -> str:
    return f"raised {type(error).__name__}: {error}"


def assert_each_equal(cases: Iterable[Case], pair: Callable[[Case], tuple[Any, Any]], *,
                      what: str = "cases", expected: str = "expected") -> None:
    """For every case, `got, want = pair(case)` and `got == want`; otherwise fail with a table of the cases and
    fields that differ (`expected` names the right-hand column: "recorded", "interpreted", ...)."""
    rows: list[list[str]] = []
    total = failed = 0
    for case in cases:
        total += 1
        try:
            got, want = pair(case)
        except Exception as error:                  # noqa: BLE001  (reported in the table with the others)
            failed += 1
            rows.append([cell(case), "", cell(raised(error)), ""])
            continue
        if got != want:
            failed += 1
            rows += [[cell(case), field, cell(g), cell(e)] for field, g, e in differences(got, want)]
    report(what, total, failed, ["case", "field", "got", expected], rows, "differ")


def assert_each_holds(cases: Iterable[Case], check: Callable[[Case], None], *, what: str = "cases") -> None:
    """`check(case)` for every case; fail with a table of each case whose check failed, and its first line."""
    rows: list[list[str]] = []
    total = 0
    for case in cases:
        total += 1
        try:
            check(case)
        except AssertionError as error:
            rows.append([cell(case), cell(str(error).splitlines()[0] if str(error) else "assert failed", 2 * CELL)])
        except Exception as error:                  # noqa: BLE001  (reported in the table with the others)
            rows.append([cell(case), cell(raised(error), 2 * CELL)])
    report(what, total, len(rows), ["case", "failure"], rows, "fail")
