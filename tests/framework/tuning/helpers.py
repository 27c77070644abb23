"""Shared by the tuning tests: a tuning file around the toy agents, and an in-process executor."""

import textwrap
from dataclasses import replace
from pathlib import Path

from framework.tournament.config import load_config
from framework.tournament.tasks import WorkerContext

TOY = Path(__file__).with_name("toy_agents.py")


class InlineExecutor:
    """Runs tasks in this process; `left`: a one-item list of the results it may still give before it raises
    KeyboardInterrupt (an interruption), shared by the executors of one run."""

    def __init__(self, left=None):
        self.left = left
        self.context = WorkerContext()   # its engines serve every call, as a worker's do

    def results(self, tasks):
        for task in tasks:
            if self.left is not None:
                if self.left[0] == 0:
                    raise KeyboardInterrupt
                self.left[0] -= 1
            yield task.run(self.context, lambda limit, progress: None)

    def close(self):
        self.context.close()


def interrupted_after(games):
    """An executor factory whose executors stop the run after `games` games in all."""
    left = [games]
    return lambda config: InlineExecutor(left)


def toy_file(tmp_path, *, seed=1, agent="peaked", parameters="{x: {start: 10, min: 0, max: 100, c_end: 8, r_end: 0.1}}",
             iterations=300, extra="", name="tune.yaml"):
    """A tuning of a toy agent on matches (heaps 5, 7, 9) after 2 random plies; `extra`: more keys of `tune`."""
    path = tmp_path / name
    path.write_text(textwrap.dedent(f"""\
        mode: tune
        game: {{name: matches, options: {{heaps: [5, 7, 9]}}}}
        seed: {seed}
        plugins: [{TOY}]
        opening: {{random_plies: 2}}
        results: {tmp_path / 'out'}
        tune:
          agent: {{agent: {agent}}}
          parameters: {parameters}
          iterations: {iterations}
        """) + textwrap.indent(textwrap.dedent(extra), "  "))
    return path


def load(path, **changes):
    return replace(load_config(path), **changes)
