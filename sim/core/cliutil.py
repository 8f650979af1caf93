"""CLI helpers shared by every game's commands."""
from __future__ import annotations

import contextlib
import functools
import json
import sys
from pathlib import Path
from typing import Any, Callable, Optional

import typer

from sim.core.outdir import OutDir, SimOutputError
from sim.errors import SimInputError


def fail(msg: str) -> None:
    """One ``error:`` line on stderr and exit code 2."""
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
        except SimOutputError as e:
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(1)

    return wrapper


def claim_out(out: Optional[Path], kind: str = "tables") -> Optional[OutDir]:
    """Check ``--out`` before any game is played (see :mod:`sim.core.outdir`); None when absent."""
    return None if out is None else OutDir.claim(out, kind)


def guard(od: Optional[OutDir]):
    """``with guard(od):`` around the work: an exception removes what the claim created."""
    return od if od is not None else contextlib.nullcontext()


def save_tables(od: Optional[OutDir], tables, man) -> Optional[str]:
    """Write the tables; the error message when writing failed after the games ran."""
    if od is None:
        return None
    from sim.core.output import write_tables

    try:
        write_tables(od, tables, man)
    except SimOutputError as e:
        return str(e)
    return None


def finish(write_error: Optional[str]) -> None:
    """After the summary was printed: a failed write is an error (exit 1)."""
    if write_error:
        typer.echo(f"error: {write_error}", err=True)
        raise typer.Exit(1)


def print_notes(con, df, key: str) -> None:
    """The ``note`` column of a leave-one-out table, one line per noted row."""
    notes = [(r[key], r["note"]) for r in df.iter_rows(named=True) if r["note"]]
    if notes:
        con.print("* notes:")
        for cid, note in notes:
            con.print(f"  {cid}: {note}", soft_wrap=True, markup=False, highlight=False)


def emit_json(obj: Any) -> None:
    """Print ``obj`` as one JSON line (numpy values converted)."""
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
