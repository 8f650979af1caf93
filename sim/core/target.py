"""The designer's target (``--target 0.45:0.55``) and the verdict a figure ends with.

A target is a band of the primary rate (the first side's win rate): ``LOW:HIGH`` as
fractions, or one value meaning ±2 points around it. Nothing speaks of a target unless
one is given: there is no default (not even 50%).

A verdict reads the rate's 95% interval against the band: "in band" when the whole
interval lies inside it, "<side> favoured by N points" (N from the band's nearest edge,
with the interval's distance) when the whole interval lies outside, and "not sure" when the
interval crosses an edge (more games would tell).
"""
from __future__ import annotations

from dataclasses import dataclass

from sim.errors import SimInputError

HALF_WIDTH = 0.02  # a single value means ±2 points


@dataclass(frozen=True)
class Target:
    low: float
    high: float

    @property
    def text(self) -> str:
        return f"{100 * self.low:g}–{100 * self.high:g}%"

    def to_json(self) -> dict:
        return {"low": self.low, "high": self.high}


def parse_target(text: str | None) -> Target | None:
    """``"0.45:0.55"`` or ``"0.5"`` (±2 points) → a :class:`Target`; None when not given."""
    if text is None:
        return None
    s = str(text).strip()
    where = f"--target {text!r}"
    parts = s.split(":")
    try:
        nums = [float(p) for p in parts]
    except ValueError:
        raise SimInputError(f"{where}: expected LOW:HIGH (e.g. 0.45:0.55) or one rate (0.5 means 0.48:0.52), "
                            f"as fractions of 1") from None
    if len(nums) == 1:
        nums = [nums[0] - HALF_WIDTH, nums[0] + HALF_WIDTH]
    if len(nums) != 2 or any(x != x for x in nums):
        raise SimInputError(f"{where}: expected LOW:HIGH (e.g. 0.45:0.55) or one rate")
    lo, hi = nums
    if not (0.0 <= lo <= 1.0 and 0.0 <= hi <= 1.0) and len(parts) == 2:
        raise SimInputError(f"{where}: rates are fractions of 1 (0.45, not 45)")
    if len(parts) == 1 and not 0.0 <= float(parts[0]) <= 1.0:
        raise SimInputError(f"{where}: rates are fractions of 1 (0.45, not 45)")
    if lo >= hi:
        raise SimInputError(f"{where}: LOW must be below HIGH")
    return Target(round(max(lo, 0.0), 12), round(min(hi, 1.0), 12))


def verdict(target: Target, rate: float, ci_low: float, ci_high: float, sides: tuple[str, ...],
            under: str = "") -> dict:
    """The verdict of a rate (the first side's) against the band: ``status`` ("in band",
    "out of band", "not sure"), ``favoured`` (a side or ""), the distance from the band in
    points with its interval, and ``text``."""
    first = sides[0] if sides else "the first side"
    other = sides[1] if len(sides) == 2 else "the other side" + ("s" if len(sides) > 2 else "")
    where = f" under {under}" if under else ""
    said = f"{100 * rate:.1f}% (95% CI {100 * ci_low:.1f}–{100 * ci_high:.1f})"
    if ci_low >= target.low and ci_high <= target.high:
        return {"status": "in band", "favoured": "", "points": 0.0, "points_ci_low": 0.0, "points_ci_high": 0.0,
                "text": f"in band: {said} lies within the target {target.text}{where}"}
    if rate > target.high:
        fav, d, dlo, dhi = first, rate - target.high, ci_low - target.high, ci_high - target.high
    elif rate < target.low:
        fav, d, dlo, dhi = other, target.low - rate, target.low - ci_high, target.low - ci_low
    else:
        fav, d, dlo, dhi = "", 0.0, 0.0, 0.0
    if fav and dlo > 0:
        return {"status": "out of band", "favoured": fav, "points": 100 * d, "points_ci_low": 100 * dlo,
                "points_ci_high": 100 * dhi,
                "text": f"{fav} favoured by {100 * d:.1f} points (95% CI {100 * dlo:.1f} … {100 * dhi:.1f}) beyond "
                        f"the target {target.text}: {_possessive(first)} rate {said}{where}"}
    lean = f"; the estimate leans to {fav} by {100 * d:.1f} points" if fav else "; the estimate is in band"
    return {"status": "not sure", "favoured": fav, "points": 100 * d, "points_ci_low": 100 * dlo,
            "points_ci_high": 100 * dhi,
            "text": f"not sure: {said} crosses an edge of the target {target.text}{lean}{where}; more games "
                    f"would tell"}


def _possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"  # the players' rate, the village's rate


def into_band(target: Target, rows: list[dict], key: str, rate: str = "rate", low: str = "ci_low",
              high: str = "ci_high") -> list[dict]:
    """The rows (changes) whose rate lands in the band on its own: ``{key, rate, ci_low,
    ci_high, sure}`` (``sure``: the whole interval inside), in the rows' order."""
    out = []
    for r in rows:
        if r.get(rate) is None:
            continue
        b = in_band(target, r[rate], r[low], r[high])
        if b != "no" and target.low <= r[rate] <= target.high:
            out.append({key: r[key], "rate": r[rate], "ci_low": r[low], "ci_high": r[high], "sure": b == "yes"})
    return out


def into_band_text(moves: list[dict], key: str, what: str) -> str:
    """One line naming the ``what`` that bring the rate into the band on their own."""
    if not moves:
        return f"none of the {what} alone brings the rate into the band"
    return f"{what} that alone bring the rate into the band: " + "; ".join(
        f"{m[key]} {100 * m['rate']:.1f}% ({100 * m['ci_low']:.1f}–{100 * m['ci_high']:.1f}"
        f"{'' if m['sure'] else ', not sure'})" for m in moves)


def in_band(target: Target, rate: float, ci_low: float, ci_high: float) -> str:
    """"yes" (the interval inside the band), "maybe" (the estimate inside, not the interval), "no"."""
    if ci_low >= target.low and ci_high <= target.high:
        return "yes"
    if target.low <= rate <= target.high or (ci_low <= target.high and ci_high >= target.low):
        return "maybe"
    return "no"


def band_of(t) -> Target:
    """A spec's or the command line's target: a rate, ``"LOW:HIGH"`` or ``[LOW, HIGH]``."""
    if isinstance(t, list) and len(t) == 2:
        t = f"{t[0]}:{t[1]}"
    if isinstance(t, bool) or not isinstance(t, (int, float, str)):
        raise SimInputError(f"target: expected a rate, \"LOW:HIGH\" or [LOW, HIGH], got {t!r}")
    return parse_target(str(t))
