"""Decode a traced Looper game: event rows (sim/looper/enums.py ``Ev``) → dicts with the
rule that caused each (R-n: docs/rules/looper.md, P-n: docs/looper.md), and its result.

Every event dict has ``event``, ``rule``, ``group`` (``setup``, ``loop 1 · day 2``,
``end``) and ``text``, and its own fields by name (character and place ids, not indices).
The player's decision of a day (``decide``) carries its strategy's reason when it states
one (``reason``: items such as ``{"why": "at_risk", "character", "score"}``; ``reason_text``:
the same in a line). Each day ends with a ``board`` event: every character's place and
stress, and who died; the stress events it sums up are marked ``detail`` (text output
shows them with ``--verbose``; JSON always has them).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from sim.core.reasons import CAP, REASON, attach, reason_item
from sim.looper.enums import EVENT_NAMES, WHY, F, Ev, LoopEnd, MoveStatus, Why

# the rule that makes a death, by the kind of the effect that caused it
DEATH_RULE = {
    "die_if_with": "R-7", "die_if_stressed": "R-7", "die_at": "R-7", "kill_stressed_others": "R-7",
    "pair_kill": "R-13", "choose_kill_if_stressed": "R-10", "bully": "P-8", "lone_pair_kill": "R-14",
    "kill_giver_if_stressed": "P-2", "grant_kill_if_stressed": "P-3", "kill_attr": "P-12",
    "kill_all_on_death": "P-12",
}
CHOICE_RULE = {"kill_giver_if_stressed": "P-2", "grant_kill_if_stressed": "P-3"}
_MOVE = {MoveStatus.DONE: "done", MoveStatus.OVERRIDDEN: "overridden", MoveStatus.DEAD: "dead",
         MoveStatus.REPEATED: "repeated"}
_END = {LoopEnd.PROTAGONIST: "protagonist died", LoopEnd.KEY: "key person died",
        LoopEnd.BOTH: "protagonist and key person died", LoopEnd.SURVIVED: "survived",
        LoopEnd.WRONG_NAME: "wrong name"}


def _mask(roster, m: int) -> list[str]:
    m = int(m) & ((1 << 64) - 1)
    return [roster.ids[i] for i in range(roster.n_chars) if (m >> i) & 1]


def decode(rows: np.ndarray, roster, *, text: bool = True) -> list[dict]:
    """The events of one game (``text=False``: without the text, for ``--find``)."""
    ids, locs = roster.ids, roster.loc_ids
    must_name = bool(roster.rules.get("must_name_key_person", False))
    out: list[dict] = []
    group = "setup"
    loop = day = 0
    key = None
    sources: dict[int, list[dict]] = {}

    def kind(e: int) -> str:
        return roster.effect_kind(int(e))

    def owner(e: int) -> str:
        return roster.effect_owner(int(e))

    def describe(item: dict) -> tuple[dict, str]:
        k, p, q, x = item["kind"], item["a"], item["b"], item["score"]
        name = WHY[k] if 0 <= k < len(WHY) else f"kind {k}"
        who = ids[p] if 0 <= p < len(ids) else None
        if k == Why.AT_RISK:
            return {"why": name, "character": who, "score": x}, f"{who} at risk ({x:.0%})"
        if k == Why.CANDIDATE:
            return {"why": name, "character": who, "score": x}, f"key person {who}? ({x:.0%})"
        if k == Why.PREVENTS:
            return {"why": name, "character": who, "move": q + 1}, f"move {q + 1} saves {who}"
        if k == Why.LOSS:
            when = "before the moves" if p < 0 else f"after move {p + 1}"
            return {"why": name, "move": p + 1, "score": x}, f"expected loss {x:.2f} {when}"
        if k == Why.FREE:
            return {"why": name, "character": who, "move": q + 1}, \
                f"move {q + 1}: {who} away from where it died"
        if k == Why.ROLLOUT:
            what = {0: "the greedy set", 1: "no move"}.get(p, f"change {p - 1} of the greedy set")
            return {"why": name, "set": what, "chosen": bool(q), "score": x}, \
                f"{'chose ' if q else ''}{what}: rollout value {x:.2f}"
        if k == Why.RANDOM:
            return {"why": name, "score": x}, f"at random among {x:.0f}"
        if k == Why.AIMS:
            return {"why": name, "character": who, "score": x}, \
                f"aims at {who}" + (f" (with chance {x:.2f})" if x < 1 else "")
        if k == Why.TOLD:
            return {"why": name, "character": who}, f"told the key person: {who} (oracle)"
        if k == Why.POOL:
            return {"why": name, "row": p, "score": x}, f"setup {p + 1} of a pool of {x:.0f}"
        if k == Why.SCRIPT:
            return {"why": name}, "the written script ([setup], P-19)"
        if k == Why.FIRST:
            return {"why": name, "character": who}, f"the first candidate in roster order: {who}"
        return {"why": name, "a": p, "b": q, "score": x}, f"{name} {p} {q} {x:g}"

    board: dict | None = None
    for row in rows.tolist():
        code, a, b, c, d, e, f, g = row
        if code == REASON:
            attach(out, reason_item(row), describe)
            continue
        if code == Ev.BOARD:
            if board is None or board is not out[-1]:
                board = {"event": "board", "rule": "R-7", "group": group, "places": {}, "stress": {}, "died": []}
                out.append(board)
            if d:  # alive this day
                board["places"].setdefault(locs[b], []).append(ids[a])
                board["stress"][ids[a]] = c
                if e:
                    board["died"].append(ids[a])
            if text:  # one line a place: who stands there, with stress above 0 and † for a death
                board["text"] = "board" + "".join(
                    f"\n    {place}: " + ", ".join(ch + (f" {board['stress'][ch]}" if board["stress"][ch] else "")
                                                + ("†" if ch in board["died"] else "") for ch in chars)
                    for place, chars in board["places"].items())
            continue
        ev: dict[str, Any] = {"event": EVENT_NAMES.get(code, f"code_{code}"), "rule": "", "group": group}
        t = ""
        if code == Ev.SETUP_KEY:
            key = ids[a]
            ev.update(rule="P-13" if c else "R-3", key=key, pick=ids[b] if 0 <= b < len(ids) else b, pinned=bool(c))
            t = f"key person: {key}" + (f" (pinned; the strategy picked {ids[b]})" if c else "")
        elif code == Ev.SETUP_PERM:
            ev.update(rule="R-3", move=a + 1, character=ids[b], location=locs[c])
            t = f"permanent move {a + 1}: {ids[b]} → {locs[c]}"
        elif code == Ev.SETUP_GUEST:
            ev.update(rule="R-3", guest=a + 1, day=b, character=ids[c], location=locs[d])
            t = f"guest move of day {b}: {ids[c]} → {locs[d]}"
        elif code == Ev.LOOP_START:
            loop = a + 1
            group = f"loop {loop}"
            ev.update(rule="R-1", group=group, loop=loop)
            t = f"loop {loop} begins"
        elif code == Ev.DAY_START:
            loop, day = a + 1, b
            group = f"loop {loop} · day {day}"
            sources = {}
            ev.update(rule="R-1", group=group, loop=loop, day=day)
            t = f"day {day} of loop {loop}"
        elif code == Ev.MOVE:
            status = _MOVE[c]
            ev.update(rule="R-6" if c == MoveStatus.OVERRIDDEN else ("P-7" if c != MoveStatus.DONE else "R-6"),
                      character=ids[a], location=locs[b], status=status, failed=c != MoveStatus.DONE)
            t = f"player moves {ids[a]} → {locs[b]}" + ("" if c == MoveStatus.DONE else {
                MoveStatus.OVERRIDDEN: " — FAILED: the scriptwriter moved it (the player is not told)",
                MoveStatus.DEAD: " — FAILED: it is dead", MoveStatus.REPEATED: " — FAILED: already moved today"}[c])
        elif code == Ev.GUEST:
            ev.update(rule="R-6", character=ids[a], location=locs[b], applied=bool(c))
            t = f"guest move: {ids[a]} → {locs[b]}" + ("" if c else " (dead: nothing happens)")
        elif code == Ev.NEGATED:
            who = _mask(roster, a)
            ev.update(rule="R-12", characters=who)
            t = "negated for the day: " + ", ".join(who)
        elif code == Ev.STRESS_SRC:
            sources.setdefault(a, []).append({"from": ids[b], "amount": d, "kind": kind(c)})
            continue  # folded into the character's stress event
        elif code == Ev.STRESS:
            src = sources.pop(a, [])
            ev.update(rule="R-7", character=ids[a], stress=b, raw=c, sources=src, detail=True)
            parts = ", ".join(f"{s['amount']:+d} {s['from']}" for s in src)
            t = f"stress {ids[a]}: {b} ({parts}" + (", clamped at 0)" if c < 0 else ")")
        elif code == Ev.WALK:
            ev.update(rule="R-7", character=ids[a], **{"from": locs[b]}, to=locs[c])
            t = f"{ids[a]} walks {locs[b]} → {locs[c]} (stress ≥ {int(roster.nb.effects[d, F.THRESHOLD])})"
        elif code == Ev.PROTECTED:
            who = _mask(roster, a)
            ev.update(rule="P-12", characters=who)
            t = "cannot die today: " + ", ".join(who)
        elif code == Ev.CHOICE:
            cands = _mask(roster, c)
            ev.update(rule=CHOICE_RULE.get(kind(b), "R-10"), actor=ids[a], by=owner(b), kind=kind(b),
                      candidates=cands, victim=ids[d])
            t = f"scriptwriter picks {ids[d]} for {ids[a]}'s {kind(b)}" + \
                (f" (granted by {owner(b)})" if owner(b) != ids[a] else "") + f" among {', '.join(cands)}"
        elif code == Ev.DEATH:
            k = kind(b)
            ev.update(rule=DEATH_RULE.get(k, "R-7"), character=ids[a], actor=ids[c], kind=k, place=locs[d],
                      killer=ids[e] if e >= 0 else ids[c])
            if e >= 0 and e != c:  # a granted kill (P-3): the agitated character acts, the rule is the agitator's
                t = f"{ids[a]} dies in {locs[d]} — killed by {ids[e]} ({ids[c]}'s {k})"
            else:
                t = f"{ids[a]} dies in {locs[d]} — {ids[c]}'s {k}"
        elif code == Ev.ANNOUNCE:
            ev.update(rule="R-11", character=ids[a], announced=locs[b], place=locs[c], shifted=b != c)
            t = f"announced: {ids[a]} died in {locs[b]}" + (f" (truly in {locs[c]}: Turf King)" if b != c else "")
        elif code == Ev.NAME:
            ev.update(rule="R-2", loop=a + 1, named=ids[b] if 0 <= b < len(ids) else str(b), right=bool(c))
            t = f"player names {ev['named']} as the key person: {'right' if c else 'wrong'}"
        elif code == Ev.LOOP_END:
            why = _END[c]
            rule = "P-9" if c == LoopEnd.WRONG_NAME else ("R-2" if c == LoopEnd.SURVIVED and must_name else "R-1")
            ev.update(rule=rule, loop=a + 1, day=b, why=why)
            t = f"loop {a + 1} ends on day {b}: {why}"
        elif code == Ev.DECIDE:
            ev.update(rule="R-6", loop=a + 1, day=b, moves=c)
            t = f"player decides: {c} move{'s' if c != 1 else ''}"
        elif code == Ev.GAME_END:
            group = "end"
            ev.update(rule="R-1", group=group, winner="player" if a else "scriptwriter",
                      won_loop=b + 1 if a else None, loops=c)
            t = (f"the player wins in loop {b + 1}" if a else "the scriptwriter wins: every loop failed") + \
                f" (key person {key})"
        if text:
            ev["text"] = t
        out.append(ev)
    for ev in out:  # the why: line, items of a kind said together (JSON keeps every item)
        if ev.get("reason") and text:
            ev["reason_text"] = reason_line(ev["reason"])
    return out


def reason_line(items: list[dict]) -> str:
    """A player's reason in one line: the risks it saw, its key-person candidates (their
    count when there are more than three), what each move saves, the expected loss from
    before the moves to after each, and the planner's rollouts."""
    by: dict[str, list[dict]] = {}
    for it in items:
        by.setdefault(it["why"], []).append(it)
    parts = []

    def share(it):
        return f" ({it['score']:.0%})" if it.get("score", 1.0) < 1.0 else ""

    if "at_risk" in by:
        parts.append("at risk: " + ", ".join(it["character"] + share(it) for it in by["at_risk"]))
    if "candidate" in by:
        c = by["candidate"]
        if len(c) > 3:
            same = len({round(it["score"], 9) for it in c}) == 1
            parts.append(f"{len(c)} key-person candidates" + (f" ({c[0]['score']:.0%} each)" if same else ""))
        else:
            parts.append("key person: " + ", ".join(it["character"] + share(it) for it in c))
    moves: dict[int, list[str]] = {}
    for it in by.get("prevents", []):
        moves.setdefault(it["move"], []).append(it["character"])
    parts += [f"move {m} saves {', '.join(who)}" for m, who in moves.items()]
    parts += [f"move {it['move']}: {it['character']} away from where it died" for it in by.get("free", [])]
    if "loss" in by:
        parts.append("expected loss " + " → ".join(f"{it['score']:.2f}" for it in by["loss"]))
    for it in by.get("rollout", []):
        parts.append(f"{'chose ' if it['chosen'] else ''}{it['set']}: rollout value {it['score']:.2f}")
    known = {"at_risk", "candidate", "prevents", "free", "loss", "rollout", "dropped"}
    parts += [f"{it['why']} {it.get('a', '')} {it.get('b', '')} {it.get('score', '')}".strip()
              for it in items if it["why"] not in known]
    if "dropped" in by:
        parts.append(f"… (more than {CAP} items)")
    return "; ".join(parts)


def result_of(totals: Mapping[str, np.ndarray], roster, named: Sequence[str] = ()) -> dict:
    """The result of a one-game count set: the keys ``sim looper trace --find`` tests."""
    from sim.looper.game_nb import C_DAYS, C_GAMES, C_KEY_DEATHS, C_LOOPS, C_PROT_DEATHS, C_WINS, C_WRONG_NAME

    sc = totals["scalars"]
    if int(sc[C_GAMES]) != 1:
        raise ValueError(f"result_of: one game's counts expected, got {int(sc[C_GAMES])}")
    won = bool(sc[C_WINS])
    died = []
    per_char = np.asarray(totals["deaths"]).sum(axis=1)
    for c in range(roster.n_chars):
        died += [roster.ids[c]] * int(per_char[c])
    return {
        "winner": "player" if won else "scriptwriter",
        "loops": int(sc[C_LOOPS]),
        "days": int(sc[C_DAYS]),
        "won_loop": int(np.argmax(totals["wins_by_loop"])) + 1 if won else 0,
        "key": roster.ids[int(np.argmax(totals["key_games"]))],
        "died": died,
        "named": list(named),
        "key_deaths": int(sc[C_KEY_DEATHS]),
        "protagonist_deaths": int(sc[C_PROT_DEATHS]),
        "wrong_names": int(sc[C_WRONG_NAME]),
    }


__all__ = ["decode", "result_of", "DEATH_RULE"]
