"""Rich progress for sweeps: cells done, games/s, ETA (stderr; off for --json or no tty)."""
from __future__ import annotations

import time
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn


@contextmanager
def sweep_progress(total_cells: int, already: int, *, enabled: bool):
    """A rich progress bar over cells and games (a no-op when disabled)."""
    if not enabled:
        yield lambda games: None
        return
    t0 = time.perf_counter()
    played = {"games": 0}
    with Progress(TextColumn("[bold]cells"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as prog:
        task = prog.add_task("cells", total=total_cells, completed=already, rate="")

        def advance(games: int) -> None:
            played["games"] += games
            rate = played["games"] / max(time.perf_counter() - t0, 1e-9)
            prog.update(task, advance=1, rate=f"{rate:,.0f} games/s")
        yield advance
