"""TRPG combat strategies, chosen per character on its sheet (``[characters.X.strategy]``).

Built-ins (see :mod:`strategies.trpg.builtin`):

- ``target``: random | weakest | nearest | dangerous; ``oracle_focus`` (an oracle: lowest
  exact HP from the judge's view, labelled ORACLE in every output)
- ``reaction``: none | dodge | guard | auto (with ``dodge_threshold``)
- ``cover`` (true/false), ``movement`` (close_in | keep_range), ``life_mp`` (MP spent on a
  life check), ``monologue`` (never | fallen | low_mp), ``heal_below`` (fraction of max HP),
  ``heal_any`` (heal whenever below it; default false: only an ally in danger, T-13)

A user plug-in replaces a built-in for the characters that name it:
``strategy = { target = "mypkg.mymod:pick" }`` where ``pick`` is an ``@njit`` function
``pick(rng, view, actor, cands) -> character`` (``cands`` a uint64 mask of legal
targets), or ``reaction = "mypkg.mymod:react"`` with
``react(rng, view, defender, attacker, can_dodge) -> 0 none | 1 dodge | 2 guard``.
One target and one reaction plug-in per scenario. ``rng`` is the character's side's own
stream and ``view`` its read-only sim.trpg.views.View (the whitelist of
docs/rules/trpg.md "What the player knows"); a plug-in whose function is named
``oracle_…`` gets the judge's sim.trpg.views.OracleView instead.

A hook may say why it decided, for ``sim GAME trace``: ``reason_nb(view.why, kind, a, b,
score)`` (sim.core.reasons; the kinds: sim.trpg.enums.WHY: rule, value, random, expected, …); in a batch
run it compiles to nothing (docs/reference.md, "Reasons from a plug-in").

Run a plug-in once with ``--check-bounds`` (or ``SIM_CHECK_BOUNDS=1``): the kernel and the
strategies are compiled with bounds checking, and an index outside a view's array is one
``error:`` line naming the strategy and the array (:mod:`sim.core.audit`).
"""
from __future__ import annotations

from sim.core.plugins import Registry
from sim.errors import SimInputError
from sim.trpg.enums import REACTIONS, TARGETS
from strategies.trpg.builtin import builtin_reaction_nb, builtin_target_nb, oracle_focus_nb

__all__ = ["BUILTIN", "ORACLES", "PLUGINS", "REACTIONS", "TARGETS", "load_plugin"]

BUILTIN = {"target": builtin_target_nb, "reaction": builtin_reaction_nb}
ORACLES = {"oracle_focus": oracle_focus_nb}  # built-in target oracles (sheet name -> function)


def _njit_only(obj, spec: str):
    import numba

    # under NUMBA_DISABLE_JIT (the plain-Python pass, --check-bounds' replay) @njit gives
    # back the plain function
    if not hasattr(obj, "py_func") and not (numba.config.DISABLE_JIT and callable(obj)):
        raise SimInputError(f"{spec!r}: expected an @njit function")
    return obj


# The built-ins are compiled into the kernel (chosen by name on the sheet); these
# registries resolve the ``module:function`` plug-ins, the same mechanism as every game's.
PLUGINS = {"target": Registry("target strategy", _njit_only), "reaction": Registry("reaction strategy", _njit_only)}


def load_plugin(spec: str, what: str):
    """The ``@njit`` function a sheet names as ``module:function`` for ``what``."""
    return PLUGINS[what].get(spec)
