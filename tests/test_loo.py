"""Leave one out for the Looper (each table character removed, P-14) and for TRPG
scenarios (each character removed, T-9): rows equal plain runs of explicitly written
configurations, references to a removed character are handled, bad input → exit 2."""
import json
import re

import polars as pl
import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.errors import SimInputError
from sim.looper.enums import CHAR_FIELDS, SCHEMA
from sim.looper.roster import build_config, compile_setup

runner = CliRunner()
LG = 1500   # Looper games per row (25 rows)
TG = 3000   # TRPG combats per row
ALLEY = "sim/trpg/data/scenarios/alley.toml"


def invoke(*args):
    return runner.invoke(app, list(args))


def fractions(rows: list[dict]) -> list[dict]:
    """JSON rows without the points beside each difference (the parquet keeps fractions only);
    each ``<key>_points`` is checked to be ``<key>`` × 100 on the way."""
    for r in rows:
        for k, v in r.items():
            if k.endswith("_points"):
                base = r[k.removesuffix("_points")]
                assert (v is None and base is None) or v == pytest.approx(100 * base), k
    return [{k: v for k, v in r.items() if not k.endswith("_points")} for r in rows]


def _bad(args, match, tmp_path):
    out = tmp_path / "out"
    r = invoke(*args, "--out", str(out))
    assert r.exit_code == 2, r.output
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:") and match in err[0], r.stderr
    assert "Traceback" not in r.output and not out.exists()


# ---------------------------------------------------------------- Looper

def _looper_rate(cfg: dict, seed: int) -> dict:
    from sim.looper.game import run

    return run(LG, seed, roster=compile_setup(cfg), threads=2).summary.row(0, named=True)


@pytest.fixture(scope="module")
def looper_pinned():
    """Leave one out via the Python API, one loop and the key person pinned (P-13) to the
    bottom-rung man, who dies when the yakuza is with him: win rates far from 1."""
    from sim.looper.loo import leave_one_out

    roster = compile_setup(build_config(sets=["setup.key_person=bottom_rung_man", "rules.max_loops=1"]))
    return roster, leave_one_out(LG, 5, roster=roster, threads=2)


def test_looper_rows_and_none_row_is_the_plain_run(looper_pinned):
    roster, df = looper_pinned
    assert df.columns == ["removed", "player_win_rate", "ci_low", "ci_high", "delta", "delta_ci_low",
                          "delta_ci_high", "games", "note"]
    assert df["removed"].to_list() == ["(none)", *roster.ids[1:]]
    assert len(df) == 25
    base = _looper_rate(roster.config, 5)
    row = df.row(0, named=True)
    assert (row["player_win_rate"], row["ci_low"], row["ci_high"], row["games"]) == \
        (base["player_win_rate"], base["ci_low"], base["ci_high"], LG)
    assert row["delta"] == 0.0 and row["note"] == ""
    assert ((df["delta"] - (df["player_win_rate"] - base["player_win_rate"])).abs() < 1e-12).all()
    # the paired interval holds its change (same games as the full roster's)
    assert ((df["delta_ci_low"] <= df["delta"]) & (df["delta"] <= df["delta_ci_high"])).all()
    assert (df["games"] == LG).all()


def _without(cfg: dict, cid: str, **effects) -> dict:
    """The configuration written by hand without ``cid`` and with ``effects`` replaced."""
    import copy

    cfg = copy.deepcopy(cfg)
    del cfg["characters"][cid]
    for other, eff in effects.items():
        cfg["characters"][other]["effects"] = eff
    return cfg


def test_looper_removal_equals_a_config_without_the_character(looper_pinned):
    roster, df = looper_pinned
    rows = {r["removed"]: r for r in df.iter_rows(named=True)}
    full = roster.config
    # The yakuza: the bottom-rung man's die_if_with (other = yakuza) goes with him, so the
    # pinned key person no longer dies that way and the player wins far more often.
    r = rows["yakuza"]
    assert "bottom_rung_man" in r["note"] and "die_if_with" in r["note"]
    assert r["player_win_rate"] == _looper_rate(_without(full, "yakuza", bottom_rung_man=[]), 5)["player_win_rate"]
    assert r["delta"] > 0.15
    # The bullied kid: the bully's rule (victim) and the substitute (instead_of) both go.
    r = rows["bullied_kid"]
    assert "bully's bully" in r["note"] and "second_from_bottom's substitute_victim" in r["note"]
    want = _without(full, "bullied_kid", bully=[], second_from_bottom=[])
    assert r["player_win_rate"] == _looper_rate(want, 5)["player_win_rate"]
    # The pinned key person: reset to "" (the strategy chooses again).
    r = rows["bottom_rung_man"]
    assert "key person" in r["note"]
    want = _without(full, "bottom_rung_man")
    want["setup"]["key_person"] = ""
    assert r["player_win_rate"] == _looper_rate(want, 5)["player_win_rate"]
    # Nobody names the laid-off man: no note, and the row is just the roster without him.
    r = rows["laid_off_man"]
    assert r["note"] == ""
    assert r["player_win_rate"] == _looper_rate(_without(full, "laid_off_man"), 5)["player_win_rate"]


def test_looper_removal_changes_the_game(looper_pinned):
    _, df = looper_pinned
    # Common random numbers do not make every row equal: at least some removals matter.
    assert df["player_win_rate"].n_unique() > 10
    assert 0.3 < df["player_win_rate"][0] < 0.8


def _field_value(field: str):
    return {"amount": 1, "threshold": 1, "include_self": False, "location": "park", "everyone": "child",
            "attr": "child"}.get(field, "cat" if field in CHAR_FIELDS else [])


@pytest.mark.parametrize("kind", sorted(SCHEMA))
def test_char_fields_are_exactly_the_fields_naming_a_character(kind):
    """A field that takes a character id rejects an unknown one as 'unknown character';
    CHAR_FIELDS must list exactly those, or leave one out would miss a reference."""
    for field in SCHEMA[kind]:
        eff = {"kind": kind, **{f: _field_value(f) for f in SCHEMA[kind]}}
        compile_setup(build_config({"characters": {"turf_king": {"effects": [eff]}}}))  # valid as built
        eff[field] = "nobody_at_all"
        with pytest.raises(SimInputError) as e:
            compile_setup(build_config({"characters": {"turf_king": {"effects": [eff]}}}))
        assert ("unknown character" in str(e.value)) == (field in CHAR_FIELDS), (kind, field, str(e.value))


def test_looper_cli_json_out_and_invalid_rosters(tmp_path):
    out = tmp_path / "loo"
    # 24 permanent moves need all 24 table characters: every removal is impossible.
    r = invoke("looper", "loo", "--games", "800", "--seed", "2", "--set", "rules.permanent_moves=24",
               "--json", "--out", str(out))
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["games_per_row"] == 800 and d["player"] == "random" and d["scriptwriter"] == "random"
    rows = d["rows"]
    assert set(rows[0]) == {"removed", "player_win_rate", "ci_low", "ci_high", "delta", "delta_ci_low",
                            "delta_ci_high", "games", "note", "delta_points", "delta_ci_low_points",
                            "delta_ci_high_points"}   # JSON adds each difference in points beside it
    assert rows[0]["removed"] == "(none)" and rows[0]["ci_low"] <= rows[0]["player_win_rate"] <= rows[0]["ci_high"]
    for x in rows[1:]:
        assert x["player_win_rate"] is None and x["delta"] is None and x["games"] is None
        assert "permanent_moves" in x["note"]
    assert "die_if_with" in next(x["note"] for x in rows if x["removed"] == "yakuza")
    assert pl.read_parquet(out / "leave_one_out.parquet").to_dicts() == fractions(rows)
    m = json.loads((out / "_manifest.json").read_text())
    assert m["command"] == "sim looper loo" and m["game"] == "looper" and m["games_per_row"] == 800
    assert m["config"]["rules"]["permanent_moves"] == 24


def test_looper_cli_bad_input(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[rules\n")
    _bad(["looper", "loo", "--games", "10", "--player", "psychic"], "unknown player strategy", tmp_path)
    _bad(["looper", "loo", "--games", "10", "--scriptwriter", "kind"], "scriptwriter", tmp_path)
    _bad(["looper", "loo", "--games", "10", "--config", str(bad)], "malformed TOML", tmp_path)
    _bad(["looper", "loo", "--games", "10", "--set", "characters.nobody.location=park"],
         "unknown parameter path", tmp_path)
    _bad(["looper", "loo", "--games", "0"], "--games must be a positive integer", tmp_path)


# ---------------------------------------------------------------- TRPG

@pytest.fixture(scope="module")
def alley():
    from sim.trpg.loo import leave_one_out
    from sim.trpg.sheets import resolve_setup

    sc = resolve_setup(ALLEY)
    return sc, leave_one_out(TG, 4, scenario=sc, threads=2)


def _trpg_rates(scenario_file, seed: int) -> dict:
    from sim.trpg.game import run

    t = run(TG, seed, path=scenario_file, threads=2).tables
    out = {f"{r['side']}_{c}": r[c] for r in t["sides"].iter_rows(named=True) for c in ("win_rate", "ci_low", "ci_high")}
    out["draw_rate"] = t["summary"]["draw_rate"][0]
    return out


def test_trpg_none_row_is_the_plain_run(alley):
    sc, df = alley
    assert df["removed"].to_list() == ["(none)", "aoi", "ren", "host", "shade"]
    assert df["side"].to_list() == ["", "players", "players", "kaii", "kaii"]
    row = df.row(0, named=True)
    assert {k: row[k] for k in _trpg_rates(ALLEY, 4)} == _trpg_rates(ALLEY, 4)
    assert row["players_delta"] == row["kaii_delta"] == row["draw_delta"] == 0.0 and row["games"] == TG


def test_trpg_removal_equals_a_scenario_file_without_the_character(alley, tmp_path):
    _, df = alley
    text = open(ALLEY, encoding="utf-8").read()
    # the [characters.ren] table, up to the next table
    without = re.sub(r"\[characters\.ren\].*?(?=\n\[)", "", text, flags=re.S)
    assert "ren" not in re.findall(r"\[characters\.(\w+)\]", without)
    p = tmp_path / "alley_without_ren.toml"
    p.write_text(without, encoding="utf-8")
    row = df.filter(pl.col("removed") == "ren").row(0, named=True)
    want = _trpg_rates(p, 4)
    assert {k: row[k] for k in want} == want
    base = df.row(0, named=True)
    assert row["players_delta"] == want["players_win_rate"] - base["players_win_rate"]
    assert row["draw_delta"] == want["draw_rate"] - base["draw_rate"]


def test_trpg_removing_a_member_of_the_stronger_side_lowers_its_win_rate(alley):
    _, df = alley
    base = df.row(0, named=True)
    # With aoi kiting (T-6) and guards by the equipped weapon the players are the
    # stronger side; without ren (their only melee fighter) they clearly are not.
    ren = df.filter(pl.col("removed") == "ren").row(0, named=True)
    assert base["players_win_rate"] > 0.5
    assert ren["players_ci_high"] < base["players_ci_low"]
    assert ren["players_delta"] < -0.15 and ren["kaii_delta"] > 0.15
    # Without the shade (immune to the investigators' physical attacks) only the host is left.
    shade = df.filter(pl.col("removed") == "shade").row(0, named=True)
    assert shade["players_win_rate"] > 0.9


def test_trpg_last_member_of_a_side_cannot_be_removed(tmp_path):
    out = tmp_path / "loo"
    r = invoke("trpg", "loo", ALLEY, "--games", "500", "--seed", "1", "--set", "characters.host.side=players",
               "--json", "--out", str(out))
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["games_per_row"] == 500 and d["sides"] == ["players", "kaii"]
    rows = d["rows"]
    assert set(rows[0]) == {"removed", "side", "players_win_rate", "players_ci_low", "players_ci_high",
                            "players_delta", "kaii_win_rate", "kaii_ci_low", "kaii_ci_high", "kaii_delta",
                            "players_delta_ci_low", "players_delta_ci_high", "draw_rate", "draw_delta", "games",
                            "note", "players_delta_points", "kaii_delta_points", "players_delta_ci_low_points",
                            "players_delta_ci_high_points", "draw_delta_points"}
    shade = rows[-1]
    assert shade["removed"] == "shade" and "only member of side 'kaii'" in shade["note"]
    assert all(shade[k] is None for k in shade if k not in ("removed", "side", "note"))
    assert all(x["games"] == 500 and x["note"] == "" for x in rows[:-1])
    assert pl.read_parquet(out / "leave_one_out.parquet").to_dicts() == fractions(rows)
    m = json.loads((out / "_manifest.json").read_text())
    assert m["command"] == "sim trpg loo" and m["games_per_row"] == 500 and m["scenario_file"] == ALLEY
    assert m["config"]["characters"]["host"]["side"] == "players"


def test_trpg_cli_bad_input(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[scenario\n")
    _bad(["trpg", "loo", str(bad), "--games", "10"], "malformed TOML", tmp_path)
    _bad(["trpg", "loo", str(tmp_path / "missing.toml"), "--games", "10"], "no such file", tmp_path)
    _bad(["trpg", "loo", ALLEY, "--games", "10", "--set", "characters.nobody.hp=3"], "unknown parameter path",
         tmp_path)
    _bad(["trpg", "loo", ALLEY, "--games", "10", "--set", "characters.aoi.strategy.target=psychic"],
         "characters.aoi.strategy.target", tmp_path)


def test_cli_tables_print():
    r = invoke("looper", "loo", "--games", "300", "--set", "rules.permanent_moves=24")
    assert r.exit_code == 0, r.output
    assert "leave one out" in r.output and "(none)" in r.output and "wandering_kenkichi" in r.output
    r = invoke("trpg", "loo", ALLEY, "--games", "300", "--set", "characters.host.side=players")
    assert r.exit_code == 0, r.output
    assert "leave one out" in r.output and "only member" in r.output
