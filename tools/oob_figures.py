"""The figures of issue 38's closing note: each off-by-one plug-in of tests/plugins/oob_*.py
against its honest baseline and its oracle_ twin, at fixed seeds.

    PYTHONPATH=. .venv/bin/python tools/oob_figures.py
"""
import numpy as np
from tests.test_oob_looper import _named
from tests.test_werewolf_honest import first_night_hits, GAMES, CHANCE
from tests.test_oob_werewolf import _totals, _seer_attacked
from tests.plugins import oob_werewolf as O, oob_looper as OL
from sim.looper import build_config, compile_setup
from tests.test_looper_honest import NAMING
from strategies.looper import PLAYERS
from sim.werewolf.game_nb import C_VILLAGE
naming = compile_setup(build_config(sets=NAMING))
r, n = _named(naming, OL.oob_stream, 20000, 4242)
print(f"looper oob_stream names the key person {r}/{n} = {r/n:.4f} (chance 1/{naming.n_chars-1} = {1/(naming.n_chars-1):.4f})")
h = first_night_hits(O.oob_stream)
print(f"werewolf oob_stream hits protection on night 1: {h}/{GAMES} = {h/GAMES:.4f} (chance {CHANCE:.4f})")
for name, t in [("random", _totals("random", "random", 20000)), ("oob_deal", _totals("random", O.oob_deal, 20000)), ("oracle_deal", _totals("random", O.oracle_deal, 20000))]:
    a, g = _seer_attacked(t)
    print(f"werewolf wolves={name}: seer attacked {a}/{g} = {a/g:.4f}; village wins {t['scalars'][C_VILLAGE]/20000:.4f}")
for name, v in [("random", "random"), ("oob_know", O.oob_know), ("oracle_know", O.oracle_know)]:
    t = _totals(v, "random", 20000)
    print(f"werewolf village={name}: village wins {t['scalars'][C_VILLAGE]/20000:.4f}")
