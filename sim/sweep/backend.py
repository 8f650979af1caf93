"""Where cells run: in this process (default) or on a Dask cluster.

Either way a cell is computed by :func:`sim.sweep.cell.run_cell` from its job alone and
its tables come back to this process, which writes them; so a Dask run (any number of
workers, any completion order) writes the same dataset as a local one. Workers need only
the installed package, not a shared file system.

* ``--dask local:N`` starts a ``LocalCluster`` of N single-threaded worker processes.
* ``--dask tcp://HOST:PORT`` joins a running scheduler (e.g. one started by
  ``dask-jobqueue``'s ``SLURMCluster``; see the README).
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterable, Iterator

from sim.errors import SimInputError
from sim.sweep.cell import CellJob, CellOutput, run_cell


def run_local(jobs: Iterable[CellJob], compiled: dict, done: Callable[[CellOutput], None]) -> None:
    for job in jobs:
        done(run_cell(job, compiled.get(job.index)))


def parse_dask(address: str) -> tuple[str, int | str]:
    if address.startswith("local:"):
        n = address[len("local:"):]
        if not n.isdigit() or int(n) < 1:
            raise SimInputError(f"--dask {address!r}: write local:N with N ≥ 1 workers")
        return "local", int(n)
    if address.startswith(("tcp://", "tls://", "ws://", "wss://", "inproc://")):
        return "remote", address
    raise SimInputError(f"--dask {address!r}: expected local:N or tcp://HOST:PORT")


@contextmanager
def dask_client(address: str) -> Iterator:
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
            client = Client(where, timeout="20s")
        except OSError as e:
            raise SimInputError(f"--dask {where}: cannot reach the scheduler ({e})") from None
        try:
            yield client
        finally:
            client.close()


def run_dask(jobs: list[CellJob], address: str, done: Callable[[CellOutput], None]) -> None:
    from distributed import as_completed

    with dask_client(address) as client:
        futures = client.map(run_cell, jobs, pure=False)
        try:
            for fut in as_completed(futures):
                done(fut.result())
        except BaseException:
            client.cancel(futures)
            raise
