"""Compile every game's built-in kernels ahead of use, in parallel processes.

``sim precompile`` (run by ``make install``) builds, for each registered game, the kernels
its shipped strategies play in (:meth:`sim.core.game.Game.kernel_pairs`: by default one
per kind of view on each side, the honest view and, where a side ships ``oracle_…``
strategies, the judge's). Any other pair of shipped strategies plays in one of these
kernels (:func:`sim.core.kernels.families`), so a designer's first run after install loads
a compiled kernel instead of waiting for one. A trace (an event log is a second compile
of a kernel) and a plug-in still compile on first use, saying so (sim.core.compile_notice).

Each task runs in a worker process of its own (compiling holds one core; numba compiles
nothing in parallel within a process); the longest first, so two cores finish together.

A ladder or an equilibrium's matrix (``sim.analysis.metagame.measure``) calls
:func:`compile_for` first: the kernels its cells play in that no ``precompile`` has built
under the current source stamp (a marker per pair, ``sim_fn/<stamp>/precompiled/``, pruned
with the stamp) are compiled in worker processes, two or more at once, instead of one after
the other in the process that plays (issue 42: a cold ``sim ladder werewolf`` needs two).
"""
from __future__ import annotations

import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Iterable


# Longest first (measured cold on the 2-core machine): the Looper's honest players hold
# bayes and planner; a game not named here goes last.
ORDER = ("looper", "werewolf", "trpg")


def tasks(only: Iterable[str] = (), light: bool = False) -> list[tuple[str, int]]:
    """``(game, i)``: the i-th of the game's :meth:`~sim.core.game.Game.kernel_pairs`
    (``light``: not those :meth:`~sim.core.game.Game.heavy_kernel` names)."""
    from sim.core.game import games

    only = set(only)
    found = games()
    names = sorted(found, key=lambda g: (ORDER.index(g) if g in ORDER else len(ORDER), g))
    return [(name, i) for name in names if not only or name in only
            for i, (_, given) in enumerate(found[name].kernel_pairs())
            if not (light and found[name].heavy_kernel(given))]


def _marker(name: str, given: dict) -> "Path":
    """The file that says a precompile built this pair's kernel under the current sources."""
    from sim.core.kernels import _FN_DIR, STAMP_LEN, _stamp, kernel_dir

    pair = ",".join(f"{k}={v}" for k, v in sorted(given.items()))
    return kernel_dir() / _FN_DIR / _stamp()[:STAMP_LEN] / "precompiled" / f"{name}-{pair}"


def compile_one(name: str, i: int) -> tuple[str, str, float]:
    """Build (and so compile, or load) the run kernel of one strategy pair."""
    from sim.core.game import get

    t = time.perf_counter()
    game = get(name)
    setup, given = game.kernel_pairs()[i]
    strategies = game.strategies(given, setup)
    game.run(setup, strategies, 2, 0)
    try:
        m = _marker(name, given)
        m.parent.mkdir(parents=True, exist_ok=True)
        m.touch()
    except OSError:  # a read-only cache folder: no marker, the kernel is still cached
        pass
    named = game.setup_oracles(setup)  # strategies the setup itself names (a TRPG sheet's oracle)
    label = " vs ".join(given.values()) + (f" ({', '.join(f'{k}: {v}' for k, v in named.items())})" if named else "")
    return name, label, time.perf_counter() - t


def compile_for(name: str, givens: Iterable[dict], jobs: int | None = None, out=sys.stderr) -> list[tuple[str, int]]:
    """Before a matrix of cells plays: the kernels of ``givens`` (``{side: strategy}`` per
    cell) that a precompile task builds and no precompile has built yet, compiled in worker
    processes when two or more are missing (one is compiled where it is played, as before).
    Returns the tasks it ran. Nothing with ``SIM_KERNELS=single`` or ``NUMBA_DISABLE_JIT``."""
    import numba as nb

    from sim.core.game import get

    if nb.config.DISABLE_JIT or os.environ.get("SIM_KERNELS") == "single":
        return []
    game = get(name)
    pairs = game.kernel_pairs()
    want = []
    for given in givens:
        i = game.kernel_task(given, pairs)
        if i is not None and (name, i) not in want and not _marker(name, pairs[i][1]).exists():
            want.append((name, i))
    if len(want) < 2:
        return []
    import io
    import multiprocessing

    quiet = os.environ.get("SIM_COMPILE_NOTICE", "") == "0"  # the notices' switch (sim.core.compile_notice)
    # spawned, not forked: the caller may hold threads (a progress bar's, numba's) whose locks
    # a forked child would inherit held
    precompile(jobs=jobs, out=io.StringIO() if quiet else out, todo=want,
               why=f"the {len(want)} {name} kernels of these cells", context=multiprocessing.get_context("spawn"))
    return want


def precompile(only: Iterable[str] = (), jobs: int | None = None, *, light: bool = False, out=sys.stderr,
               todo: list[tuple[str, int]] | None = None, why: str = "", context=None) -> float:
    """Compile the kernels of :func:`tasks` (or ``todo``) with ``jobs`` worker processes
    (default: the cores); returns the wall seconds. Each finished task is one line on ``out``."""
    todo = tasks(only, light) if todo is None else todo
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(todo) or 1))
    t0 = time.perf_counter()
    print(f"compiling {why or f'{len(todo)} kernels of the built-in strategies'} in {jobs} processes "
          f"(once; cached in {os.environ.get('SIM_KERNEL_DIR') or '~/.cache/sim-balance/kernels'})",
          file=out, flush=True)
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futs = [pool.submit(compile_one, name, i) for name, i in todo]
        for f in as_completed(futs):
            name, label, s = f.result()
            print(f"  {name}: {label} ready ({s:.0f} s)", file=out, flush=True)
    wall = time.perf_counter() - t0
    print(f"done in {wall:.0f} s", file=out, flush=True)
    return wall
