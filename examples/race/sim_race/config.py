"""The race configuration: the package's data (``data/race.toml``), the user's file, ``--set``;
compiled and checked into a :class:`Setup` (the kernel's int64 rules vector)."""
from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from sim.core.config import deep_merge, load_toml, set_path, split_assignment
from sim.core.schema import ANY, check_keys
from sim.core.validate import int_at
from sim.errors import SimInputError
from sim_race.enums import N_R, R, SIDES
from sim_race.strategies import K_MAX, K_MIN

DATA = Path(__file__).resolve().parent / "data" / "race.toml"
MAX_TARGET = 10_000  # keeps a game's length (and the turns table) bounded for cautious play
MAX_FACES = 1_000

# Every key a configuration may hold; --set and sweep axes may reach each of them.
CONFIG_SCHEMA = {
    "rules": {"target": ANY, "head_start": ANY, "faces": ANY, "bust_face": ANY},
    "p1": {"k": ANY},
    "p2": {"k": ANY},
}


@dataclass(frozen=True)
class Setup:
    config: dict          # the tree it was compiled from (manifests)
    nb: np.ndarray        # int64[N_R], slots sim_race.enums.R

    @property
    def target(self) -> int:
        return int(self.nb[R.TARGET])

    @property
    def head_start(self) -> int:
        return int(self.nb[R.HEAD_START])

    @property
    def faces(self) -> int:
        return int(self.nb[R.FACES])

    @property
    def bust_face(self) -> int:
        return int(self.nb[R.BUST_FACE])

    def k(self, side: str) -> int:
        return int(self.nb[R.K1 if side == "p1" else R.K2])


def build_config(config: Path | str | dict | None = None, sets: Sequence[str] = ()) -> dict:
    """The data, ``config`` (a TOML file or a dict) merged over it, then ``--set`` items."""
    tree = load_toml(DATA)
    if config is not None:
        where = str(config) if isinstance(config, (str, Path)) else "--config"
        extra = load_toml(config) if isinstance(config, (str, Path)) else copy.deepcopy(config)
        check_keys(extra, CONFIG_SCHEMA, where)
        tree = deep_merge(tree, extra)
    for item in sets:
        path, value = split_assignment(item)
        set_path(tree, path, value, schema=CONFIG_SCHEMA)
    return tree


def compile_setup(tree: dict) -> Setup:
    """Check every value (one SimInputError naming its path) and pack the rules vector."""
    check_keys(tree, CONFIG_SCHEMA, "race configuration")
    rules = _table(tree, "rules")
    target = int_at(rules.get("target"), "rules.target", 1, MAX_TARGET)
    head = int_at(rules.get("head_start"), "rules.head_start", 0)
    if head >= target:
        raise SimInputError(f"rules.head_start: must be below rules.target ({target}), got {head}; "
                            f"player 2 would have won before the first turn")
    faces = int_at(rules.get("faces"), "rules.faces", 2, MAX_FACES)
    bust = int_at(rules.get("bust_face"), "rules.bust_face", 1, faces)
    ks = [int_at(_table(tree, s).get("k"), f"{s}.k", K_MIN, K_MAX) for s in SIDES]
    v = np.zeros(N_R, np.int64)
    v[R.TARGET], v[R.HEAD_START], v[R.FACES], v[R.BUST_FACE] = target, head, faces, bust
    v[R.K1], v[R.K2] = ks
    return Setup(copy.deepcopy(tree), v)


def _table(tree: dict, key: str) -> dict[str, Any]:
    t = tree.get(key)
    if not isinstance(t, dict):
        raise SimInputError(f"{key}: expected a table, got {t!r}")
    return t

