"""One race game, event by event: the batch kernel replaying game K with an event log.

Rule ids are those of the package's README: R-1 turns alternate, player 1 first, player 2
with the head start; R-2 one die adds its face; R-3 two dice add their sum unless one
shows the bust face; R-4 the first to reach the target wins.
"""
from __future__ import annotations

from sim.core.reasons import REASON, attach, reason_item
from sim.core.seeding import run_key
from sim.core.trace import Trace, log_rows, new_log
from sim_race.enums import SIDES, WHY, Dice, Ev, Why
from sim_race.game_nb import chunk_kernel, new_counts


def _describe(item: dict) -> tuple[dict, str]:
    k, b, x = item["kind"], item["b"], item["score"]
    name = WHY[k] if 0 <= k < len(WHY) else f"kind {k}"
    if k == Why.ALWAYS:
        return {"why": name, "dice": int(x)}, f"always {'one die' if x == 1 else 'two dice'}"
    if k == Why.BEHIND:
        return {"why": name, "behind": int(x), "k": b}, \
            f"behind by {x:.0f}, {'at least' if x >= b else 'less than'} k = {b}"
    if k == Why.COIN:
        return {"why": name, "dice": int(x)}, "a fair coin"
    return {"why": name, "a": item["a"], "b": b, "score": x}, f"{name} {item['a']} {b} {x:g}"


def trace(setup, strategies, seed: int, game: int, *, spawn: tuple[int, ...] = (), events: bool = True) -> Trace:
    """Game ``game`` of the run with ``seed``: the same kernel as the batch, one game, a log."""
    s1, s2 = strategies["p1"], strategies["p2"]
    out = new_counts(setup.nb)
    log = new_log(4096 + 4 * int(setup.nb[0]))
    chunk_kernel(s1, s2)(run_key(seed, *spawn), game, 1, setup.nb, out, log)
    rows, cut = log_rows(log)
    evs, totals, turns, winner = [], [0, setup.head_start], 0, None
    for r in rows:
        code = int(r[0])
        if code == REASON:
            attach(evs, reason_item(r), _describe)
        elif code == Ev.TURN:
            p, dice, a, b, gain, total = (int(x) for x in r[1:7])
            turns += 1
            totals[p] = total
            if dice == Dice.ONE:
                what, rule = f"one die: {a}", "R-2"
            else:
                what = f"two dice: {a} + {b}" + (" — bust, nothing" if gain == 0 else f" = {gain}")
                rule = "R-3"
            evs.append({"event": "turn", "rule": rule, "group": f"round {(turns + 1) // 2}", "player": SIDES[p],
                        "dice": int(dice), "faces": [a] if dice == Dice.ONE else [a, b], "gain": gain,
                        "total": total, "text": f"{SIDES[p]} rolls {what}; total {total}"})
        elif code == Ev.WIN:
            p = int(r[1])
            winner = SIDES[p]
            evs.append({"event": "win", "rule": "R-4", "group": f"round {(turns + 1) // 2}", "player": winner,
                        "total": int(r[2]), "other": int(r[3]),
                        "text": f"{winner} reaches {int(r[2])} (target {setup.target}) and wins"})
    assert winner is not None or cut, "a race game always ends with a winner"
    # the result comes from the counts (what the batch counts), not from the events
    p1_won = bool(out.scalars[1])
    result = {"winner": "p1" if p1_won else "p2", "turns": int(out.scalars[2]),
              "p1_total": totals[0], "p2_total": totals[1]}
    return Trace(game=game, events=evs if events else [], result=result, cut=cut)
