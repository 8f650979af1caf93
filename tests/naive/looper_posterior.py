"""The exact posterior of the Looper's reasoning players, enumerated in plain Python (issue 43):
the oracle of ``bayes``'s particle filter (strategies/looper/bayes.py), written from its
model as docs/looper.md states it, not from its code.

**The prior** is over setup rows ``[key, c1, l1, …, guest1_char, guest1_loc, …]``: the key
person uniform over the table characters; every permanent-move and guest-move slot
independently unused with probability 1/n (n characters, the protagonist counted) or a
given table character at a given place with probability 1/(n·L); then restricted to the rows
the rules allow (distinct permanently moved characters; P-15 without a move to its own
place; P-16 without a move of the key person, guest moves included).

**The likelihood** of a row is 1 when it explains the whole history, else 0: every day
played, the naive reference's day (tests/naive/looper.py ``day_start`` / ``day_finish``)
on the morning layout the row gives — the table, the permanent moves, the player's recorded
moves of living characters the scriptwriter does not hold (R-6, P-17), the day's guest move
unless the player placed its character and wins it — produces exactly the announced deaths at
the announced places for *some* choice of the victims of the day's "one character dies"
requests; a loop ended on the day the key person or the protagonist died (and only then); a
loop the player survived and named wrongly did not have the named character as key person.

Every row is enumerated, so this is only for tiny rosters (a few characters and places).
"""
from __future__ import annotations

import itertools
from collections import defaultdict

from tests.naive.looper import PROTAGONIST, day_finish, day_start, location_ids, roster_ids


class ExactPosterior:
    """Enumeration over every setup row of one configuration tree (``roster.config``)."""

    def __init__(self, cfg):
        self.cfg = cfg
        self.ids = roster_ids(cfg)
        self.locs = location_ids(cfg)
        r = cfg["rules"]
        self.days = r["days_per_loop"]
        self.nperm = r["permanent_moves"]
        self.guest_days = list(r.get("guest_move_days", []))
        self.stay = bool(r.get("stay_moves", True))
        self.key_movable = bool(r.get("key_person_movable", True))
        self.precedence = r.get("precedence", "scriptwriter")
        self.prot_attrs = set(cfg["protagonist"].get("attributes", []))
        self.home = {PROTAGONIST: cfg["protagonist"]["location"]}
        self.home.update({c: ch["location"] for c, ch in cfg["characters"].items()})
        self.rows = self._rows()
        self._days = {}  # (layout, announced) -> whether some victim choice gives it

    # ------------------------------------------------------------------ the prior
    def _rows(self):
        n, L = len(self.ids), len(self.locs)
        slot = [((-1, 0), 1.0 / n)] + [((c, l), 1.0 / (n * L)) for c in range(1, n) for l in range(L)]
        rows = []
        for key in range(1, n):
            for slots in itertools.product(slot, repeat=self.nperm + len(self.guest_days)):
                row = [key]
                w = 1.0 / (n - 1)
                for (c, l), p in slots:
                    row += [c, l]
                    w *= p
                if self.allowed(row):
                    rows.append((tuple(row), w))
        return rows

    def allowed(self, row) -> bool:
        key = row[0]
        perm = [(row[1 + 2 * j], row[2 + 2 * j]) for j in range(self.nperm)]
        chars = [c for c, _ in perm if c >= 0]
        if len(set(chars)) != len(chars):
            return False
        if not self.stay and any(c >= 0 and self.locs[l] == self.home[self.ids[c]] for c, l in perm):
            return False
        if not self.key_movable:
            g0 = 1 + 2 * self.nperm
            guests = [row[g0 + 2 * k] for k in range(len(self.guest_days))]
            if key in chars or key in guests:
                return False
        return True

    # ------------------------------------------------------------------ the likelihood
    def _day_fits(self, layout, announced) -> bool:
        memo = (tuple(sorted(layout.items())), tuple(sorted(announced.items())))
        if memo not in self._days:
            st = day_start(self.cfg, layout, self.prot_attrs)
            fits = False
            for victims in itertools.product(*[cands for _, cands, _ in st.requests]):
                if day_finish(st, list(victims))[0] == announced:
                    fits = True
                    break
            self._days[memo] = fits
        return self._days[memo]

    def consistent(self, row, hist) -> bool:
        """Whether setup ``row`` explains history ``hist`` (:func:`history`)."""
        ids, locs = self.ids, self.locs
        key = ids[row[0]]
        perm = {ids[row[1 + 2 * j]]: locs[row[2 + 2 * j]] for j in range(self.nperm) if row[1 + 2 * j] >= 0}
        g0 = 1 + 2 * self.nperm
        guest = {d: (ids[row[g0 + 2 * k]], locs[row[g0 + 2 * k + 1]])
                 for k, d in enumerate(self.guest_days) if row[g0 + 2 * k] >= 0}

        def player_wins(c):
            return self.precedence == "player" or (self.precedence == "player_for_key_person" and c == key)

        for loop in hist:
            alive = list(ids)
            for d, (moves, announced) in enumerate(loop["days"], start=1):
                pos = {**self.home, **perm}
                held = set(perm) | ({guest[d][0]} if d in guest else set())
                held = {c for c in held if not player_wins(c)}
                placed = set()
                for c, l in moves:
                    if ids[c] in alive and ids[c] not in held:
                        pos[ids[c]] = locs[l]
                        placed.add(ids[c])
                if d in guest and not (guest[d][0] in placed and player_wins(guest[d][0])):
                    pos[guest[d][0]] = guest[d][1]
                if not self._day_fits({c: pos[c] for c in alive}, announced):
                    return False
                ended = key in announced or PROTAGONIST in announced
                if ended != (d == loop["end"]):
                    return False
                alive = [c for c in alive if c not in announced]
            if loop["named"] is not None and loop["named"] == key:
                return False  # a wrong name: the game went on, so it was not the key person
        return True

    def posterior(self, hist):
        """{row: probability} over the rows consistent with ``hist``."""
        fit = [(row, w) for row, w in self.rows if self.consistent(row, hist)]
        total = sum(w for _, w in fit)
        return {row: w / total for row, w in fit}

    def key_marginal(self, hist):
        out = defaultdict(float)
        for row, p in self.posterior(hist).items():
            out[row[0]] += p
        return dict(out)


def history(view, ids, locs, through_today=False):
    """The announced history a player's view holds, as plain data: per loop played, its days
    (the moves the player's view records, the announced deaths {id: place}), the day it
    ended on (0: it has not ended) and the wrongly named character (None if none).
    ``through_today``: today is over too (the naming after a loop's last day)."""
    days = view.ann.shape[1]
    out = []
    for lp in range(int(view.loop) + 1):
        if lp < view.loop:
            end = int(view.loop_end[lp])
            played = end if 1 <= end <= days else days
        else:
            end, played = 0, int(view.day) - (0 if through_today else 1)
        loop = {"days": [], "end": end if 1 <= end <= days else 0,
                "named": ids[int(view.named[lp])] if lp < view.loop and end == days + 1 and view.named[lp] >= 0
                else None}
        for d in range(played):
            moves = [(int(c), int(l)) for c, l in view.moves[lp, d] if c >= 0]
            announced = {ids[c]: locs[int(view.ann[lp, d, c])] for c in range(len(ids)) if view.ann[lp, d, c] >= 0}
            loop["days"].append((moves, announced))
        out.append(loop)
    return out
