"""Side profiles and withheld abilities: the scenario's ``[tactics]`` and ``withhold``
applied to the character sheets before they are compiled.

* ``[tactics.<side>]`` ``profile = "focus"`` plus knob values (``target = "nearest"``, …):
  every character of the side plays the profile (:mod:`strategies.trpg.profiles`), its
  sheet's strategy fields overwritten. ``profile`` defaults to ``sheet`` (the sheets as
  written), which has no knobs. This is what a TRPG side strategy of ``sim ladder`` /
  ``sim tune`` / ``sim equilibrium`` sets (``Trpg.knob_path``: ``tactics.<side>.<knob>``).
* ``withhold = ["aoi.spirit_bullet", "ren.dodge", …]``: optional abilities the character
  never uses (restricted play, ``sim trpg loo --restrict``); it keeps its seat and side.
  The names are those of :func:`optional_abilities`: ``<id>.<ability>`` for each sheet
  ability (its name in lower case, non-alphanumerics as ``_``), ``<id>.dodge`` (reaction
  ``dodge`` / ``auto`` → ``guard``), ``<id>.guard`` (reaction ``guard`` → ``none``),
  ``<id>.cover`` (``cover`` → false) and ``<id>.monologue`` (→ ``never``). Applied after
  the profiles, so a restriction holds whatever the side's profile.
"""
from __future__ import annotations

import copy
import re
from typing import Any

from sim.errors import SimInputError, did_you_mean

RESERVED = ("dodge", "guard", "cover", "monologue")


def apply_tactics(cfg: dict) -> tuple[dict, dict[str, str]]:
    """(the tree with profiles and withheld abilities applied to the sheets, side → the
    name of its profile). The tree itself is left alone; with neither key it is returned as is."""
    tactics, withhold = cfg.get("tactics"), cfg.get("withhold")
    sides = list((cfg.get("scenario") or {}).get("sides") or [])
    profiles = {s: "sheet" for s in sides if isinstance(s, str)}
    if not tactics and not withhold:
        return cfg, profiles
    from sim.core.knobs import check_knobs
    from strategies.trpg.profiles import PROFILES

    out = copy.deepcopy(cfg)
    chars = out.get("characters") or {}
    if tactics is not None and not isinstance(tactics, dict):
        raise SimInputError(f"tactics: expected a table of sides, got {tactics!r}")
    for side, t in (tactics or {}).items():
        where = f"tactics.{side}"
        if side not in profiles:
            raise SimInputError(f"{where}: unknown side {side!r}{did_you_mean(side, profiles)}; "
                                f"sides are {', '.join(profiles)}")
        if not isinstance(t, dict):
            raise SimInputError(f"{where}: expected a table (profile = \"NAME\" and its knobs), got {t!r}")
        name = t.get("profile", "sheet")
        if not isinstance(name, str) or not name:
            raise SimInputError(f"{where}.profile: expected a profile name, got {name!r}")
        prof = PROFILES.get(name)
        values = {k: v for k, v in t.items() if k != "profile"}
        if values and not prof.knobs:
            tunable = [n for n in PROFILES.names() if PROFILES.get(n).knobs]
            raise SimInputError(f"{where}: profile {name!r} has no knobs ({', '.join(values)} given); set "
                                f"{where}.profile to one with knobs: {', '.join(tunable)}")
        values = check_knobs(prof, name, values, where)
        profiles[side] = name
        if not prof.fields and not values:
            continue
        for cid, c in chars.items():
            if isinstance(c, dict) and c.get("side") == side:
                own = c.get("strategy") if isinstance(c.get("strategy"), dict) else {}
                c["strategy"] = prof.strategy(own, values)
    if withhold:
        _withhold(out, withhold)
    return out, profiles


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", str(name).lower()).strip("_") or "ability"


def ability_names(sheet: dict) -> list[str]:
    """The restricted-play names of a sheet's abilities (in sheet order, made distinct)."""
    out: list[str] = []
    for j, a in enumerate(sheet.get("abilities") or []):
        base = _slug(a.get("name", f"ability{j}")) if isinstance(a, dict) else f"ability{j}"
        n, k = base, 2
        while n in out or n in RESERVED:
            n, k = f"{base}_{k}", k + 1
        out.append(n)
    return out


def optional_abilities(cfg: dict) -> list[tuple[str, str, str, str]]:
    """(name, character, side, what withholding it means) of every optional ability of an
    *applied* tree (profiles and withheld abilities already in the sheets), sheet order."""
    from sim.trpg.enums import STRATEGY_DEFAULTS as _STRATEGY_DEFAULTS

    out = []
    for cid, c in (cfg.get("characters") or {}).items():
        side = c.get("side", "")
        st = {**_STRATEGY_DEFAULTS, **(c.get("strategy") or {})}
        for slug, a in zip(ability_names(c), c.get("abilities") or []):
            label = a.get("name", slug) if isinstance(a, dict) else slug
            out.append((f"{cid}.{slug}", cid, side, f"{cid} never uses {label}"))
        if st["reaction"] in ("dodge", "auto"):
            out.append((f"{cid}.dodge", cid, side, f"{cid} never dodges (guards instead)"))
        if st["reaction"] == "guard":
            out.append((f"{cid}.guard", cid, side, f"{cid} never guards"))
        if st["cover"] is True:
            out.append((f"{cid}.cover", cid, side, f"{cid} never covers an ally"))
        if st["monologue"] != "never":
            out.append((f"{cid}.monologue", cid, side, f"{cid} never monologues"))
    return out


def _withhold(tree: dict, withhold: Any) -> None:
    """Apply ``withhold`` (a list of ``<id>.<ability>``) to the sheets of ``tree`` in place."""
    from sim.trpg.enums import STRATEGY_DEFAULTS as _STRATEGY_DEFAULTS

    if isinstance(withhold, str):
        withhold = [withhold]
    if not isinstance(withhold, list) or not all(isinstance(w, str) for w in withhold):
        raise SimInputError(f"withhold: expected a list of \"CHARACTER.ABILITY\" names, got {withhold!r}")
    chars = tree.get("characters") or {}
    per: dict[str, set[str]] = {}
    for w in withhold:
        cid, dot, what = w.partition(".")
        if not dot or cid not in chars or not isinstance(chars[cid], dict):
            raise SimInputError(f"withhold: {w!r}: expected CHARACTER.ABILITY with a character of the scenario"
                                f"{did_you_mean(cid, chars)}; characters are {', '.join(chars)}")
        per.setdefault(cid, set()).add(what)
    for cid, whats in per.items():
        c = chars[cid]
        have = [n for n, h, _, _ in optional_abilities({"characters": {cid: c}})]
        for what in whats:
            if f"{cid}.{what}" not in have and not (what == "guard" and "dodge" in whats
                                                    and f"{cid}.dodge" in have):
                raise SimInputError(f"withhold: {cid}.{what} is not an optional ability of {cid}"
                                    f"{did_you_mean(f'{cid}.{what}', have)}; its optional abilities: "
                                    f"{', '.join(have) or 'none'}")
        slugs = ability_names(c)
        if c.get("abilities"):
            c["abilities"] = [a for s, a in zip(slugs, c["abilities"]) if s not in whats]
        st = {**_STRATEGY_DEFAULTS, **(c.get("strategy") or {})}
        if "dodge" in whats:
            st["reaction"] = "guard"
        if "guard" in whats:
            st["reaction"] = "none"
        if "cover" in whats:
            st["cover"] = False
        if "monologue" in whats:
            st["monologue"] = "never"
        c["strategy"] = st
