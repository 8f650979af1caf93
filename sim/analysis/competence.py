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

*Tuned on each table* (``tune``: the sides to tune): knobs tuned on one table are not a
skilled player's on another (the TRPG kaii's alley-tuned cover costs them 95 points on a
drawn skirmish), so before its abilities are withheld each drawn setup gets its own
tuning — each named side's family searched by ``sim tune`` (TPE, common random numbers,
the winner re-measured on fresh games) against the other side, in the order named (a later
side meets the earlier one's tuned knobs); the tuned knobs are kept when they beat the
family's defaults on the fresh games, else the given strategy stays. Each row names the
strategies it was measured under.
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
    tuned: list[dict] = field(default_factory=list)   # per setup: each tuned side's result (tune=)

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
                "abilities": self.rows.to_dicts(), "notes": self.notes,
                **({"tuned_per_setup": self.tuned} if self.tuned else {})}


def draw_setups(game: Game, count: int, seed: int) -> list[tuple[str, dict]]:
    """``count`` setups of the game drawn from the seed (the same seed, the same tables)."""
    if not 1 <= count <= MAX_SETUPS:
        raise SimInputError(f"--setups must be 1 … {MAX_SETUPS}, got {count}")
    rng = python_rng(seed, DRAW)
    return [game.draw_setup(rng) for _ in range(count)]


def tune_on_setup(game: Game, tree: dict, specs: Mapping[str, Spec], sides: Sequence[str], *, budget: int,
                  games: int, seed: int, threads: int | None = None) -> tuple[dict[str, Spec], dict]:
    """``specs`` with each of ``sides`` tuned on this setup (in order; see the module
    docstring): (the specs to play, {side: what the tuning found})."""
    from sim.analysis.tune import tune
    from sim.core.knobs import tunable_knobs

    out, found = dict(specs), {}
    for side in sides:
        if not tunable_knobs(game.strategy(side, out[side].name)):
            raise SimInputError(f"--tune {side}: {side}'s strategy {out[side].name!r} has no knobs to tune")
        r = tune(game, tree, side, out[side].name, {s: sp for s, sp in out.items() if s != side}, budget=budget,
                 games=games, seed=seed, threads=threads)
        gain = (r.tuned_rate - r.baseline_rate) * (1 if r.maximise else -1)
        keep = gain > 0
        if keep:
            out[side] = r.spec
        found[side] = {"strategy": out[side].label, "tuned": r.spec.label, "gain_over_defaults": gain, "kept": keep,
                       "games": r.games}
    return out, found


def drawn_competence(game: Game, specs: Mapping[str, Spec], setups: Sequence[tuple[str, dict]], games: int,
                     seed: int, *, threads: int | None = None, progress=None, tune: Sequence[str] = (),
                     tune_budget: int = 20, tune_games: int = 2000) -> DrawnCompetence:
    """Restricted play of ``specs`` on each drawn setup; intervals simultaneous over all.
    ``tune``: sides whose knobs are tuned on each setup first (the module docstring)."""
    from sim.analysis.metagame import _cell
    from sim.analysis.restrict import restricted_play
    from sim.analysis.metagame_cli import _overall

    unknown = [s for s in tune if s not in specs]
    if unknown or len(set(tune)) < len(tune):
        raise SimInputError(f"--tune {(unknown or list(tune))[0]}: expected each of the sides "
                            f"{', '.join(specs)} at most once")
    cells, tuned = [], []
    for label, tree in setups:
        played = specs
        if tune:
            played, found = tune_on_setup(game, tree, specs, tune, budget=tune_budget, games=tune_games, seed=seed,
                                          threads=threads)
            tuned.append(found)
        _, (setup, strategies) = _cell(game, tree, *played.values())
        cells.append((label, setup, strategies, len(game.abilities(setup, strategies)),
                      "; ".join(f"{s}={sp.label}" for s, sp in played.items())))
    m = sum(c[3] for c in cells)
    level = 1.0 - (1.0 - FAMILY_LEVEL) / max(1, m)
    frames = []
    for i, (label, setup, strategies, k, names) in enumerate(cells):
        if k:
            df = restricted_play(game, setup, strategies, games, seed, threads=threads, level=level)
            frames.append(df.filter(df["ability"] != "").with_columns(
                pl.lit(i).alias("setup_index"), pl.lit(label).alias("setup"),
                pl.lit(df["rate"][0]).alias("full_rate"), pl.lit(names).alias("strategies")))
        if progress is not None:
            progress()
    rows = pl.concat(frames) if frames else pl.DataFrame()
    notes = [] if m else [f"{game.name}: no drawn setup has an optional ability under these strategies"]
    verdict = _overall(rows.to_dicts()) if m else "no optional ability"
    return DrawnCompetence(game.name, {s: sp.label for s, sp in specs.items()}, [c[0] for c in cells], games,
                           level, rows, verdict, notes, tuned)
