"""TRPG skirmishes drawn at random for ``sim trpg competence`` (issue 40): one or two
characters a side from the shipped builds, each with a weapon, items and (half of them) an
ability from the shipped scenarios' sheets, at random positions, a random side first."""
from __future__ import annotations

import copy
from pathlib import Path

from sim.core.config import load_toml
from sim.trpg.sheets import DATA, build_config, system_config, tomls

SIDES = ("players", "kaii")


def _shipped_abilities() -> list[dict]:
    out = []
    for _, f in sorted(tomls(Path(str(DATA / "scenarios"))).items()):
        for c in (load_toml(f).get("characters") or {}).values():
            out += [a for a in c.get("abilities") or [] if isinstance(a, dict)]
    return out


def draw_skirmish(rng) -> tuple[str, dict]:
    """(description, the configuration tree) of one skirmish."""
    system = system_config()
    builds = load_toml(Path(str(DATA / "builds.toml")))["builds"]
    weapons = sorted(w for w in system["weapons"] if w != "fists")
    abilities = _shipped_abilities()
    chars, words = {}, []
    for side in SIDES:
        for k in range(int(rng.integers(1, 3))):
            name = str(rng.choice(sorted(builds)))
            c = copy.deepcopy(builds[name])
            c.update(side=side, position=int(rng.integers(0, 6)), mp=int(rng.integers(4, 13)),
                     sp=int(rng.integers(4, 13)))
            if rng.random() < 0.5:
                c["weapons"] = [*dict.fromkeys([*c.get("weapons", []), str(rng.choice(weapons))])]
            items = {i: n for i, n in (("first_aid", int(rng.integers(0, 3))), ("tonic", int(rng.integers(0, 2))),
                                        ("charm", int(rng.integers(0, 2)))) if n}
            if items:
                c["items"] = items
            if rng.random() < 0.5:
                c["abilities"] = [copy.deepcopy(abilities[int(rng.integers(len(abilities)))])]
            cid = f"{side[0]}{k + 1}_{name}"
            chars[cid] = c
            words.append(f"{cid}@{c['position']}")
    first = str(rng.choice(SIDES))
    tree = {"scenario": {"name": "drawn", "sides": list(SIDES), "first": first}, "characters": chars}
    return f"{' '.join(words)}; {first} first", build_config(tree)
