"""CLI helpers shared by every game's commands."""
from __future__ import annotations

import functools
import json
import sys
from typing import Any, Callable

import typer

from sim.errors import SimInputError


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
