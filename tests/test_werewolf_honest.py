"""Honest information in Werewolf: separate streams, whitelisted read-only views, oracles.

* the view's fields are exactly the whitelist of sim/werewolf/views.py, and the rules
  page's "Hidden information" section names exactly those fields;
* strategies that write into their view, or read a field of the judge's view without an
  ``oracle_`` name, do not compile (under NUMBA_DISABLE_JIT they raise);
* a hostile wolf (tests/plugins/hostile_werewolf.py: it inverts its generator, reads
  stale slots and its memory) attacks a protected participant on the first night no more
  often than a blind pick would (binomial test at a fixed seed), while the same test
  detects the ``oracle_attack`` wolves, which read the judge's view;
* per-game state is reset: a chunk of games equals the same games played one by one.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import numba
import numpy as np
import pytest
from scipy.stats import binomtest
from typer.testing import CliRunner

from sim.cli import app
from sim.core.rng import next_u64_nb, seed_stream_nb
from sim.core.seeding import run_key
from sim.core.trace import new_log
from sim.werewolf.enums import T, Stream
from sim.werewolf.game_nb import chunk_kernel, new_counts
from sim.werewolf.roles import resolve_setup
from sim.werewolf.views import JUDGE, MEMORY, OWN, PUBLIC, VIEW_FIELDS, JudgeView, View
from strategies.werewolf import VILLAGE, WOLVES, WolfStrategy
from sim.errors import SimInputError
from tests.plugins import hostile_werewolf as H

NOJIT = bool(numba.config.DISABLE_JIT)
DOC = Path(__file__).resolve().parents[1] / "docs" / "rules" / "werewolf.md"
SECTION = "## Hidden information (what a strategy may read)"


def doc_fields() -> set[str]:
    """The backticked names of the rules page's hidden-information section."""
    text = DOC.read_text(encoding="utf-8")
    assert SECTION in text
    sec = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", sec))


# ----------------------------------------------------------------------------- whitelist

def test_view_fields_are_the_whitelist():
    # ``why`` (last) is the reason sink of sim.core.reasons, not knowledge: None unless traced
    assert View._fields == VIEW_FIELDS + ("why",) and VIEW_FIELDS == PUBLIC + OWN + MEMORY
    assert len(set(VIEW_FIELDS)) == len(VIEW_FIELDS) and "why" not in VIEW_FIELDS
    assert JudgeView._fields == VIEW_FIELDS + JUDGE + ("why",) and not set(JUDGE) & set(VIEW_FIELDS)


def test_role_knowledge_names_view_fields():
    from sim.werewolf.views import ROLE_KNOWLEDGE

    for role, items in ROLE_KNOWLEDGE.items():
        for item in items:
            head = item.split(":")[0].split(" ")[0]
            assert head in VIEW_FIELDS or head == "her", (role, item)


def test_rules_page_lists_exactly_the_view_fields():
    assert doc_fields() == set(VIEW_FIELDS)


def test_no_shared_info_slots_left():
    import sim.werewolf.enums as E

    assert not hasattr(E, "I") and not hasattr(E, "N_INFO")  # the old shared info vector is gone
    assert Stream.RULES == 0 and len(set(Stream)) == 3


# ----------------------------------------------------------------------------- read-only

def _play(village, wolves, games=20, roles=None, sets=(), seed=1):
    setup = resolve_setup(roles=roles, sets=list(sets))
    out = new_counts(setup.nb)
    chunk_kernel(village, wolves)(run_key(seed), 0, games, setup.nb, out, None)
    return out


@pytest.mark.parametrize("wolves", [H.writer, H.writer_know, H.writer_rules], ids=lambda s: s.name)
def test_writing_into_a_view_fails(wolves):
    with pytest.raises(Exception) as e:
        _play(VILLAGE.get("random"), wolves)
    msg = str(e.value)
    assert ("setitem" in msg or "read-only" in msg or "readonly" in msg), msg[:2000]


def test_a_judge_field_is_not_in_an_honest_view():
    with pytest.raises(Exception) as e:
        _play(VILLAGE.get("random"), H.peeker)
    assert "protected" in str(e.value)


def test_oracle_needs_an_oracle_name():
    with pytest.raises(SimInputError, match="oracle_"):
        WolfStrategy("sneaky", oracle=True)
    s = WOLVES.get("tests.plugins.hostile_werewolf:peeker")
    assert s.name == "peeker"  # not an oracle name: it gets the honest view (and fails above)


# ----------------------------------------------------------------------------- streams

def test_rewind_inverts_the_generator():
    st = np.zeros(4, np.uint64)
    seed_stream_nb(st, run_key(3), 5, Stream.WOLVES)
    before = st.copy()
    for _ in range(10):
        next_u64_nb(st)
    for _ in range(10):
        H.rewind_nb(st)
    assert (st == before).all()


def test_the_replay_trick_works_on_a_shared_stream_only():
    """On the stream the paladin's random pick just used, rewinding names his pair (the
    hostile's trick is real); on the wolves' own stream of the same game it does not."""
    from strategies.werewolf.basic import random_subset_nb

    key = run_key(9)
    cands = np.uint64((1 << 11) - 1)
    shared = own = 0
    for g in range(300):
        v = np.zeros(4, np.uint64)
        seed_stream_nb(v, key, g, Stream.VILLAGE)
        pair = random_subset_nb(v, cands, 2)
        w = np.zeros(4, np.uint64)
        seed_stream_nb(w, key, g, Stream.WOLVES)
        shared += (H.replay_nb(v, cands) & pair) == pair
        own += (H.replay_nb(w, cands) & pair) == pair
    assert shared == 300 and own < 30, (shared, own)


# ----------------------------------------------------------------------------- statistics

GAMES = 1200 if NOJIT else 3000
# start = night: on the first night all 12 live; the paladin protects 2 of his 11 others,
# the wolves attack one of the 9 village-team participants (himself included). A pick that
# knows nothing of his choice hits a protected one with probability 8/9 * 2/11.
CHANCE = 8 / 9 * 2 / 11


def first_night_hits(wolves, games=GAMES, seed=20261201):
    setup = resolve_setup(sets=["variants.start=night"])
    kernel = chunk_kernel(VILLAGE.get("random"), wolves)
    key = run_key(seed)
    log = new_log(4096)
    hits = 0
    for g in range(games):
        log[0, 0], log[0, 1] = 1, 0
        kernel(key, g, 1, setup.nb, new_counts(setup.nb), log)
        rows = log[1:log[0, 0]]
        att = rows[rows[:, 0] == T.ATTACK]
        assert len(att) and len(rows[rows[:, 0] == T.PROTECT])
        hits += int(att[0, 3])
    return hits


@pytest.mark.parametrize("wolves", ["random", "hostile"])
def test_honest_wolves_hit_protection_at_chance(wolves):
    w = H.hostile if wolves == "hostile" else WOLVES.get("random")
    hits = first_night_hits(w)
    p = binomtest(hits, GAMES, CHANCE).pvalue
    assert p > 1e-3, (wolves, hits / GAMES, CHANCE, p)


def test_the_test_detects_the_oracle():
    hits = first_night_hits(WOLVES.get("oracle_attack"))
    assert hits == 0  # it always finds an unprotected target on the first night
    assert binomtest(hits, GAMES, CHANCE).pvalue < 1e-9


# ----------------------------------------------------------------------------- reset

@pytest.mark.parametrize("pair", [("claims", "claims"), ("random", "hostile")])
def test_a_chunk_equals_its_games_one_by_one(pair):
    """No state leaks from one game into the next (memories, last marks and sets, claims)."""
    v = VILLAGE.get(pair[0])
    w = H.hostile if pair[1] == "hostile" else WOLVES.get(pair[1])
    setup = resolve_setup()
    kernel = chunk_kernel(v, w)
    key = run_key(77)
    n = 100 if NOJIT else 300
    whole = new_counts(setup.nb)
    kernel(key, 0, n, setup.nb, whole, None)
    parts = new_counts(setup.nb)
    for g in range(n):
        kernel(key, g, 1, setup.nb, parts, None)
    for a, b in zip(whole, parts):
        assert np.array_equal(a, b)


# ----------------------------------------------------------------------------- labels

def test_oracle_runs_are_labelled(tmp_path):
    runner = CliRunner()
    r = runner.invoke(app, ["werewolf", "run", "--games", "2000", "--wolves", "oracle_attack", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["oracles"] == {"wolves": "oracle_attack"}
    out = tmp_path / "o"
    r = runner.invoke(app, ["werewolf", "run", "--games", "2000", "--wolves", "oracle_attack", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "ORACLE" in r.output
    m = json.loads((out / "_manifest.json").read_text())
    assert "oracle_attack" in json.dumps(m) and "oracles" in json.dumps(m)
    r = runner.invoke(app, ["werewolf", "run", "--games", "2000", "--json"])
    assert "oracles" not in json.loads(r.stdout)
