"""Race plug-ins for the value-of-hidden-information test: an ``oracle_``-named tier and its
honest twin (race has no hidden information; the name is what labels a tier an oracle)."""
from sim_race.strategies import bold_nb, threshold_nb

bold = bold_nb
oracle_bold = threshold_nb   # "the oracle" plays another decision rule, so the gap is not zero
