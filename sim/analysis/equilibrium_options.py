"""The options of a grown equilibrium per setting — a balance spec's ``[adapt]`` table, a
sweep spec's ``[equilibrium]`` — checked, with their defaults (shared by
sim.analysis.balance_adapt and sim.sweep.spec, which must not import each other's side)."""
from __future__ import annotations

from sim.core.schema import ANY, check_keys
from sim.errors import SimInputError

SCHEMA = {"tiers": ANY, "families": ANY, "rounds": ANY, "budget": ANY, "games": ANY, "epsilon": ANY, "warm": ANY}


def equilibrium_options(game, base: dict, raw: dict, name: str, kind: str) -> dict:
    """A ``[adapt]`` (balance) or ``[equilibrium]`` (sweep) table, checked, with its
    defaults: the starting population (default: [base]'s strategies), more families, rounds,
    budget, games per cell, ε and ``warm`` (default true: each setting's growth starts from
    its neighbours' populations as well as the tiers; false: from the tiers alone).
    ``labels`` keeps the tiers as text (picklable, for a sweep job); ``rows`` / ``cols``
    are the parsed tiers."""
    from sim.analysis.metagame import parse_tier, two_sides

    check_keys({name: raw}, {name: SCHEMA}, kind)
    a, b = two_sides(game, game.compile_cell(base)[0])
    tiers = raw.get("tiers") or {s: [base["strategies"].get(s, game.default_strategy)] for s in (a, b)}
    fams = raw.get("families") or {}
    for key, table in (("tiers", tiers), ("families", fams)):
        if not isinstance(table, dict) or set(table) - {a, b} or not all(
                isinstance(v, list) and all(isinstance(x, str) for x in v) for v in table.values()):
            raise SimInputError(f"{name}.{key}: expected {{ {a} = [\"NAME\", …], {b} = [\"NAME\", …] }}")
    opts = {k: raw.get(k, d) for k, d in (("rounds", 4), ("budget", 10), ("games", 2000), ("epsilon", 0.01))}
    for k in ("rounds", "budget", "games"):
        if not isinstance(opts[k], int) or isinstance(opts[k], bool) or opts[k] < 1:
            raise SimInputError(f"{name}.{k}: expected a positive integer, got {opts[k]!r}")
    if not isinstance(opts["epsilon"], (int, float)) or not 0 <= opts["epsilon"] < 1:
        raise SimInputError(f"{name}.epsilon: expected a rate in [0, 1), got {opts['epsilon']!r}")
    warm = raw.get("warm", True)
    if not isinstance(warm, bool):
        raise SimInputError(f"{name}.warm: expected true or false, got {warm!r}")
    opts["warm"] = warm
    labels = {s: list(tiers.get(s) or [base["strategies"].get(s, game.default_strategy)]) for s in (a, b)}
    rows = [parse_tier(game, a, t) for t in labels[a]]
    cols = [parse_tier(game, b, t) for t in labels[b]]
    return {**opts, "rows": rows, "cols": cols, "families": {k: list(v) for k, v in fams.items()},
            "labels": labels, "sides": (a, b)}
