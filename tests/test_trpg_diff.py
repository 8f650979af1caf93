"""Differential tests: the numba TRPG combat engine against the naive reference (tests/naive/trpg.py).

* whole combats: ``chunk_kernel()(key, g, 1, scenario.nb, out)`` vs ``naive_combat`` combat
  by combat (winner, rounds, and per character fell / lost / standing / damage dealt and
  taken) on both example scenarios, rule variants of them, and a few hundred randomly
  generated small scenarios (1v1 to 4v4, sometimes three sides; random skills, HP, weapons,
  armour, reactions, targets, movement, cover, heal / reduction / damage-bonus abilities,
  kaii, the grid, ``free_action`` criticals, ``hit_ally`` fumbles, symptoms and kaii
  control, monologues; and, in their own test, items — heal_hp / heal_mp consumables and
  tools, carried reductions, every action — and the monologue's chosen checks);
* the runner: ``sim.trpg.game.run`` vs the naive combats (the same totals, combat for
  combat, and the naive win rate against a large engine run as a statistic).

The reference can replay six departures from the rules page the engine once had
(``KNOWN_QUIRKS``, all fixed); each has a witness scenario on which the engine matches
the pages' reading and a naive game with the departure differs, so a regression shows.
"""
from __future__ import annotations

import math
from collections import Counter

import numba
import numpy as np
import pytest

from sim.core.config import load_toml
from sim.core.seeding import run_key
from sim.trpg.enums import CF, IF, N_IF
from sim.trpg.game_nb import C_DRAWS, C_GAMES, C_ROUNDS, chunk_kernel, new_counts
from sim.trpg.game import run
from sim.trpg.sheets import DATA, build_config, compile_setup, resolve_setup
from tests.naive.trpg import KNOWN_QUIRKS, naive_combat

SCEN = DATA / "scenarios"
KEY = run_key(20241130)
# `make test` runs this file again under NUMBA_DISABLE_JIT, where the engine is plain
# Python: the large engine run of the win-rate statistic is then 2 000 combats, not 20 000.
NOJIT = bool(numba.config.DISABLE_JIT)
FIELDS = ("winner", "rounds", "timeout", "fell", "lost", "standing", "dealt", "taken")


@pytest.fixture(scope="module")
def kernel():
    return chunk_kernel()


def engine_combat(kernel, sc, key, g) -> dict:
    out = new_counts(sc.nb)
    kernel(key, g, 1, sc.nb, out)
    assert int(out.scalars[C_GAMES]) == 1
    max_rounds = len(out.rounds_hist) - 2
    wins = out.wins.tolist()
    assert sum(wins) + int(out.scalars[C_DRAWS]) == 1
    return {
        "winner": wins.index(1) if 1 in wins else -1,
        "rounds": int(out.scalars[C_ROUNDS]),
        "timeout": bool(out.rounds_hist[max_rounds + 1]),
        "fell": out.fell.tolist(), "lost": out.lost.tolist(), "standing": out.survived.tolist(),
        "dealt": out.dealt.tolist(), "taken": out.taken.tolist(),
    }


def diff_combats(kernel, sc, key, games, start=0):
    """Compare combats [start, start+games); returns (mismatches, naive results)."""
    bad, results = [], []
    for g in range(start, start + games):
        eng = engine_combat(kernel, sc, key, g)
        res = naive_combat(sc, key, g)
        nv = {k: res[k] for k in FIELDS}
        results.append(res)
        if eng != nv:
            bad.append((g, {k: (eng[k], nv[k]) for k in FIELDS if eng[k] != nv[k]}))
    return bad, results


def _report(bad, what=""):
    return f"{what}{len(bad)} combat(s) differ; first (engine, naive): {bad[:3]}"


# ----------------------------------------------------------------------------- example scenarios

def _squad_grid() -> dict:
    cfg = load_toml(SCEN / "squad.toml")
    for i, cid in enumerate(cfg["characters"]):
        cfg["characters"][cid]["position"] = [cfg["characters"][cid]["position"], i % 3]
    cfg["characters"]["p1"]["strategy"] = {"target": "random", "monologue": "low_mp"}
    cfg["characters"]["g3"]["strategy"] = {"movement": "keep_range", "reaction": "dodge"}
    return cfg


EXAMPLES = {
    "alley": ("alley", []),
    "squad": ("squad", []),
    "alley_variants": ("alley", ["rules.critical=free_action", "rules.fumble=hit_ally", "scenario.first=kaii",
                                 "rules.max_rounds=16"]),  # kiting (T-6) makes combats longer
    "squad_grid": (_squad_grid, ["rules.grid=grid", "rules.awake_hours=21"]),
}


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_example_scenarios_match_naive(kernel, name):
    base, sets = EXAMPLES[name]
    sc = resolve_setup(base() if callable(base) else SCEN / f"{base}.toml", sets)
    bad, results = diff_combats(kernel, sc, KEY, 200)
    assert not bad, _report(bad)
    # not vacuous: combats are decided, people fall, many dice are rolled
    winners = Counter(r["winner"] for r in results)
    assert sum(v for w, v in winners.items() if w >= 0) > 50, winners
    if name == "alley":  # (squad's gang wins only ~2%: 200 combats may show none)
        assert len([w for w in winners if w >= 0]) == 2, winners
    if name == "alley_variants":
        assert sum(r["timeout"] for r in results) > 20  # R-13 draws at max_rounds = 16
    assert sum(sum(r["fell"]) for r in results) > 50
    assert sum(r["draws"] for r in results) > 200 * 30  # RNG draws per combat


# ----------------------------------------------------------------------------- random scenarios

DICE = ["1d3", "1d6", "2d6", "1d6+2", "3d6", "2d6-1d3", "4", "1d10", "0", "1d6-2", "d8+1", "2d6+1d3"]
BASE_WEAPONS = ["fists", "knife", "bat", "pistol", "rifle", "stone", "kaii_claw"]
EXTRA_SKILLS = ["endurance", "perception", "stealth", "medicine", "willpower"]


def _skill(rng) -> int:
    return int(np.clip(rng.normal(10, 4), 0, 30)) if rng.random() < 0.9 else int(rng.choice([0, 1, 25, 30]))


def random_weapon(rng) -> dict:
    kind = str(rng.choice(["melee", "ranged", "thrown"], p=[0.45, 0.4, 0.15]))
    w = {"dice": str(rng.choice(DICE)), "kind": kind, "physical": bool(rng.random() < 0.8)}
    if rng.random() < 0.15:
        w["enhanced"] = True
    if kind != "melee":
        w["bands"] = {b: int(rng.integers(-1, 7)) for b in ("zero", "near", "mid", "far") if rng.random() < 0.7}
        if rng.random() < 0.6:
            w["ammo"] = int(rng.integers(1, 4))
            w["reload"] = str(rng.choice(["sub", "main"]))
    return w


def random_ability(rng, sp: int) -> dict:
    kind = str(rng.choice(["heal", "reduction", "damage_bonus"]))
    # costs around SP: free (<= SP) or paid with MP (> SP), which drives MP <= 0
    cost = int(max(1, sp + rng.integers(-3, 6))) if rng.random() < 0.7 else int(rng.integers(1, 8))
    a = {"name": kind, "kind": kind, "cost": cost}
    if kind == "reduction" and rng.random() < 0.5:
        a["pct"] = int(rng.integers(5, 80))
    else:
        if rng.random() < 0.6:
            a["fixed"] = int(rng.integers(0, 5))
        if rng.random() < 0.6 or "fixed" not in a:
            a["dice"] = str(rng.choice(["1d3", "1d6", "2d6", "1d6-1d3"]))
    if kind == "damage_bonus" and rng.random() < 0.5:
        a["enhanced"] = True
    return a


def random_config(rng) -> dict:
    n_sides = 3 if rng.random() < 0.15 else 2
    sides = ["players", "kaii", "third"][:n_sides]
    grid = rng.random() < 0.3
    weapons = {f"w{k}": random_weapon(rng) for k in range(int(rng.integers(1, 4)))}
    wids = BASE_WEAPONS + list(weapons)
    chars = {}
    members = {s: int(rng.integers(1, 5)) for s in sides}
    spread = int(rng.integers(0, 7))
    for s in sides:
        for m in range(members[s]):
            sp = int(rng.integers(0, 7)) if rng.random() < 0.6 else int(rng.integers(15, 70))
            c = {
                "side": s,
                "position": ([int(rng.integers(0, spread + 1)), int(rng.integers(0, spread + 1))] if grid
                             else int(rng.integers(0, spread + 1))),
                "hp": int(rng.integers(1, 21)),
                "mp": int(rng.integers(0, 13)),
                "sp": sp,
                "skills": {k: _skill(rng) for k in ("athletics", "melee", "dodge", "shooting")},
                "weapons": [str(w) for w in rng.choice(wids, size=int(rng.integers(1, 4)), replace=False)],
            }
            if rng.random() < 0.3:
                c["skills"][str(rng.choice(EXTRA_SKILLS))] = int(rng.integers(0, 20))
            if rng.random() < 0.2:
                c["kaii"] = True
            if rng.random() < 0.4:
                c["armour"] = {"pct": int(rng.integers(0, 60)), "fixed": int(rng.integers(0, 3))}
            if rng.random() < 0.2:
                c["items"] = {"reduction": int(rng.integers(1, 3))}
            if rng.random() < 0.5:
                c["abilities"] = [random_ability(rng, sp) for _ in range(int(rng.integers(1, 3)))]
            if rng.random() < 0.3:
                c["guard_parts"] = [p for p in ("left_arm", "right_arm") if rng.random() < 0.5]
            st = {}
            if rng.random() < 0.8:
                st["target"] = str(rng.choice(["random", "weakest", "nearest", "dangerous"]))
            if rng.random() < 0.8:
                st["reaction"] = str(rng.choice(["none", "dodge", "guard", "auto"]))
            if rng.random() < 0.4:
                st["dodge_threshold"] = float(rng.choice([0.0, 0.2, 0.35, 0.5, 0.8, 1.0]))
            if rng.random() < 0.4:
                st["cover"] = bool(rng.random() < 0.5)
            if rng.random() < 0.5:
                st["movement"] = str(rng.choice(["close_in", "keep_range"]))
            if rng.random() < 0.5:
                st["life_mp"] = int(rng.integers(0, 8))
            if rng.random() < 0.6:
                st["monologue"] = str(rng.choice(["never", "fallen", "low_mp"]))
            if rng.random() < 0.4:
                st["heal_below"] = float(rng.choice([0.3, 0.5, 0.9, 1.0]))
            if rng.random() < 0.3:
                st["heal_any"] = True  # T-13: heal whenever below heal_below
            if rng.random() < 0.2:
                st["cover_any"] = True  # T-2: cover whenever able
            elif rng.random() < 0.3:
                st["cover_raw"] = True  # T-2: the first rule of 2026-12-07
            if st:
                c["strategy"] = st
            chars[f"{s[0]}{m}"] = c
    rules = {
        "critical": str(rng.choice(["double", "free_action"])),
        "fumble": str(rng.choice(["lose_turn", "hit_ally"])),
        "max_rounds": int(rng.choice([3, 8, 20, 100])),
        "grid": "grid" if grid else "line",
        "awake_hours": int(rng.choice([0, 0, 0, 20, 23])),
    }
    cfg = {"scenario": {"name": "random", "sides": sides, "first": str(rng.choice(sides))},
           "rules": rules, "weapons": weapons, "characters": chars}
    if rng.random() < 0.3:
        cfg["symptoms"] = [{"max": int(m), "penalty": int(rng.integers(0, 6))}
                           for m in sorted(rng.choice(np.arange(3, 19), size=int(rng.integers(1, 4)), replace=False))]
    return cfg


def _features(cfg: dict) -> set[str]:
    r = cfg["rules"]
    f = {r["critical"], r["fumble"], r["grid"], f"{len(cfg['scenario']['sides'])}sides"}
    for c in cfg["characters"].values():
        f |= {a["kind"] for a in c.get("abilities", [])}
        f |= {"kaii"} if c.get("kaii") else set()
    return f


@pytest.mark.parametrize("batch", range(4))
def test_random_scenarios_match_naive(kernel, batch):
    rng = np.random.default_rng(1000 + batch)
    key = run_key(77, batch)
    bad, n, feats = [], 0, set()
    totals = Counter()
    for case in range(45):
        cfg = random_config(rng)
        sc = compile_setup(build_config(cfg))
        feats |= _features(cfg)
        b, results = diff_combats(kernel, sc, key, 4, start=4 * case)
        n += len(results)
        bad += [(case, g, d) for g, d in b]
        for r in results:
            totals["fell"] += sum(r["fell"])
            totals["lost"] += sum(r["lost"])
            totals["timeout"] += r["timeout"]
            totals["decided"] += r["winner"] >= 0
    assert not bad, f"{len(bad)} of {n} combats differ; first (case, g, (engine, naive)): {bad[:3]}"
    assert n == 180
    assert {"heal", "reduction", "damage_bonus", "kaii", "grid", "free_action", "hit_ally"} <= feats, feats
    assert totals["fell"] > 50 and totals["lost"] > 5 and totals["decided"] > 50


# Items (R-19, T-12) and the monologue's chosen checks on random scenarios.
def _with_items(cfg: dict, rng) -> dict:
    """``cfg`` (:func:`random_config`) with items of every kind and action, item thresholds
    and the monologue's check kinds (R-20)."""
    cfg["items"] = {
        "salve": {"kind": str(rng.choice(["consumable", "tool"])), "effect": "heal_hp",
                  "action": str(rng.choice(["main_or_sub", "main", "sub"])), "dice": "1d6", "fixed": 1},
        "tea": {"effect": "heal_mp", "fixed": int(rng.integers(1, 6)),
                "action": str(rng.choice(["main_or_sub", "main", "sub"]))},
        "amulet": {"kind": "tool", "effect": "reduction", "fixed": int(rng.integers(1, 3))},
    }
    for c in cfg["characters"].values():
        st = c.setdefault("strategy", {})
        if rng.random() < 0.7:
            active = [str(k) for k in rng.choice(["salve", "first_aid", "tea", "tonic"], size=int(rng.integers(1, 4)),
                                                 replace=False)]
            c["items"] = {k: int(rng.integers(0, 3)) for k in active + (["amulet"] if rng.random() < 0.3 else [])}
        st["item_hp_at"] = float(rng.choice([0.0, 0.3, 0.5, 0.9, 1.0]))
        st["item_mp_at"] = float(rng.choice([0.0, 0.3, 1.0]))
        st["item_action"] = str(rng.choice(["main", "sub"]))
        st["monologue"] = str(rng.choice(["fallen", "low_mp"]))
        st["monologue_checks"] = [k for k in ("attack", "dodge", "cover", "move", "life") if rng.random() < 0.5]
    return cfg


def test_random_scenarios_with_items_match_naive(kernel):
    rng = np.random.default_rng(4242)
    key = run_key(16, 19)
    bad, n, used = [], 0, Counter()
    for case in range(40):
        cfg = _with_items(random_config(rng), rng)
        sc = compile_setup(build_config(cfg))
        used["slots"] += int(sum((sc.nb.chars[:, CF.ITEM0 + N_IF * k + IF.EFFECT] > 0).sum() for k in range(3)))
        b, results = diff_combats(kernel, sc, key, 4, start=4 * case)
        n += len(results)
        bad += [(case, g, d) for g, d in b]
    assert not bad, f"{len(bad)} of {n} combats differ; first (case, g, (engine, naive)): {bad[:3]}"
    assert used["slots"] > 60


# Focused random scenarios: the rarer paths on purpose (MP drains into kaii control,
# symptoms, monologues, fumbles into allies, ammunition and reloads, arm guards).
def focused_config(rng, kind: str) -> dict:
    cfg = random_config(rng)
    for c in cfg["characters"].values():
        st = c.setdefault("strategy", {})
        if kind == "control":
            c["sp"] = int(rng.integers(15, 91))
            c["mp"] = int(rng.integers(0, 4))
            c["abilities"] = [{"kind": "damage_bonus", "cost": c["sp"] + int(rng.integers(1, 3)), "fixed": 1}]
            st["monologue"] = str(rng.choice(["never", "fallen", "low_mp"]))
        elif kind == "fumbles":
            for k in c["skills"]:
                c["skills"][k] = int(rng.choice([0, 2, 30]))
            st["cover"] = True
        elif kind == "guards":
            st["reaction"] = "guard"
            c["weapons"] = [str(rng.choice(["fists", "pistol", "knife", "kaii_claw", "stone"]))
                            for _ in range(int(rng.integers(1, 3)))]
            c["weapons"] = list(dict.fromkeys(c["weapons"]))
            c["hp"] = int(rng.integers(15, 40))
        elif kind == "fallen":  # falls, life checks, heals, control around a fall
            c["position"] = [0, 0] if cfg["rules"]["grid"] == "grid" else 0
            c["sp"] = int(rng.integers(15, 91))
            c["mp"] = int(rng.choice([1, 2, 3, 8, 12]))
            c["hp"] = int(rng.integers(2, 10))
            c["abilities"] = [{"kind": "damage_bonus", "cost": c["sp"] + 1, "fixed": 1}]
            if rng.random() < 0.6:
                c["abilities"].append({"kind": "heal", "cost": 1, "fixed": int(rng.integers(1, 12))})
            st["heal_below"] = 1.0
            st["life_mp"] = int(rng.integers(2, 12))
            st["monologue"] = str(rng.choice(["never", "fallen"]))
    if kind == "fallen":
        cfg["rules"]["awake_hours"] = int(rng.choice([0, 20, 22]))
        cfg["rules"]["max_rounds"] = 20
    if kind == "fumbles":
        cfg["rules"]["fumble"] = str(rng.choice(["lose_turn", "hit_ally"]))
    return cfg


FOCUS = ["control", "fumbles", "guards", "fallen"]


@pytest.mark.parametrize("kind", FOCUS)
def test_focused_random_scenarios_match_naive(kernel, kind):
    k = FOCUS.index(kind)
    rng = np.random.default_rng(2000 + k)
    key = run_key(99, k)
    bad, n = [], 0
    for case in range(40):
        cfg = focused_config(rng, kind)
        sc = compile_setup(build_config(cfg))
        b, results = diff_combats(kernel, sc, key, 3, start=3 * case)
        n += len(results)
        bad += [(case, g, d) for g, d in b]
    assert not bad, f"{len(bad)} of {n} combats differ; first (case, g, (engine, naive)): {bad[:3]}"


# ----------------------------------------------------------------------------- runner


def test_run_matches_naive_combat_for_combat():
    games, seed = 300, 11
    sc = resolve_setup(SCEN / "alley.toml")
    r = run(games, seed, scenario=sc, threads=2, chunk_size=64)
    key = run_key(seed)
    naive = [naive_combat(sc, key, g) for g in range(games)]
    t = r.totals
    n_sides = len(sc.sides)
    assert int(t["scalars"][C_GAMES]) == games
    assert t["wins"].tolist() == [sum(x["winner"] == s for x in naive) for s in range(n_sides)]
    assert int(t["scalars"][C_DRAWS]) == sum(x["winner"] < 0 for x in naive)
    assert int(t["scalars"][C_ROUNDS]) == sum(x["rounds"] for x in naive)
    for k, field in (("fell", "fell"), ("lost", "lost"), ("survived", "standing"), ("dealt", "dealt"),
                     ("taken", "taken")):
        assert t[k].tolist() == [sum(x[field][i] for x in naive) for i in range(sc.n)], k
    hist = Counter(x["rounds"] + x["timeout"] for x in naive)
    assert t["rounds_hist"].tolist() == [hist[i] for i in range(len(t["rounds_hist"]))]


def test_run_win_rate_statistic():
    """The naive win rate (400 combats of one run) and a large engine run (another seed)
    agree within 4 standard errors of the difference. It sees only a gap of 13 points or more
    (tests/power.py): the combat-for-combat equality above is the test of the engine; this
    one checks that the runner's batches are those combats."""
    sc = resolve_setup(SCEN / "squad.toml")
    n_big = 2_000 if NOJIT else 20_000
    big = run(n_big, 3, scenario=sc, threads=2)
    p_big = big.to_json()["win_rate"]["players"]
    key = run_key(4)
    n = 400
    w = sum(naive_combat(sc, key, g)["winner"] == 0 for g in range(n))
    p = w / n
    se = math.sqrt(p_big * (1 - p_big) * (1 / n + 1 / n_big))
    assert abs(p - p_big) < 4 * se, (p, p_big, se)
    # and the engine's own 95 % interval is narrow and holds its estimate
    s = big.to_json()
    assert s["ci_low"]["players"] <= p_big <= s["ci_high"]["players"]
    assert s["ci_high"]["players"] - s["ci_low"]["players"] < 0.03 * math.sqrt(20_000 / n_big)


# ----------------------------------------------------------------------------- the quirks are real
# Small scenarios where each departure of the engine from the pages shows up in whole
# combats: the reference *with* the quirk matches the engine combat by combat, the
# reference without it does not (the rule-by-rule evidence is in tests/test_trpg_rules.py).

def _witness(q: str):
    if q == "fists_are_a_weapon":  # g4 has fists only (auto would dodge: make it guard)
        return resolve_setup(SCEN / "squad.toml", ["characters.g4.strategy.reaction=guard"]), 30
    if q == "fumble_only_attack_dodge":
        return resolve_setup(SCEN / "alley.toml"), 150
    sk = {"athletics": 10, "melee": 12, "dodge": 8, "shooting": 12}
    gun = {"dice": "2d6", "kind": "ranged", "ammo": 1, "reload": "main"}
    if q == "cyclic_side_order":
        chars = {f"c{s}": {"side": s, "hp": 8, "position": 2 * k, "skills": sk, "weapons": ["pistol"],
                           "strategy": {"target": "weakest", "reaction": "none"}}
                 for k, s in enumerate(["a", "b", "c"])}
        cfg = {"scenario": {"sides": ["a", "b", "c"], "first": "b"}, "characters": chars}
    elif q == "life_check_no_penalty":
        chars = {"hero": {"side": "p", "hp": 30, "skills": sk, "weapons": ["bat"]},
                 "mook": {"side": "k", "hp": 3, "position": 1, "skills": sk, "weapons": ["fists"],
                          "mp": 12, "strategy": {"life_mp": 10, "monologue": "never"}},
                 "boss": {"side": "k", "hp": 60, "position": 6, "skills": sk, "weapons": ["stone"]}}
        cfg = {"scenario": {"sides": ["p", "k"]}, "rules": {"awake_hours": 24}, "characters": chars}
    elif q in ("controlled_fires_empty", "fall_clears_control"):
        ctl = {"side": "p", "hp": 6, "mp": 1, "sp": 90, "skills": sk, "weapons": ["gun"],
               "abilities": [{"kind": "damage_bonus", "cost": 91, "fixed": 1}],
               "strategy": {"monologue": "never", "life_mp": 0, "reaction": "none"}}
        chars = {"medic": {"side": "p", "hp": 30, "skills": sk, "weapons": ["pistol"],
                           "abilities": [{"kind": "heal", "cost": 1, "fixed": 10}], "sp": 5,
                           "strategy": {"heal_below": 1.0, "cover": False}},
                 "ctl": ctl,
                 "foe": {"side": "k", "hp": 80, "position": 1, "skills": sk, "weapons": ["knife"],
                         "strategy": {"target": "weakest"}}}
        # hp_public: the foe's `weakest` must see ctl's exact HP (6 of 6 is the same band as
        # the medic's 30 of 30, and a band tie goes to the medic, who never falls controlled)
        cfg = {"scenario": {"sides": ["p", "k"]}, "weapons": {"gun": gun}, "characters": chars,
               "rules": {"max_rounds": 15, "hp_public": True}}
    else:  # pragma: no cover
        raise KeyError(q)
    return compile_setup(build_config(cfg)), 60


@pytest.mark.parametrize("quirk", sorted(KNOWN_QUIRKS))
def test_each_fixed_departure_would_be_caught(kernel, quirk):
    sc, games = _witness(quirk)
    bad, results = diff_combats(kernel, sc, KEY, games)
    assert not bad, _report(bad)
    differ = sum({k: naive_combat(sc, KEY, g, {quirk})[k] for k in FIELDS} != {k: results[g][k] for k in FIELDS}
                 for g in range(games))
    assert differ > 0, f"the departure {quirk!r} would not show in these combats"
