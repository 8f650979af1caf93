"""Differences of rates, as a designer reads them: in points (a difference of two rates
× 100, +33.7). Text prints points; JSON keeps the fraction under its own name and adds the
points beside it (``delta`` and ``delta_points``)."""
from __future__ import annotations

from typing import Any, Mapping

# columns holding a difference of two rates (or its interval), in any table the CLI prints
DIFFERENCE_KEYS = ("delta", "delta_ci_low", "delta_ci_high", "value_to_side", "value_ci_low", "value_ci_high",
                   "advantage", "advantage_ci_low", "advantage_ci_high", "draw_delta", "gain", "diff")


def is_difference(key: str) -> bool:
    return key in DIFFERENCE_KEYS or key.endswith("_delta") or key.endswith("_delta_ci_low") \
        or key.endswith("_delta_ci_high")


def with_points(row: Mapping[str, Any]) -> dict:
    """``row`` with ``<key>_points`` (× 100) after every difference of rates it holds."""
    out: dict = {}
    for k, v in row.items():
        out[k] = v
        if is_difference(k) and f"{k}_points" not in row:
            out[f"{k}_points"] = None if v is None else 100 * v
    return out


def rows_with_points(rows: list[Mapping[str, Any]]) -> list[dict]:
    return [with_points(r) for r in rows]
