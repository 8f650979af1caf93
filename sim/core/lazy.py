"""Lazy package exports (PEP 562): a game package names its public API in ``__init__``
without importing its kernels (and numba) until one of them is used."""
from __future__ import annotations

import importlib
from typing import Any, Callable


def lazy_exports(package: str, names: dict[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package``: ``names`` maps a public name to the
    module (relative to the package, e.g. ``".game"``) that defines it."""

    def getattr_(name: str) -> Any:
        if name not in names:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(names[name], package), name)

    def dir_() -> list[str]:
        return sorted(names)

    return getattr_, dir_
