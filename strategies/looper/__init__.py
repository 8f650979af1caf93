"""Looper strategies, registered by name per side.

A player strategy is a pair of ``@njit`` functions::

    move(rng, view: PlayerView, mem: int64[64], out: int64[moves, 2]) -> int
        write up to rules.player_moves_per_day (character, location) pairs; return how many
    name_key(rng, view: PlayerView, mem) -> int
        only with the R-2 variant: the character the player names at the end of a surviving loop

A scriptwriter strategy is::

    setup(rng, view: WriterView, params, out: int64[1 + 2*perm + 2*guests])
        out = [key, c1, l1, ..., guest1_char, guest1_loc, ...]
    choose(rng, view: WriterView, params, actor, candidates: uint64) -> int
        the victim of a "one character dies" rule (a set bit of candidates)
    prepare(roster, np.random.Generator) -> int64 2-D array  (optional, Python, once per run)

Plug your own in with ``--player mypkg.mymod:func``: ``func`` may be a
:class:`PlayerStrategy` or a bare ``move`` function (``name_key`` then defaults to a
random living character). Scriptwriter plug-ins must be :class:`ScriptwriterStrategy`.
Player strategies that read hidden state must be created with ``oracle=True``; the
built-in views give them none, so all built-ins are honest.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from sim.core.plugins import Registry
from sim.errors import SimInputError
from strategies.looper import player as _p
from strategies.looper import scriptwriter as _w


@dataclass(frozen=True)
class PlayerStrategy:
    name: str
    move: Any
    name_key: Any = _p.random_name_nb
    oracle: bool = False
    doc: str = ""


@dataclass(frozen=True)
class ScriptwriterStrategy:
    name: str
    setup: Any
    choose: Any
    prepare: Callable[..., np.ndarray] | None = None
    doc: str = ""


def _wrap_player(obj, spec):
    if isinstance(obj, PlayerStrategy):
        return obj
    if hasattr(obj, "py_func"):  # a bare @njit move function
        return PlayerStrategy(spec, obj)
    raise SimInputError(f"player {spec!r}: expected a PlayerStrategy or an @njit move function")


def _wrap_writer(obj, spec):
    if isinstance(obj, ScriptwriterStrategy):
        return obj
    raise SimInputError(f"scriptwriter {spec!r}: expected a ScriptwriterStrategy")


PLAYERS: Registry[PlayerStrategy] = Registry("player strategy", _wrap_player)
SCRIPTWRITERS: Registry[ScriptwriterStrategy] = Registry("scriptwriter strategy", _wrap_writer)

PLAYERS.register("random", PlayerStrategy("random", _p.random_move_nb, _p.random_name_nb,
                                          doc="moves random living characters to random places"))
PLAYERS.register("cautious", PlayerStrategy("cautious", _p.cautious_move_nb, _p.random_name_nb,
                                            doc="moves the protagonist, then anyone, out of visibly deadly places"))
PLAYERS.register("deducer", PlayerStrategy("deducer", _p.deducer_move_nb, _p.deducer_name_nb,
                                           doc="narrows the key person down from earlier loops and protects the candidates"))
SCRIPTWRITERS.register("random", ScriptwriterStrategy("random", _w.random_setup_nb, _w.random_choose_nb,
                                                      doc="uniform key person, moves and choices"))


def _adversarial_prepare(roster, rng):
    from strategies.looper.adversarial import search_setups

    return search_setups(roster, rng, (PLAYERS.get("random"), PLAYERS.get("cautious")))


SCRIPTWRITERS.register("adversarial", ScriptwriterStrategy(
    "adversarial", _w.pool_setup_nb, _w.adversarial_choose_nb, _adversarial_prepare,
    doc="searches setups that kill the key person early; kills the key person or protagonist when it can"))
