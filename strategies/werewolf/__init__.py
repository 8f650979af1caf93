"""Werewolf strategies, one family per side, registered by name.

A village family provides ``vote, divine, protect, witch, speak``; a wolf family
provides ``vote, mark, attack, speak`` — ``@njit`` functions with the signatures in
:mod:`sim.werewolf.game_nb`. Each decision receives a ``View`` of what the acting
participant knows. Plug in your own with ``--village mypkg.mod:obj`` where ``obj`` is a
:class:`VillageStrategy` (or :class:`WolfStrategy` for ``--wolves``); missing hooks
default to the random ones.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim.core.plugins import Registry
from sim.errors import SimInputError
from strategies.werewolf import basic as _b
from strategies.werewolf import claims as _c


@dataclass(frozen=True)
class VillageStrategy:
    name: str
    vote: Any = _b.random_vote
    divine: Any = _b.random_divine
    protect: Any = _b.random_protect
    witch: Any = _b.random_witch
    speak: Any = _b.silent
    oracle: bool = False
    doc: str = ""


@dataclass(frozen=True)
class WolfStrategy:
    name: str
    vote: Any = _b.random_vote
    mark: Any = _b.random_mark
    attack: Any = _b.random_attack
    speak: Any = _b.silent
    oracle: bool = False
    doc: str = ""


def _wrap(kind):
    def wrap(obj, spec):
        if isinstance(obj, kind):
            return obj
        raise SimInputError(f"{spec!r}: expected a {kind.__name__}")

    return wrap


VILLAGE: Registry[VillageStrategy] = Registry("village strategy", _wrap(VillageStrategy))
WOLVES: Registry[WolfStrategy] = Registry("wolf strategy", _wrap(WolfStrategy))

VILLAGE.register("random", VillageStrategy("random", doc="uniform among legal choices"))
WOLVES.register("random", WolfStrategy("random", doc="uniform among legal choices"))
VILLAGE.register("claims", VillageStrategy(
    "claims", vote=_c.village_vote, divine=_c.village_divine, protect=_c.village_protect,
    witch=_c.village_witch, speak=_c.village_speak,
    doc="seer claims and reports; votes revealed wolves; paladin guards the seer; witch acts on reports"))
WOLVES.register("claims", WolfStrategy(
    "claims", vote=_c.wolf_vote, mark=_c.wolf_mark, attack=_c.wolf_attack, speak=_c.wolf_speak,
    doc="attack claimed seers; accomplice fake-claims; hati frames the most trusted"))
