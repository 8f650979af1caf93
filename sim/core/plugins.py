"""Strategy registries and ``mypkg.mymod:func`` plug-ins.

Each game keeps one :class:`Registry` per side. A built-in strategy is registered by
name; a user's strategy is given as ``module:attribute`` and imported on demand. The
attribute may be a ready strategy object of the registry's type or a bare ``@njit``
function, which the registry wraps with the documented defaults for the other hooks.
"""
from __future__ import annotations

import importlib
from typing import Callable, Generic, TypeVar

from sim.errors import SimInputError, did_you_mean

T = TypeVar("T")


class Registry(Generic[T]):
    """Named strategies of one side, plus ``module:object`` plug-ins imported on demand."""
    def __init__(self, what: str, wrap: Callable[[object, str], T]):
        self.what = what
        self._wrap = wrap
        self._items: dict[str, T] = {}

    def register(self, name: str, item: T) -> T:
        self._items[name] = item
        return item

    def names(self) -> list[str]:
        return sorted(self._items)

    def get(self, spec: str) -> T:
        if spec in self._items:
            return self._items[spec]
        if ":" in spec:
            mod_name, _, attr = spec.partition(":")
            try:
                mod = importlib.import_module(mod_name)
            except (ImportError, ValueError, TypeError) as e:  # also ":f", "..m:f"
                raise SimInputError(f"{self.what} {spec!r}: cannot import {mod_name!r} ({e})") from None
            if not hasattr(mod, attr):
                raise SimInputError(f"{self.what} {spec!r}: {mod_name!r} has no {attr!r}")
            return self._wrap(getattr(mod, attr), spec)
        raise SimInputError(f"unknown {self.what} {spec!r}{did_you_mean(spec, self.names())}; "
                            f"choose one of {', '.join(self.names())} or give module:function")
