"""TRPG side profiles: one set of tactics for every character of a side.

A TRPG character's strategy is on its sheet (``[characters.X.strategy]``: target,
reaction, dodge_threshold, cover, cover_any, cover_raw, movement, life_mp, monologue, heal_below, heal_any,
swap_to_melee_at, kite, min_hit, arm_horizon, item_hp_at, item_mp_at, item_action, monologue_checks).
A *profile*
overwrites those fields for every character of one side, so the framework's side
strategies (``sim ladder``, ``sim equilibrium``, ``sim tune``) exist for the TRPG too.
A profile is data, not code: applying it rewrites the sheets before compiling, and the
combat kernel is the one every scenario uses (no recompilation).

Built-ins:

- ``sheet`` — each character plays as its sheet says (the default; no knobs);
- ``random`` — the least skilled baseline: random target, no reaction, no cover, walks
  in, spends no MP on a life check, never monologues (no knobs);
- ``focus`` — focus fire: the weakest target, ``auto`` reaction, cover, close in;
- ``ranged`` — the most dangerous target, ``auto`` reaction, cover, keep range.

``focus`` and ``ranged`` declare every sheet field as a knob (defaults: the profile's
values), so ``sim tune trpg --side players --strategy focus`` searches them; a knob
value is ``tactics.<side>.<knob>`` in the configuration (``--set
tactics.players.profile=focus --set tactics.players.target=nearest``).

A user profile is ``module:object`` with ``object`` a :class:`Profile`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim.core.knobs import Knob
from sim.core.plugins import Registry
from sim.errors import SimInputError
from sim.trpg.enums import ITEM_USES, MONOLOGUES, MOVES, REACTIONS, TARGETS

FIELDS = ("target", "reaction", "dodge_threshold", "cover", "cover_any", "cover_raw", "movement", "life_mp", "monologue", "heal_below",
          "heal_any", "swap_to_melee_at", "kite", "min_hit", "arm_horizon", "item_hp_at", "item_mp_at", "item_action")
HONEST_TARGETS = tuple(t for t in TARGETS if not t.startswith("oracle"))
MAX_LIFE_MP = 18  # a life check is 3d6 <= the MP spent: more than 18 buys nothing


@dataclass(frozen=True)
class Profile:
    """Sheet strategy fields for every character of a side, with the knobs that may change them."""
    name: str
    fields: tuple[tuple[str, Any], ...] = ()   # (field, value): what the profile writes
    knobs: tuple[Knob, ...] = ()
    doc: str = ""

    def strategy(self, sheet: dict, values: dict) -> dict:
        """A character's strategy table under this profile: its sheet's, the profile's
        fields over it, the knob values over those."""
        return {**sheet, **dict(self.fields), **values}


def knobs_for(defaults: dict) -> tuple[Knob, ...]:
    """Every sheet field as a knob, defaulting to ``defaults``."""
    d = defaults
    return (
        Knob("target", "choice", default=d["target"], choices=HONEST_TARGETS, doc="whom to attack"),
        Knob("reaction", "choice", default=d["reaction"], choices=REACTIONS, doc="dodge, guard, auto or none"),
        Knob("dodge_threshold", "float", 0.0, 1.0, d["dodge_threshold"],
             doc="auto considers a dodge only when its chance is at least this (T-11)"),
        Knob("cover", "bool", default=d["cover"], doc="step in front of an attacked ally (T-2)"),
        Knob("cover_any", "bool", default=d["cover_any"],
             doc="cover whenever able (false: only when a critical hit could fell the ally and not the coverer, T-2)"),
        Knob("cover_raw", "bool", default=d["cover_raw"],
             doc="judge a cover by a critical of the weapon's raw mean damage, dodging allies too (the first T-2 rule of 2026-12-07)"),
        Knob("movement", "choice", default=d["movement"], choices=MOVES, doc="close in or keep range (T-6)"),
        Knob("life_mp", "int", 0, MAX_LIFE_MP, d["life_mp"], doc="MP spent on a life check (T-4)"),
        Knob("monologue", "choice", default=d["monologue"], choices=MONOLOGUES, doc="when to monologue (T-5)"),
        Knob("heal_below", "float", 0.0, 1.0, d["heal_below"], doc="heal an ally below this share of its HP"),
        Knob("heal_any", "bool", default=d["heal_any"],
             doc="heal whenever below heal_below (false: only an ally fallen or the enemies could fell, T-13)"),
        Knob("swap_to_melee_at", "int", -1, 3, d["swap_to_melee_at"],
             doc="take up a melee weapon (sub action) with the target this close; -1 never (T-10)"),
        Knob("kite", "bool", default=d["kite"], doc="keep_range steps away from a melee enemy in reach (T-6)"),
        Knob("min_hit", "float", 0.0, 1.0, d["min_hit"],
             doc="keep_range closes in when its hit chance from here is below this (T-6)"),
        Knob("arm_horizon", "int", 0, 30, d["arm_horizon"],
             doc="auto: later attacks a hurt arm's roll penalty is counted for (T-11)"),
        Knob("item_hp_at", "float", 0.0, 1.0, d["item_hp_at"],
             doc="use a heal_hp item at HP at most this share of the maximum; 0 never (T-12)"),
        Knob("item_mp_at", "float", 0.0, 1.0, d["item_mp_at"],
             doc="use a heal_mp item at MP at most this share of the maximum; 0 never (T-12)"),
        Knob("item_action", "choice", default=d["item_action"], choices=ITEM_USES,
             doc="the action an item usable with either spends (the sub one costs the round's reaction, T-12)"),
    )


def _profile(name: str, doc: str, tunable: bool = False, **fields: Any) -> Profile:
    from sim.trpg.enums import STRATEGY_DEFAULTS as _STRATEGY_DEFAULTS

    full = {**_STRATEGY_DEFAULTS, **fields}
    return Profile(name, tuple(full.items()), knobs_for(full) if tunable else (), doc)


def _wrap(obj: object, spec: str) -> Profile:
    if not isinstance(obj, Profile):
        raise SimInputError(f"trpg profile {spec!r}: expected a strategies.trpg.profiles.Profile")
    return obj


PROFILES: Registry[Profile] = Registry("trpg side profile", _wrap)
PROFILES.register("sheet", Profile("sheet", (), (), "each character plays as its sheet says"))
PROFILES.register("random", _profile(
    "random", "least skilled: random target, no reaction, no cover, no MP on a life check, no monologue",
    target="random", reaction="none", cover=False, movement="close_in", life_mp=0, monologue="never"))
PROFILES.register("focus", _profile(
    "focus", "focus fire on the weakest, auto reaction, cover, close in (all fields are knobs)", True,
    target="weakest", reaction="auto", cover=True, movement="close_in"))
PROFILES.register("ranged", _profile(
    "ranged", "the most dangerous first, auto reaction, cover, keep range (all fields are knobs)", True,
    target="dangerous", reaction="auto", cover=True, movement="keep_range"))

__all__ = ["FIELDS", "PROFILES", "Profile", "knobs_for"]
