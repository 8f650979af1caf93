"""The bounds-checked audit mode: ``--check-bounds`` on any command, or ``SIM_CHECK_BOUNDS=1``.

numba does not check array indices, so a strategy that reads past the end of a view's
array reads whatever memory lies there. The kernels keep that memory harmless (every view
array is guarded, :mod:`sim.core.guard`), but a plug-in with such a bug plays wrongly all
the same. In the audit mode every kernel and every strategy is compiled with numba's
bounds checking (``NUMBA_BOUNDSCHECK=1``) into a kernel cache of its own (a subfolder
``check-bounds`` of the usual one: a checked kernel never serves a normal run, nor the
reverse), so an out-of-range index raises ``IndexError`` instead. numba's error names
neither the strategy nor the array, so :func:`explain` replays the same setup and
strategies as plain Python (``NUMBA_DISABLE_JIT=1``, in a child process), where numpy
raises at the very line, and turns that into one ``error:`` line:

    error: --check-bounds: the wolves strategy 'mypkg.wolves:hunt' indexed outside a view
    array: view.know[view.n] (mypkg/wolves.py:42: index 12 is out of bounds for axis 0 with
    size 12)

Plug-in authors run their plug-in once this way (docs/adding-a-game.md).
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Mapping

ENV = "SIM_CHECK_BOUNDS"
FLAG = "--check-bounds"
SUBDIR = "check-bounds"
REPLAY_BUDGET_S = 60.0
_CONTEXT: dict[str, Any] = {}


def enabled() -> bool:
    """Whether this process runs in the audit mode."""
    return os.environ.get(ENV, "").strip().lower() not in ("", "0", "false", "no")


def _base_kernel_dir() -> Path:
    d = os.environ.get("SIM_KERNEL_DIR")
    return Path(d) if d else Path.home() / ".cache" / "sim-balance" / "kernels"


def configure(argv: list[str] | None = None) -> bool:
    """Take ``--check-bounds`` out of ``argv`` (the ``sim`` command's own), and when the
    audit mode is on, switch numba's bounds checking on and the caches to their own
    folder. Idempotent; effective for everything compiled afterwards in this process and
    in the processes it starts (the settings are environment variables)."""
    if argv is not None and FLAG in argv[1:]:
        while FLAG in argv[1:]:
            argv.remove(FLAG)
        os.environ[ENV] = "1"
    if not enabled():
        return False
    base = _base_kernel_dir()
    if base.name != SUBDIR:
        os.environ["SIM_KERNEL_DIR"] = str(base / SUBDIR)
        base = base / SUBDIR
    os.environ["NUMBA_BOUNDSCHECK"] = "1"
    os.environ["NUMBA_CACHE_DIR"] = str(base / "numba")
    if "numba" in sys.modules:  # read at code generation and at decoration: set them too
        import numba

        numba.config.BOUNDSCHECK = 1
        numba.config.CACHE_DIR = str(base / "numba")
    return True


def note(game: Any, tree: Mapping[str, Any] | None, strategies: Mapping[str, Any]) -> None:
    """Remember what the process is playing (the game — a :class:`sim.core.game.Game` —, its
    configuration tree, each side's strategy), for :func:`explain` if a kernel raises."""
    _CONTEXT.clear()
    _CONTEXT.update(game=getattr(game, "name", game), game_obj=game, tree=dict(tree or {}),
                    strategies=dict(strategies))


def _spec(game: Any, side: str, obj: Any) -> str:
    """A name the game's registries give back as ``obj``: a built-in's name, or the
    ``module:object`` a plug-in was imported from (found by identity)."""
    from sim.core.views import strategy_name

    name = strategy_name(obj)
    if isinstance(obj, str):
        return obj
    try:
        if game.strategy(side, name) is obj:
            return name
    except Exception:  # noqa: BLE001 - not a built-in: look for the plug-in below
        pass
    for mod_name, mod in list(sys.modules.items()):
        if mod_name.startswith(("numba", "numpy", "sim.")):
            continue
        for attr, v in list(getattr(mod, "__dict__", {}).items()):
            if v is obj:
                return f"{mod_name}:{attr}"
    return name


def _specs(ctx: Mapping[str, Any]) -> dict[str, str]:
    return {side: _spec(ctx.get("game_obj"), side, s) for side, s in (ctx.get("strategies") or {}).items()}


def _who(specs: Mapping[str, str]) -> str:
    return ", ".join(f"{side}={name}" for side, name in specs.items()) or "the strategies in play"


_INDEX = re.compile(r"([A-Za-z_][\w.]*)\s*\[")


def explain(exc: BaseException) -> str:
    """One line for an ``IndexError`` raised by a bounds-checked kernel: which strategy
    indexed which array, at which line (from a plain-Python replay), or, when the replay
    cannot find it, the strategies in play and how to look further."""
    ctx = dict(_CONTEXT)
    specs = _specs(ctx)
    found = _replay({"game": ctx["game"], "tree": ctx.get("tree"), "strategies": specs}) if ctx.get("game") else None
    if found:
        side = found.get("side")
        spec = specs.get(side) if side else None
        hook = found.get("hook") or f"{found['module']}:{found['function']}"
        who = f"the {side} strategy {spec!r} (in {hook.rpartition(':')[2]})" if side else f"the plug-in {hook!r}"
        m = _INDEX.findall(found["source"])
        array = found.get("array") or (m[-1] if m else "an array")
        return (f"--check-bounds: {who} indexed outside a view array: {array}[…] "
                f"({found['file']}:{found['line']}: `{found['source']}`: {found['message']})")
    return (f"--check-bounds: an index out of range in a kernel ({_who(specs)}): {exc}; "
            f"run the plug-in under NUMBA_DISABLE_JIT=1 to see the line")


def _replay(ctx: Mapping[str, Any]) -> dict | None:
    env = dict(os.environ)
    env.pop(ENV, None)
    env.pop("NUMBA_BOUNDSCHECK", None)
    env["NUMBA_DISABLE_JIT"] = "1"
    req = json.dumps({"game": ctx["game"], "tree": ctx["tree"], "strategies": ctx["strategies"]}, default=str)
    try:
        p = subprocess.run([sys.executable, "-c", "from sim.core.audit_replay import main; main()", req], env=env,
                           capture_output=True,
                           text=True, timeout=REPLAY_BUDGET_S + 30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    for line in reversed(p.stdout.splitlines()):
        if line.startswith("{"):
            try:
                out = json.loads(line)
            except ValueError:
                return None
            return out or None
    return None
