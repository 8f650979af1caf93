"""The ``[[targets]]`` of a balance spec (sim.analysis.balance_targets): each a cell of the
skill ladder — ``"equilibrium"`` or a fixed pair of strategies — and its band, checked when
the spec loads (sim.analysis.balance imports this, not the search, so the two do not import
each other)."""
from __future__ import annotations

from dataclasses import dataclass

from sim.core.schema import ANY, check_keys
from sim.core.target import Target, band_of as _target
from sim.errors import SimInputError

TARGET_SCHEMA = {"cell": ANY, "band": ANY}


@dataclass
class CellTarget:
    """One target: a cell of the ladder (fixed strategies, or ``equilibrium``) and its band."""
    label: str
    band: Target
    strategies: dict[str, str] | None   # None: the grown equilibrium

    @property
    def aim(self) -> float:
        return (self.band.low + self.band.high) / 2


def parse_targets(spec) -> list[CellTarget]:
    """The spec's ``[[targets]]``, checked (cells, sides, strategy names and knobs, bands)."""
    from sim.analysis.metagame import parse_tier, two_sides

    raw = spec.raw.get("targets")
    if not isinstance(raw, list) or not raw:
        raise SimInputError("targets: expected [[targets]] tables, each with cell and band")
    game = spec.protocol
    base = game.base_cell(spec.base, spec.spec_dir)
    sides = two_sides(game, game.compile_cell(base)[0])
    out, seen = [], set()
    for i, t in enumerate(raw):
        where = f"targets.{i}"
        if not isinstance(t, dict):
            raise SimInputError(f"{where}: expected a table with cell and band")
        check_keys({"targets": t}, {"targets": TARGET_SCHEMA}, "balance spec")
        if "cell" not in t or "band" not in t:
            raise SimInputError(f"{where}: give cell (\"equilibrium\" or {{ {sides[0]} = \"NAME\", {sides[1]} = "
                                f"\"NAME\" }}) and band (\"LOW:HIGH\")")
        try:
            band = _target(t["band"])
        except SimInputError as e:
            raise SimInputError(f"{where}.band: {e}") from None
        cell = t["cell"]
        if cell == "equilibrium":
            label, strategies = "equilibrium", None
        elif isinstance(cell, dict) and set(cell) == set(sides) and all(isinstance(v, str) for v in cell.values()):
            for s in sides:
                parse_tier(game, s, cell[s])  # names and knobs checked now, before any game
            strategies = {s: cell[s] for s in sides}
            label = ", ".join(f"{s}={cell[s]}" for s in sides)
        else:
            raise SimInputError(f"{where}.cell: expected \"equilibrium\" or {{ {sides[0]} = \"NAME\", "
                                f"{sides[1]} = \"NAME\" }} (both sides), got {cell!r}")
        if label in seen:
            raise SimInputError(f"{where}: the cell {label} has a target already")
        seen.add(label)
        out.append(CellTarget(label, band, strategies))
    return out


__all__ = ["CellTarget", "TARGET_SCHEMA", "parse_targets"]
