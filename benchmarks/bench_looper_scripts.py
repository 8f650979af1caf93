"""Win rates of the Looper players on the hand-written script library (issue 41).

For each script of ``examples/looper/scripts`` (or the folder given) and each player: the
player's win rate with its Wilson 95 % CI, the share of games won in loop 1 and, for the
reasoning players, the share of decisions taken with no setup consistent with everything
announced (``posterior_report``). ``--adversarial``: the same figures against the default
adversarial pool (``--scriptwriter adversarial``, rules P-15/P-16)::

    python benchmarks/bench_looper_scripts.py --games 400 --players bayes,planner,oracle_planner
    python benchmarks/bench_looper_scripts.py --adversarial --games 1000 --players bayes,planner
"""
from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sim.looper.game import posterior_report, resolve_setup, run  # noqa: E402

LIBRARY = ROOT / "examples" / "looper" / "scripts"
VARIANTS = ["rules.stay_moves=false", "rules.key_person_movable=false"]
# kept out of what the players are tuned on (examples/looper/scripts/README.md)
HELD_OUT = {"kenkichi_walk", "misa_guard", "stalker_lovers", "yakuza_ruins"}


def measure(roster, player, games, seed, scriptwriter="fixed"):
    r = run(games, seed, player=player, scriptwriter=scriptwriter, roster=roster)
    s = r.summary.row(0, named=True)
    wbl = r.tables["wins_by_loop"]["wins"].to_list()
    pr = posterior_report(r.totals)
    return {"win": s["player_win_rate"], "lo": s["ci_low"], "hi": s["ci_high"], "loop1": wbl[0] / s["games"],
            "blind": pr.get("share_without_consistent_world"), "gps": s["games_per_second"]}


def line(name, player, m):
    blind = "" if m["blind"] is None else f"  no consistent world {m['blind']:.2%}"
    print(f"{name:24s} {player:15s} {m['win']:7.1%} [{m['lo']:.1%}, {m['hi']:.1%}]  loop 1 {m['loop1']:6.1%}"
          f"{blind}  {m['gps']:,.0f} games/s", flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--folder", default=str(LIBRARY))
    ap.add_argument("--players", default="bayes,planner,oracle_planner")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--adversarial", action="store_true", help="against the default adversarial pool instead")
    ap.add_argument("--only", default="", help="comma-separated script names")
    ap.add_argument("--held-out", action="store_true", help="also the held-out scripts (README.md there)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="a setting for every script, as `sim --set` (e.g. player.descents=3)")
    a = ap.parse_args(argv)
    players = a.players.split(",")
    if a.adversarial:
        roster = resolve_setup(None, VARIANTS + a.set)
        for p in players:
            line("adversarial pool", p, measure(roster, p, a.games, a.seed, "adversarial"))
        return
    only = set(filter(None, a.only.split(",")))
    for f in sorted(Path(a.folder).glob("*.toml")):
        if (only and f.stem not in only) or (f.stem in HELD_OUT and not a.held_out and not only):
            continue
        roster = resolve_setup(tomllib.loads(f.read_text()), a.set)
        for p in players:
            line(f.stem, p, measure(roster, p, a.games, a.seed))


if __name__ == "__main__":
    main()
