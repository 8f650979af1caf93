"""``sim report`` and ``sim balance``."""
from __future__ import annotations

from pathlib import Path

import typer

from sim.core.cliutil import clean_errors, emit_json


@clean_errors
def report_cmd(
    dataset: Path = typer.Argument(..., help="A sweep dataset (--out root or sweep=… dir) or a run's --out dir."),
    out: Path = typer.Option(Path("report"), "--out", help="Directory for index.html and the PNG figures."),
    as_json: bool = typer.Option(False, "--json", help="Print the page and figures as JSON."),
):
    """A static HTML page with figures: win rate per parameter with CI bands, heatmaps,
    tornado chart, matchup matrix, death/elimination causes, game length."""
    from sim.analysis.report import report

    page, figs = report(dataset, out)
    if as_json:
        emit_json({"page": str(page), "figures": [{"file": str(page.parent / f.file), "caption": f.caption}
                                                   for f in figs]})
        return
    typer.echo(f"report: {page} ({len(figs)} figures)")
    for f in figs:
        typer.echo(f"  {f.file:14s} {f.caption}")
