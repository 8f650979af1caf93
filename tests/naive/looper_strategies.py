"""The Looper's simple strategies re-stated in plain Python for the naive reference
(tests/naive/looper.py ``naive_game``), so that a differential test compares the engine's
strategy with an independent one, not with itself (issue 43).

Written from what docs/looper.md and the strategies' documented behaviour say they do,
with sets of character indices and nothing from strategies/looper. Each random choice is
one draw of the side's stream with the project's primitives — a uniform member of a set
by ``choose_bit_nb`` on its mask, a uniform index by ``randint_nb``, a probability by
``uniform_nb`` — in the order the strategy documents, so the streams line up draw by draw
and games compare one for one.

Re-stated: the ``random`` player; the protecting moves of ``cautious`` (everyone alive),
the ``deducer`` (the protagonist and its key-person candidates) and ``oracle_key`` (the
protagonist and the true key person), with their knobs — belief, what-if days on the naive
day, greedy choice: tests/naive/looper_protect.py; the ``deducer``'s candidates and its
name; the ``random`` scriptwriter (setup and choice, with its ``aim`` knob), the
``adversarial`` one's choice and pool setup, the ``fixed`` one's script and choice. The
knob declarations (data) are the engine's.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from sim.core.rng import choose_bit_nb, randint_nb, uniform_nb
from sim.looper.enums import I
from tests.naive.looper_protect import NaiveProtect, knob_values


def _pick(rng, members) -> int:
    """A uniform member of a non-empty set of indices (one draw)."""
    mask = 0
    for c in members:
        mask |= 1 << int(c)
    return int(choose_bit_nb(rng, np.uint64(mask)))


def _alive(view) -> set[int]:
    a = int(view.alive)
    return {c for c in range(int(view.rules.info[I.N_CHARS])) if a >> c & 1}


# ----------------------------------------------------------------------------- players
def random_move(rng, view, own, out) -> int:
    """Up to the day's limit (and the ``max_moves`` knob) of distinct living characters,
    each drawn uniformly among the living ones not yet moved today, then sent to a uniform
    place."""
    cap = int(view.rules.info[I.MOVES])
    if view.knobs.shape[0] >= 1 and view.knobs[0] >= 1:
        cap = min(cap, int(view.knobs[0]))
    left = _alive(view)
    k = 0
    while k < cap and left:
        c = _pick(rng, left)
        left.discard(c)
        out[k, 0] = c
        out[k, 1] = int(randint_nb(rng, int(view.rules.info[I.N_LOC])))
        k += 1
    return k


def random_name(rng, view, own) -> int:
    """R-2 variant: a uniform living character other than the protagonist."""
    return _pick(rng, _alive(view) - {0})


def deducer_candidates(view) -> set[int]:
    """Who may still be the key person, from the announcements alone (docs/looper.md):
    a loop ends on the day the key person or the protagonist dies, so

    * whoever died in a finished loop before the day it ended is not the key person (in a
      loop that reached its last day, or ended with a wrong name, nobody who died is);
    * a loop that ended on a day the protagonist lived ended by the key person's death:
      the key person is among that day's dead;
    * a wrongly named character is not the key person (P-9);
    * whoever died earlier in the current loop is not the key person either.
    """
    n = int(view.rules.info[I.N_CHARS])
    days = int(view.rules.info[I.DAYS])
    cand = set(range(1, n))

    def dead_on(lp, d):  # d 1-based
        return {c for c in range(1, n) if view.ann[lp, d - 1, c] >= 0}

    for lp in range(int(view.loop)):
        end = int(view.loop_end[lp])
        ended_by_death = 1 <= end <= days
        for d in range(1, (end if ended_by_death else days + 1)):
            cand -= dead_on(lp, d)
        if ended_by_death and view.ann[lp, end - 1, 0] < 0:
            cand &= dead_on(lp, end)
        elif end == days + 1 and view.named[lp] >= 0:
            cand.discard(int(view.named[lp]))
    for d in range(1, int(view.day)):
        cand -= dead_on(int(view.loop), d)
    return cand


def deducer_name(rng, view, own) -> int:
    """A uniform living candidate; none left: a uniform living character but the protagonist."""
    cand = deducer_candidates(view) & _alive(view)
    return _pick(rng, cand) if cand else random_name(rng, view, own)


def oracle_key_name(rng, view, own) -> int:
    return int(view.key)


# ----------------------------------------------------------------------------- scriptwriters
def random_setup(rng, view, params, out) -> None:
    """The key person uniform among the table characters; then each permanent move a
    uniform table character not yet moved, to a uniform place (P-15 ``stay_moves = false``:
    uniform among the other places); then each guest move a uniform table character to a
    uniform place. P-16 (``key_person_movable = false``): no move may take the key person
    (the pinned one when [setup] pins it, view.key)."""
    info = view.rules.info
    n, L = int(info[I.N_CHARS]), int(info[I.N_LOC])
    out[0] = 1 + int(randint_nb(rng, n - 1))
    movable = set(range(1, n))
    if info[I.KEY_MOVABLE] == 0:
        movable.discard(int(view.key) if view.key > 0 else int(out[0]))
    guests = set(movable)
    j = 1
    for _ in range(int(info[I.N_PERM])):
        c = _pick(rng, movable)
        movable.discard(c)
        out[j] = c
        if info[I.STAY_MOVES]:
            out[j + 1] = int(randint_nb(rng, L))
        else:
            others = [l for l in range(L) if l != int(view.rules.home[c])]
            out[j + 1] = others[int(randint_nb(rng, L - 1))]
        j += 2
    for _ in range(int(info[I.N_GUEST])):
        out[j] = _pick(rng, guests) if info[I.KEY_MOVABLE] == 0 else 1 + int(randint_nb(rng, n - 1))
        out[j + 1] = int(randint_nb(rng, L))
        j += 2


def _adversarial_pick(view, cand: set[int]) -> int | None:
    """The key person if it is a candidate, else the protagonist if it is one."""
    if int(view.key) in cand:
        return int(view.key)
    return 0 if 0 in cand else None


def _members(mask) -> set[int]:
    m = int(mask)
    return {i for i in range(64) if m >> i & 1}


def random_choose(rng, view, params, actor, cand_mask) -> int:
    """A uniform candidate; knob ``aim`` > 0: with that probability (one draw) kill the key
    person, else the protagonist, when it can."""
    cand = _members(cand_mask)
    aim = float(view.knobs[0])
    if aim > 0 and float(uniform_nb(rng)) < aim:
        hit = _adversarial_pick(view, cand)
        if hit is not None:
            return hit
    return _pick(rng, cand)


def adversarial_choose(rng, view, params, actor, cand_mask) -> int:
    cand = _members(cand_mask)
    hit = _adversarial_pick(view, cand)
    return hit if hit is not None else _pick(rng, cand)


def pool_setup(rng, view, params, out) -> None:
    """A uniform row of the prepared pool (its leading columns: the setup)."""
    row = int(randint_nb(rng, params.shape[0]))
    out[:] = params[row, :out.shape[0]]


def fixed_setup(rng, view, params, out) -> None:
    out[:] = params[0, :out.shape[0]]  # the script, no draw


def fixed_choose(rng, view, params, actor, cand_mask) -> int:
    """[setup] choose (the last column): 0 random, 1 the first candidate in roster order,
    2 as the adversarial scriptwriter."""
    mode = int(params[0, params.shape[1] - 1])
    if mode == 2:
        return adversarial_choose(rng, view, params, actor, cand_mask)
    if mode == 1:
        return min(_members(cand_mask))
    return _pick(rng, _members(cand_mask))


# ----------------------------------------------------------------------------- the registry
@dataclass(frozen=True)
class NaivePlayer:
    name: str
    move: Callable
    name_key: Callable
    knobs: tuple


@dataclass(frozen=True)
class NaiveWriter:
    name: str
    setup: Callable
    choose: Callable
    knobs: tuple
    prepare: Any = None


# whom each protecting player protects (the protagonist, index 0, always)
PROTECTS = {
    "cautious": _alive,
    "deducer": lambda view: {0} | (deducer_candidates(view) & _alive(view)),
    "oracle_key": lambda view: {0, int(view.key)},
}
NAMES = {"cautious": random_name, "deducer": deducer_name, "oracle_key": oracle_key_name}


def naive_player(engine, roster):
    """The re-stated twin of an engine player (same name and knobs), or the engine's own
    when this module does not re-state it; ``roster`` (a compiled Setup) gives the
    protecting players their rule book, its configuration tree."""
    if engine.name == "random":
        return NaivePlayer("random", random_move, random_name, engine.knobs)
    if engine.name in PROTECTS:
        guard, whom, knobs = NaiveProtect(roster.config), PROTECTS[engine.name], engine.knobs

        def move(rng, view, own, out) -> int:
            return guard.move(rng, view, whom(view), out, knob_values(knobs, view))

        return NaivePlayer(engine.name, move, NAMES[engine.name], engine.knobs)
    return engine


def naive_writer(engine):
    """The re-stated twin of an engine scriptwriter (the engine's ``prepare`` makes the
    adversarial pool: a search, not a rule)."""
    table = {"random": (random_setup, random_choose), "adversarial": (pool_setup, adversarial_choose),
             "fixed": (fixed_setup, fixed_choose)}
    if engine.name not in table:
        return engine
    setup, choose = table[engine.name]
    return NaiveWriter(engine.name, setup, choose, engine.knobs, engine.prepare)
