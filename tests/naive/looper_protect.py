"""The protecting move of the Looper's ``cautious``, ``deducer`` and ``oracle_key`` players,
re-stated in plain Python for the naive reference (issue 43), so that the differential tests
compare the engine's protection (strategies/looper/common.py) with an independent one.

Written from what docs/looper.md (the knob table) and the strategy's documentation say it
does, with sets of character indices and dicts of places. The rules come from the
configuration tree (``roster.config``: places, the cycle, the table, Turf King's rule, the
guest days, the daily moves), never from the compiled arrays of the view, and every what-if
day is resolved by the naive reference's own day (tests/naive/looper.py ``day_start``), not
by the engine's day kernel. Random draws: ``randint_nb`` on the player's stream, in the
order described below, so the streams line up with the engine draw by draw.

**Belief.** The player believes in the table, corrected by what the deaths announced so far
showed. Every day already played, loop by loop and day by day, every table character
announced dead that day, in roster order, at its announced place ``a``:

1. Turf King: if the character was believed to stand where a Turf King (a misreporting
   rule's owner, in effect-table order) is believed to stand, and ``a`` is the place after
   it, the death is taken to have happened there (his shift undone; nothing else of his
   rule — whether he was alive, negated or moved — is modelled).
2. On a guest-move day: if ``a`` is not the character's table place and the player did not
   move it that day, it is believed to be that day's guest move (the same every loop);
   otherwise the death teaches nothing.
3. On another day: if the player did not move the character, its believed place (every day,
   a permanent move) is ``a``; if the player moved it to a place ``m`` and it died at
   neither ``m`` nor the place after ``m``, the scriptwriter holds it (R-6): believed at
   ``a`` and *pinned* (the player will not try to move it).

Today's believed layout: the protagonist at its place, each table character at its believed
place (else its table place), and today's believed guest move, if any, applied.

**At risk.** A protected living character is at risk on a layout when the naive day on it
(the living at their places) kills it for certain, or — ``count_choices`` — it is a
candidate of a "one character dies" request (the day's ``fixed`` deaths and ``requests``).

**Moves.** Greedy. While fewer than ``min(moves a day, max_moves)`` moves are made and some
character at risk has not been tried since the last move: pick one (the protagonist if it is
among them and ``protagonist_first``; else a uniform one of them in index order, one
``randint_nb`` over their number), mark it tried; the movers are the living characters on
its believed place (itself included) not moved yet today, not pinned and not today's
believed guest; draw a starting place ``off`` (one ``randint_nb`` over the places, drawn even
when there is no mover); try each mover in index order, each to every other place in the
order ``off, off + 1, …`` (mod the number of places), and keep the first try that leaves
strictly the fewest protected characters at risk, if that is at least ``min_gain`` fewer
than now. A kept move is made on the believed layout, and every character at risk is worth
a new try.
"""
from __future__ import annotations

from sim.core.rng import randint_nb
from tests.naive.looper import day_start, effect_table, location_ids, roster_ids

# docs/looper.md's knob table: the protecting players' defaults (oracle_key plays at them)
DEFAULTS = {"max_moves": 64, "protagonist_first": True, "min_gain": 1, "count_choices": True}


class NaiveProtect:
    """The protecting move for one configuration tree (``roster.config``)."""

    def __init__(self, cfg):
        self.cfg = cfg
        self.ids = roster_ids(cfg)
        self.locs = location_ids(cfg)
        self.n, self.L = len(self.ids), len(self.locs)
        li = {l: i for i, l in enumerate(self.locs)}
        self.nxt = [li[cfg["locations"][l]["next"]] for l in self.locs]
        self.home = [li[cfg["protagonist"]["location"]]]
        self.home += [li[ch["location"]] for ch in cfg["characters"].values()]
        ci = {c: i for i, c in enumerate(self.ids)}
        self.turf_kings = [ci[o] for o, e in effect_table(cfg) if e["kind"] == "misreport_deaths"]
        rules = cfg["rules"]
        self.days = int(rules["days_per_loop"])
        self.per_day = int(rules["player_moves_per_day"])
        self.guest_k = {int(d): k for k, d in enumerate(rules.get("guest_move_days", []))}
        self.prot_attrs = set(cfg["protagonist"].get("attributes", []))
        self._days: dict = {}  # layout of the living -> (certain deaths, choice candidates)

    # ------------------------------------------------------------------ belief
    def belief(self, view):
        """(today's believed layout: index -> place, the pinned characters, today's
        believed guest or None), from the whole history (the engine digests it day by day:
        the same fold)."""
        place: dict[int, int] = {}   # believed permanent place
        guest: dict[int, tuple[int, int]] = {}  # guest move k -> (character, place)
        pinned: set[int] = set()
        loop, today = int(view.loop), int(view.day)
        for lp in range(loop + 1):
            for d in range(1, self.days + 1):
                if lp == loop and d >= today:
                    break
                k = self.guest_k.get(d)
                mine = {int(c): int(l) for c, l in view.moves[lp, d - 1] if c >= 0}
                for c in range(1, self.n):
                    a = int(view.ann[lp, d - 1, c])
                    if a < 0:
                        continue
                    here = place.get(c, self.home[c])
                    for tk in self.turf_kings:
                        m = place.get(tk, self.home[tk])
                        if here == m and self.nxt[m] == a:
                            a = m
                    if k is not None:
                        if a != self.home[c] and c not in mine:
                            guest[k] = (c, a)
                    elif c not in mine:
                        place[c] = a
                    elif a not in (mine[c], self.nxt[mine[c]]):
                        place[c] = a
                        pinned.add(c)
        layout = {c: place.get(c, self.home[c]) for c in range(self.n)}
        k = self.guest_k.get(today)
        if k is not None and k in guest:
            c, a = guest[k]
            layout[c] = a
        return layout, pinned, (guest[k][0] if k is not None and k in guest else None)

    # ------------------------------------------------------------------ what-if day
    def dangers(self, layout, alive):
        """(certain deaths, choice candidates) of the naive day on ``layout``."""
        key = tuple((c, layout[c]) for c in sorted(alive))
        got = self._days.get(key)
        if got is None:
            ci = {c: i for i, c in enumerate(self.ids)}
            d = day_start(self.cfg, {self.ids[c]: self.locs[l] for c, l in key}, self.prot_attrs)
            certain = frozenset(ci[v] for v in d.fixed)
            cands = frozenset(ci[v] for _, cs, _ in d.requests for v in cs)
            got = self._days[key] = (certain, cands)
        return got

    def at_risk(self, layout, alive, protect, choices):
        certain, cands = self.dangers(layout, alive)
        return (certain | cands if choices else certain) & protect & alive

    # ------------------------------------------------------------------ the move
    def move(self, rng, view, protect, out, knobs) -> int:
        alive = {c for c in range(self.n) if int(view.alive) >> c & 1}
        protect = set(protect)
        layout, pinned, guest = self.belief(view)
        choices = bool(knobs["count_choices"])
        min_gain = int(knobs["min_gain"])
        risk = self.at_risk(layout, alive, protect, choices)
        cap = min(self.per_day, int(knobs["max_moves"]))
        made: list[tuple[int, int]] = []
        moved: set[int] = set()
        tried: set[int] = set()
        while len(made) < cap and risk - tried:
            todo = sorted(risk - tried)
            if knobs["protagonist_first"] and 0 in todo:  # index 0: the protagonist
                c = 0
            else:
                c = todo[int(randint_nb(rng, len(todo)))]
            tried.add(c)
            movers = sorted(x for x in alive if layout[x] == layout[c]
                            and x not in moved and x not in pinned and x != guest)
            off = int(randint_nb(rng, self.L))
            best, best_n = None, len(risk) - min_gain + 1  # a kept move leaves fewer than best_n
            for x in movers:
                for s in range(self.L):
                    l = (off + s) % self.L
                    if l == layout[x]:
                        continue
                    nr = len(self.at_risk({**layout, x: l}, alive, protect, choices))
                    if nr < best_n:
                        best, best_n = (x, l), nr
            if best is not None:
                x, l = best
                layout[x] = l
                moved.add(x)
                made.append(best)
                risk = self.at_risk(layout, alive, protect, choices)
                tried = set()
        for j, (x, l) in enumerate(made):
            out[j, 0], out[j, 1] = x, l
        return len(made)


def knob_values(knobs, view) -> dict:
    """A protecting player's knob values by name from ``view.knobs`` (declared order);
    the documented defaults for one that declares none (oracle_key)."""
    names = [k.name for k in knobs]
    if not set(DEFAULTS) <= set(names):
        return dict(DEFAULTS)
    return {name: float(view.knobs[names.index(name)]) for name in DEFAULTS}
