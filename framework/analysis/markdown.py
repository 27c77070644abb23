"""Tables as people read them: rounded to one decimal, or as Markdown with thousands separators.

Every report (tournaments, solves, tunings, the reproductions) writes its tables through these two.
"""

from __future__ import annotations

import pandas as pd


def rounded(table: pd.DataFrame) -> pd.DataFrame:
    """`table` with its numbers to one decimal, for the terminal."""
    return table.round(1)


def markdown_table(table: pd.DataFrame, index: bool = False) -> str:
    """A Markdown table, numbers with thousands separators (whole-number columns without decimals)."""
    if not len(table):
        return "(none)"
    table = rounded(table).copy()
    align = []
    for column in table.columns:
        values = table[column]
        numeric = pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values)
        if numeric:
            whole = bool(((values.dropna() % 1) == 0).all())
            table[column] = values.map(
                lambda v, whole=whole: "" if pd.isna(v) else f"{v:,.0f}" if whole else f"{v:,.1f}")
        align.append("right" if numeric else "left")
    # disable_numparse: tabulate would read "1,234" back as a number and drop the separator
    return table.to_markdown(index=index, disable_numparse=True,
                             colalign=(["left"] if index else []) + align)
