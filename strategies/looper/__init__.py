"""Looper strategies, registered by name per side.

A player strategy is a pair of ``@njit`` functions::

    move(rng, view: PlayerView, own: Scratch, out: int64[moves, 2]) -> int
        write up to rules.player_moves_per_day (character, location) pairs; return how many
    name_key(rng, view: PlayerView, own: Scratch) -> int
        only with the R-2 variant: the character the player names at the end of a surviving loop

``rng`` is the player's own stream, ``view`` its read-only knowledge (fields: the whitelist
``sim.looper.views.PLAYER_KNOWS``), ``own`` its writable scratch (``own.mem`` int64[256]
zeroed per game, ``own.buf`` a day buffer for what-if days, ``own.big`` int64[8192] never
zeroed: write before you read, at your game's start). A scriptwriter strategy is::

    setup(rng, view: WriterView, params, out: int64[1 + 2*perm + 2*guests])
        out = [key, c1, l1, ..., guest1_char, guest1_loc, ...]
    choose(rng, view: WriterView, params, actor, candidates: uint64) -> int
        the victim of a "one character dies" rule (a set bit of candidates)
    prepare(roster, np.random.Generator) -> int64 2-D array  (optional, Python, once per run)

A strategy may declare ``knobs`` (:class:`sim.core.knobs.Knob`, e.g. :data:`PROTECT_KNOBS`):
their values (``--player cautious@min_gain=2``, the configuration's ``player.<knob>``)
reach it as ``view.knobs``, float64 in the declared order (a strategy without knobs sees
one 0). Plug your own in with ``--player mypkg.mymod:func``: ``func`` may be a
:class:`PlayerStrategy` or a bare ``move`` function (``name_key`` then defaults to a
random living character). Scriptwriter plug-ins must be :class:`ScriptwriterStrategy`.
A player strategy whose name starts with ``oracle_`` (``sim.core.views.is_oracle``) is given
the judge's state (an ``OracleView``: the player's fields plus ``key``, ``setup``, ``pos``,
``stress``) and every output of a run with it is labelled; the other players get only the
PlayerView, so they cannot read hidden state. ``oracle_key`` and ``oracle_planner`` are the
built-in oracles. ``bayes`` / ``planner`` / ``oracle_planner``: strategies/looper/bayes.py.

A hook may say why it decided, for ``sim GAME trace``: ``reason_nb(view.why, kind, a, b,
score)`` (sim.core.reasons; the kinds: sim.looper.enums.WHY: at_risk, candidate, prevents, …); in a batch
run it compiles to nothing (docs/reference.md, "Reasons from a plug-in").

Run a plug-in once with ``--check-bounds`` (or ``SIM_CHECK_BOUNDS=1``): the kernel and the
strategies are compiled with bounds checking, and an index outside a view's array is one
``error:`` line naming the strategy and the array (:mod:`sim.core.audit`).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from sim.core.knobs import Knob
from sim.core.plugins import Registry
from sim.core.views import is_oracle
from sim.errors import SimInputError
from strategies.looper import bayes as _b
from strategies.looper import player as _p
from strategies.looper import scriptwriter as _w


@dataclass(frozen=True)
class PlayerStrategy:
    name: str
    move: Any
    name_key: Any = _p.random_name_nb
    doc: str = ""
    knobs: tuple = ()  # Knob, …: their values reach move / name_key as view.knobs (declared order)


@dataclass(frozen=True)
class ScriptwriterStrategy:
    name: str
    setup: Any
    choose: Any
    prepare: Callable[..., np.ndarray] | None = None
    doc: str = ""
    knobs: tuple = ()  # Knob, …: their values reach setup / choose as view.knobs (declared order)


# The knobs of the protecting players (strategies.looper.common.protect_with_nb), in the
# order view.knobs holds them (common.PK_*). The defaults are the play before knobs existed.
PROTECT_KNOBS = (
    Knob("max_moves", "int", 1, 64, 64, doc="at most this many moves a day (the rules' limit applies too)"),
    Knob("protagonist_first", "bool", default=True,
         doc="rescue the protagonist before anyone else (false: it is drawn with the others)"),
    Knob("min_gain", "int", 1, 4, 1,
         doc="keep a move only if it lowers the protected characters in danger by at least this many (net)"),
    Knob("count_choices", "bool", default=True,
         doc="a candidate of a \"one character dies\" rule counts as at risk (false: only certain deaths)"),
)
RANDOM_KNOBS = (Knob("max_moves", "int", 1, 64, 64, doc="at most this many moves a day (the rules' limit applies too)"),)
# The knobs of bayes (strategies.looper.bayes, K_* order); the planners add theirs after them.
BAYES_KNOBS = (
    Knob("particles", "int", 1, 512, 64, doc="hypotheses (whole setups) the posterior keeps"),
    Knob("samples", "int", 1, 64, 8, doc="of them, the worlds each decision is weighed on"),
    Knob("candidates", "int", 1, 64, 24,
         doc="protect the key-person candidates when at most this many remain (else only the protagonist)"),
    Knob("protagonist_weight", "float", 0.0, 4.0, 1.0, step=0.05,
         doc="the protagonist's loss against the key person's (the candidates share 1)"),
    Knob("choice_risk", "float", 0.0, 1.0, 1.0,
         doc="risk of a \"one character dies\" candidate beyond 1/|candidates| (1: the worst is chosen)"),
    Knob("repair", "int", 0, 100000, 4000,
         doc="re-simulated days the repair search may spend in a game when no hypothesis is left"),
    Knob("max_moves", "int", 1, 64, 64, doc="at most this many moves a day (the rules' limit applies too)"),
    Knob("descents", "int", 0, 8, 3, tune=False,
         doc="when no hypothesis is left, particles walked down by single changes before the complete "
             "enumeration (0: the enumeration at once; it runs at most one pass a game)"),
)
PLANNER_KNOBS = BAYES_KNOBS + (
    Knob("budget", "int", 1, 100000, 256,
         doc="rolled-out days per decision (at most: one round over the worlds when nothing in them is random)"),
    Knob("horizon", "choice", default="loop", choices=("day", "loop"),
         doc="roll out the rest of the day, or of the loop (the same moves every day)"),
    Knob("alternatives", "int", 0, 32, 6, doc="one-move changes of bayes's moves tried besides them and none"),
)
AIM_KNOBS = (Knob("aim", "float", 0.0, 1.0, 0.0,
                  doc="probability that a choice kills the key person, else the protagonist, when it can"),)


def _wrap_player(obj, spec):
    if isinstance(obj, PlayerStrategy):
        if is_oracle(spec) and not is_oracle(obj):  # mod:oracle_x names an oracle: label it so
            return dataclasses.replace(obj, name=spec)
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
                                          doc="moves random living characters to random places", knobs=RANDOM_KNOBS))
PLAYERS.register("cautious", PlayerStrategy("cautious", _p.cautious_move_nb, _p.random_name_nb,
                                            doc="moves the protagonist, then anyone, out of visibly deadly places",
                                            knobs=PROTECT_KNOBS))
PLAYERS.register("deducer", PlayerStrategy("deducer", _p.deducer_move_nb, _p.deducer_name_nb,
                                           doc="narrows the key person down from earlier loops and protects the candidates",
                                           knobs=PROTECT_KNOBS))
PLAYERS.register("bayes", PlayerStrategy(
    "bayes", _b.bayes_move_nb, _b.bayes_name_nb,
    doc="keeps the posterior over the hidden setup (particles re-simulated with the day kernel); "
        "protects the protagonist and the likely key persons from the dangers it expects", knobs=BAYES_KNOBS))
PLAYERS.register("planner", PlayerStrategy(
    "planner", _b.planner_move_nb, _b.bayes_name_nb,
    doc="scores candidate move sets by rollouts on worlds drawn from bayes's posterior", knobs=PLANNER_KNOBS))
PLAYERS.register("oracle_planner", PlayerStrategy(
    "oracle_planner", _b.oracle_planner_move_nb, _b.oracle_planner_name_nb,
    doc="ORACLE: the planner told the true setup (its only world) and key person", knobs=PLANNER_KNOBS))
PLAYERS.register("oracle_key", PlayerStrategy(
    "oracle_key", _p.oracle_key_move_nb, _p.oracle_key_name_nb,
    doc="ORACLE: reads the true key person; protects it and the protagonist, names it"))
SCRIPTWRITERS.register("random", ScriptwriterStrategy("random", _w.random_setup_nb, _w.random_choose_nb,
                                                      doc="uniform key person, moves and choices", knobs=AIM_KNOBS))


def against_knobs(roster) -> dict:
    """The adversarial scriptwriter's knob values from ``[scriptwriter]`` (checked)."""
    from sim.core.knobs import check_knobs

    w = SCRIPTWRITERS.get("adversarial")
    given = check_knobs(w, w.name, dict((roster.config or {}).get("scriptwriter") or {}), "scriptwriter")
    return {k.name: given.get(k.name, k.default) for k in w.knobs}


def against_players(against: str) -> tuple:
    """The players the search scores against (``against``: a name or the default pair)."""
    from strategies.looper.adversarial import DEFAULT_AGAINST

    if against == DEFAULT_AGAINST:
        return PLAYERS.get("random"), PLAYERS.get("cautious")
    return (PLAYERS.get(against),)


def adversarial_prepare(roster, rng):
    """The setup pool searched against ``scriptwriter.against`` (default: random and
    cautious), with the search scores in two trailing columns (the exploit list's)."""
    from strategies.looper.adversarial import DEFAULT_AGAINST, search_plan, search_setups

    k = against_knobs(roster)
    proposals, trials = search_plan(k["against"], int(k["proposals"]), int(k["trials"]))
    return search_setups(roster, rng, against_players(k["against"]), proposals=proposals, trials=trials,
                         keep=int(k["keep"]), with_scores=True, screen=against_players(DEFAULT_AGAINST))


def fixed_prepare(roster, rng):
    """The `fixed` scriptwriter's parameters: the script compiled from ``[setup]`` (P-19,
    ``sim.looper.roster.Setup.script``) as one row, its victim choice in the last column."""
    if roster.script is None or roster.fixed_key == 0:
        raise SimInputError("scriptwriter fixed: [setup] key_person is empty; a script names its key person "
                            "(setup.key_person, permanent_moves, guest_moves, choose; P-19)")
    return np.concatenate([roster.script, [roster.script_choose]]).astype(np.int64)[None, :]


SCRIPTWRITERS.register("fixed", ScriptwriterStrategy(
    "fixed", _w.fixed_setup_nb, _w.fixed_choose_nb, fixed_prepare,
    doc="plays the script of [setup]: key person, permanent and guest moves, choose = random | first"))

ADVERSARIAL_KNOBS = (
    Knob("against", "choice", default="random+cautious",
         choices=("random+cautious", "each", *(n for n in PLAYERS.names())), plugins=True,
         doc="the player the setup search scores against (--against; a name or a module:object plug-in; default: "
             "the random and cautious ones; each: the player it faces, e.g. the ladder tier adversarial@against=each)"),
    Knob("proposals", "int", 0, 100000, 0, tune=False,
         doc="setups proposed (0: 384, or 128 against bayes, 64 against planner / oracle_planner)"),
    Knob("trials", "int", 0, 100000, 0, tune=False,
         doc="games per proposal and player (0: 48, or 16 against bayes, 12 against planner; the search "
             "plays proposals × trials games: about 1 s against planner at ~1,300 games/s)"),
    Knob("keep", "int", 1, 64, 8, tune=False,
         doc="setups the scriptwriter keeps and draws one of uniformly each game (1: only its best; "
             "the exploit list shows them)"),
)

SCRIPTWRITERS.register("adversarial", ScriptwriterStrategy(
    "adversarial", _w.pool_setup_nb, _w.adversarial_choose_nb, adversarial_prepare,
    doc="searches setups that kill the key person early (against = the player it scores them against); "
        "kills the key person or protagonist when it can", knobs=ADVERSARIAL_KNOBS))
