"""Monte Carlo balance-analysis toolkit for the Looper, Werewolf and 3d6 TRPG games."""

__version__ = "0.1.0"

import os as _os
import sys as _sys

from sim.core import audit as _audit

# ``--check-bounds`` (or SIM_CHECK_BOUNDS=1) must switch numba's bounds checking on before
# anything is compiled: the ``sim`` command takes the flag out of its arguments here, on
# every sub-command alike (sim.core.audit).
_prog = _os.path.basename(_sys.argv[0]) if _sys.argv else ""
_audit.configure(_sys.argv if _prog == "sim" or _sys.argv[0:1] == ["-m"] or
                 _sys.argv[0].endswith(_os.path.join("sim", "__main__.py")) else None)
