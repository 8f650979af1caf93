"""Parquet tables (polars) with a JSON manifest, written atomically.

``write_tables`` writes into a temporary sibling directory and renames it into place
only when every file is complete, so an error never leaves a partial output.

Every output directory is a dataset that polars, pandas, pyarrow and DuckDB open as a
whole: it holds one parquet schema (one file: a single table flat, or several tables as
one row with the tables nested as list-of-struct columns, like a sweep cell) and side
files whose names start with ``_`` (``_manifest.json``), which pyarrow and pandas skip.
Each parquet file also carries the manifest as JSON in its key-value metadata
(``sim_manifest``). Layout and columns: docs/data.md.
"""
from __future__ import annotations

import datetime as _dt
import hashlib
import json
import platform
import subprocess
import time
from importlib import metadata as _metadata
from pathlib import Path
from typing import Any, Callable, Mapping

import polars as pl

import sim
from sim.core.config import config_hash
from sim.core.outdir import OutDir, command_line

# The project's rules pages: docs/rules/<game>.md, shipped in the package as sim/rules (a
# symlink to ../docs/rules in the repository; the wheel holds the files themselves).
_RULES_DIR = Path(__file__).resolve().parents[1] / "rules"
MANIFEST_FILE = "_manifest.json"          # "_": pyarrow and pandas skip it when they open a directory
LEGACY_MANIFEST_FILE = "manifest.json"    # the name earlier outputs have; still read
METADATA_KEY = "sim_manifest"             # the manifest (JSON) in each parquet file's key-value metadata


def _run_git(*args: str) -> str | None:
    here = Path(__file__).resolve().parent
    try:
        out = subprocess.run(["git", *args], cwd=here, capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout if out.returncode == 0 else None


def _git(*args: str) -> str | None:
    """stdout of ``git ARGS`` in the package's checkout; None when it is not one (also when
    an installed copy merely sits inside some other repository, e.g. a venv in a checkout)."""
    if not _run_git("ls-files", "--", Path(__file__).name):
        return None
    return _run_git(*args)


def git_commit() -> str | None:
    """HEAD of the package's checkout, None when it is not one."""
    out = _git("rev-parse", "HEAD")
    return (out.strip() or None) if out is not None else None


def git_dirty() -> bool | None:
    """Whether the package's git working tree has changes (``git status --porcelain``);
    None when the package is not in a git checkout (an installed wheel)."""
    out = _git("status", "--porcelain")
    return bool(out.strip()) if out is not None else None


def versions() -> dict[str, str | None]:
    """Versions of python, this package and the libraries that shape the numbers."""
    v: dict[str, str | None] = {"python": platform.python_version(), "sim": sim.__version__}
    for dist in ("numpy", "numba", "polars", "pyarrow"):
        try:
            v[dist] = _metadata.version(dist)
        except _metadata.PackageNotFoundError:
            v[dist] = None
    return v


def rules_page_hash(game: str) -> str | None:
    """sha256 of the project's rules page ``docs/rules/<game>.md`` (``sim/rules/<game>.md``)."""
    p = _RULES_DIR / f"{game}.md"
    return hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else None


def manifest(game: str, config: Mapping[str, Any], seed: int, extra: Mapping[str, Any] | None = None) -> dict:
    """The manifest of an output: game, seed, configuration and its hash, versions, command line, time, git state."""
    now = time.time()
    return {
        "game": game,
        "seed": seed,
        "package": "sim-balance",
        "version": sim.__version__,
        "config": config,
        "config_sha256": config_hash(dict(config)),
        "rules_page_sha256": rules_page_hash(game),
        "git_commit": git_commit(),
        "git_dirty": git_dirty(),
        "command_line": command_line(),
        "versions": versions(),
        "created": _dt.datetime.fromtimestamp(now, _dt.timezone.utc).isoformat(timespec="seconds"),
        "created_unix": now,
        **(dict(extra) if extra else {}),
    }


def manifest_json(man: Mapping[str, Any]) -> str:
    """The manifest as the JSON text written to ``_manifest.json`` and into parquet metadata."""
    return json.dumps(man, indent=2, ensure_ascii=False, default=str)


def write_parquet(df: pl.DataFrame, path: str | Path, man: Mapping[str, Any] | None = None) -> None:
    """``df`` as parquet (zstd) with the manifest as JSON under the key ``sim_manifest`` of
    the file's key-value metadata; every parquet file the toolkit writes goes through here."""
    import pyarrow.parquet as pq

    table = df.to_arrow(compat_level=pl.CompatLevel.oldest())  # large_string, not views: any reader
    if man is not None:
        table = table.replace_schema_metadata({**(table.schema.metadata or {}), METADATA_KEY: manifest_json(man)})
    pq.write_table(table, str(path), compression="zstd")


def read_manifest(d: str | Path) -> dict | None:
    """The manifest of an output directory (``_manifest.json``, or an older ``manifest.json``)."""
    for name in (MANIFEST_FILE, LEGACY_MANIFEST_FILE):
        p = Path(d) / name
        if p.is_file():
            return json.loads(p.read_text())
    return None


def has_manifest(d: str | Path) -> bool:
    """Whether ``d`` holds a manifest (``_manifest.json`` or an older ``manifest.json``)."""
    return any((Path(d) / n).is_file() for n in (MANIFEST_FILE, LEGACY_MANIFEST_FILE))


def nest_tables(tables: Mapping[str, pl.DataFrame]) -> pl.DataFrame:
    """Several tables as one row: the one-row ``summary`` (if any) with every other table as a
    list-of-struct column of that name, the shape of a sweep cell's row."""
    head = tables.get("summary")
    if head is not None and head.height != 1:
        raise ValueError(f"summary has {head.height} rows; only a one-row summary takes the tables nested")
    nested = [pl.Series(name, [df.to_struct(name)]) for name, df in tables.items() if name != "summary"]
    return head.hstack(nested) if head is not None else pl.DataFrame(nested)


def write_tables(out_dir: str | Path, tables: Mapping[str, pl.DataFrame], man: Mapping[str, Any],
                 extra: Mapping[str, str] | None = None) -> Path:
    """Write the output's parquet file plus ``_manifest.json`` into ``out_dir``: one table as
    ``<name>.parquet``; several as ``summary.parquet``, one row with the tables nested
    (:func:`nest_tables`), so the directory holds one schema and opens as one dataset.
    ``extra``: side files (name → text), named ``_…`` so dataset readers skip them."""
    for name in extra or {}:
        assert name.startswith("_") and "/" not in name, name

    def fill(tmp: Path) -> None:
        if len(tables) == 1:
            (name, df), = tables.items()
        else:
            name, df = "summary", nest_tables(tables)
        write_parquet(df, tmp / f"{name}.parquet", man)
        (tmp / MANIFEST_FILE).write_text(manifest_json(man))
        for side_name, text in (extra or {}).items():
            (tmp / side_name).write_text(text)

    replace_dir(out_dir, fill)
    return out_dir.path if isinstance(out_dir, OutDir) else Path(out_dir)


def replace_dir(out_dir: "str | Path | OutDir", fill: Callable[[Path], Any], kind: str = "tables") -> Any:
    """Build a directory with ``fill(tmp)`` in a hidden sibling and swap it in for
    ``out_dir`` only when ``fill`` returns (see :mod:`sim.core.outdir` for what may be
    replaced). ``out_dir`` may be an :class:`OutDir` claimed before the work started."""
    od = out_dir if isinstance(out_dir, OutDir) else OutDir.claim(out_dir, kind)
    with od:
        return od.write(fill)
