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
# # TRPG: what does a point of melee buy?
#
# Load the alley scenario, look at exact 3d6 check odds, then sweep Ren's melee skill
# against the shade's target choice and plot the players' win rate.

# %%
import os
import tempfile
from pathlib import Path

import matplotlib.pyplot as plt
import polars as pl

from sim.sweep.dataset import read
from sim.sweep.run import run_sweep
from sim.sweep.spec import parse_spec
from sim.trpg.dice import check_probability
from sim.trpg.game import run
from sim.trpg.sheets import resolve_setup

GAMES = int(os.environ.get("SIM_NB_GAMES", 20_000))
OUT = Path(os.environ.get("SIM_NB_OUT") or tempfile.mkdtemp(prefix="trpg-nb-"))
ALLEY = Path(__import__("sim.trpg", fromlist=["x"]).__file__).parent / "data" / "scenarios" / "alley.toml"

# %% [markdown]
# ## The data: the scenario's sheets

# %%
sc = resolve_setup(ALLEY)
pl.DataFrame([{"character": c, "side": ch["side"], "hp": ch["hp"], **ch["skills"]}
              for c, ch in sc.config["characters"].items()])

# %% [markdown]
# ## Exact 3d6 roll-under odds for skill values 8 … 16

# %%
pl.DataFrame([{"skill": s, **{k: float(v) for k, v in check_probability(s, 0).items()}} for s in range(8, 17)])

# %% [markdown]
# ## A baseline run

# %%
base = run(GAMES, seed=1, scenario=sc)
base.tables["sides"]

# %% [markdown]
# ## Sweep: Ren's melee × the shade's target choice

# %%
spec = parse_spec({
    "game": "trpg", "name": "ren-melee", "seed": 1, "games": GAMES,
    "base": {"scenario": str(ALLEY)},
    "axes": [{"path": "characters.ren.skills.melee", "grid": {"start": 9, "stop": 16}},
             {"path": "characters.shade.strategy.target", "values": ["nearest", "weakest"]}],
})
rep = run_sweep(spec, OUT)
cells = read(rep.path).collect().sort("cell")

fig, ax = plt.subplots(figsize=(7, 4))
for (target,), g in cells.group_by("characters.shade.strategy.target", maintain_order=True):
    x = g["characters.ren.skills.melee"]
    ax.fill_between(x, g["rate_ci_low"], g["rate_ci_high"], alpha=0.25)
    ax.plot(x, g["rate"], marker="o", label=f"shade targets {target}")
ax.set_xlabel("Ren's melee skill")
ax.set_ylabel("players' win rate (95% CI)")
ax.set_title("TRPG alley: players' win rate by Ren's melee")
ax.legend()
fig.tight_layout()
