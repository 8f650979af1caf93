"""Event logs of the batch kernels, and the ``--find`` conditions of ``sim GAME trace``.

A trace is the batch kernel itself playing one game with a log: every kernel function
that reports an event takes a ``log`` argument and calls :func:`emit_nb`. The batch run
passes ``None``; numba compiles that specialisation with every ``emit_nb`` a no-op (the
overload below returns an empty body for ``NoneType``), so batch speed is unchanged and
a trace cannot drift from the batch: it *is* the batch kernel, run on games K … K.

A log is an int64 array ``(capacity, WIDTH)``; row 0 holds ``[rows used, overflowed]``,
each later row one event ``[code, a, b, c, d, e, f, g]`` whose meaning each game's
``sim/<game>/trace.py`` decodes (with the rule id that caused it).
"""
from __future__ import annotations

import operator
import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np
from numba import types
from numba.extending import overload

from sim.errors import SimInputError, did_you_mean

WIDTH = 8            # code + 7 arguments
CAPACITY = 1 << 18   # events per game (a 200-day Werewolf stalemate of 9,550 runoffs logs 50,000+); more is reported as cut


def emit_nb(log, code, a=0, b=0, c=0, d=0, e=0, f=0, g=0):
    """Append one event to ``log`` (nothing when ``log`` is None)."""
    if log is None:
        return
    n = log[0, 0]
    if n >= log.shape[0]:
        log[0, 1] = 1
        return
    row = log[n]
    row[0] = code
    row[1] = a
    row[2] = b
    row[3] = c
    row[4] = d
    row[5] = e
    row[6] = f
    row[7] = g
    log[0, 0] = n + 1


# Not inline="always": numba's IR inlining of this overload let its dead-code pass drop
# the caller's stores into refcount-free arrays (sim.core.nrt.unmanaged_nb) — a TRPG
# combat's battle table stopped changing. A plain call of an empty function is inlined
# (and removed) by LLVM instead, so the batch still pays nothing.
@overload(emit_nb)
def _emit_ov(log, code, a=0, b=0, c=0, d=0, e=0, f=0, g=0):
    if isinstance(log, (types.NoneType, types.Omitted)):
        def nothing(log, code, a=0, b=0, c=0, d=0, e=0, f=0, g=0):
            return None
        return nothing

    def record(log, code, a=0, b=0, c=0, d=0, e=0, f=0, g=0):
        n = log[0, 0]
        if n >= log.shape[0]:
            log[0, 1] = 1
            return None
        log[n, 0] = code
        log[n, 1] = a
        log[n, 2] = b
        log[n, 3] = c
        log[n, 4] = d
        log[n, 5] = e
        log[n, 6] = f
        log[n, 7] = g
        log[0, 0] = n + 1
        return None
    return record


def new_log(capacity: int = CAPACITY) -> np.ndarray:
    """An empty log (row 0 is its header)."""
    log = np.zeros((capacity, WIDTH), np.int64)
    log[0, 0] = 1
    return log


def log_rows(log: np.ndarray) -> tuple[np.ndarray, bool]:
    """(the event rows, whether the log overflowed)."""
    return log[1:int(log[0, 0])].copy(), bool(log[0, 1])


@dataclass
class Trace:
    """One game as events (dicts with ``event``, ``rule``, ``group``, ``text`` and fields)
    and its result (a dict with ``winner`` and the keys ``--find`` can test)."""

    game: int
    events: list[dict] = field(default_factory=list)
    result: dict = field(default_factory=dict)
    cut: bool = False  # the log overflowed: later events are missing (the result is whole)


# ----------------------------------------------------------------------------- --find
_OPS = {">=": operator.ge, "<=": operator.le, "!=": operator.ne, "=": operator.eq, ">": operator.gt,
        "<": operator.lt}
_COND = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(>=|<=|!=|=|>|<)\s*(.+?)\s*$")


@dataclass(frozen=True)
class Condition:
    key: str
    op: str
    value: str

    def holds(self, result: Mapping[str, Any]) -> bool:
        have = result[self.key]
        if isinstance(have, (list, tuple, set, frozenset)):  # died=cat: cat is among them
            inside = self.value in {str(x) for x in have}
            if self.op == "=":
                return inside
            if self.op == "!=":
                return not inside
            have = len(have)  # died>=2: how many
        if isinstance(have, bool) or not isinstance(have, (int, float)):
            if self.op not in ("=", "!="):
                raise SimInputError(f"--find {self}: {self.key!r} is not a number; use = or !=")
            return _OPS[self.op](str(have).lower(), self.value.lower())
        try:
            want = float(self.value)
        except ValueError:
            raise SimInputError(f"--find {self}: {self.key!r} is a number, got {self.value!r}") from None
        return _OPS[self.op](have, want)

    def __str__(self) -> str:
        return f"{self.key}{self.op}{self.value}"


def parse_find(text: str, keys: Sequence[str]) -> list[Condition]:
    """``winner=village,rounds>=20`` → conditions (all must hold); an unknown key is an
    error naming the closest of ``keys``."""
    conds = []
    for part in [p for p in text.split(",") if p.strip()]:
        m = _COND.match(part)
        if not m:
            raise SimInputError(f"--find {part.strip()!r}: expected KEY=VALUE, KEY>=N, KEY<N, … "
                                f"(keys: {', '.join(keys)})")
        key, op, value = m.groups()
        if key not in keys:
            hint = did_you_mean(key, keys)
            raise SimInputError(f"--find: unknown key {key!r}{hint}; keys are {', '.join(keys)}")
        conds.append(Condition(key, op, value))
    if not conds:
        raise SimInputError("--find: give a condition such as winner=…")
    return conds


def matches(result: Mapping[str, Any], conds: Sequence[Condition]) -> bool:
    return all(c.holds(result) for c in conds)


def print_trace(trace: Trace, console, header: str, *, verbose: bool = False) -> None:
    """One line an event, grouped (``loop 1 · day 2``, ``day 3 · night``, ``round 4``),
    each line ending in the rule that caused it, and under a decision the reason its
    strategy stated (``reason_text``, :mod:`sim.core.reasons`); then the result. Events marked
    ``detail`` (a Looper day's stress changes, which its board sums up) only with ``verbose``."""
    from rich.markup import escape

    console.print(header)
    group = None
    for ev in trace.events:
        if ev.get("detail") and not verbose:
            continue
        if ev.get("group") != group:
            group = ev.get("group")
            console.print(f"[bold]{escape(str(group))}[/bold]")
        rule = f"  [dim]({escape(ev['rule'])})[/dim]" if ev.get("rule") else ""
        console.print(f"  {escape(ev['text'])}{rule}", soft_wrap=True)
        if ev.get("reason_text"):
            console.print(f"    [dim]why: {escape(ev['reason_text'])}[/dim]", soft_wrap=True)
    if trace.cut:
        console.print(f"[yellow]the log filled up at {len(trace.events):,} events; later events are left out[/yellow]")
    res = ", ".join(f"{k}={_show(v)}" for k, v in trace.result.items())
    console.print(f"[bold]result[/bold]: {escape(res)}")


def _show(v: Any) -> str:
    if isinstance(v, (list, tuple)):
        return "[" + " ".join(map(str, v)) + "]"
    return str(v)


def trace_lines(trace: Trace, seed: int) -> list[dict]:
    """The JSON lines of a trace: its events, then the result (``event = "result"``)."""
    return [*trace.events, {"event": "result", "game": trace.game, "seed": seed, "cut": trace.cut, **trace.result}]
