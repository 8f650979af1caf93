"""Strategy knobs: the parameters a strategy declares as data, and strategy specs with values.

A strategy object may carry ``knobs``, a tuple of :class:`Knob` (name, type, range,
default). A *strategy spec* names a strategy with knob values, the same way everywhere:

* on the command line and in tiers: ``threshold@k=3`` (``--p1 threshold@k=3``,
  ``sim ladder race --tiers p1=bold,threshold@k=3``);
* in a TOML file (what ``sim tune`` writes), given where a strategy name goes
  (``--village tuned.toml``)::

      [p1]
      strategy = "threshold"
      k = 3

Knob values reach the kernel through the configuration: each game maps a knob to a
configuration path (:meth:`sim.core.game.Game.knob_path`, ``<side>.<knob>`` by default),
so a knob is a parameter like any other for ``--set``, sweeps, balance and sensitivity.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.errors import SimInputError, did_you_mean

KINDS = ("int", "float", "choice", "bool")


@dataclass(frozen=True)
class Knob:
    """One declared parameter of a strategy family."""
    name: str
    kind: str = "int"               # int | float | choice | bool
    low: Any = None
    high: Any = None
    default: Any = None
    choices: tuple = ()
    doc: str = ""
    step: float | None = None       # float: the search grid (default: 1/100 of the range)
    plugins: bool = False           # choice: a ``module:object`` plug-in is a value too (resolved by its user)
    tune: bool = True               # False: a cost knob (how long a search runs), which `sim tune` leaves alone

    def check(self, value: Any, where: str) -> Any:
        """``value`` as this knob's type, or one SimInputError naming ``where``."""
        if self.kind == "choice":  # outside the try below: SimInputError is a ValueError
            if value in self.choices or (self.plugins and isinstance(value, str) and ":" in value):
                return value
            hint = did_you_mean(value, self.choices)
            more = " or a module:object plug-in" if self.plugins else ""
            raise SimInputError(f"{where}: {value!r} is not one of {', '.join(map(str, self.choices))}{more}{hint}")
        try:
            if self.kind == "int":
                if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
                    raise ValueError
                v = int(value)
            elif self.kind == "float":
                v = float(value)
            elif self.kind == "bool":
                v = {"true": True, "false": False}.get(str(value).lower(), value)
                if not isinstance(v, bool):
                    raise ValueError
            else:
                v = value
        except ValueError:
            raise SimInputError(f"{where}: expected {'an ' if self.kind == 'int' else 'a '}{self.kind}, "
                                f"got {value!r}") from None
        if self.kind in ("int", "float") and not (self.low <= v <= self.high):
            raise SimInputError(f"{where}: must be in [{self.low}, {self.high}], got {v}")
        return v

    def suggest(self, trial) -> Any:
        """Optuna's suggestion for this knob."""
        if self.kind == "int":
            return trial.suggest_int(self.name, int(self.low), int(self.high))
        if self.kind == "float":
            # on a grid, so a tuned value reads 0.22, not 0.2200018552990376, and the ends
            # (often "never" and "always") can be hit exactly
            step = self.step or (float(self.high) - float(self.low)) / 100
            return round(trial.suggest_float(self.name, float(self.low), float(self.high), step=step), 10)
        if self.kind == "bool":
            return trial.suggest_categorical(self.name, [False, True])
        return trial.suggest_categorical(self.name, list(self.choices))

    def extremes(self) -> tuple:
        """The values a one-factor-at-a-time start tries besides the default: the ends of the
        range (int, float), every choice, both truth values."""
        if self.kind in ("int", "float"):
            return (self.low, self.high)
        if self.kind == "bool":
            return (False, True)
        return tuple(self.choices)

    def describe(self) -> str:
        rng = f"{self.low} … {self.high}" if self.kind in ("int", "float") else ", ".join(map(str, self.choices))
        return f"{self.name} ({self.kind}, {rng}, default {self.default!r})"


def knobs_of(strategy: Any) -> tuple[Knob, ...]:
    return tuple(getattr(strategy, "knobs", ()) or ())


def tunable_knobs(strategy: Any) -> tuple[Knob, ...]:
    """The knobs `sim tune` searches: all but the cost knobs (``tune=False``), which would
    make the search's own runs as long as their range allows and say nothing of skill."""
    return tuple(k for k in knobs_of(strategy) if k.tune)


def knob_vector(strategy: Any, name: str, values: Any, where: str) -> "np.ndarray":
    """The strategy's knob values as a float64 vector in declared order, the kernel's form:
    ``values`` (a configuration table, checked: an unknown knob names the closest) over
    the defaults; a bool is 0/1, a choice the index of its value in ``choices`` (−1 for a
    plug-in value, which only Python-side code reads)."""
    import numpy as np

    if values is not None and not isinstance(values, dict):
        raise SimInputError(f"{where}: expected a table of knob values, got {values!r}")
    given = check_knobs(strategy, name, dict(values or {}), where)
    ks = knobs_of(strategy)
    out = np.zeros(max(len(ks), 1), np.float64)  # never empty: a kernel may index slot 0
    for i, k in enumerate(ks):
        v = given.get(k.name, k.default)
        out[i] = (k.choices.index(v) if v in k.choices else -1.0) if k.kind == "choice" else float(v)
    return out


def _value(v: str) -> Any:
    for cast in (int, float):
        try:
            return cast(v)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(v.lower(), v)


def check_knobs(strategy: Any, name: str, values: dict[str, Any], where: str) -> dict[str, Any]:
    """The knob values checked against the strategy's declared knobs."""
    declared = {k.name: k for k in knobs_of(strategy)}
    out = {}
    for k, v in values.items():
        if k not in declared:
            if not declared:
                raise SimInputError(f"{where}: strategy {name!r} has no knobs")
            hint = did_you_mean(k, declared)
            raise SimInputError(f"{where}: unknown knob {k!r} of {name!r}{hint}; knobs: {', '.join(declared)}")
        out[k] = declared[k].check(v, f"{where}: knob {k!r}")
    return out


@dataclass(frozen=True)
class Spec:
    """A strategy with knob values, resolved for one side."""
    side: str
    name: str
    knobs: tuple[tuple[str, Any], ...] = ()

    @property
    def label(self) -> str:
        return self.name + "".join(f"@{k}={v}" for k, v in self.knobs)


def parse_spec(game, side: str, text: str) -> Spec:
    """``NAME``, ``NAME@KNOB=VALUE@…`` or a ``.toml`` file → a checked :class:`Spec`."""
    text = str(text).strip()
    if text.endswith(".toml") and "@" not in text:
        return _from_file(game, side, Path(text))
    name, *parts = [p.strip() for p in text.split("@")]
    if not name:
        raise SimInputError(f"--{side} {text!r}: expected STRATEGY or STRATEGY@KNOB=VALUE")
    strategy = game.strategy(side, name)
    values = {}
    for kv in parts:
        k, eq, v = kv.partition("=")
        if not eq or not k.strip() or not v.strip():
            raise SimInputError(f"--{side} {text!r}: knob {kv!r} should be KNOB=VALUE")
        values[k.strip()] = _value(v.strip())
    checked = check_knobs(strategy, name, values, f"--{side} {text}")
    return Spec(side, name, tuple(checked.items()))


def _from_file(game, side: str, path: Path) -> Spec:
    from sim.core.config import load_toml

    data = load_toml(path)
    table = data.get(side)
    if not isinstance(table, dict):
        raise SimInputError(f"{path}: expected a [{side}] table with strategy = \"…\" and its knobs "
                            f"(tables found: {', '.join(data) or 'none'})")
    extra = set(data) - {side}
    if extra:
        raise SimInputError(f"{path}: unknown table(s) {', '.join(sorted(extra))}; a strategy file for --{side} "
                            f"holds [{side}] only")
    name = table.get("strategy")
    if not isinstance(name, str) or not name:
        raise SimInputError(f"{path}: [{side}] needs strategy = \"NAME\"")
    strategy = game.strategy(side, name)
    values = {k: v for k, v in table.items() if k != "strategy"}
    checked = check_knobs(strategy, name, values, f"{path} [{side}]")
    # a file states every knob (sim tune writes them all); the spec keeps those it changes,
    # so its label says what differs from the strategy's defaults
    defaults = {k.name: k.default for k in knobs_of(strategy)}
    return Spec(side, name, tuple((k, v) for k, v in checked.items() if v != defaults.get(k)))


def spec_sets(game, spec: Spec) -> list[str]:
    """The ``--set`` assignments that put a spec's knob values into the configuration."""
    import json

    return [f"{game.knob_path(spec.side, k)}={json.dumps(v) if isinstance(v, str) else v}"
            for k, v in spec.knobs]


def spec_toml(spec: Spec) -> str:
    """A strategy file any command accepts (``--<side> FILE.toml``)."""
    import json

    lines = [f"[{spec.side}]", f"strategy = {json.dumps(spec.name)}"]
    for k, v in spec.knobs:
        lines.append(f"{k} = {json.dumps(v) if not isinstance(v, bool) else str(v).lower()}")
    return "\n".join(lines) + "\n"
