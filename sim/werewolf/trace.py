"""``sim werewolf trace``: one game of a run, event by event, from the batch kernel itself.

:func:`trace_game` runs the very chunk kernel of ``run`` on games K … K (``start=K,
count=1``) with an event log (:mod:`sim.core.trace`), so its result is the one-game
batch result by construction; :func:`decode` turns the log's rows (codes ``T`` of
:mod:`sim.werewolf.enums`) into dicts ``{"event", "rule", "group", "text", …fields}``.
A trace is the judge's view: roles, marks, readings, every ballot. A decision's event
carries its strategy's reason (:mod:`sim.core.reasons`) when the strategy states one:
``reason`` (items ``{"why": "suspect", "participant", "role", "score"}`` …) and
``reason_text`` (the same as one line of text).

Rule ids are those of ``docs/rules/werewolf.md`` (R-n) and ``docs/werewolf.md`` (Q-n).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from sim.core.reasons import REASON, attach, reason_item
from sim.core.seeding import run_key
from sim.core.trace import Trace, log_rows, new_log
from sim.werewolf.enums import ABILITIES, CLAIMS, EVENTS, HOW, WHY, WINNERS, WITCH_ELIMINATE, WITCH_REVIVE, T, W, Why

CODES = {v: k.lower() for k, v in T._asdict().items()}

# The result keys ``--find`` can test (WerewolfGame.find_keys).
FIND_KEYS = ("winner", "ended_by", "days", "runoffs", "nobody_out", "out", "survivors", "voted", "attacked",
             "dragged", "witch")

_OUT_RULE = {"voted": "R-3", "attacked": "Q-2", "witch": "Q-5", "dragged": "Q-3"}


def _mask_list(m: int) -> list[int]:
    m = int(m)
    return [i for i in range(64) if (m >> i) & 1]


def result_of(setup, counts) -> dict[str, Any]:
    """The result of a one-game batch run (its ``Counts``) as a trace reports it."""
    from sim.werewolf.game_nb import C_NOBODY_OUT, C_RUNOFFS

    end = np.argwhere(counts.end)
    assert len(end) == 1, "one game"
    win, ev = int(end[0][0]), int(end[0][1])
    days = int(np.flatnonzero(counts.days_hist)[0])
    res: dict[str, Any] = {"winner": WINNERS[win], "ended_by": EVENTS[ev], "days": days,
                           "runoffs": int(counts.scalars[C_RUNOFFS]), "nobody_out": int(counts.scalars[C_NOBODY_OUT])}
    ids = setup.role_ids
    res["survivors"] = [ids[r] for r in range(len(ids)) for _ in range(int(counts.role_survived[r]))]
    res["out"] = [ids[r] for r in range(len(ids)) for _ in range(int(counts.role_out[r].sum()))]
    for h in range(1, len(HOW)):
        res[HOW[h]] = [ids[r] for r in range(len(ids)) for _ in range(int(counts.role_out[r, h]))]
    return res


def decode(setup, rows: np.ndarray) -> list[dict]:
    """Event rows → event dicts (grouped by day and phase)."""
    names = {rid: setup.config["roles"][rid].get("name", rid) for rid in setup.role_ids}
    role_of: dict[int, str] = {}
    group = "setup"
    out: list[dict] = []

    def who(p: int) -> str:
        p = int(p)
        return f"P{p} ({role_of[p]})" if p in role_of else f"P{p}"

    def whom(m: int) -> str:
        return ", ".join(who(p) for p in _mask_list(m)) or "nobody"

    def add(event: str, rule: str, text: str, **fields: Any) -> None:
        out.append({"event": event, "rule": rule, "group": group, "text": text, **fields})

    def describe(item: dict) -> tuple[dict, str]:
        k, p, q, x = item["kind"], item["a"], item["b"], item["score"]
        name = WHY[k] if 0 <= k < len(WHY) else f"kind {k}"
        fields: dict[str, Any] = {"why": name, "score": x}
        if p >= 0:
            fields.update(participant=p, role=role_of.get(p))
        if q >= 0:
            fields.update(by=q, by_role=role_of.get(q))
        if k in (Why.SUSPECT, Why.TRUST):
            return fields, f"{who(p)} {'suspicion' if k == Why.SUSPECT else 'trust'} {x:.2f}"
        if k == Why.THRESHOLD:
            return fields, f"threshold {x:.2f}"
        if k == Why.RANDOM:
            return fields, f"at random among {x:.0f}"
        if k == Why.AVOID:
            return fields, f"avoids {who(p)}"
        if k == Why.REPORTED:
            return fields, f"{who(p)} reported wolf by {who(q)}"
        if k == Why.KNOWN:
            return fields, f"{who(p)} known {'wolf' if x else 'village'}"
        if k == Why.CLAIMER:
            return fields, f"{who(p)} claims {CLAIMS[int(x)] if 0 <= x < len(CLAIMS) else '?'}"
        if k == Why.CLEARED:
            return fields, (f"{who(p)} cleared by {x:.0f} report(s)" if p >= 0 else f"{x:.0f} cleared left out")
        if k == Why.ANNOUNCES:
            return fields, f"announces {who(p)} as {'wolf' if x else 'village'}"
        if k == Why.UNREAD:
            return fields, f"among {x:.0f} not yet read"
        if k == Why.NOTHING:
            return fields, "nothing to act on"
        if k == Why.SEATS:
            return fields, f"the {x:.0f} highest seat(s): the table votes the lowest first"
        return fields, f"{name} {who(p) if p >= 0 else ''} {x:g}".strip()

    for row in rows:
        code, a, b, c, d = (int(x) for x in row[:5])
        if code == REASON:
            attach(out, reason_item(row), describe)
            continue
        kind = CODES.get(code, f"code {code}")
        if code == T.PHASE:
            group = f"day {a} · {'evening' if b == 0 else 'night'}"
            continue
        if code == T.DEAL:
            rid = setup.role_ids[b]
            role_of[a] = rid
            add(kind, "R-1", f"P{a} is dealt {names[rid]} ({rid})", participant=a, role=rid)
        elif code == T.IDLE:
            add(kind, "R-6", f"{who(a)} is out: its ability ({ABILITIES[b]}) does nothing", participant=a,
                ability=ABILITIES[b])
        elif code == T.MARK:
            text = f"{who(a)} marks {who(b)}" if b >= 0 else f"{who(a)} marks nobody"
            add(kind, "Q-1", text, hati=a, target=b)
        elif code == T.DIVINE:
            read = "wolf" if c else "village"
            why = " (marked by hati today)" if d else ""
            add(kind, "Q-6" if d else "R-1", f"{who(a)} divines {who(b)}: reads {read}{why}", seer=a, target=b,
                reading=read, marked=bool(d))
        elif code == T.MEDIUM:
            read = "wolf" if c else "village"
            add(kind, "Q-6", f"{who(a)} learns that {who(b)}, voted out yesterday, reads {read}", medium=a,
                target=b, reading=read)
        elif code == T.CLAIM:
            read = "wolf" if c else "village"
            role = CLAIMS[d] if 0 <= d < len(CLAIMS) else "?"
            add(kind, "Q-10", f"{who(a)} claims {role}: {who(b)} is {read}", claimer=a, target=b, reading=read,
                claimed=role)
        elif code == T.BALLOT:
            rnd = f" (runoff {c})" if c else ""
            add(kind, "Q-8" if c else "R-3", f"{who(a)} votes {who(b)}{rnd}", voter=a, target=b, round=c)
        elif code == T.TALLY:
            rnd = f"runoff {a}" if a else "the vote"
            add(kind, "R-3", f"{rnd}: most votes ({c}) for {whom(b)}", round=a, top=_mask_list(b), votes=c)
        elif code == T.RUNOFF:
            add(kind, "Q-8", f"three or more tied: runoff {a} among {whom(b)}", round=a, candidates=_mask_list(b))
        elif code == T.NOBODY:
            add(kind, "R-4", f"still tied after {a} runoffs: nobody is out today", runoffs=a)
        elif code == T.TIEBREAK:
            add(kind, "R-3", f"tie among {whom(a)} broken at random: {who(b)}", tied=_mask_list(a), picked=b)
        elif code == T.LYNCH:
            add(kind, "R-3", f"random lynch picks {who(a)}", picked=a)
        elif code == T.OUT:
            how = HOW[b]
            add(kind, _OUT_RULE.get(how, "R-3"), f"{who(a)} is out ({how})", participant=a, how=how)
        elif code == T.DRAG:
            add(kind, "Q-3", f"{who(a)} drags {who(b)} along", fenrir=a, participant=b)
        elif code == T.WITCH:
            if b == WITCH_ELIMINATE:
                add(kind, "Q-5", f"{who(a)} puts {who(c)} out", witch=a, action="eliminate", target=c)
            elif b == WITCH_REVIVE:
                add(kind, "R-5", f"{who(a)} brings {who(c)} back", witch=a, action="revive", target=c)
            else:
                add(kind, "Q-5", f"{who(a)} does nothing", witch=a, action="pass", target=-1)
        elif code == T.PROTECT:
            add(kind, "Q-1", f"{who(a)} protects {whom(b)}", paladin=a, protected=_mask_list(b))
        elif code == T.ATTACK:
            text = f"the wolves ({who(a)}) attack {who(b)}" + (": protected by the paladin" if c else "")
            add(kind, "Q-2", text, attacker=a, target=b, protected=bool(c))
        elif code == T.NOATTACK:
            add(kind, "Q-2", "no attack: " + ("no living wolf" if a == 0 else "nobody to attack"),
                reason="no living wolf" if a == 0 else "no target")
        elif code == T.CHECK:
            after = EVENTS[b]
            if a == W.DRAW:
                add(kind, "Q-9", "the day limit is reached: a draw", winner="draw", after=after)
            else:
                res = "the game goes on" if a == W.NONE else f"{WINNERS[a]} win"
                add(kind, "R-7", f"win check after the {after}: {res}", winner=WINNERS[a] if a else None,
                    after=after)
        else:
            add(kind, "", f"unknown event {row.tolist()}")
    return out


def trace_game(setup, village, wolves, seed: int, game: int, *, spawn: tuple[int, ...] = (),
               events: bool = True) -> Trace:
    """Game ``game`` of the run with ``seed``: the batch kernel on that game alone, with a
    log (``events=False``: no log, the result only)."""
    from sim.werewolf.game import resolve_village, resolve_wolves, with_knobs
    from sim.werewolf.game_nb import chunk_kernel, new_counts

    village, wolves = resolve_village(village), resolve_wolves(wolves)
    kernel = chunk_kernel(village, wolves)
    key = run_key(seed, *spawn)
    counts = new_counts(setup.nb)
    log = new_log() if events else None
    kernel(key, game, 1, with_knobs(setup, village, wolves), counts, log)
    tr = Trace(game=game, result=result_of(setup, counts))
    if events:
        rows, tr.cut = log_rows(log)
        tr.events = decode(setup, rows)
    return tr


__all__ = ["FIND_KEYS", "decode", "result_of", "trace_game"]
