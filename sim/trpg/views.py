"""What a TRPG character perceives when its strategy decides: a whitelist of fields.

A strategy hook (``target`` / ``reaction``, sim/trpg/game_nb.py) receives a :data:`View`
built from :data:`WHITELIST` — a field exists only once it is named here, and
docs/rules/trpg.md "What the player knows" lists exactly these names (a test compares
them). Every array is read-only (:func:`sim.core.views.readonly_nb`: writing into a view
does not compile; under ``NUMBA_DISABLE_JIT`` it raises). The per-combat arrays are
copies, made at each decision into preallocated guarded rows, of the whitelisted *columns*
of the battle table (positions, states, the HP band and the weapon in hand are kept as
columns of their own, B.BAND and B.WIELD) and of the perceiver's own rows. So a view is
always the present state, and holds nothing an earlier decision was told. The random state is in no view: a
strategy gets its own side's stream as ``rng`` (sim.trpg.enums.Stream).

Strategies named ``oracle_…`` get :data:`OracleView` instead: the judge's whole battle
table and scenario, exact HP included (read-only too); every output says so.

numba does not check array bounds; every array a view hands out is therefore a copy in a
guarded row of its own (:mod:`sim.core.guard`), so an accidental index past its end reads
zeros. Code that scans memory on purpose is out of scope (docs/adding-a-game.md, "Threat
model"); ``--check-bounds`` turns an out-of-range index into an error.
"""
from collections import namedtuple

import numba as nb
import numpy as np

from sim.core.guard import GUARD, guarded_rows_nb
from sim.core.views import readonly_nb
from sim.trpg.enums import N_B, B, CF, RL
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
# ``why``, last in every view, is not knowledge: the strategy's reason sink (sim.core.reasons;
# None in a batch run, a buffer in a trace).
View = namedtuple("View", WHITELIST + ("why",), defaults=(None,))

#: The judge's view of an ``oracle_…`` strategy: the perceiver, the round, the whole
#: scenario and the whole battle table (exact HP of everyone). No random state either.
ORACLE_FIELDS = ("me", "round", "sc", "bs")
OracleView = namedtuple("OracleView", ORACLE_FIELDS + ("why",), defaults=(None,))

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


# Rows of the board a view's arrays are copied into (new_board_nb)
P_HP, P_X, P_Y, P_STATUS, P_CTRL, P_BAND, P_WIELD, P_SIDE, P_MELEE, P_SHOOTING, P_STATE, P_SHEET, P_WEAPONS = range(13)
N_P = 13


@nb.njit
def new_board_nb(sc):
    """A chunk's view board: a row of its own, with guards (sim.core.guard), for each array
    an honest view hands out. The view builder copies the present state into it at each
    decision, so an index past one of a view's arrays reads zeros — never the next
    character's row of the battle table (its exact HP) or another side's stream (issue 38)."""
    n = sc.chars.shape[0]
    return guarded_rows_nb(N_P, max(n, N_B, sc.chars.shape[1], sc.char_weapons.shape[1]), np.int64)


@nb.njit(forceinline=True)
def _col_nb(pb, k, a, c):
    """Column ``c`` of the table ``a`` copied into row ``k`` of the board: that row's data."""
    g = GUARD // 8
    n = a.shape[0]
    for i in range(n):
        pb[k, g + i] = a[i, c]
    return pb[k, g:g + n]


@nb.njit(forceinline=True)
def _row_nb(pb, k, a, r):
    """Row ``r`` of the table ``a`` copied into row ``k`` of the board: that row's data."""
    g = GUARD // 8
    m = a.shape[1]
    for i in range(m):
        pb[k, g + i] = a[r, i]
    return pb[k, g:g + m]


@nb.njit(forceinline=True)
def honest_view_nb(hid, sc, bs, rnd, me, why=None):
    """Character ``me``'s view: copies of exactly the whitelisted columns of the battle
    table ``bs`` (B.X, B.Y, B.STATUS, B.CTRL, the band B.BAND, the weapon in hand B.WIELD;
    B.HP only when HP is public) and of the scenario, and of its own rows, each in a guarded
    row of the view board ``hid`` (:func:`new_board_nb`); ``why``: the reason sink."""
    pub = sc.rules[RL.HP_PUBLIC]
    if pub == 1:
        hp = _col_nb(hid, P_HP, bs, B.HP)
    else:
        g = GUARD // 8
        n = bs.shape[0]
        for i in range(n):
            hid[P_HP, g + i] = HIDDEN
        hp = hid[P_HP, g:g + n]
    return View(me, rnd, sc.rules[RL.GRID], pub, readonly_nb(_col_nb(hid, P_SIDE, sc.chars, CF.SIDE)),
                readonly_nb(_col_nb(hid, P_X, bs, B.X)), readonly_nb(_col_nb(hid, P_Y, bs, B.Y)),
                readonly_nb(_col_nb(hid, P_STATUS, bs, B.STATUS)), readonly_nb(_col_nb(hid, P_CTRL, bs, B.CTRL)),
                readonly_nb(_col_nb(hid, P_BAND, bs, B.BAND)), readonly_nb(hp),
                readonly_nb(_col_nb(hid, P_WIELD, bs, B.WIELD)),
                readonly_nb(_col_nb(hid, P_MELEE, sc.chars, CF.MELEE)),
                readonly_nb(_col_nb(hid, P_SHOOTING, sc.chars, CF.SHOOTING)),
                readonly_nb(_row_nb(hid, P_SHEET, sc.chars, me)), readonly_nb(_row_nb(hid, P_STATE, bs, me)),
                readonly_nb(_row_nb(hid, P_WEAPONS, sc.char_weapons, me)), readonly_nb(sc.weapons),
                readonly_nb(sc.dice), why)


@nb.njit(forceinline=True)
def oracle_view_nb(hid, sc, bs, rnd, me, why=None):
    """The judge's view for an ``oracle_…`` strategy (same arguments as :func:`honest_view_nb`)."""
    ro = ScenarioNB(readonly_nb(sc.chars), readonly_nb(sc.skills), readonly_nb(sc.weapons),
                    readonly_nb(sc.char_weapons), readonly_nb(sc.abilities), readonly_nb(sc.dice),
                    readonly_nb(sc.symptoms), readonly_nb(sc.rules))
    return OracleView(me, rnd, ro, readonly_nb(bs), why)


@nb.njit(forceinline=True)
def view_distance_nb(view, i, j):
    """Distance between i and j as the view shows it (R-6)."""
    dx = abs(view.x[i] - view.x[j])
    if view.grid == 0:
        return dx
    return max(dx, abs(view.y[i] - view.y[j]))
