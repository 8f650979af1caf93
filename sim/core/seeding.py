"""Root seed → run keys with numpy ``SeedSequence``.

A run key is 4 uint64 words; the kernels derive one independent xoshiro256** stream
per game from it (see :mod:`sim.core.rng`). Sub-runs (sweep cells, batches of an
adaptive run) get child keys via ``SeedSequence.spawn``-style spawn keys, so they are
independent of each other and of the order in which they run.
"""
from __future__ import annotations

import numpy as np

from sim.core.validate import INT64_MAX

MAX_SEED = INT64_MAX  # the manifest's and the tables' seed column is an i64 (docs/data.md)


def run_key(seed: int, *spawn_key: int) -> np.ndarray:
    """The 256-bit key of the run (or sub-run ``spawn_key``) under root ``seed``."""
    if seed < 0:
        from sim.errors import SimInputError

        raise SimInputError(f"--seed must be >= 0, got {seed}")
    if seed > MAX_SEED:
        from sim.errors import SimInputError

        raise SimInputError(f"--seed must be at most 2^63-1 = {MAX_SEED}, got {seed}")
    ss = np.random.SeedSequence(entropy=seed, spawn_key=tuple(spawn_key))
    return ss.generate_state(4, dtype=np.uint64)


def python_rng(seed: int, *spawn_key: int) -> np.random.Generator:
    """A numpy Generator for Python-side random choices (e.g. strategy preparation)."""
    ss = np.random.SeedSequence(entropy=seed, spawn_key=(2**31 - 1, *spawn_key))
    return np.random.default_rng(ss)
