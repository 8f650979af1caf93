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
# # Werewolf: how many villagers, which vote rule?
#
# Load the role table, check the Monte Carlo against the exact solver, then sweep the
# number of villagers and the vote rule with paired streams and compare two cells.

# %%
import os
import tempfile
from pathlib import Path

import matplotlib.pyplot as plt
import polars as pl

from sim.sweep.compare import compare_cells
from sim.sweep.dataset import read
from sim.sweep.run import run_sweep
from sim.sweep.spec import parse_spec
from sim.werewolf.exact import exact_village_win
from sim.werewolf.game import run
from sim.werewolf.roles import build_config

GAMES = int(os.environ.get("SIM_NB_GAMES", 50_000))
OUT = Path(os.environ.get("SIM_NB_OUT") or tempfile.mkdtemp(prefix="werewolf-nb-"))

# %% [markdown]
# ## The data: roles and variants in `sim/werewolf/data/roles.toml`

# %%
cfg = build_config()
pl.DataFrame([{"role": r, "team": v["team"], "ability": v["ability"]} for r, v in cfg["roles"].items()])

# %% [markdown]
# ## Monte Carlo against the exact answer (random play, 2 wolves, 6 villagers)

# %%
mc = run(GAMES, seed=1, roles="werewolf*2,villager*6").summary.row(0, named=True)
exact = float(exact_village_win(2, 6, 0))
{"monte_carlo": mc["village_win_rate"], "ci": (mc["ci_low"], mc["ci_high"]), "exact": exact}

# %% [markdown]
# ## Sweep: villagers × vote rule, paired streams

# %%
spec = parse_spec({
    "game": "werewolf", "name": "villagers", "seed": 1, "games": GAMES, "paired": True,
    "base": {"roles": "werewolf*2,seer,villager*4"},
    "axes": [{"path": "count.villager", "grid": {"start": 3, "stop": 8}},
             {"path": "variants.vote_rule", "values": ["runoff", "plurality"]}],
})
rep = run_sweep(spec, OUT)
cells = read(rep.path).collect().sort("cell")
cells.select("count.villager", "variants.vote_rule", "rate", "rate_ci_low", "rate_ci_high")

# %%
fig, ax = plt.subplots(figsize=(7, 4))
for (rule,), g in cells.group_by("variants.vote_rule", maintain_order=True):
    ax.fill_between(g["count.villager"], g["rate_ci_low"], g["rate_ci_high"], alpha=0.25)
    ax.plot(g["count.villager"], g["rate"], marker="o", label=rule)
ax.set_xlabel("villagers")
ax.set_ylabel("village win rate (95% CI)")
ax.set_title("Werewolf: village win rate by villagers and vote rule")
ax.legend()
fig.tight_layout()

# %% [markdown]
# ## A paired comparison: 6 villagers, runoff against plurality

# %%
a = cells.filter((pl.col("count.villager") == 6) & (pl.col("variants.vote_rule") == "runoff"))["cell"][0]
b = cells.filter((pl.col("count.villager") == 6) & (pl.col("variants.vote_rule") == "plurality"))["cell"][0]
d = compare_cells(rep.path / f"cell={a}", rep.path / f"cell={b}")
{k: d[k] for k in ("rate_a", "rate_b", "diff", "ci_low", "ci_high", "paired", "variance_ratio")}
