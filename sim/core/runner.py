"""Chunked parallel runner with streaming aggregation.

The games ``[0, n)`` are cut into chunks; each chunk is played by a ``nogil`` numba
kernel in a thread pool and returns fixed-size integer count arrays, which are summed
as chunks finish. Memory stays flat however many games are played, and because every
game draws from its own stream (:mod:`sim.core.rng`) and the sums are integer, the
result is bit-identical for any thread count, chunk size or completion order.
"""
from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np

from sim.core.compile_notice import compile_notice
from sim.core.progress import game_progress

DEFAULT_CHUNK = 8192

ChunkFn = Callable[[int, int], Mapping[str, np.ndarray]]


@dataclass
class RunResult:
    """Summed count arrays of a chunked run, with the games played and the wall time."""
    totals: dict[str, np.ndarray]
    games: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")


def default_threads() -> int:
    """Worker threads: ``SIM_THREADS`` or every core."""
    return max(1, int(os.environ.get("SIM_THREADS", os.cpu_count() or 1)))


def run_chunked(
    chunk_fn: ChunkFn,
    n_games: int,
    *,
    chunk_size: int = DEFAULT_CHUNK,
    threads: int | None = None,
    progress: bool = False,
    label: str = "games",
    start: int = 0,
) -> RunResult:
    """Play games ``[start, start + n_games)`` via ``chunk_fn(start, count)`` and sum its
    count arrays."""
    threads = threads or default_threads()
    chunk_size = max(1, int(chunk_size))
    end = start + n_games
    bounds = [(s, min(chunk_size, end - s)) for s in range(start, end, chunk_size)]
    totals: dict[str, np.ndarray] = {}

    def add(part: Mapping[str, np.ndarray]) -> None:
        for k, v in part.items():
            if k in totals:
                totals[k] += v
            else:
                totals[k] = np.array(v, copy=True)

    t0 = time.perf_counter()
    with game_progress(n_games, enabled=progress, label=label) as advance:
        if threads == 1 or len(bounds) == 1:
            for s, c in bounds:
                add(chunk_fn(s, c))
                advance(c)
        else:
            with ThreadPoolExecutor(max_workers=threads) as pool:
                # Bounded look-ahead keeps memory flat for huge runs.
                pending = []
                it = iter(bounds)
                for s, c in it:
                    pending.append((pool.submit(chunk_fn, s, c), c))
                    if len(pending) >= 4 * threads:
                        fut, cnt = pending.pop(0)
                        add(fut.result())
                        advance(cnt)
                for fut, cnt in pending:
                    add(fut.result())
                    advance(cnt)
    return RunResult(totals, n_games, time.perf_counter() - t0)


def run_games(
    games: int,
    new_out: Callable[[], Any],
    call: Callable[[int, int, Any], None],
    *,
    chunk_size: int = DEFAULT_CHUNK,
    threads: int | None = None,
    progress: bool = False,
    start: int = 0,
    on_chunk: Callable[[int, int, dict], None] | None = None,
) -> RunResult:
    """Run a game kernel over games ``[start, start + games)``: ``call(start, count, out)``
    fills a fresh ``new_out()`` namedtuple of count arrays per chunk. Game ``g`` always
    draws from stream ``g``, so a run split into batches equals one run. The kernel is
    compiled (or loaded from the cache) before the clock starts, so games/s measures play
    only. ``on_chunk(start, count, counts)`` sees each chunk's own counts (from a worker
    thread), e.g. to keep per-block statistics."""
    from sim.errors import SimInputError

    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise SimInputError(f"--games must be a positive integer, got {games!r}")

    def chunk(start: int, count: int):
        out = new_out()
        call(start, count, out)
        d = out._asdict()
        if on_chunk is not None and count:
            on_chunk(start, count, d)
        return d

    if isinstance(start, bool) or not isinstance(start, (int, np.integer)) or start < 0:
        raise SimInputError(f"start must be a non-negative integer, got {start!r}")
    with compile_notice():  # the first call compiles the kernel (or loads it): never a silent wait
        chunk(0, 0)
    if on_chunk is None:  # the chunks are no one's blocks: cut them so every thread gets work
        chunk_size = spread_chunk(int(games), chunk_size, threads or default_threads())
    return run_chunked(chunk, int(games), chunk_size=chunk_size, threads=threads, progress=progress,
                       start=int(start))


def spread_chunk(games: int, chunk_size: int, threads: int) -> int:
    """``chunk_size``, made smaller when ``games`` would otherwise fill fewer than four
    chunks per thread: a run of 2,000 games of a slow strategy (bayes: a few hundred
    games/s) in one chunk of 8,192 left every other core idle. Results do not depend on
    the chunk size (each game draws from its own stream), so this changes only speed."""
    return max(1, min(int(chunk_size), -(-games // (4 * max(1, threads)))))


@dataclass(kw_only=True)
class GameResult:
    """What every game's ``run`` returns: the seed, the summed count arrays, the wall time
    and the summary tables built from them (``tables["summary"]`` is one row)."""

    seed: int
    totals: dict[str, np.ndarray]
    seconds: float
    tables: dict = field(default_factory=dict)

    @property
    def summary(self):
        return self.tables["summary"]
