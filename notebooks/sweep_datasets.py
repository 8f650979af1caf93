# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Reading sweep datasets with polars (and DuckDB, pandas)
#
# A sweep writes one file per cell, `OUT/game=…/sweep=…/cell=…/part-0.parquet`: one row
# with the cell's parameters, its win rate with CI and the game's summary, plus the game's
# tables (`deaths`, `roles`, `sides`, …, `blocks`) nested as list-of-struct columns, and
# `_manifest.json` beside the cells. Sweeps of different games or axes have different
# columns, so reading several at once takes the union of their schemas:
# `sim.sweep.dataset.read` does (one scan per sweep, concatenated by column name), and so
# does DuckDB with `union_by_name=true`. Every column: [docs/data.md](../docs/data.md).

# %%
import os
import tempfile
from pathlib import Path

import matplotlib.pyplot as plt
import polars as pl

from sim.sweep.dataset import read
from sim.sweep.run import run_sweep
from sim.sweep.spec import parse_spec

GAMES = int(os.environ.get("SIM_NB_GAMES", 20_000))
OUT = Path(os.environ.get("SIM_NB_OUT") or tempfile.mkdtemp(prefix="datasets-nb-"))

for raw in (
    {"game": "werewolf", "name": "runoffs", "seed": 1, "games": GAMES,
     "axes": [{"path": "variants.max_runoffs", "values": [1, 2, 5, 50]}]},
    {"game": "looper", "name": "loops", "seed": 1, "games": GAMES,
     "axes": [{"path": "rules.max_loops", "grid": {"start": 1, "stop": 4}}]},
):
    run_sweep(parse_spec(raw), OUT)
sorted(str(p.relative_to(OUT)) for p in OUT.glob("game=*/sweep=*"))

# %% [markdown]
# ## One row per cell, all sweeps at once

# %%
cells = read(OUT)   # every cell of every sweep, with all their parameter columns
cells.select("game", "sweep", "cell", "variants.max_runoffs", "rules.max_loops", "games", "rate", "rate_ci_low",
             "rate_ci_high").sort("game", "cell").collect()

# %% [markdown]
# The same in plain polars (one scan per sweep, `how="diagonal_relaxed"` unites their
# columns) and in DuckDB; a single `pl.scan_parquet` over the root would take the first
# file's columns and fail on (or, with `extra_columns="ignore"`, drop) the others'.

# %%
import duckdb  # noqa: E402

plain = pl.concat([pl.scan_parquet(sd / "cell=*" / "*.parquet", hive_partitioning=True)
                   for sd in sorted(OUT.glob("game=*/sweep=*"))], how="diagonal_relaxed")
duck = duckdb.sql(f"SELECT * FROM read_parquet('{OUT}/**/*.parquet', hive_partitioning=true, union_by_name=true)").pl()
assert plain.collect().height == duck.height == cells.collect().height
duck.select("game", "cell", "variants.max_runoffs", "rules.max_loops", "rate").sort("game", "cell")

# %% [markdown]
# ## Lazy queries: filter one sweep, join a detail table

# %%
loops = pl.scan_parquet(OUT / "game=looper" / "**" / "part-*.parquet", hive_partitioning=True)
deaths = loops.select("cell", "deaths").explode("deaths").unnest("deaths")   # by hand …
deaths = read(OUT / "game=looper", "deaths")                                   # … or with the helper
top = (deaths.group_by("cell", "character").agg(pl.col("deaths_per_game").sum())
       .sort("deaths_per_game", descending=True).group_by("cell").head(1))
top.join(loops.select("cell", "rate"), on="cell").sort("cell").collect()

# %% [markdown]
# ## Plot the werewolf sweep

# %%
ww = pl.scan_parquet(OUT / "game=werewolf" / "**" / "part-*.parquet", hive_partitioning=True).sort("cell").collect()
fig, ax = plt.subplots(figsize=(6, 3.5))
x = [str(v) for v in ww["variants.max_runoffs"]]
ax.errorbar(x, ww["rate"], yerr=[ww["rate"] - ww["rate_ci_low"], ww["rate_ci_high"] - ww["rate"]], fmt="o", capsize=4)
ax.set_xlabel("max runoffs")
ax.set_ylabel("village win rate (95% CI)")
fig.tight_layout()

# %% [markdown]
# ## The manifest says how the data was made

# %%
import json  # noqa: E402

import pyarrow.parquet as pq  # noqa: E402

man = json.loads(next(OUT.glob("game=werewolf/sweep=*/_manifest.json")).read_text())
# every parquet file carries the same manifest in its metadata
cell0 = next(OUT.glob("game=werewolf/sweep=*/cell=0/part-0.parquet"))
assert json.loads(pq.read_schema(cell0).metadata[b"sim_manifest"]) == man
{k: man[k] for k in ("game", "seed", "versions", "git_commit", "git_dirty", "created", "spec_sha256", "paired")}
