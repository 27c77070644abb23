"""An earlier revision of Plyground checked out beside this one, for benchmarks that compare the two in one run."""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def worktree(revision: str) -> Iterator[Path]:
    """`revision` in a temporary git worktree (detached), removed afterwards: run its code with PYTHONPATH set
    to the path this yields and the working directory there."""
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder) / revision
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree), revision], check=True)
        try:
            yield tree
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=True)
