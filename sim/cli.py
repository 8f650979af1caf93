"""The ``sim`` command: one sub-command group per game."""
from __future__ import annotations

import typer


app = typer.Typer(
    help="Monte Carlo balance analysis for Looper, Werewolf and the 3d6 TRPG.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _register() -> None:
    from sim.looper.cli import app as looper_app

    from sim.trpg.cli import app as trpg_app
    from sim.werewolf.cli import app as werewolf_app

    app.add_typer(looper_app, name="looper", help="The Looper loop game (rules: docs/rules/looper.md).")
    app.add_typer(werewolf_app, name="werewolf", help="The Werewolf museum variant (rules: docs/rules/werewolf.md).")
    app.add_typer(trpg_app, name="trpg", help="The 3d6 kaii TRPG (rules: docs/rules/trpg.md).")

    from sim.sweep.cli import compare_cmd, sweep_cmd

    app.command("sweep")(sweep_cmd)
    app.command("compare")(compare_cmd)

    from sim.analysis.cli import balance_cmd, report_cmd

    app.command("report")(report_cmd)
    app.command("balance")(balance_cmd)


_register()


def main() -> None:
    app()
