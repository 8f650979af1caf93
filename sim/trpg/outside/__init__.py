"""Outside combat: growth, labour and sleep (docs/rules/trpg.md, "Outside combat"; R-14).

**Growth** (【成長判定】). A character has 16 skill values in four groups of four — physical,
sense, intellect, mind — in sheet order. One growth roll: a 1d6 picks the group (1
physical, 2 sense, 3 intellect, 4 mind, 5–6 a group of the player's choice); a second 1d6
picks the skill of that group left to right (1–4), 5–6 a skill of the player's choice in
that group. The skill rises by ``amount`` (R-14: 1). The player's choice is a policy:

* ``lowest`` (default): the lowest skill of the allowed set, ties to the leftmost. A free
  group choice (5–6 on the first die) takes the group holding the lowest of all 16 skills
  (ties: the leftmost such skill), so a free choice on both dice raises the global lowest.
* ``highest``: the same with the highest skill.
* ``random``: uniformly random group / skill (then every roll raises a uniformly random
  one of the 16 skills).

:func:`growth_distribution` is exact (a Markov chain over the 36 outcomes of the two dice,
integer weights, Fractions at the end); :func:`growth_mc` is the numba Monte Carlo.

**Labour** (【ＣＲ】): one exploration slot; a job check (3d6 vs the job skill, R-1
criticals and fumbles); 2d6 CR gained either way; on a failure also 1d6 MP lost.

**Sleep** (【探索パート】): more than 18 h awake adds +1 to every roll per full extra hour;
6 h of sleep (in the day) clears it; every full 3 h of sleep restores 1d6 MP (never above
the maximum).
"""
from __future__ import annotations

from sim.trpg.outside.common import *  # noqa: F401,F403
from sim.trpg.outside.growth import *  # noqa: F401,F403
from sim.trpg.outside.labour import *  # noqa: F401,F403
from sim.trpg.outside.sleep import *  # noqa: F401,F403
