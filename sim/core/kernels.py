"""Specialise a numba kernel template on strategy functions — with a working disk cache.

Passing ``@njit`` strategies to a kernel as arguments works, but numba then refuses to
cache the kernel ("dynamic globals"), so every process would recompile the whole game
(seconds). Instead a kernel is written as a plain template function that calls its
hooks through module globals, and states them::

    @kernel_template(hooks=("p_move", "w_choose"))
    def play_chunk_nb(key, start, count, R, out):
        ...
        k = p_move(rng, view, mem, mv)

:func:`specialize` binds exactly the declared hooks (an unknown or a missing one is a
:class:`KernelError`) and writes a small module per combination of hooks into the
kernel cache directory (:func:`kernel_dir`): it copies the template module's globals,
binds the hooks, re-declares the *companions* — the module's own jitted functions that
call a hook, directly or through each other, found by reading their byte code — with
all their jit options, and re-declares the template with ``@njit(cache=True)``. The
file's name holds a stamp of the project's kernel sources and a digest of the template,
the companions, their options and the hooks' byte code, so an edit recompiles and an
unchanged combination loads from numba's cache in milliseconds.

Files of other source stamps (and of the older unstamped naming) are removed at the
first use in a process, once no process has used them for :data:`PRUNE_GRACE_S` seconds
(each process touches its stamp's ``sim_kernel_<stamp>.used`` marker), so another
checkout or a process still running older sources sharing the directory keeps its
files. Only names of the generated patterns are ever removed.

Only such stamped kernels and true leaf functions use ``cache=True``: numba's own cache
does not notice edits of callees in other files, so a cached caller could run stale code.
The project's helpers a kernel calls (its hooks, the functions they call) get a cache of
their own whose freshness is the same source stamp (:func:`cache_helpers`), so the next
kernel built on them, in any process, loads them instead of compiling them again. Those
functions and the generated ones are typed on plain argument types, not a constant's
``Literal`` type (:func:`_typed_without_literals`), so each is compiled once, not once per
constant it is called with; for the same reason a kernel's parameters have no defaults.
"""
from __future__ import annotations

import ast
import builtins
import dis
import fcntl
import hashlib
import importlib.util
import inspect
import os
import re
import sys
import textwrap
import threading
import time
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any, Callable, Iterable, Mapping

import numba as nb
from numba.core import caching as _caching
from numba.core.compiler_lock import global_compiler_lock as _global_compiler_lock
from numba.core import types as _nbtypes

_BOUND: dict[str, dict[str, Any]] = {}    # digest -> hooks, read by the generated module
_OPTIONS: dict[str, dict[str, dict]] = {}  # digest -> companion name -> jit options
_LOADED: dict[str, Callable] = {}
_LOCK = threading.RLock()  # also around ast.parse: CPython 3.11's AST is not thread-safe
_ROOTS = [Path(__file__).resolve().parents[1], Path(__file__).resolve().parents[2] / "strategies"]

PRUNE_GRACE_S = 600.0  # files of another stamp used this recently are kept (another process)
STAMP_LEN = 12
DIGEST_LEN = 20


class KernelError(TypeError):
    """A template and its hooks do not fit (unknown, missing or unbound hooks)."""


def kernel_dir() -> Path:
    """Where generated kernel modules and their numba cache live (``SIM_KERNEL_DIR``)."""
    d = os.environ.get("SIM_KERNEL_DIR")
    p = Path(d) if d else Path.home() / ".cache" / "sim-balance" / "kernels"
    p.mkdir(parents=True, exist_ok=True)
    return p


def kernel_template(*, hooks: Iterable[str], chosen: Iterable[str] = ()) -> Callable[[Callable], Callable]:
    """Declare a plain function a kernel template calling ``hooks`` (names of globals
    that :func:`specialize` binds). The function itself is returned unchanged.

    A hook in ``chosen`` is called with a selector first (``v_vote(sel_v, rng, view, c)``):
    it may be bound to a :class:`Choice` of several functions, and the kernel calls the one
    the selector names at run time, so one compiled kernel plays every combination of its
    candidates (issue 42: the built-in strategies cost one compile per game, not one per
    pair). A plain function bound to it is a choice of one (the selector is ignored)."""
    names = tuple(hooks)
    picks = tuple(chosen)
    for h in names:
        if not isinstance(h, str) or not h.isidentifier():
            raise KernelError(f"hook names must be identifiers, got {h!r}")
    if len(set(names)) != len(names):
        raise KernelError(f"hooks declared twice: {names}")
    stray = [h for h in picks if h not in names]
    if stray:
        raise KernelError(f"chosen hook(s) {', '.join(stray)} are not among the hooks {names}")

    def declare(fn: Callable) -> Callable:
        if hasattr(fn, "py_func"):
            raise KernelError(f"{fn.py_func.__qualname__}: a kernel template is a plain function, not @njit")
        fn.__kernel_hooks__ = names
        fn.__kernel_chosen__ = picks
        return fn

    return declare


def template_hooks(fn: Callable) -> tuple[str, ...]:
    """The hooks ``fn`` declares (none for a function that is no template)."""
    return getattr(getattr(fn, "py_func", fn), "__kernel_hooks__", ())


def template_chosen(fn: Callable) -> tuple[str, ...]:
    """The hooks of ``fn`` that take a selector first (:func:`kernel_template`)."""
    return getattr(getattr(fn, "py_func", fn), "__kernel_chosen__", ())


class Choice:
    """The candidates of a chosen hook, in selector order (0, 1, …)."""

    __slots__ = ("options",)

    def __init__(self, options: Iterable[Callable]):
        self.options = tuple(options)
        if not self.options:
            raise KernelError("a Choice needs at least one function")

    def __call__(self, sel, *args):  # the choice itself, as plain Python sees it
        return self.options[sel](*args)

    def __eq__(self, other):
        return isinstance(other, Choice) and self.options == other.options

    def __hash__(self):
        return hash(self.options)

    def __repr__(self):
        return f"Choice({', '.join(getattr(_py(f), '__qualname__', repr(f)) for f in self.options)})"


class Selected:
    """A kernel with chosen hooks and the selectors of the candidates it plays: called as
    the kernel is, without the selectors (appended as its last argument)."""

    __slots__ = ("kernel", "sel")

    def __init__(self, kernel: Callable, sel: Iterable[int]):
        import numpy as np

        self.kernel = kernel
        self.sel = np.asarray(tuple(sel), dtype=np.int64)

    def __call__(self, *args):
        return self.kernel(*args, self.sel)

    def __getattr__(self, name):
        return getattr(self.kernel, name)


def families(sides: Iterable[Any], shipped: Iterable[Iterable[Any]], hooks_of: Callable[[Any], tuple],
             group: Callable[[Any], Any] = lambda s: None) -> list[tuple[tuple[tuple, ...], int]]:
    """Per side, the hook functions of each candidate its kernel is compiled with and the
    selector of the side's own strategy.

    When every side plays a shipped strategy (its ``hooks_of`` equals a shipped one's), a
    side's candidates are all shipped strategies of its ``group`` (e.g. those that share
    the view builder), so one kernel, compiled once, plays every such pair. With a plug-in
    on any side each side is alone in its kernel: a plug-in compiles against the pair it
    plays, not against every built-in strategy."""
    sides = list(sides)
    shipped = [list(x) for x in shipped]
    own = [hooks_of(s) for s in sides]
    if SINGLE or not all(any(hooks_of(t) == o for t in shp) for o, shp in zip(own, shipped)):
        return [((o,), 0) for o in own]
    out = []
    for s, o, shp in zip(sides, own, shipped):
        cands: list[tuple] = []
        for t in shp:
            k = hooks_of(t)
            if group(t) == group(s) and k not in cands:
                cands.append(k)
        out.append((tuple(cands), cands.index(o)))
    return out


# SIM_KERNELS=single: a kernel per combination of strategies (the old way; a developer
# editing one strategy's kernel code recompiles only the pair they play).
SINGLE = os.environ.get("SIM_KERNELS", "").strip().lower() == "single"


def _arity(fn: Callable) -> int:
    return len(inspect.signature(_py(fn)).parameters)


def _choice_source(name: str, choice: Choice) -> tuple[str, dict[str, Any]]:
    """Source of the dispatcher bound to chosen hook ``name`` and the globals it calls.
    numba types each branch's call; LLVM inlines the small dispatcher into its callers
    (``forceinline``), so a kernel playing one pair pays one predictable branch a decision."""
    arities = {_arity(f) for f in choice.options}
    if len(arities) != 1:
        raise KernelError(f"hook {name}: its candidates take different numbers of arguments "
                          f"({', '.join(f'{_py(f).__qualname__}: {_arity(f)}' for f in choice.options)})")
    args = ", ".join(f"a{i}" for i in range(arities.pop()))
    lines = ["@_nb.njit(forceinline=True)", f"def {name}(sel, {args}):" if args else f"def {name}(sel):"]
    bound = {}
    last = len(choice.options) - 1
    for i, f in enumerate(choice.options):
        g = f"_{name}__{i}"
        bound[g] = f
        call = f"return {g}({args})"
        lines.append(f"    {call}" if last == 0 else
                     f"    if sel == {i}:\n        {call}" if i < last else f"    {call}")
    return "\n".join(lines) + "\n\n\n", bound


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
_PRUNED = False
_MEMO: dict = {}
_COMPANIONS: dict = {}
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


def _fn_fingerprint(fn: Any, _depth: int = 0) -> bytes:
    py = getattr(fn, "py_func", fn)
    code = py.__code__
    parts = [py.__module__.encode(), py.__qualname__.encode(), code.co_code, repr(code.co_consts).encode()]
    # a closure's captured values are part of what it computes: two closures of one factory
    # (e.g. "this role never speaks", made for different roles) must not share a kernel
    for cell in py.__closure__ or ():
        try:
            v = cell.cell_contents
        except ValueError:  # an empty cell
            parts.append(b"<empty>")
            continue
        if callable(v) and hasattr(getattr(v, "py_func", v), "__code__") and _depth < 8:
            parts.append(b"fn:" + _fn_fingerprint(v, _depth + 1))
        else:
            parts.append(b"v:" + repr(v).encode())
    mod = sys.modules.get(py.__module__)
    f = getattr(mod, "__file__", None)
    if f and os.path.exists(f):
        st = os.stat(f)
        parts.append(f"{st.st_mtime_ns}:{st.st_size}".encode())
    return b"|".join(parts)


def _py(fn: Any) -> Callable:
    return getattr(fn, "py_func", fn)


def _source(fn: Callable) -> str:
    """The function's source without its own decorators (however many lines they take)."""
    fn = getattr(fn, "py_func", fn)
    src = textwrap.dedent(inspect.getsource(fn))
    node = ast.parse(src).body[0]
    if node.decorator_list:
        src = "".join(src.splitlines(keepends=True)[node.lineno - 1:])
    return src


def _global_names(code: CodeType) -> set[str]:
    """Names a function's code (and the code nested in it) loads as globals."""
    names = {i.argval for i in dis.get_instructions(code) if i.opname in ("LOAD_GLOBAL", "LOAD_NAME")}
    for c in code.co_consts:
        if isinstance(c, CodeType):
            names |= _global_names(c)
    return names


def _is_jitted(v: Any) -> bool:
    """A numba dispatcher (``@njit``), not a plain function."""
    return hasattr(v, "py_func") and hasattr(v, "targetoptions")


def _jitted_here(module: ModuleType) -> dict[str, Any]:
    """The module-level jitted functions defined in ``module`` (not imported into it).
    Under NUMBA_DISABLE_JIT ``@njit`` returns the plain function, so every function
    of the module is a candidate then."""
    g = vars(module)
    out = {}
    for name, v in g.items():
        jitted = _is_jitted(v)
        if not jitted and not (nb.config.DISABLE_JIT and inspect.isfunction(v)):
            continue
        py = getattr(v, "py_func", v)
        if getattr(py, "__globals__", None) is g and py.__name__ == name and py.__qualname__ == name:
            out[name] = v
    return out


def companions(template: Callable) -> tuple[Callable, ...]:
    """The jitted functions of the template's module that call one of its hooks,
    directly or through each other (in source order): they must be re-declared next to
    the bound hooks, or they would call the template module's unbound names."""
    template = getattr(template, "py_func", template)
    hooks = frozenset(template_hooks(template))
    key = (template, hooks)
    if key in _COMPANIONS:
        return _COMPANIONS[key]
    found: tuple[Callable, ...] = ()
    if hooks:
        jitted = _jitted_here(sys.modules[template.__module__])
        jitted.pop(template.__name__, None)
        calls = {n: _global_names(_py(f).__code__) for n, f in jitted.items()}
        chosen = {n for n, names in calls.items() if names & hooks}
        grew = True
        while grew:  # a caller of a companion calls a hook too
            more = {n for n, names in calls.items() if n not in chosen and names & chosen}
            grew = bool(more)
            chosen |= more
        found = tuple(sorted((jitted[n] for n in chosen), key=lambda f: _py(f).__code__.co_firstlineno))
    _COMPANIONS[key] = found
    return found


def _check(template: Callable, hooks: Mapping[str, Any], comps: tuple[Callable, ...]) -> None:
    declared = template_hooks(template)
    name = f"{template.__module__}.{template.__qualname__}"
    if hooks and not declared:
        raise KernelError(f"{name} is not a kernel template: declare its hooks with "
                          "@kernel_template(hooks=(...))")
    unknown = sorted(set(hooks) - set(declared))
    missing = [h for h in declared if h not in hooks]
    if unknown or missing:
        parts = []
        if unknown:
            parts.append(f"unknown hook(s) {', '.join(unknown)}")
        if missing:
            parts.append(f"missing hook(s) {', '.join(missing)}")
        raise KernelError(f"{name}: {'; '.join(parts)} (it declares: {', '.join(declared) or 'none'})")
    for h, fn in hooks.items():
        if not callable(fn):
            raise KernelError(f"{name}: hook {h} is bound to {fn!r}, not a function")
    g = vars(sys.modules[template.__module__])
    for f in (template, *map(_py, comps)):
        undefined = sorted(n for n in _global_names(f.__code__)
                           if n not in g and n not in declared and not hasattr(builtins, n))
        if undefined:
            raise KernelError(f"{f.__module__}.{f.__qualname__} uses undefined global(s) "
                              f"{', '.join(undefined)}: define them or declare them as hooks of {name}")


def _options(fn: Callable) -> dict:
    """A jitted function's options (inline, fastmath, boundscheck, error_model, nogil, …)."""
    opts = dict(getattr(fn, "targetoptions", {}))
    loc = getattr(fn, "locals", None)
    if loc:
        opts["locals"] = dict(loc)
    return opts


def _stable_repr(v: Any) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k!r}: {_stable_repr(v[k])}" for k in sorted(v, key=repr)) + "}"
    if isinstance(v, (set, frozenset)):
        return "{" + ", ".join(sorted(repr(x) for x in v)) + "}"
    return repr(v)


# ---- cache-directory housekeeping -------------------------------------------------------
# Generated names: sim_kernel_<template>_<stamp>_<digest>.py (+ .<pid>.tmp while written),
# __pycache__/sim_kernel_<template>_<stamp>_<digest>.<...>.(pyc|nbi|nbc), the marker
# sim_kernel_<stamp>.used, and the older unstamped sim_kernel_<template>_<digest>.*.
_HEX = "[0-9a-f]"
_STEM = re.compile(rf"sim_kernel_\w+_(?P<stamp>{_HEX}{{{STAMP_LEN}}})_{_HEX}{{{DIGEST_LEN}}}")
_LEGACY_STEM = re.compile(rf"sim_kernel_\w+_{_HEX}{{{DIGEST_LEN}}}")
_MARKER = re.compile(rf"sim_kernel_(?P<stamp>{_HEX}{{{STAMP_LEN}}})\.used")
_TOP_REST = re.compile(r"\.(py|lock|\d+\.tmp)")
_CACHE_REST = re.compile(r"\..+\.(pyc|nbi|nbc)")
_FN_STAMP = re.compile(rf"{_HEX}{{{STAMP_LEN}}}")
# numba's names: <module>.<function>-<line>.py311.nbi, ….py311.<n>.nbc, and their .tmp.<uuid>
_FN_FILE = re.compile(r"[\w.]+-\d+\.py\d+\w*(\.\d+\.nbc|\.nbi)(\.tmp\.[0-9a-f]{16})?")


def _artefact_stamp(name: str, in_pycache: bool) -> str | None:
    """The source stamp a generated file belongs to ("" for the unstamped naming), or
    None for any other file (never touched)."""
    if not in_pycache:
        m = _MARKER.fullmatch(name)
        if m:
            return m["stamp"]
    stem, dot, rest = name.partition(".")
    if not dot or not (_CACHE_REST if in_pycache else _TOP_REST).fullmatch("." + rest):
        return None
    m = _STEM.fullmatch(stem)
    if m:
        return m["stamp"]
    if _LEGACY_STEM.fullmatch(stem):
        return ""
    return None


def _marker(d: Path, stamp: str) -> Path:
    return d / f"sim_kernel_{stamp}.used"


def _touch(p: Path) -> None:
    try:
        p.touch()
    except OSError:
        pass


def prune(d: Path | None = None, *, keep: str | None = None, grace_s: float = PRUNE_GRACE_S) -> list[Path]:
    """Remove the generated files of every source stamp but ``keep`` (default: the
    current one) that no process used for ``grace_s`` seconds; returns what was removed.
    Safe against concurrent processes: a file another one removed first is skipped."""
    d = d or kernel_dir()
    keep = keep if keep is not None else _stamp()[:STAMP_LEN]
    groups: dict[str, list[Path]] = {}
    for sub, in_cache in ((d, False), (d / "__pycache__", True)):
        try:
            entries = list(os.scandir(sub))
        except FileNotFoundError:
            continue
        for e in entries:
            s = _artefact_stamp(e.name, in_cache)
            if s is None or not e.is_file(follow_symlinks=False):
                continue
            if s != keep:
                groups.setdefault(s, []).append(Path(e.path))
            elif e.name.endswith(".tmp"):  # left by a process that died while writing
                groups.setdefault(e.name, []).append(Path(e.path))
    try:  # sim_fn/<stamp>: the helpers' numba cache of that stamp, removed with its kernels
        for e in os.scandir(d / _FN_DIR):
            if _FN_STAMP.fullmatch(e.name) and e.is_dir(follow_symlinks=False) and e.name != keep:
                groups.setdefault(e.name, []).append(Path(e.path))
    except FileNotFoundError:
        pass
    removed = []
    now = time.time()
    for files in groups.values():
        used = 0.0
        for f in files:
            try:
                used = max(used, f.stat().st_mtime)
            except FileNotFoundError:
                pass
        if now - used <= grace_s:
            continue
        for f in files:
            try:
                if f.is_dir():  # only sim_fn/<stamp> trees are grouped as folders
                    _remove_fn_tree(f)
                else:
                    f.unlink()
                removed.append(f)
            except FileNotFoundError:
                pass
    return removed


def _remove_fn_tree(tree: Path) -> None:
    """Remove a stale stamp's helper cache: only numba's cache files and the folders that
    held them; anything else found there (not ours) is left, and so is its folder."""
    for root, dirs, files in os.walk(tree, topdown=False):
        for name in files:
            if _FN_FILE.fullmatch(name):
                try:
                    os.unlink(os.path.join(root, name))
                except FileNotFoundError:
                    pass
        try:
            os.rmdir(root)
        except OSError:  # not empty: it holds something we did not write
            pass


def _stamp() -> str:
    global _STAMP
    if _STAMP is None:
        _STAMP = _sources_stamp()
    return _STAMP


# ---- a disk cache for the project's jitted helpers ---------------------------------------
# A kernel's hooks and the helpers it calls (a strategy, the day model it re-simulates) are
# compiled again in every process that builds a kernel not yet on disk: a Looper bayes
# kernel spends most of its two minutes there. numba's own cache would keep them, but it
# judges freshness by the function's own file only, so an edited callee in another file
# would leave a stale caller. This cache's freshness is the project's source stamp (every
# kernel source), the same rule as the generated kernels: any edit recompiles, and two
# checkouts with the same sources share the files. Only module-level functions of the
# project without a closure are cached (a plug-in's or a closure's code is not stamped).
_FN_DIR = "sim_fn"  # kernel_dir()/sim_fn/<stamp>/<package path>/ holds numba's .nbi/.nbc files


class _StampedLocator(_caching._CacheLocator):
    def __init__(self, py_func: Callable, py_file: str) -> None:
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        rel = _project_relpath(py_file)
        self._path = kernel_dir() / _FN_DIR / _stamp()[:STAMP_LEN] / rel.parent

    def get_cache_path(self) -> str:
        return str(self._path)

    def get_source_stamp(self) -> str:
        return _stamp()

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func: Callable, py_file: str):
        if _project_relpath(py_file) is None:
            return None
        self = cls(py_func, py_file)
        try:
            self.ensure_cache_path()
        except OSError:
            return None
        return self


class _StampedImpl(_caching.CompileResultCacheImpl):
    _locator_classes = [_StampedLocator]


# The compile flags a callee takes from its caller when it does not set them itself
# (numba.core.cpu's `inherit_if_not_set`). numba's cache key has the signature, the CPU and
# the byte code but not these, so a helper compiled under one caller was loaded under
# another as if it were the same code. It is not: under the chosen hooks' dispatchers
# (`forceinline`, :func:`_choice_source`) every helper a kernel reaches is compiled with
# `forceinline` too and LLVM inlines the filter's day model into it; called from Python (the
# tests' `stamped` helpers) the same helper keeps its calls. A Looper filter kernel built on
# helpers the tests had cached played 403 - 441 games/s against 1,440 - 1,508 built on its
# own (docs/performance.md, 2026-12-07).
_INHERITED = ("nrt", "fastmath", "error_model", "forceinline")


def _inherited_flags() -> tuple:
    """The inherited flags of a compile starting now: the caller's (the top of numba's
    config stack), or () at the top level (each flag then its own default)."""
    from numba.core.targetconfig import ConfigStack

    stack = ConfigStack()
    if not stack:
        return ()
    top = stack.top()
    return tuple((n, _stable_flag(getattr(top, n))) for n in _INHERITED)


def _stable_flag(v: Any) -> str:
    """A flag's value as text that is the same in every process: ``fastmath``'s options are
    a set of strings, whose order follows the per-process string hash."""
    flags = getattr(v, "flags", None)
    if isinstance(flags, (set, frozenset)):
        return f"{type(v).__name__}({sorted(flags)})"
    return repr(v)


class _StampedCache(_caching.FunctionCache):
    _impl_class = _StampedImpl

    def _index_key(self, sig, codegen):
        # loading and saving both run in the caller's compile (the callee's own flags are
        # pushed only inside its compile), so both see the same inherited flags
        return (*super()._index_key(sig, codegen), _inherited_flags())


def _project_relpath(f: str) -> Path | None:
    """File ``f`` relative to the project (``sim/looper/day_nb.py``), or None outside it."""
    if f not in _RELPATHS:  # memo: every kernel built walks the same few dozen files
        try:
            p = Path(f).resolve()
        except OSError:
            p = None
        _RELPATHS[f] = next((p.relative_to(r.parent) for r in _ROOTS if p and r in p.parents), None)
    return _RELPATHS[f]


_RELPATHS: dict[str, Path | None] = {}


def _typed_without_literals(disp: Any) -> None:
    """Type calls to ``disp`` from jitted code on plain types, not constants' literal types.

    numba compiles a function called with a constant (``_knob(view, 3)``, ``stop=0``) for
    that value's ``Literal`` type: one more compile of it and of what it calls for every
    distinct constant (bayes's ``_knob`` was compiled 20 times, ``_history_nb`` 18 in the
    test suite). The project's kernels never need a literal argument (nothing calls
    ``literally``), and LLVM still folds the constant once the call is linked. Measured:
    a cold bayes × random kernel 69.9 s → 57.7 s, the same games."""
    get = getattr(type(disp), "get_call_template", None)
    if get is None or "get_call_template" in vars(disp):
        return

    def get_call_template(args, kws):
        return get(disp, tuple(_nbtypes.unliteral(a) for a in args),
                   {k: _nbtypes.unliteral(a) for k, a in kws.items()})

    disp.get_call_template = get_call_template


def cache_helpers(fns: Iterable[Any]) -> int:
    """Give every project dispatcher reachable from ``fns`` (through the globals and
    closures their code reads) the stamped disk cache, and have each typed on plain
    argument types (:func:`_typed_without_literals`); returns how many were new."""
    if nb.config.DISABLE_JIT:
        return 0
    seen: set[int] = set()
    todo = list(fns)
    n = 0
    while todo:
        v = todo.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        if isinstance(getattr(v, "_cache", None), _StampedCache):
            continue  # given the cache by an earlier call, which walked its callees too
        py = getattr(v, "py_func", v)
        code = getattr(py, "__code__", None)
        if code is None or _project_relpath(code.co_filename) is None:
            continue  # numba's, numpy's or a plug-in's code: neither walked nor cached
        closure = getattr(py, "__closure__", None)
        for cell in closure or ():
            try:
                todo.append(cell.cell_contents)
            except ValueError:
                pass
        g = getattr(py, "__globals__", {})
        todo.extend(g[name] for name in _global_names(code) if name in g and callable(g[name]))
        if not _is_jitted(v):
            continue
        _typed_without_literals(v)
        if closure or v.targetoptions.get("cache") or py.__qualname__ != py.__name__:
            continue
        try:
            v._cache = _StampedCache(py)
        except RuntimeError:  # no writable cache folder: the helper is compiled as before
            continue
        n += 1
    return n


# ---- specialisation ----------------------------------------------------------------------

# The stamped helper cache subclasses numba's private caching classes (_CacheLocator,
# CompileResultCacheImpl, FunctionCache): tested with these numba releases (constraints.txt
# pins the one `make` installs). Outside them it is one clear error, not a strange failure;
# SIM_ANY_NUMBA=1 tries anyway.
TESTED_NUMBA = ((0, 59), (0, 68))


def check_numba(version: str | None = None) -> None:
    """Refuse (one :class:`sim.errors.SimInputError`) a numba release outside :data:`TESTED_NUMBA`."""
    from sim.errors import SimInputError

    v = version or nb.__version__
    try:
        mm = tuple(int(x) for x in v.split(".")[:2])
    except ValueError:
        mm = (0, 0)
    lo, hi = TESTED_NUMBA
    if not (lo <= mm <= hi) and not os.environ.get("SIM_ANY_NUMBA"):
        raise SimInputError(f"numba {v} is not a release the kernel cache was tested with "
                            f"({lo[0]}.{lo[1]} to {hi[0]}.{hi[1]}): run `make install` (constraints.txt), "
                            f"or set SIM_ANY_NUMBA=1 to try")


def specialize(template: Callable, hooks: Mapping[str, Any], *, nogil: bool = True) -> Callable:
    """The template compiled with ``hooks`` bound as its globals (cached on disk).

    ``hooks`` must name exactly the hooks the template declares (:func:`kernel_template`).
    Its companions (:func:`companions`) are re-declared in the generated module too,
    with their jit options, so their hook calls resolve to the bound strategies.
    """
    check_numba()
    memo = (template, nogil, tuple(sorted(hooks.items(), key=lambda kv: kv[0])))
    try:
        return _MEMO[memo]  # the same objects again: skip reading sources and hashing
    except (KeyError, TypeError):
        pass
    with _LOCK:  # one specialisation at a time: reading sources, ast, hashing, loading
        return _specialize(template, hooks, nogil, memo)


def _specialize(template: Callable, hooks: Mapping[str, Any], nogil: bool, memo: tuple) -> Callable:
    global _PRUNED
    template = getattr(template, "py_func", template)
    comps = companions(template)
    _check(template, hooks, comps)
    stamp = _stamp()
    src = _source(template)
    own = {k: v for k, v in _options(template).items() if k not in ("cache", "nogil")}
    kernel_opts = {"nopython": True, **own, "cache": True, "nogil": nogil}
    options = {_py(c).__name__: _options(c) for c in comps}
    comp_src = "".join(f"# options: {_stable_repr(options[n])}\n"
                       f"@_nb.jit(**_sim_kernel_options[{n!r}])\n{_source(c)}\n\n"
                       for n, c in zip(options, comps))
    h = hashlib.sha256()
    h.update(src.encode())
    h.update(comp_src.encode())
    h.update(_stable_repr(kernel_opts).encode())
    h.update(template.__module__.encode())
    h.update(stamp.encode())
    h.update(_plugin_stamp(template.__module__).encode())
    h.update(str(nb.config.DISABLE_JIT).encode())
    chosen = template_chosen(template)
    bound: dict[str, Any] = {}
    choice_src = ""
    for name in sorted(hooks):
        h.update(name.encode())
        fn = hooks[name]
        if name in chosen:
            choice = fn if isinstance(fn, Choice) else Choice((fn,))
            for f in choice.options:
                h.update(b"|option|" + _fn_fingerprint(f))
            src_c, extra = _choice_source(name, choice)
            choice_src += src_c
            bound.update(extra)
        elif isinstance(fn, Choice):
            raise KernelError(f"{template.__module__}.{template.__qualname__}: hook {name} is not chosen by a "
                              f"selector (kernel_template(chosen=...)); bind one function to it")
        else:
            h.update(_fn_fingerprint(fn))
            bound[name] = fn
    h.update(choice_src.encode())
    digest = h.hexdigest()[:DIGEST_LEN]
    with _LOCK:
        if digest in _LOADED:
            _remember(memo, _LOADED[digest])
            return _LOADED[digest]
        d = kernel_dir()
        _touch(_marker(d, stamp[:STAMP_LEN]))  # before pruning or reading: this stamp is in use
        if not _PRUNED:
            _PRUNED = True
            prune(d, keep=stamp[:STAMP_LEN])
        cache_helpers([template, *comps, *bound.values()])
        _BOUND[digest] = bound
        _OPTIONS[digest] = options
        modname = f"sim_kernel_{template.__name__}_{stamp[:STAMP_LEN]}_{digest}"
        path = d / f"{modname}.py"
        code = (
            f"# generated by sim.core.kernels from {template.__module__}.{template.__name__}\n"
            "import importlib\nimport numba as _nb\n"
            f"globals().update({{k: v for k, v in vars(importlib.import_module({template.__module__!r})).items()"
            " if not k.startswith('__')})\n"
            "from sim.core.kernels import _BOUND, _OPTIONS\n"
            f"globals().update(_BOUND[{digest!r}])\n"
            f"_sim_kernel_options = _OPTIONS[{digest!r}]\n\n"
            f"{choice_src}"
            f"{comp_src}"
            f"@_nb.jit(**{_stable_repr(kernel_opts)})\n{src}"
        )
        for attempt in (0, 1):
            try:
                if not path.exists() or path.read_text() != code:
                    tmp = path.with_suffix(f".{os.getpid()}.tmp")
                    tmp.write_text(code)
                    os.replace(tmp, path)
                spec = importlib.util.spec_from_file_location(modname, path)
                mod: ModuleType = importlib.util.module_from_spec(spec)
                sys.modules[modname] = mod
                spec.loader.exec_module(mod)
                break
            except FileNotFoundError:  # another process pruned it just now: write it again
                sys.modules.pop(modname, None)
                if attempt:
                    raise
        fn = getattr(mod, template.__name__)
        _compile_once(fn, d / f"{modname}.lock")
        for c in (template, *comps):  # the generated copies: the template and its companions
            _typed_without_literals(getattr(mod, _py(c).__name__))
        _LOADED[digest] = fn
        _remember(memo, fn)
        return fn


def _compile_once(fn: Any, lock: Path) -> None:
    """Make processes that need the same kernel compile it once between them.

    numba compiles a kernel on its first call with new argument types, after looking in the
    disk cache; two processes starting together (the suite's two workers, precompile, runs
    side by side) both miss the cache and both compile: in a fresh-clone suite the bayes ×
    fixed kernel was compiled by both workers at once, 21 and 41 minutes (issue 42). Here a
    compile holds an exclusive lock on ``lock`` while it compiles and saves; the others wait
    on it, then find the saved kernel in the cache. numba's own compiler lock is taken
    first (it is re-entrant), so in a process only the thread compiling holds these locks,
    and a kernel's compile may take a helper's lock inside it (no cycle: kernels do not call
    kernels back)."""
    if not hasattr(fn, "overloads") or "compile" in vars(fn):
        return
    plain = fn.compile

    def compile(sig):
        with _global_compiler_lock:
            try:
                f = open(lock, "a")
            except OSError:  # a read-only cache folder: compile unlocked
                return plain(sig)
            with f:
                try:
                    fcntl.flock(f, fcntl.LOCK_EX)
                except OSError:
                    pass
                return plain(sig)  # closing the file releases the lock

    fn.compile = compile


def _remember(memo: tuple, fn: Callable) -> None:
    try:
        _MEMO[memo] = fn
    except TypeError:  # an unhashable hook: no memo, the digest path still works
        pass


def stamped(fn: Callable) -> Callable:
    """A disk-cached copy of jitted ``fn`` that is recompiled whenever a project source changes."""
    return specialize(fn, {}, nogil=True)
