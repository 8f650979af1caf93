"""Read what the toolkit writes — a sweep dataset or one run's ``--out`` directory — into
one shape for analysis: a frame of cells (parameters, games, successes of the primary
rate) and the game's tables with a ``cell`` column."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from sim.core.output import LEGACY_MANIFEST_FILE, MANIFEST_FILE, has_manifest, read_manifest
from sim.errors import SimInputError



@dataclass
class Loaded:
    """What the toolkit wrote, in one shape for analysis: cells (parameters, games, successes) and tables."""
    kind: str                     # sweep | run | matrix | loo
    game: str
    name: str
    axes: list[str]
    metric: str
    cells: pl.DataFrame           # cell, <axes>, games, successes, rate, … one row per cell
    tables: dict[str, pl.DataFrame] = field(default_factory=dict)
    manifest: dict = field(default_factory=dict)
    path: Path = Path(".")
    blocks: pl.DataFrame | None = None  # sweeps: each cell's successes per block (paired intervals)

    @property
    def games(self) -> int:
        return int(self.cells["games"].sum()) if "games" in self.cells.columns else 0


def _sweep_dirs(p: Path) -> list[Path]:
    if p.name.startswith("sweep=") and has_manifest(p):
        return [p]
    return sorted({m.parent for name in (MANIFEST_FILE, LEGACY_MANIFEST_FILE) for m in p.glob(f"**/sweep=*/{name}")})


def locate(path: str | Path) -> tuple[str, Path]:
    """("sweep", its ``sweep=`` directory) or ("run", the ``--out`` directory) of ``path``,
    else the error saying why it is not a dataset (nothing is read but directory names)."""
    p = Path(path)
    if not p.exists():
        raise SimInputError(f"{p}: no such dataset")
    sweeps = _sweep_dirs(p) if p.is_dir() else []
    if len(sweeps) > 1:
        names = ", ".join(str(s.relative_to(p)) for s in sweeps[:6])
        raise SimInputError(f"{p} holds {len(sweeps)} sweeps ({names}); point at one sweep=… directory")
    if sweeps:
        return "sweep", sweeps[0]
    if has_manifest(p):
        return "run", p
    raise SimInputError(f"{p}: not a dataset (no sweep=…/{MANIFEST_FILE} and no {MANIFEST_FILE})")


def load(path: str | Path) -> Loaded:
    """Load a sweep dataset (root or ``sweep=`` directory) or one run's ``--out`` directory."""
    kind, d = locate(path)
    return _load_sweep(d) if kind == "sweep" else _load_run(d)


def _load_sweep(sd: Path) -> Loaded:
    from sim.sweep.dataset import SUMMARY_FILE, nested_tables, read

    man = read_manifest(sd) or {}
    if not any(sd.glob(f"cell=*/{SUMMARY_FILE}")):
        raise SimInputError(f"{sd}: the sweep has no finished cells yet")
    cells = read(sd).collect()
    names = nested_tables(pl.scan_parquet(sd / "cell=*" / SUMMARY_FILE, hive_partitioning=True).collect_schema())
    tables = {n: read(sd, n).collect() for n in names if n != "blocks"}
    blocks = read(sd, "blocks").select("cell", "start", "games", "successes").collect() if "blocks" in names else None
    return Loaded("sweep", man["game"], man.get("sweep", sd.name[len("sweep="):]), list(man.get("axes", [])),
                  man.get("metric", "rate"), cells.sort("cell"), tables, man, sd, blocks)


def run_tables(d: str | Path) -> dict[str, pl.DataFrame]:
    """The tables of one run's ``--out`` directory: a one-row file with nested tables (what
    ``write_tables`` writes for several tables) is split back into its tables; the flat
    files of older outputs (one per table) are read as they are."""
    from sim.sweep.dataset import nested_tables

    tables: dict[str, pl.DataFrame] = {}
    for f in sorted(Path(d).glob("*.parquet")):
        df = pl.read_parquet(f)
        nested = nested_tables(df.schema) if df.height == 1 else []
        for n in nested:
            tables[n] = (df.select(n).explode(n).unnest(n) if df[n].list.len()[0] else
                         pl.DataFrame(schema=df.schema[n].inner.to_schema()))
        if len(nested) < df.width:
            tables[f.stem] = df.drop(nested)
    return tables


def _load_run(d: Path) -> Loaded:
    man = read_manifest(d) or {}
    game = man.get("game", "")
    tables = {n: t.with_columns(pl.lit(0).alias("cell")) for n, t in run_tables(d).items()}
    command = man.get("command", "")
    if "matrix" in tables:
        m = tables["matrix"]
        cells = pl.DataFrame({"cell": [0], "games": [int(m["games"].sum())], "successes": [int(m["wins"].sum())]})
        return Loaded("matrix", game, command, [], "win_rate", with_rates(cells), tables, man, d)
    if "sensitivity" in tables:
        return Loaded("sensitivity", game, command, [], man.get("metric", "rate"), pl.DataFrame({"cell": [0]}),
                      tables, man, d)
    if "ladder" in tables:
        m = tables["ladder"]
        cells = pl.DataFrame({"cell": [0], "games": [int(m["games"].sum())], "successes": [int(m["successes"].sum())]})
        return Loaded("ladder", game, command, [], man.get("metric", "rate"), with_rates(cells), tables, man, d)
    if "tune" in tables:  # sim tune --out: the search trace, of the game's primary rate
        from sim.core.game import games

        metric = man.get("metric") or getattr(games().get(game), "metric", "rate")
        return Loaded("tune", game, command, [], metric, pl.DataFrame({"cell": [0]}), tables, man, d)
    if "values" in tables:  # sim GAME values --out
        return Loaded("values", game, command, [], man.get("metric", "rate"), pl.DataFrame({"cell": [0]}), tables,
                      man, d)
    if loo_table(tables) is not None:
        return Loaded("loo", game, command, [], "win_rate", pl.DataFrame({"cell": [0]}), tables, man, d)
    if "summary" not in tables:
        raise SimInputError(f"{d}: no summary.parquet")
    s = tables["summary"]
    from sim.core.game import games as all_games

    if game not in all_games():
        raise SimInputError(f"{d}: unknown game {game!r} in the manifest")
    g = all_games()[game]
    metric, succ = g.metric, g.run_primary(tables)
    cells = pl.DataFrame({"cell": [0], "games": [int(s["games"][0])], "successes": [succ]})
    return Loaded("run", game, command, [], metric, with_rates(cells), tables, man, d)


def loo_table(tables: dict[str, pl.DataFrame]) -> tuple[str, pl.DataFrame] | None:
    """The leave-one-out table of an output (the one with a ``delta`` / ``<side>_delta`` column)."""
    return next(((n, t) for n, t in tables.items()
                 if n != "values" and any(c.endswith("delta") for c in t.columns)), None)


def with_rates(df: pl.DataFrame, lo: str = "rate_ci_low", hi: str = "rate_ci_high") -> pl.DataFrame:
    """``df`` (columns successes, games) with ``rate`` and its Wilson 95% interval."""
    from sim.core.stats import wilson

    ci = [wilson(int(s), int(g)) for s, g in zip(df["successes"], df["games"])]
    return df.with_columns((pl.col("successes") / pl.col("games")).alias("rate"),
                           pl.Series(lo, [c[0] for c in ci], dtype=pl.Float64),
                           pl.Series(hi, [c[1] for c in ci], dtype=pl.Float64))
