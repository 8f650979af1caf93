"""Werewolf strategies, one family per side, registered by name.

A village family provides ``vote, divine, protect, witch, speak``; a wolf family
provides ``vote, mark, attack, speak`` — ``@njit`` functions with the signatures in
:mod:`sim.werewolf.game_nb`. Each decision receives a ``View`` of what the acting
participant knows. Plug in your own with ``--village mypkg.mod:obj`` where ``obj`` is a
:class:`VillageStrategy` (or :class:`WolfStrategy` for ``--wolves``); missing hooks
default to the random ones. A family whose name starts with ``oracle_`` receives the
judge's view instead (``JudgeView``, :mod:`sim.werewolf.views`) and every output that used
it is labelled.

A hook may say why it decided, for ``sim GAME trace``: ``reason_nb(view.why, kind, a, b,
score)`` (sim.core.reasons; the kinds: sim.werewolf.enums.WHY: suspect, trust, threshold, …); in a batch
run it compiles to nothing (docs/reference.md, "Reasons from a plug-in").

Run a plug-in once with ``--check-bounds`` (or ``SIM_CHECK_BOUNDS=1``): the kernel and the
strategies are compiled with bounds checking, and an index outside a view's array is one
``error:`` line naming the strategy and the array (:mod:`sim.core.audit`).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from sim.core.plugins import Registry
from sim.core.views import is_oracle
from sim.errors import SimInputError
from strategies.werewolf import basic as _b
from strategies.werewolf import claims as _c
from strategies.werewolf import oracle as _o
from strategies.werewolf import trusting as _tr


@dataclass(frozen=True)
class VillageStrategy:
    name: str
    vote: Any = _b.random_vote_nb
    divine: Any = _b.random_divine_nb
    protect: Any = _b.random_protect_nb
    witch: Any = _b.random_witch_nb
    speak: Any = _b.silent_nb
    oracle: bool = False   # True only for ``oracle_…`` names (the judge's view, labelled outputs)
    doc: str = ""
    knobs: tuple = ()      # sim.core.knobs.Knob, in the order the hooks read view.knobs

    def __post_init__(self):
        _check_oracle(self)


@dataclass(frozen=True)
class WolfStrategy:
    name: str
    vote: Any = _b.random_vote_nb
    mark: Any = _b.random_mark_nb
    attack: Any = _b.random_attack_nb
    speak: Any = _b.silent_nb
    oracle: bool = False   # True only for ``oracle_…`` names (the judge's view, labelled outputs)
    doc: str = ""
    knobs: tuple = ()      # sim.core.knobs.Knob, in the order the hooks read view.knobs

    def __post_init__(self):
        _check_oracle(self)


def _check_oracle(s) -> None:
    if s.oracle and not is_oracle(s):
        raise SimInputError(f"strategy {s.name!r} says oracle=True: name it oracle_… so that it gets the "
                            f"judge's view and every output that uses it says so")


def _wrap(kind):
    def wrap(obj, spec):
        if isinstance(obj, kind):
            # a plug-in whose object is named oracle_… is an oracle, whatever its own name
            if is_oracle(spec) and not is_oracle(obj):
                return replace(obj, name=spec, oracle=True)
            return obj
        raise SimInputError(f"{spec!r}: expected a {kind.__name__}")

    return wrap


VILLAGE: Registry[VillageStrategy] = Registry("village strategy", _wrap(VillageStrategy))
WOLVES: Registry[WolfStrategy] = Registry("wolf strategy", _wrap(WolfStrategy))

VILLAGE.register("random", VillageStrategy("random", doc="uniform among legal choices"))
WOLVES.register("random", WolfStrategy("random", doc="uniform among legal choices"))
VILLAGE.register("claims", VillageStrategy(
    "claims", vote=_c.village_vote_nb, divine=_c.village_divine_nb, protect=_c.village_protect_nb,
    witch=_c.village_witch_nb, speak=_c.village_speak_nb, knobs=_c.VILLAGE_KNOBS,
    doc="a table that talks: weighs seer and medium claims, counter-claims and reports into trust and "
        "suspicion; votes the most suspected; paladin guards the most trusted claimer; witch acts on "
        "strong suspicion"))
WOLVES.register("claims", WolfStrategy(
    "claims", vote=_c.wolf_vote_nb, mark=_c.wolf_mark_nb, attack=_c.wolf_attack_nb, speak=_c.wolf_speak_nb,
    knobs=_c.WOLF_KNOBS,
    doc="accomplice counter-claims seer or medium and frames the trusted claimer; attack and vote the "
        "trusted claimer; hati frames the most cleared"))
VILLAGE.register("trusting", VillageStrategy(
    "trusting", vote=_tr.village_vote_nb, divine=_tr.village_divine_nb, protect=_tr.village_protect_nb,
    witch=_tr.village_witch_nb, speak=_tr.village_speak_nb, knobs=_tr.VILLAGE_KNOBS,
    doc="a naive baseline: the seer claims; every seer claimer is trusted; votes reported wolves"))
WOLVES.register("trusting", WolfStrategy(
    "trusting", vote=_tr.wolf_vote_nb, mark=_tr.wolf_mark_nb, attack=_tr.wolf_attack_nb,
    speak=_tr.wolf_speak_nb, knobs=_tr.WOLF_KNOBS,
    doc="a naive baseline: attack claimed seers; accomplice fake-claims; hati frames the most trusted"))
WOLVES.register("oracle_attack", WolfStrategy(
    "oracle_attack", attack=_o.oracle_attack_nb, oracle=True,
    doc="ORACLE: random play, but the attack avoids the paladin's protected participants"))

# The families shipped with the project, in name order: one kernel plays any pair of them
# (sim.core.kernels.families), whatever a plug-in registers later.
SHIPPED = (tuple(VILLAGE.get(n) for n in VILLAGE.names()), tuple(WOLVES.get(n) for n in WOLVES.names()))
