"""What a Werewolf strategy may read: the whitelist, the view types and their builders.

Every decision (vote, divine, protect, witch, mark, attack, speak) receives a ``View``
built for the acting participant from the fields below and nothing else: a field is
visible only once it is named here (and in the "Hidden information" section of
``docs/rules/werewolf.md``, which a test compares with these tuples). Every array in a
view is read-only (:func:`sim.core.views.readonly_nb`: writes do not compile); the
single writable field is ``mem``, the participant's own scratch memory, which the judge
never reads and which starts at zero every game.

- :data:`PUBLIC` — what every participant knows: the public record.
- :data:`OWN` — the acting participant's own knowledge (its seat, its role, its row of
  what it has learned, its own last choices).
- :data:`MEMORY` — its own scratch.
- :data:`ROLE_KNOWLEDGE` — what each role adds, and in which field.

Strategies named ``oracle_…`` (:func:`sim.core.views.is_oracle`) get a ``JudgeView``
instead: the same fields plus :data:`JUDGE`, the judge's hidden state. The kernel picks
the builder per side when it is specialised (:func:`view_builder`).
"""
from __future__ import annotations

from collections import namedtuple

import numba as nb
import numpy as np

from sim.core.guard import row_nb
from sim.core.views import is_oracle, readonly_nb
from sim.werewolf.roles import RolesNB

U1 = np.uint64(1)

PUBLIC = (
    "n",            # participants (seats 0 … n-1)
    "day",          # the day (0: the first night of start = night)
    "runoff",       # 0 at the first vote of a day, k in the k-th runoff
    "rules",        # the role table, variants and composition (RolesNB; public rules, never the deal)
    "alive",        # uint64 mask of living participants
    "out_how",      # per participant: How.* of its last exit (0: in the game)
    "out_day",      # per participant: the day of its last exit
    "revived",      # per participant: times the witch brought it back
    "claim_role",   # per participant: the role it claimed (CLAIM_SEER, CLAIM_MEDIUM or -1)
    "claim_res",    # claim_res[c, t]: what claimer c announced of t (1 wolf, 0 village, -1 nothing)
    "claimed",      # uint64[CLAIMS]: mask of the seer claimers, of the medium claimers
    "said",         # said[c, r]: mask of those claimer c announced as r (0 village, 1 wolf)
)
OWN = (
    "me",           # the acting participant
    "my_role",      # its role (row of rules.table)
    "know",         # its row of knowledge: -1 unknown, 0 village, 1 wolf (see ROLE_KNOWLEDGE)
    "last_mark",    # hati: its own mark of the last evening (-1: none; -1 for everyone else)
    "last_protect", # paladin: its own protected set of the last night (mask; 0 for everyone else)
    "knobs",        # its side strategy's own knob values (float64[KNOB_SLOTS]; NaN: the default)
)
MEMORY = ("mem",)   # int64[MEM]: the participant's own scratch (writable; zero at each game's start)
VIEW_FIELDS = PUBLIC + OWN + MEMORY

# What each role knows beyond the public record, and where it is in the view.
ROLE_KNOWLEDGE = {
    "everyone": ("me", "my_role", "know: itself as its own team"),
    "wolf team (wolves and the accomplice)": ("know: 1 for every wolf-team participant, 0 for the others",),
    "seer": ("know: her own readings",),
    "medium": ("know: his own results",),
    "paladin": ("last_protect",),
    "hati": ("last_mark",),
    "witch": ("her own actions are public (out_how, revived)",),
}

JUDGE = (
    "role_of",      # every participant's role
    "wolf_team",    # mask of the wolf team
    "marked",       # hati's marks of today's evening
    "protected",    # tonight's protected participants (0 before the paladin acts)
    "hati_last",    # every hati's last mark
    "pal_last",     # every paladin's last set
    "know_all",     # every participant's row of knowledge
)

# ``why``: not knowledge but the strategy's reason sink (sim.core.reasons: None in a batch
# run, a buffer in a trace), last in every view.
View = namedtuple("View", VIEW_FIELDS + ("why",), defaults=(None,))
JudgeView = namedtuple("JudgeView", VIEW_FIELDS + JUDGE + ("why",), defaults=(None,))


@nb.njit(inline="always")
def honest_view_nb(st, R, me, day, runoff, marked, protected, why):
    """The acting participant's view: the public record, its own knowledge and memory
    (``why``: the reason sink, sim.core.reasons)."""
    return View(st.role_of.shape[0], day, runoff, R, st.alive[0], readonly_nb(st.out_how),
                readonly_nb(st.out_day), readonly_nb(st.revived), readonly_nb(st.claim_role),
                readonly_nb(st.claim_res), readonly_nb(st.claimed), readonly_nb(st.said), me, st.role_of[me], readonly_nb(row_nb(st.know, me)),
                st.hati_last[me], np.uint64(st.pal_last[me]), readonly_nb(row_nb(st.knobs, (st.masks[0] >> np.uint64(me)) & U1)),
                row_nb(st.mem, me), why)


@nb.njit(inline="always")
def judge_view_nb(st, R, me, day, runoff, marked, protected, why):
    """An oracle's view: the honest fields and the judge's hidden state."""
    return JudgeView(st.role_of.shape[0], day, runoff, R, st.alive[0], readonly_nb(st.out_how),
                     readonly_nb(st.out_day), readonly_nb(st.revived), readonly_nb(st.claim_role),
                     readonly_nb(st.claim_res), readonly_nb(st.claimed), readonly_nb(st.said), me, st.role_of[me], readonly_nb(row_nb(st.know, me)),
                     st.hati_last[me], np.uint64(st.pal_last[me]),
                     readonly_nb(row_nb(st.knobs, (st.masks[0] >> np.uint64(me)) & U1)), row_nb(st.mem, me),
                     readonly_nb(st.role_of), st.masks[0], marked, protected, readonly_nb(st.hati_last),
                     readonly_nb(st.pal_last), readonly_nb(st.know), why)


@nb.njit(inline="always")
def readonly_rules_nb(R, no_knobs):
    """The rules as strategies see them: read-only, with an empty knob table of their own
    (``no_knobs``, guarded) instead of the sides' knob values."""
    return RolesNB(readonly_nb(R.table), readonly_nb(R.var), readonly_nb(R.seats), readonly_nb(no_knobs))


def view_builder(strategy):
    """The view builder of a side: the judge's for an ``oracle_…`` strategy."""
    return judge_view_nb if is_oracle(strategy) else honest_view_nb
