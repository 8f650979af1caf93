"""--out never deletes or overwrites what the project did not write (sim.core.outdir)."""
from __future__ import annotations

import json
import os
import resource
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from sim.core.outdir import MARKER, OutDir, SimOutputError, check_target, claim_sweep_root, register_sweep
from sim.errors import SimInputError

ROOT = Path(__file__).resolve().parents[1]


def _write(od: OutDir, files: dict[str, str]):
    def fill(tmp: Path):
        for name, text in files.items():
            (tmp / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp / name).write_text(text)
    return od.write(fill)


def _snapshot(d: Path) -> dict[str, bytes]:
    return {p.relative_to(d).as_posix(): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


def test_new_dir_gets_marker_listing_every_file(tmp_path):
    out = tmp_path / "a" / "b" / "out"
    _write(OutDir.claim(out, "tables"), {"t.parquet": "x", "sub/u.txt": "y"})
    mark = json.loads((out / MARKER).read_text())
    assert mark["kind"] == "tables" and mark["files"] == ["sub/u.txt", "t.parquet"]
    assert sorted(p.name for p in tmp_path.joinpath("a", "b").iterdir()) == ["out"]  # no temp left


def test_own_output_is_replaced_and_old_files_go(tmp_path):
    out = tmp_path / "o"
    _write(OutDir.claim(out, "tables"), {"old.parquet": "1", "keep/x.parquet": "2"})
    _write(OutDir.claim(out, "tables"), {"new.parquet": "3"})
    assert sorted(_snapshot(out)) == [MARKER, "new.parquet"]
    assert [p.name for p in tmp_path.iterdir()] == ["o"]


def test_empty_dir_accepted(tmp_path):
    out = tmp_path / "empty"
    out.mkdir()
    _write(OutDir.claim(out, "report"), {"index.html": "<p>"})
    assert (out / "index.html").read_text() == "<p>"


@pytest.mark.parametrize("foreign", ["notes.txt", "sub/deep.txt", "run.parquet"])
def test_foreign_file_refused_and_nothing_touched(tmp_path, foreign):
    out = tmp_path / "precious"
    _write(OutDir.claim(out, "tables"), {"t.parquet": "x"})
    (out / foreign).parent.mkdir(parents=True, exist_ok=True)
    (out / foreign).write_text("mine")
    before = _snapshot(out)
    with pytest.raises(SimInputError, match=foreign.split("/")[0]):
        OutDir.claim(out, "tables")
    assert _snapshot(out) == before
    assert [p.name for p in tmp_path.iterdir()] == ["precious"]


def test_dir_without_marker_refused_naming_first_entry(tmp_path):
    out = tmp_path / "home"
    out.mkdir()
    for n in ("b.txt", "a.txt"):
        (out / n).write_text(n)
    with pytest.raises(SimInputError, match="'a.txt'"):
        OutDir.claim(out, "tables")
    assert sorted(p.name for p in out.iterdir()) == ["a.txt", "b.txt"]


def test_kind_mismatch_refused(tmp_path):
    out = tmp_path / "s"
    _write(OutDir.claim(out, "tables"), {"t.parquet": "x"})
    with pytest.raises(SimInputError, match="tables output"):
        OutDir.claim(out, "report")


def test_regular_file_symlink_and_path_under_file_refused(tmp_path):
    f = tmp_path / "afile"
    f.write_text("data")
    with pytest.raises(SimInputError, match="not a directory"):
        OutDir.claim(f, "tables")
    assert f.read_text() == "data"
    with pytest.raises(SimInputError, match="not a directory"):
        OutDir.claim(f / "x", "tables")
    (tmp_path / "d").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "d")
    with pytest.raises(SimInputError, match="symbolic link"):
        OutDir.claim(tmp_path / "link", "tables")


def test_working_directory_and_its_parents_refused(tmp_path, monkeypatch):
    here = tmp_path / "w"
    here.mkdir()
    monkeypatch.chdir(here)
    for p in (".", "..", str(here), str(tmp_path)):
        with pytest.raises(SimInputError, match="working directory"):
            OutDir.claim(p, "tables")


def test_impossible_path_refused_and_nothing_created(tmp_path):
    with pytest.raises(SimInputError, match="cannot write"):
        OutDir.claim("/proc/sim-balance-test/x", "tables")
    if os.geteuid() != 0:  # root writes into read-only directories
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o555)
        with pytest.raises(SimInputError, match="cannot write"):
            OutDir.claim(ro / "out", "tables")


def test_umask_is_honoured(tmp_path):
    old = os.umask(0o022)
    try:
        out = tmp_path / "m"
        _write(OutDir.claim(out, "tables"), {"t.parquet": "x", "d/u.txt": "y"})
    finally:
        os.umask(old)
    assert stat.S_IMODE(out.stat().st_mode) == 0o755
    assert stat.S_IMODE((out / "d").stat().st_mode) == 0o755
    assert stat.S_IMODE((out / "t.parquet").stat().st_mode) == 0o644


def test_failed_write_keeps_old_output_and_says_so(tmp_path):
    out = tmp_path / "o"
    _write(OutDir.claim(out, "tables"), {"t.parquet": "old"})
    before = _snapshot(out)

    def fill(tmp):
        (tmp / "t.parquet").write_text("partial")
        raise OSError(28, "No space left on device")

    with pytest.raises(SimOutputError, match="No space left on device"):
        OutDir.claim(out, "tables").write(fill)
    assert _snapshot(out) == before
    assert [p.name for p in tmp_path.iterdir()] == ["o"]


def test_error_during_work_removes_claim(tmp_path):
    out = tmp_path / "new" / "deeper" / "o"
    with pytest.raises(KeyError):
        with OutDir.claim(out, "tables"):
            raise KeyError("bad strategy")
    assert list(tmp_path.iterdir()) == []  # the parents the claim made are gone too


def test_sweep_root_rules(tmp_path):
    root = tmp_path / "sw"
    claim_sweep_root(root)
    assert not root.exists()  # checking creates nothing
    register_sweep(root, "game=werewolf/sweep=a")
    (root / "game=werewolf" / "sweep=a").mkdir(parents=True)
    register_sweep(root, "game=trpg/sweep=b")
    (root / "game=trpg" / "sweep=b").mkdir(parents=True)
    claim_sweep_root(root)  # its own sweeps: accepted
    (root / "game=trpg" / "notes.txt").write_text("mine")
    with pytest.raises(SimInputError, match="notes.txt"):
        claim_sweep_root(root)
    (root / "game=trpg" / "notes.txt").unlink()
    (root / "x.csv").write_text("mine")
    with pytest.raises(SimInputError, match="x.csv"):
        claim_sweep_root(root)
    with pytest.raises(SimInputError, match="sweep output"):
        check_target(root, "report")


# -- through the CLI ---------------------------------------------------------------
def _sim(*args: str, cwd: Path, preexec=None, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sim", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, preexec_fn=preexec, env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_cli_refuses_before_playing(tmp_path):
    """10^11 games would take a day: the refusals come before the first game."""
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "notes.txt").write_text("mine")
    (tmp_path / "afile").write_text("data")
    cases = [
        ("werewolf", "run", "--out", "precious"),
        ("werewolf", "run", "--out", "afile"),
        ("werewolf", "run", "--out", "afile/x"),
        ("werewolf", "run", "--out", "."),
        ("werewolf", "run", "--out", ".."),
        ("looper", "run", "--out", "/proc/sim-x"),
    ]
    for args in cases:
        r = _sim(*args, "--games", str(10**11), cwd=tmp_path, timeout=120)
        assert r.returncode == 2, (args, r.stderr)
        assert r.stdout == "" and r.stderr.count("\n") == 1 and r.stderr.startswith("error: "), (args, r.stderr)
    assert (precious / "notes.txt").read_text() == "mine" and sorted(os.listdir(precious)) == ["notes.txt"]
    assert (tmp_path / "afile").read_text() == "data"
    assert sorted(os.listdir(tmp_path)) == ["afile", "precious"]


def test_cli_disk_full_prints_summary_and_fails(tmp_path):
    args = ("werewolf", "run", "--games", "2000", "--seed", "3")
    warm = _sim(*args, cwd=tmp_path)  # compiles the kernel without the file-size limit
    assert warm.returncode == 0

    def small_files():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (1500, 1500))

    r = _sim(*args, "--out", "full", cwd=tmp_path, preexec=small_files)
    assert r.returncode == 1
    assert "village win rate" in r.stdout  # the summary is still printed
    assert r.stderr.startswith("error: could not write full") and r.stderr.count("\n") == 1
    assert not (tmp_path / "full").exists() and os.listdir(tmp_path) == []


def test_cli_report_over_its_dataset_refused(tmp_path):
    r = _sim("werewolf", "run", "--games", "500", "--out", "run1", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    before = _snapshot(tmp_path / "run1")
    for out in ("run1", "run1/report"):
        r = _sim("report", "run1", "--out", out, cwd=tmp_path)
        assert r.returncode == 2 and r.stderr.startswith("error: ") and r.stdout == "", r.stderr
    assert _snapshot(tmp_path / "run1") == before
    r = _sim("werewolf", "run", "--games", "500", "--seed", "2", "--out", "run1", cwd=tmp_path)
    assert r.returncode == 0, r.stderr  # its own output of the same kind: replaced
    assert _snapshot(tmp_path / "run1") != before


def test_cli_broken_pipe_exits_quietly(tmp_path):
    p = subprocess.Popen([sys.executable, "-m", "sim", "werewolf", "run", "--games", "3000"], cwd=tmp_path,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
    p.stdout.close()  # the reader is gone before the first line, like `| head -0`
    err = p.stderr.read().decode()
    assert p.wait(timeout=600) == 0 and err == ""


def test_outputs_from_before_markers_are_recognised(tmp_path):
    """A run directory of the project's manifest and parquet files, or a sweep root of
    game=…/sweep=… directories with the project's manifest, counts as its own output."""
    man = json.dumps({"package": "sim-balance", "command": "sim werewolf run"})
    old = tmp_path / "old"
    old.mkdir()
    (old / "manifest.json").write_text(man)
    (old / "summary.parquet").write_text("x")
    _write(OutDir.claim(old, "tables"), {"summary.parquet": "new"})
    assert sorted(_snapshot(old)) == [MARKER, "summary.parquet"]

    mixed = tmp_path / "mixed"
    mixed.mkdir()
    (mixed / "manifest.json").write_text(man)
    (mixed / "notes.txt").write_text("mine")
    with pytest.raises(SimInputError, match="manifest.json"):
        OutDir.claim(mixed, "tables")
    (mixed / "notes.txt").unlink()
    (mixed / "manifest.json").write_text('{"package": "someone-else"}')
    with pytest.raises(SimInputError, match="manifest.json"):
        OutDir.claim(mixed, "tables")

    root = tmp_path / "sweeps"
    sd = root / "game=werewolf" / "sweep=a"
    sd.mkdir(parents=True)
    (sd / "manifest.json").write_text(man)
    claim_sweep_root(root)
    register_sweep(root, "game=trpg/sweep=b")
    assert set(json.loads((root / MARKER).read_text())["files"]) >= {"game=werewolf/sweep=a", "game=trpg/sweep=b"}
    (root / "game=werewolf" / "sweep=c").mkdir()  # no manifest: not recognisably the project's
    (root / MARKER).unlink()
    with pytest.raises(SimInputError):
        claim_sweep_root(root)


def test_sweep_and_report_outputs_honour_the_umask(tmp_path):
    from sim.analysis.report import report
    from sim.sweep.run import run_sweep
    from sim.sweep.spec import load_spec

    old = os.umask(0o022)
    try:
        rep = run_sweep(load_spec(ROOT / "examples" / "sweeps" / "werewolf_seer.toml", games=200), tmp_path / "sw")
        report(rep.path, tmp_path / "rep")
    finally:
        os.umask(old)
    for root in (tmp_path / "sw", tmp_path / "rep"):
        for p in [root, *root.rglob("*")]:
            want = 0o755 if p.is_dir() else 0o644
            assert stat.S_IMODE(p.stat().st_mode) == want, p
