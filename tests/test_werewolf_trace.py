"""`sim werewolf trace`: one game of a run, from the batch kernel itself.

* trace and batch agree on 1,000 games: each game's trace result equals what a one-game
  batch run starting at that game counts, and a whole run is the sum of its games;
* the events are consistent with the result (who is out and how, the winner, the days);
* ``--find`` traces the first matching game; the CLI's text and ``--json`` output; an
  unknown ``--find`` key is one error line and exit 2.
"""
from __future__ import annotations

import json
from collections import Counter

import numba
import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.werewolf.game_nb import Counts
from sim.werewolf.protocol import GAME
from sim.werewolf.trace import FIND_KEYS, result_of

NOJIT = bool(numba.config.DISABLE_JIT)
N = 300 if NOJIT else 1000
SEED = 31
runner = CliRunner()


def batch_result(setup, strategies, k):
    r = GAME.run(setup, strategies, 1, SEED, start=k, tables=False)
    return result_of(setup, Counts(**{f: r.totals[f] for f in Counts._fields}))


@pytest.mark.parametrize("v, w, roles", [("random", "random", None), ("claims", "claims", None),
                                         ("random", "random", "werewolf*2,villager*5,seer")])
def test_trace_and_batch_agree(v, w, roles):
    setup = GAME.setup(roles=roles)
    strategies = GAME.strategies({"village": v, "wolves": w})
    n = N if (v, roles) == ("random", None) else N // 4
    traces = [GAME.trace(setup, strategies, SEED, k) for k in range(n)]
    for k in range(n):
        assert traces[k].result == batch_result(setup, strategies, k), k
    whole = GAME.run(setup, strategies, n, SEED, tables=False).totals
    wins = Counter(t.result["winner"] for t in traces)
    from sim.werewolf.game_nb import C_DAYS, C_DRAWS, C_VILLAGE, C_WOLVES

    sc = whole["scalars"]
    assert (wins["village"], wins["wolves"], wins["draw"]) == (sc[C_VILLAGE], sc[C_WOLVES], sc[C_DRAWS])
    assert sum(t.result["days"] for t in traces) == sc[C_DAYS]
    for t in traces:
        check_events(t)
    assert not any(t.cut for t in traces)


def check_events(tr):
    """Replaying the events gives the result: who is out and how, the winner, the days."""
    ev = tr.events
    role = {e["participant"]: e["role"] for e in ev if e["event"] == "deal"}
    status = {p: "alive" for p in role}
    for e in ev:
        if e["event"] == "out":
            status[e["participant"]] = e["how"]
        elif e["event"] == "drag":
            status[e["participant"]] = "dragged"
        elif e["event"] == "witch" and e["action"] == "revive":
            status[e["target"]] = "alive"
    res = tr.result
    assert sorted(role[p] for p in status if status[p] == "alive") == sorted(res["survivors"])
    for how in ("voted", "attacked", "dragged", "witch"):
        assert sorted(role[p] for p in status if status[p] == how) == sorted(res[how]), how
    checks = [e for e in ev if e["event"] == "check"]
    assert checks[-1]["winner"] == res["winner"]
    assert all(e["winner"] is None for e in checks[:-1])
    assert ev[-1]["group"].startswith(f"day {res['days']} ")
    assert all(e["rule"] and e["text"] and e["group"] for e in ev)
    assert res["runoffs"] == sum(e["event"] == "runoff" for e in ev)
    assert res["nobody_out"] == sum(e["event"] == "nobody" for e in ev)


def test_trace_shows_the_judge_view():
    setup = GAME.setup()
    s = GAME.strategies({"village": "claims", "wolves": "claims"})
    traces = [GAME.trace(setup, s, SEED, k) for k in range(40)]
    kinds = {e["event"] for t in traces for e in t.events}
    assert {"deal", "mark", "divine", "medium", "claim", "ballot", "tally", "out", "drag", "witch", "protect",
            "attack", "check"} <= kinds, kinds
    assert all(len([e for e in t.events if e["event"] == "deal"]) == setup.n for t in traces)
    rules = {e["rule"] for t in traces for e in t.events}
    assert rules <= {f"R-{i}" for i in range(1, 8)} | {f"Q-{i}" for i in range(1, 11)}
    quiet = GAME.trace(setup, s, SEED, 2, events=False)
    assert quiet.events == [] and quiet.result == traces[2].result


def test_find_keys_are_the_results():
    setup = GAME.setup()
    tr = GAME.trace(setup, GAME.strategies(), SEED, 0)
    assert tuple(GAME.find_keys) == FIND_KEYS and set(tr.result) == set(FIND_KEYS)
    assert GAME.find_keys[0] == "winner" and GAME.group_word == "day"


def invoke(*args):
    return runner.invoke(app, ["werewolf", "trace", *args])


def test_cli_text():
    r = invoke("--seed", "4", "--game", "3")
    assert r.exit_code == 0, r.output
    assert "game 3 of seed 4" in r.output and "day 1 · evening" in r.output and "(R-1)" in r.output
    assert "result" in r.output and "winner=" in r.output


def test_cli_json_last_line_is_the_result():
    r = invoke("--seed", "4", "--game", "3", "--json")
    assert r.exit_code == 0, r.output
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert lines[-1]["event"] == "result" and lines[-1]["winner"] in ("village", "wolves", "draw")
    assert lines[-1]["game"] == 3 and lines[-1]["seed"] == 4
    assert all({"event", "rule", "group", "text"} <= set(x) for x in lines[:-1])
    setup = GAME.setup()
    want = GAME.trace(setup, GAME.strategies(), 4, 3).result
    assert {k: lines[-1][k] for k in want} == want


@pytest.mark.parametrize("cond", ["winner=village", "out=seer", "attacked>=3"])
def test_find_traces_the_first_match(cond):
    from sim.core.trace import matches, parse_find

    setup = GAME.setup()
    s = GAME.strategies()
    conds = parse_find(cond, GAME.find_keys)
    first = next(k for k in range(5, 5000) if matches(GAME.trace(setup, s, 8, k, events=False).result, conds))
    r = invoke("--seed", "8", "--game", "5", "--find", cond, "--json")
    assert r.exit_code == 0, r.output
    last = json.loads(r.stdout.splitlines()[-1])
    assert last["game"] == first
    r = invoke("--seed", "8", "--game", "5", "--find", cond)
    assert r.exit_code == 0 and f"game {first:,} of seed 8 (first match of --find {cond})" in r.output


def test_unknown_find_key_is_one_error_line():
    r = invoke("--seed", "1", "--find", "winnr=village")
    assert r.exit_code == 2
    assert len(r.stderr.strip().splitlines()) == 1 and "did you mean 'winner'" in r.stderr


def test_oracle_trace_is_labelled():
    r = invoke("--seed", "1", "--wolves", "oracle_attack")
    assert r.exit_code == 0, r.output
    assert "ORACLE" in r.output


@pytest.mark.parametrize("start", ["day", "night"])
def test_the_first_vote_and_the_first_attack_in_the_order_of_r3(start):
    """R-3: day 1 begins in the evening, so the first vote comes before the first attack;
    ``variants.start = "night"`` puts a night 0 with its attack first (read off the traces)."""
    setup = GAME.setup(sets=[f"variants.start={start}"])
    strategies = GAME.strategies({"village": "random", "wolves": "random"})
    for k in range(40):
        ev = GAME.trace(setup, strategies, SEED, k).events
        first = {e["event"]: i for i, e in reversed(list(enumerate(ev)))}
        attack = min(first.get("attack", len(ev)), first.get("noattack", len(ev)))
        if start == "day":
            assert first["ballot"] < attack and ev[first["ballot"]]["group"] == "day 1 · evening"
        else:
            assert attack < first.get("ballot", len(ev)) and ev[attack]["group"] == "day 0 · night"
