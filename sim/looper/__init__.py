"""The Looper loop game (rules: docs/rules/looper.md; project rulings: docs/looper.md).

Public API: ``GAME`` (the :class:`sim.core.game.Game`), ``build_config`` → ``compile_setup``
(the compiled configuration: the game's *setup*), ``run`` (many whole
games), ``play`` (a summary frame), ``summary_tables``, ``leave_one_out``, and the
one-day API ``resolve_day`` / ``default_setup`` / ``DayResult``."""
from sim.core.lazy import lazy_exports

_EXPORTS = {
    "GAME": ".protocol", "build_config": ".roster", "compile_setup": ".roster", "Setup": ".roster",
    "run": ".game", "play": ".game", "summary_tables": ".game", "LooperResult": ".game",
    "leave_one_out": ".loo", "resolve_day": ".api", "default_setup": ".api", "DayResult": ".api",
}
__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
