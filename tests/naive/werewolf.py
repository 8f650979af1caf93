"""A slow, obvious reference implementation of Werewolf (for differential tests).

Written from the rules page (``docs/rules/werewolf.md``, R-1 … R-7) and the project
rulings (``docs/werewolf.md``, Q-1 … Q-9) only. Roles and variants are read from the
configuration *tree* (``setup.config``: ``[roles.*]`` keys and ``[variants]``), and the
game is played with plain Python sets and lists of participant indices — no bitmasks
and nothing of ``sim/werewolf/game_nb.py``'s game logic (only the ``View`` layout of
``sim/werewolf/views.py``, so that the same strategy functions can be called).

:func:`naive_game` replays one whole game ``g`` the way the numba kernel schedules it, so
that the random streams line up: the rules' stream ``seed_stream_nb(rng, key, g,
Stream.RULES)`` for the same Fisher–Yates deal and the same engine draws
(``choose_bit_nb`` on the set of candidates written as a mask) for fenrir's drag,
``random_lynch`` and plurality ties; each side's decisions from its own stream
(``Stream.VILLAGE`` / ``Stream.WOLVES``), the same strategy hooks on the same views in
the same order. Views are built here from the naive game's own record, read-only
(numpy arrays with ``writeable=False``) except the participant's own ``mem``.
"""
from __future__ import annotations

import numpy as np

from sim.core.rng import choose_bit_nb, randint_nb, seed_stream_nb
from sim.werewolf.enums import CLAIM_BASE, CLAIMS, EVENTS, HOW, KNOB_SLOTS, WINNERS, WITCH_BASE, Stream, V
from sim.werewolf.game_nb import (C_DAYS, C_DRAWS, C_GAMES, C_NOBODY_OUT, C_RUNOFFS, C_VILLAGE, C_WOLVES,
                                  MEM, N_SCALARS)
from sim.werewolf.roles import RolesNB
from sim.werewolf.views import View

WITCH_PASS, WITCH_ELIMINATE, WITCH_REVIVE = 0, 1, 2  # docs: action * 64 + target
ALIVE = "alive"


def _mask(ps) -> np.uint64:
    m = 0
    for p in ps:
        m |= 1 << p
    return np.uint64(m)


def _ro(a):
    """A read-only numpy view of ``a`` (as the engine's views are)."""
    v = np.asarray(a).view()
    v.flags.writeable = False
    return v


def _members(mask) -> set[int]:
    m = int(mask)
    return {i for i in range(64) if (m >> i) & 1}


def _deal(setup, key, g, rng) -> list[str]:
    """Seed game g's stream and deal the roles: a uniform shuffle of the composition
    (Fisher–Yates from the last seat down, as the engine draws it)."""
    seed_stream_nb(rng, key, g, Stream.RULES)
    seats = list(setup.seats)
    for i in range(len(seats) - 1, 0, -1):
        j = int(randint_nb(rng, i + 1))
        seats[i], seats[j] = seats[j], seats[i]
    return seats


def deal(setup, key, g: int) -> list[str]:
    """The role id of every participant in game ``g`` of the run with ``key``."""
    return _deal(setup, key, g, np.zeros(4, np.uint64))


class Role:
    """One role as the configuration describes it (defaults as the docs state them)."""

    def __init__(self, rid: str, spec: dict):
        self.id = rid
        self.team = spec["team"]                                   # "village" | "wolf"
        self.attacks = bool(spec.get("attacks", False))
        self.ability = spec.get("ability", "none")
        self.seer_reads = spec.get("seer_reads", self.team)
        self.medium_reads = spec.get("medium_reads", self.team)
        self.madman = bool(spec.get("madman", False))
        self.drag = int(spec.get("drag", 0))
        self.protect_count = int(spec.get("protect_count", 2 if self.ability == "protect" else 0))


class Game:
    def __init__(self, setup, key, g, village, wolves):
        cfg = setup.config
        R = setup.nb
        self.rules = RolesNB(_ro(R.table), _ro(R.var), _ro(R.seats), _ro(R.knobs[:0]))  # only handed to the strategies
        # each side's own knob values (NaN: the strategy's default), as View.knobs
        self.knobs = np.full((2, KNOB_SLOTS), np.nan)
        self.knobs[:, :R.knobs.shape[1]] = R.knobs[:, :KNOB_SLOTS]
        self.role_ids = list(setup.role_ids)
        self.roles = {rid: Role(rid, cfg["roles"][rid]) for rid in self.role_ids}
        var = cfg.get("variants", {})
        self.acc_village = var.get("accomplice_counts_as", "wolf") == "village"
        self.after_elim = bool(var.get("abilities_after_elimination", False))
        self.lone_attacks = bool(var.get("lone_accomplice_attacks", False))
        # restricted play: roles (by index) whose ability / claims are withheld (the hook is not asked)
        self.withhold = int(R.var[V.WITHHOLD])
        self.withhold_claims = int(R.var[V.WITHHOLD_CLAIMS])
        self.max_runoffs = int(var.get("max_runoffs", 50))
        self.start = var.get("start", "day")
        self.vote_rule = var.get("vote_rule", "runoff")
        self.end_rule = var.get("end_rule", "parity")
        self.max_days = int(var.get("max_days", 200))
        self.village, self.wolves = village, wolves
        n = self.n = len(setup.seats)

        self.rng = np.zeros(4, np.uint64)  # the rules' chance events
        self.role = [self.roles[r] for r in _deal(setup, key, g, self.rng)]
        self.rng_v = np.zeros(4, np.uint64)
        seed_stream_nb(self.rng_v, key, g, Stream.VILLAGE)
        self.rng_w = np.zeros(4, np.uint64)
        seed_stream_nb(self.rng_w, key, g, Stream.WOLVES)
        self.role_index = [self.role_ids.index(r.id) for r in self.role]

        everyone = range(n)
        self.alive: set[int] = set(everyone)
        self.wolf_team = {p for p in everyone if self.role[p].team == "wolf"}   # incl. the accomplice
        self.fenrirs = {p for p in everyone if self.role[p].drag > 0}
        self.status = [ALIVE] * n

        # What strategies see (the View): public record, own knowledge row, own scratch.
        self.out_how = np.zeros(n, np.int64)
        self.out_day = np.zeros(n, np.int64)
        self.revived = np.zeros(n, np.int64)
        self.claim_role = np.full(n, -1, np.int64)
        self.claim_res = np.full((n, n), -1, np.int64)
        self.claimed = np.zeros(len(CLAIMS), np.uint64)
        self.said = np.zeros((n, 2), np.uint64)
        self.know = np.full((n, n), -1, np.int64)
        self.mem = np.zeros((n, MEM), np.int64)
        for p in everyone:  # everyone knows its own team; the wolf team knows each other
            if p in self.wolf_team:
                for q in everyone:
                    self.know[p, q] = 1 if q in self.wolf_team else 0
            else:
                self.know[p, p] = 0
        self.runoff = 0  # the current runoff (0: the day's first vote)

        self.day = 0
        self.runoffs = 0
        self.nobody_out = 0
        self.log: list[tuple] = []

    # ------------------------------------------------------------------ helpers
    def counts_as_wolf(self, p: int) -> bool:
        """R-2: the accomplice counts (and reads) as village only in the madman variant."""
        r = self.role[p]
        return r.team == "wolf" and not (r.madman and self.acc_village)

    def seer_reads_wolf(self, p: int) -> bool:
        r = self.role[p]
        if r.madman and self.acc_village:
            return False
        return r.seer_reads == "wolf"

    def medium_reads_wolf(self, p: int) -> bool:
        r = self.role[p]
        if r.madman and self.acc_village:
            return False
        return r.medium_reads == "wolf"

    def can_act(self, p: int) -> bool:
        """R-6: an eliminated role's ability has no effect unless the variant says so."""
        return p in self.alive or self.after_elim

    def withheld(self, p: int) -> bool:
        return bool(self.withhold >> self.role_index[p] & 1)

    def holders(self, ability: str) -> list[int]:
        return [p for p in range(self.n) if self.role[p].ability == ability]

    def view(self, p: int) -> View:
        """What participant p knows (docs/rules/werewolf.md, hidden information)."""
        last_mark = self.hati_last.get(p, -1)
        last_protect = _mask(self.pal_last.get(p, set()))
        return View(self.n, self.day, self.runoff, self.rules, _mask(self.alive), _ro(self.out_how),
                    _ro(self.out_day), _ro(self.revived), _ro(self.claim_role), _ro(self.claim_res),
                    _ro(self.claimed), _ro(self.said), p,
                    self.role_index[p], _ro(self.know[p]), last_mark, last_protect,
                    _ro(self.knobs[1 if p in self.wolf_team else 0]), self.mem[p])

    def side(self, p: int):
        """(strategy family, its stream) of p's side."""
        return (self.wolves, self.rng_w) if p in self.wolf_team else (self.village, self.rng_v)

    def winner(self):
        """R-7, village first; end_rule variant."""
        wolves = [p for p in self.alive if self.counts_as_wolf(p)]
        village = [p for p in self.alive if not self.counts_as_wolf(p)]
        if not wolves:
            return "village"
        if self.end_rule == "no_villagers":
            return "wolves" if not village else None
        return "wolves" if len(village) <= len(wolves) else None

    def leave(self, who: set[int], how: str):
        """``who`` leave the game as one event; fenrir's drag belongs to it (Q-3)."""
        leaving = sorted(p for p in who if p in self.alive)
        for p in leaving:
            self.alive.discard(p)
            self.status[p] = how
            self.out_how[p] = HOW.index(how)
            self.out_day[p] = self.day
            self.log.append((self.day, how, p))
        for f in leaving:
            if f not in self.fenrirs:
                continue
            for _ in range(self.role[f].drag):
                village_team = {q for q in self.alive if not self.counts_as_wolf(q)}
                if not village_team:
                    break  # fewer than 3 left: all of them went
                c = int(choose_bit_nb(self.rng, _mask(village_team)))
                assert c in village_team
                self.alive.discard(c)
                self.status[c] = "dragged"
                self.out_how[c] = HOW.index("dragged")
                self.out_day[c] = self.day
                self.log.append((self.day, "dragged", c, f))

    # ------------------------------------------------------------------ phases
    def evening(self):
        """17:00: hati marks, the seer divines (honouring today's marks), the medium reads."""
        marked: set[int] = set()
        for h in self.holders("mark"):
            if not self.can_act(h):
                self.hati_last[h] = -1  # no mark this evening
                continue
            m = -1 if self.withheld(h) else int(self.wolves.mark(self.rng_w, self.view(h)))
            if m >= 0:
                if m >= self.n or m == h or m not in self.alive or m == self.hati_last[h]:
                    raise ValueError(f"hati {h}: illegal mark {m}")
                marked.add(m)
                self.log.append((self.day, "mark", h, m))
            self.hati_last[h] = m
        for s in self.holders("divine"):
            if not self.can_act(s):
                continue
            t = -1 if self.withheld(s) else int(self.village.divine(self.rng_v, self.view(s)))
            if t >= 0:
                if t >= self.n or t == s or t not in self.alive:
                    raise ValueError(f"seer {s}: illegal divination {t}")
                self.know[s, t] = 1 if (t in marked or self.seer_reads_wolf(t)) else 0
                self.log.append((self.day, "divine", s, t, int(self.know[s, t])))
        for md in self.holders("medium"):
            if not self.can_act(md):
                continue
            for p in self.voted_yesterday:
                self.know[md, p] = 1 if self.medium_reads_wolf(p) else 0
        for p in range(self.n):  # public claims (a strategy feature)
            if p not in self.alive:
                continue
            side, rng = self.side(p)
            c = -1 if self.withhold_claims >> self.role_index[p] & 1 else int(side.speak(rng, self.view(p)))
            if c >= 0:
                kind, t, r = c // CLAIM_BASE, (c % CLAIM_BASE) // 2, c % 2
                if t >= self.n or kind >= len(CLAIMS):
                    raise ValueError("speak: bad claim")
                if self.claim_role[p] not in (-1, kind):
                    raise ValueError("speak: a second role claimed")
                self.claim_role[p] = kind
                self.claimed[kind] |= np.uint64(1 << p)
                self.claim_res[p, t] = r
                self.said[p, r] |= np.uint64(1 << t)
                self.said[p, 1 - r] &= ~np.uint64(1 << t)

    def vote(self) -> set[int]:
        """18:00: who is out (empty: nobody, R-4)."""
        if self.vote_rule == "random_lynch":
            return {int(choose_bit_nb(self.rng, _mask(self.alive)))}
        cands = set(self.alive)
        runoffs = 0
        while True:
            tally = {c: 0 for c in range(self.n)}
            self.runoff = runoffs
            for p in sorted(self.alive):
                side, rng = self.side(p)
                t = int(side.vote(rng, self.view(p), _mask(cands)))
                if t not in cands:
                    raise ValueError(f"vote: {t} is not a candidate")
                tally[t] += 1
            best = max(tally.values())
            top = {c for c, v in tally.items() if v == best}
            if self.vote_rule == "plurality":
                if len(top) == 1:
                    return top
                return {int(choose_bit_nb(self.rng, _mask(top)))}
            if len(top) <= 2:  # one out, or both of a two-way tie
                self.runoff = 0
                return top
            if runoffs >= self.max_runoffs:
                self.nobody_out += 1
                self.runoff = 0
                return set()
            runoffs += 1  # a runoff among the tied; everyone votes again
            self.runoffs += 1
            cands = top

    def witch_time(self):
        for wi in self.holders("witch"):
            if not self.can_act(wi):
                continue
            code = 0 if self.withheld(wi) else int(self.village.witch(self.rng_v, self.view(wi)))
            act, t = code // WITCH_BASE, code % WITCH_BASE
            if act == WITCH_ELIMINATE:
                if t >= self.n or t == wi or t not in self.alive:
                    raise ValueError("witch: can only eliminate a living other")
                self.leave({t}, "witch")
                w = self.winner()
                if w:
                    return w, "witch"
            elif act == WITCH_REVIVE:
                if t >= self.n or t == wi or t in self.alive:
                    raise ValueError("witch: can only revive an out participant")
                self.alive.add(t)  # with its role and memory
                self.status[t] = ALIVE
                self.out_how[t] = 0
                self.revived[t] += 1
                self.log.append((self.day, "revive", t))
                w = self.winner()
                if w:
                    return w, "revive"
        return None

    def night(self):
        protected: set[int] = set()
        for pl in self.holders("protect"):
            if not self.can_act(pl):
                self.pal_last[pl] = set()  # he protected nobody this night
                continue
            picks = set() if self.withheld(pl) else _members(self.village.protect(self.rng_v, self.view(pl)))
            others = self.alive - {pl}
            if not picks <= others or len(picks) > self.role[pl].protect_count \
                    or (len(picks) >= 2 and picks == self.pal_last[pl]):
                raise ValueError(f"paladin {pl}: illegal protection {sorted(picks)}")
            protected |= picks
            self.pal_last[pl] = picks
        attackers = [p for p in sorted(self.alive) if self.role[p].attacks]
        if not attackers and self.lone_attacks:  # Q-2 variant: then the accomplice attacks
            attackers = sorted(self.alive & self.wolf_team)
        if not attackers:  # the accomplice alone does not attack
            return None
        cands = self.alive - self.wolf_team
        if not cands:
            return None
        t = int(self.wolves.attack(self.rng_w, self.view(attackers[0]), _mask(cands)))
        if t not in cands:
            raise ValueError(f"attack: {t} is not a candidate")
        self.log.append((self.day, "attack", t, t in protected))
        if t in protected:
            return None
        self.leave({t}, "attacked")
        w = self.winner()
        return (w, "attack") if w else None

    # ------------------------------------------------------------------ the game
    def play(self):
        self.hati_last = {h: -1 for h in self.holders("mark")}
        self.pal_last = {p: set() for p in self.holders("protect")}
        self.voted_yesterday: set[int] = set()
        first_night = self.start == "night"
        while True:
            if not first_night:
                self.day += 1
                if self.day > self.max_days:
                    return "draw", "max_days"
                self.runoff = 0
                self.evening()
                out = self.vote()
                self.voted_yesterday = out
                if out:
                    self.leave(out, "voted")
                    w = self.winner()
                    if w:
                        return w, "vote"
                end = self.witch_time()
                if end:
                    return end
            first_night = False
            end = self.night()
            if end:
                return end


def naive_game(setup, key, game_index: int, village, wolves) -> dict:
    """Play game ``game_index`` of the run with ``key`` and return what happened.

    ``days``: the number of the day the game ended on (0: the first night of
    ``start=night``); a draw is reported as ``max_days`` like the engine's
    ``days_hist`` overflow bucket. ``status[p]``: ``"alive"`` or how ``p`` left last.
    """
    game = Game(setup, key, game_index, village, wolves)
    winner, event = game.play()
    days = game.max_days if winner == "draw" else game.day
    return {
        "winner": winner,
        "event": event,
        "days": days,
        "roles": [r.id for r in game.role],
        "status": list(game.status),
        "out_day": game.out_day.tolist(),
        "revived": game.revived.tolist(),
        "runoffs": game.runoffs,
        "nobody_out": game.nobody_out,
        "log": game.log,
        "game": game,
    }


def counts_of(setup, results) -> dict[str, np.ndarray]:
    """The engine's tally (``Counts`` fields) of the naive games ``results``."""
    nr, days_cap = len(setup.role_ids), int(setup.config["variants"].get("max_days", 200))
    out = {"scalars": np.zeros(N_SCALARS, np.int64), "end": np.zeros((4, len(EVENTS)), np.int64),
           "role_games": np.zeros(nr, np.int64), "role_survived": np.zeros(nr, np.int64),
           "role_out": np.zeros((nr, len(HOW)), np.int64), "days_hist": np.zeros(days_cap + 2, np.int64)}
    sc = out["scalars"]
    for res in results:
        sc[C_GAMES] += 1
        sc[C_VILLAGE] += res["winner"] == "village"
        sc[C_WOLVES] += res["winner"] == "wolves"
        sc[C_DRAWS] += res["winner"] == "draw"
        sc[C_DAYS] += res["days"]
        sc[C_RUNOFFS] += res["runoffs"]
        sc[C_NOBODY_OUT] += res["nobody_out"]
        out["end"][WINNERS.index(res["winner"]), EVENTS.index(res["event"])] += 1
        out["days_hist"][res["days"]] += 1
        for rid, st in zip(res["roles"], res["status"]):
            r = setup.role_ids.index(rid)
            out["role_games"][r] += 1
            if st == ALIVE:
                out["role_survived"][r] += 1
            else:
                out["role_out"][r, HOW.index(st)] += 1
    return out
