"""The Monte Carlo engine under random play agrees with the role chain (sim/werewolf/exact_roles.py).

Every seed role, every vote / start / end rule, the runoff cap, R-2 (``accomplice_counts_as``),
R-6 (``abilities_after_elimination``), changed role data and a binding ``max_days``.

Tolerance: for each case the engine's village win rate over N = 200 000 games at a fixed seed
must be within 4·SE of the chain's value, SE = sqrt(p(1 − p)/N) with p the chain's value
(a false alarm has probability ≈ 6.3e-5 per check, ≈ 4e-3 over the ≈ 60 checks of this
file); likewise the draw rate (where the chain has draws) and the mean number of days,
whose SE uses the engine's sample standard deviation from ``days_hist``. On
werewolf / villager / seer tables the chain must equal the fraction solver to 1e-12, and
on small tables with every acting role an independent labelled brute force (no symmetry
reduction) to 1e-12.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.werewolf.exact import END_RULES, STARTS, VOTE_RULES, exact_summary
from sim.werewolf.exact_roles import chain_of, roles_summary, solve
from sim.werewolf.game import run
from sim.werewolf.roles import resolve_setup

GAMES = 200_000
SEED = 271828
DEFAULT = "fenrir,hati,accomplice,seer,medium,paladin,witch,villager*5"

# (roles, --set items)
CASES = [
    (DEFAULT, []),
    (DEFAULT, ["variants.start=night"]),
    (DEFAULT, ["variants.vote_rule=plurality"]),
    (DEFAULT, ["variants.vote_rule=random_lynch", "variants.end_rule=no_villagers"]),
    (DEFAULT, ["variants.end_rule=no_villagers"]),
    (DEFAULT, ["variants.accomplice_counts_as=village"]),
    (DEFAULT, ["variants.abilities_after_elimination=true"]),
    (DEFAULT, ["variants.max_runoffs=0"]),
    (DEFAULT, ["variants.max_runoffs=1", "variants.start=night"]),
    (DEFAULT, ["variants.max_days=3"]),                         # draws
    (DEFAULT, ["roles.fenrir.drag=1", "roles.paladin.protect_count=3"]),
    ("fenrir,werewolf,villager*6", []),
    ("fenrir*2,villager*8", []),                                # two drags in one two-way tie
    ("hati,werewolf,seer,medium,villager*4", []),
    ("paladin,werewolf*2,villager*6", []),
    ("paladin,werewolf*2,villager*5", ["roles.paladin.protect_count=3"]),
    ("paladin,werewolf*2,villager*6", ["roles.paladin.protect_count=1", "variants.start=night"]),
    ("paladin,werewolf,villager*2", ["variants.end_rule=no_villagers", "variants.max_runoffs=0"]),
    ("witch,werewolf*2,villager*5", []),
    ("witch,werewolf*2,villager*5", ["variants.abilities_after_elimination=true", "variants.start=night"]),
    ("accomplice,werewolf,villager*5", ["variants.accomplice_counts_as=village"]),
    ("accomplice,werewolf*2,villager*6", ["variants.vote_rule=plurality"]),
    ("accomplice,werewolf,villager*5", ["variants.lone_accomplice_attacks=true"]),        # Q-2 variant
    (DEFAULT, ["variants.lone_accomplice_attacks=true", "variants.accomplice_counts_as=wolf"]),
    ("paladin,witch,werewolf,villager*3", ["variants.abilities_after_elimination=true"]),
    ("fenrir,paladin,witch,villager*4", ["variants.vote_rule=random_lynch"]),
    ("fenrir,witch,villager*3", ["variants.end_rule=no_villagers", "variants.max_days=4"]),
]


def _id(case):
    roles, sets = case
    return (roles if roles != DEFAULT else "default") + ("|" + ",".join(s.split(".", 1)[1] for s in sets)
                                                         if sets else "")


@pytest.mark.parametrize("roles, sets", CASES, ids=[_id(c) for c in CASES])
def test_monte_carlo_matches_chain(roles, sets):
    ex = roles_summary(resolve_setup(None, sets, roles))
    r = run(GAMES, SEED, roles=roles, sets=sets, threads=2)
    row = r.summary.row(0, named=True)

    p = ex["village_win"]
    se = math.sqrt(p * (1 - p) / GAMES)
    assert abs(row["village_win_rate"] - p) <= 4 * se, (row["village_win_rate"], p, se)
    assert ex["village_win"] + ex["wolf_win"] + ex["draws"] == pytest.approx(1, abs=1e-12)
    q = ex["draws"]
    drawn = row["draws"] / GAMES
    if q > 1e-9:
        assert abs(drawn - q) <= 4 * math.sqrt(q * (1 - q) / GAMES), (drawn, q)
    else:
        assert row["draws"] == 0

    dh = r.totals["days_hist"].astype(float)
    d = np.arange(len(dh))
    sd = math.sqrt(float((dh * (d - row["mean_days"]) ** 2).sum() / GAMES))
    assert abs(row["mean_days"] - ex["expected_days"]) <= 4 * sd / math.sqrt(GAMES), (row["mean_days"], ex)


@pytest.mark.parametrize("vr", VOTE_RULES)
@pytest.mark.parametrize("st", STARTS)
@pytest.mark.parametrize("er", END_RULES)
def test_chain_equals_fraction_solver(vr, st, er):
    for w, v, s in ((1, 3, 1), (2, 5, 1), (3, 7, 0)):
        sets = [f"variants.vote_rule={vr}", f"variants.start={st}", f"variants.end_rule={er}"]
        got = roles_summary(resolve_setup(None, sets, f"werewolf*{w},villager*{v},seer*{s}"))
        want = exact_summary(w, v, s, vote_rule=vr, start=st, end_rule=er)
        assert got["village_win"] == pytest.approx(want["village_win"], abs=1e-12)
        assert got["expected_days"] == pytest.approx(want["expected_days"], abs=1e-12)
        assert got["draws"] == 0


def test_default_table_is_small_and_fast():
    ex = roles_summary(resolve_setup(None, (), DEFAULT))
    assert ex["states"] < 2000 and ex["seconds"] < 30
    assert [sorted(c["roles"]) for c in ex["classes"]] == [["medium", "seer", "villager"], ["paladin"], ["witch"],
                                                          ["accomplice"], ["fenrir"], ["hati"]]


def test_seer_medium_hati_do_not_change_random_play():
    a = solve(chain_of(resolve_setup(None, (), "hati,werewolf,seer,medium,villager*4")))
    b = solve(chain_of(resolve_setup(None, (), "werewolf*2,villager*6")))
    assert a["village_win"] == pytest.approx(b["village_win"], abs=1e-14)


runner = CliRunner()


def _exact(*args):
    return runner.invoke(app, ["werewolf", "exact", *args])


def test_cli_default_table_json():
    import json

    r = _exact("--roles", DEFAULT, "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert {"village_win", "wolf_win", "draws", "expected_days", "states", "seconds"} <= set(d)
    assert d["village_win"] == pytest.approx(roles_summary(resolve_setup(None, (), DEFAULT))["village_win"])
    r = _exact("--roles", DEFAULT)
    assert r.exit_code == 0 and "states" in r.stdout and "float64" in r.stdout


@pytest.mark.parametrize("args, msg", [
    (["--roles", "paladin*2,werewolf,villager*4"], "participants with the protect ability"),
    (["--roles", "witch*2,werewolf,villager*4"], "participants with the witch ability"),
    (["--roles", DEFAULT, "--set", "village.follow=1"], "random strategies"),
    (["--roles", "werewolf,villager*40"], "at most 30 participants"),
])
def test_refusals(args, msg):
    r = _exact(*args)
    assert r.exit_code == 2, r.output
    assert r.stdout == "" and "Traceback" not in r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and msg in lines[0], r.stderr


# --------------------------------------------------------------------------
# An independent labelled brute force (no classes, no cells, no hypergeometric counts)
# --------------------------------------------------------------------------

def _labelled(roles: str, sets: list[str]) -> dict:
    """Play the rules with every participant labelled, written from tests/naive/werewolf.py:
    a distribution over (alive set, paladin's last set) at each day's start, every random
    choice enumerated one participant at a time (drags one by one, the paladin's sets by
    the engine's rejection rule, the witch's N options). Only the vote's split into
    1 / 2 / 0 out is shared with the chain (tests/test_werewolf_exact.py checks it)."""
    from itertools import combinations

    from sim.werewolf.exact_roles import _vote_split

    setup = resolve_setup(None, sets, roles)
    cfg, var = setup.config["roles"], setup.variants
    seats = setup.seats
    n = len(seats)
    acc_village = var.get("accomplice_counts_as", "wolf") == "village"
    after = bool(var.get("abilities_after_elimination", False))
    rule, end = var.get("vote_rule", "runoff"), var.get("end_rule", "parity")
    max_days, max_runoffs = int(var.get("max_days", 200)), int(var.get("max_runoffs", 50))
    team = [cfg[r]["team"] for r in seats]
    wolf_team = {p for p in range(n) if team[p] == "wolf"}
    counts_wolf = {p for p in wolf_team if not (cfg[seats[p]].get("madman") and acc_village)}
    attacks = {p for p in range(n) if cfg[seats[p]].get("attacks")}
    drag = [int(cfg[seats[p]].get("drag", 0)) for p in range(n)]
    ability = [cfg[seats[p]].get("ability", "none") for p in range(n)]
    pal = [p for p in range(n) if ability[p] == "protect"]
    wit = [p for p in range(n) if ability[p] == "witch"]
    pc = int(cfg[seats[pal[0]]].get("protect_count", 2)) if pal else 0

    def winner(alive):
        w = len(alive & counts_wolf)
        v = len(alive - counts_wolf)
        if w == 0:
            return "V"
        return ("W" if v == 0 else None) if end == "no_villagers" else ("W" if v <= w else None)

    def add(d, k, p):
        d[k] = d.get(k, 0.0) + p

    def leave(alive, who):
        """[(p, alive')] — who leaves, then each dragger drags one at a time."""
        alive = alive - who
        out = [(1.0, alive)]
        for f in sorted(who):
            for _ in range(drag[f]):
                nxt = []
                for p, a in out:
                    pool = sorted(a - counts_wolf)
                    if not pool:
                        nxt.append((p, a))
                        continue
                    for c in pool:
                        nxt.append((p / len(pool), a - {c}))
                out = nxt
        return out

    def event(acc, p, alive, last):
        w = winner(alive)
        add(acc, w if w else (alive, last), p)

    def day(alive, last):
        acc: dict = {}
        p0, p1, p2 = _vote_split(rule, len(alive), max_runoffs)
        after_vote: dict = {}
        if p0:
            add(after_vote, (alive, last), p0)
        for j, pj in ((1, p1), (2, p2)):
            subsets = list(combinations(sorted(alive), j)) if pj else []
            for who in subsets:
                for q, a in leave(alive, frozenset(who)):
                    event(after_vote, pj * q / len(subsets), a, last)
        after_witch: dict = {}
        for k, p in after_vote.items():
            if isinstance(k, str):
                add(acc, k, p)
                continue
            a, l = k
            if not wit or not (wit[0] in a or after):
                add(after_witch, k, p)
                continue
            add(after_witch, k, p / n)
            for t in range(n):
                if t == wit[0]:
                    continue
                if t in a:
                    for q, a2 in leave(a, frozenset([t])):
                        event(after_witch, p * q / n, a2, l)
                else:
                    event(after_witch, p / n, a | {t}, l)
        for k, p in after_witch.items():
            if isinstance(k, str):
                add(acc, k, p)
                continue
            for q, a, prot, l2 in night(*k):
                attackers = a & attacks
                cands = sorted(a - wolf_team)
                if not attackers or not cands:
                    add(acc, (a, l2), p * q)
                    continue
                for t in cands:
                    if t in prot:
                        add(acc, (a, l2), p * q / len(cands))
                    else:
                        for r, a2 in leave(a, frozenset([t])):
                            event(acc, p * q * r / len(cands), a2, l2)
        return acc

    def night(alive, last):
        """[(p, alive, protected, new last)] — random_protect_nb's rule, set by set."""
        if not pal:
            return [(1.0, alive, frozenset(), frozenset())]
        me = pal[0]
        if not (me in alive or after):
            return [(1.0, alive, frozenset(), frozenset())]
        avail = alive - {me}
        k = min(pc, len(avail))
        if k >= 2 and k == len(avail) and avail == last:
            k -= 1
        ok = [frozenset(m) for m in combinations(sorted(avail), k) if k < 2 or frozenset(m) != last]
        return [(1.0 / len(ok), alive, m, m) for m in ok]

    everyone = frozenset(range(n))
    dist: dict = {}
    v = w = days = 0.0
    if var.get("start", "day") == "night":
        for q, a, prot, l2 in night(everyone, frozenset()):
            cands = sorted(a - wolf_team)
            for t in cands:
                if t in prot:
                    add(dist, (a, l2), q / len(cands))
                else:
                    for r, a2 in leave(a, frozenset([t])):
                        ww = winner(a2)
                        if ww == "V":
                            v += q * r / len(cands)
                        elif ww == "W":
                            w += q * r / len(cands)
                        else:
                            add(dist, (a2, l2), q * r / len(cands))
    else:
        dist = {(everyone, frozenset()): 1.0}
    for d in range(1, max_days + 1):
        nxt: dict = {}
        for (a, l), p in dist.items():
            for k, q in day(a, l).items():
                if k == "V":
                    v += p * q
                    days += d * p * q
                elif k == "W":
                    w += p * q
                    days += d * p * q
                else:
                    add(nxt, k, p * q)
        dist = nxt
    draws = sum(dist.values())
    return {"village_win": v, "wolf_win": w, "draws": draws, "expected_days": days + max_days * draws}


LABELLED = [
    ("fenrir,hati,accomplice,paladin,witch,villager*3", ["variants.max_days=3"]),   # every acting role
    ("paladin,witch,werewolf,villager*2", ["variants.max_days=8"]),
    ("paladin,witch,werewolf,villager*2", ["variants.max_days=8", "variants.abilities_after_elimination=true",
                                           "variants.start=night"]),
    ("fenrir,paladin,witch,villager*3", ["variants.max_days=6", "variants.vote_rule=plurality"]),
    ("accomplice,paladin,werewolf,villager*3", ["variants.max_days=6", "variants.accomplice_counts_as=village",
                                                "roles.paladin.protect_count=3"]),
    ("fenrir,accomplice,witch,villager*3", ["variants.max_days=6", "variants.max_runoffs=0",
                                            "variants.end_rule=no_villagers"]),
    ("paladin,werewolf,villager*2", ["variants.max_days=10", "variants.max_runoffs=0",
                                     "variants.end_rule=no_villagers"]),
]


@pytest.mark.parametrize("roles, sets", LABELLED, ids=[_id(c) for c in LABELLED])
def test_chain_equals_labelled_brute_force(roles, sets):
    got = roles_summary(resolve_setup(None, sets, roles))
    want = _labelled(roles, sets)
    for k in ("village_win", "wolf_win", "draws", "expected_days"):
        assert got[k] == pytest.approx(want[k], abs=1e-12), (k, got[k], want[k])


def test_state_cap_is_one_error(monkeypatch):
    import sim.werewolf.exact_roles as X

    monkeypatch.setattr(X, "MAX_STATES", 100)
    r = _exact("--roles", DEFAULT)
    assert r.exit_code == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and "more than 100 day-start states" in lines[0]


def test_all_variants_on_the_chain():
    import json

    r = _exact("--roles", "fenrir,paladin,witch,villager*4", "--all-variants", "--json")
    assert r.exit_code == 0, r.output
    rows = json.loads(r.stdout)
    assert len(rows) == 12 and all(row["arithmetic"] == "float64" for row in rows)
    assert len({(x["variants"]["vote_rule"], x["variants"]["start"], x["variants"]["end_rule"]) for x in rows}) == 12
    r = _exact("--roles", "fenrir,paladin,witch,villager*4", "--all-variants", "--set", "variants.start=night")
    assert r.exit_code == 2 and "--all-variants" in r.stderr
