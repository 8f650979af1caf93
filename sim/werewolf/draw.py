"""Werewolf tables drawn at random for ``sim werewolf competence`` (issue 40): 7–14 seats
from the seed's roles, the seed's rule variants (R-2 the accomplice's side, R-3 the
first phase, R-6 abilities after elimination) each drawn too."""
from __future__ import annotations

SPECIALS = ("seer", "medium", "paladin", "witch")   # the village's roles with an ability
BIG_WOLVES = ("fenrir", "hati")                    # at most one of each; the rest are werewolves


def draw_table(rng) -> tuple[str, list[str]]:
    """(composition as --roles reads it, the --set items of the variants)."""
    n = int(rng.integers(7, 15))
    attackers = 1 if n <= 8 else int(rng.integers(1, 3)) if n <= 11 else int(rng.integers(2, 4))
    wolves = [r for r in BIG_WOLVES if rng.random() < 0.5][:attackers]
    wolves += ["werewolf"] * (attackers - len(wolves))
    if n >= 8 and rng.random() < 0.5:
        wolves.append("accomplice")
    village = [r for r in SPECIALS if rng.random() < 0.75]
    village += ["villager"] * (n - len(wolves) - len(village))
    sets = [f'variants.accomplice_counts_as="{rng.choice(["wolf", "village"])}"',
            f'variants.start="{rng.choice(["day", "night"])}"',
            f"variants.abilities_after_elimination={str(bool(rng.random() < 0.5)).lower()}"]
    seats = wolves + village
    roles = [r if seats.count(r) == 1 else f"{r}*{seats.count(r)}" for r in dict.fromkeys(seats)]
    return ",".join(roles), sets
