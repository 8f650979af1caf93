"""Differential tests: the numba Looper engine against the naive reference (tests/naive).

* one day: ``sim.looper.resolve_day`` vs ``naive_day`` on thousands of random layouts
  (base roster, expansion roster, modified configurations), driven by the same
  deterministic chooser; stress, positions, deaths (announced place), killers and the
  sequence of "one character dies" requests must all agree;
* whole games: ``play_chunk(key, g, 1, ...)`` vs ``naive_game`` game by game for every
  built-in player x scriptwriter pair, and the R-2 naming variant; the naive side plays
  the strategies re-stated in tests/naive/looper_strategies.py (random; the protecting
  moves of cautious, the deducer and oracle_key — belief, what-if days on the naive day,
  greedy choice, knobs — from tests/naive/looper_protect.py; the deducer's candidates and
  names; the random / adversarial / fixed scriptwriters), so a bug in the engine's
  strategy shows as a difference; the ``knobs_*`` cases set the protecting knobs off
  their defaults;
* one decision: the engine's protecting move and the naive one on drawn histories (the
  games reach its corners rarely), knob values across their ranges;
* the runner: ``sim.looper.game.run`` vs the naive games (same wins, game for game).
"""
from __future__ import annotations

import copy
import dataclasses
import random
from collections import Counter

import numba
import numpy as np
import pytest

from sim.core.seeding import python_rng, run_key
from sim.errors import SimInputError
from sim.looper import build_config, compile_setup, resolve_day
from sim.looper.game import run
from sim.looper.game_nb import (C_DAYS, C_KEY_DEATHS, C_LOOPS, C_PROT_DEATHS, C_WINS,
                                C_WRONG_NAME, new_counts)
from strategies.looper import PLAYERS, SCRIPTWRITERS
from strategies.looper.adversarial import search_setups
from tests.naive.looper import location_ids, naive_day, naive_game, roster_ids
from tests.naive.looper_strategies import naive_player, naive_writer

# ----------------------------------------------------------------------------- one day


class Chooser:
    """A seeded, order-sensitive chooser that records every request it sees."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.log: list[tuple[str, tuple[str, ...]]] = []

    def __call__(self, actor, cands):
        cands = list(cands)
        self.log.append((actor, tuple(cands)))
        return cands[self.rng.randrange(len(cands))]


def random_case(rng: np.random.Generator, cfg: dict):
    """A random layout of a random subset of the living, and protagonist attributes."""
    ids = roster_ids(cfg)
    locs = location_ids(cfg)
    attr_names = cfg["attributes"]["names"]
    home = {"protagonist": cfg["protagonist"]["location"]}
    home.update({c: ch["location"] for c, ch in cfg["characters"].items()})
    prot_attrs = {a for a in attr_names if rng.random() < 0.3}
    p_alive = rng.choice([rng.uniform(0.05, 0.35), rng.uniform(0.3, 1.0), 1.0])
    alive = [c for c in ids[1:] if rng.random() < p_alive]
    if rng.random() < 0.75:
        alive.insert(0, "protagonist")
    mode = int(rng.integers(5))
    if mode == 4:  # children gather where a bully rule works (its all-children condition)
        spot = next((e["location"] for ch in cfg["characters"].values() for e in ch.get("effects", [])
                     if e["kind"] == "bully"), locs[0])
        kids = {"protagonist"} if "child" in prot_attrs else set()
        kids |= {c for c, ch in cfg["characters"].items() if "child" in ch.get("attributes", [])}
        others = [l for l in locs if l != spot] or locs
        layout = {c: spot if (c in kids) == (rng.random() < 0.85) else others[int(rng.integers(len(others)))]
                  for c in alive}
    elif mode == 3:  # one or two crowded places (deep stress, Masuyo, the agitator)
        two = locs[int(rng.integers(len(locs)))], locs[int(rng.integers(len(locs)))]
        layout = {c: two[int(rng.random() < 0.3)] for c in alive}
    elif mode == 0:  # uniform places
        layout = {c: locs[int(rng.integers(len(locs)))] for c in alive}
    elif mode == 1:  # crowded places
        w = rng.dirichlet(np.full(len(locs), 0.4))
        layout = {c: locs[int(rng.choice(len(locs), p=w))] for c in alive}
    else:  # the table layout with a few moves (like a real day)
        layout = {c: home[c] for c in alive}
        for _ in range(int(rng.integers(0, 7))):
            if alive:
                c = alive[int(rng.integers(len(alive)))]
                layout[c] = locs[int(rng.integers(len(locs)))]
    return layout, prot_attrs


def diff_days(cfg: dict, n_cases: int, seed: int):
    """Compare ``n_cases`` random days; returns (mismatches, stats)."""
    roster = compile_setup(cfg)
    rng = np.random.default_rng(seed)
    bad = []
    stats = {"deaths": Counter(), "pairs": Counter(), "requests": 0, "misreported": 0, "cases": 0}
    for case in range(n_cases):
        layout, prot = random_case(rng, cfg)
        cseed = int(rng.integers(2**31))
        c_engine, c_naive = Chooser(cseed), Chooser(cseed)
        r = resolve_day(layout, protagonist=prot, choose=c_engine, roster=roster)
        stress, positions, deaths, killed_by = naive_day(cfg, layout, prot, c_naive)
        got = (r.stress, r.positions, r.deaths, r.killed_by, c_engine.log)
        want = (stress, positions, deaths, killed_by, c_naive.log)
        stats["cases"] += 1
        if got != want:
            fields = ("stress", "positions", "deaths", "killed_by", "requests")
            bad.append({"case": case, "layout": layout, "protagonist": sorted(prot), "chooser_seed": cseed,
                        **{f: (g, w) for f, g, w in zip(fields, got, want) if g != w}})
            continue
        stats["deaths"].update(killed_by.values())
        stats["pairs"].update(killed_by.items())
        stats["requests"] += len(c_naive.log)
        stats["misreported"] += sum(1 for c, l in deaths.items() if positions[c] != l)
    return bad, stats


def _report(bad):
    lines = [f"{len(bad)} mismatching day(s); first ones (engine, naive):"]
    for b in bad[:3]:
        lines.append(repr(b))
    return "\n".join(lines)


def _death_rule_owners(cfg):
    death_kinds = {"die_if_with", "die_if_stressed", "die_at", "pair_kill", "kill_stressed_others",
                   "choose_kill_if_stressed", "bully", "lone_pair_kill", "kill_giver_if_stressed",
                   "grant_kill_if_stressed", "kill_attr", "kill_all_on_death"}
    return {c for c, ch in cfg["characters"].items()
            if any(e["kind"] in death_kinds for e in ch.get("effects", []))}


def test_day_matches_naive_under_negated_agitation():
    """P-18's variant: a negated (occult) character next to the agitator gains his kill."""
    cfg = build_config(sets=["rules.negated_gains_agitation=true"])
    bad, stats = diff_days(cfg, 1500, 303)
    assert not bad, _report(bad)
    assert stats["requests"] > 0


@pytest.mark.parametrize("expansion, n_cases, seed", [(False, 2500, 101), (True, 2500, 202)])
def test_day_matches_naive_on_random_layouts(expansion, n_cases, seed):
    cfg = build_config(expansion=expansion)
    bad, stats = diff_days(cfg, n_cases, seed)
    assert not bad, _report(bad)
    # The comparison is not vacuous: every death rule killed somebody, choices were made,
    # Turf King moved announcements. Masuyo (>= 6) and the unforgiving woman (>= 4) can
    # never reach their thresholds with the base data (at most evil spirit + right winger +
    # auntie = 3 for a non-loud, non-child female), so their rules are covered by the
    # low-threshold configuration below.
    never = {"masuyo", "unforgiving_woman"}
    assert _death_rule_owners(cfg) - never <= set(stats["deaths"]), _death_rule_owners(cfg) - set(stats["deaths"])
    assert ("second_from_bottom", "bully") in stats["pairs"]  # the bully's substitute (P-8)
    assert stats["requests"] > n_cases // 10
    assert stats["misreported"] > 0


MODIFIED = {
    # lower thresholds: many more conditional stress, moves, choices and deaths
    "low_thresholds": (False, [
        "characters.fearmonger_auntie.effects.0.threshold=1",
        "rage.threshold=2", "bullied_kid.threshold=2", "unforgiving_woman.threshold=2",
        "masuyo.threshold=2", "agitator.threshold=2", "wandering_kenkichi.threshold=1",
        "attention_seeker.threshold=1", "laid_off_man.threshold=2",
        "characters.evil_spirit.effects.1.threshold=2",
    ]),
    # other amounts, filters, attributes, places; Misa negates herself
    "amounts_and_attributes": (False, [
        "cat.amount=-3", "pushy_feminist.amount=1", "right_winger.include_self=true",
        "characters.cat.attributes=weak,strong", "characters.psychic_misa.attributes=female,child,weak,occult",
        "characters.psychic_misa.effects.0.target_any=occult,loud",
        "socrates_in_love.include_self=false", "childrens_rights.amount=5",
        "characters.yakuza.effects.0.location=park", "characters.bully.effects.0.location=park",
        "characters.verge_of_madness.effects.0.location=school",
        "characters.bottom_rung_man.effects.0.other=cat",
        "characters.mad_stalker.effects.0.victim_any=female",
        "characters.mad_stalker.effects.0.partner_any=male,child",
        "characters.fearmonger_auntie.effects.0.amount=3",
        "characters.cat.effects.0.target_none=strong,occult",
        "characters.second_from_bottom.attributes=male,child,weak,occult",
        "characters.turf_king.effects=[{kind='misreport_deaths'},{kind='move_if_stressed',threshold=1}]",
    ]),
    # expansion with other knobs
    "expansion_variants": (True, [
        "princess_flute.include_self=false", "alessi.attr=loud",
        "characters.alessi.effects.0.target_any=male,female",
        "abe_descendant.victim_any=female", "masuyo.threshold=3", "agitator.threshold=3",
        "rage.threshold=3", "characters.president_valentine.location=school",
        "characters.turf_king.location=suburb", "characters.alessi.attributes=male,occult",
        "characters.slaughter_angel.attributes=female,occult",
    ]),
    # expansion: near-zero choice thresholds, the slaughter angel among the school children,
    # Princess Flute in the park
    "expansion_low": (True, [
        "unforgiving_woman.threshold=1", "bullied_kid.threshold=1",
        "characters.slaughter_angel.location=school", "characters.princess_flute.location=park",
    ]),
}


@pytest.mark.parametrize("name", list(MODIFIED))
def test_day_matches_naive_on_modified_configs(name):
    expansion, sets = MODIFIED[name]
    cfg = build_config(sets=sets, expansion=expansion)
    bad, stats = diff_days(cfg, 600, 300 + list(MODIFIED).index(name))
    assert not bad, _report(bad)
    assert sum(stats["deaths"].values()) > 0
    if name == "low_thresholds":
        assert {"masuyo", "unforgiving_woman"} <= set(stats["deaths"])


def test_day_matches_naive_with_extra_effects():
    """Data-only rule changes: more effects per character, several actors of one kind."""
    cfg = build_config(expansion=True)
    cfg = copy.deepcopy(cfg)
    ch = cfg["characters"]
    ch["maman"]["effects"] = [
        {"kind": "stress", "amount": 2, "target_any": ["female"], "include_self": True},
        {"kind": "misreport_deaths"},
        {"kind": "die_if_stressed", "threshold": 3},
        {"kind": "choose_kill_if_stressed", "threshold": 2, "victim_any": []},
    ]
    ch["cat"]["effects"].append({"kind": "stress_if_stressed", "threshold": 1, "amount": 2,
                                 "target_any": ["male"], "target_none": ["child"],
                                 "include_self": False})
    ch["turf_king"]["effects"].append({"kind": "redirect_stress"})
    ch["psychopath"]["effects"].append({"kind": "grant_kill_if_stressed", "threshold": 2})
    ch["rage"]["effects"].append({"kind": "kill_giver_if_stressed", "threshold": 3})
    bad, stats = diff_days(cfg, 600, 404)
    assert not bad, _report(bad)
    assert sum(stats["deaths"].values()) > 0


# ----------------------------------------------------------------------------- games

KEY = run_key(20240611)
# `make test` runs this file again under NUMBA_DISABLE_JIT, where the engine is plain
# Python: it then plays a quarter of the games, and the adversarial scriptwriter prepares its
# setup pool from a small search (its default plays ~37 000 trial games). The same
# kernels (pool_setup, adversarial_choose) are compared either way.
NOJIT = bool(numba.config.DISABLE_JIT)


def n_games(full: int) -> int:
    return max(full // 4, 8) if NOJIT else full


def _small_search(roster, rng):
    return search_setups(roster, rng, (PLAYERS.get("random"), PLAYERS.get("cautious")), proposals=16, trials=4)


def writer(name: str):
    w = SCRIPTWRITERS.get(name)
    if NOJIT and name == "adversarial":
        w = dataclasses.replace(w, prepare=_small_search)
    return w



@pytest.fixture(scope="module")
def rosters():
    base = compile_setup(build_config())
    named = compile_setup(build_config(sets=["rules.must_name_key_person=true"]))
    # P-9: a wrong name fails the loop (named) or ends the game (named_ends)
    named_ends = compile_setup(build_config({"rules": {"must_name_key_person": True,
                                                         "wrong_name_ends_game": True}}))
    # R-4, P-10: a protagonist built once (attributes, place), the same in every loop of a game
    prot = compile_setup(build_config(sets=["protagonist.location=school"], protagonist=["male", "loud"]))
    exp = compile_setup(build_config(expansion=True))
    pinned = compile_setup(build_config(sets=["setup.key_person=cat"]))
    # the rule variants (docs/looper.md P-15 … P-18) and a fixed script (P-19)
    locked = compile_setup(build_config(sets=["rules.stay_moves=false", "rules.key_person_movable=false"]))
    locked_pinned = compile_setup(build_config(sets=["rules.stay_moves=false", "rules.key_person_movable=false",
                                                     "setup.key_person=verge_of_madness"]))
    prec_key = compile_setup(build_config(sets=["rules.precedence=player_for_key_person"]))
    prec_all = compile_setup(build_config(sets=["rules.precedence=player"]))
    agit = compile_setup(build_config(sets=["rules.negated_gains_agitation=true"], protagonist=["occult", "loud"]))
    script = compile_setup(build_config({"setup": {
        "key_person": "attention_seeker",
        "permanent_moves": [{"character": "socrates_in_love", "location": "underworld"}],
        "guest_moves": [{"day": 4, "character": "cat", "location": "underworld"}], "choose": "first"},
        "rules": {"precedence": "player"}}))
    # the protecting players' knobs off their defaults (docs/looper.md's knob table): against
    # the adversarial pool they are in danger often; min_gain=2 needs the expansion's
    # dangers at the table to move at all
    knobs_first = compile_setup(build_config(sets=["player.protagonist_first=false", "player.max_moves=1"]))
    knobs_choices = compile_setup(build_config(sets=["player.count_choices=false", "player.max_moves=2"]))
    knobs_gain = compile_setup(build_config(sets=["player.min_gain=2"], expansion=True))
    return {"base": base, "named": named, "named_ends": named_ends, "prot": prot, "expansion": exp,
            "pinned": pinned, "locked": locked, "locked_pinned": locked_pinned, "prec_key": prec_key,
            "prec_all": prec_all, "agit": agit, "script": script, "knobs_first": knobs_first,
            "knobs_choices": knobs_choices, "knobs_gain": knobs_gain}


_PARAMS: dict = {}


def writer_params(roster_name, roster, writer_name, seed=0):
    w = writer(writer_name)
    if w.prepare is None:
        return np.zeros((1, 1), np.int64)
    k = (roster_name, writer_name, seed)
    if k not in _PARAMS:
        _PARAMS[k] = np.ascontiguousarray(w.prepare(roster, python_rng(seed)), dtype=np.int64)
    return _PARAMS[k]


def engine_game(roster, key, g, p, w, params, wrong_ends):
    from sim.looper.game import kernel_for, knob_vectors

    out = new_counts(roster.nb)
    pk, wk = knob_vectors(roster, p, w)
    kernel_for(p, w)(key, g, 1, roster.nb, params, wrong_ends, roster.fixed_key, pk, wk, out, None)
    return out


def compare_game(roster, key, g, p, w, params, wrong_ends=False):
    out = engine_game(roster, key, g, p, w, params, wrong_ends)
    res = naive_game(roster, key, g, naive_player(p, roster), naive_writer(w), params, wrong_ends)
    sc = out.scalars
    ids = roster.ids
    deaths = Counter()
    for c, e in zip(*np.nonzero(out.deaths)):
        deaths[(ids[c], roster.effect_owner(e))] += int(out.deaths[c, e])
    engine = {
        "won": bool(sc[C_WINS]),
        "won_loop": int(np.argmax(out.wins_by_loop)) if sc[C_WINS] else -1,
        "loops_used": int(sc[C_LOOPS]),
        "days": int(sc[C_DAYS]),
        "key": ids[int(np.argmax(out.key_games))],
        "deaths": deaths,
        "key_deaths": int(sc[C_KEY_DEATHS]),
        "prot_deaths": int(sc[C_PROT_DEATHS]),
        "wrong_names": int(sc[C_WRONG_NAME]),
        "end_day": Counter({d: int(v) for d, v in enumerate(out.end_day) if v}),
    }
    naive = {k: res[k] for k in engine}
    return engine, naive, res


GAME_CASES = [
    ("base", "random", "random", 120),
    ("base", "cautious", "random", 120),
    ("base", "deducer", "random", 120),
    ("base", "random", "adversarial", 120),
    ("base", "cautious", "adversarial", 120),
    ("base", "deducer", "adversarial", 120),
    ("named", "random", "random", 80),
    ("named", "deducer", "random", 80),
    ("named", "cautious", "adversarial", 40),
    ("named_ends", "deducer", "random", 60),
    ("prot", "cautious", "random", 60),
    ("expansion", "deducer", "random", 60),
    ("pinned", "deducer", "random", 60),
    ("pinned", "cautious", "adversarial", 30),
    ("named", "oracle_key", "random", 60),   # the oracle view (the judge's state) lines up too
    # rule variants P-15 … P-18 and the fixed script P-19
    ("locked", "cautious", "random", 50),
    ("locked", "random", "adversarial", 30),
    ("locked_pinned", "deducer", "random", 40),
    ("prec_key", "oracle_key", "random", 50),
    ("prec_all", "cautious", "adversarial", 30),
    ("prec_all", "random", "random", 50),
    ("agit", "random", "random", 50),
    ("script", "cautious", "fixed", 40),
    ("script", "random", "fixed", 40),
    # the protecting moves with their knobs set (each case moves: see the test)
    ("base", "oracle_key", "adversarial", 60),
    ("knobs_first", "cautious", "adversarial", 60),
    ("knobs_choices", "deducer", "adversarial", 60),
    ("knobs_gain", "cautious", "random", 60),
]


@pytest.mark.parametrize("roster_name, player, writer_name, full_games", GAME_CASES)
def test_games_match_naive(rosters, roster_name, player, writer_name, full_games):
    roster = rosters[roster_name]
    p, w = PLAYERS.get(player), writer(writer_name)
    params = writer_params(roster_name, roster, writer_name)
    wrong_ends = bool(roster.rules.get("wrong_name_ends_game", False))
    bad = []
    n_days = n_named = n_moves = 0
    games = n_games(full_games)
    for g in range(games):
        engine, naive, res = compare_game(roster, KEY, g, p, w, params, wrong_ends)
        n_days += res["days"]
        n_named += len(res["named"])
        n_moves += res["moves"]
        if engine != naive:
            bad.append((g, {k: (engine[k], naive[k]) for k in engine if engine[k] != naive[k]}))
    assert not bad, f"{len(bad)} game(s) differ; first (engine, naive): {bad[:3]}"
    assert n_days > games  # games are played for real
    if not NOJIT and (roster_name.startswith("knobs_") or (player == "oracle_key" and writer_name == "adversarial")):
        # the protecting moves (and their knobs) were exercised; NOJIT's quarter of the
        # games (and its small adversarial pool) may make none
        assert n_moves > 0
    if roster.fixed_key:
        assert all(compare_game(roster, KEY, g, p, w, params, wrong_ends)[0]["key"] == roster.ids[roster.fixed_key]
                   for g in range(5))
    if roster.rules.get("must_name_key_person") and writer_name == "random":
        assert n_named > 0  # the R-2 variant was exercised


# ----------------------------------------------------------------------------- one decision
# The games above reach the protecting move's corners rarely (against the random scriptwriter
# a protecting player is in visible danger on about one day in fifty). Here the engine's
# move (strategies.looper.common.protect_knobs_nb, knobs from the view) and the naive one
# decide on the same drawn histories: deaths announced at a character's table place or
# where the player sent it, the place after that (Turf King), anywhere, or at one crowded
# place; the player's moves; knob values across their ranges.


def random_history(rng: np.random.Generator, roster):
    """A PlayerView of a drawn history, whom to protect (a set holding the protagonist)."""
    from sim.looper.views import PlayerView

    cfg = roster.config
    rules = cfg["rules"]
    ids, locs = roster_ids(cfg), location_ids(cfg)
    n, L = len(ids), len(locs)
    loops, days, per_day = rules["max_loops"], rules["days_per_loop"], rules["player_moves_per_day"]
    home = [locs.index(cfg["protagonist"]["location"])] + [locs.index(ch["location"])
                                                           for ch in cfg["characters"].values()]
    nxt = [locs.index(cfg["locations"][l]["next"]) for l in locs]
    ann = np.full((loops, days, n), -1, np.int64)
    moves = np.full((loops, days, max(per_day, 1), 2), -1, np.int64)
    loop_end = np.zeros(loops, np.int64)
    now, today = int(rng.integers(loops)), int(rng.integers(1, days + 1))
    p_die = rng.choice([0.05, 0.15, 0.3])
    # a place many deaths are announced at: crowds, so dangers (often the protagonist's, whom
    # the belief never moves)
    hot = home[0] if rng.random() < 0.5 else int(rng.integers(L))
    for lp in range(now + 1):
        last = today - 1 if lp == now else int(rng.integers(1, days + 1))
        alive = set(range(n))
        for d in range(1, last + 1):
            sent = {}
            for j, c in enumerate(rng.permutation(sorted(alive))[:int(rng.integers(per_day + 1))]):
                sent[int(c)] = int(rng.integers(L))
                moves[lp, d - 1, j] = (c, sent[int(c)])
            for c in sorted(alive - {0}):
                if rng.random() < p_die:
                    base = sent.get(c, home[c]) if rng.random() < 0.5 else home[c]
                    ann[lp, d - 1, c] = rng.choice([base, nxt[base], int(rng.integers(L)), hot, hot])
                    alive.discard(c)
        if lp < now:
            loop_end[lp] = last
            ann[lp, last - 1, 0] = home[0]  # the protagonist's death ended it
    alive = set(range(n)) - {c for c in range(n) for d in range(today - 1) if ann[now, d, c] >= 0}
    mask = sum(1 << c for c in alive)
    pk = np.array([rng.choice([1, 2, 3, 64]), rng.random() < 0.7, rng.choice([1, 1, 2, 3]), rng.random() < 0.7],
                  np.float64)
    view = PlayerView(roster.nb, np.int64(now), np.int64(today), np.uint64(mask), ann, moves, loop_end,
                      np.full(loops, -1, np.int64), pk)
    protect = alive if rng.random() < 0.5 else {0} | {c for c in alive if rng.random() < 0.3}
    return view, protect


def diff_decisions(roster, n_cases: int, seed: int):
    from sim.core.rng import seed_stream_nb
    from sim.looper.day_nb import day_buffers_nb
    from sim.looper.game_nb import BIG, MEM
    from sim.looper.views import Scratch
    from strategies.looper.common import protect_knobs_nb
    from tests.naive.looper_protect import NaiveProtect, knob_values

    rng = np.random.default_rng(seed)
    guard = NaiveProtect(roster.config)
    knobs = PLAYERS.get("cautious").knobs
    per_day = max(int(roster.config["rules"]["player_moves_per_day"]), 1)
    own = Scratch(np.zeros(MEM, np.int64), day_buffers_nb(roster.nb), np.zeros(BIG, np.int64))
    bad, moved = [], 0
    for case in range(n_cases):
        view, protect = random_history(rng, roster)
        s_eng = np.zeros(4, np.uint64)
        seed_stream_nb(s_eng, KEY, case, 1)
        s_naive = s_eng.copy()
        out_e = np.full((per_day, 2), -1, np.int64)
        out_n = out_e.copy()
        own.mem[:] = 0  # a fresh game's scratch: the engine digests the whole history
        k_e = int(protect_knobs_nb(s_eng, view, own, np.uint64(sum(1 << c for c in protect)), out_e))
        k_n = guard.move(s_naive, view, protect, out_n, knob_values(knobs, view))
        got = (k_e, out_e[:k_e].tolist(), s_eng.tolist())  # the stream state: the same draws
        want = (k_n, out_n[:k_n].tolist(), s_naive.tolist())
        moved += k_n > 0
        if got != want:
            bad.append((case, got[:2], want[:2], "draws differ" if got[2] != want[2] else ""))
    return bad, moved


DECISION_CASES = {  # name: (sets, expansion, cases, seed)
    "base": ([], False, 2000, 501),
    "expansion": ([], True, 800, 502),
    "low_thresholds": (MODIFIED["low_thresholds"][1], False, 800, 503),
    # a protagonist in danger with others (Socrates +4 to the loud …): protagonist_first matters
    "protagonist_school": (["protagonist.location=school", "protagonist.attributes=male,child,loud"], False, 800, 504),
}


@pytest.mark.parametrize("name", list(DECISION_CASES))
def test_protect_decisions_match_naive(name):
    sets, expansion, full_cases, seed = DECISION_CASES[name]
    roster = compile_setup(build_config(sets=sets, expansion=expansion))
    cases = n_games(full_cases)
    bad, moved = diff_decisions(roster, cases, seed)
    assert not bad, f"{len(bad)} of {cases} decisions differ; first (case, engine, naive): {bad[:3]}"
    assert moved > cases // 20  # protection was needed and given, not a test of empty days


@pytest.mark.parametrize("day, who", [(17, "cat"), (36, "cat"), (36, None)])
def test_belief_with_many_guest_days(day, who):
    """A death away from home on a late guest day is believed to be that day's guest move,
    and nothing else (the naive belief), up to the 36 guest days a roster may have (``who``
    None: the last character of the roster, whose believed place is the highest slot). The
    engine once kept guest move k in mem[32 + 2k], which from the 17th guest day wrote over
    the believed places (mem[64 + c]); with a larger character index the place became an
    index past the places (a write out of bounds in a compiled day), so this checks the
    belief alone."""
    from sim.looper.views import PlayerView
    from strategies.looper.common import believed_layout_nb
    from tests.naive.looper_protect import NaiveProtect

    cfg = build_config(sets=["rules.days_per_loop=36", "rules.guest_move_days=" + ",".join(map(str, range(1, 37)))])
    roster = compile_setup(cfg)
    ids, locs = roster_ids(cfg), location_ids(cfg)
    n = len(ids)
    c = ids.index(who) if who else n - 1
    home = cfg["characters"][ids[c]]["location"]
    for away in (l for l in locs if l != home):  # every place: a slot written over may hold its value by chance
        ann = np.full((4, 36, n), -1, np.int64)
        ann[0, day - 1, c] = locs.index(away)
        loop, vday = divmod(day, 36)  # the next morning (day 36's is the next loop's first)
        view = PlayerView(roster.nb, np.int64(loop), np.int64(vday + 1), np.uint64((1 << n) - 1 - (1 << c)), ann,
                          np.full((4, 36, 3, 2), -1, np.int64), np.zeros(4, np.int64), np.full(4, -1, np.int64),
                          np.zeros(4))
        pos = np.zeros(n, np.int64)
        believed_layout_nb(view, np.zeros(256, np.int64), pos)
        layout = NaiveProtect(cfg).belief(view)[0]
        assert pos.tolist() == [layout[k] for k in range(n)], away
        assert pos.tolist() == [int(roster.nb.home[k]) for k in range(n)], away  # a guest move lasts its day


def test_more_guest_days_than_the_scratch_holds_is_an_input_error():
    with pytest.raises(SimInputError, match="rules.guest_move_days: 37 days given, at most 36"):
        compile_setup(build_config(sets=["rules.days_per_loop=37",
                                         "rules.guest_move_days=" + ",".join(map(str, range(1, 38)))]))


# ----------------------------------------------------------------------------- runner


@pytest.mark.parametrize("player, writer_name", [("random", "random"), ("cautious", "adversarial")])
def test_run_win_rate_matches_naive(rosters, player, writer_name):
    roster = rosters["base"]
    games, seed = n_games(300), 7
    p, w = PLAYERS.get(player), writer(writer_name)
    # names under JIT; under NOJIT the (smaller) adversarial strategy object itself
    r = run(games, seed, player=player, scriptwriter=w if NOJIT else writer_name, roster=roster, threads=2,
            chunk_size=64)
    key = run_key(seed)
    params = writer_params("base", roster, writer_name, seed)
    naive = [naive_game(roster, key, g, naive_player(p, roster), naive_writer(w), params) for g in range(games)]
    wins = sum(x["won"] for x in naive)
    by_loop = Counter(x["won_loop"] for x in naive if x["won"])
    t = r.totals
    assert int(t["scalars"][C_WINS]) == wins
    assert [by_loop[i] for i in range(len(t["wins_by_loop"]))] == t["wins_by_loop"].tolist()
    assert int(t["scalars"][C_DAYS]) == sum(x["days"] for x in naive)
    assert int(t["scalars"][C_LOOPS]) == sum(x["loops_used"] for x in naive)
    # and, as a statistic: the naive win rate lies in the engine's 95 % interval
    s = r.summary.row(0, named=True)
    assert s["ci_low"] <= wins / games <= s["ci_high"]


# ----------------------------------------------------------------------------- worked examples
# Hand-made days whose outcome is read off the rules page / docs rulings directly; both
# sides must give it (the random layouts above rarely hit some of these corners).
SCENARIOS = [
    # P-8: the bully's substitute dies when the bullied kid is away ...
    ("P-8 substitute", False, [], {"bully": "school", "second_from_bottom": "school", "bullied_kid": "suburb"},
     set(), None, {"second_from_bottom": "school"}, {"second_from_bottom": "bully"}),
    # ... but not when he is negated (he must be there and not negated)
    ("P-8 negated substitute", False, ["characters.second_from_bottom.attributes=male,child,weak,occult"],
     {"bully": "school", "second_from_bottom": "school", "psychic_misa": "school", "bullied_kid": "suburb"},
     set(), None, {}, {}),
    # a male-and-female protagonist alone with a female is "the male"
    ("R-14 protagonist", False, [], {"protagonist": "park", "pushy_feminist": "park", "mad_stalker": "ruins"},
     {"male", "female"}, None, {"protagonist": "park"}, {"protagonist": "mad_stalker"}),
    # each member that qualifies as the male dies
    ("R-14 both", False, ["characters.pushy_feminist.attributes=male,female,loud"],
     {"protagonist": "park", "pushy_feminist": "park", "mad_stalker": "ruins"},
     {"male", "female"}, None, {"protagonist": "park", "pushy_feminist": "park"},
     {"protagonist": "mad_stalker", "pushy_feminist": "mad_stalker"}),
    # the Turf King's own death is announced in the next location
    ("R-11 own death", False, [], {"turf_king": "ruins", "yakuza": "ruins"},
     set(), None, {"turf_king": "underworld"}, {"turf_king": "yakuza"}),
    # P-3: the agitator may be the one chosen (right winger: +4 from Socrates)
    ("P-3 agitator chosen", False, [], {"agitator": "school", "socrates_in_love": "school", "right_winger": "school"},
     set(), "agitator", {"agitator": "school"}, {"agitator": "agitator"}),
    # R-7 2: Kenkichi (+3 from the feminist) walks into the ruins and meets the yakuza there
    ("Kenkichi moves first", False, [], {"wandering_kenkichi": "suburb", "pushy_feminist": "suburb", "yakuza": "ruins"},
     set(), None, {"wandering_kenkichi": "ruins"}, {"wandering_kenkichi": "yakuza"}),
    # P-12: verge of madness dies in the ruins, the slaughter angel takes the rest there
    ("P-12 slaughter", True, [], {"slaughter_angel": "ruins", "verge_of_madness": "ruins", "rage": "ruins"},
     set(), None, {"verge_of_madness": "ruins", "rage": "ruins"},
     {"verge_of_madness": "verge_of_madness", "rage": "slaughter_angel"}),
    # P-12: Princess Flute's location has no deaths, so no slaughter either
    ("P-12 protection", True, [], {"slaughter_angel": "ruins", "verge_of_madness": "ruins", "rage": "ruins",
                                   "princess_flute": "ruins"},
     set(), None, {}, {}),
    # R-12 / P-1: Misa negates the evil spirit (no stress, no kills) but it can still die
    ("R-12 negation", True, [], {"psychic_misa": "ruins", "evil_spirit": "ruins", "abe_descendant": "ruins",
                                 "laid_off_man": "ruins"},
     set(), None, {"evil_spirit": "ruins"}, {"evil_spirit": "abe_descendant"}),
]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s[0] for s in SCENARIOS])
def test_worked_examples(scenario):
    _, expansion, sets, layout, prot, pick, deaths, killed_by = scenario
    cfg = build_config(sets=sets, expansion=expansion)
    roster = compile_setup(cfg)

    def choose(actor, cands):
        return pick if pick in cands else cands[0]

    r = resolve_day(layout, protagonist=prot, choose=choose, roster=roster)
    _, _, n_deaths, n_killed_by = naive_day(cfg, layout, prot, choose)
    assert (n_deaths, n_killed_by) == (deaths, killed_by), "naive side"
    assert (r.deaths, r.killed_by) == (deaths, killed_by), "engine"
