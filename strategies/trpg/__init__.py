"""TRPG combat strategies, chosen per character on its sheet (``[characters.X.strategy]``).

Built-ins (see :mod:`strategies.trpg.builtin`):

- ``target``: random | weakest | nearest | dangerous
- ``reaction``: none | dodge | guard | auto (with ``dodge_threshold``)
- ``cover`` (true/false), ``movement`` (close_in | keep_range), ``life_mp`` (MP spent on a
  life check), ``monologue`` (never | fallen | low_mp), ``heal_below`` (fraction of max HP)

A user plug-in replaces a built-in for the characters that name it:
``strategy = { target = "mypkg.mymod:pick" }`` where ``pick`` is an ``@njit`` function
``pick(rng, view, actor, cands) -> character`` (``cands`` a uint64 mask of legal
targets), or ``reaction = "mypkg.mymod:react"`` with
``react(rng, view, defender, attacker, can_dodge) -> 0 none | 1 dodge | 2 guard``.
One target and one reaction plug-in per scenario.
"""
from __future__ import annotations

import importlib

from sim.errors import SimInputError
from sim.trpg.enums import REACTIONS, TARGETS
from strategies.trpg.builtin import builtin_reaction, builtin_target

__all__ = ["BUILTIN", "REACTIONS", "TARGETS", "load_plugin"]

BUILTIN = {"target": builtin_target, "reaction": builtin_reaction}


def load_plugin(spec: str, what: str):
    """Import ``module:function`` and check it is a numba function."""
    mod_name, _, attr = spec.partition(":")
    try:
        mod = importlib.import_module(mod_name)
    except ImportError as e:
        raise SimInputError(f"{what} strategy {spec!r}: cannot import {mod_name!r} ({e})") from None
    fn = getattr(mod, attr, None)
    if fn is None or not hasattr(fn, "py_func"):
        raise SimInputError(f"{what} strategy {spec!r}: {mod_name!r} has no @njit function {attr!r}")
    return fn
