"""The adversarial search proposes setups as a person writes them and is seeded with the
script library (issue 41): its exploit list reaches at least the strongest script."""
from __future__ import annotations

import numpy as np
import pytest

from sim.core.seeding import python_rng, run_key
from sim.looper.enums import I
from sim.looper.game import resolve_setup, run
from strategies.looper import PLAYERS
from strategies.looper.adversarial import _propose_structured, _valid_row, exploits_table, library_rows

VARIANTS = ["rules.stay_moves=false", "rules.key_person_movable=false"]


@pytest.mark.parametrize("sets", [[], VARIANTS], ids=["as_read", "variants"])
def test_structured_proposals_converge_and_keep_to_the_rules(sets):
    roster = resolve_setup(None, sets)
    R = roster.nb
    nperm = int(R.info[I.N_PERM])
    rows = _propose_structured(roster, python_rng(3), 200)
    assert len(rows) == 200
    tk = roster.index("turf_king")
    converged = with_tk = late_guest = 0
    for row in rows:
        assert _valid_row(roster, row)
        places = {int(row[2 + 2 * j]) for j in range(nperm) if row[1 + 2 * j] >= 0 and row[1 + 2 * j] != tk}
        converged += len(places) == 1 and sum(row[1 + 2 * j] >= 0 for j in range(nperm)) >= 2
        with_tk += tk in row[1:1 + 2 * nperm:2]
        late_guest += row[-2] >= 0
    assert converged >= 100 and with_tk >= 40 and late_guest >= 120, (converged, with_tk, late_guest)


def test_the_library_seeds_the_search_and_a_designers_folder_joins_it(tmp_path):
    roster = resolve_setup(None, VARIANTS)
    lib = library_rows(roster)
    assert len(lib) >= 10 and all(_valid_row(roster, r) for r in lib)
    (tmp_path / "mine.toml").write_text(
        '[setup]\nkey_person = "cat"\npermanent_moves = [{ character = "yakuza", location = "park" }]\n'
        'guest_moves = []\nchoose = "first"\n')
    both = library_rows(roster, [tmp_path])
    assert len(both) == len(lib) + 1 and both[-1, 0] == roster.index("cat")
    # a script the run's rules forbid (P-16: it moves its key person) is left out
    (tmp_path / "bad.toml").write_text(
        '[setup]\nkey_person = "cat"\npermanent_moves = [{ character = "cat", location = "ruins" }]\n')
    assert len(library_rows(roster, [tmp_path])) == len(lib) + 1


@pytest.mark.parametrize("player", ["cautious", "deducer", pytest.param("planner", marks=pytest.mark.heavy),
                                    pytest.param("bayes", marks=pytest.mark.heavy)])
def test_the_exploit_list_reaches_the_strongest_library_script(player):
    """Against the player it is aimed at, the best setup of the exploit list holds that
    player at most to what the strongest library script does (both re-measured on the same
    games: common random numbers)."""
    roster = resolve_setup(None, [*VARIANTS, f"scriptwriter.against={player}"])
    r = run(50, 1, player=player, scriptwriter="adversarial", roster=roster)
    key = run_key(1, 99)
    lib = library_rows(roster)
    lib = np.column_stack([lib, np.zeros((len(lib), 2), np.int64)])
    p = (PLAYERS.get(player),)
    lib_rates = exploits_table(roster, lib, player, p, key, games=300)["player_win_rate"].to_numpy()
    rows = np.asarray(_rows_of(roster, r.exploits))
    ex_rates = exploits_table(roster, rows, player, p, key, games=300)["player_win_rate"].to_numpy()
    assert ex_rates.min() <= lib_rates.min() + 1e-9, (ex_rates.min(), lib_rates.min())


def _rows_of(roster, exploits):
    """The exploit list's setups back as rows (with two score columns) from its names."""
    R = roster.nb
    nperm, nguest = int(R.info[I.N_PERM]), int(R.info[I.N_GUEST])
    gd = np.asarray(R.guest_day)
    day_to_k = {d: int(gd[d]) for d in range(len(gd)) if gd[d] >= 0}
    rows = []
    for ex in exploits.iter_rows(named=True):
        row = np.full(1 + 2 * nperm + 2 * nguest + 2, -1, np.int64)
        row[2:1 + 2 * nperm + 2 * nguest:2] = 0
        row[0] = roster.index(ex["key_person"])
        for j, mv in enumerate(filter(None, ex["permanent_moves"].split("; "))):
            c, l = mv.split(" → ")
            row[1 + 2 * j], row[2 + 2 * j] = roster.index(c), roster.loc_index(l)
        for mv in filter(None, ex["guest_moves"].split("; ")):
            day, rest = mv.split(": ")
            c, l = rest.split(" → ")
            k = day_to_k[int(day.split()[1])]
            g = 1 + 2 * nperm + 2 * k
            row[g], row[g + 1] = roster.index(c), roster.loc_index(l)
        row[-2:] = 0
        rows.append(row)
    return rows


def test_keep_one_plays_only_the_searchs_best_setup():
    """``adversarial@keep=1``: the pool (and the exploit list) is the one setup the default
    pool of eight ranks first — the same search, the short lists as wide — and every game
    is played on it; the default keeps eight."""
    sets = [*VARIANTS, "scriptwriter.against=cautious", "scriptwriter.proposals=48", "scriptwriter.trials=8"]
    eight = run(40, 3, player="cautious", scriptwriter="adversarial", roster=resolve_setup(None, sets))
    one = run(40, 3, player="cautious", scriptwriter="adversarial",
              roster=resolve_setup(None, [*sets, "scriptwriter.keep=1"]))
    assert len(eight.exploits) == 8 and len(one.exploits) == 1
    cols = ["key_person", "permanent_moves", "guest_moves"]
    assert one.exploits.select(cols).row(0) == eight.exploits.select(cols).row(0)
    assert (one.totals["key_games"] > 0).sum() == 1 and (eight.totals["key_games"] > 0).sum() > 1
