"""The replay child of ``--check-bounds`` (:mod:`sim.core.audit`): the same configuration
and strategies played as plain Python (``NUMBA_DISABLE_JIT=1``), where numpy raises at the
strategy's own line; what it finds, as one JSON line on stdout. Run as
``python -c "from sim.core.audit_replay import main; main()" REQUEST``."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Mapping

REPLAY_BUDGET_S = 60.0
_ENGINE = Path(__file__).resolve().parents[1]  # the sim package


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

    engine = _ENGINE
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
