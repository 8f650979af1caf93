"""Leave one out for the Looper: the player's win rate with each table character removed (P-14)."""
from __future__ import annotations

import copy
from typing import Any

import polars as pl

from sim.errors import SimInputError
from sim.looper.enums import CHAR_FIELDS
from sim.looper.roster import Setup, compile_setup

SCHEMA = {"removed": pl.String, "player_win_rate": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64,
          "delta": pl.Float64, "delta_ci_low": pl.Float64, "delta_ci_high": pl.Float64, "games": pl.Int64,
          "note": pl.String}


def without_character(cfg: dict, cid: str) -> tuple[dict, list[str]]:
    """A copy of the configuration tree with table character ``cid`` removed, and notes.

    Every effect of another character that names ``cid`` in a character field
    (``CHAR_FIELDS``: die_if_with ``other``, bully ``victim``, substitute_victim
    ``rule_of`` / ``instead_of``) is dropped; a list of names loses only that entry. A
    pinned ``[setup] key_person`` equal to ``cid`` is reset to "" (the strategy chooses).
    """
    out = copy.deepcopy(cfg)
    chars = out.get("characters", {})
    if cid not in chars:
        raise SimInputError(f"unknown table character {cid!r}")
    del chars[cid]
    notes: list[str] = []
    for other, ch in chars.items():
        effects = ch.get("effects", []) if isinstance(ch, dict) else []
        if not isinstance(effects, list):
            continue
        kept = []
        for j, eff in enumerate(effects):
            keep = True
            if isinstance(eff, dict):
                for f in CHAR_FIELDS:
                    v = eff.get(f)
                    if v == cid:
                        notes.append(f"dropped {other}'s {eff.get('kind')} ({f} = {cid})")
                        keep = False
                        break
                    if isinstance(v, list) and cid in v:
                        eff[f] = [x for x in v if x != cid]
                        notes.append(f"removed {cid} from {other}'s {eff.get('kind')} {f}")
            if keep:
                kept.append(eff)
        ch["effects"] = kept
    setup = out.get("setup")
    if isinstance(setup, dict) and setup.get("key_person") == cid:
        setup["key_person"] = ""
        notes.append(f"key person was pinned to {cid}; the scriptwriter strategy chooses")
    return out, notes


def leave_one_out(games: int, seed: int = 0, *, roster: Setup, **kw: Any) -> pl.DataFrame:
    """The player's win rate with each table character in roster order removed.

    Every row plays ``games`` games with the same seed (common random numbers); the first
    row, ``(none)``, is the full roster. ``kw`` goes to :func:`sim.looper.game.run`
    (player, scriptwriter, threads, …). A removal that leaves an invalid roster keeps its
    error in ``note`` and null numbers.
    """
    from sim.analysis.restrict import PairedBlocks
    from sim.core.game import get
    from sim.looper.game import run

    rec = PairedBlocks(get("looper").primary, games)  # every row on the full roster's games: paired changes
    base = run(games, seed, roster=roster, **kw, **rec.kw("(none)")).summary.row(0, named=True)
    rows = [{"removed": "(none)", "player_win_rate": base["player_win_rate"], "ci_low": base["ci_low"],
             "ci_high": base["ci_high"], "delta": 0.0, "delta_ci_low": 0.0, "delta_ci_high": 0.0,
             "games": base["games"], "note": ""}]
    for cid in roster.ids[1:]:
        cfg, notes = without_character(roster.config, cid)
        try:
            r2 = compile_setup(cfg)
        except SimInputError as e:
            rows.append({"removed": cid, "player_win_rate": None, "ci_low": None, "ci_high": None,
                         "delta": None, "delta_ci_low": None, "delta_ci_high": None, "games": None,
                         "note": "; ".join([*notes, str(e)])})
            continue
        s = run(games, seed, roster=r2, **kw, **rec.kw(cid)).summary.row(0, named=True)
        d, lo, hi = rec.delta("(none)", cid)
        rows.append({"removed": cid, "player_win_rate": s["player_win_rate"], "ci_low": s["ci_low"],
                     "ci_high": s["ci_high"], "delta": d, "delta_ci_low": lo, "delta_ci_high": hi,
                     "games": s["games"], "note": "; ".join(notes)})
    return pl.DataFrame(rows, schema=SCHEMA)
