"""sim.core.kernels on its own, with tiny synthetic templates (not the games)."""
from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import textwrap
import threading
import time
import uuid
from pathlib import Path

import numba as nb
import pytest

from sim.core import kernels
from sim.core.kernels import KernelError, specialize

ROOT = Path(__file__).resolve().parents[1]
needs_jit = pytest.mark.skipif(nb.config.DISABLE_JIT, reason="numba options and caches need the JIT")

TEMPLATE = '''
import numba as nb
from sim.core.kernels import kernel_template


@nb.njit
def hk_one(x):
    return x + 1.0


@nb.njit
def hk_two(x):
    return x * 10.0


@nb.njit(inline="always", fastmath=True)
def inner(x):
    return hook_a(x)  # calls a hook


@nb.njit(fastmath=True, error_model="numpy", boundscheck=False, nogil=True)
def outer(x):
    return inner(x) + 0.5  # calls a hook through another helper


@nb.njit(inline="always")
def plain(x):
    return x * 2.0  # calls no hook: not a companion


@kernel_template(hooks=("hook_a", "hook_b"))
def tmpl(x):
    return outer(x) + plain(hook_b(x))
'''


@pytest.fixture
def kdir(tmp_path, monkeypatch):
    d = tmp_path / "kernels"
    monkeypatch.setenv("SIM_KERNEL_DIR", str(d))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # edited modules must not load stale .pyc
    monkeypatch.syspath_prepend(str(tmp_path / "mods"))
    (tmp_path / "mods").mkdir()
    return d


def write_module(tmp_path: Path, src: str, name: str | None = None):
    """A fresh module (unique name: the kernels' in-process caches never collide)."""
    name = name or f"kt_{uuid.uuid4().hex[:10]}"
    (tmp_path / "mods" / f"{name}.py").write_text(textwrap.dedent(src))
    importlib.invalidate_caches()
    return importlib.import_module(name)


def generated(fn):
    """The generated module a specialised kernel lives in."""
    return sys.modules[kernels._py(fn).__module__]


def test_hooks_bound_and_called(kdir, tmp_path):
    m = write_module(tmp_path, TEMPLATE)
    a = specialize(m.tmpl, {"hook_a": m.hk_one, "hook_b": m.hk_two})
    b = specialize(m.tmpl, {"hook_a": m.hk_two, "hook_b": m.hk_one})
    assert a(1.0) == (2.0 + 0.5) + 2 * 10.0
    assert b(1.0) == (10.0 + 0.5) + 2 * 2.0
    assert specialize(m.tmpl, {"hook_a": m.hk_one, "hook_b": m.hk_two}) is a  # in-process memo
    files = sorted(p.name for p in kdir.glob("sim_kernel_tmpl_*.py"))
    assert len(files) == 2
    stamp = kernels._stamp()[:kernels.STAMP_LEN]
    assert all(f.startswith(f"sim_kernel_tmpl_{stamp}_") for f in files)
    assert (kdir / f"sim_kernel_{stamp}.used").exists()


def test_companions_found_through_helpers(kdir, tmp_path):
    m = write_module(tmp_path, TEMPLATE)
    assert [kernels._py(f).__name__ for f in kernels.companions(m.tmpl)] == ["inner", "outer"]
    fn = specialize(m.tmpl, {"hook_a": m.hk_one, "hook_b": m.hk_two})
    g = generated(fn)
    assert g.inner is not m.inner and g.outer is not m.outer  # re-declared next to the hooks
    assert g.plain is m.plain and g.hk_one is m.hk_one  # the rest is the template module's


@needs_jit
def test_companion_options_carried_over(kdir, tmp_path):
    m = write_module(tmp_path, TEMPLATE)
    g = generated(specialize(m.tmpl, {"hook_a": m.hk_one, "hook_b": m.hk_two}))
    assert g.outer.targetoptions == m.outer.targetoptions
    assert g.outer.targetoptions["fastmath"] is True
    assert g.outer.targetoptions["error_model"] == "numpy"
    assert g.outer.targetoptions["boundscheck"] is False
    assert g.outer.targetoptions["nogil"] is True
    assert g.inner.targetoptions["inline"] == "always" and g.inner.targetoptions["fastmath"] is True
    assert g.tmpl.targetoptions["nogil"] is True
    assert g.tmpl.stats.cache_path is not None  # the kernel itself caches to disk


def test_changed_options_change_the_file(kdir, tmp_path):
    name = f"kt_{uuid.uuid4().hex[:10]}"
    m = write_module(tmp_path, TEMPLATE, name)
    f1 = kernels._py(specialize(m.tmpl, {"hook_a": m.hk_one, "hook_b": m.hk_two})).__code__.co_filename
    m = importlib.reload(write_module(tmp_path, TEMPLATE.replace('error_model="numpy"', 'error_model="python"'), name))
    f2 = kernels._py(specialize(m.tmpl, {"hook_a": m.hk_one, "hook_b": m.hk_two})).__code__.co_filename
    assert f1 != f2  # numba's cache index would not notice a changed option by itself


def test_hook_edit_changes_digest(kdir, tmp_path):
    t = write_module(tmp_path, TEMPLATE)
    name = f"kt_hooks_{uuid.uuid4().hex[:8]}"
    hooks_src = "import numba as nb\n\n@nb.njit\ndef h(x):\n    return x + {k}\n"
    h = write_module(tmp_path, hooks_src.format(k="1.0"), name)
    f1 = specialize(t.tmpl, {"hook_a": h.h, "hook_b": t.hk_one})
    h = importlib.reload(write_module(tmp_path, hooks_src.format(k="3.0"), name))
    f2 = specialize(t.tmpl, {"hook_a": h.h, "hook_b": t.hk_one})
    assert kernels._py(f1).__module__ != kernels._py(f2).__module__
    assert f1(1.0) == 2.5 + 4.0 and f2(1.0) == 4.5 + 4.0


SCRIPT = """
import importlib, json, sys
from sim.core import kernels
m = importlib.import_module(sys.argv[1])
fn = kernels.specialize(m.tmpl, {"hook_a": m.hk_one, "hook_b": m.hk_two})
r = fn(1.0)
st = fn.stats
print(json.dumps({"file": fn.py_func.__code__.co_filename, "r": r,
                  "hits": sum(st.cache_hits.values()), "misses": sum(st.cache_misses.values())}))
"""


@needs_jit
def test_disk_cache_used_by_a_second_process(kdir, tmp_path):
    name = f"kt_{uuid.uuid4().hex[:10]}"
    (tmp_path / "mods" / f"{name}.py").write_text(TEMPLATE)
    env = {**os.environ, "SIM_KERNEL_DIR": str(kdir),
           "PYTHONPATH": os.pathsep.join([str(ROOT), str(tmp_path / "mods")])}

    def run():
        out = subprocess.run([sys.executable, "-c", SCRIPT, name], env=env, check=True,
                             capture_output=True, text=True).stdout
        return json.loads(out.strip().splitlines()[-1])

    first = run()
    path = Path(first["file"])
    mtime = path.stat().st_mtime_ns
    second = run()
    assert first["r"] == second["r"] == 22.5
    assert first["misses"] == 1 and first["hits"] == 0  # compiled and saved
    assert second["file"] == first["file"] and path.stat().st_mtime_ns == mtime  # reused, not rewritten
    assert second["hits"] == 1 and second["misses"] == 0  # loaded, not recompiled
    cache = Path(os.environ["NUMBA_CACHE_DIR"]) if os.environ.get("NUMBA_CACHE_DIR") else kdir / "__pycache__"
    assert list(cache.rglob(f"{path.stem}.*.nbi"))  # numba's index of the saved kernel


SCRIPT_READY = """
import importlib, json, sys
from sim.core import kernels
m = importlib.import_module(sys.argv[1])
fn = kernels.specialize(m.tmpl, {"hook_a": m.hk_one, "hook_b": m.hk_two})
print("ready", flush=True)
r = fn(1.0)
st = fn.stats
print(json.dumps({"r": r, "hits": sum(st.cache_hits.values()), "misses": sum(st.cache_misses.values())}))
"""


@needs_jit
def test_two_processes_needing_a_kernel_compile_it_once(kdir, tmp_path):
    """Both processes are at their first call before either may compile (the test holds
    the kernel's compile lock): one compiles and saves, the other waits and loads it."""
    import fcntl

    name = f"kt_{uuid.uuid4().hex[:10]}"
    (tmp_path / "mods" / f"{name}.py").write_text(TEMPLATE)
    env = {**os.environ, "SIM_KERNEL_DIR": str(kdir),
           "PYTHONPATH": os.pathsep.join([str(ROOT), str(tmp_path / "mods")])}
    m = write_module(tmp_path, TEMPLATE, name)
    specialize(m.tmpl, {"hook_a": m.hk_one, "hook_b": m.hk_two})  # writes the module; compiles nothing
    (lock_path,) = kdir.glob("sim_kernel_tmpl_*.py")
    with open(lock_path.with_suffix(".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        procs = [subprocess.Popen([sys.executable, "-c", SCRIPT_READY, name], env=env, text=True,
                                  stdout=subprocess.PIPE) for _ in range(2)]
        assert [p.stdout.readline().strip() for p in procs] == ["ready", "ready"]
        time.sleep(1.0)  # both now wait on the lock at their first call
        assert all(p.poll() is None for p in procs)
    outs = [json.loads(p.communicate(timeout=300)[0].strip().splitlines()[-1]) for p in procs]
    assert [o["r"] for o in outs] == [22.5, 22.5]
    assert sorted((o["misses"], o["hits"]) for o in outs) == [(0, 1), (1, 0)]  # one compiled, one loaded


def test_missing_unknown_and_unbound_hooks_are_clear_errors(kdir, tmp_path):
    m = write_module(tmp_path, TEMPLATE)
    with pytest.raises(KernelError, match=r"tmpl: missing hook\(s\) hook_b \(it declares: hook_a, hook_b\)"):
        specialize(m.tmpl, {"hook_a": m.hk_one})
    with pytest.raises(KernelError, match=r"unknown hook\(s\) hook_c"):
        specialize(m.tmpl, {"hook_a": m.hk_one, "hook_b": m.hk_two, "hook_c": m.hk_one})
    with pytest.raises(KernelError, match="hook hook_b is bound to None"):
        specialize(m.tmpl, {"hook_a": m.hk_one, "hook_b": None})
    with pytest.raises(KernelError, match="not a kernel template"):
        specialize(m.plain, {"hook_a": m.hk_one})
    assert not list(kdir.glob("sim_kernel_tmpl_*.py"))  # nothing generated for a refused call


def test_undeclared_hook_name_is_a_clear_error(kdir, tmp_path):
    m = write_module(tmp_path, TEMPLATE.replace("plain(hook_b(x))", "plain(hook_c(x))"))
    with pytest.raises(KernelError, match=r"tmpl uses undefined global\(s\) hook_c"):
        specialize(m.tmpl, {"hook_a": m.hk_one, "hook_b": m.hk_two})


def test_template_declaration_checks():
    with pytest.raises(KernelError, match="identifiers"):
        kernels.kernel_template(hooks=("not a name",))
    with pytest.raises(KernelError, match="twice"):
        kernels.kernel_template(hooks=("a", "a"))



def _project_kernel_functions():
    """Every kernel template of the project's games (and the race example's), and the
    Looper's day kernels, which the strategies and the Python API call too."""
    import sim_race.game_nb

    import sim.looper.day_nb
    import sim.looper.game_nb
    import sim.trpg.game_nb
    import sim.werewolf.game_nb
    mods = (sim.looper.game_nb, sim.trpg.game_nb, sim.werewolf.game_nb, sim_race.game_nb)
    found = [f for m in mods for f in vars(m).values() if callable(f) and kernels.template_hooks(f)]
    return found + [sim.looper.day_nb.day_start_nb, sim.looper.day_nb.day_finish_nb]


def test_kernel_parameters_have_no_defaults():
    """An omitted argument is a type of its own to numba (``omitted(default=None)``, not
    ``none``): a caller that leaves ``log`` out compiled the whole kernel a second time (four
    Werewolf kernels of the test suite were compiled twice, about 10 s each)."""
    import inspect

    fns = _project_kernel_functions()
    assert len(fns) >= 7
    for f in fns:
        py = getattr(f, "py_func", f)
        with_default = [p.name for p in inspect.signature(py).parameters.values() if p.default is not p.empty]
        assert not with_default, f"{py.__module__}.{py.__qualname__}: {with_default}"

def _stale_layout(d: Path):
    """Generated files of other stamps, an abandoned temporary file and foreign files."""
    cache = d / "__pycache__"
    cache.mkdir(parents=True)
    old, busy = "a" * 12, "e" * 12
    stem, dig = f"sim_kernel_tmpl_{old}_{'b' * 20}", "c" * 20
    stale = [d / f"{stem}.py", cache / f"{stem}.tmpl-12.py311.nbi", cache / f"{stem}.tmpl-12.py311.1.nbc",
             cache / f"{stem}.cpython-311.pyc", d / f"sim_kernel_{old}.used",
             d / f"sim_kernel_play_chunk_{dig}.py", cache / f"sim_kernel_play_chunk_{dig}.play_chunk-55.py311.nbi",
             d / f"sim_kernel_tmpl_{old}_{'b' * 20}.4242.tmp"]
    busy_files = [d / f"sim_kernel_tmpl_{busy}_{'b' * 20}.py", d / f"sim_kernel_{busy}.used"]
    foreign = [d / "notes.txt", d / "sim_kernel_notes.py", d / f"sim_kernel_tmpl_{old}_{'b' * 20}.txt",
               d / f"{stem}.py.bak", cache / "other.cpython-311.pyc", cache / f"{stem}.nbi.keep",
               d / "sub" / f"{stem}.py"]
    for f in stale + busy_files + foreign:
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text("x")
    day_ago = time.time() - 86400
    for f in stale + foreign:
        os.utime(f, (day_ago, day_ago))
    return stale, busy_files, foreign


def test_stale_files_pruned_at_first_use_foreign_untouched(kdir, tmp_path, monkeypatch):
    stale, busy, foreign = _stale_layout(kdir)
    cur = kernels._stamp()[:kernels.STAMP_LEN]
    abandoned = kdir / f"sim_kernel_tmpl_{cur}_{'b' * 20}.999.tmp"  # a process died while writing
    abandoned.write_text("x")
    os.utime(abandoned, (0, 0))
    stale.append(abandoned)
    monkeypatch.setattr(kernels, "_PRUNED", False)
    m = write_module(tmp_path, TEMPLATE)
    fn = specialize(m.tmpl, {"hook_a": m.hk_one, "hook_b": m.hk_two})
    assert fn(1.0) == 22.5
    assert [f for f in stale if f.exists()] == []
    assert all(f.exists() for f in busy)  # another stamp used a moment ago: a live process's
    assert all(f.exists() for f in foreign)
    assert Path(kernels._py(fn).__code__.co_filename).exists()
    # pruning runs once per process: files of another stamp appearing later stay until then
    late = kdir / f"sim_kernel_tmpl_{'f' * 12}_{'b' * 20}.py"
    late.write_text("x")
    os.utime(late, (0, 0))
    specialize(m.tmpl, {"hook_a": m.hk_two, "hook_b": m.hk_two})
    assert late.exists()


def test_prune_keeps_the_current_stamp_and_survives_concurrent_pruning(kdir):
    stale, busy, foreign = _stale_layout(kdir)
    keep = "b" * 12
    mine = kdir / f"sim_kernel_tmpl_{keep}_{'d' * 20}.py"
    mine.write_text("x")
    os.utime(mine, (0, 0))
    errors = []

    def worker():
        try:
            kernels.prune(kdir, keep=keep)
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert mine.exists() and all(f.exists() for f in busy + foreign)
    assert not any(f.exists() for f in stale)
    assert sorted(kernels.prune(kdir, keep=keep, grace_s=-1)) == sorted(busy)  # no grace: the other stamp goes too


# ---- the stamped cache of the project's helpers (cache_helpers) ----------------------------
# The helper modules are written to a folder the subprocess adds to the project's roots, so
# they are project code there (stamped and cached) without touching the real tree.
HELPERS = {
    "leafmod": '''
import numba as nb


@nb.njit
def leaf(x):
    return x * 2.0
''',
    "helpmod": '''
import numba as nb
from leafmod import leaf
from sim.core.kernels import kernel_template


@nb.njit
def helper(x):
    return leaf(x) + 1.0  # calls a helper of another file


@nb.njit
def hk_one(x):
    return helper(x)


@nb.njit
def hk_two(x):
    return helper(x) * 10.0


@kernel_template(hooks=("hook_a", "hook_b"))
def tmpl(x):
    return hook_a(x) + hook_b(x)
''',
}

HELPER_SCRIPT = """
import json, sys
from pathlib import Path
from sim.core import kernels
kernels._ROOTS.append(Path(sys.argv[1]).resolve())
import helpmod
a, b = (getattr(helpmod, n) for n in sys.argv[2].split(","))
fn = kernels.specialize(helpmod.tmpl, {"hook_a": a, "hook_b": b})
r = fn(1.0)
fns = (helpmod.hk_one, helpmod.hk_two, helpmod.helper, helpmod.leaf)
print(json.dumps({"r": r, "hits": sum(sum(f.stats.cache_hits.values()) for f in fns),
                  "misses": sum(sum(f.stats.cache_misses.values()) for f in fns),
                  "cached": sorted({type(f._cache).__name__ for f in fns})}))
"""


def _run_in_child(script: str, mods: Path, kdir: Path, arg: str) -> dict:
    """``script`` run in a fresh process with the kernel folder ``kdir`` and the helper
    modules of ``mods`` (its first argument, added to the project's roots there); the JSON
    of its last line."""
    env = {**os.environ, "SIM_KERNEL_DIR": str(kdir), "PYTHONDONTWRITEBYTECODE": "1",
           "PYTHONPATH": os.pathsep.join([str(ROOT), str(mods)])}
    out = subprocess.run([sys.executable, "-c", script, str(mods), arg], env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


@needs_jit
def test_helpers_compiled_once_for_every_process_and_an_edited_callee_recompiles(kdir, tmp_path):
    mods = tmp_path / "mods"
    for name, src in HELPERS.items():
        (mods / f"{name}.py").write_text(src)

    def run(hooks):
        return _run_in_child(HELPER_SCRIPT, mods, kdir, hooks)

    first = run("hk_one,hk_two")
    assert first == {"r": 3.0 + 30.0, "hits": 0, "misses": 4, "cached": ["_StampedCache"]}
    # another kernel in another process: the hooks are loaded (their helpers inside), not compiled
    second = run("hk_two,hk_one")
    assert second["r"] == 33.0 and (second["hits"], second["misses"]) == (2, 0)
    assert list((kdir / kernels._FN_DIR).rglob("helpmod.helper-*.nbi"))
    # numba's own cache would keep `helper` (its file is unchanged) with the old `leaf` inside
    (mods / "leafmod.py").write_text(HELPERS["leafmod"].replace("x * 2.0", "x * 3.0"))
    third = run("hk_two,hk_one")
    assert third["r"] == 4.0 + 40.0 and (third["hits"], third["misses"]) == (0, 4)


FLAGS_MOD = '''
import numba as nb


@nb.njit
def leaf(x):
    return x * 2.0


@nb.njit
def plain_caller(x):
    return leaf(x) + 1.0


@nb.njit(forceinline=True)
def inlining_caller(x):  # as the chosen hooks' dispatchers are (kernels._choice_source)
    return leaf(x) + 2.0
'''

FLAGS_SCRIPT = """
import json, sys
from pathlib import Path
from sim.core import kernels
kernels._ROOTS.append(Path(sys.argv[1]).resolve())
import flagmod
kernels.cache_helpers([flagmod.leaf])
r = getattr(flagmod, sys.argv[2])(1.0)
(cres,) = flagmod.leaf.overloads.values()
print(json.dumps({"r": r, "hits": sum(flagmod.leaf.stats.cache_hits.values()),
                  "misses": sum(flagmod.leaf.stats.cache_misses.values()),
                  "forceinline": bool(cres.fndesc.inline)}))
"""


@needs_jit
def test_a_helper_compiled_under_other_inherited_flags_is_another_cache_entry(kdir, tmp_path):
    """A callee inherits ``forceinline`` (and nrt, fastmath, error_model) from its caller, and
    numba's cache key does not hold them: a helper cached under a plain caller (a test's
    Python call) was loaded under a kernel's inlining dispatcher, and the filter kernels
    built on it ran 3.5 times slower (docs/performance.md). Each is its own entry now."""
    mods = tmp_path / "mods"
    (mods / "flagmod.py").write_text(FLAGS_MOD)

    def run(caller):
        return _run_in_child(FLAGS_SCRIPT, mods, kdir, caller)

    assert run("plain_caller") == {"r": 3.0, "hits": 0, "misses": 1, "forceinline": False}
    # under the inlining caller the plain entry is not the code it would compile: a miss
    assert run("inlining_caller") == {"r": 4.0, "hits": 0, "misses": 1, "forceinline": True}
    assert run("plain_caller") == {"r": 3.0, "hits": 1, "misses": 0, "forceinline": False}
    assert run("inlining_caller") == {"r": 4.0, "hits": 1, "misses": 0, "forceinline": True}


def test_the_inherited_flags_key_is_the_same_in_every_process():
    """``fastmath``'s options are a set of strings, whose order (and so its repr) follows the
    per-process string hash: a key built on it would miss in the next process."""
    code = ("from numba.core.cpu import FastMathOptions; from sim.core.kernels import _stable_flag; "
            "print(_stable_flag(FastMathOptions({'nnan', 'ninf', 'nsz', 'arcp', 'contract'})))")
    outs = {subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONHASHSEED": str(seed),
                                                               "PYTHONPATH": str(ROOT)},
                           check=True, capture_output=True, text=True).stdout for seed in range(4)}
    assert outs == {"FastMathOptions(['arcp', 'contract', 'ninf', 'nnan', 'nsz'])\n"}


def test_helpers_outside_the_project_are_not_cached(kdir, tmp_path):
    m = write_module(tmp_path, TEMPLATE)
    specialize(m.tmpl, {"hook_a": m.hk_one, "hook_b": m.hk_two})
    assert not isinstance(m.hk_one._cache, kernels._StampedCache)  # a plug-in's code is not stamped
    assert not (kdir / kernels._FN_DIR).exists() or not list((kdir / kernels._FN_DIR).rglob("*.nbi"))


@needs_jit
def test_project_helpers_of_a_real_kernel_get_the_stamped_cache():
    from sim.looper import day_nb
    from strategies.looper import bayes

    kernels.cache_helpers([bayes.bayes_move_nb])
    assert isinstance(bayes.bayes_move_nb._cache, kernels._StampedCache)
    assert isinstance(day_nb.day_start_nb._cache, kernels._StampedCache)  # reached through bayes's calls
    assert kernels.cache_helpers([bayes.bayes_move_nb]) == 0  # once per function


@needs_jit
def test_no_writable_cache_folder_leaves_the_helpers_uncached(monkeypatch):
    from strategies.looper import restrict

    monkeypatch.setattr(kernels._StampedLocator, "from_function", classmethod(lambda cls, f, p: None))
    fns = [v for v in vars(restrict).values() if kernels._is_jitted(v) and not v.targetoptions.get("cache")]
    before = [type(f._cache) for f in fns]
    assert fns and kernels.cache_helpers(fns) == 0
    assert [type(f._cache) for f in fns] == before


def test_prune_removes_a_stale_stamps_helper_cache_but_nothing_it_did_not_write(kdir):
    fn = kdir / kernels._FN_DIR
    old = fn / ("a" * 12) / "strategies" / "looper"
    old.mkdir(parents=True)
    for n in ("bayes._knob-540.py311.nbi", "bayes._knob-540.py311.1.nbc",
              "bayes._knob-540.py311.nbi.tmp.0123456789abcdef"):
        (old / n).write_text("x")
    mixed = fn / ("c" * 12) / "sim"
    mixed.mkdir(parents=True)
    (mixed / "day_nb.day_start_nb-10.py311.nbi").write_text("x")
    (mixed / "my-notes.txt").write_text("a user's file")
    keep = fn / ("b" * 12)
    keep.mkdir()
    (keep / "day_nb.day_start_nb-10.py311.nbi").write_text("x")
    other = fn / "not-a-stamp"
    other.mkdir()
    for p in (old, old.parent, old.parent.parent, mixed, mixed.parent, keep, other):
        os.utime(p, (0, 0))
    kernels.prune(kdir, keep="b" * 12)
    assert not (fn / ("a" * 12)).exists()
    assert (mixed / "my-notes.txt").read_text() == "a user's file"
    assert not (mixed / "day_nb.day_start_nb-10.py311.nbi").exists()
    assert (keep / "day_nb.day_start_nb-10.py311.nbi").exists() and other.exists()


LITERALS = '''
import numba as nb
from sim.core.kernels import kernel_template


@nb.njit
def scaled(x, k):
    return x * k


@nb.njit
def hk(x):
    return scaled(x, 2) + scaled(x, 3)  # two constants: numba would type Literal[int](2), (3)


@nb.njit
def via_hook(x, k):
    return hook(x) * k  # calls the hook: a companion, re-declared in the generated module


@kernel_template(hooks=("hook",))
def tmpl(x):
    return via_hook(x, 1) + via_hook(x, 10) + scaled(x, 5)
'''


@needs_jit
def test_project_helpers_are_compiled_once_whatever_constants_they_are_called_with(kdir, tmp_path, monkeypatch):
    """A constant argument is typed as its own ``Literal`` by numba: without
    ``_typed_without_literals`` ``scaled`` would be compiled three times and the companion
    ``via_hook`` twice, each with everything it calls."""
    monkeypatch.setattr(kernels, "_ROOTS", [*kernels._ROOTS, (tmp_path / "mods").resolve()])
    m = write_module(tmp_path, LITERALS)
    fn = specialize(m.tmpl, {"hook": m.hk})
    assert fn(1.0) == 5.0 * 1 + 5.0 * 10 + 5.0
    assert [str(s) for s in m.scaled.signatures] == ["(float64, int64)"]
    assert len(generated(fn).via_hook.signatures) == 1
    assert len(m.hk.signatures) == 1


def test_numba_outside_the_tested_releases_is_one_clear_error(monkeypatch):
    from sim.core.kernels import TESTED_NUMBA, check_numba
    from sim.errors import SimInputError

    monkeypatch.delenv("SIM_ANY_NUMBA", raising=False)
    lo, hi = TESTED_NUMBA
    check_numba(f"{lo[0]}.{lo[1]}.0")
    check_numba(f"{hi[0]}.{hi[1]}.3")
    for v in (f"{hi[0]}.{hi[1] + 1}.0", f"{lo[0]}.{lo[1] - 1}.2", "1.0.0"):
        with pytest.raises(SimInputError, match="not a release the kernel cache was tested with"):
            check_numba(v)
    monkeypatch.setenv("SIM_ANY_NUMBA", "1")
    check_numba("9.9.9")


CHOSEN = '''
import numba as nb
from sim.core.kernels import kernel_template


@nb.njit
def add_one(x):
    return x + 1.0


@nb.njit
def times_ten(x):
    return x * 10.0


@nb.njit
def two_args(x, y):
    return x + y


@nb.njit
def helper(s, x):
    return hook_a(s, x)  # a companion passing the selector through


@kernel_template(hooks=("hook_a", "hook_b"), chosen=("hook_a",))
def tmpl(x, sel):
    return helper(sel[0], x) + hook_b(x)
'''


def test_choice_one_kernel_plays_every_candidate(kdir, tmp_path):
    """A chosen hook bound to a Choice: the selector picks the candidate at run time, and
    every selector value runs the same compiled kernel (one compile for all pairs)."""
    import numpy as np

    m = write_module(tmp_path, CHOSEN)
    both = kernels.Choice((m.add_one, m.times_ten))
    a = kernels.Selected(specialize(m.tmpl, {"hook_a": both, "hook_b": m.add_one}), (0,))
    b = kernels.Selected(specialize(m.tmpl, {"hook_a": both, "hook_b": m.add_one}), (1,))
    assert a(np.float64(3.0)) == 4.0 + 4.0
    assert b(np.float64(3.0)) == 30.0 + 4.0
    assert a.kernel is b.kernel  # one kernel, two selectors
    # a plain function on a chosen hook is a choice of one: the selector is ignored
    c = kernels.Selected(specialize(m.tmpl, {"hook_a": m.times_ten, "hook_b": m.add_one}), (7,))
    assert c(np.float64(3.0)) == 34.0
    if not nb.config.DISABLE_JIT:
        assert len(a.kernel.signatures) == 1


def test_choice_refused_where_it_cannot_work(kdir, tmp_path):
    m = write_module(tmp_path, CHOSEN)
    with pytest.raises(KernelError, match="different numbers of arguments"):
        specialize(m.tmpl, {"hook_a": kernels.Choice((m.add_one, m.two_args)), "hook_b": m.add_one})
    with pytest.raises(KernelError, match="not chosen"):
        specialize(m.tmpl, {"hook_a": m.add_one, "hook_b": kernels.Choice((m.add_one, m.times_ten))})
    with pytest.raises(KernelError, match="not among the hooks"):
        kernels.kernel_template(hooks=("a",), chosen=("b",))


def test_families_group_shipped_and_isolate_plugins():
    """Shipped strategies share one candidate list per group; a plug-in on either side
    puts each side alone in its kernel (it compiles against the pair it plays)."""
    from collections import namedtuple

    S = namedtuple("S", "name fn oracle")
    a, b, o = S("a", len, False), S("b", abs, False), S("oracle_x", max, True)
    shipped = ((a, b, o), (a, b))
    fns = lambda s: (s.fn,)  # noqa: E731
    grp = lambda s: s.oracle  # noqa: E731
    got = kernels.families((b, a), shipped, fns, grp)
    assert got == [(((len,), (abs,)), 1), (((len,), (abs,)), 0)]
    got = kernels.families((o, b), shipped, fns, grp)
    assert got == [(((max,),), 0), (((len,), (abs,)), 1)]
    plug = S("mine", min, False)
    assert kernels.families((plug, b), shipped, fns, grp) == [(((min,),), 0), (((abs,),), 0)]
