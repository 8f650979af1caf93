"""Rich progress bars for long runs (stderr, so ``--json`` stdout stays clean)."""
from __future__ import annotations

import sys
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


class _RateColumn(TextColumn):
    def __init__(self, label: str):
        super().__init__("")
        self.label = label

    def render(self, task):  # games/s, the figure designers care about
        speed = task.finished_speed or task.speed
        from rich.text import Text

        return Text(f"{speed:,.0f} {self.label}/s" if speed else "")


LONG_RUN = 200_000


def want_progress(n_games: int, quiet: bool = False) -> bool:
    """Show progress bars only for long runs and never with ``--json``."""
    return (not quiet) and n_games >= LONG_RUN and sys.stderr.isatty()


@contextmanager
def game_progress(total: int, *, enabled: bool, label: str = "games"):
    """A rich progress bar over games on stderr (a no-op when disabled)."""
    if not enabled:
        yield lambda n: None
        return
    console = Console(stderr=True)
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        _RateColumn(label),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    ) as prog:
        task = prog.add_task(label, total=total)
        yield lambda n: prog.advance(task, n)
