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


def note(game: str, tree: Mapping[str, Any] | None, strategies: Mapping[str, Any]) -> None:
    """Remember what the process is playing (the game, its configuration tree, each side's
    strategy), for :func:`explain` if a kernel raises."""
    _CONTEXT.clear()
    _CONTEXT.update(game=game, tree=dict(tree or {}), strategies=dict(strategies))


def _spec(game: str, side: str, obj: Any) -> str:
    """A name the game's registries give back as ``obj``: a built-in's name, or the
    ``module:object`` a plug-in was imported from (found by identity)."""
    from sim.core.views import strategy_name

    name = strategy_name(obj)
    if isinstance(obj, str):
        return obj
    try:
        from sim.core.game import get

        if get(game).strategy(side, name) is obj:
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
    return {side: _spec(ctx.get("game", ""), side, s) for side, s in (ctx.get("strategies") or {}).items()}


def _who(specs: Mapping[str, str]) -> str:
    return ", ".join(f"{side}={name}" for side, name in specs.items()) or "the strategies in play"


_INDEX = re.compile(r"([A-Za-z_][\w.]*)\s*\[")


def explain(exc: BaseException) -> str:
    """One line for an ``IndexError`` raised by a bounds-checked kernel: which strategy
    indexed which array, at which line (from a plain-Python replay), or, when the replay
    cannot find it, the strategies in play and how to look further."""
    ctx = dict(_CONTEXT)
    specs = _specs(ctx)
    found = _replay({**ctx, "strategies": specs}) if ctx.get("game") else None
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
        p = subprocess.run([sys.executable, "-c", "from sim.core.audit import main; main()", req], env=env,
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


def _frames(tb) -> list:
    out = []
    while tb is not None:
        out.append((tb.tb_frame, tb.tb_lineno))
        tb = tb.tb_next
    return out


def _name_of(arr: Any, frames: list) -> str | None:
    """What the strategy was handed that ``arr`` is: ``view.<field>`` (nested fields too),
    ``own.<field>``, ``rng`` … — found by identity among the locals of its frames,
    outermost first (the hook's own arguments)."""
    import numpy as np

    def walk(obj, path, depth=0):
        if obj is arr:
            return path
        if isinstance(obj, np.ndarray) and isinstance(arr, np.ndarray) and obj.size and arr.size and \
                np.shares_memory(obj, arr) and obj.shape == arr.shape:
            return path
        if depth < 3 and isinstance(obj, tuple) and hasattr(obj, "_fields"):
            for f in obj._fields:
                hit = walk(getattr(obj, f), f"{path}.{f}", depth + 1)
                if hit:
                    return hit
        return None

    for frame, _ in frames:
        for k, v in list(frame.f_locals.items()):
            hit = walk(v, k)
            if hit:
                return hit
    return None


def _culprits(source: str, frame) -> list:
    """The subscripts of ``source`` that raise IndexError when evaluated in ``frame`` (the
    array's expression and the array), innermost first."""
    import ast

    tree = None
    text = source[2:] if source.startswith("el") else source
    for attempt in (text, text + "\n    pass"):
        try:
            tree = ast.parse(attempt)
            break
        except SyntaxError:
            continue
    if tree is None:
        return []
    found = []
    scope = dict(frame.f_locals)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Subscript):
            continue
        try:
            eval(compile(ast.Expression(node), "<audit>", "eval"), frame.f_globals, scope)  # noqa: S307
        except IndexError:
            try:
                obj = eval(compile(ast.Expression(node.value), "<audit>", "eval"), frame.f_globals, scope)  # noqa: S307
            except Exception:  # noqa: BLE001
                continue
            found.append((ast.unparse(node.value), obj))
        except Exception:  # noqa: BLE001 - another error: not this subscript's bounds
            continue
    return found[::-1]


def _locate(tb, message: str = "") -> dict | None:
    """The innermost frame of a traceback outside the project's engine (``sim/``): the
    strategy's own line, and the array it indexed, named as the strategy was handed it."""
    import linecache

    import sim

    engine = Path(sim.__file__).resolve().parent
    frames = _frames(tb)
    def ours(fr) -> bool:  # the engine: sim/, the generated kernels, numba and numpy
        f = Path(fr.f_code.co_filename).resolve()
        return engine in f.parents or f.name.startswith("sim_kernel_") or "numba" in f.parts or "numpy" in f.parts

    plugin = [(fr, ln) for fr, ln in frames if not ours(fr)]
    if not plugin:
        return None
    frame, line = plugin[-1]
    f = Path(frame.f_code.co_filename).resolve()
    source = linecache.getline(str(f), line).strip()
    array = None
    for expr, obj in _culprits(source, frame):
        outer = plugin + [x for x in frames if x not in plugin]  # the hook (outermost) first
        array = _name_of(obj, outer) or expr
        break
    try:
        file = str(f.relative_to(Path.cwd()))
    except ValueError:
        file = str(f)
    hook = plugin[0][0]  # the outermost frame of the plug-in: the hook the kernel called
    return {"file": file, "line": line, "source": source, "function": frame.f_code.co_name,
            "module": frame.f_globals.get("__name__", f.stem), "array": array,
            "hook": f"{hook.f_globals.get('__name__', '?')}:{hook.f_code.co_name}"}


def _child(req: Mapping[str, Any]) -> dict:
    """Replay games 0, 1, … of the request as plain Python until one raises IndexError
    (or the budget is spent): where it was raised."""
    import time

    from sim.core.game import get

    game = get(req["game"])
    setup = game.compile(req["tree"]) if req.get("tree") else game.setup()
    strategies = game.strategies(req["strategies"], setup)
    t0 = time.perf_counter()
    g = 0
    while time.perf_counter() - t0 < REPLAY_BUDGET_S:
        try:
            game.run(setup, strategies, 1, 0, start=g, threads=1)
        except IndexError as e:
            where = _locate(e.__traceback__, str(e))
            if where:
                where["message"] = str(e)
                where["game"] = g
                where["side"] = _side_of(where, strategies)
            return where or {}
        g += 1
    return {}


def _side_of(where: Mapping[str, Any], strategies: Mapping[str, Any]) -> str | None:
    """The side whose strategy object holds (in one of its fields) the function the frame
    belongs to, or whose name matches a plug-in module: the strategy that indexed."""
    import dataclasses

    for side, s in strategies.items():
        fns = [getattr(s, f.name) for f in dataclasses.fields(s)] if dataclasses.is_dataclass(s) else [s]
        for f in fns:
            py = getattr(f, "py_func", f)
            mod, _, fn = (where.get("hook") or f"{where['module']}:{where['function']}").partition(":")
            if getattr(py, "__name__", None) == fn and getattr(py, "__module__", None) == mod:
                return side
    for side, s in strategies.items():  # a helper the hook called, in the plug-in's module
        fns = [getattr(s, f.name) for f in dataclasses.fields(s)] if dataclasses.is_dataclass(s) else [s]
        if any(getattr(getattr(f, "py_func", f), "__module__", None) == where["module"] for f in fns):
            return side
    return None


def main() -> None:
    """The replay child (NUMBA_DISABLE_JIT=1): one JSON line, ``{}`` when nothing was found."""
    try:
        print(json.dumps(_child(json.loads(sys.argv[1]))))
    except Exception as e:  # noqa: BLE001 - the parent falls back to its own line
        print(f"replay failed: {type(e).__name__}: {e}", file=sys.stderr)
        print("{}")
