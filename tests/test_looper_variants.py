"""Looper rule variants (docs/looper.md P-15 … P-18) and the `fixed` scriptwriter (P-19).

Each variant: its default is the seed's reading (the base configuration compiles to it),
and setting it changes exactly what it should, shown on small runs or single days. The
engine and the naive reference agree game by game under every variant
(tests/test_looper_diff.py, rosters ``locked``, ``prec_*``, ``agit``, ``script``).
"""
from __future__ import annotations

import numba as nb
import numpy as np
import polars as pl
import pytest

from sim.core.rng import seed_stream_nb
from sim.core.seeding import python_rng, run_key
from sim.errors import SimInputError
from sim.looper import build_config, compile_setup, resolve_day
from sim.looper.enums import I, Precedence, Stream
from sim.looper.game import run
from sim.looper.protocol import GAME
from sim.looper.views import WriterView
from strategies.looper import PLAYERS, SCRIPTWRITERS, PlayerStrategy, ScriptwriterStrategy
from strategies.looper import restrict as never
from tests.naive.looper import naive_day

TRAP = {"setup": {"key_person": "attention_seeker",
                  "permanent_moves": [{"character": "socrates_in_love", "location": "underworld"}],
                  "guest_moves": [], "choose": "random"}}


def roster(*sets, config=None, protagonist=None):
    return compile_setup(build_config(config, list(sets), protagonist=protagonist))


def writer_setups(r, w, games: int, seed: int = 5) -> np.ndarray:
    """The setup rows a scriptwriter strategy makes in ``games`` games (its own stream,
    as the kernel calls it; the view's key is the pinned key person or -1)."""
    params = np.zeros((1, 1), np.int64) if w.prepare is None else \
        np.ascontiguousarray(w.prepare(r, python_rng(seed)), dtype=np.int64)
    n = r.n_chars
    R = r.nb
    key = run_key(seed)
    rng = np.zeros(4, np.uint64)
    rows = []
    for g in range(games):
        seed_stream_nb(rng, key, g, Stream.SCRIPTWRITER)
        out = np.zeros(1 + 2 * int(R.info[I.N_PERM]) + 2 * int(R.info[I.N_GUEST]), np.int64)
        view = WriterView(R, np.int64(0), np.int64(0), np.uint64(0), np.int64(r.fixed_key or -1), out.copy(),
                          np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(1, np.float64))
        w.setup(rng, view, params, out)
        if r.fixed_key:
            out[0] = r.fixed_key
        rows.append(out)
    return np.array(rows)


def perm_moves(r, rows):
    nperm = int(r.nb.info[I.N_PERM])
    return [(int(row[1 + 2 * j]), int(row[2 + 2 * j])) for row in rows for j in range(nperm)]


def guest_chars(r, rows):
    g0 = 1 + 2 * int(r.nb.info[I.N_PERM])
    return [(int(row[0]), int(row[g0 + 2 * k])) for row in rows for k in range(int(r.nb.info[I.N_GUEST]))]


# ----------------------------------------------------------------------------- defaults

def test_defaults_are_the_seeds_reading():
    info = roster().nb.info
    assert info[I.STAY_MOVES] == 1 and info[I.KEY_MOVABLE] == 1
    assert info[I.PRECEDENCE] == Precedence.SCRIPTWRITER and info[I.NEG_AGITATION] == 0
    rules = build_config()["rules"]
    assert rules["stay_moves"] is True and rules["key_person_movable"] is True
    assert rules["precedence"] == "scriptwriter" and rules["negated_gains_agitation"] is False


def test_bad_variant_values_are_input_errors():
    with pytest.raises(SimInputError, match="player_for_key_person"):
        roster("rules.precedence=player_for_key")
    with pytest.raises(SimInputError, match="stay_moves"):
        roster("rules.stay_moves=sometimes")


# ----------------------------------------------------------------------------- P-15

def test_stay_moves_false_makes_every_permanent_move_change_place():
    w = SCRIPTWRITERS.get("random")
    home = roster().nb.home
    stays = [c for c, l in perm_moves(roster(), writer_setups(roster(), w, 300)) if l == home[c]]
    assert len(stays) > 60  # about 1 in 5 under the seed's reading
    r = roster("rules.stay_moves=false")
    assert all(l != home[c] for c, l in perm_moves(r, writer_setups(r, w, 300)))
    adv = writer_setups(r, SCRIPTWRITERS.get("adversarial"), 1)  # its whole pool
    pool = SCRIPTWRITERS.get("adversarial").prepare(r, python_rng(5))
    assert all(l != home[c] for c, l in perm_moves(r, pool)) and len(adv)


def test_stay_moves_false_rejects_a_staying_script_and_a_staying_strategy():
    with pytest.raises(SimInputError, match="socrates_in_love already stands in school.*P-15"):
        roster("rules.stay_moves=false", config={"setup": {
            "key_person": "cat", "permanent_moves": [{"character": "socrates_in_love", "location": "school"}]}})
    r = roster("rules.stay_moves=false")
    w = SCRIPTWRITERS.get("random")
    home_writer = ScriptwriterStrategy("random-home", never.permanent_home(w.setup), w.choose)
    with pytest.raises(ValueError, match="P-15"):
        run(20, 1, player="random", scriptwriter=home_writer, roster=r, threads=1)
    # restricted play does not offer what would break the rule
    names = {a.name for a in GAME.abilities(r, {"player": PLAYERS.get("random"), "scriptwriter": w})}
    assert "permanent_moves" not in names and "guest_moves" in names
    assert "permanent_moves" in {a.name for a in GAME.abilities(roster(), {"player": PLAYERS.get("random"),
                                                                          "scriptwriter": w})}


def test_stay_moves_false_changes_results():
    a = run(3000, 2, player="cautious", scriptwriter="random", roster=roster(), threads=1).summary
    b = run(3000, 2, player="cautious", scriptwriter="random", roster=roster("rules.stay_moves=false"),
            threads=1).summary
    assert a["player_wins"][0] != b["player_wins"][0]


# ----------------------------------------------------------------------------- P-16

def test_key_person_not_movable_keeps_every_move_off_it():
    w = SCRIPTWRITERS.get("random")
    r0 = roster()
    rows0 = writer_setups(r0, w, 400)
    assert any(c == row[0] for row in rows0 for c in row[1::2][:3])  # the seed's reading moves it at times
    for sets in (("rules.key_person_movable=false",),
                 ("rules.key_person_movable=false", "setup.key_person=verge_of_madness")):
        r = roster(*sets)
        rows = writer_setups(r, w, 400)
        nperm = int(r.nb.info[I.N_PERM])
        assert all(row[1 + 2 * j] != row[0] for row in rows for j in range(nperm))
        assert all(k != c for k, c in guest_chars(r, rows))
        pool = SCRIPTWRITERS.get("adversarial").prepare(r, python_rng(5))
        key = lambda row: r.fixed_key or row[0]  # noqa: E731
        assert all(row[1 + 2 * j] != key(row) for row in pool for j in range(nperm))
        width = 1 + 2 * nperm + 2 * int(r.nb.info[I.N_GUEST])  # the pool's trailing columns are its search scores
        assert pool.shape[1] == width + 2
        assert all(key(row) != c for row in pool for c in row[1 + 2 * nperm:width:2])


def test_key_person_not_movable_rejects_a_script_that_moves_it():
    cfg = {"setup": {"key_person": "verge_of_madness",
                     "permanent_moves": [{"character": "verge_of_madness", "location": "ruins"}]}}
    roster(config=cfg)  # the seed's reading allows it
    with pytest.raises(SimInputError, match="key person.*P-16"):
        roster("rules.key_person_movable=false", config=cfg)
    cfg = {"setup": {"key_person": "cat", "guest_moves": [{"day": 2, "character": "cat", "location": "ruins"}]}}
    with pytest.raises(SimInputError, match="P-16"):
        roster("rules.key_person_movable=false", config=cfg)


def test_the_forced_lock_is_gone_without_it():
    """The verge-of-madness woman as key person moved to the ruins wins every game for the
    scriptwriter; under key_person_movable = false the script is refused, and the lock
    by her own move is impossible."""
    cfg = {"setup": {"key_person": "verge_of_madness",
                     "permanent_moves": [{"character": "verge_of_madness", "location": "ruins"}]}}
    s = run(300, 1, player="cautious", scriptwriter="fixed", roster=roster(config=cfg), threads=1).summary
    assert s["player_wins"][0] == 0


# ----------------------------------------------------------------------------- P-17

def _mover(char: int, loc: int):
    @nb.njit
    def move_nb(rng, view, own, out):
        out[0, 0] = char
        out[0, 1] = loc
        return 1

    return PlayerStrategy(f"mover_{char}_{loc}", move_nb)


@pytest.mark.parametrize("guest", [False, True])
def test_precedence_decides_whose_move_of_the_key_person_wins(guest):
    """Key person verge_of_madness sent to the ruins (she dies there) by a permanent or a
    guest move; the player sends her to school every day."""
    if guest:
        script = {"key_person": "verge_of_madness",
                  "guest_moves": [{"day": 2, "character": "verge_of_madness", "location": "ruins"}]}
    else:
        script = {"key_person": "verge_of_madness",
                  "permanent_moves": [{"character": "verge_of_madness", "location": "ruins"}]}
    base = roster(config={"setup": {**script, "choose": "first"}})
    p = _mover(base.index("verge_of_madness"), base.loc_index("school"))
    wins = {}
    for prec in ("scriptwriter", "player_for_key_person", "player"):
        r = roster(f"rules.precedence={prec}", config={"setup": {**script, "choose": "first"}})
        t = run(200, 3, player=p, scriptwriter="fixed", roster=r, threads=1).totals
        wins[prec] = int(t["scalars"][1])
        if prec == "scriptwriter":
            assert t["end_day"][2 if guest else 1] == t["scalars"][2]  # every loop ends there
    assert wins["scriptwriter"] == 0
    assert wins["player_for_key_person"] == wins["player"] > 150


def test_precedence_player_for_key_person_only_frees_the_key_person():
    """The trap key person's killer (Socrates, moved by the scriptwriter) is not the key
    person: moving him stays overridden unless every player move wins."""
    r = {prec: roster(f"rules.precedence={prec}", config=TRAP)
         for prec in ("scriptwriter", "player_for_key_person", "player")}
    p = _mover(r["player"].index("socrates_in_love"), r["player"].loc_index("park"))
    wins = {k: int(run(200, 4, player=p, scriptwriter="fixed", roster=v, threads=1).totals["scalars"][1])
            for k, v in r.items()}
    assert wins["scriptwriter"] == wins["player_for_key_person"] == 0
    assert wins["player"] > 0


# ----------------------------------------------------------------------------- P-18

def test_negated_character_gains_the_agitators_kill_only_under_the_variant():
    layout = {"protagonist": "school", "psychic_misa": "school", "agitator": "school",
              "socrates_in_love": "school"}
    prot = {"occult", "loud"}  # negated by Misa; Socrates gives the loud +4
    seen = []

    def first(actor, cands):
        seen.append(actor)
        return cands[0]

    d = resolve_day(layout, protagonist=prot, choose=first)
    assert d.stress["protagonist"] == 4 and d.deaths == {} and seen == []
    r = roster("rules.negated_gains_agitation=true")
    d = resolve_day(layout, protagonist=prot, choose=first, roster=r)
    assert seen == ["protagonist"] and d.deaths == {"psychic_misa": "school"}
    assert d.killed_by == {"psychic_misa": "agitator"}  # P-3: credited to the agitator's rule
    cfg = build_config(sets=["rules.negated_gains_agitation=true"])
    assert naive_day(cfg, layout, prot, lambda a, c: c[0])[2] == d.deaths


# ----------------------------------------------------------------------------- P-19

def test_fixed_script_compiles_and_is_checked():
    r = roster(config=TRAP)
    assert r.script[0] == r.index("attention_seeker")
    assert (r.script[1], r.script[2]) == (r.index("socrates_in_love"), r.loc_index("underworld"))
    assert (r.script[3:] == -1).all()  # two permanent moves and every guest move left out
    bad = [({"permanent_moves": [{"character": "socrates", "location": "park"}]}, "socrates_in_love"),
           ({"permanent_moves": [{"character": "cat", "location": "parc"}]}, "park"),
           ({"guest_moves": [{"day": 3, "character": "cat", "location": "park"}]}, "guest-move days are 2, 4, 7"),
           ({"guest_moves": [{"day": 2, "character": "cat", "location": "park"}] * 2}, "two guest moves on day 2"),
           ({"permanent_moves": [{"character": c, "location": "park"} for c in ("cat", "bully", "rage", "yakuza")]},
            "rules allow 3"),
           ({"permanent_moves": [{"character": "cat", "location": "park"}] * 2}, "moved twice"),
           ({"choose": "last"}, "random, first")]
    for extra, msg in bad:
        with pytest.raises(SimInputError, match=msg):
            roster(config={"setup": {"key_person": "cat", **extra}})
    with pytest.raises(SimInputError, match="key_person is empty"):
        run(10, 1, scriptwriter="fixed", roster=roster(), threads=1)


def test_fixed_script_is_played():
    r = roster(config={"setup": {**TRAP["setup"], "choose": "first"}})
    t = run(200, 1, player="random", scriptwriter="fixed", roster=r, threads=1).totals
    assert t["key_games"][r.index("attention_seeker")] == 200
    # never moved, she dies on day 1 with the agitator's first victim (the yakuza, roster order)
    ya = r.index("yakuza")
    assert t["deaths"][ya].sum() > 0
    assert t["end_day"][1] > 0.9 * t["scalars"][2]


def test_trap_script_cautious_beats_random():
    """The trap (the key person dies on day 1 unless moved; no guest moves), figures of
    docs/looper.md P-19: 20 000 games, seed 1, cautious 49.4 %, random 0.5 %. Cautious
    learns Socrates's place when the agitator's granted kill (a random choice) happens to
    hit him; the issue's ≥ 95 % target is for future deducing players."""
    r = roster(config=TRAP)
    c = run(2000, 1, player="cautious", scriptwriter="fixed", roster=r, threads=1).summary["player_win_rate"][0]
    x = run(2000, 1, player="random", scriptwriter="fixed", roster=r, threads=1).summary["player_win_rate"][0]
    assert c > 0.4 and x < 0.03 and c > 10 * x


# ----------------------------------------------------------------------------- outputs (issue 14)

def test_outputs_loop_ends_key_person_ends_and_killers():
    from sim.looper.game_nb import C_KEY_DEATHS, C_LOOPS, C_WINS

    r = run(1500, 3, player="random", scriptwriter="random", roster=roster(), threads=1)
    sc, tb = r.totals["scalars"], r.tables
    le = tb["loop_ends"]
    assert le["loops"].sum() == sc[C_LOOPS] and le.filter(le["ended"] == "survived")["loops"][0] == sc[C_WINS]
    assert tb["key_person_ends"]["loops_ended"].sum() == sc[C_KEY_DEATHS]
    kl, d = tb["killers"], tb["deaths"]
    assert kl["deaths"].sum() == d["deaths"].sum()
    # by (character, rule, rule's owner) the killers table is the deaths table
    a = kl.group_by("character", "rule", "rule_of").agg(pl.col("deaths").sum()).sort("character", "rule", "rule_of")
    b = d.rename({"killed_by": "rule_of"}).select("character", "rule", "rule_of", "deaths") \
        .sort("character", "rule", "rule_of")
    assert a.to_dicts() == b.to_dicts()
    grant = kl.filter(kl["rule"] == "grant_kill_if_stressed")
    assert grant.height and (grant["killer"] != grant["rule_of"]).all()  # the agitated character acted
    other = kl.filter(kl["rule"] != "grant_kill_if_stressed")
    assert (other["killer"] == other["rule_of"]).all()


def test_the_loop_end_day_histogram_is_the_loop_ends_table():
    """The report's figure (Game.histograms) draws the died-on-day-d loops of the run, out of
    every loop; the loops survived are named in its note, not lost."""
    from sim.core.game import get
    from sim.looper.game_nb import C_LOOPS, C_WINS

    r = run(1500, 3, player="random", scriptwriter="random", roster=roster(), threads=1)
    sc = r.totals["scalars"]
    (h,) = get("looper").histograms(r.tables)
    died = h.parts["a death ended the loop"]
    assert h.total == sc[C_LOOPS] and died.sum() == sc[C_LOOPS] - sc[C_WINS] > 0
    assert list(h.x) == [str(d) for d in range(1, roster().nb.info[I.DAYS] + 1)]
    assert died.tolist() == r.totals["end_day"][1:-1].tolist()
    assert f"survived {sc[C_WINS] / sc[C_LOOPS]:.3f}" in h.note
    # summed over cells: two runs' tables stacked give the sum of their bars
    two = {"loop_ends": pl.concat([r.tables["loop_ends"], r.tables["loop_ends"]])}
    (h2,) = get("looper").histograms(two)
    assert (h2.parts["a death ended the loop"] == 2 * died).all() and h2.total == 2 * h.total


def test_text_output_says_when_rows_were_cut():
    from typer.testing import CliRunner

    from sim.cli import app

    cut = CliRunner().invoke(app, ["looper", "run", "--games", "400", "--seed", "1"], terminal_width=200)
    assert cut.exit_code == 0, cut.output
    assert "more rows cut" in cut.output and "the day on which loops ended" in cut.output
    assert "mean days per loop" in cut.output and "loops ended by the key person's death" in cut.output
    full = CliRunner().invoke(app, ["looper", "run", "--games", "400", "--seed", "1", "--all"], terminal_width=200)
    assert full.exit_code == 0 and "more rows cut" not in full.output
    assert full.output.count("\n") > cut.output.count("\n")
