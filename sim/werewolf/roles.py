"""Werewolf configuration → validated role table, variants and composition arrays."""
from __future__ import annotations

import re
from collections import namedtuple
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from sim.core.config import deep_merge, load_toml, set_path, split_assignment
from sim.core.schema import ANY, TEXT, Ids, Map, check_keys
from sim.core.validate import bool_at as _bool, choice_at, int_at as _int
from sim.errors import SimInputError, did_you_mean
from sim.werewolf.enums import ABILITIES, N_RF, VOTE_RULES, RF, V

DATA = resources.files("sim.werewolf") / "data"

# knobs: float64[2, k], row 0 the village strategy's knob values, row 1 the wolves' (their
# declared order, sim.core.knobs); compile_setup leaves it empty (k = 0: every knob at its
# default) and run() fills it from the configuration's village / wolves tables.
RolesNB = namedtuple("RolesNB", "table var seats knobs")

_ROLE_KEYS = ("name", "team", "attacks", "ability", "seer_reads", "medium_reads", "madman", "drag",
              "protect_count")
_VARIANT_KEYS = ("accomplice_counts_as", "abilities_after_elimination", "max_runoffs", "start",
                 "vote_rule", "end_rule", "max_days", "lone_accomplice_attacks")
# Every key compile_setup reads (docs/werewolf.md).
CONFIG_SCHEMA = {
    "composition": {"default": TEXT},
    "variants": {k: ANY for k in _VARIANT_KEYS},
    "roles": Ids({k: ANY for k in _ROLE_KEYS}, "role"),
    # each side strategy's knobs (names checked against the strategy when it is run)
    "village": Map(),
    "wolves": Map(),
}


def load_checked(path: str | Path) -> dict:
    """A Werewolf TOML file, its keys checked against :data:`CONFIG_SCHEMA`."""
    cfg = load_toml(path)
    check_keys(cfg, CONFIG_SCHEMA, str(path))
    return cfg


def base_config() -> dict:
    """The shipped role data."""
    return load_checked(Path(str(DATA / "roles.toml")))


def build_config(config: dict | str | Path | None = None, sets: Iterable[str] = (),
                 roles: str | None = None) -> dict:
    """The role data, a user file, ``--set`` items and a composition."""
    cfg = base_config()
    if config is not None:
        cfg = deep_merge(cfg, load_checked(config) if isinstance(config, (str, Path)) else config)
    for item in sets:
        path, value = split_assignment(item)
        set_path(cfg, path, value, CONFIG_SCHEMA)
    if roles is not None:
        cfg["composition"]["default"] = roles
    return cfg


MAX_PARTICIPANTS = 63  # participants are bits of one int64 mask
_TOKEN = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\*\s*(-?\d+))?\s*$")


def parse_composition(text: str, known: Iterable[str]) -> list[str]:
    """``"werewolf*2,seer,villager*6"`` → a list of role ids, one per participant."""
    known = list(known)
    if not isinstance(text, str) or not text.strip():
        raise SimInputError("composition (--roles or [composition] default): empty")
    where = f"composition {text.strip()!r}"  # from --roles or a config's [composition]: the text says which
    out: list[str] = []
    for tok in text.split(","):
        m = _TOKEN.match(tok)
        if not m:
            raise SimInputError(f"{where}: cannot read {tok.strip()!r}; write e.g. villager*5")
        role, count = m.group(1), int(m.group(2) or 1)
        if role not in known:
            raise SimInputError(f"{where}: unknown role {role!r}{did_you_mean(role, known)}; roles are {', '.join(known)}")
        if count < 0:
            raise SimInputError(f"{where}: negative count for {role!r}: {count}")
        if len(out) + count > MAX_PARTICIPANTS:  # checked before the list is built (no MemoryError)
            raise SimInputError(f"{where}: at most {MAX_PARTICIPANTS} participants, got "
                                f"{len(out) + count:,} or more")
        out.extend([role] * count)
    return out


@dataclass
class Setup:
    """A compiled table: the configuration, role ids, seats and the kernel arrays."""
    config: dict
    role_ids: list[str]          # role table order
    seats: list[str]             # one role id per participant
    nb: Any                      # RolesNB

    @property
    def n(self) -> int:
        return len(self.seats)

    @property
    def variants(self) -> dict:
        return self.config["variants"]

    def composition(self) -> str:
        return format_composition({r: self.seats.count(r) for r in self.role_ids})


def format_composition(counts: dict[str, int]) -> str:
    """``{"werewolf": 2, "seer": 1, "medium": 0}`` → ``"werewolf*2,seer"`` (in dict order)."""
    return ",".join(r if k == 1 else f"{r}*{k}" for r, k in counts.items() if k)


def _choice(v: Any, where: str, options: Iterable[str]) -> str:
    return list(options)[choice_at(v, where, options)]


def compile_setup(cfg: dict) -> Setup:
    """Validate a configuration tree and compile it (a :class:`Setup`)."""
    check_keys(cfg, CONFIG_SCHEMA, "werewolf configuration")
    roles = cfg.get("roles")
    if not isinstance(roles, dict) or not roles:
        raise SimInputError("werewolf configuration: missing table [roles]")
    role_ids = list(roles)
    table = np.zeros((len(role_ids), N_RF), np.int64)
    for k, rid in enumerate(role_ids):
        r = roles[rid]
        w = f"roles.{rid}"
        if not isinstance(r, dict):
            raise SimInputError(f"{w}: expected a table")
        team = _choice(r.get("team"), f"{w}.team", ("village", "wolf"))
        table[k, RF.TEAM] = int(team == "wolf")
        table[k, RF.ATTACKS] = int(_bool(r.get("attacks", False), f"{w}.attacks"))
        if table[k, RF.ATTACKS] and team != "wolf":
            raise SimInputError(f"{w}: only wolf-team roles attack")
        table[k, RF.ABILITY] = ABILITIES.index(_choice(r.get("ability", "none"), f"{w}.ability", ABILITIES))
        table[k, RF.SEER_WOLF] = int(_choice(r.get("seer_reads", team), f"{w}.seer_reads", ("village", "wolf")) == "wolf")
        table[k, RF.MEDIUM_WOLF] = int(_choice(r.get("medium_reads", team), f"{w}.medium_reads", ("village", "wolf")) == "wolf")
        table[k, RF.MADMAN] = int(_bool(r.get("madman", False), f"{w}.madman"))
        table[k, RF.DRAG] = _int(r.get("drag", 0), f"{w}.drag", 0)
        table[k, RF.PROTECT] = _int(r.get("protect_count", 2 if table[k, RF.ABILITY] == 3 else 0),
                                    f"{w}.protect_count", 0)

    var = cfg.get("variants", {})
    v = np.zeros(len(V), np.int64)
    v[V.ACC_VILLAGE] = int(_choice(var.get("accomplice_counts_as", "wolf"), "variants.accomplice_counts_as",
                                   ("wolf", "village")) == "village")
    v[V.AFTER_ELIM] = int(_bool(var.get("abilities_after_elimination", False), "variants.abilities_after_elimination"))
    v[V.MAX_RUNOFFS] = _int(var.get("max_runoffs", 50), "variants.max_runoffs", 0)
    v[V.START_NIGHT] = int(_choice(var.get("start", "day"), "variants.start", ("day", "night")) == "night")
    v[V.VOTE_RULE] = VOTE_RULES.index(_choice(var.get("vote_rule", "runoff"), "variants.vote_rule", VOTE_RULES))
    v[V.END_NO_VILLAGERS] = int(_choice(var.get("end_rule", "parity"), "variants.end_rule",
                                        ("parity", "no_villagers")) == "no_villagers")
    v[V.MAX_DAYS] = _int(var.get("max_days", 200), "variants.max_days", 1)
    v[V.LONE_ACC_ATTACKS] = int(_bool(var.get("lone_accomplice_attacks", False), "variants.lone_accomplice_attacks"))

    comp = cfg.get("composition", {}).get("default")
    seats = parse_composition(comp, role_ids)
    n = len(seats)
    if n > 63:
        raise SimInputError(f"composition {comp!r}: at most {MAX_PARTICIPANTS} participants, got {n}")
    idx = np.array([role_ids.index(s) for s in seats], np.int64)
    wolves = int(table[idx, RF.ATTACKS].sum())
    if wolves == 0:
        raise SimInputError(f"--roles {comp!r}: no wolves (fenrir, hati or werewolf) — the village has already won")
    madman_village = table[idx, RF.MADMAN].astype(bool) & bool(v[V.ACC_VILLAGE])
    count_wolf = int((table[idx, RF.TEAM].astype(bool) & ~madman_village).sum())
    count_village = n - count_wolf
    if v[V.END_NO_VILLAGERS] and count_village == 0 or not v[V.END_NO_VILLAGERS] and count_village <= count_wolf:
        raise SimInputError(f"--roles {comp!r}: the wolves already win at the start "
                            f"({count_village} village vs {count_wolf} wolf team)")
    return Setup(cfg, role_ids, seats, RolesNB(table, v, idx, np.zeros((2, 0), np.float64)))


def resolve_setup(config=None, sets: Iterable[str] = (), roles: str | None = None) -> Setup:
    """Build and compile a table in one step."""
    return compile_setup(build_config(config, sets, roles))
