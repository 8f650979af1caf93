"""One TRPG combat as events: ``sim trpg trace`` (the batch kernel with an event log).

:func:`trace` plays combat ``game`` of the run with ``seed`` through
:func:`sim.trpg.game_nb.trace_kernel` — the batch kernel's own code, compiled with a log
instead of None — and :func:`decode` turns the log's rows (codes :data:`sim.trpg.enums.EV`)
into dicts ``{"event", "rule", "group", "text", …fields}``; ``rule`` names the rule of
docs/rules/trpg.md (R-n) or the ruling of docs/trpg.md (T-n) that caused the event. The
result is computed from the kernel's count arrays, so it is what a one-game run reports.
A decision (``target``, ``reaction``) carries its strategy's reason when it states one:
``reason`` (items such as ``{"why": "value", "character", "score"}``) and ``reason_text`` (a line).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from sim.core.reasons import REASON, attach, reason_item
from sim.core.seeding import run_key
from sim.core.trace import Trace, log_rows, new_log
from sim.trpg.enums import CK, DS, EV, IE, MO, OUT, REACTIONS as REACTION_RULES, TARGETS, WHY, Why
from sim.trpg.sheets import Setup

#: the keys of a trace's result that ``--find`` can test
FIND_KEYS = ("winner", "rounds", "timeout", "lost", "fell", "standing", "oracle")

OUTCOMES = ("fail", "success", "critical", "fumble")
CHECKS = {CK.ATTACK: ("attack", "R-1"), CK.DODGE: ("dodge", "R-1"), CK.COVER: ("cover", "T-2"),
          CK.MOVE: ("move", "T-3"), CK.LIFE: ("life check", "T-4")}
REACTIONS = ("no reaction", "dodge", "guard")
STEPS = {DS.ROLL: ("damage roll", "R-10"), DS.BONUS: ("damage bonus ability", "R-10"),
         DS.CRIT: ("critical: doubled", "R-2"), DS.KAII: ("kaii: a physical attack does nothing", "R-10"),
         DS.ARMOUR_PCT: ("armour %", "R-10"), DS.ARMOUR_FIXED: ("armour fixed", "R-10"),
         DS.GUARD_DIGIT: ("guard: last digit to 0", "R-9"), DS.GUARD_WEAPON: ("guard: melee weapon roll", "R-9"),
         DS.ITEM: ("item reduction", "R-10"), DS.REDUCTION_PCT: ("reduction ability %", "R-10"),
         DS.REDUCTION_FIXED: ("reduction ability", "R-10")}
BANDS = ("zero", "near", "mid", "far")
VALUE_OF = {"weakest": "HP (band)", "nearest": "distance", "dangerous": "expected damage",
            "oracle_focus": "exact HP (the judge's)"}  # a target rule's value


def decode(rows: np.ndarray, setup: Setup) -> list[dict]:
    """The events of a log's rows (see the module docstring)."""
    ids = setup.ids
    wid = setup.weapon_ids
    sym = [s.get("name", f"row {k}") for k, s in enumerate(setup.config.get("symptoms", []))]
    out: list[dict] = []
    rnd = 0

    def add(event: str, rule: str, text: str, **fields: Any) -> None:
        out.append({"event": event, "rule": rule, "group": f"round {rnd}", "text": text, **fields})

    rule = ""  # the target rule of the reason being read: it names the values that follow

    def describe(item: dict) -> tuple[dict, str]:
        nonlocal rule
        k, p, q, x = item["kind"], item["a"], item["b"], item["score"]
        name = WHY[k] if 0 <= k < len(WHY) else f"kind {k}"
        if k == Why.RULE:
            rules = TARGETS if p == 0 else REACTION_RULES
            rule = rules[q] if 0 <= q < len(rules) else f"plug-in {q}"
            return {"why": name, "rule": rule}, f"rule {rule}"
        if k == Why.VALUE:
            what = VALUE_OF.get(rule, "value")
            return {"why": name, "character": ids[p], "score": x, "value": what}, f"{ids[p]} {what} {x:.3g}"
        if k == Why.RANDOM:
            return {"why": name, "score": x}, f"at random among {x:.0f}"
        if k == Why.EXPECTED:
            opt = REACTIONS[p] if 0 <= p < 3 else str(p)
            return {"why": name, "option": opt, "score": x}, f"{opt}: {x:.2f} HP expected"
        if k == Why.DODGE_CHANCE:
            return {"why": "dodge_threshold" if q else name, "score": x}, \
                f"{'needs' if q else 'dodge chance'} {x:.0%}"
        return {"why": name, "a": p, "b": q, "score": x}, f"{name} {p} {q} {x:g}"

    for r in rows.tolist():
        c, a, b, cc, d, e, f, g = r
        if c == REASON:
            attach(out, reason_item(r), describe)
            continue
        if c == EV.ROUND:
            rnd = a
            add("round", "R-4", f"round {a} begins", round=a)
        elif c == EV.ATTACK:
            how = " (controlled by its kaii: the nearest character)" if e else ""
            add("attack", "R-12" if e else "T-3", f"{ids[a]} attacks {ids[b]} with {wid[cc]} at {BANDS[d]}{how}",
                actor=ids[a], target=ids[b], weapon=wid[cc], band=BANDS[d], controlled=bool(e))
        elif c == EV.CHECK:
            what, rule = CHECKS[b]
            oc = OUTCOMES[f]
            if cc == 0:
                text = f"{ids[a]} {what} check: a monologue critical (no roll)"
                rule = "T-5"
            else:
                text = f"{ids[a]} {what} check: rolled {cc} + penalty {e} against {d}: {oc}"
                if f in (OUT.CRITICAL, OUT.FUMBLE):
                    text += f" (natural {cc})"
            add("check", rule, text, actor=ids[a], check=what, roll=cc, target=d, penalty=e, outcome=oc,
                critical=f == OUT.CRITICAL, fumble=f == OUT.FUMBLE)
        elif c == EV.MOVE:
            add("move", "T-6", f"{ids[a]} steps {'away from' if cc else 'toward'} {ids[b]}",
                actor=ids[a], target=ids[b], away=bool(cc))
        elif c == EV.RELOAD:
            add("reload", "T-3", f"{ids[a]} reloads {wid[b]} ({'main' if cc else 'sub'} action)",
                actor=ids[a], weapon=wid[b], main=bool(cc))
        elif c == EV.SWAP:
            add("swap", "T-3", f"{ids[a]} swaps to {wid[b]} (sub action)", actor=ids[a], weapon=wid[b])
        elif c == EV.HEAL:
            add("heal", "T-13", f"{ids[a]} heals {ids[b]} by {cc}: HP {d}", actor=ids[a], target=ids[b],
                amount=cc, hp=d, ability=e)
        elif c == EV.STAND:
            add("stand", "T-4", f"{ids[a]} stands up (HP >= 1)", actor=ids[a])
        elif c == EV.SKIP:
            add("skip", "R-3", f"{ids[a]} loses this turn (an earlier fumble)", actor=ids[a])
        elif c == EV.LOSE_TURN:
            add("fumble", "R-3", f"{ids[a]} fumbled: loses its next turn", actor=ids[a])
        elif c == EV.FUMBLE_ALLY:
            text = f"{ids[a]} fumbled: the attack hits {ids[b]}" if b >= 0 else f"{ids[a]} fumbled: no ally in reach"
            add("fumble", "R-3", text, actor=ids[a], ally=ids[b] if b >= 0 else None)
        elif c == EV.TARGET:
            add("target", "T-3", f"{ids[a]} picks {ids[b]} as its target", actor=ids[a], target=ids[b])
        elif c == EV.COVER:
            add("cover", "T-2", f"{ids[a]} covers {ids[b]} and takes the attack", actor=ids[a], target=ids[b])
        elif c == EV.REACTION:
            add("reaction", "R-5", f"{ids[a]} reacts to {ids[b]}: {REACTIONS[cc]}"
                + (" (a coverer may not dodge)" if d else ""), actor=ids[a], attacker=ids[b],
                reaction=REACTIONS[cc], covered=bool(d))
        elif c == EV.GUARD:
            kind = ("nothing to guard with", "last digit to 0", "a melee weapon's roll")[b]
            part = f" with the {('left', 'right')[cc]} arm" if cc >= 0 else ""
            add("guard", "R-9", f"{ids[a]} guards: {kind}{part}", actor=ids[a], guard=kind,
                arm=("left_arm", "right_arm")[cc] if cc >= 0 else None)
        elif c == EV.DODGED:
            add("dodged", "R-1", f"{ids[a]} dodges: no damage", actor=ids[a], attacker=ids[b])
        elif c == EV.DMG:
            if b in (DS.ARMOUR_PCT, DS.ARMOUR_FIXED, DS.ITEM) and e == 0:
                continue  # a reduction the defender does not have (the kernel logs every step)
            what, rule = STEPS[b]
            if b == DS.ROLL:
                text = f"damage to {ids[a]}: {wid[e]} rolls {cc}"
            elif b == DS.BONUS:
                text = f"damage to {ids[a]}: {what} +{d}: {cc}"
            elif b == DS.CRIT:
                text = f"damage to {ids[a]}: {what}: {cc}"
            elif b == DS.KAII:
                text = f"damage to {ids[a]}: {what} ({d} ignored)"
            elif b == DS.GUARD_WEAPON:
                text = f"damage to {ids[a]}: {what} {e}: -{d} → {cc}"
            else:
                text = f"damage to {ids[a]}: {what} -{d} → {cc}"
            add("damage", rule, text, target=ids[a], step=what, damage=cc, change=d)
        elif c == EV.HIT:
            add("hit", "R-10", f"{ids[a]} deals {cc} to {ids[b]}: HP {d}", actor=ids[a], target=ids[b],
                damage=cc, hp=d)
        elif c == EV.FALL:
            add("fall", "T-4", f"{ids[a]} falls (HP {b})", actor=ids[a], hp=b)
        elif c == EV.LIFE:
            add("life", "T-4", f"{ids[a]} is fallen: a life check spending {b} MP", actor=ids[a], mp_spent=b)
        elif c == EV.LOST:
            add("lost", "T-4", f"{ids[a]} fails the life check: lost", actor=ids[a])
        elif c == EV.MP:
            add("mp", "R-11", f"{ids[a]} loses {b} MP: MP {cc}", actor=ids[a], amount=b, mp=cc)
        elif c == EV.SYMPTOM:
            name = sym[cc] if 0 <= cc < len(sym) else "none"
            text = f"{ids[a]} MP <= 0: symptom roll {b}: {name} (penalty {d})"
            if e:
                text += f"; {b} <= SP/5 = {f}: the kaii takes control"
            add("symptom", "R-11", text, actor=ids[a], roll=b, symptom=name, penalty=d, control=bool(e))
            if e:
                add("control", "R-12", f"{ids[a]} is controlled by its kaii until MP >= 1", actor=ids[a])
        elif c == EV.MONOLOGUE:
            when = {MO.FALLEN: "fallen", MO.LOW_MP: "low MP"}.get(b, str(b))
            add("monologue", "T-5", f"{ids[a]} monologues ({when}): MP back to {cc}, 3 criticals for 3 rounds",
                actor=ids[a], when=when, mp=cc)
        elif c == EV.ITEM:
            slots = (setup.item_slots or [[]] * len(ids))[a]
            name = slots[b] if b < len(slots) else f"item slot {b}"
            what = "HP" if cc == IE.HEAL_HP else "MP"
            add("item", "R-19", f"{ids[a]} uses {name} ({'main' if f else 'sub'} action): +{d} {what}: {what} {e}",
                actor=ids[a], item=name, amount=d, value=e, main=bool(f))
        elif c == EV.END:
            win = setup.sides[a] if a >= 0 else "draw"
            add("end", "R-13" if cc else "R-4", f"the combat ends after {b} rounds: "
                + ("a draw (max_rounds)" if cc else (f"{win} wins" if a >= 0 else "a draw")),
                winner=win, rounds=b, timeout=bool(cc))
        else:  # pragma: no cover - a code the decoder does not know
            add(f"code {c}", "", f"event {r}")
    return out


def result_of(out, setup: Setup) -> dict:
    """The result of a one-game count (sim.trpg.game_nb.Counts): what ``--find`` tests."""
    from sim.trpg.game_nb import C_ROUNDS
    from sim.trpg.game import scenario_oracles

    wins = [int(x) for x in out.wins]
    ids = setup.ids
    max_rounds = len(out.rounds_hist) - 2
    return {
        "winner": setup.sides[wins.index(1)] if 1 in wins else "draw",
        "rounds": int(out.scalars[C_ROUNDS]),
        "timeout": bool(out.rounds_hist[max_rounds + 1]),
        "lost": [ids[i] for i in range(len(ids)) if out.lost[i]],
        "fell": [ids[i] for i in range(len(ids)) if out.fell[i]],
        "standing": [ids[i] for i in range(len(ids)) if out.survived[i]],
        "dealt": {ids[i]: int(out.dealt[i]) for i in range(len(ids))},
        "taken": {ids[i]: int(out.taken[i]) for i in range(len(ids))},
        "oracle": bool(scenario_oracles(setup)),
    }


def trace(setup: Setup, seed: int, game: int, *, spawn: tuple[int, ...] = (), events: bool = True) -> Trace:
    """Combat ``game`` of the run with ``seed``, played by the batch kernel with a log."""
    from sim.trpg.game import kernel_of, scenario_oracles
    from sim.trpg.game_nb import new_counts

    key = run_key(seed, *spawn)
    out = new_counts(setup.nb)
    if events:
        log = new_log()
        kernel_of(setup, trace=True)(key, game, 1, setup.nb, out, log)
        rows, cut = log_rows(log)
        evs = decode(rows, setup)
    else:  # --find: the result only, from the batch kernel itself
        kernel_of(setup)(key, game, 1, setup.nb, out)
        evs, cut = [], False
    o = scenario_oracles(setup)
    if o and events:
        note = "; ".join(f"{c}: {n}" for c, n in o.items())
        evs.insert(0, {"event": "oracle", "rule": "", "group": "setup",
                       "text": f"ORACLE: {note} reads hidden information", "oracles": o})
    return Trace(game=game, events=evs, result=result_of(out, setup), cut=cut)
