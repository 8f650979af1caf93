"""Looper tables drawn at random for ``sim looper competence`` (issue 40): the base roster
or the expansion's, a protagonist of one or two attributes at a random location, and each
rule variant where the seed is silent (P-15 … P-18) and R-2's naming drawn too."""
from __future__ import annotations

ATTRIBUTES = ("male", "female", "strong", "weak", "loud", "occult", "child")
LOCATIONS = ("park", "school", "suburb", "ruins", "underworld")
PRECEDENCE = ("scriptwriter", "player_for_key_person", "player")


def draw_roster(rng) -> tuple[str, dict]:
    """(description, build options) of one Looper table."""
    attrs = sorted(str(a) for a in rng.choice(ATTRIBUTES, size=int(rng.integers(1, 3)), replace=False))
    where = str(rng.choice(LOCATIONS))
    expansion = bool(rng.random() < 0.5)
    flags = {"stay_moves": rng.random() < 0.5, "key_person_movable": rng.random() < 0.5,
             "negated_gains_agitation": rng.random() < 0.5, "must_name_key_person": rng.random() < 0.5}
    sets = [f"rules.{k}={str(bool(v)).lower()}" for k, v in flags.items()]
    sets.append(f'rules.precedence="{rng.choice(PRECEDENCE)}"')
    words = [("expansion" if expansion else "base roster"), f"protagonist {'+'.join(attrs)} at {where}",
             *[s.split(".", 1)[1] for s in sets]]
    return ", ".join(words), {"sets": sets, "protagonist": ",".join(attrs), "protagonist_location": where,
                              "expansion": expansion}
