"""What a TRPG character perceives when its strategy decides: a whitelist of fields.

A strategy hook (``target`` / ``reaction``, sim/trpg/game_nb.py) receives a :data:`View`
built from :data:`WHITELIST` — a field exists only once it is named here, and
docs/rules/trpg.md "What the player knows" lists exactly these names (a test compares
them). Every array is read-only (:func:`sim.core.views.readonly_nb`: writing into a view
does not compile; under ``NUMBA_DISABLE_JIT`` it raises). The per-combat arrays are
read-only windows on the whitelisted *columns* of the battle table (positions, states,
the HP band and the weapon in hand are kept as columns of their own, B.BAND and B.WIELD)
and on the perceiver's own rows, not copies: filling a copy of the board before every
decision cost more than half of the batch speed. So a view is always the present state,
and holds nothing an earlier decision was told. The random state is in no view: a
strategy gets its own side's stream as ``rng`` (sim.trpg.enums.Stream).

Strategies named ``oracle_…`` get :data:`OracleView` instead: the judge's whole battle
table and scenario, exact HP included (read-only too); every output says so.

numba does not check array bounds, so native code that indexes past a view's arrays can
read memory next to them: the views keep honest strategies honest and make peeking a
deliberate act, they are no sandbox against hostile machine code.
"""
from collections import namedtuple

import numba as nb
import numpy as np

from sim.core.views import readonly_nb
from sim.trpg.enums import B, CF, RL
from sim.trpg.sheets import ScenarioNB

#: Every field of a character's view, in order (docs/rules/trpg.md "What the player knows").
WHITELIST = (
    "me",          # the perceiver (its index in sheet order)
    "round",       # the round being played
    "grid",        # 1: the 2-D board of R-6 (Chebyshev distance), 0: one line
    "hp_public",   # 1 when rules.hp_public: `hp` shows everyone's exact HP
    "side",        # [j] every character's side (index into scenario.sides)
    "x", "y",      # [j] positions
    "status",      # [j] 0 standing, 1 fallen, 2 lost (ST)
    "controlled",  # [j] 1 while a kaii controls j
    "hp_band",     # [j] HP as the table sees it: 0 (HP <= 0), 1 (<= 1/3 of max), 2 (<= 2/3), 3 (more)
    "hp",          # [j] exact HP of everyone when hp_public, else HIDDEN (own HP: state[B.HP])
    "equip",       # [j] the weapon in j's hand (a row of `weapons`)
    "melee", "shooting",  # [j] attack skills (combat sheets are shown at the table)
    "sheet",       # the perceiver's own sheet row (CF columns, its strategy settings included)
    "state",       # the perceiver's own battle state row (B columns: HP, MP, ammo, arms, …)
    "my_weapons",  # the perceiver's weapon slots (rows of `weapons`, -1: empty)
    "weapons",     # the weapon table (WF columns: public equipment data)
    "dice",        # the dice table (rows the weapons' WF.DICE name)
)
View = namedtuple("View", WHITELIST)

#: The judge's view of an ``oracle_…`` strategy: the perceiver, the round, the whole
#: scenario and the whole battle table (exact HP of everyone). No random state either.
ORACLE_FIELDS = ("me", "round", "sc", "bs")
OracleView = namedtuple("OracleView", ORACLE_FIELDS)

HIDDEN = -(1 << 40)  # `hp` of a character whose exact HP the perceiver does not know


@nb.njit(forceinline=True)
def hp_band_nb(hp, max_hp):
    """The coarse band of ``hp`` out of ``max_hp`` (0 … 3, see :data:`WHITELIST`)."""
    if hp <= 0:
        return 0
    if 3 * hp <= max_hp:
        return 1
    if 3 * hp <= 2 * max_hp:
        return 2
    return 3


@nb.njit
def new_board_nb(sc):
    """A chunk's hidden-HP column (n x 1, every entry :data:`HIDDEN`): the `hp` of a view
    when HP is not public."""
    return np.full((sc.chars.shape[0], 1), HIDDEN, np.int64)


@nb.njit(forceinline=True)
def honest_view_nb(hid, sc, bs, rnd, me):
    """Character ``me``'s view: read-only windows on exactly the whitelisted columns of the
    battle table ``bs`` (B.X, B.Y, B.STATUS, B.CTRL, the band B.BAND, the weapon in hand
    B.WIELD; B.HP only when HP is public) and of the scenario, and its own rows."""
    pub = sc.rules[RL.HP_PUBLIC]
    hp = readonly_nb(bs[:, B.HP]) if pub == 1 else readonly_nb(hid[:, 0])
    return View(me, rnd, sc.rules[RL.GRID], pub, readonly_nb(sc.chars[:, CF.SIDE]), readonly_nb(bs[:, B.X]),
                readonly_nb(bs[:, B.Y]), readonly_nb(bs[:, B.STATUS]), readonly_nb(bs[:, B.CTRL]),
                readonly_nb(bs[:, B.BAND]), hp, readonly_nb(bs[:, B.WIELD]),
                readonly_nb(sc.chars[:, CF.MELEE]), readonly_nb(sc.chars[:, CF.SHOOTING]), readonly_nb(sc.chars[me]),
                readonly_nb(bs[me]), readonly_nb(sc.char_weapons[me]), readonly_nb(sc.weapons),
                readonly_nb(sc.dice))


@nb.njit(forceinline=True)
def oracle_view_nb(hid, sc, bs, rnd, me):
    """The judge's view for an ``oracle_…`` strategy (same arguments as :func:`honest_view_nb`)."""
    ro = ScenarioNB(readonly_nb(sc.chars), readonly_nb(sc.skills), readonly_nb(sc.weapons),
                    readonly_nb(sc.char_weapons), readonly_nb(sc.abilities), readonly_nb(sc.dice),
                    readonly_nb(sc.symptoms), readonly_nb(sc.rules))
    return OracleView(me, rnd, ro, readonly_nb(bs))


@nb.njit(forceinline=True)
def view_distance_nb(view, i, j):
    """Distance between i and j as the view shows it (R-6)."""
    dx = abs(view.x[i] - view.x[j])
    if view.grid == 0:
        return dx
    return max(dx, abs(view.y[i] - view.y[j]))
