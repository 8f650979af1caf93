"""Honest information in the TRPG (issue 12): separate streams, whitelisted read-only
views, labelled oracles, hostile plug-ins that learn nothing, and traces that are the
batch kernel's own games."""
from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import numba as nb
import numpy as np
import pytest
from scipy import stats
from typer.testing import CliRunner

from sim.cli import app
from sim.core.seeding import run_key
from sim.core.trace import log_rows, new_log
from sim.trpg.enums import CK, CF, EV, OUT, B
from sim.trpg.game import kernel_of, run, scenario_oracles
from sim.trpg.game_nb import C_GAMES, new_counts
from sim.trpg.protocol import GAME
from sim.trpg.rules_nb import p_success216_nb
from sim.trpg.sheets import compile_setup, resolve_setup
from sim.trpg.trace import FIND_KEYS, result_of, trace
from sim.trpg.views import HIDDEN, ORACLE_FIELDS, WHITELIST, OracleView, View, honest_view_nb, hp_band_nb, \
    new_board_nb, oracle_view_nb

ROOT = Path(__file__).resolve().parents[1]
SQUAD = ROOT / "sim" / "trpg" / "data" / "scenarios" / "squad.toml"
ALLEY = ROOT / "sim" / "trpg" / "data" / "scenarios" / "alley.toml"
NOJIT = bool(nb.config.DISABLE_JIT)
runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


# ----------------------------------------------------------------------------- the whitelist
def _documented_fields() -> list[str]:
    text = (ROOT / "docs" / "rules" / "trpg.md").read_text(encoding="utf-8")
    sec = text.split("## What the player knows", 1)[1].split("\n## ", 1)[0]
    names = []
    for line in sec.splitlines():
        m = re.match(r"^- (.*?) — ", line)
        if m:
            names += re.findall(r"`([a-z_]+)`", m.group(1))
    return names


def test_rules_page_lists_exactly_the_whitelist():
    assert _documented_fields() == list(WHITELIST)


def test_view_fields_are_the_whitelist():
    # ``why`` (last) is the reason sink of sim.core.reasons, not knowledge: None unless traced
    assert View._fields == WHITELIST + ("why",)
    assert OracleView._fields == ORACLE_FIELDS + ("why",)
    assert "rng" not in WHITELIST and "bs" not in WHITELIST and "sc" not in WHITELIST


def test_hp_public_is_a_documented_rule_defaulting_to_false():
    sc = resolve_setup(SQUAD)
    from sim.trpg.enums import RL

    assert sc.nb.rules[RL.HP_PUBLIC] == 0
    assert resolve_setup(SQUAD, ["rules.hp_public=true"]).nb.rules[RL.HP_PUBLIC] == 1
    assert "hp_public" in (ROOT / "docs" / "trpg.md").read_text(encoding="utf-8")
    assert "hp_public = false" in (ROOT / "sim" / "trpg" / "data" / "system.toml").read_text(encoding="utf-8")


N_B = len(B)


@nb.njit
def _battle(S, hp3):
    n = S.chars.shape[0]
    bs = np.zeros((n, N_B), np.int64)
    for j in range(n):
        bs[j, B.HP] = S.chars[j, CF.HP]
        bs[j, B.BAND] = hp_band_nb(bs[j, B.HP], S.chars[j, CF.HP])
    bs[3, B.HP] = hp3
    bs[3, B.BAND] = hp_band_nb(hp3, S.chars[3, CF.HP])
    return bs


@nb.njit
def _views(S, me, hp3):
    bs = _battle(S, hp3)
    hid = new_board_nb(S)
    v = honest_view_nb(hid, S, bs, 2, me)
    hp = v.hp.copy()
    band = v.hp_band.copy()
    o = oracle_view_nb(hid, S, bs, 2, me)
    return hp, band, v.round, o.bs[3, B.HP], v.state[B.HP]


def test_view_shows_bands_and_hides_exact_hp():
    sc = resolve_setup(SQUAD)
    hp, band, rnd, exact, own = _views(sc.nb, 0, 4)  # p4: 4 of 13 HP
    assert rnd == 2 and own == sc.nb.chars[0, CF.HP]
    assert all(h == HIDDEN for h in hp)
    assert band[3] == 1 and band[0] == 3 and exact == 4
    pub = resolve_setup(SQUAD, ["rules.hp_public=true"])
    hp, band, *_ = _views(pub.nb, 0, 4)
    assert hp[3] == 4 and hp[1] == pub.nb.chars[1, CF.HP]
    hp, band, *_ = _views(sc.nb, 0, 0)
    assert band[3] == 0


@nb.njit
def _call_reaction(S, f):
    bs = _battle(S, 1)
    return f(np.zeros(4, np.uint64), honest_view_nb(new_board_nb(S), S, bs, 1, 0), 0, 1, True)


@nb.njit
def _call_target(S, f):
    bs = _battle(S, 1)
    return f(np.zeros(4, np.uint64), honest_view_nb(new_board_nb(S), S, bs, 1, 0), 0, np.uint64(2))


@nb.njit
def _write_oracle(S):
    bs = _battle(S, 1)
    o = oracle_view_nb(new_board_nb(S), S, bs, 1, 0)
    o.bs[0, 0] = 5
    return 0


@pytest.mark.parametrize("call,fn", [("reaction", "write_reaction"), ("target", "write_target")])
def test_writing_into_a_view_fails(call, fn):
    from tests.plugins import hostile_trpg as H

    sc = resolve_setup(SQUAD)
    f = _call_reaction if call == "reaction" else _call_target
    with pytest.raises(Exception) as e:
        f(sc.nb, getattr(H, fn))
    assert "setitem" in str(e.value) or "read-only" in str(e.value)


def test_the_oracle_view_is_read_only_too():
    with pytest.raises(Exception) as e:
        _write_oracle(resolve_setup(SQUAD).nb)
    assert "setitem" in str(e.value) or "read-only" in str(e.value)


def test_xoshiro_rewind_inverts_a_step():
    from sim.core.rng import next_u64_nb
    from tests.plugins.hostile_trpg import xoshiro_back

    s = np.array([1, 2, 3, 0xDEADBEEF], np.uint64)
    t = s.copy()
    for _ in range(5):
        next_u64_nb(t)
    for _ in range(5):
        xoshiro_back(t)
    assert (t == s).all()


# ----------------------------------------------------------------------------- hostile plug-ins
DUEL = """
[scenario]
sides = ["a", "b"]
[rules]
max_rounds = 40
[weapons.c5]
dice = "5"
kind = "melee"
[characters.a1]
side = "a"
position = 0
hp = 100000
skills = { melee = 30 }
weapons = ["c5"]
strategy = { reaction = "REACT_A", cover = false }
[characters.a2]
side = "a"
position = 10
hp = 100000
skills = { melee = 30 }
weapons = ["c5"]
strategy = { reaction = "none", cover = false }
[characters.a3]
side = "a"
position = 20
hp = 100000
skills = { melee = 30 }
weapons = ["c5"]
strategy = { reaction = "none", cover = false }
[characters.peek]
side = "b"
position = 0
hp = 100000
sp = 0
skills = { melee = 0, dodge = 10 }
weapons = ["c5"]
strategy = { reaction = "REACT_1", cover = false }
[characters.rewind]
side = "b"
position = 10
hp = 100000
sp = 1
skills = { melee = 0, dodge = 10 }
weapons = ["c5"]
strategy = { reaction = "REACT_2", cover = false }
[characters.always]
side = "b"
position = 20
hp = 100000
skills = { melee = 0, dodge = 10 }
weapons = ["c5"]
strategy = { reaction = "dodge", cover = false }
"""
HOSTILE = "tests.plugins.hostile_trpg:hostile_reaction"


def _duel(tmp_path: Path):
    text = DUEL.replace("REACT_A", HOSTILE).replace("REACT_1", HOSTILE).replace("REACT_2", HOSTILE)
    p = tmp_path / "duel.toml"
    p.write_text(text)
    return resolve_setup(p)


def _dodges(setup, seed: int, games: int) -> dict[str, list[int]]:
    """Per defender: [reactions offered, dodges tried, dodges succeeded] from the event log."""
    kern = kernel_of(setup, trace=True)
    key = run_key(seed)
    got = {cid: [0, 0, 0] for cid in setup.ids}
    for g in range(games):
        out = new_counts(setup.nb)
        log = new_log()
        kern(key, g, 1, setup.nb, out, log)
        rows, cut = log_rows(log)
        assert not cut
        for r in rows:
            if r[0] == EV.REACTION:
                got[setup.ids[r[1]]][0] += 1
                got[setup.ids[r[1]]][1] += r[3] == 1
            elif r[0] == EV.CHECK and r[2] == CK.DODGE:
                got[setup.ids[r[1]]][2] += r[6] in (OUT.SUCCESS, OUT.CRITICAL)
    return got


P_DODGE = p_success216_nb(10, 0) / 216  # dodge 10, no penalty: 108/216


@pytest.mark.skipif(NOJIT, reason="thousands of traced combats: compiled engine only")
def test_hostile_reactions_predict_no_better_than_chance(tmp_path):
    setup = _duel(tmp_path)
    got = _dodges(setup, seed=12, games=150)
    always = got["always"]
    assert always[0] > 4000 and always[1] == always[0]
    for cid in ("peek", "rewind"):
        offered, tried, ok = got[cid]
        assert offered > 4000 and 0.3 < tried / offered < 0.7  # it "predicted" success about half the time
        # its dodges succeed as often as anyone's: the prediction carries no information
        assert stats.binomtest(ok, tried, P_DODGE).pvalue > 0.001, (cid, ok, tried)
        table = [[ok, tried - ok], [always[2], always[1] - always[2]]]
        assert stats.fisher_exact(table).pvalue > 0.001, (cid, table)
    assert stats.binomtest(always[2], always[1], P_DODGE).pvalue > 0.001


def test_the_test_detects_a_real_peek(tmp_path):
    """Power: the same predictor, run in Python on a copy of the rules' stream (what a
    plug-in would have if it got the live state), dodges with a success rate far above
    chance, and the same binomial test rejects it."""
    from sim.core.rng import randint_nb
    from tests.naive.trpg import DODGE, NONE, Combat, Rng

    cfg = copy.deepcopy(_duel(tmp_path).config)
    for cid in ("a1", "peek", "rewind"):
        cfg["characters"][cid]["strategy"]["reaction"] = "none"
    tried = ok = 0

    class Peeking(Combat):
        def choose_reaction(self, d, can_dodge, att):
            nonlocal tried
            if d.cid != "peek" or not can_dodge:
                return super().choose_reaction(d, can_dodge, att)
            s = self.rng.state.copy()
            roll = sum(int(randint_nb(s, 6)) + 1 for _ in range(3))
            if roll == 3 or (roll != 18 and roll <= d.skill("dodge")):
                tried += 1
                return DODGE
            return NONE

        def check(self, c, target, penalty, kind):
            nonlocal ok
            oc = super().check(c, target, penalty, kind)
            if c.cid == "peek" and self._dodging:
                ok += oc in ("success", "critical")
            return oc

        def damage(self, att, d, w, crit, covered, reaction):
            self._dodging = d.cid == "peek"
            try:
                return super().damage(att, d, w, crit, covered, reaction)
            finally:
                self._dodging = False

    key = run_key(12)
    for g in range(40):
        c = Peeking(cfg, Rng(key, g), side_rngs=[Rng(key, g, 1 + s) for s in range(2)])
        c._dodging = False
        c.play()
    assert tried > 500 and ok / tried > 0.98
    assert stats.binomtest(ok, tried, P_DODGE).pvalue < 1e-12


# ----------------------------------------------------------------------------- oracles
ORACLE_SQUAD = ["--set", "characters.p3.strategy.target=oracle_focus"]


def test_oracle_is_labelled_in_text_json_and_manifest(tmp_path):
    setup = resolve_setup(SQUAD, ["characters.p3.strategy.target=oracle_focus"])
    assert scenario_oracles(setup) == {"p3": "target=oracle_focus"}
    assert scenario_oracles(resolve_setup(SQUAD)) == {}
    r = invoke("trpg", "run", SQUAD, "--games", "2000", "--json", *ORACLE_SQUAD)
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["oracles"] == {"p3": "target=oracle_focus"}
    out = tmp_path / "o"
    r = invoke("trpg", "run", SQUAD, "--games", "2000", "--out", out, *ORACLE_SQUAD)
    assert r.exit_code == 0, r.output
    assert "ORACLE" in r.output
    from sim.core.output import read_manifest

    assert read_manifest(out)["oracles"] == {"p3": "target=oracle_focus"}
    r = invoke("trpg", "run", SQUAD, "--games", "500", "--json")
    assert "oracles" not in json.loads(r.stdout)


# ----------------------------------------------------------------------------- traces
def _batch_one(kernel, setup, key, g):
    out = new_counts(setup.nb)
    kernel(key, g, 1, setup.nb, out)
    assert int(out.scalars[C_GAMES]) == 1
    return result_of(out, setup)


@pytest.mark.skipif(NOJIT, reason="1,000 traced combats: compiled engine only")
def test_trace_and_batch_agree_on_1000_games():
    setup = resolve_setup(SQUAD)
    kernel = kernel_of(setup)
    key = run_key(7)
    wins = {s: 0 for s in setup.sides}
    for g in range(1000):
        tr = trace(setup, 7, g)
        assert not tr.cut
        assert tr.result == _batch_one(kernel, setup, key, g), g
        end = tr.events[-1]
        assert end["event"] == "end" and end["winner"] == tr.result["winner"]
        assert end["rounds"] == tr.result["rounds"]
        assert sorted({e["actor"] for e in tr.events if e["event"] == "fall"}) == sorted(tr.result["fell"])
        assert sorted(e["actor"] for e in tr.events if e["event"] == "lost") == sorted(tr.result["lost"])
        assert max(e.get("round", 0) for e in tr.events) == tr.result["rounds"]
        for e in tr.events:
            assert e["rule"] and e["text"] and e["group"].startswith("round ")
        if tr.result["winner"] != "draw":
            wins[tr.result["winner"]] += 1
    r = run(1000, 7, scenario=setup, threads=1)  # the same games as one batch
    assert [wins[s] for s in setup.sides] == r.totals["wins"].tolist()


def test_trace_events_name_checks_damage_steps_and_rules():
    tr = trace(resolve_setup(SQUAD), 7, 3)
    kinds = {e["event"] for e in tr.events}
    assert {"round", "attack", "check", "damage", "hit", "end"} <= kinds
    chk = next(e for e in tr.events if e["event"] == "check" and e["roll"])
    assert {"roll", "target", "penalty", "outcome", "critical", "fumble"} <= set(chk)
    dmg = [e for e in tr.events if e["event"] == "damage"]
    assert dmg[0]["step"] == "damage roll" and all(e["rule"] in ("R-2", "R-9", "R-10") for e in dmg)


def test_find_keys_of_the_protocol():
    assert GAME.find_keys == FIND_KEYS and GAME.group_word == "round"
    assert set(FIND_KEYS) <= set(trace(resolve_setup(SQUAD), 1, 0, events=False).result)


def test_cli_trace_text_and_json():
    r = invoke("trpg", "trace", SQUAD, "--seed", "3", "--game", "5")
    assert r.exit_code == 0, r.output
    assert "round 1" in r.output and "(R-1)" in r.output and "result" in r.output
    r = invoke("trpg", "trace", SQUAD, "--seed", "3", "--game", "5", "--json")
    assert r.exit_code == 0, r.output
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    last = lines[-1]
    assert last["event"] == "result" and last["game"] == 5 and last["winner"] in ("players", "gang", "draw")
    assert last == {"event": "result", "game": 5, "seed": 3, "cut": False,
                    **json.loads(json.dumps(trace(resolve_setup(SQUAD), 3, 5, events=False).result))}


def test_cli_trace_find_takes_the_first_matching_game():
    setup = resolve_setup(SQUAD)
    want = next(g for g in range(5000) if trace(setup, 4, g, events=False).result["rounds"] >= 9)
    r = invoke("trpg", "trace", SQUAD, "--seed", "4", "--find", "rounds>=9", "--json")
    assert r.exit_code == 0, r.output
    last = json.loads(r.stdout.splitlines()[-1])
    assert last["game"] == want and last["rounds"] >= 9
    r = invoke("trpg", "trace", SQUAD, "--seed", "4", "--find", "lost=p1")
    assert r.exit_code == 0, r.output and "first match" in r.output


def test_cli_trace_unknown_find_key_is_one_error_line():
    r = invoke("trpg", "trace", SQUAD, "--find", "round>=3")
    assert r.exit_code == 2
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert len(lines) == 1 and "round" in lines[0] and "rounds" in lines[0]


@pytest.mark.parametrize("hp_public, victim", [(False, "big"), (True, "small")])
def test_weakest_reads_the_band_unless_hp_is_public(hp_public, victim):
    """Both enemies are unhurt (band 3): `weakest` cannot tell them apart and takes the
    first in sheet order; with `rules.hp_public` it sees 5 < 50 and takes the small one."""
    from sim.trpg.sheets import build_config

    sk = {"melee": 30}
    chars = {"att": {"side": "a", "hp": 100, "skills": sk, "weapons": ["c6"],
                     "strategy": {"target": "weakest", "reaction": "none"}},
             "big": {"side": "b", "hp": 50, "position": 1, "skills": {"melee": 0}, "weapons": ["fists"],
                     "strategy": {"reaction": "none", "cover": False}},
             "small": {"side": "b", "hp": 5, "position": 1, "skills": {"melee": 0}, "weapons": ["fists"],
                       "strategy": {"reaction": "none", "cover": False}}}
    cfg = {"scenario": {"sides": ["a", "b"]}, "weapons": {"c6": {"dice": "6", "kind": "melee"}},
           "characters": chars, "rules": {"max_rounds": 1, "hp_public": hp_public}}
    r = run(400, 1, scenario=compile_setup(build_config(cfg)), threads=1)
    taken = dict(zip(r.tables["characters"]["character"], r.tables["characters"]["damage_taken"]))
    other = "small" if victim == "big" else "big"
    assert taken[victim] > 5 and taken[other] == 0


def test_a_plugin_named_oracle_gets_the_judges_view_and_is_labelled():
    spec = "tests.plugins.hostile_trpg:oracle_lowest_hp"
    sets = ["--set", f"characters.p1.strategy.target={spec}"]
    r = invoke("trpg", "run", SQUAD, "--games", "1000", "--json", *sets)
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["oracles"] == {"p1": f"target={spec}"}
