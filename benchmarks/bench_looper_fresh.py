"""Reasoning players on freshly drawn multi-move scripts (issue 41).

Draws scripts of several moves (``--kind``: the adversarial search's structured proposals —
movers converging on the key person's place, guests, Turf King shifts — its random traps,
or both alternately) under the
rule variants P-15 / P-16 with victims chosen ``first``, keeps the first ``--scripts`` ones
that `oracle_planner` wins in loop 1 in every one of ``--check`` games, then plays each
reasoning player ``--games`` games on each and prints its mean, its worst script and the
scripts below 50 %::

    python benchmarks/bench_looper_fresh.py --scripts 50 --check 10 --games 20 --seed 1 --kind mixed
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sim.core.seeding import python_rng  # noqa: E402
from sim.looper.game import posterior_report, resolve_setup, run  # noqa: E402
from strategies.looper.adversarial import _propose, _propose_structured  # noqa: E402

VARIANTS = ["rules.stay_moves=false", "rules.key_person_movable=false"]


def script_of(roster, row) -> dict:
    from sim.looper.enums import I

    R = roster.nb
    nperm, nguest = int(R.info[I.N_PERM]), int(R.info[I.N_GUEST])
    gd = np.asarray(R.guest_day)
    days = {int(gd[d]): d for d in range(len(gd)) if gd[d] >= 0}
    perm = [{"character": roster.ids[row[1 + 2 * j]], "location": roster.loc_ids[row[2 + 2 * j]]}
            for j in range(nperm) if row[1 + 2 * j] >= 0]
    g0 = 1 + 2 * nperm
    guest = [{"day": days[k], "character": roster.ids[row[g0 + 2 * k]], "location": roster.loc_ids[row[g0 + 2 * k + 1]]}
             for k in range(nguest) if row[g0 + 2 * k] >= 0]
    return {"rules": {"stay_moves": False, "key_person_movable": False},
            "setup": {"key_person": roster.ids[row[0]], "permanent_moves": perm, "guest_moves": guest,
                      "choose": "first"}}


def label(script) -> str:
    s = script["setup"]
    perm = ", ".join(f"{m['character']}→{m['location']}" for m in s["permanent_moves"])
    guest = ", ".join(f"d{m['day']} {m['character']}→{m['location']}" for m in s["guest_moves"])
    return f"key {s['key_person']}; {perm}; guests {guest}"


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--scripts", type=int, default=50)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--check", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", default="bayes,planner")
    ap.add_argument("--kind", default="mixed", choices=("structured", "random", "mixed"),
                    help="the adversarial search's structured proposals, its random traps, or both alternately")
    a = ap.parse_args(argv)
    base = resolve_setup(None, VARIANTS)
    rng = python_rng(a.seed, 41)
    st = _propose_structured(base, rng, 40 * a.scripts)
    rnd = _propose(base, rng, 40 * a.scripts)
    if a.kind == "mixed":
        rows = np.empty((len(st) + len(rnd), st.shape[1]), np.int64)
        rows[0::2], rows[1::2] = st, rnd
    else:
        rows = st if a.kind == "structured" else rnd
    kept = []
    for row in rows:
        if len(kept) >= a.scripts:
            break
        moves = (row[1:1 + 6:2] >= 0).sum() + (row[7::2] >= 0).sum()
        if moves < 4:
            continue
        script = script_of(base, row)
        r = run(a.check, a.seed, player="oracle_planner", scriptwriter="fixed", roster=resolve_setup(script))
        if r.tables["wins_by_loop"]["wins"].to_list()[0] == a.check:
            kept.append(script)
    print(f"{len(kept)} scripts won by oracle_planner in loop 1 ({a.check} games each)", flush=True)
    for p in a.players.split(","):
        rates, blind = [], []
        for script in kept:
            r = run(a.games, a.seed, player=p, scriptwriter="fixed", roster=resolve_setup(script))
            rates.append(r.summary["player_win_rate"][0])
            blind.append(posterior_report(r.totals).get("share_without_consistent_world", 0.0))
        i = int(np.argmin(rates))
        low = sum(x < 0.5 for x in rates)
        print(f"{p}: mean {np.mean(rates):.1%}; worst {rates[i]:.1%} ({label(kept[i])}); "
              f"{low} scripts below 50 %; decisions with no consistent world {np.mean(blind):.3%}", flush=True)


if __name__ == "__main__":
    main()
