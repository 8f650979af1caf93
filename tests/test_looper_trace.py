"""`sim looper trace`: a traced game is the batch kernel's game (result for result), its
events agree with its result, ``--find`` finds the first match, and the CLI's text and JSON."""
from __future__ import annotations

import json
from collections import Counter

import numba
import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.looper import GAME
from sim.looper.game import writer_params
from sim.looper.trace import result_of

NOJIT = bool(numba.config.DISABLE_JIT)
runner = CliRunner()


def batch_result(setup, strategies, seed, k, params):
    """Game k as a one-game batch run reports it (``run --first-game k --games 1``; the
    scriptwriter's prepared parameters made once, as a run makes them)."""
    res = GAME.run(setup, strategies, 1, seed, start=k, threads=1, tables=False, params=params)
    return result_of(res.totals, setup)


CASES = [  # (sets, player, scriptwriter, games)
    ((), "random", "random", 1000),
    ((), "cautious", "adversarial", 150),
    (("rules.must_name_key_person=true",), "deducer", "random", 200),
    (("rules.must_name_key_person=true",), "oracle_key", "random", 100),
]


@pytest.mark.parametrize("sets, player, writer, games", CASES)
def test_trace_and_batch_agree_game_by_game(sets, player, writer, games):
    setup = GAME.setup(None, list(sets))
    strategies = GAME.strategies({"player": player, "scriptwriter": writer})
    games = max(games // 10, 20) if NOJIT else games
    seed = 77
    params = writer_params(strategies["scriptwriter"], setup, seed)
    bad = []
    named = 0
    for k in range(games):
        tr = GAME.trace(setup, strategies, seed, k)
        want = batch_result(setup, strategies, seed, k, params)
        got = {key: v for key, v in tr.result.items() if key != "named"}
        if got != {key: v for key, v in want.items() if key != "named"}:
            bad.append((k, got, want))
        check_events(tr, setup)
        named += len(tr.result["named"])
    assert not bad, bad[:2]
    if "must_name" in " ".join(sets):
        assert named > 0


def check_events(tr, setup):
    """The events of a trace agree with its result."""
    ev = tr.events
    r = tr.result
    assert not tr.cut
    assert all({"event", "rule", "group", "text"} <= set(e) for e in ev)
    assert all(e["rule"].startswith(("R-", "P-")) for e in ev)
    deaths = [e["character"] for e in ev if e["event"] == "death"]
    assert Counter(deaths) == Counter(r["died"])
    assert Counter(e["character"] for e in ev if e["event"] == "announce") == Counter(deaths)
    assert sum(e["event"] == "day_start" for e in ev) == r["days"]
    assert sum(e["event"] == "loop_start" for e in ev) == r["loops"]
    assert sum(e["event"] == "loop_end" for e in ev) == r["loops"]
    (end,) = [e for e in ev if e["event"] == "game_end"]
    assert end["winner"] == r["winner"] and ev[-1] is end
    (key,) = [e for e in ev if e["event"] == "setup_key"]
    assert key["key"] == r["key"]
    assert [e["named"] for e in ev if e["event"] == "name"] == r["named"]
    assert sum(e["event"] == "name" and not e["right"] for e in ev) == r["wrong_names"]
    for e in ev:
        if e["event"] == "move":
            assert e["failed"] == (e["status"] != "done") and ("FAILED" in e["text"]) == e["failed"]
        if e["event"] == "stress":
            assert sum(s["amount"] for s in e["sources"]) == e["raw"] and e["stress"] == max(e["raw"], 0)
        if e["event"] == "announce" and e["shifted"]:
            assert e["announced"] == setup.loc_ids[setup.nb.next_loc[setup.loc_ids.index(e["place"])]]
        if e["event"].startswith("setup"):
            assert e["group"] == "setup"
        elif e["event"] == "game_end":
            assert e["group"] == "end"
        elif e["event"] not in ("loop_start",):
            assert " · day " in e["group"]
    if r["key_deaths"]:
        assert any(e["event"] == "loop_end" and "key" in e["why"] for e in ev)


def test_setup_events_are_the_scriptwriters_setup():
    setup = GAME.setup(None, ["setup.key_person=cat"])
    tr = GAME.trace(setup, GAME.strategies({}), 5, 3)
    (key,) = [e for e in tr.events if e["event"] == "setup_key"]
    assert key["key"] == "cat" and key["pinned"] and key["rule"] == "P-13"
    assert sum(e["event"] == "setup_perm" for e in tr.events) == 3
    assert [e["day"] for e in tr.events if e["event"] == "setup_guest"] == [2, 4, 7]
    assert tr.result["key"] == "cat"


def test_kenkichi_walks_and_turf_king_misreports_somewhere():
    setup = GAME.setup()
    strategies = GAME.strategies({})
    seen = set()
    for k in range(60 if not NOJIT else 15):
        for e in GAME.trace(setup, strategies, 9, k).events:
            if e["event"] == "walk":
                seen.add("walk")
                assert e["character"] == "wandering_kenkichi"
            if e["event"] == "announce" and e["shifted"]:
                seen.add("shifted")
            if e["event"] == "move" and e["status"] == "overridden":
                seen.add("overridden")
    assert {"walk", "overridden"} <= seen


def invoke(*args):
    return runner.invoke(app, ["looper", "trace", *args])


def test_cli_trace_text():
    r = invoke("--seed", "3", "--game", "2")
    assert r.exit_code == 0, r.output
    assert "sim looper trace" in r.output and "game 2 of seed 3" in r.output
    assert "loop 1 · day 1" in r.output and "(R-3)" in r.output and "key person:" in r.output
    assert "result" in r.output and "winner=" in r.output


def test_cli_trace_json_ends_with_the_result():
    r = invoke("--seed", "3", "--game", "2", "--json")
    assert r.exit_code == 0, r.output
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert lines[-1]["event"] == "result" and lines[-1]["winner"] in ("player", "scriptwriter")
    assert lines[-1]["game"] == 2
    setup = GAME.setup()
    tr = GAME.trace(setup, GAME.strategies({}), 3, 2)
    assert lines[:-1] == json.loads(json.dumps(tr.events))
    assert {k: lines[-1][k] for k in tr.result} == json.loads(json.dumps(tr.result))


def test_cli_find_traces_the_first_match():
    r = invoke("--seed", "4", "--find", "died=cat", "--json")
    assert r.exit_code == 0, r.output
    last = json.loads(r.stdout.splitlines()[-1])
    assert "cat" in last["died"]
    setup, strategies = GAME.setup(), GAME.strategies({})
    k = last["game"]
    assert all("cat" not in GAME.trace(setup, strategies, 4, j, events=False).result["died"] for j in range(k))
    r = invoke("--seed", "4", "--find", "winner=scriptwriter", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout.splitlines()[-1])["winner"] == "scriptwriter"


def test_cli_unknown_find_key_is_one_error_line():
    r = invoke("--seed", "1", "--find", "dead=cat")
    assert r.exit_code == 2, r.output
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:") and "'died'" in err[0], r.stderr
