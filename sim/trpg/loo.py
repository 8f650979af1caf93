"""Leave one out for a TRPG scenario: every side's win rate with each character removed (T-9)."""
from __future__ import annotations

import copy
from typing import Any

import polars as pl

from sim.errors import SimInputError
from sim.trpg.enums import CF
from sim.trpg.sheets import Setup, compile_setup

SIDE_COLUMNS = ("win_rate", "ci_low", "ci_high", "delta")


def schema(sides: list[str]) -> dict[str, Any]:
    """Columns: removed, side, then ``<side>_win_rate / _ci_low / _ci_high / _delta`` per
    side in scenario order, draw_rate, draw_delta, games, note."""
    cols: dict[str, Any] = {"removed": pl.String, "side": pl.String}
    for s in sides:
        for c in SIDE_COLUMNS:
            cols[f"{s}_{c}"] = pl.Float64
    if sides:  # the primary rate's change (the first side's), with its paired interval
        cols[f"{sides[0]}_delta_ci_low"] = pl.Float64
        cols[f"{sides[0]}_delta_ci_high"] = pl.Float64
    cols.update({"draw_rate": pl.Float64, "draw_delta": pl.Float64, "games": pl.Int64, "note": pl.String})
    return cols


def without_character(cfg: dict, cid: str) -> dict:
    """A copy of the scenario tree without character ``cid``. Nothing else names a
    character by id (abilities belong to their sheet; strategies pick targets by rule;
    ``scenario.first`` names a side), so only its sheet goes."""
    out = copy.deepcopy(cfg)
    if cid not in out.get("characters", {}):
        raise SimInputError(f"unknown character {cid!r}")
    del out["characters"][cid]
    return out


def leave_one_out(games: int, seed: int = 0, *, scenario: Setup, **kw: Any) -> pl.DataFrame:
    """Each side's win rate (Wilson 95% CI, change vs the full scenario) and the draw rate
    with each character in sheet order removed. Same seed for every row (common random
    numbers); the first row, ``(none)``, is the full scenario. A character that is the
    last member of its side cannot be removed (a side needs a member): its row has a
    note and null numbers; so has a removal the scenario rejects. ``kw`` goes to
    :func:`sim.trpg.game.run`."""
    from sim.analysis.restrict import PairedBlocks
    from sim.core.game import get
    from sim.trpg.game import run

    sides = scenario.sides
    cols = schema(sides)
    rec = PairedBlocks(get("trpg").primary, games)  # every row on the full scenario's games
    first = sides[0]

    def measure(sc: Setup, name: str) -> dict[str, Any]:
        t = run(games, seed, scenario=sc, **kw, **rec.kw(name)).tables
        row = {f"{r['side']}_{c}": r[c] for r in t["sides"].iter_rows(named=True) for c in SIDE_COLUMNS[:3]}
        s = t["summary"].row(0, named=True)
        return {**row, "draw_rate": s["draw_rate"], "games": s["games"]}

    base = measure(scenario, "(none)")
    rows = [{"removed": "(none)", "side": "", **base, "draw_delta": 0.0, "note": "",
             **{f"{s}_delta": 0.0 for s in sides}, f"{first}_delta_ci_low": 0.0, f"{first}_delta_ci_high": 0.0}]
    side_of = [sides[int(scenario.nb.chars[i, CF.SIDE])] for i in range(scenario.n)]
    for i, cid in enumerate(scenario.ids):
        side = side_of[i]
        row: dict[str, Any] = {"removed": cid, "side": side, "note": ""}
        if side_of.count(side) == 1:
            row["note"] = f"{cid} is the only member of side {side!r}; a side needs at least one member"
            rows.append(row)
            continue
        try:
            sc2 = compile_setup(without_character(scenario.config, cid))
        except SimInputError as e:
            row["note"] = str(e)
            rows.append(row)
            continue
        m = measure(sc2, cid)
        row.update(m)
        for s in sides:
            row[f"{s}_delta"] = m[f"{s}_win_rate"] - base[f"{s}_win_rate"]
        _, row[f"{first}_delta_ci_low"], row[f"{first}_delta_ci_high"] = rec.delta("(none)", cid)
        row["draw_delta"] = m["draw_rate"] - base["draw_rate"]
        rows.append(row)
    return pl.DataFrame([{c: r.get(c) for c in cols} for r in rows], schema=cols)
