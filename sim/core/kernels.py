"""Specialise a numba kernel template on strategy functions — with a working disk cache.

Passing ``@njit`` strategies to a kernel as arguments works, but numba then refuses to
cache the kernel ("dynamic globals"), so every process would recompile the whole game
(seconds). Instead a kernel is written as a plain template function that calls its
hooks through module globals (``p_move``, ``w_choose`` …). :func:`specialize` writes a
small module per combination of hooks into the kernel cache directory: it copies the
template's globals, binds the hooks, and re-declares the template with
``@njit(cache=True)``. The file's name hashes the template source, the hooks' byte code
and the contents of the project's kernel sources, so an edit recompiles and an
unchanged combination loads from numba's cache in milliseconds.

Only such stamped kernels and true leaf functions use ``cache=True``: numba's own cache
does not notice edits of callees in other files, so a cached caller could run stale code.
"""
from __future__ import annotations

import hashlib
import importlib.util
import inspect
import os
import sys
import textwrap
import threading
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Mapping

import numba as nb

_BOUND: dict[str, dict[str, Any]] = {}
_LOADED: dict[str, Callable] = {}
_LOCK = threading.Lock()
_ROOTS = [Path(__file__).resolve().parents[1], Path(__file__).resolve().parents[2] / "strategies"]


def kernel_dir() -> Path:
    d = os.environ.get("SIM_KERNEL_DIR")
    p = Path(d) if d else Path.home() / ".cache" / "sim-balance" / "kernels"
    p.mkdir(parents=True, exist_ok=True)
    return p


_KERNEL_MARKERS = (b"njit", b"intrinsic", b"namedtuple")


def _sources_stamp(roots: list[Path] | None = None) -> str:
    """Modification stamp of every project source a kernel can depend on: files with
    jitted functions, intrinsics or the namedtuple constants kernels fold in. Editing
    a CLI or a report does not recompile the games."""
    h = hashlib.sha256()
    for root in _ROOTS if roots is None else roots:
        files = [root] if root.is_file() else sorted(root.rglob("*.py"))
        for f in files:
            data = f.read_bytes()
            if any(m in data for m in _KERNEL_MARKERS):
                h.update(str(f.relative_to(root.parent)).encode())
                h.update(hashlib.sha256(data).digest())
    return h.hexdigest()


_STAMP: str | None = None
_MEMO: dict = {}
_PLUGIN_STAMPS: dict[Path, str] = {}


def _plugin_stamp(module: str) -> str:
    """The same stamp for a template outside the project (a game installed from its own
    package, docs/adding-a-game.md): its top-level package's kernel sources, so an edit of
    a helper the template calls recompiles it too. Empty for the project's own templates."""
    top = sys.modules.get(module.partition(".")[0])
    paths = getattr(top, "__path__", None)
    f = getattr(top, "__file__", None)
    root = Path(list(paths)[0]).resolve() if paths else (Path(f).resolve() if f else None)
    if root is None or not root.exists() or any(root == r or r in root.parents for r in _ROOTS):
        return ""
    if root not in _PLUGIN_STAMPS:
        _PLUGIN_STAMPS[root] = _sources_stamp([root])
    return _PLUGIN_STAMPS[root]


def _fn_fingerprint(fn: Any) -> bytes:
    py = getattr(fn, "py_func", fn)
    code = py.__code__
    parts = [py.__module__.encode(), py.__qualname__.encode(), code.co_code, repr(code.co_consts).encode()]
    mod = sys.modules.get(py.__module__)
    f = getattr(mod, "__file__", None)
    if f and os.path.exists(f):
        st = os.stat(f)
        parts.append(f"{st.st_mtime_ns}:{st.st_size}".encode())
    return b"|".join(parts)


def _source(fn: Callable) -> str:
    fn = getattr(fn, "py_func", fn)
    src = textwrap.dedent(inspect.getsource(fn))
    while src.startswith("@"):  # drop the function's own decorators
        src = src.split("\n", 1)[1]
    return src


def _inline_opt(fn: Callable) -> str:
    """Keep a companion's ``inline="always"`` when it is re-declared."""
    opts = getattr(fn, "targetoptions", {})
    return 'inline="always"' if opts.get("inline") == "always" else ""


def specialize(template: Callable, hooks: Mapping[str, Any], *, nogil: bool = True,
               companions: tuple[Callable, ...] = ()) -> Callable:
    """The template compiled with ``hooks`` bound as its globals (cached on disk).

    ``companions`` are helper functions of the template's module that call hooks
    (directly or through each other); they are re-declared in the generated module
    too, so their hook calls resolve to the bound strategies.
    """
    global _STAMP
    memo = (template, nogil, companions, tuple(sorted(hooks.items(), key=lambda kv: kv[0])))
    try:
        return _MEMO[memo]  # the same objects again: skip reading sources and hashing
    except (KeyError, TypeError):
        pass
    if _STAMP is None:
        _STAMP = _sources_stamp()
    template = getattr(template, "py_func", template)
    src = _source(template)
    comp_src = "".join(f"@_nb.njit({_inline_opt(c)})\n{_source(c)}\n\n" for c in companions)
    h = hashlib.sha256()
    h.update(src.encode())
    h.update(comp_src.encode())
    h.update(template.__module__.encode())
    h.update(_STAMP.encode())
    h.update(_plugin_stamp(template.__module__).encode())
    h.update(str(nb.config.DISABLE_JIT).encode())
    for name in sorted(hooks):
        h.update(name.encode())
        h.update(_fn_fingerprint(hooks[name]))
    digest = h.hexdigest()[:20]
    with _LOCK:
        if digest in _LOADED:
            _remember(memo, _LOADED[digest])
            return _LOADED[digest]
        _BOUND[digest] = dict(hooks)
        modname = f"sim_kernel_{template.__name__}_{digest}"
        path = kernel_dir() / f"{modname}.py"
        code = (
            f"# generated by sim.core.kernels from {template.__module__}.{template.__name__}\n"
            "import importlib\nimport numba as _nb\n"
            f"globals().update({{k: v for k, v in vars(importlib.import_module({template.__module__!r})).items()"
            " if not k.startswith('__')})\n"
            "from sim.core.kernels import _BOUND\n"
            f"globals().update(_BOUND[{digest!r}])\n\n"
            f"{comp_src}"
            f"@_nb.njit(cache=True, nogil={nogil})\n{src}"
        )
        if not path.exists() or path.read_text() != code:
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(code)
            os.replace(tmp, path)
        spec = importlib.util.spec_from_file_location(modname, path)
        mod: ModuleType = importlib.util.module_from_spec(spec)
        sys.modules[modname] = mod
        spec.loader.exec_module(mod)
        fn = getattr(mod, template.__name__)
        _LOADED[digest] = fn
        _remember(memo, fn)
        return fn


def _remember(memo: tuple, fn: Callable) -> None:
    try:
        _MEMO[memo] = fn
    except TypeError:  # an unhashable hook: no memo, the digest path still works
        pass


def stamped(fn: Callable) -> Callable:
    """A disk-cached copy of jitted ``fn`` that is recompiled whenever a project source changes."""
    return specialize(fn, {}, nogil=True)
