"""Race strategies, registered by name; ``module:object`` plug-ins.

A strategy decides, at the start of each of its turns, how many dice to roll::

    decide(rng, me, other, target, k) -> 1 or 2       # an @njit function
    decide(rng, me, other, target, k, why) -> 1 or 2  # the same, stating its reason

``why`` is the reason sink of a trace (:mod:`sim.core.reasons`: ``reason_nb(why, kind, a,
b, score)``, None in a batch run, where it compiles to nothing); a decide without it is
called through an adapter (:func:`with_why`).

``me`` / ``other`` are the two totals, ``target`` the winning total, ``k`` the player's
strategy parameter (``p1.k`` / ``p2.k`` in the configuration, an integer in
[K_MIN, K_MAX]) and ``rng`` the player's own random stream (:mod:`sim.core.rng`; draw from
it, never from numba's global RNG; the dice come from another stream it cannot foresee).
That is everything a player knows: the race has no hidden information. ``exact(me, other, target, k)`` is the same decision
in plain Python as the probability of rolling two dice; :mod:`sim_race.exact` uses it.
Give your own with ``--p1 mypkg.mod:obj`` where ``obj`` is a :class:`RaceStrategy` or a
bare ``@njit`` decide function (it then has no exact form).
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any, Callable

import numba as nb
from numba.core.dispatcher import Dispatcher

from sim.core.knobs import Knob
from sim.core.plugins import Registry
from sim.core.reasons import reason_nb
from sim.core.rng import randint_nb
from sim.errors import SimInputError
from sim_race.enums import Dice, Why

K_MIN, K_MAX = -20, 20  # the range of a strategy parameter k


@dataclass(frozen=True)
class RaceStrategy:
    name: str
    decide: Any                                   # @njit (rng, me, other, target, k) -> 1 | 2
    exact: Callable[[int, int, int, int], float] | None = None   # P(two dice), plain Python
    uses_k: bool = False                          # does k change the decision?
    doc: str = ""

    @property
    def knobs(self) -> tuple[Knob, ...]:
        """``k`` when the decision reads it (``threshold@k=3`` sets ``<side>.k``)."""
        return (Knob("k", "int", K_MIN, K_MAX, 0, doc="the strategy parameter p1.k / p2.k"),) if self.uses_k else ()


@nb.njit
def cautious_nb(rng, me, other, target, k, why):
    reason_nb(why, Why.ALWAYS, -1, -1, Dice.ONE)
    return Dice.ONE


@nb.njit
def bold_nb(rng, me, other, target, k, why):
    reason_nb(why, Why.ALWAYS, -1, -1, Dice.TWO)
    return Dice.TWO


@nb.njit
def threshold_nb(rng, me, other, target, k, why):
    reason_nb(why, Why.BEHIND, -1, k, other - me)
    return Dice.TWO if other - me >= k else Dice.ONE


@nb.njit
def random_nb(rng, me, other, target, k, why):
    d = Dice.ONE + randint_nb(rng, 2)
    reason_nb(why, Why.COIN, -1, -1, d)
    return d


_ADAPTED: dict = {}


def with_why(decide):
    """``decide`` taking the reason sink ``why`` last: itself when it does, else an @njit
    adapter that drops it (one per function, so its kernel is cached once)."""
    f = getattr(decide, "py_func", decide)
    try:
        n = len(inspect.signature(f).parameters)
    except (TypeError, ValueError):
        n = 6
    if n >= 6:
        return decide
    if decide not in _ADAPTED:
        @nb.njit
        def decide_without_why(rng, me, other, target, k, why):
            return decide(rng, me, other, target, k)
        _ADAPTED[decide] = decide_without_why
    return _ADAPTED[decide]


def _wrap(obj: object, spec: str) -> RaceStrategy:
    if isinstance(obj, RaceStrategy):
        return obj
    if isinstance(obj, Dispatcher) or (nb.config.DISABLE_JIT and inspect.isfunction(obj)):
        return RaceStrategy(spec, obj, doc=(getattr(obj, "__doc__", "") or "").strip())  # a bare decide
    raise SimInputError(f"{spec!r}: expected a RaceStrategy or an @njit decide function")


STRATEGIES: Registry[RaceStrategy] = Registry("race strategy", _wrap)

STRATEGIES.register("cautious", RaceStrategy("cautious", cautious_nb, lambda me, other, target, k: 0.0,
                                             doc="always one die"))
STRATEGIES.register("bold", RaceStrategy("bold", bold_nb, lambda me, other, target, k: 1.0,
                                         doc="always two dice"))
STRATEGIES.register("threshold", RaceStrategy(
    "threshold", threshold_nb, lambda me, other, target, k: 1.0 if other - me >= k else 0.0, uses_k=True,
    doc="two dice while behind by at least k points (p1.k / p2.k; k < 0: also while ahead by at most -k)"))
STRATEGIES.register("random", RaceStrategy("random", random_nb, lambda me, other, target, k: 0.5,
                                           doc="one die or two, a fair coin each turn"))

# The strategies shipped with the game, in name order: one kernel plays any pair of them
# (sim.core.kernels.families), whatever a plug-in registers later.
SHIPPED = tuple(STRATEGIES.get(n) for n in STRATEGIES.names())
