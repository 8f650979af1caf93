"""Role and ability values by substitution (``sim GAME values``).

The value of a special role is what it brings over its team's *plain* role: fenrir against
a plain werewolf, the seer against a plain villager. The value of an ability is what it
brings over its neutral value: fenrir's drag against drag 0, the hati's mark against no
mark, a TRPG character's pistol against no pistol. Leave-one-out ("the seat removed",
``sim GAME loo``) answers another question: it takes the seat away from its team (fenrir's
seat given to the village), so it mixes the role's value with the value of a seat.

A game lists its changes (:meth:`sim.core.game.Game.changes`: each a :class:`Change`,
role substitutions first, then abilities at their neutral values) and builds each variant
(:meth:`~sim.core.game.Game.change`). Every variant plays the same games as the table as
given (same seed, same streams: common random numbers), so each value is a paired
difference with a 95% interval from per-block differences (:class:`PairedBlocks`).

A value is in *points* (a difference of rates × 100) and is signed for the holder's side:
positive when the side does better with the role or ability than without it. The rate
measured is the game's primary rate (the first side's win rate); for another side its
value is the primary rate's fall, which equals that side's gain where draws do not move.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import polars as pl

from sim.analysis.restrict import PairedBlocks
from sim.core.stats import wilson
from sim.errors import SimInputError, did_you_mean

KINDS = ("role", "ability")


@dataclass(frozen=True)
class Change:
    """One counterfactual of ``values``: ``kind`` "role" (replaced by its team's plain role)
    or "ability" (switched to its neutral value, the holder kept); ``side``: whose value it
    is; ``said``: what the variant is, in words ("fenrir replaced by a plain werewolf")."""
    name: str
    kind: str
    holder: str
    side: str
    said: str


SCHEMA = {"tier": pl.String, "change": pl.String, "kind": pl.String, "holder": pl.String, "side": pl.String,
          "said": pl.String, "games": pl.Int64, "rate": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64,
          "delta": pl.Float64, "delta_ci_low": pl.Float64, "delta_ci_high": pl.Float64,
          "value": pl.Float64, "value_ci_low": pl.Float64, "value_ci_high": pl.Float64,
          "value_points": pl.Float64, "value_ci_low_points": pl.Float64, "value_ci_high_points": pl.Float64,
          "delta_points": pl.Float64, "note": pl.String}


def select(changes: list[Change], only: list[str] | None) -> list[Change]:
    """The changes named by ``--only`` (all when empty); an unknown name names the closest."""
    if not only:
        return changes
    names = [c.name for c in changes]
    for o in only:
        if o not in names:
            raise SimInputError(f"--only {o!r}: not a change of this table{did_you_mean(o, names)}; "
                                f"changes are {', '.join(names)}")
    return [c for c in changes if c.name in only]


def values(game, setup: Any, strategies: Mapping[str, Any], games: int, seed: int, *, tier: str = "",
           only: list[str] | None = None, threads: int | None = None) -> pl.DataFrame:
    """One row for the table as given (``change`` = "(none)"), then one per change, each on
    the same games. ``delta`` is the primary rate's change (variant − as given, a fraction);
    ``value`` the same change read for the holder's side (with − without), ``value_points``
    it × 100."""
    changes = game.changes(setup, strategies)
    if not changes:
        raise SimInputError(f"{game.name}: this setup has no special role or ability to value")
    if only:  # names checked by the caller against every tier's changes: a tier lacking one skips it
        changes = [c for c in changes if c.name in only]
    rec = PairedBlocks(game.primary, games)
    game.run(setup, strategies, games, seed, threads=threads, tables=False, **rec.kw("(none)"))
    s0, n0 = rec.totals("(none)")
    lo, hi = wilson(s0, n0)
    sides = game.sides_of(setup)
    first = sides[0] if sides else ""
    rows = [{"tier": tier, "change": "(none)", "kind": "", "holder": "", "side": "", "said": "the table as given",
             "games": n0, "rate": s0 / n0, "ci_low": lo, "ci_high": hi, "delta": 0.0, "delta_ci_low": 0.0,
             "delta_ci_high": 0.0, "delta_points": 0.0, "note": ""}]
    for c in changes:
        try:
            st, strat = game.change(setup, strategies, c.name)
        except SimInputError as e:  # a variant the rules reject (a side left empty, …): said, not played
            rows.append({"tier": tier, "change": c.name, "kind": c.kind, "holder": c.holder, "side": c.side,
                         "said": c.said, "games": 0, "note": str(e)})
            continue
        game.run(st, strat, games, seed, threads=threads, tables=False, **rec.kw(c.name))
        d, dlo, dhi = rec.delta("(none)", c.name)
        s1, _ = rec.totals(c.name)
        lo, hi = wilson(s1, n0)
        # with − without: the primary rate falls without what serves the first side
        sign = -1.0 if (not first or c.side == first or c.side not in sides) else 1.0
        v, vlo, vhi = sign * d, *sorted((sign * dlo, sign * dhi))
        rows.append({"tier": tier, "change": c.name, "kind": c.kind, "holder": c.holder, "side": c.side,
                     "said": c.said, "games": n0, "rate": s1 / n0, "ci_low": lo, "ci_high": hi, "delta": d,
                     "delta_ci_low": dlo, "delta_ci_high": dhi, "value": v, "value_ci_low": vlo,
                     "value_ci_high": vhi, "value_points": 100 * v, "value_ci_low_points": 100 * vlo,
                     "value_ci_high_points": 100 * vhi, "delta_points": 100 * d, "note": ""})
    return pl.DataFrame([{k: r.get(k) for k in SCHEMA} for r in rows], schema=SCHEMA)


def _label(game, sides: tuple[str, ...]) -> str:
    """The measured rate in words, by the first side's name where the game knows it only per setup."""
    if sides:
        return game.label({"sides": pl.DataFrame({"side": [sides[0]]})})
    return game.label()


def points(x: float | None, signed: bool = True) -> str:
    """A fraction as points with one decimal (+33.7); "—" for a missing value."""
    if x is None or x != x:
        return "—"
    return f"{100 * x:+.1f}" if signed else f"{100 * x:.1f}"


def print_values(con, df: pl.DataFrame, game, tiers: list[str], games: int, seed: int, header: str,
                 sides: tuple[str, ...] = ()) -> None:
    """The points table: one row per change (every tier's, in order of first appearance), one
    value column per tier; several tiers get short column names and a legend below."""
    from rich.table import Table

    t = Table(title=f"{game.name}: values by substitution — {header}; {games:,} games per row"
                    f"{' and tier' if len(tiers) > 1 else ''}, every row on the same games (paired 95% CI); value = "
                    f"points the holder's side gains with it ({_label(game, sides)})")
    t.add_column("change", no_wrap=True)
    t.add_column("what the variant is", overflow="fold")
    t.add_column("for", no_wrap=True)
    short = [f"tier {chr(65 + i)}" if len(tiers) > 1 else "value, points (95% CI)" for i in range(len(tiers))]
    for name in short:
        t.add_column(name, justify="right", no_wrap=True)
    by = {(r["tier"], r["change"]): r for r in df.iter_rows(named=True)}
    t.add_row("(none)", "the table as given: its rate", "", *[f"{100 * b['rate']:.2f}% ({100 * b['ci_low']:.2f}–"
                                                         f"{100 * b['ci_high']:.2f})"
                                                         for b in (by[(tier, "(none)")] for tier in tiers)])
    t.add_section()
    first = {}
    for r in df.iter_rows(named=True):
        if r["change"] != "(none)":
            first.setdefault(r["change"], r)
    kind = None
    for r in sorted(first.values(), key=lambda r: KINDS.index(r["kind"]) if r["kind"] in KINDS else len(KINDS)):
        if kind is not None and r["kind"] != kind:
            t.add_section()
        kind = r["kind"]
        cells = []
        for tier in tiers:
            x = by.get((tier, r["change"]))
            cells.append("—" if x is None else f"not played: {x['note']}" if x["note"] else
                         f"{points(x['value'])} ({points(x['value_ci_low'])} … {points(x['value_ci_high'])})")
        t.add_row(r["change"], r["said"], r["side"], *cells)
    con.print(t)
    if len(tiers) > 1:
        for name, tier in zip(short, tiers):
            con.print(f"  {name}: {tier}", soft_wrap=True, highlight=False, markup=False)
        con.print("  —: the change does not exist under that tier (e.g. claims under strategies that never speak)",
                  highlight=False)
