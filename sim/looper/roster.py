"""Looper configuration → validated, compiled arrays for the kernels.

The configuration is the merged TOML tree (``data/base.toml``, optionally
``data/expansion.toml``, the user's file, ``--set`` overrides). :func:`compile_setup`
checks it completely — every bad id or number raises one :class:`SimInputError` naming
the path — and turns it into bitmask-friendly numpy arrays.
"""
from __future__ import annotations

import copy
from collections import namedtuple
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Iterable

import numba as nb
import numpy as np

from sim.core.config import deep_merge, load_toml, set_path, split_assignment
from sim.core.schema import ANY, LIST, Ids, ListOf, Map, check_keys
from sim.core.validate import bool_at, int_at as _int
from sim.errors import SimInputError, closest, did_you_mean
from sim.looper.enums import MAX_GUEST_DAYS, CHAR_FIELDS, KIND_NAMES, N_FIELDS, N_INFO, PRECEDENCE_NAMES, SCHEMA, F, I, Kind, M

DATA = resources.files("sim.looper") / "data"

# Every key the compiler below reads (docs/looper.md "Data format"); effect fields are the
# union over kinds (each kind's own fields are checked in _effect_row).
_EFFECT = {"kind": ANY, **{f: (LIST if f.endswith("_any") or f == "target_none" else ANY)
                           for fields in SCHEMA.values() for f in fields}}
CONFIG_SCHEMA = {
    "rules": {"max_loops": ANY, "days_per_loop": ANY, "player_moves_per_day": ANY, "permanent_moves": ANY,
              "guest_move_days": LIST, "must_name_key_person": ANY, "wrong_name_ends_game": ANY,
              # rule variants (docs/looper.md P-15 … P-18); the defaults are the seed's reading
              "stay_moves": ANY, "key_person_movable": ANY, "precedence": ANY, "negated_gains_agitation": ANY},
    "locations": Ids({"next": ANY, "name": ANY}, "location"),
    "attributes": {"names": LIST},
    # the pinned key person (P-13) and the script of the `fixed` scriptwriter (P-19)
    "setup": {"key_person": ANY, "permanent_moves": ListOf({"character": ANY, "location": ANY}),
              "guest_moves": ListOf({"day": ANY, "character": ANY, "location": ANY}), "choose": ANY},
    "protagonist": {"attributes": LIST, "location": ANY},
    # folders of `fixed` scripts (*.toml) that seed the adversarial search (issue 41;
    # `--scripts DIR`); the shipped library examples/looper/scripts always does
    "search": {"scripts": LIST},
    "characters": Ids({"name": ANY, "attributes": LIST, "location": ANY, "effects": ListOf(_EFFECT)},
                      "character"),
    # each side's strategy knobs (player.max_moves=2): any name here, checked against the
    # chosen strategy when a run starts (sim.looper.game.knob_vectors)
    "player": Map(),
    "scriptwriter": Map(),
}

# What the kernels receive: public rules of the game (nothing hidden).
RosterNB = namedtuple("RosterNB", "info home char_attrs next_loc effects masks guest_day")


def load_checked(path: str | Path) -> dict:
    """A Looper TOML file, its keys checked against :data:`CONFIG_SCHEMA`."""
    cfg = load_toml(path)
    check_keys(cfg, CONFIG_SCHEMA, str(path))
    return cfg


def base_config(expansion: bool = False) -> dict:
    """The shipped roster data (with the expansion's characters if asked)."""
    cfg = load_checked(Path(str(DATA / "base.toml")))
    if expansion:
        cfg = deep_merge(cfg, load_checked(Path(str(DATA / "expansion.toml"))))
    return cfg


def _expand_short_path(cfg: dict, path: str) -> str:
    """Designer shorthands: ``cat.amount`` → ``characters.cat.effects.0.amount``."""
    parts = path.split(".")
    chars = cfg.get("characters", {})
    if parts[0] in chars and parts[0] not in cfg:
        parts = ["characters", *parts]
    if len(parts) == 3 and parts[0] == "characters" and parts[1] in chars:
        ch = chars[parts[1]]
        if parts[2] not in ch:
            hits = [i for i, e in enumerate(ch.get("effects", [])) if parts[2] in e]
            if len(hits) == 1:
                parts = ["characters", parts[1], "effects", str(hits[0]), parts[2]]
            elif len(hits) > 1:
                raise SimInputError(
                    f"{path!r} is ambiguous: {parts[1]} has several effects with {parts[2]!r}; "
                    f"use characters.{parts[1]}.effects.N.{parts[2]}"
                )
            else:  # a typo of one of its keys or its effects' keys: name the closest, as written
                keys = {k for k in ch if k != "effects"} | {k for e in ch.get("effects", []) for k in e}
                hit = closest(parts[2], sorted(keys))
                if hit:
                    fixed = f"{path.rsplit('.', 1)[0]}.{hit}"
                    raise SimInputError(f"unknown parameter path {path!r} (did you mean {fixed!r}?)")
    return ".".join(parts)


def build_config(
    config: dict | str | Path | None = None,
    sets: Iterable[str] = (),
    *,
    expansion: bool = False,
    protagonist: Iterable[str] | None = None,
) -> dict:
    """The merged configuration tree for a run."""
    cfg = base_config(expansion)
    if config is not None:
        user = load_checked(config) if isinstance(config, (str, Path)) else config
        cfg = deep_merge(cfg, user)
    if protagonist is not None:
        cfg["protagonist"]["attributes"] = list(protagonist)
    for item in sets:
        path, value = split_assignment(item)
        set_path(cfg, _expand_short_path(cfg, path), value, CONFIG_SCHEMA)
    return cfg


@dataclass
class Setup:
    """A compiled Looper configuration."""

    config: dict
    ids: list[str]
    loc_ids: list[str]
    attr_names: list[str]
    nb: Any = field(repr=False)  # RosterNB
    fixed_key: int = 0  # [setup].key_person as an index; 0 = the scriptwriter strategy chooses
    # the `fixed` scriptwriter's script (P-19): one setup row (key, perm moves, guest moves;
    # -1 marks a move slot the script leaves unused) and its victim choice (0 random, 1 first)
    script: Any = field(default=None, repr=False)
    script_choose: int = 0

    @property
    def n_chars(self) -> int:
        return len(self.ids)

    @property
    def n_loc(self) -> int:
        return len(self.loc_ids)

    @property
    def rules(self) -> dict:
        return self.config["rules"]

    def index(self, char_id: str) -> int:
        try:
            return self.ids.index(char_id)
        except ValueError:
            raise SimInputError(f"unknown character {char_id!r}") from None

    def loc_index(self, loc_id: str) -> int:
        try:
            return self.loc_ids.index(loc_id)
        except ValueError:
            raise SimInputError(
                f"unknown location {loc_id!r}; locations are {', '.join(self.loc_ids)}"
            ) from None

    def effect_owner(self, e: int) -> str:
        return self.ids[int(self.nb.effects[e, F.ACTOR])]

    def effect_kind(self, e: int) -> str:
        return KIND_NAMES[int(self.nb.effects[e, F.KIND])]

    def with_protagonist(self, attributes: Iterable[str], location: str | None = None) -> "Setup":
        cfg = copy.deepcopy(self.config)
        cfg["protagonist"]["attributes"] = list(attributes)
        if location is not None:
            cfg["protagonist"]["location"] = location
        return compile_setup(cfg)


def _str_list(v: Any, where: str) -> list[str]:
    if isinstance(v, str):
        v = [v] if v else []
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise SimInputError(f"{where}: expected a list of names, got {v!r}")
    return v


def compile_setup(cfg: dict) -> Setup:
    """Validate a configuration tree and compile it into kernel arrays (a :class:`Setup`)."""
    try:
        return _compile(cfg)
    except SimInputError:
        raise
    except (KeyError, TypeError, AttributeError) as e:  # a table missing or of the wrong shape
        raise SimInputError(f"looper configuration: missing or malformed entry {e}") from None


def _compile(cfg: dict) -> Setup:
    check_keys(cfg, CONFIG_SCHEMA, "looper configuration")
    for sec in ("rules", "locations", "attributes", "protagonist", "characters"):
        if not isinstance(cfg.get(sec), dict):
            raise SimInputError(f"looper configuration: missing table [{sec}]")
    rules = cfg["rules"]
    locs = cfg["locations"]
    loc_ids = list(locs)
    if len(loc_ids) < 1:
        raise SimInputError("[locations]: at least one location is needed")

    def loc(name: Any, where: str) -> int:
        if name not in locs:
            raise SimInputError(f"{where}: unknown location {name!r}; locations are {', '.join(loc_ids)}")
        return loc_ids.index(name)

    next_loc = np.array([loc(locs[l].get("next"), f"locations.{l}.next") for l in loc_ids], np.int64)

    attr_names = _str_list(cfg["attributes"].get("names"), "attributes.names")
    if len(set(attr_names)) != len(attr_names) or len(attr_names) > 63:
        raise SimInputError("attributes.names: names must be distinct (at most 63)")

    def amask(names: Any, where: str) -> int:
        m = 0
        for a in _str_list(names, where):
            if a not in attr_names:
                raise SimInputError(f"{where}: unknown attribute {a!r}; attributes are {', '.join(attr_names)}")
            m |= 1 << attr_names.index(a)
        return m

    chars = cfg["characters"]
    ids = ["protagonist", *chars]
    if "protagonist" in chars:
        raise SimInputError("characters.protagonist: the protagonist is made in [protagonist]")
    n = len(ids)
    if n > 64:
        raise SimInputError(f"[characters]: at most 63 table characters, got {n - 1}")
    if n < 2:
        raise SimInputError("[characters]: at least one table character is needed")

    def char(name: Any, where: str) -> int:
        if name not in ids:
            raise SimInputError(f"{where}: unknown character {name!r}")
        return ids.index(name)

    prot = cfg["protagonist"]
    home = np.zeros(n, np.int64)
    char_attrs = np.zeros(n, np.uint64)
    home[0] = loc(prot.get("location"), "protagonist.location")
    char_attrs[0] = amask(prot.get("attributes", []), "protagonist.attributes")

    rows: list[list[int]] = []
    for i, cid in enumerate(ids[1:], start=1):
        ch = chars[cid]
        where = f"characters.{cid}"
        if not isinstance(ch, dict):
            raise SimInputError(f"{where}: expected a table")
        home[i] = loc(ch.get("location"), f"{where}.location")
        char_attrs[i] = amask(ch.get("attributes", []), f"{where}.attributes")
        effects = ch.get("effects", [])
        if not isinstance(effects, list):
            raise SimInputError(f"{where}.effects: expected a list of tables")
        for j, eff in enumerate(effects):
            rows.append(_effect_row(i, eff, f"{where}.effects.{j}", loc, amask, char))

    eff = np.array(rows, np.int64).reshape(-1, N_FIELDS)
    # The bully rule's fallback victim is the character that declares itself its substitute.
    for r in range(len(eff)):
        if eff[r, F.KIND] == Kind.BULLY:
            for s in range(len(eff)):
                if (eff[s, F.KIND] == Kind.SUBSTITUTE_VICTIM and eff[s, F.CHAR1] == eff[r, F.ACTOR]
                        and eff[s, F.CHAR2] == eff[r, F.CHAR1]):
                    eff[r, F.CHAR2] = eff[s, F.ACTOR]

    max_loops = _int(rules.get("max_loops"), "rules.max_loops", 1)
    days = _int(rules.get("days_per_loop"), "rules.days_per_loop", 1)
    moves = _int(rules.get("player_moves_per_day"), "rules.player_moves_per_day", 0)
    n_perm = _int(rules.get("permanent_moves"), "rules.permanent_moves", 0)
    if n_perm > n - 1:
        raise SimInputError(f"rules.permanent_moves: {n_perm} distinct characters needed, only {n - 1} exist")
    if not bool_at(rules.get("key_person_movable", True), "rules.key_person_movable") and n_perm > n - 2:
        raise SimInputError(f"rules.permanent_moves: {n_perm} distinct characters besides the key person "
                            f"needed (rules.key_person_movable = false), only {n - 2} exist")
    if not bool_at(rules.get("stay_moves", True), "rules.stay_moves") and n_perm > 0 and len(loc_ids) < 2:
        raise SimInputError("rules.stay_moves = false: a permanent move must change its location, "
                            "but there is only one location")
    gdays = rules.get("guest_move_days", [])
    if not isinstance(gdays, list):
        raise SimInputError("rules.guest_move_days: expected a list of days")
    if len(gdays) > MAX_GUEST_DAYS:
        # the players' belief keeps each guest move in a fixed scratch slot (strategies/looper/common.py)
        raise SimInputError(f"rules.guest_move_days: {len(gdays)} days given, at most {MAX_GUEST_DAYS} "
                            "(the players' scratch holds that many guest moves)")
    guest_day = np.full(days + 1, -1, np.int64)
    for k, d in enumerate(gdays):
        _int(d, f"rules.guest_move_days.{k}", 1)
        if d > days:
            raise SimInputError(f"rules.guest_move_days: day {d} is after the last day {days}")
        if guest_day[d] >= 0:
            raise SimInputError(f"rules.guest_move_days: day {d} given twice")
        guest_day[d] = k
    must_name = bool_at(rules.get("must_name_key_person", False), "rules.must_name_key_person")
    stay = bool_at(rules.get("stay_moves", True), "rules.stay_moves")
    key_movable = bool_at(rules.get("key_person_movable", True), "rules.key_person_movable")
    prec = rules.get("precedence", "scriptwriter")
    if prec not in PRECEDENCE_NAMES:
        raise SimInputError(f"rules.precedence: unknown value {prec!r}{_closest(prec, PRECEDENCE_NAMES)}; "
                            f"values are {', '.join(PRECEDENCE_NAMES)}")
    neg_agit = bool_at(rules.get("negated_gains_agitation", False), "rules.negated_gains_agitation")

    info = np.zeros(N_INFO, np.int64)
    info[I.N_CHARS] = n
    info[I.N_LOC] = len(loc_ids)
    info[I.MAX_LOOPS] = max_loops
    info[I.DAYS] = days
    info[I.MOVES] = moves
    info[I.N_PERM] = n_perm
    info[I.N_GUEST] = len(gdays)
    info[I.MUST_NAME] = int(must_name)
    info[I.HAS_GRANT] = int(np.any(eff[:, F.KIND] == Kind.GRANT_ATTR)) if len(eff) else 0
    info[I.PROTAGONIST] = 0
    info[I.STAY_MOVES] = int(stay)
    info[I.KEY_MOVABLE] = int(key_movable)
    info[I.PRECEDENCE] = PRECEDENCE_NAMES.index(prec)
    info[I.NEG_AGITATION] = int(neg_agit)
    masks = np.zeros((len(eff), 3), np.uint64)
    effect_masks_nb(eff, char_attrs, masks)
    rnb = RosterNB(info, home, char_attrs, next_loc, eff, masks, guest_day)
    fixed_key = _fixed_key(cfg.get("setup", {}), ids)
    script, script_choose = _script(cfg.get("setup", {}), ids, loc_ids, home, fixed_key, n_perm, gdays,
                                    stay, key_movable)
    return Setup(config=cfg, ids=ids, loc_ids=loc_ids, attr_names=attr_names, nb=rnb,
                 fixed_key=fixed_key, script=script, script_choose=script_choose)


def _closest(name: Any, names: Iterable[str]) -> str:
    # a looser cutoff than elsewhere: character ids are long snake_case names
    return did_you_mean(name, names, cutoff=0.5)


SCRIPT_CHOOSE = ("random", "first", "adversarial")  # adversarial: the key person, else the protagonist


def _script(setup: dict, ids: list[str], loc_ids: list[str], home: np.ndarray, fixed_key: int, n_perm: int,
            gdays: list, stay: bool, key_movable: bool) -> tuple[np.ndarray, int]:
    """The `fixed` scriptwriter's script from ``[setup]`` (P-19), checked against the rules:
    known names (an unknown one is one error naming the closest), at most
    ``rules.permanent_moves`` permanent moves of distinct characters, guest moves only on the
    rules' guest-move days (one a day), and the variants P-15 / P-16. A move slot the script
    leaves unused is -1 (that move is not made). The row's key person is ``fixed_key`` (0
    when [setup].key_person is empty: the `fixed` scriptwriter then refuses to play)."""
    chars, where = ids[1:], "setup"

    def char(v: Any, w: str) -> int:
        if not isinstance(v, str) or v not in chars:
            raise SimInputError(f"{w}: unknown character {v!r}{_closest(v, chars)}")
        return ids.index(v)

    def loc(v: Any, w: str) -> int:
        if not isinstance(v, str) or v not in loc_ids:
            raise SimInputError(f"{w}: unknown location {v!r}{_closest(v, loc_ids)}; "
                                f"locations are {', '.join(loc_ids)}")
        return loc_ids.index(v)

    perm = setup.get("permanent_moves", [])
    guest = setup.get("guest_moves", [])
    for k, v in (("permanent_moves", perm), ("guest_moves", guest)):
        if not isinstance(v, list) or not all(isinstance(x, dict) for x in v):
            raise SimInputError(f"{where}.{k}: expected a list of tables")
    choose = setup.get("choose", "random")
    if choose not in SCRIPT_CHOOSE:
        raise SimInputError(f"{where}.choose: unknown value {choose!r}{_closest(choose, SCRIPT_CHOOSE)}; "
                            f"values are {', '.join(SCRIPT_CHOOSE)}")
    if len(perm) > n_perm:
        raise SimInputError(f"{where}.permanent_moves: {len(perm)} moves, the rules allow "
                            f"{n_perm} (rules.permanent_moves)")
    row = np.full(1 + 2 * n_perm + 2 * len(gdays), -1, np.int64)
    row[0] = fixed_key
    seen: set[int] = set()
    for j, m in enumerate(perm):
        w = f"{where}.permanent_moves.{j}"
        for f in m:
            if f not in ("character", "location"):
                raise SimInputError(f"{w}: unknown key {f!r}; a permanent move has character, location")
        c, l = char(m.get("character"), f"{w}.character"), loc(m.get("location"), f"{w}.location")
        if c in seen:
            raise SimInputError(f"{w}: {ids[c]} is moved twice; permanent moves need distinct characters")
        seen.add(c)
        if not stay and l == home[c]:
            raise SimInputError(f"{w}: {ids[c]} already stands in {loc_ids[l]}; under rules.stay_moves = false "
                                f"a permanent move must change its location (P-15)")
        if not key_movable and c == fixed_key:
            raise SimInputError(f"{w}: {ids[c]} is the key person; under rules.key_person_movable = false the "
                                f"scriptwriter may not move it (P-16)")
        row[1 + 2 * j], row[2 + 2 * j] = c, l
    g0 = 1 + 2 * n_perm
    days_seen: set[int] = set()
    for j, m in enumerate(guest):
        w = f"{where}.guest_moves.{j}"
        for f in m:
            if f not in ("day", "character", "location"):
                raise SimInputError(f"{w}: unknown key {f!r}; a guest move has day, character, location")
        d = _int(m.get("day"), f"{w}.day", 1)
        if d not in gdays:
            raise SimInputError(f"{w}.day: day {d} has no guest move; the guest-move days are "
                                f"{', '.join(map(str, gdays)) or 'none'} (rules.guest_move_days)")
        if d in days_seen:
            raise SimInputError(f"{w}.day: two guest moves on day {d} (one a day)")
        days_seen.add(d)
        c, l = char(m.get("character"), f"{w}.character"), loc(m.get("location"), f"{w}.location")
        if not key_movable and c == fixed_key:
            raise SimInputError(f"{w}: {ids[c]} is the key person; under rules.key_person_movable = false the "
                                f"scriptwriter may not move it (P-16)")
        k = gdays.index(d)
        row[g0 + 2 * k], row[g0 + 2 * k + 1] = c, l
    return row, SCRIPT_CHOOSE.index(choose)


def _fixed_key(setup: Any, ids: list[str]) -> int:
    """[setup].key_person: pin the secret key person (P-13); "" leaves it to the strategy."""
    if not isinstance(setup, dict):
        raise SimInputError("[setup]: expected a table")
    kp = setup.get("key_person", "")
    if kp == "":
        return 0
    if not isinstance(kp, str) or kp not in ids[1:]:
        raise SimInputError(f"setup.key_person: {kp!r} is not a table character (R-3); "
                            f"characters are {', '.join(ids[1:])}")
    return ids.index(kp)


def _effect_row(actor: int, eff: Any, where: str, loc, amask, char) -> list[int]:
    if not isinstance(eff, dict) or "kind" not in eff:
        raise SimInputError(f"{where}: an effect is a table with a `kind`")
    kind = eff["kind"]
    if kind not in SCHEMA:
        raise SimInputError(f"{where}.kind: unknown effect kind {kind!r}; kinds are {', '.join(KIND_NAMES)}")
    schema = SCHEMA[kind]
    unknown = set(eff) - set(schema) - {"kind"}
    if unknown:
        raise SimInputError(f"{where}: {kind} takes no {', '.join(sorted(unknown))} (it takes {', '.join(schema) or 'nothing'})")
    vals = {}
    for k, default in schema.items():
        if k in eff:
            vals[k] = eff[k]
        elif default is None:
            raise SimInputError(f"{where}: {kind} needs {k!r}")
        else:
            vals[k] = default
    row = [0] * N_FIELDS
    row[F.ACTOR] = actor
    row[F.KIND] = KIND_NAMES.index(kind)
    row[F.LOCATION] = -1
    row[F.CHAR1] = row[F.CHAR2] = -1
    for k, v in vals.items():
        w = f"{where}.{k}"
        if k == "amount":
            row[F.AMOUNT] = _int(v, w)
        elif k == "threshold":
            row[F.THRESHOLD] = _int(v, w)
        elif k == "include_self":
            row[F.INCLUDE_SELF] = int(bool_at(v, w))
        elif k == "location":
            row[F.LOCATION] = -1 if v == "" else loc(v, w)
        elif k in CHAR_FIELDS:  # a character id: CHAR2 for instead_of, CHAR1 for the others
            row[F.CHAR2 if k == "instead_of" else F.CHAR1] = char(v, w)
        elif k in ("target_any", "victim_any"):
            row[F.ATTR_A] = amask(v, w)
        elif k == "target_none":
            row[F.ATTR_NONE] = amask(v, w)
        elif k in ("partner_any", "everyone"):
            row[F.ATTR_B] = amask(v, w)
        elif k == "attr":
            row[F.ATTR] = amask(v, w)
    return row


@nb.njit(cache=True)
def effect_masks_nb(effects, char_attrs, out):
    """Per effect, the characters its attribute filters select (A: any-of, NONE, B).

    An empty any-of filter selects everyone; NONE selects characters to exclude.
    """
    n = char_attrs.shape[0]
    full = np.uint64(0)
    for i in range(n):
        full |= np.uint64(1) << np.uint64(i)
    for e in range(effects.shape[0]):
        a = np.uint64(effects[e, F.ATTR_A])
        no = np.uint64(effects[e, F.ATTR_NONE])
        b = np.uint64(effects[e, F.ATTR_B])
        ma = full if a == 0 else np.uint64(0)
        mn = np.uint64(0)
        mb = full if b == 0 else np.uint64(0)
        for i in range(n):
            ca = char_attrs[i]
            bi = np.uint64(1) << np.uint64(i)
            if ca & a:
                ma |= bi
            if ca & no:
                mn |= bi
            if ca & b:
                mb |= bi
        out[e, M.A] = ma
        out[e, M.NONE] = mn
        out[e, M.B] = mb
