"""The ``sim`` command: one sub-command group per game."""
from __future__ import annotations

import functools
import json
import sys
from typing import Any, Callable

import typer

from sim.errors import SimInputError

app = typer.Typer(
    help="Monte Carlo balance analysis for Looper, Werewolf and the 3d6 TRPG.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def fail(msg: str) -> None:
    typer.echo(f"error: {msg}", err=True)
    raise typer.Exit(2)


def clean_errors(fn: Callable) -> Callable:
    """Bad input → one line on stderr and exit code 2, never a traceback."""

    @functools.wraps(fn)
    def wrapper(*a: Any, **kw: Any):
        try:
            return fn(*a, **kw)
        except SimInputError as e:
            fail(str(e))

    return wrapper


def emit_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, default=_jsonable, ensure_ascii=False) + "\n")


def _jsonable(o: Any):
    import numpy as np

    if isinstance(o, np.integer):
        return int(o)
    if isinstance(o, np.floating):
        return float(o)
    if isinstance(o, np.ndarray):
        return o.tolist()
    return str(o)


def _register() -> None:
    from sim.looper.cli import app as looper_app

    from sim.trpg.cli import app as trpg_app
    from sim.werewolf.cli import app as werewolf_app

    app.add_typer(looper_app, name="looper", help="The Looper loop game (shared/rules/looper.md).")
    app.add_typer(werewolf_app, name="werewolf", help="The Werewolf museum variant (shared/rules/werewolf.md).")
    app.add_typer(trpg_app, name="trpg", help="The 3d6 kaii TRPG (shared/rules/trpg.md).")


_register()


def main() -> None:
    app()
