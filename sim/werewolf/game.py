"""Run many Werewolf games: strategies, chunked runner, summary tables, leave-one-out."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable

import numpy as np
import polars as pl

from sim.core.runner import DEFAULT_CHUNK, GameResult, run_games
from sim.core.seeding import run_key
from sim.core.stats import wilson
from sim.errors import SimInputError
from sim.werewolf.enums import EVENTS, HOW, WINNERS
from sim.werewolf.game_nb import (C_DAYS, C_DRAWS, C_GAMES, C_NOBODY_OUT, C_RUNOFFS, C_VILLAGE,
                                  C_WOLVES, chunk_kernel, new_counts)
from sim.werewolf.roles import Setup, resolve_setup

if TYPE_CHECKING:  # annotations only: strategies import the game, not the other way round
    from strategies.werewolf import VillageStrategy, WolfStrategy


@dataclass(kw_only=True)
class WerewolfResult(GameResult):
    """A Werewolf run: the setup and strategies, the summed counts and the tables."""
    setup: Setup
    village: str
    wolves: str

    def to_json(self) -> dict[str, Any]:
        row = self.summary.row(0, named=True)
        row["endings"] = self.tables["endings"].to_dicts()
        row["roles"] = self.tables["roles"].to_dicts()
        return row


def resolve_village(village: str | VillageStrategy) -> VillageStrategy:
    """A village strategy object as is; a name (or ``module:object``) looked up in
    ``strategies.werewolf.VILLAGE``, imported only here so the engine never imports the
    strategies at module level."""
    if not isinstance(village, str):
        return village
    from strategies.werewolf import VILLAGE

    return VILLAGE.get(village)


def resolve_wolves(wolves: str | WolfStrategy) -> WolfStrategy:
    """Like :func:`resolve_village`, in ``strategies.werewolf.WOLVES``."""
    if not isinstance(wolves, str):
        return wolves
    from strategies.werewolf import WOLVES

    return WOLVES.get(wolves)


def with_knobs(setup: Setup, village, wolves):
    """The kernel's rules with each side's knob values from the configuration's ``village`` /
    ``wolves`` tables (checked against the strategies: an unknown knob is one error)."""
    from sim.core.game import get
    from sim.werewolf.enums import KNOB_SLOTS

    vec = get("werewolf").knob_vectors(setup, {"village": village, "wolves": wolves})
    k = max(len(vec["village"]), len(vec["wolves"]))
    if k > KNOB_SLOTS:
        raise SimInputError(f"a werewolf strategy declares {k} knobs; at most {KNOB_SLOTS}")
    K = np.full((2, k), np.nan)
    K[0, :len(vec["village"])] = vec["village"]
    K[1, :len(vec["wolves"])] = vec["wolves"]
    return setup.nb._replace(knobs=K)


def run(games: int, seed: int = 0, *, village: str | VillageStrategy = "random",
        wolves: str | WolfStrategy = "random", setup: Setup | None = None, roles: str | None = None,
        config=None, sets: Iterable[str] = (), threads: int | None = None,
        chunk_size: int = DEFAULT_CHUNK, progress: bool = False, spawn: tuple[int, ...] = (),
        start: int = 0, on_chunk=None, tables: bool = True) -> WerewolfResult:
    """Play ``games`` games of a setup with the two sides' strategies."""
    setup = setup or resolve_setup(config, sets, roles)
    v, w = resolve_village(village), resolve_wolves(wolves)
    kernel = chunk_kernel(v, w)
    key = run_key(seed, *spawn)
    R = with_knobs(setup, v, w)
    res = run_games(games, lambda: new_counts(R), lambda start, count, out: kernel(key, start, count, R, out, None),
                    chunk_size=chunk_size, threads=threads, progress=progress, start=start,
                    on_chunk=on_chunk)
    r = WerewolfResult(setup=setup, seed=seed, village=v.name, wolves=w.name, totals=res.totals,
                       seconds=res.seconds)
    if tables:
        r.tables = summary_tables(r)
    return r


def summary_tables(r: WerewolfResult) -> dict[str, pl.DataFrame]:
    """Count arrays → the summary, endings, per-role and days tables."""
    t = r.totals
    sc = t["scalars"]
    games, vw = int(sc[C_GAMES]), int(sc[C_VILLAGE])
    lo, hi = wilson(vw, games)
    summary = pl.DataFrame([{
        "games": games, "village_wins": vw, "village_win_rate": vw / games, "ci_low": lo, "ci_high": hi,
        "wolf_wins": int(sc[C_WOLVES]), "draws": int(sc[C_DRAWS]), "mean_days": sc[C_DAYS] / games,
        "runoffs_per_game": sc[C_RUNOFFS] / games, "days_nobody_voted_out": int(sc[C_NOBODY_OUT]),
        "games_per_second": games / r.seconds if r.seconds > 0 else float("inf"), "seconds": r.seconds,
        "composition": r.setup.composition(), "participants": r.setup.n,
        "village": r.village, "wolves": r.wolves, "seed": r.seed,
    }])
    end = t["end"]
    endings = pl.DataFrame([
        {"winner": WINNERS[wi], "event": EVENTS[e], "games": int(end[wi, e]), "share": end[wi, e] / games}
        for wi in range(1, 4) for e in range(len(EVENTS)) if end[wi, e]
    ], schema={"winner": pl.String, "event": pl.String, "games": pl.Int64, "share": pl.Float64})
    rows = []
    for k, rid in enumerate(r.setup.role_ids):
        n = int(t["role_games"][k])
        if not n:
            continue
        row = {"role": rid, "participant_games": n, "survival_rate": t["role_survived"][k] / n}
        for h in range(1, len(HOW)):
            row[f"out_{HOW[h]}"] = t["role_out"][k, h] / n
        rows.append(row)
    roles = pl.DataFrame(rows)
    dh = t["days_hist"]
    wd = t["win_days"]
    days = pl.DataFrame({"days": np.arange(len(dh)), "games": dh, "village_wins": wd[1], "wolves_wins": wd[2],
                         "draws": wd[3]}).filter(pl.col("games") > 0)
    return {"summary": summary, "endings": endings, "roles": roles, "days": days}


def leave_one_out(games: int, seed: int = 0, *, setup: Setup, **kw) -> pl.DataFrame:
    """Village win rate when each distinct non-villager role in turn becomes a villager; every
    row on the full table's games, so ``delta`` has the paired interval ``delta_ci_low/high``."""
    from sim.analysis.restrict import PairedBlocks

    from sim.core.game import get

    rec = PairedBlocks(get("werewolf").primary, games)
    base = run(games, seed, setup=setup, **kw, **rec.kw("(none)")).summary.row(0, named=True)
    rows = [{"replaced": "(none)", "composition": setup.composition(), "village_win_rate": base["village_win_rate"],
             "ci_low": base["ci_low"], "ci_high": base["ci_high"], "delta": 0.0, "delta_ci_low": 0.0,
             "delta_ci_high": 0.0, "note": ""}]
    from sim.werewolf.roles import compile_setup
    import copy

    for rid in dict.fromkeys(setup.seats):
        if rid == "villager":
            continue
        seats = list(setup.seats)
        seats[seats.index(rid)] = "villager"
        cfg = copy.deepcopy(setup.config)
        cfg["composition"]["default"] = ",".join(seats)
        try:
            s2 = compile_setup(cfg)
        except SimInputError as e:
            rows.append({"replaced": rid, "composition": ",".join(seats), "village_win_rate": None,
                         "ci_low": None, "ci_high": None, "delta": None, "delta_ci_low": None,
                         "delta_ci_high": None, "note": str(e)})
            continue
        s = run(games, seed, setup=s2, **kw, **rec.kw(rid)).summary.row(0, named=True)
        d, lo, hi = rec.delta("(none)", rid)
        rows.append({"replaced": rid, "composition": s2.composition(), "village_win_rate": s["village_win_rate"],
                     "ci_low": s["ci_low"], "ci_high": s["ci_high"], "delta": d, "delta_ci_low": lo,
                     "delta_ci_high": hi, "note": ""})
    return pl.DataFrame(rows, schema={"replaced": pl.String, "composition": pl.String,
                                      "village_win_rate": pl.Float64, "ci_low": pl.Float64,
                                      "ci_high": pl.Float64, "delta": pl.Float64, "delta_ci_low": pl.Float64,
                                      "delta_ci_high": pl.Float64, "note": pl.String})
