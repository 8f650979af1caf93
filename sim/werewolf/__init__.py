"""The Werewolf museum variant (rules: docs/rules/werewolf.md; project rulings: docs/werewolf.md).

Public API: ``GAME`` (the :class:`sim.core.game.Game`), ``build_config`` → ``compile_setup``
(the compiled configuration, a :class:`Setup`), ``run``, ``summary_tables``,
``leave_one_out``, ``trace_game`` (one game, event by event), and the exact solver
``exact_summary`` / ``exact_village_win``."""
from sim.core.lazy import lazy_exports

_EXPORTS = {
    "GAME": ".protocol", "build_config": ".roles", "compile_setup": ".roles", "Setup": ".roles",
    "parse_composition": ".roles", "run": ".game", "summary_tables": ".game", "leave_one_out": ".game",
    "WerewolfResult": ".game", "trace_game": ".trace", "exact_summary": ".exact", "exact_village_win": ".exact",
}
__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
