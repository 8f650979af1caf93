"""Traces with reasons (sim.core.reasons) and the Looper's board.

* Werewolf ``claims``: every ballot's reason names the participant voted for first, with
  the highest suspicion (village) or trust (wolves) of the ranking it lists; a witch
  eliminates exactly when the top suspicion reaches the threshold her reason states;
* the reasons reach ``--json`` and the text (``why:``); a plug-in states its own;
* the Looper: the moves a player makes save characters its reason saw at risk; each day
  has a board whose stresses are the day's stress events, and the text shows the stress
  lines only with ``--verbose``;
* the TRPG: a target's reason ranks the chosen target first by its rule's value, an
  ``auto`` reaction is the option of least expected damage its reason lists;
* results are those of the batch (tracing with reasons changes no game): the trace's
  result equals the result-only replay (log None, the batch kernel) game by game.
"""
from __future__ import annotations

import json

import numba
import pytest
from typer.testing import CliRunner

from sim.cli import app

NOJIT = bool(numba.config.DISABLE_JIT)
runner = CliRunner()


def _ww():
    from sim.werewolf.protocol import GAME

    return GAME


@pytest.fixture(scope="module")
def ww_traces():
    game = _ww()
    setup = game.setup()
    strategies = game.strategies({"village": "claims", "wolves": "claims"})
    return game, setup, strategies, [game.trace(setup, strategies, 5, k) for k in range(12 if NOJIT else 40)]


def _wolf(setup, role: str) -> bool:
    return setup.config["roles"][role].get("team") == "wolf"


def test_werewolf_vote_reason_names_the_vote_and_ranks_it_first(ww_traces):
    """The participant voted for is the first item of the ballot's reason, and the ranking
    it heads is the strategy's: the village votes the highest suspicion, the wolves the
    highest trust, or with no trusted claimer the lowest suspicion (whom the table trusts)."""
    game, setup, strategies, traces = ww_traces
    village = wolves = 0
    for tr in traces:
        role = {e["participant"]: e["role"] for e in tr.events if e["event"] == "deal"}
        for e in tr.events:
            if e["event"] != "ballot":
                continue
            reason = e["reason"]
            first, scores = reason[0], [r["score"] for r in reason]
            assert 1 <= len(reason) <= 3 and len({r["why"] for r in reason}) == 1
            assert first["participant"] == e["target"] and first["role"] == role[e["target"]], e
            assert e["reason_text"].startswith(f"P{e['target']} ({role[e['target']]}) ")
            if not _wolf(setup, role[e["voter"]]):
                assert first["why"] == "suspect" and first["score"] == max(scores), e
                village += 1
            else:
                best = max if first["why"] == "trust" else min
                assert first["score"] == best(scores), e
                wolves += 1
    assert village > 100 and wolves > 20


# the participant deciding, by event
_DECIDER = {"ballot": "voter", "attack": "attacker", "protect": "paladin", "witch": "witch", "divine": "seer",
            "mark": "hati", "claim": "claimer"}


@pytest.mark.parametrize("family", ["random", "trusting", "claims"])
def test_werewolf_every_decision_states_a_true_reason(family):
    """Every decision of every shipped family carries a reason, and each item of it is true
    of the game so far, checked against the trace's own events: a ``reported`` wolf was
    claimed wolf by the one named; a ``claimer`` claimed before; a ``known`` wolf was read
    wolf by the decider (or is its teammate); a claim ``announces`` what it says; a random
    pool is not empty."""
    game = _ww()
    setup = game.setup()
    strategies = game.strategies({"village": family, "wolves": family})
    kinds = set()
    decisions = 0
    for k in range(8 if NOJIT else 30):
        tr = game.trace(setup, strategies, 7, k)
        role = {e["participant"]: e["role"] for e in tr.events if e["event"] == "deal"}
        read_wolf: set[tuple[int, int]] = set()   # (reader, read wolf) by divination or medium
        said_wolf: set[tuple[int, int]] = set()   # (claimer, claimed wolf)
        claimers: set[tuple[int, str]] = set()   # (claimer, role claimed)
        for e in tr.events:
            ev = e["event"]
            if ev in _DECIDER and not (ev == "mark" and e["target"] < 0) and not (ev == "protect" and not e["protected"]):
                me = e[_DECIDER[ev]]
                reason = e.get("reason")
                assert reason, (family, k, e)
                decisions += 1
                for r in reason:
                    kinds.add(r["why"])
                    p = r.get("participant")
                    if r["why"] == "reported":
                        assert (r["by"], p) in said_wolf, (family, k, e)
                    elif r["why"] == "claimer":
                        assert (p, ("seer", "medium")[int(r["score"])]) in claimers, (family, k, e)
                    elif r["why"] == "known" and r["score"] == 1:
                        assert (me, p) in read_wolf or (_wolf(setup, role[me]) and _wolf(setup, role[p])), (family, k, e)
                    elif r["why"] == "announces":
                        assert ev == "claim" and p == e["target"], (family, k, e)
                        assert r["score"] == (1.0 if e["reading"] == "wolf" else 0.0), (family, k, e)
                    elif r["why"] in ("random", "unread"):
                        assert r["score"] >= 1, (family, k, e)
            if ev == "divine" and e["reading"] == "wolf":
                read_wolf.add((e["seer"], e["target"]))
            elif ev == "medium" and e["reading"] == "wolf":
                read_wolf.add((e["medium"], e["target"]))
            elif ev == "claim":
                claimers.add((e["claimer"], e["claimed"]))
                if e["reading"] == "wolf":
                    said_wolf.add((e["claimer"], e["target"]))
    assert decisions > 300
    want = {"random": {"random"}, "trusting": {"reported", "claimer", "random", "announces", "cleared", "unread"},
            "claims": {"suspect", "claimer", "announces", "unread"}}[family]
    assert want <= kinds, (family, kinds)


def test_werewolf_witch_acts_on_her_stated_threshold(ww_traces):
    _, _, _, traces = ww_traces
    seen = set()
    for tr in traces:
        for e in tr.events:
            if e["event"] != "witch":
                continue
            r = e["reason"]
            thresholds = [x["score"] for x in r if x["why"] == "threshold"]
            suspects = [x for x in r if x["why"] == "suspect"]
            assert thresholds and suspects
            if e["action"] == "eliminate":
                assert suspects[0]["participant"] == e["target"]
                assert suspects[0]["score"] >= thresholds[0]
            else:
                assert suspects[0]["score"] < thresholds[0]
            seen.add(e["action"])
    assert "pass" in seen


def test_werewolf_trace_results_are_the_batch_results(ww_traces):
    game, setup, strategies, traces = ww_traces
    for tr in traces:
        assert game.trace(setup, strategies, 5, tr.game, events=False).result == tr.result


def test_werewolf_json_and_text_carry_the_reasons():
    r = runner.invoke(app, ["werewolf", "trace", "--village", "claims", "--wolves", "claims", "--seed", "5", "--json"])
    assert r.exit_code == 0, r.output
    lines = [json.loads(x) for x in r.output.splitlines()]
    ballots = [x for x in lines if x["event"] == "ballot"]
    assert ballots and all(b["reason"][0]["participant"] == b["target"] for b in ballots)
    assert all(isinstance(b["reason"][0]["score"], float) for b in ballots)
    t = runner.invoke(app, ["werewolf", "trace", "--village", "claims", "--wolves", "claims", "--seed", "5"])
    assert t.exit_code == 0, t.output
    assert "why: P" in t.output and "suspicion" in t.output


def test_a_plugin_states_its_reason_and_runs_in_a_batch():
    game = _ww()
    setup = game.setup()
    strategies = game.strategies({"village": "tests.plugins.werewolf_reasons:lowest", "wolves": "random"})
    tr = game.trace(setup, strategies, 3, 0)
    team = {e["participant"]: e["role"] for e in tr.events if e["event"] == "deal"}
    village = [e for e in tr.events if e["event"] == "ballot"
               and setup.config["roles"][team[e["voter"]]].get("team", "village") == "village"]
    assert village
    for e in village:
        assert e["reason"][0] == {"why": "suspect", "score": 7.0, "participant": e["target"],
                                  "role": team[e["target"]]}
        assert len(e["reason"]) == 1 or e["reason"][1]["score"] == 0.0
    wolves = [e for e in tr.events if e["event"] == "ballot" and e not in village]
    assert all(x["reason"] == [{"why": "random", "score": float(x["reason"][0]["score"])}] for x in wolves)
    res = game.run(setup, strategies, 200, 3, tables=False)  # the batch: why is None, no reason written
    assert int(res.totals["scalars"][0]) == 200


# ----------------------------------------------------------------------------- Looper
@pytest.fixture(scope="module")
def looper_traces():
    from sim.looper import GAME

    setup = GAME.setup()
    strategies = GAME.strategies({"player": "deducer", "scriptwriter": "random"})
    return GAME, setup, strategies, [GAME.trace(setup, strategies, 2, k) for k in range(10 if NOJIT else 40)]


def test_looper_moves_save_characters_the_player_saw_at_risk(looper_traces):
    game, setup, strategies, traces = looper_traces
    moved = 0
    for tr in traces:
        ev = tr.events
        for i, e in enumerate(ev):
            if e["event"] != "decide":
                continue
            reason = e.get("reason", [])
            at_risk = {r["character"] for r in reason if r["why"] == "at_risk"}
            saved = [r for r in reason if r["why"] == "prevents"]
            cands = {r["character"] for r in reason if r["why"] == "candidate"}
            assert cands, "the deducer states its key-person candidates"
            moves = [x for x in ev[i + 1:i + 1 + e["moves"]] if x["event"] == "move"]
            assert len(moves) == e["moves"]
            assert {s["character"] for s in saved} <= at_risk
            assert {s["move"] for s in saved} == set(range(1, e["moves"] + 1))  # every move saves someone
            moved += e["moves"]
        assert game.trace(setup, strategies, 2, tr.game, events=False).result == tr.result
    assert moved > 0


def test_looper_board_sums_up_the_day(looper_traces):
    _, setup, _, traces = looper_traces
    for tr in traces[:10]:
        day_stress: dict[str, int] = {}
        boards = 0
        for e in tr.events:
            if e["event"] == "day_start":
                day_stress = {}
            elif e["event"] == "stress":
                assert e["detail"]
                day_stress[e["character"]] = e["stress"]
            elif e["event"] == "board":
                boards += 1
                placed = [c for chars in e["places"].values() for c in chars]
                assert len(placed) == len(set(placed)) == len(e["stress"])
                assert {c: s for c, s in e["stress"].items() if c in day_stress} == day_stress
                assert all(e["stress"][c] == 0 for c in e["stress"] if c not in day_stress)
                assert set(e["died"]) <= set(placed)
        assert boards == tr.result["days"]


@pytest.mark.parametrize("player,writer", [("deducer", "random"), ("oracle_key", "random"),
                                           ("oracle_key", "adversarial")])
def test_looper_names_and_scriptwriters_state_true_reasons(player, writer):
    """The setup, every victim the scriptwriter picks and every name the player gives (R-2
    variant) carry a reason, true of the game (the shipped random, adversarial and fixed
    scriptwriters' and players' reasons share these kinds): an aimed pick is the key person or the
    protagonist it names; a random one is among as many as the event's candidates; the
    deducer names one of the candidates it lists; the oracle names the key person it is
    told."""
    from sim.looper import GAME

    aim = ["scriptwriter.aim=0.3"] if writer == "random" else []  # the random one aims some picks
    setup = GAME.setup(sets=["rules.must_name_key_person=true", "rules.wrong_name_ends_game=false", *aim])
    strategies = GAME.strategies({"player": player, "scriptwriter": writer})
    prot = setup.ids[0]
    seen = {"setup_key": 0, "choice": 0, "name": 0}
    picks = set()
    for k in range(6 if NOJIT else 25):
        key = None
        for e in GAME.trace(setup, strategies, 3, k).events:
            if e["event"] not in seen:
                continue
            reason = e.get("reason")
            assert reason, (player, writer, k, e)
            seen[e["event"]] += 1
            whys = {r["why"]: r for r in reason}
            if e["event"] == "choice":
                picks |= set(whys) & {"aims", "random"}
            if e["event"] == "setup_key":
                key = e["key"]
                assert ("random" in whys and whys["random"]["score"] == len(setup.ids) - 1) or "pool" in whys, e
            elif e["event"] == "choice":
                if "aims" in whys:
                    assert whys["aims"]["character"] == e["victim"] in (key, prot), e
                    assert key not in e["candidates"] or e["victim"] == key, e
                else:
                    assert whys["random"]["score"] == len(e["candidates"]), e
                    if writer == "adversarial":
                        assert key not in e["candidates"] and prot not in e["candidates"], e
            else:
                if player == "oracle_key":
                    assert whys["told"]["character"] == key == e["named"], e
                elif "candidate" in whys:
                    assert e["named"] in {r["character"] for r in reason if r["why"] == "candidate"}, e
                else:
                    assert whys["random"]["score"] >= 1, e
    # the adversarial scriptwriter kills the key person whenever it can: no loop survives to a name
    assert seen["setup_key"] and seen["choice"] and (seen["name"] or writer == "adversarial"), seen
    # both kinds of pick seen and checked (a pick the random scriptwriter may aim is rare here:
    # the key person or the protagonist must be among a rule's candidates)
    assert picks == ({"aims", "random"} if writer == "adversarial" else {"random"}) or picks == {"aims", "random"}, picks


def test_looper_text_shows_the_board_and_stress_lines_only_when_verbose():
    r = runner.invoke(app, ["looper", "trace", "--seed", "2", "--player", "deducer"])
    v = runner.invoke(app, ["looper", "trace", "--seed", "2", "--player", "deducer", "--verbose"])
    assert r.exit_code == 0 and v.exit_code == 0, r.output + v.output
    assert "board" in r.output and "player decides:" in r.output
    assert "why: " in r.output and ("key-person candidates" in r.output or "key person: " in r.output)
    assert "  stress " not in r.output and "  stress " in v.output
    assert len(v.output.splitlines()) > len(r.output.splitlines())


# ----------------------------------------------------------------------------- TRPG
def test_trpg_target_and_reaction_reasons():
    from sim.trpg.protocol import GAME

    setup = GAME.setup(scenario="alley")
    strategies = GAME.strategies({})
    seen = set()
    for k in range(6 if NOJIT else 30):
        tr = GAME.trace(setup, strategies, 1, k)
        for e in tr.events:
            if e["event"] == "target":
                rule = e["reason"][0]
                assert rule["why"] == "rule"
                values = [x for x in e["reason"] if x["why"] == "value"]
                if rule["rule"] == "random":
                    assert e["reason"][1]["why"] == "random"
                    continue
                assert values[0]["character"] == e["target"]
                best = (max if rule["rule"] == "dangerous" else min)(x["score"] for x in values)
                assert values[0]["score"] == best
                seen.add(rule["rule"])
            elif e["event"] == "reaction" and e["reason"][0]["rule"] == "auto":
                exp = {x["option"]: x["score"] for x in e["reason"] if x["why"] == "expected"}
                assert exp[e["reaction"]] == min(exp.values())
                seen.add("auto")
        assert GAME.trace(setup, strategies, 1, k, events=False).result == tr.result
    assert {"nearest", "auto"} <= seen


def test_trpg_oracle_focus_states_the_exact_hp_it_read():
    """The oracle's target reason: its rule, then the chosen target first with the lowest
    exact HP, each HP the one the trace's own events leave (the sheet's, then each hit,
    heal and fall)."""
    from sim.trpg.protocol import GAME

    setup = GAME.setup(scenario="alley", sets=['characters.host.strategy.target="oracle_focus"'])
    strategies = GAME.strategies({})
    targets = 0
    for k in range(4 if NOJIT else 20):
        hp = {c: v["hp"] for c, v in setup.config["characters"].items()}
        for e in GAME.trace(setup, strategies, 1, k).events:
            if e["event"] in ("hit", "heal"):
                hp[e["target"]] = e["hp"]
            elif e["event"] == "fall":
                hp[e["actor"]] = e["hp"]
            if e["event"] != "target" or e["reason"][0].get("rule") != "oracle_focus":
                continue
            values = [x for x in e["reason"] if x["why"] == "value"]
            assert values[0]["character"] == e["target"], e
            assert values[0]["score"] == min(x["score"] for x in values), e
            assert all(x["score"] == hp[x["character"]] for x in values), (e, hp)
            targets += 1
    assert targets > 10


def test_trpg_heals_name_t13_and_only_a_hurt_ally():
    """A heal in the trace is T-13's (the healing rule, docs/trpg.md) and its ally was below
    its heal_below share of HP (T-13's first condition), by the HP the trace's own events left."""
    from sim.trpg.protocol import GAME

    setup = GAME.setup(scenario="alley")
    strategies = GAME.strategies({})
    chars = setup.config["characters"]
    heals = 0
    for k in range(4 if NOJIT else 40):
        hp = {c: v["hp"] for c, v in chars.items()}
        for e in GAME.trace(setup, strategies, 1, k).events:
            if e["event"] == "heal":
                assert e["rule"] == "T-13", e
                below = chars[e["actor"]].get("strategy", {}).get("heal_below", 0.5)
                assert hp[e["target"]] < below * chars[e["target"]]["hp"], (e, hp[e["target"]])
                heals += 1
            if e["event"] in ("hit", "heal"):
                hp[e["target"]] = e["hp"]
            elif e["event"] == "fall":
                hp[e["actor"]] = e["hp"]
    assert heals > (0 if NOJIT else 3)


@pytest.mark.heavy  # the filter's trace kernels: minutes each to compile cold
@pytest.mark.parametrize("player", ["bayes", "planner"])
def test_looper_reasoning_players_explain_without_changing_a_game(player):
    """bayes / planner explain after deciding, on their own day buffer: the traced games are
    the batch's (result for result), and each decision lists its key-person candidates
    (shares of its worlds, at most three, summing to at most 1) and the risks it saw."""
    from sim.looper import GAME

    setup = GAME.setup()
    strategies = GAME.strategies({"player": player, "scriptwriter": "random"})
    decided = 0
    for k in range(3 if NOJIT else 6):
        tr = GAME.trace(setup, strategies, 4, k)
        assert GAME.trace(setup, strategies, 4, k, events=False).result == tr.result
        for e in tr.events:
            if e["event"] == "decide":
                cands = [r["score"] for r in e["reason"] if r["why"] == "candidate"]
                assert 1 <= len(cands) <= 3 and sum(cands) <= 1 + 1e-9 and cands == sorted(cands, reverse=True)
                assert all(0 < r["score"] <= 1 for r in e["reason"] if r["why"] == "at_risk")
                if player == "planner":
                    assert sum(r["why"] == "rollout" and r["chosen"] for r in e["reason"]) == 1
                decided += 1
    assert decided > 0
