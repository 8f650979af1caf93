"""Checks of designer data: each failure is one SimInputError naming the TOML path."""
from __future__ import annotations

from typing import Any, Iterable

from sim.errors import SimInputError


INT64_MAX = 2**63 - 1


def int_at(v: Any, where: str, lo: int | None = None, hi: int | None = None) -> int:
    """``v`` as an integer within bounds, else a SimInputError naming ``where``."""
    if isinstance(v, bool) or not isinstance(v, int):
        raise SimInputError(f"{where}: expected an integer, got {v!r}")
    if lo is not None and v < lo:
        raise SimInputError(f"{where}: must be >= {lo}, got {v}")
    if hi is not None and v > hi:
        raise SimInputError(f"{where}: must be <= {hi}, got {v}")
    if not -INT64_MAX - 1 <= v <= INT64_MAX:  # the kernels' arrays are int64
        raise SimInputError(f"{where}: must be within ±2^63, got {v}")
    return v


def bool_at(v: Any, where: str) -> bool:
    """``v`` as a boolean, else a SimInputError naming ``where``."""
    if not isinstance(v, bool):
        raise SimInputError(f"{where}: expected true or false, got {v!r}")
    return v


def choice_at(v: Any, where: str, options: Iterable[str]) -> int:
    """The index of ``v`` among ``options``."""
    options = list(options)
    if v not in options:
        raise SimInputError(f"{where}: expected one of {', '.join(options)}, got {v!r}")
    return options.index(v)


MAX_GAMES = 10**11  # documented maximum of --games and of a spec's games (days of work at 1M games/s)


def check_run_counts(games: int, threads: int | None = None, chunk_size: int = 1,
                     games_option: str = "--games") -> None:
    """The CLI's --games / --threads / --chunk-size (``games_option``: the option that gave
    ``games``, e.g. tune's --final-games)."""
    if games < 1:
        raise SimInputError(f"{games_option} must be a positive integer, got {games}")
    if games > MAX_GAMES:
        raise SimInputError(f"{games_option} {games:,}: at most {MAX_GAMES:,} (10^11) games per run")
    if threads is not None and threads < 1:
        raise SimInputError(f"--threads must be >= 1, got {threads}")
    if chunk_size < 1:
        raise SimInputError(f"--chunk-size must be >= 1, got {chunk_size}")
    if chunk_size > MAX_GAMES:
        raise SimInputError(f"--chunk-size {chunk_size:,}: at most {MAX_GAMES:,}")
    if threads is not None and threads > 1024:
        raise SimInputError(f"--threads {threads}: at most 1024")
