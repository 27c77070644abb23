"""The report of a tuning run: final values, θ's trajectory and running score, and the validation match.

`plyground report` and the workbench's results page read a `mode: tune` folder through TuneReport: the `tuning`
table as stored, the final values beside their start and bounds, and the validation match of the tuned values
against the start values with its SPRT verdict, beside the games and moves its `Results` holds.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from framework.analysis import plots
from framework.analysis.markdown import markdown_table
from framework.analysis.tables import Results
from framework.protocols import Budget
from framework.sprt import Sprt
from framework.tournament.entries import Participant
from framework.tournament.store import Store
from framework.tournament.tune import TunedParam, TuneSettings, Validation
from framework.tuning.runner import unchanged_play, validation_line

TRAJECTORY = "trajectory.png"


def settings(config: dict) -> TuneSettings:
    """The `tune` section as stored in a results folder's resolved config."""
    tune = config["tune"]
    agent = Participant(tune["agent"]["id"], tune["agent"]["agent"], tune["agent"]["params"],
                        Budget(**tune["agent"]["budget"]))
    validate = tune.get("validate")
    if validate is not None:
        validate = Validation(validate["games"], None if validate["sprt"] is None else Sprt(**validate["sprt"]))
    return TuneSettings(agent, tuple(TunedParam(**p) for p in tune["parameters"]), tune["iterations"],
                        tune["batch"], validate)


class TuneReport:
    """The stored tuning of one results folder."""

    def __init__(self, results: Results) -> None:
        self.results = results
        self.config = results.config
        self.tune = settings(self.config)
        store = Store(results.folder, create=False)
        try:
            self.tuning = pd.read_sql_query("SELECT * FROM tuning ORDER BY iteration, parameter", store.conn)
            self.validation = validation_line(store.conn, self.tune) if self.tune.validate else None
            done = self.tuning["iteration"].nunique()
            self.warning = unchanged_play(store.conn, self.tune) if done >= min(10, self.tune.iterations) else None
        finally:
            store.close()

    @property
    def iterations(self) -> int:
        return int(self.tuning["iteration"].nunique())

    def final(self) -> pd.DataFrame:
        """Each parameter: start, θ after the last stored iteration, bounds, and the last perturbation size."""
        last = self.tuning[self.tuning["iteration"] == self.tuning["iteration"].max()].set_index("parameter")
        rows = []
        for p in self.tune.parameters:
            tuned = float(last.loc[p.name, "value"]) if p.name in last.index else p.start
            as_played = int if p.integer else float   # an integer parameter's values are integers (not -28.000000)
            rows.append({"parameter": p.name, "start": as_played(p.start),
                         "tuned": round(tuned) if p.integer else float(f"{tuned:.6g}"), "theta": float(f"{tuned:.6g}"),
                         "min": as_played(p.min), "max": as_played(p.max),
                         "c_last": float(f"{abs(last.loc[p.name, 'perturbation']):.4g}") if p.name in last.index
                         else None})
        return pd.DataFrame(rows, dtype=object)   # object: one row's floats do not turn another's integers float

    def tables(self) -> dict[str, pd.DataFrame]:
        return {"final": self.final(), "tuning": self.tuning, **self.results.tables()}

    def lines(self) -> list[str]:
        """The terminal summary."""
        name, agent = self.config["name"], self.tune.agent.agent
        lines = [f"{name}: SPSA tuning of agent '{agent}' on {self.config['game']}, {self.iterations} of "
                 f"{self.tune.iterations} iterations (a colour-swapped game pair each)", "",
                 "Final values (tuned: as played, integers rounded; theta: SPSA's real-valued estimate)",
                 self.final().to_string(index=False)]
        lines += [""] + [line for line in (self.validation, self.warning and f"warning: {self.warning}") if line]
        return lines

    def write(self, folder: Path) -> Path:
        """report.md, the trajectory plot and every table as CSV (in tables/) into `folder`."""
        folder.mkdir(parents=True, exist_ok=True)
        self.results.export(folder / "tables", tables=self.tables())
        if len(self.tuning):
            plots.tuning_trajectory(self.tuning, folder / TRAJECTORY)
        validate = self.tune.validate
        validation = (f"## Validation\n\nThe tuned values against the start values, at most {validate.games} games "
                      f"in colour-swapped pairs{', stopped by the SPRT' if validate.sprt else ''}:\n\n"
                      f"{self.validation}\n" if validate else "")
        warning = f"\n**Warning:** {self.warning}\n" if self.warning else ""
        text = f"""# {self.config['name']}

SPSA tuning of agent `{self.tune.agent.agent}` on {self.config['game']}:
{self.iterations} of {self.tune.iterations} iterations, each one colour-swapped game pair of θ + c_kΔ_k against
θ − c_kΔ_k, {self.tune.batch} iteration(s) per batch, seed {self.config['seed']}. Gains as fishtest sets them
(A = 10% of the iterations, α = 0.602, γ = 0.101): c_end and r_end are c_k and a_k / c_k² at the last
iteration.

## Final values

`tuned` is the value as played (integers rounded), `theta` SPSA's estimate, `c_last` the last perturbation.

{markdown_table(self.final())}
{warning}
![trajectory]({TRAJECTORY})

Top: θ after each iteration and the band ±c_k it probed. Bottom: the running score of the higher probe (the
pair's wins minus losses of θ + c_kΔ_k, signed by Δ_k, mean of the last 50 iterations): above 0 larger values
won more; it drifts to 0 when θ sits at an optimum, or when the parameter hardly matters.

{validation}
Per-iteration values: `tables/tuning.csv` (iteration, parameter, value, perturbation, plus, minus, score).
"""
        path = folder / "report.md"
        path.write_text(text, encoding="utf-8")
        return path
