"""The notebooks run (tiny sizes) and their .py / .ipynb pairs agree.

Each ``notebooks/*.py`` (jupytext percent format) is executed through a Jupyter kernel
with ``SIM_NB_GAMES`` small; a cell that raises fails the test. The paired ``.ipynb``
must hold the same cells (edit the .py, then ``jupytext --sync notebooks/*.py``).
"""
from __future__ import annotations

import os
from pathlib import Path

import jupytext
import pytest
from nbclient import NotebookClient

NB = Path(__file__).resolve().parents[1] / "notebooks"
NOTEBOOKS = sorted(p.name for p in NB.glob("*.py"))


def test_every_game_has_a_notebook():
    assert {"looper.py", "werewolf.py", "trpg.py", "sweep_datasets.py"} <= set(NOTEBOOKS)


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_pair_in_sync(name):
    py = jupytext.read(NB / name)
    ipynb_path = (NB / name).with_suffix(".ipynb")
    assert ipynb_path.is_file(), f"{ipynb_path.name} missing: run jupytext --sync notebooks/{name}"
    ipynb = jupytext.read(ipynb_path)
    src = lambda nb: [(c.cell_type, c.source.strip()) for c in nb.cells]  # noqa: E731
    assert src(py) == src(ipynb), f"{name} and its .ipynb differ: run jupytext --sync notebooks/{name}"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_executes(name, tmp_path, monkeypatch):
    nb = jupytext.read(NB / name)
    monkeypatch.setenv("SIM_NB_GAMES", "600")
    monkeypatch.setenv("SIM_NB_OUT", str(tmp_path / "out"))
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp))  # the kernel's temp files land here
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(NB.parent), os.environ.get("PYTHONPATH", "")]))
    client = NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    # the last figure or table was really produced
    assert any(o.get("output_type") in ("execute_result", "display_data") for o in outputs)
    # given SIM_NB_OUT, the notebook makes no output folder of its own (none left behind)
    assert not list(tmp.glob("*-nb-*")), sorted(p.name for p in tmp.iterdir())
