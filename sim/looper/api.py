"""Thin Python API over the Looper kernels (what designers and tests call)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterable, Mapping, Sequence

import numpy as np

from sim.core.kernels import stamped
from sim.errors import SimInputError
from sim.looper import day_nb as _nb
from sim.looper.roster import Setup, build_config, compile_setup


@dataclass(frozen=True)
class DayResult:
    """What one resolved day gives: stress, positions, deaths and who killed them."""
    stress: dict[str, int]          # after the stress phase, every living character
    positions: dict[str, str]       # after the movement phase
    deaths: dict[str, str]          # dead id -> announced location
    killed_by: dict[str, str]       # dead id -> id of the character whose rule killed it


@lru_cache(maxsize=4)
def default_setup(expansion: bool = False) -> Setup:
    """The compiled default roster (base, or with the expansion)."""
    return compile_setup(build_config(expansion=expansion))


@lru_cache(maxsize=1)
def _kernels() -> dict:
    return {name: stamped(getattr(_nb, name)) for name in ("day_buffers_nb", "day_start_nb", "day_finish_nb")}


def _mask_ids(roster: Setup, mask: int) -> list[str]:
    return [roster.ids[i] for i in range(roster.n_chars) if (mask >> i) & 1]


def resolve_day(
    layout: Mapping[str, str],
    *,
    protagonist: Iterable[str] = frozenset(),
    choose: Callable[[str, Sequence[str]], str] | None = None,
    roster: Setup | None = None,
) -> DayResult:
    """Resolve one day (R-7) for ``layout`` (living id -> location id).

    Characters absent from ``layout`` are dead. ``choose(actor_id, candidate_ids)``
    picks the victim of a "one character dies" rule; by default the first candidate in
    roster order.
    """
    roster = roster or default_setup()
    prot = frozenset(protagonist)
    if "protagonist" in layout or prot:
        roster = roster.with_protagonist(sorted(prot, key=roster.attr_names.index)
                                         if prot <= set(roster.attr_names) else sorted(prot),
                                         layout.get("protagonist"))
    n = roster.n_chars
    pos = np.zeros(n, np.int64)
    alive = 0
    for cid, loc in layout.items():
        i = roster.index(cid)
        pos[i] = roster.loc_index(loc)
        alive |= 1 << i
    R = roster.nb
    B = _kernels()["day_buffers_nb"](R)
    alive_u = np.uint64(alive)
    nreq = _kernels()["day_start_nb"](pos, alive_u, R, B, None)
    for r in range(nreq):
        cands = _mask_ids(roster, int(B.req_cand[r]))
        actor = roster.ids[int(B.req_actor[r])]
        pick = cands[0] if choose is None else choose(actor, cands)
        if pick not in cands:
            raise SimInputError(f"choose({actor!r}, {cands}) returned {pick!r}, not a candidate")
        B.req_victim[r] = roster.index(pick)
    dead = int(_kernels()["day_finish_nb"](pos, alive_u, nreq, R, B, None))
    alive_ids = _mask_ids(roster, alive)
    return DayResult(
        stress={c: int(B.stress[roster.index(c)]) for c in alive_ids},
        positions={c: roster.loc_ids[int(B.pos2[roster.index(c)])] for c in alive_ids},
        deaths={c: roster.loc_ids[int(B.ann[roster.index(c)])] for c in _mask_ids(roster, dead)},
        killed_by={c: roster.effect_owner(int(B.killer[roster.index(c)])) for c in _mask_ids(roster, dead)},
    )
