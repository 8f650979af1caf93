"""Which keys a configuration file may contain: one small schema mechanism for every game.

A schema is a nested description of the allowed keys:

* a ``dict`` is a table with exactly these keys (each mapped to the schema of its value);
* :class:`Ids` is a table keyed by ids the file itself defines (``characters.<id>``,
  ``roles.<id>``, ``weapons.<id>``): any id, each entry described by ``Ids.item``;
* :class:`Map` is a table of free names (``skills.<name>``) whose values are leaves; the
  game's compiler checks the names themselves;
* :class:`ListOf` is a list whose table items are described by ``ListOf.item``;
* a :class:`Leaf` is a value (``ANY``; ``LIST``, which ``--set`` turns into a one-item list
  when given a single value; ``TEXT``, which ``--set`` joins back when given a comma list).

:func:`check_keys` raises one :class:`SimInputError` naming every unknown key by its full
dotted path and the closest valid key. :func:`resolve` tells ``--set`` whether a path is a
documented key (see :func:`sim.core.config.set_path`). Value types and ranges stay the
compilers' job; the schema only knows names.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim.errors import SimInputError, closest


@dataclass(frozen=True)
class Leaf:
    """A key whose value the schema does not look into (the compiler checks it)."""
    kind: str = "any"  # any | list | text


ANY = Leaf("any")
LIST = Leaf("list")
TEXT = Leaf("text")


@dataclass(frozen=True)
class Ids:
    """A table keyed by ids defined in the data (``--set`` cannot invent a new id)."""
    item: Any
    what: str = "entry"


@dataclass(frozen=True)
class Map:
    """A table of free names with leaf values (``--set`` may add a name)."""
    item: Any = ANY


@dataclass(frozen=True)
class ListOf:
    """A list of tables, each checked against one schema."""
    item: Any


def _join(prefix: str, key: Any) -> str:
    return f"{prefix}.{key}" if prefix else str(key)


def _paths(schema: Any, prefix: str = "") -> list[tuple[str, str]]:
    """(dotted path, last key) of every fixed key in the schema; ids shown as <id>, items as N."""
    out: list[tuple[str, str]] = []
    if isinstance(schema, dict):
        for k, sub in schema.items():
            p = _join(prefix, k)
            out.append((p, k))
            out.extend(_paths(sub, p))
    elif isinstance(schema, Ids):
        out.extend(_paths(schema.item, _join(prefix, "<id>")))
    elif isinstance(schema, ListOf):
        out.extend(_paths(schema.item, _join(prefix, "N")))
    return out


def suggestion(key: str, table: dict, prefix: str, root: Any) -> str | None:
    """The closest valid key: a close key of the same table, else the same key elsewhere."""
    hit = closest(key, table)
    if hit:
        return _join(prefix, hit)
    elsewhere = [p for p, k in _paths(root) if k == key]
    return elsewhere[0] if elsewhere else None


def hint(key: str, table: dict, prefix: str, root: Any) -> str:
    """``(did you mean 'rules.max_rounds'?)``, or the keys the table takes."""
    s = suggestion(key, table, prefix, root)
    if s:
        return f"(did you mean {s!r}?)"
    where = f"[{prefix}]" if prefix else "the top level"
    return f"({where} takes {', '.join(table) or 'no keys'})"


def unknown_key_message(key: str, table: dict, prefix: str, root: Any) -> str:
    """The error for an unknown key: its dotted path and the closest valid key."""
    return f"unknown key {_join(prefix, key)!r} {hint(key, table, prefix, root)}"


def _walk(data: Any, schema: Any, prefix: str, root: Any, errors: list[str]) -> None:
    if isinstance(schema, (dict, Ids, Map)) and not isinstance(data, dict):
        # a value where a table belongs: said here, once for every game, before a compiler
        # (or anything else that reads the tree) takes it for a table
        errors.append(f"{prefix or 'the top level'}: expected a table, got {data!r}")
        return
    if isinstance(schema, dict):
        for k, v in data.items():
            if k in schema:
                _walk(v, schema[k], _join(prefix, k), root, errors)
            else:
                errors.append(unknown_key_message(str(k), schema, prefix, root))
    elif isinstance(schema, (Ids, Map)):
        for k, v in data.items():
            _walk(v, schema.item, _join(prefix, k), root, errors)
    elif isinstance(schema, ListOf):
        if isinstance(data, list):
            for i, v in enumerate(data):
                _walk(v, schema.item, _join(prefix, i), root, errors)


def check_keys(data: Any, schema: Any, where: str = "") -> None:
    """Raise one :class:`SimInputError` listing every key of ``data`` the schema does not allow.

    ``where`` (e.g. the file name) prefixes the message."""
    errors: list[str] = []
    _walk(data, schema, "", schema, errors)
    if errors:
        head = f"{where}: " if where else ""
        raise SimInputError(head + "; ".join(errors))


def keys_of(schema: Any) -> dict:
    """The fixed keys of a table schema (``{}`` for id tables, maps and leaves)."""
    return schema if isinstance(schema, dict) else {}
