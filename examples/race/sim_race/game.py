"""Run many race games: strategies, the chunked runner, summary tables."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

import numpy as np
import polars as pl

from sim.core.runner import DEFAULT_CHUNK, GameResult, run_games
from sim.core.seeding import run_key
from sim.core.stats import wilson
from sim_race.config import Setup, build_config, compile_setup
from sim_race.enums import SIDES, C, P
from sim_race.game_nb import chunk_kernel, new_counts
from sim_race.strategies import STRATEGIES, RaceStrategy


@dataclass(kw_only=True)
class RaceResult(GameResult):
    setup: Setup
    p1: str
    p2: str

    def to_json(self) -> dict[str, Any]:
        row = self.summary.row(0, named=True)
        row["players"] = self.tables["players"].to_dicts()
        return row


def strategy(s: str | RaceStrategy) -> RaceStrategy:
    return s if isinstance(s, RaceStrategy) else STRATEGIES.get(s)


def run(games: int, seed: int = 0, *, p1: str | RaceStrategy = "random", p2: str | RaceStrategy = "random",
        setup: Setup | None = None, config=None, sets: Iterable[str] = (), threads: int | None = None,
        chunk_size: int = DEFAULT_CHUNK, progress: bool = False, spawn: tuple[int, ...] = (),
        start: int = 0, on_chunk=None, tables: bool = True) -> RaceResult:
    """Games ``[start, start + games)`` of the run with root ``seed`` (sub-run ``spawn``)."""
    setup = setup or compile_setup(build_config(config, list(sets)))
    s1, s2 = strategy(p1), strategy(p2)
    kernel = chunk_kernel(s1, s2)
    key = run_key(seed, *spawn)
    rules = setup.nb
    res = run_games(games, lambda: new_counts(rules),
                    lambda start, count, out: kernel(key, start, count, rules, out, None),
                    chunk_size=chunk_size, threads=threads, progress=progress, start=start, on_chunk=on_chunk)
    r = RaceResult(setup=setup, seed=seed, p1=s1.name, p2=s2.name, totals=res.totals, seconds=res.seconds)
    if tables:
        r.tables = summary_tables(r)
    return r


def primary(totals) -> tuple[int, int]:
    """(player 1's wins, games) of a totals dict or one chunk's counts."""
    sc = totals["scalars"]
    return int(sc[C.P1_WINS]), int(sc[C.GAMES])


def summary_tables(r: RaceResult) -> dict[str, pl.DataFrame]:
    """``summary`` (one row: player 1's win rate and its Wilson 95% CI first), ``players``
    (one row per player: wins, dice choices, busts, points per turn) and ``turns`` (how
    many games lasted each number of turns; the last bin also holds longer games)."""
    t = r.totals
    sc, pl_ = t["scalars"], t["players"]
    wins, games = primary(t)
    lo, hi = wilson(wins, games)
    s = r.setup
    summary = pl.DataFrame([{
        "games": games, "p1_wins": wins, "win_rate": wins / games, "ci_low": lo, "ci_high": hi,
        "p2_wins": int(pl_[1, P.WINS]), "mean_turns": sc[C.TURNS] / games,
        "p1_two_dice_share": _share(pl_[0, P.TWO_DICE], pl_[0, P.TURNS]),
        "p2_two_dice_share": _share(pl_[1, P.TWO_DICE], pl_[1, P.TURNS]),
        "games_per_second": games / r.seconds if r.seconds > 0 else float("inf"), "seconds": r.seconds,
        "p1": r.p1, "p2": r.p2, "p1_k": s.k("p1"), "p2_k": s.k("p2"),
        "target": s.target, "head_start": s.head_start, "seed": r.seed,
    }])
    rows = []
    for i, side in enumerate(SIDES):
        turns = int(pl_[i, P.TURNS])
        two = int(pl_[i, P.TWO_DICE])
        rows.append({"side": side, "strategy": r.p1 if i == 0 else r.p2, "k": s.k(side),
                     "wins": int(pl_[i, P.WINS]), "win_share": pl_[i, P.WINS] / games, "turns": turns,
                     "one_die_turns": turns - two, "two_dice_turns": two, "busts": int(pl_[i, P.BUSTS]),
                     "two_dice_share": _share(two, turns), "bust_rate": _share(pl_[i, P.BUSTS], two),
                     "points_per_turn": _share(pl_[i, P.POINTS], turns)})
    players = pl.DataFrame(rows, schema={
        "side": pl.String, "strategy": pl.String, "k": pl.Int64, "wins": pl.Int64, "win_share": pl.Float64,
        "turns": pl.Int64, "one_die_turns": pl.Int64, "two_dice_turns": pl.Int64, "busts": pl.Int64,
        "two_dice_share": pl.Float64, "bust_rate": pl.Float64, "points_per_turn": pl.Float64})
    h = t["turns_hist"]
    turns = pl.DataFrame({"turns": np.arange(len(h), dtype=np.int64), "games": h.astype(np.int64)}
                         ).filter(pl.col("games") > 0)
    return {"summary": summary, "players": players, "turns": turns}


def _share(a, b) -> float | None:
    return float(a) / float(b) if b else None
