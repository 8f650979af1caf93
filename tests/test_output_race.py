"""Output safety under a race (issue 43): a foreign file dropped into ``--out`` while a run is
writing survives, and the run refuses to swap its output in (the earlier output stays too)."""
from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import sim.core.output as output
from sim.cli import app
from sim.core.outdir import OutDir
from sim.errors import SimInputError


def _files(d: Path) -> dict[str, bytes]:
    return {p.relative_to(d).as_posix(): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


def test_foreign_file_arriving_during_the_write_survives(tmp_path):
    out = tmp_path / "out"
    OutDir.claim(out, "tables").write(lambda tmp: (tmp / "old.parquet").write_text("earlier run"))
    before = _files(out)

    def fill(tmp: Path):
        (tmp / "new.parquet").write_text("this run")
        (out / "notes.txt").write_text("someone else's")  # arrives after the claim's check

    with pytest.raises(SimInputError, match="notes.txt"):
        OutDir.claim(out, "tables").write(fill)
    assert (out / "notes.txt").read_text() == "someone else's"
    assert _files(out) == {**before, "notes.txt": b"someone else's"}  # the earlier run untouched
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no temporary or backup left


def test_foreign_file_inside_an_own_subdirectory_is_refused(tmp_path):
    """The earlier output wrote ``tables/a.parquet``; ``tables/notes.txt`` is someone else's."""
    out = tmp_path / "out"

    def fill(tmp: Path):
        (tmp / "tables").mkdir()
        (tmp / "tables" / "a.parquet").write_text("earlier run")

    OutDir.claim(out, "tables").write(fill)
    (out / "tables" / "notes.txt").write_text("mine")
    with pytest.raises(SimInputError, match="tables/notes.txt"):
        OutDir.claim(out, "tables")
    assert (out / "tables" / "notes.txt").read_text() == "mine"


def test_a_file_arriving_after_the_last_check_is_kept_aside(tmp_path, monkeypatch, capsys):
    """The narrowest race: the file lands between the swap's re-check and its rename. The
    earlier output is moved aside and only its listed files are deleted: the newcomer is kept
    (in the moved-aside directory, named in a warning), never deleted."""
    import sim.core.outdir as od

    out = tmp_path / "out"
    OutDir.claim(out, "tables").write(lambda tmp: (tmp / "old.parquet").write_text("earlier run"))
    real = od._foreign

    def check_then_race(d, kind, flag):
        real(d, kind, flag)
        if Path(d) == out:
            (out / "notes.txt").write_text("mine")

    claim = OutDir.claim(out, "tables")  # the claim's own check runs before the patch
    monkeypatch.setattr(od, "_foreign", check_then_race)
    claim.write(lambda tmp: (tmp / "new.parquet").write_text("this run"))
    kept = [p for p in tmp_path.rglob("notes.txt")]
    assert len(kept) == 1 and kept[0].read_text() == "mine" and kept[0].parent != out
    assert kept[0].parent.name in capsys.readouterr().err
    assert sorted(p.name for p in kept[0].parent.iterdir()) == ["notes.txt"]  # only the newcomer stays


def test_a_real_run_keeps_a_file_dropped_while_it_writes(tmp_path, monkeypatch):
    """``sim werewolf run --out`` over its own earlier output; the foreign file lands while the
    parquet tables are being written."""
    out = tmp_path / "run"
    args = ["werewolf", "run", "--games", "200", "--seed", "1", "--out", str(out)]
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0, r.output
    before = _files(out)
    real = output.write_parquet

    def racing_write(*a, **kw):
        if not (out / "notes.txt").exists():
            (out / "notes.txt").write_text("mine")
        return real(*a, **kw)

    monkeypatch.setattr(output, "write_parquet", racing_write)
    r = CliRunner().invoke(app, args)
    assert r.exit_code != 0 and "notes.txt" in r.output, r.output
    assert (out / "notes.txt").read_text() == "mine"
    assert _files(out) == {**before, "notes.txt": b"mine"}


def test_a_listed_symbolic_link_of_the_old_output_goes_with_it(tmp_path):
    """The earlier output held a link (listed: it is a file to the marker); replacing the output
    removes it with the rest, leaving nothing aside."""
    out = tmp_path / "out"

    def fill(tmp: Path):
        (tmp / "a.parquet").write_text("earlier run")
        (tmp / "latest.parquet").symlink_to("a.parquet")

    OutDir.claim(out, "tables").write(fill)
    OutDir.claim(out, "tables").write(lambda tmp: (tmp / "b.parquet").write_text("this run"))
    assert sorted(p.name for p in out.iterdir()) == ["_sim-balance.json", "b.parquet"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
