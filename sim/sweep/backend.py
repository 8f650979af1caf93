"""Where cells run: in this process (default) or on a Dask cluster.

Either way a cell is computed by :func:`sim.sweep.cell.run_cell` from its job alone and
its tables come back to this process, which writes them; so a Dask run (any number of
workers, any completion order) writes the same dataset as a local one. Workers need only
the installed package, not a shared file system.

* ``--dask local:N`` starts a ``LocalCluster`` of N single-threaded worker processes.
* ``--dask tcp://HOST:PORT`` joins a running scheduler (e.g. one started by
  ``dask-jobqueue``'s ``SLURMCluster``; see docs/reference.md).
"""
from __future__ import annotations

import os
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, as_completed, wait
from contextlib import contextmanager
from dataclasses import replace
from typing import Callable, Iterator

from sim.core.runner import default_threads
from sim.errors import SimInputError
from sim.sweep.cell import CellJob, CellOutput, run_cell


def run_local(jobs: list[CellJob], compiled: dict, done: Callable[[CellOutput], None],
              threads: int | None = None) -> None:
    """Cells in this process. With many cells, one cell per thread (each cell's games in
    one thread, in big chunks, while other threads play other cells and this one writes);
    with few cells, one cell at a time on every thread."""
    workers = threads or default_threads()
    if workers == 1 or len(jobs) < 2 * workers:
        for job in jobs:
            done(run_cell(job, compiled.get(job.index)))
        return
    with ThreadPoolExecutor(max_workers=workers) as pool:
        pending = set()
        it = iter(jobs)
        try:
            for job in it:
                pending.add(pool.submit(run_cell, replace(job, threads=1), compiled.get(job.index)))
                if len(pending) >= 2 * workers:
                    finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for f in finished:
                        done(f.result())
            for f in as_completed(pending):
                done(f.result())
        except BaseException:
            for f in pending:
                f.cancel()
            raise


def parse_dask(address: str) -> tuple[str, int | str]:
    """``--dask`` as (kind, where): ``local:N`` or a scheduler address."""
    if address.startswith("local:"):
        n = address[len("local:"):]
        if not n.isdigit() or int(n) < 1:
            raise SimInputError(f"--dask {address!r}: write local:N with N ≥ 1 workers")
        return "local", int(n)
    if address.startswith("inproc://"):
        return "remote", address
    if address.startswith(("tcp://", "tls://", "ws://", "wss://")):
        host, sep, port = address.split("://", 1)[1].rpartition(":")
        if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise SimInputError(f"--dask {address!r}: expected {address.split('://')[0]}://HOST:PORT "
                                f"with a port number")
        return "remote", address
    raise SimInputError(f"--dask {address!r}: expected local:N or tcp://HOST:PORT")


@contextmanager
def dask_client(address: str) -> Iterator:
    """A connected Dask client (a LocalCluster for ``local:N``), closed on exit."""
    kind, where = parse_dask(address)
    from distributed import Client, LocalCluster

    if kind == "local":
        cluster = LocalCluster(n_workers=where, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=50)
        client = Client(cluster)
        try:
            yield client
        finally:
            client.close()
            cluster.close()
    else:
        try:
            client = Client(where, timeout=os.environ.get("SIM_DASK_TIMEOUT", "20s"))
        except (OSError, ValueError, TimeoutError) as e:
            raise SimInputError(f"--dask {where}: cannot reach the scheduler ({e})") from None
        try:
            yield client
        finally:
            client.close()


def run_dask(jobs: list[CellJob], client, done: Callable[[CellOutput], None]) -> None:
    """Run cell jobs on Dask workers; the client writes each finished cell."""
    from distributed import as_completed

    futures = client.map(run_cell, jobs, pure=False)
    try:
        for fut in as_completed(futures):
            done(fut.result())
    except BaseException:
        client.cancel(futures)
        raise
