"""What each Looper participant may know: whitelists, the view types built from them, and
the kernels' view builders (docs/rules/looper.md "What the player knows").

A view is a namedtuple whose fields are exactly one whitelist below, so a new piece of
state is hidden until someone adds its name here on purpose (and to the rules page: a
test checks that the page lists exactly :data:`PLAYER_KNOWS`). Every array of a view is
passed through :func:`sim.core.views.readonly_nb`: a strategy that writes into its view
does not compile. The kernel builds the views from the participant's own copies of what it
was told (the player's announcements, its own moves, its loop ends and names), never from
the judge's working arrays; only the oracle view (``oracle_…`` players) reads the judge's.

* ``rules`` — the public rules (:class:`sim.looper.roster.RosterNB`: the starting table,
  attributes, the cycle of places, every character's effects, the guest-move days, the
  constants in ``rules.info``), the player's own protagonist included. Read-only too.
* ``loop``, ``day`` — the clock (0-based loop, day 1 … days; 0 before the first day).
* ``alive`` — who is alive (uint64 mask): every death is announced.
* ``ann[loop, day-1, c]`` — the announced place of each death (−1: no death), which Turf
  King may have shifted (R-11): the player never learns the true place.
* ``moves[loop, day-1, j] = (c, l)`` — the moves it made (−1: none); not whether they
  worked (R-6).
* ``loop_end[loop]`` — the day a loop ended on (a death of the protagonist or key person
  that day), ``days + 1`` for a wrong name (P-9), 0 while running or won.
* ``named[loop]`` — the characters it named (R-2 variant), −1 for none.
* ``knobs`` — its own strategy's knob values (float64, the strategy's declared order,
  :func:`sim.core.knobs.knob_vector`; ``player.<knob>`` of the configuration): data the
  player chose, not state of the game.

The scriptwriter made the setup and sees the town: :data:`SCRIPTWRITER_KNOWS` (with its
own ``knobs``, ``scriptwriter.<knob>``). The judge's
state (:data:`ORACLE_KNOWS`) adds the key person, the setup and the true positions and
stress to the player's fields. A strategy's own writable scratch (``mem``, and a day
buffer for what-if days) is its :class:`Scratch`, not part of any view.
"""
from collections import namedtuple

import numba as nb

from sim.core.views import readonly_nb
from sim.looper.roster import RosterNB

PLAYER_KNOWS = ("rules", "loop", "day", "alive", "ann", "moves", "loop_end", "named", "knobs")
SCRIPTWRITER_KNOWS = ("rules", "loop", "day", "alive", "key", "setup", "pos", "stress", "knobs")
# the judge's state: everything the player knows, and what the scriptwriter hides
ORACLE_KNOWS = PLAYER_KNOWS + ("key", "setup", "pos", "stress")

# ``why``, last in every view, is not knowledge: the strategy's reason sink (sim.core.reasons;
# None in a batch run, a buffer in a trace; None when a test builds a view).
PlayerView = namedtuple("PlayerView", PLAYER_KNOWS + ("why",), defaults=(None,))
WriterView = namedtuple("WriterView", SCRIPTWRITER_KNOWS + ("why",), defaults=(None,))
OracleView = namedtuple("OracleView", ORACLE_KNOWS + ("why",), defaults=(None,))
# A player's own scratch: ``mem`` (int64[MEM], zeroed at each game's start, kept across
# its days and loops), ``buf`` (a DayBuf for what-if days, strategies.looper.common) and
# ``big`` (int64[BIG], kept across games of a chunk and never zeroed by the kernel: a
# strategy writes what it reads there before reading it, at its game's start, so results do
# not depend on how games are chunked; strategies.looper.bayes keeps its particles in it).
Scratch = namedtuple("Scratch", "mem buf big")


@nb.njit
def rules_view_nb(R):
    """The public rules with every array read-only."""
    return RosterNB(readonly_nb(R.info), readonly_nb(R.home), readonly_nb(R.char_attrs),
                    readonly_nb(R.next_loc), readonly_nb(R.effects), readonly_nb(R.masks),
                    readonly_nb(R.guest_day))


@nb.njit
def player_view_nb(rules, loop, day, alive, ann, moves, loop_end, named, knobs, key, setup, pos, stress, why):
    """An honest player's view: the player's own copies, read-only; the judge's arguments
    (key, setup, pos, stress) are not looked at."""
    return PlayerView(rules, loop, day, alive, readonly_nb(ann), readonly_nb(moves), readonly_nb(loop_end),
                      readonly_nb(named), readonly_nb(knobs), why)


@nb.njit
def oracle_view_nb(rules, loop, day, alive, ann, moves, loop_end, named, knobs, key, setup, pos, stress, why):
    """An ``oracle_…`` player's view: the player's fields and the judge's state, read-only."""
    return OracleView(rules, loop, day, alive, readonly_nb(ann), readonly_nb(moves), readonly_nb(loop_end),
                      readonly_nb(named), readonly_nb(knobs), key, readonly_nb(setup), readonly_nb(pos), readonly_nb(stress),
                      why)


@nb.njit
def writer_view_nb(rules, loop, day, alive, key, setup, pos, stress, knobs, why):
    """The scriptwriter's view (its own copies of the setup, the town and its stress, and its
    strategy's knob values)."""
    return WriterView(rules, loop, day, alive, key, readonly_nb(setup), readonly_nb(pos), readonly_nb(stress),
                      readonly_nb(knobs), why)
