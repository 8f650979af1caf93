"""Competence on any table (issue 40): restricted play over setups drawn at random.

``sim ladder --competence`` checks the strongest tiers on the one table it is given; a
designer brings other tables. Here each game draws setups of its own
(:meth:`sim.core.game.Game.draw_setup`: Werewolf compositions and variants, TRPG
skirmishes from the shipped builds, weapons and items, Looper protagonists, rosters and
rule variants, race rules) and, for the named strategies, every optional ability of every
drawn setup is withheld in turn and paired against the full game on the same games
(:func:`sim.analysis.restrict.restricted_play`).

The intervals are *simultaneous*: with ``m`` abilities over all the drawn setups, each
interval is at level ``1 − 0.05 / m`` (Bonferroni), so "some ability's interval lies
below 0" is a 95% statement about the whole draw, not one of ``m`` chances to be unlucky.
The verdict is the ladder's (:func:`sim.analysis.restrict.competence_verdict`):
competent when every interval lies above −1 point, not competent when one lies below 0,
else inconclusive with about how many games per row would settle it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import polars as pl

from sim.core.game import Game
from sim.core.knobs import Spec
from sim.core.seeding import python_rng
from sim.errors import SimInputError

DRAW = 40          # spawn key of the draw of setups (the games use the seed itself)
FAMILY_LEVEL = 0.95
MAX_SETUPS = 1000


@dataclass
class DrawnCompetence:
    """Every ability of every drawn setup, the worst one and the verdict over all."""
    game: str
    strategies: dict[str, str]
    setups: list[str]
    games: int
    level: float                  # each interval's level (simultaneous: FAMILY_LEVEL over all)
    rows: pl.DataFrame            # one row per (setup, ability)
    verdict: str
    notes: list[str] = field(default_factory=list)

    @property
    def worst(self) -> dict | None:
        """The ability with the lowest value to its own side (None when no setup had one)."""
        if self.rows.height == 0:
            return None
        return self.rows.sort(["value_to_side", "value_ci_high"]).row(0, named=True)

    def to_json(self) -> dict:
        return {"game": self.game, "strategies": self.strategies, "setups": self.setups,
                "games_per_row": self.games, "interval_level": self.level, "family_level": FAMILY_LEVEL,
                "verdict": self.verdict, "competent": self.verdict == "competent", "worst": self.worst,
                "abilities": self.rows.to_dicts(), "notes": self.notes}


def draw_setups(game: Game, count: int, seed: int) -> list[tuple[str, dict]]:
    """``count`` setups of the game drawn from the seed (the same seed, the same tables)."""
    if not 1 <= count <= MAX_SETUPS:
        raise SimInputError(f"--setups must be 1 … {MAX_SETUPS}, got {count}")
    rng = python_rng(seed, DRAW)
    return [game.draw_setup(rng) for _ in range(count)]


def drawn_competence(game: Game, specs: Mapping[str, Spec], setups: Sequence[tuple[str, dict]], games: int,
                     seed: int, *, threads: int | None = None, progress=None) -> DrawnCompetence:
    """Restricted play of ``specs`` on each drawn setup; intervals simultaneous over all."""
    from sim.analysis.metagame import _cell
    from sim.analysis.restrict import restricted_play
    from sim.analysis.metagame_cli import _overall

    cells = []
    for label, tree in setups:
        _, (setup, strategies) = _cell(game, tree, *specs.values())
        cells.append((label, setup, strategies, len(game.abilities(setup, strategies))))
    m = sum(c[3] for c in cells)
    level = 1.0 - (1.0 - FAMILY_LEVEL) / max(1, m)
    frames = []
    for i, (label, setup, strategies, k) in enumerate(cells):
        if k:
            df = restricted_play(game, setup, strategies, games, seed, threads=threads, level=level)
            frames.append(df.filter(df["ability"] != "").with_columns(
                pl.lit(i).alias("setup_index"), pl.lit(label).alias("setup"),
                pl.lit(df["rate"][0]).alias("full_rate")))
        if progress is not None:
            progress()
    rows = pl.concat(frames) if frames else pl.DataFrame()
    notes = [] if m else [f"{game.name}: no drawn setup has an optional ability under these strategies"]
    verdict = _overall(rows.to_dicts()) if m else "no optional ability"
    return DrawnCompetence(game.name, {s: sp.label for s, sp in specs.items()}, [c[0] for c in cells], games,
                           level, rows, verdict, notes)
