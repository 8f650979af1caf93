"""Run many Looper games: strategies, chunked parallel runner, summary tables."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable

import numpy as np
import polars as pl

from sim.core.runner import DEFAULT_CHUNK, GameResult, run_games
from sim.core.seeding import python_rng, run_key
from sim.core.stats import wilson
from sim.core.trace import Trace, log_rows, new_log
from sim.looper.enums import Ev, I
from sim.looper.game_nb import (C_BLIND, C_DAYS, C_DECISIONS, C_GAMES, C_KEY_DEATHS, C_LOOPS, C_PROT_DEATHS,
                                C_WINS, C_WRONG_NAME, new_counts, strategy_kernel)
from sim.looper.roster import Setup, build_config, compile_setup

if TYPE_CHECKING:  # annotations only: strategies import the game, not the other way round
    from strategies.looper import PlayerStrategy, ScriptwriterStrategy

EMPTY_PARAMS = np.zeros((1, 1), np.int64)
EXPLOIT_STREAM = 14  # the spawn key of the exploit list's re-measure


@dataclass(kw_only=True)
class LooperResult(GameResult):
    """A Looper run: the setup and strategies, the summed counts and the tables."""
    roster: Setup
    player: str
    scriptwriter: str
    exploits: pl.DataFrame | None = None  # the adversarial scriptwriter's best setups, re-measured

    def to_json(self) -> dict[str, Any]:
        row = self.summary.row(0, named=True)
        row["wins_by_loop"] = self.tables["wins_by_loop"]["wins"].to_list()
        row["deaths"] = self.tables["deaths"].to_dicts()
        row["key_person"] = self.tables["key_person"].to_dicts()
        if self.exploits is not None:
            row["exploits"] = self.exploits.to_dicts()
        row.update(posterior_report(self.totals))
        return row


def posterior_report(totals) -> dict:
    """What a reasoning player (bayes, planner) reported of its decisions: how many, and
    how many it took holding no hypothesis consistent with everything announced, with
    their share; empty for a player that reports none (the others)."""
    sc = totals["scalars"]
    n, blind = int(sc[C_DECISIONS]), int(sc[C_BLIND])
    if n == 0:
        return {}
    return {"decisions": n, "decisions_without_consistent_world": blind,
            "share_without_consistent_world": blind / n}


def resolve_setup(config=None, sets: Iterable[str] = (), *, expansion=False, protagonist=None) -> Setup:
    """Build and compile a Looper setup from a user file, ``--set`` items and options."""
    return compile_setup(build_config(config, sets, expansion=expansion, protagonist=protagonist))


def resolve_player(player: str | PlayerStrategy) -> PlayerStrategy:
    """A player strategy object as is; a name (or ``module:function``) looked up in
    ``strategies.looper.PLAYERS``, imported only here so the engine never imports the
    strategies at module level."""
    if not isinstance(player, str):
        return player
    from strategies.looper import PLAYERS

    return PLAYERS.get(player)


def resolve_scriptwriter(scriptwriter: str | ScriptwriterStrategy) -> ScriptwriterStrategy:
    """Like :func:`resolve_player`, in ``strategies.looper.SCRIPTWRITERS``."""
    if not isinstance(scriptwriter, str):
        return scriptwriter
    from strategies.looper import SCRIPTWRITERS

    return SCRIPTWRITERS.get(scriptwriter)


def run(
    games: int,
    seed: int = 0,
    *,
    player: str | PlayerStrategy = "random",
    scriptwriter: str | ScriptwriterStrategy = "random",
    roster: Setup | None = None,
    config=None,
    sets: Iterable[str] = (),
    protagonist: Iterable[str] | None = None,
    expansion: bool = False,
    threads: int | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    progress: bool = False,
    spawn: tuple[int, ...] = (),
    start: int = 0,
    params: np.ndarray | None = None,
    on_chunk=None,
    tables: bool = True,
) -> LooperResult:
    """Play ``games`` whole games and aggregate them (memory flat in ``games``)."""
    roster = roster or resolve_setup(config, sets, expansion=expansion, protagonist=protagonist)
    p, w = resolve_player(player), resolve_scriptwriter(scriptwriter)
    params = writer_params(w, roster, seed, spawn) if params is None else params
    key = run_key(seed, *spawn)
    wrong_ends = bool(roster.rules.get("wrong_name_ends_game", False))
    pk, wk = knob_vectors(roster, p, w)
    R = roster.nb
    kernel = kernel_for(p, w)
    res = run_games(games, lambda: new_counts(R),
                    lambda start, count, out: kernel(key, start, count, R, params, wrong_ends, roster.fixed_key,
                                                     pk, wk, out, None),
                    chunk_size=chunk_size, threads=threads, progress=progress, start=start,
                    on_chunk=on_chunk)
    out = LooperResult(roster=roster, seed=seed, player=knob_label(roster, "player", p),
                       scriptwriter=knob_label(roster, "scriptwriter", w), totals=res.totals, seconds=res.seconds)
    from strategies.looper import adversarial_prepare, against_knobs, against_players

    if tables and w.prepare is adversarial_prepare:  # the adversarial search (also as module:object)
        from strategies.looper.adversarial import exploits_table

        # re-measured on its own stream (not the run's, not the search's)
        against = against_knobs(roster)["against"]
        out.exploits = exploits_table(roster, params, against, against_players(against),
                                      run_key(seed, *spawn, EXPLOIT_STREAM))
    if tables:
        out.tables = summary_tables(out)
    return out


def knob_vectors(roster: Setup, p: PlayerStrategy, w: ScriptwriterStrategy) -> tuple[np.ndarray, np.ndarray]:
    """The player's and the scriptwriter's knob values (float64, declared order, defaults
    filled) from the configuration's ``player`` / ``scriptwriter`` tables: the kernel hands
    them to the strategies as ``view.knobs``. A knob the strategy does not declare is one
    SimInputError naming the closest (:func:`sim.core.knobs.knob_vector`)."""
    from sim.core.knobs import knob_vector

    tree = roster.config or {}
    return (knob_vector(p, p.name, tree.get("player"), "player"),
            knob_vector(w, w.name, tree.get("scriptwriter"), "scriptwriter"))


def knob_label(roster: Setup, side: str, s) -> str:
    """The strategy's name with the knob values the configuration gives it
    (``cautious@min_gain=2``; the plain name at the defaults)."""
    from sim.core.knobs import Spec, check_knobs

    given = check_knobs(s, s.name, dict((roster.config or {}).get(side) or {}), side)
    return Spec(side, s.name, tuple(given.items())).label  # as the manifest names it


def kernel_for(p: PlayerStrategy, w: ScriptwriterStrategy):
    """The chunk kernel of a player and a scriptwriter (:func:`sim.looper.game_nb.strategy_kernel`)."""
    return strategy_kernel(p, w)


TRACE_CAPACITY = 1 << 15  # events of one traced game (a base game needs at most ~10 000)
_TRACE_PARAMS: dict = {}


def trace(roster: Setup, player, scriptwriter, seed: int, game: int, *, spawn: tuple[int, ...] = (),
          events: bool = True) -> Trace:
    """Game ``game`` of the run with ``seed``, played by the batch kernel with an event log.

    Its ``result`` comes from the same count arrays a one-game batch run fills (so it is
    ``run(1, seed, start=game)``'s), its events from the log (``events=False``: decoded
    without text, for ``--find``)."""
    from sim.looper.trace import decode, result_of

    p, w = resolve_player(player), resolve_scriptwriter(scriptwriter)
    memo = (id(roster), w.name, seed, tuple(spawn))
    if _TRACE_PARAMS.get("memo") != memo or _TRACE_PARAMS.get("roster") is not roster \
            or _TRACE_PARAMS.get("writer") is not w:
        _TRACE_PARAMS.update(memo=memo, roster=roster, writer=w, params=writer_params(w, roster, seed, spawn))
    params = _TRACE_PARAMS["params"]
    pk, wk = knob_vectors(roster, p, w)
    R = roster.nb
    out = new_counts(R)
    log = new_log(TRACE_CAPACITY)
    kernel_for(p, w)(run_key(seed, *spawn), game, 1, R, params,
                     bool(roster.rules.get("wrong_name_ends_game", False)), roster.fixed_key, pk, wk, out, log)
    rows, cut = log_rows(log)
    totals = {k: np.asarray(v) for k, v in out._asdict().items()}
    named = [roster.ids[int(r[2])] if 0 <= r[2] < roster.n_chars else str(int(r[2])) for r in rows if r[0] == Ev.NAME]
    result = result_of(totals, roster, named=named)
    return Trace(game=game, events=decode(rows, roster) if events else [], result=result, cut=cut)


def writer_params(w: ScriptwriterStrategy, roster: Setup, seed: int, spawn: tuple[int, ...] = ()) -> np.ndarray:
    """The scriptwriter's prepared parameters (e.g. the adversarial setup pool) for a run;
    pass them back to :func:`run` as ``params`` to reuse them across batches."""
    if w.prepare is None:
        return EMPTY_PARAMS
    return np.ascontiguousarray(w.prepare(roster, python_rng(seed, *spawn)), dtype=np.int64)


def play(games: int, seed: int = 0, **kw) -> pl.DataFrame:
    """Run ``games`` games with named strategies; the one-row summary as a DataFrame."""
    return run(games, seed, **kw).summary


def summary_tables(r: LooperResult) -> dict[str, pl.DataFrame]:
    """Count arrays → the summary, wins by loop, deaths and key-person tables."""
    t = r.totals
    roster = r.roster
    sc = t["scalars"]
    games, wins = int(sc[C_GAMES]), int(sc[C_WINS])
    lo, hi = wilson(wins, games)
    summary = pl.DataFrame([{
        "games": games,
        "player_wins": wins,
        "player_win_rate": wins / games,
        "ci_low": lo,
        "ci_high": hi,
        "mean_loops": sc[C_LOOPS] / games,
        "mean_days": sc[C_DAYS] / games,
        "key_person_deaths": int(sc[C_KEY_DEATHS]),
        "protagonist_deaths": int(sc[C_PROT_DEATHS]),
        "wrong_names": int(sc[C_WRONG_NAME]),
        "games_per_second": games / r.seconds if r.seconds > 0 else float("inf"),
        "seconds": r.seconds,
        "player": r.player,
        "scriptwriter": r.scriptwriter,
        "seed": r.seed,
    }])
    wbl = t["wins_by_loop"]
    wins_by_loop = pl.DataFrame({
        "loop": np.arange(1, len(wbl) + 1),
        "wins": wbl.astype(np.int64),
        "share_of_games": wbl / games,
    })
    d = t["deaths"]
    rows = []
    for c, e in zip(*np.nonzero(d)):
        rows.append({"character": roster.ids[c], "killed_by": roster.effect_owner(e),
                     "rule": roster.effect_kind(e), "deaths": int(d[c, e]),
                     "deaths_per_game": d[c, e] / games})
    deaths = pl.DataFrame(rows, schema={"character": pl.String, "killed_by": pl.String, "rule": pl.String,
                                        "deaths": pl.Int64, "deaths_per_game": pl.Float64})
    deaths = deaths.sort("deaths", descending=True)
    kg, kw = t["key_games"], t["key_wins"]
    krows = []
    for c in range(1, roster.n_chars):
        if kg[c]:
            klo, khi = wilson(int(kw[c]), int(kg[c]))
            krows.append({"key_person": roster.ids[c], "games": int(kg[c]), "player_wins": int(kw[c]),
                          "player_win_rate": kw[c] / kg[c], "ci_low": klo, "ci_high": khi})
    key_person = pl.DataFrame(krows, schema={"key_person": pl.String, "games": pl.Int64,
                                             "player_wins": pl.Int64, "player_win_rate": pl.Float64,
                                             "ci_low": pl.Float64, "ci_high": pl.Float64})
    # the same deaths by the character that acted (the agitated one for the agitator's
    # granted kill, P-3) and the rule's owner, separately
    kl = t["killers"]
    krows = [{"character": roster.ids[c], "killer": roster.ids[a], "rule": roster.effect_kind(e),
              "rule_of": roster.effect_owner(e), "deaths": int(kl[c, e, a]), "deaths_per_game": kl[c, e, a] / games}
             for c, e, a in zip(*np.nonzero(kl))]
    killers = pl.DataFrame(krows, schema={"character": pl.String, "killer": pl.String, "rule": pl.String,
                                          "rule_of": pl.String, "deaths": pl.Int64, "deaths_per_game": pl.Float64})
    killers = killers.sort("deaths", descending=True)
    # the day on which loops ended (0: survived, days + 1: survived but named wrongly, P-9)
    ed = t["end_day"]
    days = len(ed) - 2
    loops = int(ed.sum())
    how = ["survived", *(["died"] * days), "wrong name"]
    loop_ends = pl.DataFrame({"day": np.arange(len(ed), dtype=np.int64), "ended": how,
                              "loops": ed.astype(np.int64), "share_of_loops": ed / loops if loops else ed * 0.0})
    ke = t["key_end"]
    erows = [{"key_person": roster.ids[c], "loops_ended": int(ke[c]), "games_as_key_person": int(kg[c]),
              "loops_ended_per_game": ke[c] / kg[c]} for c in range(1, roster.n_chars) if kg[c]]
    key_ends = pl.DataFrame(erows, schema={"key_person": pl.String, "loops_ended": pl.Int64,
                                           "games_as_key_person": pl.Int64, "loops_ended_per_game": pl.Float64})
    key_ends = key_ends.sort("loops_ended", descending=True)
    return {"summary": summary, "wins_by_loop": wins_by_loop, "deaths": deaths, "key_person": key_person,
            "killers": killers, "loop_ends": loop_ends, "key_person_ends": key_ends,
            **({"exploits": r.exploits} if getattr(r, "exploits", None) is not None else {})}


__all__ = ["LooperResult", "posterior_report", "play", "run", "trace", "kernel_for", "resolve_player", "resolve_setup", "resolve_scriptwriter",
           "summary_tables", "knob_vectors", "I"]
