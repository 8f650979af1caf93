"""`oracle_attack`: wolves that read the judge's view (an *oracle*, labelled in every output).

The attack avoids tonight's protected participants (which only the paladin may know);
every other decision is random. It exists to show what hidden information is worth and
to check that the honesty tests detect a strategy that reads it
(tests/test_werewolf_honest.py). Its hooks receive a ``JudgeView`` (sim/werewolf/views.py).
"""
import numba as nb

from sim.core.rng import choose_bit_nb


@nb.njit
def oracle_attack_nb(rng, view, cands):
    safe = cands & ~view.protected
    return choose_bit_nb(rng, safe if safe else cands)
