"""The Looper loop game (rules: docs/rules/looper.md)."""
from sim.looper.api import DayResult, default_roster, resolve_day
from sim.looper.roster import Roster, build_config, compile_roster

__all__ = ["DayResult", "Roster", "build_config", "compile_roster", "default_roster", "play", "resolve_day"]


def __getattr__(name):  # `play` pulls in the numba kernels; import it lazily
    if name == "play":
        from sim.looper.game import play

        return play
    raise AttributeError(name)
