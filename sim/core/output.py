"""Parquet tables (polars) with a JSON manifest, written atomically.

``write_tables`` writes into a temporary sibling directory and renames it into place
only when every file is complete, so an error never leaves a partial output.
"""
from __future__ import annotations

import hashlib
import json
import os
import platform
import subprocess
import time
from pathlib import Path
from typing import Any, Callable, Mapping

import polars as pl

import sim
from sim.core.config import config_hash
from sim.core.outdir import OutDir

# The project's rules pages: docs/rules/<game>.md, shipped in the package as sim/rules (a
# symlink to ../docs/rules in the repository; the wheel holds the files themselves).
_RULES_DIR = Path(__file__).resolve().parents[1] / "rules"


def git_commit() -> str | None:
    here = Path(__file__).resolve().parent
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True, timeout=5
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def rules_page_hash(game: str) -> str | None:
    """sha256 of the project's rules page ``docs/rules/<game>.md`` (``sim/rules/<game>.md``)."""
    p = _RULES_DIR / f"{game}.md"
    return hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else None


def manifest(game: str, config: Mapping[str, Any], seed: int, extra: Mapping[str, Any] | None = None) -> dict:
    return {
        "game": game,
        "seed": seed,
        "package": "sim-balance",
        "version": sim.__version__,
        "config": config,
        "config_sha256": config_hash(dict(config)),
        "rules_page_sha256": rules_page_hash(game),
        "git_commit": git_commit(),
        "python": platform.python_version(),
        "created_unix": time.time(),
        **(dict(extra) if extra else {}),
    }


def write_tables(out_dir: str | Path, tables: Mapping[str, pl.DataFrame], man: Mapping[str, Any]) -> Path:
    """Write ``<name>.parquet`` for each table plus ``manifest.json`` into ``out_dir``."""

    def fill(tmp: Path) -> None:
        for name, df in tables.items():
            df.write_parquet(tmp / f"{name}.parquet")
        (tmp / "manifest.json").write_text(json.dumps(man, indent=2, ensure_ascii=False, default=str))

    replace_dir(out_dir, fill)
    return out_dir.path if isinstance(out_dir, OutDir) else Path(out_dir)


def replace_dir(out_dir: "str | Path | OutDir", fill: Callable[[Path], Any], kind: str = "tables") -> Any:
    """Build a directory with ``fill(tmp)`` in a hidden sibling and swap it in for
    ``out_dir`` only when ``fill`` returns (see :mod:`sim.core.outdir` for what may be
    replaced). ``out_dir`` may be an :class:`OutDir` claimed before the work started."""
    od = out_dir if isinstance(out_dir, OutDir) else OutDir.claim(out_dir, kind)
    with od:
        return od.write(fill)
