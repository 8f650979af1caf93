"""The 3d6 kaii TRPG (rules: docs/rules/trpg.md; project rulings: docs/trpg.md).

Public API: ``GAME`` (the :class:`sim.core.game.Game`), ``build_config`` →
``compile_setup`` (the compiled configuration: the game's *setup*), ``run`` (many combats), ``summary_tables``, ``leave_one_out``,
``matchup_matrix``, the exact duel and the outside-combat rules (:mod:`sim.trpg.outside`)."""
from sim.core.lazy import lazy_exports

_EXPORTS = {
    "GAME": ".protocol", "build_config": ".sheets", "compile_setup": ".sheets", "Setup": ".sheets",
    "scenario_path": ".sheets", "run": ".game", "summary_tables": ".game", "CombatResult": ".game",
    "leave_one_out": ".loo", "matchup_matrix": ".matrix",
}
__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
