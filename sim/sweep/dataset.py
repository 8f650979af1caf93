"""The sweep dataset on disk: hive-partitioned parquet, one directory per cell.

    OUT/game=<game>/sweep=<name>/_manifest.json
    OUT/game=<game>/sweep=<name>/cell=<i>/part-0.parquet   one row per cell

The row holds the cell's parameters, its primary rate with CI and the game's summary,
and the game's tables (``deaths``, ``roles``, ``sides``, …, and ``blocks``: per-block
successes for paired comparisons) as list-of-struct columns. A cell is written into a
hidden temporary directory and renamed into place, so a cell directory is either complete
or absent: after a crash or ``kill -9`` a rerun skips the finished cells and plays the
others again (temporary leftovers are removed first). Each file carries the sweep's
manifest in its key-value metadata (``sim_manifest``).

Sweeps of different games or axes under one root have different columns, so a reader
must take the union of the files' schemas (docs/data.md):

    read("OUT")                                                        # one row per cell, every sweep
    read("OUT", "deaths")                                              # a nested table, flat
    duckdb.sql("SELECT * FROM read_parquet('OUT/**/*.parquet', hive_partitioning=true, union_by_name=true)")
"""
from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from pathlib import Path

import polars as pl

from sim.core.outdir import dir_mode
from sim.core.output import LEGACY_MANIFEST_FILE, MANIFEST_FILE, manifest_json, read_manifest, write_parquet
from sim.errors import SimInputError

_CELL = re.compile(r"^cell=(\d+)$")
SUMMARY_FILE = "part-0.parquet"


def sweep_dir(out: Path, game: str, name: str) -> Path:
    """``OUT/game=…/sweep=…``."""
    return Path(out) / f"game={game}" / f"sweep={name}"


def done_cells(sd: Path) -> set[int]:
    """Indices of the finished cells in a sweep directory."""
    if not sd.is_dir():
        return set()
    return {int(m.group(1)) for p in sd.iterdir() if p.is_dir() and (m := _CELL.match(p.name))}


def clean_partial(sd: Path) -> int:
    """Remove temporary cell directories left by an interrupted run."""
    n = 0
    if sd.is_dir():
        for p in sd.iterdir():
            if p.name.startswith(".tmp-cell=") and p.is_dir():
                shutil.rmtree(p, ignore_errors=True)
                n += 1
    return n


def write_cell(sd: Path, index: int, tables: dict[str, pl.DataFrame], man: dict | None = None) -> Path:
    """Write one cell atomically (a hidden temporary directory renamed into place)."""
    final = sd / f"cell={index}"
    tmp = Path(tempfile.mkdtemp(prefix=f".tmp-cell={index}-", dir=sd))
    os.chmod(tmp, dir_mode())  # mkdtemp makes 0700; a cell is as readable as any directory
    try:
        for name, df in tables.items():
            write_parquet(df, tmp / (SUMMARY_FILE if name == "summary" else f"{name}.parquet"), man)
        os.rename(tmp, final)  # atomic: readers and resumes see all of the cell or none of it
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)
        if not final.is_dir():
            raise
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return final


def write_json_atomic(path: Path, obj) -> None:
    """Write JSON through a temporary file and an atomic rename."""
    tmp = path.with_name(f".tmp-{path.name}.{os.getpid()}")
    tmp.write_text(manifest_json(obj))
    os.replace(tmp, path)


def write_manifest(sd: Path, man: dict) -> None:
    """``_manifest.json`` of a sweep; an older ``manifest.json`` (which dataset readers would
    take for data) is removed once the new one is in place."""
    write_json_atomic(sd / MANIFEST_FILE, man)
    (sd / LEGACY_MANIFEST_FILE).unlink(missing_ok=True)


def check_resumable(sd: Path, spec_sha256: str) -> dict | None:
    """The existing manifest, if the same spec wrote it; a different spec is an error."""
    m = sd / MANIFEST_FILE
    if not m.is_file():
        m = sd / LEGACY_MANIFEST_FILE
    if not m.is_file():
        if done_cells(sd):
            raise SimInputError(f"{sd}: cells without a manifest; not a sweep dataset, choose another --out")
        return None
    try:
        man = json.loads(m.read_text())
    except (OSError, json.JSONDecodeError):
        raise SimInputError(f"{m}: unreadable manifest; delete {sd} to start over") from None
    if man.get("spec_sha256") != spec_sha256:
        raise SimInputError(f"{sd} holds a sweep from a different spec (or seed/games); "
                            f"use another --out or name, or delete it to start over")
    return man


def nested_tables(schema) -> list[str]:
    """The names of the game's tables nested in a cell row (list-of-struct columns)."""
    return [n for n, t in schema.items() if isinstance(t, pl.List) and isinstance(t.inner, pl.Struct)]


def read(path: str | Path, table: str = "summary") -> pl.LazyFrame:
    """Scan a dataset (the --out root, a game=… or sweep=… directory) as one lazy frame with
    the hive columns game, sweep, cell: the cells' rows (``summary``, without the nested
    tables) or one nested table, flattened, with the cells' swept parameters in front (from
    the sweeps that have it). Sweeps with different columns are united by column name."""
    p = Path(path)
    sweeps = sorted({f.parent.parent for f in p.glob(f"**/{SUMMARY_FILE}")})
    if not sweeps:
        raise SimInputError(f"{p}: no sweep cells found (is it a sweep dataset?)")
    parts, held = [], set()
    for sd in sweeps:
        axes = (read_manifest(sd) or {}).get("axes", [])
        rows = pl.scan_parquet(sd / "cell=*" / SUMMARY_FILE, hive_partitioning=True)
        schema = rows.collect_schema()
        nested = nested_tables(schema)
        if table == "summary":
            parts.append(rows.drop(nested))
            continue
        if table not in nested:  # another game's sweep under the same root
            held.update(nested)
            continue
        fields = {f.name for f in schema[table].inner.fields}
        keep = [c for c in ("game", "sweep", "cell", *axes) if c not in fields]
        parts.append(rows.select(*keep, table).explode(table).unnest(table))
    if not parts:
        raise SimInputError(f"{p}: no {table!r} table; the cells hold {', '.join(sorted(held))}")
    return pl.concat(parts, how="diagonal_relaxed") if len(parts) > 1 else parts[0]
