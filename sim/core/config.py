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

from sim.errors import SimInputError


def load_toml(path: str | Path) -> dict[str, Any]:
    p = Path(path)
    if p.is_dir():
        raise SimInputError(f"{p}: is a directory; expected a TOML file")
    if not p.is_file():
        raise SimInputError(f"{p}: no such file")
    try:
        return tomllib.loads(p.read_text(encoding="utf-8"))
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


def parse_value(text: str) -> Any:
    """A ``--set`` value: a TOML literal if it is one, a comma list, else a bare string."""
    text = text.strip()
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        pass
    if text == "":
        return []
    if "," in text:
        return [t.strip() for t in text.split(",") if t.strip()]
    return text


def split_assignment(item: str) -> tuple[str, Any]:
    if "=" not in item:
        raise SimInputError(f"--set {item!r}: expected PATH=VALUE")
    path, value = item.split("=", 1)
    path = path.strip()
    if not path:
        raise SimInputError(f"--set {item!r}: empty path")
    return path, parse_value(value)


def set_path(cfg: dict, path: str, value: Any) -> None:
    """Set ``cfg[path] = value`` where ``path`` exists (no silent typos)."""
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


def assign_path(cfg: dict, path: str, value: Any, *, must_exist: int = 2) -> None:
    """Like :func:`set_path`, but keys below the first ``must_exist`` parts may be new
    (``characters.p1.strategy.target`` on a sheet without a strategy table). The first
    parts must exist, so a typo in a section or an id still fails; the game's own
    validation rejects unknown keys below."""
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
    blob = json.dumps(cfg, sort_keys=True, ensure_ascii=False, default=str).encode()
    return hashlib.sha256(blob).hexdigest()
