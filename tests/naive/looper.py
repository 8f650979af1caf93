"""A slow, obvious reference implementation of the Looper (for differential tests).

Written from the rules page (``docs/rules/looper.md``, R-1 … R-14) and the project
rulings (``docs/looper.md``, P-1 … P-19, the rule variants P-15 … P-18 included) only. It reads the configuration *tree*
(``sim.looper.roster.build_config(...)``) and interprets every effect ``kind`` itself,
with plain dicts and sets of character ids — no bitmasks and nothing from
``sim/looper/day_nb.py`` or ``sim/looper/game_nb.py``'s day logic.

``naive_game`` replays one whole game the way the numba game kernel schedules it (the
same strategy functions are called in the same order on views with the same fields and
values, each side on its own stream — ``Stream.PLAYER`` / ``Stream.SCRIPTWRITER`` of the
game — so the RNG streams line up), but every day is resolved by :func:`naive_day`.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping, Sequence

import numpy as np

PROTAGONIST = "protagonist"

# Kinds that do nothing in the death phase (their work is done elsewhere or nowhere).
_PASSIVE = {"stress", "stress_if_stressed", "move_if_stressed", "substitute_victim",
            "misreport_deaths", "negate", "redirect_stress", "protect", "kill_all_on_death",
            "grant_attr"}
_DEATH = {"die_if_with", "die_if_stressed", "die_at", "pair_kill", "kill_stressed_others",
          "choose_kill_if_stressed", "bully", "lone_pair_kill", "kill_giver_if_stressed",
          "grant_kill_if_stressed", "kill_attr"}


# ----------------------------------------------------------------------------- helpers
def roster_ids(cfg: Mapping) -> list[str]:
    return [PROTAGONIST, *cfg["characters"]]


def location_ids(cfg: Mapping) -> list[str]:
    return list(cfg["locations"])


def _names(v) -> list[str]:
    """An attribute list as the data writes it ("child" or ["male", "female"])."""
    if v is None:
        return []
    if isinstance(v, str):
        return [v] if v else []
    return list(v)


def _any_of(attrs: set[str], wanted) -> bool:
    """``*_any`` filters: at least one of the listed attributes; an empty list is anyone."""
    w = _names(wanted)
    return not w or bool(attrs & set(w))


def _none_of(attrs: set[str], unwanted) -> bool:
    return not (attrs & set(_names(unwanted)))


def effect_table(cfg: Mapping) -> list[tuple[str, dict]]:
    """Every (owner, effect) in effect-table order: roster order, then list order."""
    out = []
    for cid, ch in cfg["characters"].items():
        for eff in ch.get("effects", []):
            out.append((cid, eff))
    return out


# ----------------------------------------------------------------------------- one day
@dataclass
class DayStart:
    """Everything known before the scriptwriter's choices."""

    cfg: Mapping
    alive: list[str]                       # roster order
    pos: dict[str, str]                    # morning positions
    pos2: dict[str, str]                   # after the movement phase
    stress: dict[str, int]
    givers: dict[str, set[str]]
    attrs: dict[str, set[str]]             # attributes for the day (after grants)
    negated: set[str]
    protected: set[str]
    misreport: set[str]                    # death-phase locations with a working Turf King
    fixed: dict[str, str] = field(default_factory=dict)   # victim -> owner (first rule)
    requests: list[tuple[str, list[str], str]] = field(default_factory=list)  # (actor, cands, owner)

    def here(self, loc: str) -> list[str]:
        return [c for c in self.alive if self.pos2[c] == loc]


def day_start(cfg: Mapping, layout: Mapping[str, str], protagonist_attrs: Iterable[str]) -> DayStart:
    ids = roster_ids(cfg)
    for c in layout:
        if c not in ids:
            raise KeyError(f"unknown character {c!r}")
    nxt = {l: v["next"] for l, v in cfg["locations"].items()}
    alive = [c for c in ids if c in layout]
    pos = {c: layout[c] for c in alive}
    base_attrs = {PROTAGONIST: set(protagonist_attrs)}
    for cid, ch in cfg["characters"].items():
        base_attrs[cid] = set(_names(ch.get("attributes", [])))
    effects = effect_table(cfg)

    def at(loc: str, where: Mapping[str, str]) -> list[str]:
        return [c for c in alive if where[c] == loc]

    # Negation (R-12, P-1): from the morning positions, for the whole day; a living Misa
    # negates even if she herself is negated ("negation cannot be negated").
    negated: set[str] = set()
    for owner, eff in effects:
        if eff["kind"] == "negate" and owner in pos:
            negated |= {c for c in at(pos[owner], pos) if _any_of(base_attrs[c], eff.get("target_any"))}
    active = {c for c in alive if c not in negated}

    # Attribute grants (Alessi, P-12): in the morning, before the stress phase; the
    # targets are picked by their own attributes.
    attrs = {c: set(a) for c, a in base_attrs.items()}
    for owner, eff in effects:
        if eff["kind"] == "grant_attr" and owner in active:
            for c in at(pos[owner], pos):
                if c != owner and _any_of(base_attrs[c], eff.get("target_any")):
                    attrs[c] |= set(_names(eff["attr"]))

    # ---- stress phase (R-7 1, R-8, R-9) ----
    target_loc = {l: l for l in nxt}
    for owner, eff in effects:  # President Valentine: stress from his location goes one step on
        if eff["kind"] == "redirect_stress" and owner in active:
            target_loc[pos[owner]] = nxt[pos[owner]]
    raw = {c: 0 for c in alive}
    givers: dict[str, set[str]] = {c: set() for c in alive}

    def apply(owner: str, eff: dict) -> None:
        amount = eff["amount"]
        for c in at(target_loc[pos[owner]], pos):
            if c == owner and not eff.get("include_self", False):
                continue
            if _any_of(attrs[c], eff.get("target_any")) and _none_of(attrs[c], eff.get("target_none")):
                raw[c] += amount
                if amount > 0:
                    givers[c].add(owner)

    for owner, eff in effects:
        if eff["kind"] == "stress" and owner in active:
            apply(owner, eff)
    unconditional = dict(raw)
    for owner, eff in effects:  # conditional ones read the unconditional snapshot
        if (eff["kind"] == "stress_if_stressed" and owner in active
                and max(0, unconditional[owner]) >= eff["threshold"]):
            apply(owner, eff)
    stress = {c: max(0, raw[c]) for c in alive}

    # ---- movement phase ----
    pos2 = dict(pos)
    for owner, eff in effects:
        if eff["kind"] == "move_if_stressed" and owner in active and stress[owner] >= eff["threshold"]:
            pos2[owner] = nxt[pos[owner]]

    # ---- death phase: protection and Turf King read the death-phase snapshot ----
    protected: set[str] = set()
    misreport: set[str] = set()
    for owner, eff in effects:
        if owner not in active:
            continue
        if eff["kind"] == "protect":
            protected |= {c for c in at(pos2[owner], pos2) if c != owner or eff.get("include_self", True)}
        elif eff["kind"] == "misreport_deaths":
            misreport.add(pos2[owner])

    d = DayStart(cfg, alive, pos, pos2, stress, givers, attrs, negated, protected, misreport)

    def kill(victim: str, owner: str) -> None:
        if victim in protected:
            return
        d.fixed.setdefault(victim, owner)  # P-11: the first rule keeps the credit

    def request(actor: str, cands: list[str], owner: str) -> None:
        cands = [c for c in cands if c not in protected]
        if cands:  # P-4: nobody eligible, nothing happens
            d.requests.append((actor, cands, owner))

    for owner, eff in effects:
        kind = eff["kind"]
        if kind in _PASSIVE:
            continue
        if kind not in _DEATH:
            raise ValueError(f"naive Looper: unknown effect kind {kind!r}")
        if owner not in active:
            continue
        loc = pos2[owner]
        here = d.here(loc)
        s = stress[owner]
        if kind == "die_if_with":
            if eff["other"] in here and eff["other"] != owner:
                kill(owner, owner)
        elif kind == "die_if_stressed":
            if s >= eff["threshold"]:
                kill(owner, owner)
        elif kind == "die_at":
            if loc == eff["location"]:
                kill(owner, owner)
        elif kind == "pair_kill":
            where = eff.get("location", "")
            if (not where or where == loc) and len(here) == 2:
                (other,) = [c for c in here if c != owner]
                if _any_of(attrs[other], eff.get("victim_any")):
                    kill(other, owner)
        elif kind == "kill_stressed_others":
            for c in here:
                if c != owner and stress[c] >= eff["threshold"]:
                    kill(c, owner)
        elif kind == "choose_kill_if_stressed":
            if s >= eff["threshold"]:
                request(owner, [c for c in here if c != owner and _any_of(attrs[c], eff.get("victim_any"))], owner)
        elif kind == "bully":
            victim = eff["victim"]
            if loc == eff["location"] and all(_any_of(attrs[c], eff["everyone"]) for c in here):
                if victim in here:
                    kill(victim, owner)
                else:
                    subs = [c for c, e in effects if e["kind"] == "substitute_victim"
                            and e["rule_of"] == owner and e["instead_of"] == victim]
                    for sub in subs:  # P-8: there and not negated
                        if sub in here and sub in active:
                            kill(sub, owner)
        elif kind == "lone_pair_kill":
            for l in nxt:
                pair = at(l, pos2)
                if len(pair) != 2:
                    continue
                for v, partner in (pair, pair[::-1]):  # both may qualify
                    if (v != owner and _any_of(attrs[v], eff["victim_any"])
                            and _any_of(attrs[partner], eff["partner_any"])):
                        kill(v, owner)
        elif kind == "kill_giver_if_stressed":
            if s >= eff["threshold"]:
                request(owner, [c for c in alive if c in givers[owner] and c != owner], owner)
        elif kind == "grant_kill_if_stressed":
            for x in here:  # P-3
                # P-18: under rules.negated_gains_agitation a negated character gains it too
                gains = x in active or bool(cfg["rules"].get("negated_gains_agitation", False))
                if x != owner and gains and stress[x] >= eff["threshold"]:
                    request(x, [c for c in here if c != x], owner)
        elif kind == "kill_attr":
            for c in here:
                if c != owner and _any_of(attrs[c], eff["victim_any"]):
                    kill(c, owner)
    return d


def day_finish(d: DayStart, victims: Sequence[str]) -> tuple[dict[str, str], dict[str, str]]:
    """Chosen deaths (after the fixed ones, P-11), the slaughter angel, announcements."""
    nxt = {l: v["next"] for l, v in d.cfg["locations"].items()}
    killed_by = dict(d.fixed)
    for (actor, cands, owner), v in zip(d.requests, victims, strict=True):
        if v not in cands:
            raise ValueError(f"{v!r} is not a candidate of {actor!r}: {cands}")
        if v not in d.protected:
            killed_by.setdefault(v, owner)
    trigger = set(killed_by)  # one pass (P-12)
    for owner, eff in effect_table(d.cfg):
        if eff["kind"] == "kill_all_on_death" and owner in d.alive and owner not in d.negated:
            others = [c for c in d.here(d.pos2[owner]) if c != owner]
            if trigger & set(others):
                for c in others:
                    if c not in d.protected:
                        killed_by.setdefault(c, owner)
    deaths = {}
    for c in d.alive:
        if c in killed_by:
            l = d.pos2[c]
            deaths[c] = nxt[l] if l in d.misreport else l  # R-11, P-6
    killed_by = {c: killed_by[c] for c in d.alive if c in killed_by}
    return deaths, killed_by


def naive_day(cfg: Mapping, layout: Mapping[str, str], protagonist_attrs: Iterable[str],
              choose: Callable[[str, list[str]], str]):
    """Resolve one day. Returns (stress, positions, deaths, killed_by), all keyed by id."""
    d = day_start(cfg, layout, protagonist_attrs)
    victims = [choose(actor, list(cands)) for actor, cands, _ in d.requests]
    deaths, killed_by = day_finish(d, victims)
    return dict(d.stress), dict(d.pos2), deaths, killed_by


# ----------------------------------------------------------------------------- a game
def naive_game(roster, key, game_index: int, player, scriptwriter, params=None,
               wrong_name_ends: bool | None = None) -> dict:
    """Play game ``game_index`` of run ``key`` like ``play_chunk(key, g, 1, ...)``.

    ``roster`` is a compiled :class:`sim.looper.roster.Setup` (its ``config`` tree is the
    rule book here; its ``nb`` arrays are only handed to the strategies as their view).
    """
    from sim.core.rng import seed_stream_nb
    from sim.core.views import is_oracle
    from sim.looper import game_nb
    from sim.looper.day_nb import day_buffers_nb  # scratch buffers the strategies own
    from sim.looper.enums import Stream
    from sim.looper.roster import RosterNB
    from sim.looper.views import OracleView, PlayerView, Scratch, WriterView

    cfg = roster.config
    rules = cfg["rules"]
    ids = roster_ids(cfg)
    locs = location_ids(cfg)
    idx = {c: i for i, c in enumerate(ids)}
    n, L = len(ids), len(locs)
    loops = rules["max_loops"]
    days = rules["days_per_loop"]
    mpd = rules["player_moves_per_day"]
    nperm = rules["permanent_moves"]
    guest_days = list(rules.get("guest_move_days", []))
    must_name = bool(rules.get("must_name_key_person", False))
    if wrong_name_ends is None:
        wrong_name_ends = bool(rules.get("wrong_name_ends_game", False))
    prot_attrs = set(cfg["protagonist"].get("attributes", []))
    home = {PROTAGONIST: cfg["protagonist"]["location"]}
    home.update({c: ch["location"] for c, ch in cfg["characters"].items()})
    if params is None:
        params = np.zeros((1, 1), np.int64)

    def ro(a):
        v = np.asarray(a).view()
        v.flags.writeable = False
        return v

    R = roster.nb
    public = RosterNB(*(ro(x) for x in R))  # the rules, read-only as the kernel passes them
    prng = np.zeros(4, np.uint64)
    wrng = np.zeros(4, np.uint64)
    ann = np.full((loops, days, n), -1, np.int64)
    moves = np.full((loops, days, max(mpd, 1), 2), -1, np.int64)
    loop_end = np.zeros(loops, np.int64)
    named = np.full(loops, -1, np.int64)
    wsetup = np.zeros(1 + 2 * nperm + 2 * len(guest_days), np.int64)
    wpos = np.zeros(n, np.int64)
    wstress = np.zeros(n, np.int64)
    own = Scratch(np.zeros(game_nb.MEM, np.int64), day_buffers_nb(R), np.zeros(game_nb.BIG, np.int64))  # the player's scratch
    mv = np.zeros((max(mpd, 1), 2), np.int64)
    oracle = is_oracle(player)
    # each side's knob values, from the configuration's player / scriptwriter tables
    from sim.core.knobs import knob_vector

    pknobs = ro(knob_vector(player, player.name, cfg.get("player"), "player"))
    wknobs = ro(knob_vector(scriptwriter, scriptwriter.name, cfg.get("scriptwriter"), "scriptwriter"))
    state = {"loop": 0, "day": 0, "alive": np.uint64(0), "key": -1, "setup": wsetup, "pos": np.zeros(n, np.int64),
             "stress": np.zeros(n, np.int64)}

    def pview():
        base_fields = (public, np.int64(state["loop"]), np.int64(state["day"]), np.uint64(state["alive"]), ro(ann),
                       ro(moves), ro(loop_end), ro(named), pknobs)
        if oracle:
            return OracleView(*base_fields, np.int64(state["key"]), ro(state["setup"]), ro(state["pos"]),
                              ro(state["stress"]))
        return PlayerView(*base_fields)

    def wview(loop, day, alive, key):
        return WriterView(public, np.int64(loop), np.int64(day), np.uint64(alive), np.int64(key), ro(wsetup),
                          ro(wpos), ro(wstress), wknobs)

    def mask(chars) -> np.uint64:
        return np.uint64(sum(1 << idx[c] for c in chars))

    seed_stream_nb(prng, key, game_index, Stream.PLAYER)
    seed_stream_nb(wrng, key, game_index, Stream.SCRIPTWRITER)
    pinned = cfg.get("setup", {}).get("key_person", "")
    # the scriptwriter is told the pinned key person at setup (P-13, P-16), else -1
    scriptwriter.setup(wrng, wview(0, 0, 0, idx[pinned] if pinned else -1), params, wsetup)
    setup = wsetup.copy()  # the judge's copy
    key_person = ids[int(setup[0])]
    if pinned:  # P-13: the pinned key person replaces the strategy's pick, nothing else changes
        key_person = pinned
        setup[0] = idx[pinned]
    if key_person == PROTAGONIST:
        raise ValueError("the key person must be a table character (R-3)")
    state["key"], state["setup"] = idx[key_person], setup
    stay = bool(rules.get("stay_moves", True))                  # P-15
    key_movable = bool(rules.get("key_person_movable", True))    # P-16
    precedence = rules.get("precedence", "scriptwriter")         # P-17
    perm = {}
    for j in range(nperm):
        if int(setup[1 + 2 * j]) == -1:
            continue  # a slot the fixed script leaves unused (P-19)
        c, l = ids[int(setup[1 + 2 * j])], locs[int(setup[2 + 2 * j])]
        if c in perm or c == PROTAGONIST:
            raise ValueError("bad permanent moves")
        if not stay and l == home[c]:
            raise ValueError("a permanent move must change its location (P-15)")
        if not key_movable and c == key_person:
            raise ValueError("the key person may not be moved (P-16)")
        perm[c] = l
    g0 = 1 + 2 * nperm
    guest = {d: (ids[int(setup[g0 + 2 * k])], locs[int(setup[g0 + 2 * k + 1])])
             for k, d in enumerate(guest_days) if int(setup[g0 + 2 * k]) != -1}
    if not key_movable and any(c == key_person for c, _ in guest.values()):
        raise ValueError("the key person may not be moved (P-16)")
    base = {**home, **perm}

    def player_wins(c: str) -> bool:
        """P-17: the player's move of ``c`` beats the scriptwriter's."""
        return precedence == "player" or (precedence == "player_for_key_person" and c == key_person)

    res = {"key": key_person, "setup": setup.copy(), "announcements": [], "deaths": Counter(),
           "days": 0, "won": False, "won_loop": -1, "loops_used": 0, "loop_end": [],
           "named": [], "key_deaths": 0, "prot_deaths": 0, "wrong_names": 0, "end_day": Counter(),
           "moves": 0}  # moves the player wrote (a test's check that a strategy really moved)
    for lp in range(loops):
        res["loops_used"] = lp + 1
        alive = list(ids)
        survived = True
        for d in range(1, days + 1):
            state.update(loop=lp, day=d, alive=mask(alive))
            res["days"] += 1
            pos = dict(base)
            state["pos"] = np.array([locs.index(pos[c]) for c in ids], np.int64)
            moved_by_writer = set(perm)
            if d in guest:
                moved_by_writer.add(guest[d][0])
            moved_by_writer = {c for c in moved_by_writer if not player_wins(c)}
            placed = set()  # characters the player's moves placed today
            # player moves: R-6 (writer precedence), P-7 (dead / repeated moves do nothing)
            k = int(player.move(prng, pview(), own, mv)) if mpd > 0 else 0
            res["moves"] += k
            done = set()
            for j in range(min(k, mpd)):
                c, l = int(mv[j, 0]), int(mv[j, 1])
                if not (0 <= c < n and 0 <= l < L):
                    raise ValueError("player move out of range")
                if c in done:
                    continue
                done.add(c)
                moves[lp, d - 1, j] = (c, l)
                if ids[c] in alive and ids[c] not in moved_by_writer:
                    pos[ids[c]] = locs[l]
                    placed.add(ids[c])
            if d in guest and not (guest[d][0] in placed and player_wins(guest[d][0])):
                pos[guest[d][0]] = guest[d][1]
            layout = {c: pos[c] for c in alive}
            # resolve the day; the scriptwriter sees the death-phase snapshot
            st = day_start(cfg, layout, prot_attrs)
            if st.requests:
                for c in ids:
                    wpos[idx[c]] = locs.index(st.pos2.get(c, pos[c]))
                    wstress[idx[c]] = st.stress.get(c, 0)
            # the judge's stress (what an oracle sees the next morning)
            state["stress"] = np.array([st.stress.get(c, 0) for c in ids], np.int64)
            victims = []
            for actor, cands, _owner in st.requests:
                v = int(scriptwriter.choose(wrng, wview(lp, d, mask(alive), idx[key_person]), params, idx[actor],
                                            mask(cands)))
                if ids[v] not in cands:
                    raise ValueError("scriptwriter chose a non-candidate")
                victims.append(ids[v])
            deaths, killed_by = day_finish(st, victims)
            res["announcements"].append((lp, d, dict(deaths)))
            for c, l in deaths.items():
                ann[lp, d - 1, idx[c]] = locs.index(l)
                res["deaths"][(c, killed_by[c])] += 1
            alive = [c for c in alive if c not in deaths]
            if key_person in deaths or PROTAGONIST in deaths:
                res["key_deaths"] += key_person in deaths
                res["prot_deaths"] += PROTAGONIST in deaths
                loop_end[lp] = d
                res["end_day"][d] += 1
                survived = False
                break
        res["loop_end"].append(int(loop_end[lp]))
        if survived:
            if must_name:
                state.update(loop=lp, day=days, alive=mask(alive))
                nm = int(player.name_key(prng, pview(), own))
                named[lp] = nm
                res["named"].append(nm)
                if nm != idx[key_person]:
                    res["wrong_names"] += 1
                    loop_end[lp] = days + 1
                    res["loop_end"][-1] = days + 1
                    res["end_day"][days + 1] += 1
                    if wrong_name_ends:
                        break
                    continue
            res["won"] = True
            res["won_loop"] = lp
            res["end_day"][0] += 1
            break
    return res

