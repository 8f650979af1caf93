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
# # Looper: who is a good key person?
#
# Load the Looper data, play a baseline, then sweep the secret key person against the
# player strategy and plot the player's win rate with 95% confidence intervals.
# `SIM_NB_GAMES` sets the games per cell (the test suite runs this notebook tiny).

# %%
import os
import tempfile
from pathlib import Path

import matplotlib.pyplot as plt
import polars as pl

from sim.looper.game import run
from sim.looper.roster import build_config
from sim.sweep.dataset import read
from sim.sweep.run import run_sweep
from sim.sweep.spec import parse_spec

GAMES = int(os.environ.get("SIM_NB_GAMES", 20_000))
OUT = Path(os.environ.get("SIM_NB_OUT") or tempfile.mkdtemp(prefix="looper-nb-"))

# %% [markdown]
# ## The data: every number is in `sim/looper/data/base.toml`

# %%
cfg = build_config()
pl.DataFrame([{"character": c, "location": ch["location"], "attributes": ",".join(ch["attributes"]),
               "rules": ", ".join(e["kind"] for e in ch["effects"])} for c, ch in cfg["characters"].items()])

# %% [markdown]
# ## A baseline run

# %%
base = run(GAMES, seed=1, player="deducer", scriptwriter="random")
base.summary.select("games", "player_win_rate", "ci_low", "ci_high", "mean_loops")

# %%
base.tables["deaths"].head(10)

# %% [markdown]
# ## A small sweep: key person × player strategy

# %%
spec = parse_spec({
    "game": "looper", "name": "key-person", "seed": 1, "games": GAMES,
    "base": {"scriptwriter": "random"},
    "axes": [{"path": "setup.key_person", "values": ["cat", "bully", "psychopath", "laid_off_man"]},
             {"path": "player", "values": ["random", "deducer"]}],
})
report = run_sweep(spec, OUT)
cells = read(report.path).collect().sort("cell")
cells.select("setup.key_person", "player", "games", "rate", "rate_ci_low", "rate_ci_high")

# %%
fig, ax = plt.subplots(figsize=(7, 4))
for i, (player, g) in enumerate(cells.group_by("player", maintain_order=True)):
    x = [k + 0.15 * i for k in range(g.height)]
    ax.errorbar(x, g["rate"], yerr=[g["rate"] - g["rate_ci_low"], g["rate_ci_high"] - g["rate"]],
                fmt="o", capsize=4, label=player[0])
ax.set_xticks(range(g.height), g["setup.key_person"].to_list())
ax.set_ylabel("player win rate (95% CI)")
ax.set_title("Looper: player win rate by key person")
ax.legend()
fig.tight_layout()
