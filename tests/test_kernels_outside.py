"""A kernel template from a package outside the project (a game installed from its own
package, docs/adding-a-game.md): editing a helper the template calls recompiles it, not
a stale kernel from the disk cache."""
from __future__ import annotations

import importlib
import sys
import textwrap

import numba as nb
import numpy as np

from sim.core import kernels

MOD = '''
import numba as nb

from sim.core.kernels import kernel_template


@nb.njit
def helper_nb(x):
    return x + {add}


@kernel_template(hooks=("hook",))
def template(x):
    return hook(helper_nb(x))  # noqa: F821 - bound by specialize
'''


@nb.njit
def _double(x):
    return 2 * x


def _load(pkg_dir, add: int):
    (pkg_dir / "kern.py").write_text(textwrap.dedent(MOD.format(add=add)))
    for name in [m for m in sys.modules if m == "outside_game" or m.startswith("outside_game.")]:
        del sys.modules[name]
    kernels._MEMO.clear()
    kernels._PLUGIN_STAMPS.clear()
    importlib.invalidate_caches()
    return importlib.import_module("outside_game.kern")


def test_editing_a_helper_of_an_outside_template_recompiles(tmp_path, monkeypatch):
    monkeypatch.setenv("SIM_KERNEL_DIR", str(tmp_path / "kernels"))
    pkg = tmp_path / "src" / "outside_game"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path / "src"))
    try:
        m = _load(pkg, 1)
        assert kernels._plugin_stamp("outside_game.kern")  # hashed: not under the project's roots
        assert kernels.specialize(m.template, {"hook": _double})(np.int64(3)) == 8
        m = _load(pkg, 10)
        assert kernels.specialize(m.template, {"hook": _double})(np.int64(3)) == 26
    finally:
        for name in [m for m in sys.modules if m == "outside_game" or m.startswith("outside_game.")]:
            del sys.modules[name]


def test_project_templates_have_no_extra_stamp():
    assert kernels._plugin_stamp("sim.werewolf.game_nb") == ""
    assert kernels._plugin_stamp("strategies.werewolf") == ""
