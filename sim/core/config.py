"""TOML configuration: loading with clear errors, layering and ``--set PATH=VALUE``.

A game's configuration is one nested dict (its data files merged, then the user's
file, then ``--set`` overrides). Paths are dotted; list items are addressed by index
(``characters.cat.effects.0.amount``).
"""
from __future__ import annotations

import copy
import hashlib
import json
import tomllib
from pathlib import Path
from typing import Any

from sim.core.schema import ANY, LIST, TEXT, Ids, ListOf, Map, hint
from sim.errors import SimInputError, closest


def load_toml(path: str | Path) -> dict[str, Any]:
    """A TOML file as a dict; a missing file, a directory or malformed TOML is one SimInputError."""
    p = Path(path)
    if p.is_dir():
        raise SimInputError(f"{p}: is a directory; expected a TOML file")
    if not p.is_file():
        raise SimInputError(f"{p}: no such file")
    try:
        # utf-8-sig: a byte-order mark (Windows editors write one) is not part of the TOML
        return tomllib.loads(p.read_text(encoding="utf-8-sig"))
    except tomllib.TOMLDecodeError as e:
        raise SimInputError(f"{p}: malformed TOML: {e}") from None
    except UnicodeDecodeError:
        raise SimInputError(f"{p}: not a UTF-8 text file") from None


def deep_merge(base: dict, over: dict) -> dict:
    """A copy of ``base`` with ``over`` merged in (tables merge, everything else replaces)."""
    out = copy.deepcopy(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = deep_merge(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out


def _literal(text: str) -> Any:
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def parse_value(text: str) -> Any:
    """A ``--set`` value: a TOML literal if it is one (``3``, ``true``, ``[1, 2]``), a comma
    list whose items are literals or bare strings (``1,2,3`` → ``[1, 2, 3]``, ``male,loud``),
    else a bare string."""
    text = text.strip()
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        pass
    if text == "":
        return []
    if "," in text:
        return [_literal(t.strip()) for t in text.split(",") if t.strip()]
    return text


def split_assignment(item: str) -> tuple[str, Any]:
    """``PATH=VALUE`` → (path, parsed value)."""
    if "=" not in item:
        raise SimInputError(f"--set {item!r}: expected PATH=VALUE")
    path, value = item.split("=", 1)
    path = path.strip()
    if not path:
        raise SimInputError(f"--set {item!r}: empty path")
    return path, parse_value(value)


def set_path(cfg: dict, path: str, value: Any, schema: Any = None) -> None:
    """Set ``cfg[path] = value``.

    With a ``schema`` (:mod:`sim.core.schema`) any documented key may be set, also one the
    data leaves at its default (missing tables on the way are created); a key the schema
    does not know fails with the closest valid key, and an id (``characters.<id>``) must
    exist. Without one, ``path`` must exist (no silent typos). List items are addressed by
    index (``characters.cat.effects.0.amount``) and must exist."""
    if schema is not None:
        return _set_schema(cfg, path, value, schema)
    parts = path.split(".")
    node: Any = cfg
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        where = ".".join(parts[: i + 1])
        if isinstance(node, list):
            try:
                idx = int(part)
                node[idx]  # noqa: B018 - bounds check
            except (ValueError, IndexError):
                raise SimInputError(f"unknown parameter path {path!r} (no item {where!r})") from None
            if last:
                node[idx] = value
            else:
                node = node[idx]
        elif isinstance(node, dict):
            if part not in node:
                raise SimInputError(f"unknown parameter path {path!r} (no key {where!r})")
            if last:
                old = node[part]
                if isinstance(old, (dict,)) and not isinstance(value, dict):
                    raise SimInputError(f"{path!r} is a table; set one of its keys")
                node[part] = value
            else:
                node = node[part]
        else:
            raise SimInputError(f"unknown parameter path {path!r} ({'.'.join(parts[:i])!r} is a value)")


def _coerce(value: Any, sub: Any) -> Any:
    if sub == LIST and not isinstance(value, list):
        return [value]
    if sub == TEXT and isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ",".join(value)
    return value


def _set_schema(cfg: dict, path: str, value: Any, schema: Any) -> None:
    parts = path.split(".")

    def bad(detail: str) -> SimInputError:
        return SimInputError(f"unknown parameter path {path!r}{detail}")

    node: Any = cfg
    sch: Any = schema
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        where, prefix = ".".join(parts[: i + 1]), ".".join(parts[:i])
        if isinstance(node, list):
            try:
                idx = int(part)
                node[idx]  # noqa: B018 - bounds check
            except (ValueError, IndexError):
                raise bad(f": no item {where!r} ({prefix!r} has {len(node)})") from None
            sub = sch.item if isinstance(sch, ListOf) else ANY
            if last:
                node[idx] = _coerce(value, sub)
                return
            node, sch = node[idx], sub
            continue
        if not isinstance(node, dict):
            raise bad(f": {prefix!r} is a value")
        if isinstance(sch, dict):
            if part not in sch:
                h = hint(part, sch, prefix, schema)
                raise bad(f" {h}" if last else f": no key {where!r} {h}")
            sub = sch[part]
        elif isinstance(sch, Ids):
            if part not in node:
                hit = closest(part, node)
                raise bad(f": no {sch.what} {where!r}" + (f" (did you mean {_join(prefix, hit)!r}?)" if hit else
                          f"; {sch.what}s are {', '.join(map(str, node)) or 'none'}"))
            sub = sch.item
        elif isinstance(sch, Map):
            sub = sch.item
        else:  # below a plain value (a table the schema does not describe): existing keys only
            if part not in node:
                raise bad(f": no key {where!r}")
            sub = ANY
        tableish = isinstance(sub, (dict, Ids, Map))
        if last:
            if (tableish or isinstance(node.get(part), dict)) and not isinstance(value, dict):
                raise SimInputError(f"{path!r} is a table; set one of its keys")
            node[part] = _coerce(value, sub)
            return
        if part not in node:
            if not tableish:
                raise bad(f": no {'list' if isinstance(sub, ListOf) else 'key'} {where!r} in the data to index")
            node[part] = {}
        node, sch = node[part], sub


def _join(prefix: str, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key


def assign_path(cfg: dict, path: str, value: Any, *, must_exist: int = 2, schema: Any = None) -> None:
    """Like :func:`set_path`, but keys below the first ``must_exist`` parts may be new
    (``characters.p1.strategy.target`` on a sheet without a strategy table). The first
    parts must exist, so a typo in a section or an id still fails; the game's own
    validation rejects unknown keys below. With a ``schema`` this is :func:`set_path`
    with that schema (documented keys may be new, ids must exist)."""
    if schema is not None:
        return _set_schema(cfg, path, value, schema)
    parts = path.split(".")
    if len(parts) <= must_exist:
        return set_path(cfg, path, value)
    node: Any = _get(cfg, parts[:must_exist], path)
    for i, part in enumerate(parts[must_exist:-1], start=must_exist):
        if isinstance(node, dict):
            node = node.setdefault(part, {})
        elif isinstance(node, list):
            return set_path(cfg, path, value)
        else:
            raise SimInputError(f"unknown parameter path {path!r} ({'.'.join(parts[:i])!r} is a value)")
    if isinstance(node, dict):
        if isinstance(node.get(parts[-1]), dict) and not isinstance(value, dict):
            raise SimInputError(f"{path!r} is a table; set one of its keys")
        node[parts[-1]] = value
    else:
        set_path(cfg, path, value)


def _get(cfg: dict, parts: list[str], path: str) -> Any:
    node: Any = cfg
    for i, part in enumerate(parts):
        try:
            node = node[int(part)] if isinstance(node, list) else node[part]
        except (KeyError, ValueError, IndexError, TypeError):
            raise SimInputError(f"unknown parameter path {path!r} (no key {'.'.join(parts[:i + 1])!r})") from None
    return node


def config_hash(cfg: dict) -> str:
    """sha256 of a configuration (canonical JSON)."""
    blob = json.dumps(cfg, sort_keys=True, ensure_ascii=False, default=str).encode()
    return hashlib.sha256(blob).hexdigest()
