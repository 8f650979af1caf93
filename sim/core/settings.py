"""One line naming every setting a figure depends on (text headers, JSON, manifests): the
strategies with their knob values, the composition or scenario, the configuration files,
every ``--set`` and the seed — so two runs with different settings never print the same header."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence


def settings_line(game, setup: Any, labels: Mapping[str, str], config: Any, sets: Sequence[str],
                  options: Mapping[str, Any], seed: int | None = None) -> str:
    """``village claims@report=0.8 vs wolves random; composition …; config a.toml; --set x=1; seed 0``."""
    return settings_text(labels, game.manifest_extra(setup, options), config, sets, seed)


def settings_text(labels: Mapping[str, str], extra: Mapping[str, Any], config: Any, sets: Sequence[str],
                  seed: int | None = None) -> str:
    """The line from its parts: ``extra`` is the game's own (its composition, its scenario)."""
    parts = []
    if labels:
        parts.append(" vs ".join(f"{s} {v}" for s, v in labels.items()))
    for k, v in extra.items():
        if k != "oracles":
            parts.append(f"{k.replace('_', ' ')} {v}")
    files = [config] if isinstance(config, (str, Path)) else list(config or [])
    if len(files) == 1:
        parts.append(f"config {files[0]}")
    elif files:
        parts.append("config " + " then ".join(str(f) for f in files) + " (merged in order: a later file wins)")
    if sets:
        parts.append(" ".join(f"--set {s}" for s in sets))
    if seed is not None:
        parts.append(f"seed {seed}")
    return "; ".join(parts)
