"""The project stands alone: its own rules pages, no path outside the repository, and a
wheel that works from any directory (shipped scenarios, builds and example specs by name,
rules pages inside for the manifest's rules-page hash)."""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.core.output import rules_page_hash
from sim.errors import SimInputError

ROOT = Path(__file__).resolve().parents[1]
GAMES = {"looper": 14, "werewolf": 7, "trpg": 20}  # R-1 … R-n on each rules page
RULINGS = {"P": "looper", "Q": "werewolf", "T": "trpg"}  # project rulings: docs/<game>.md
ID = re.compile(r"\b([RPQT])-([0-9]+)\b")
runner = CliRunner()


def _git(*args) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=60)


def _in_git_checkout() -> bool:
    try:
        return _git("rev-parse", "--is-inside-work-tree").stdout.strip() == "true"
    except (OSError, subprocess.SubprocessError):
        return False


needs_git = pytest.mark.skipif(not _in_git_checkout(), reason="not a git checkout")


# -- (a) nothing names a path outside the repository -------------------------------------

@needs_git
def test_no_tracked_file_names_a_path_outside_the_repo():
    # The pattern is assembled so that this file does not match it itself.
    outside = "|".join((r"\.\./" + "shared", "shared" + "/rules", "shared" + "/seeds"))
    r = _git("grep", "-n", "-E", outside)
    assert r.returncode == 1, f"paths outside the repository:\n{r.stdout}{r.stderr}"


# -- (b) every rule id the code cites is defined in docs/ --------------------------------

def _defined_ids(page: Path) -> set[str]:
    """Ids defined on a page: written in bold, ``**R-3**`` or ``**P-2 Masuyo's victims**``."""
    return {f"{a}-{n}" for a, n in re.findall(r"\*\*([RPQT])-([0-9]+)\b", page.read_text(encoding="utf-8"))}


def _cited_ids() -> set[str]:
    cited = set()
    for top in ("sim", "strategies", "tests"):
        for p in (ROOT / top).rglob("*"):
            if p.is_file() and p.suffix in (".py", ".toml", ".md") and "__pycache__" not in p.parts:
                cited |= {f"{a}-{n}" for a, n in ID.findall(p.read_text(encoding="utf-8"))}
    return cited


def test_every_cited_rule_id_is_defined_in_docs():
    defined = set()
    for page in (ROOT / "docs").rglob("*.md"):
        defined |= _defined_ids(page)
    cited = _cited_ids()
    assert cited, "no rule ids found: the scan is broken"
    assert not cited - defined, f"cited in sim/, strategies/ or tests/ but defined nowhere in docs/: {sorted(cited - defined)}"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_rules_page_defines_its_rules_and_links_the_rulings(game):
    page = ROOT / "docs" / "rules" / f"{game}.md"
    text = page.read_text(encoding="utf-8")
    want = {f"R-{k}" for k in range(1, GAMES[game] + 1)}
    assert want <= _defined_ids(page), sorted(want - _defined_ids(page))
    # The project's rulings live in docs/<game>.md; the rules page links there, and every
    # ruling of that game cited anywhere is defined on that page.
    assert f"](../{game}.md" in text
    letter = next(k for k, v in RULINGS.items() if v == game)
    cited = {i for i in _cited_ids() if i.startswith(letter + "-")}
    assert cited <= _defined_ids(ROOT / "docs" / f"{game}.md")
    for rel in re.findall(r"\]\(([^)#]+)", text):  # relative links stay inside the repository
        if "://" not in rel:
            target = (page.parent / rel).resolve()
            assert target.exists() and ROOT in target.parents, rel


@pytest.mark.parametrize("game", sorted(GAMES))
def test_rules_page_hash_is_the_projects_page(game):
    page = ROOT / "docs" / "rules" / f"{game}.md"
    assert rules_page_hash(game) == hashlib.sha256(page.read_bytes()).hexdigest()
    assert (ROOT / "sim" / "rules" / f"{game}.md").read_bytes() == page.read_bytes()  # what the wheel ships


# -- (c) shipped scenarios and builds by name, from any directory ------------------------

def test_scenario_by_name_from_another_directory(tmp_path, monkeypatch):
    from sim.trpg.matrix import builds_path
    from sim.trpg.sheets import resolve_setup, scenario_path, shipped_scenarios

    monkeypatch.chdir(tmp_path)
    shipped = ROOT / "sim" / "trpg" / "data" / "scenarios" / "alley.toml"
    assert scenario_path("alley").samefile(shipped)
    assert scenario_path("alley.toml").samefile(shipped)
    assert resolve_setup("alley").name == "alley"
    assert builds_path("builds").samefile(ROOT / "sim" / "trpg" / "data" / "builds.toml")
    assert "alley" in shipped_scenarios() and shipped_scenarios()["alley"]
    # An existing file wins over a shipped name.
    (tmp_path / "alley.toml").write_text(shipped.read_text(encoding="utf-8").replace('name = "alley"', 'name = "mine"'))
    assert resolve_setup("alley.toml").name == "mine"
    assert resolve_setup("alley").name == "alley"  # a bare name is not a file here
    with pytest.raises(SimInputError, match="shipped scenarios: alley, .*squad"):
        scenario_path("nowhere")


def test_example_specs_by_name_from_another_directory(tmp_path, monkeypatch):
    from sim.analysis.balance import load_balance
    from sim.sweep.spec import build_cells, load_spec

    monkeypatch.chdir(tmp_path)
    sp = load_spec("trpg_alley")
    assert sp.name == "alley-melee" and len(build_cells(sp)) == 36  # its scenario = "alley.toml" is shipped too
    assert load_spec("werewolf_fenrir.toml").game == "werewolf"
    assert load_balance("trpg_shade_hp").game == "trpg"
    with pytest.raises(SimInputError, match="trpg_alley"):
        load_spec("nowhere")
    r = runner.invoke(app, ["sweep", "looper_moves", "--dry-run"])
    assert r.exit_code == 0 and "6 cells" in r.output, r.output


def test_cli_scenarios_and_run_by_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["trpg", "scenarios"])
    assert r.exit_code == 0, r.output
    assert "alley" in r.output and "squad" in r.output and "back alley" in r.output
    r = runner.invoke(app, ["trpg", "scenarios", "--json"])
    assert {"name": "alley", "description": "Two investigators against a kaii and its host in a back alley."} in json.loads(r.stdout)
    r = runner.invoke(app, ["trpg", "run", "alley", "--games", "500", "--seed", "1", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["games"] == 500
    r = runner.invoke(app, ["trpg", "matrix", "builds", "--games", "50", "--json"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["trpg", "run", "nowhere", "--games", "10"])
    assert r.exit_code == 2
    assert "error:" in r.output and "alley" in r.output


# -- (d) the wheel carries the data, the scenarios and the rules pages ------------------

def _tracked_copy(dest: Path) -> Path:
    """The tracked files of the checkout (symlinks kept), so the build sees no stale build/."""
    if _in_git_checkout():
        files = _git("ls-files", "-z").stdout.split("\0")
        for rel in filter(None, files):
            src, dst = ROOT / rel, dest / rel
            if not os.path.lexists(src):
                continue  # deleted in the work tree
            dst.parent.mkdir(parents=True, exist_ok=True)
            if src.is_symlink():
                os.symlink(os.readlink(src), dst)
            elif src.is_file():
                shutil.copy2(src, dst)
    else:
        shutil.copytree(ROOT, dest, symlinks=True, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns(".venv", "build", "dist", "*.egg-info", "__pycache__"))
    return dest


def _build_wheel(src: Path, out: Path) -> Path:
    base = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(src)]
    # Offline first (the venv's setuptools); setuptools < 70.1 needs the `wheel` package for
    # bdist_wheel, so without it fall back to pip's isolated build environment.
    for cmd in (base[:4] + ["--no-build-isolation"] + base[4:], base):
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        wheels = sorted(out.glob("*.whl"))
        if r.returncode == 0 and wheels:
            return wheels[0]
    pytest.skip(f"cannot build a wheel here: {r.stderr.strip().splitlines()[-1:]}")


@pytest.mark.slow
def test_wheel_contains_data_scenarios_and_rules(tmp_path):
    src = _tracked_copy(tmp_path / "src")
    whl = _build_wheel(src, tmp_path / "dist")
    names = set(zipfile.ZipFile(whl).namelist())
    want = {f"sim/{p.relative_to(ROOT / 'sim').as_posix()}"
            for p in (ROOT / "sim").glob("*/data/**/*.toml")}
    assert "sim/trpg/data/scenarios/alley.toml" in want and "sim/trpg/data/builds.toml" in want
    want |= {f"sim/rules/{g}.md" for g in GAMES}
    want |= {f"sim/examples/{p.relative_to(ROOT / 'examples').as_posix()}" for p in (ROOT / "examples").glob("*/*.toml")}
    assert "sim/examples/sweeps/trpg_alley.toml" in want
    assert want <= names, sorted(want - names)
    with zipfile.ZipFile(whl) as z:
        for g in GAMES:  # the pages themselves, not a symlink
            assert z.read(f"sim/rules/{g}.md") == (ROOT / "docs" / "rules" / f"{g}.md").read_bytes()
        eps = z.read(next(n for n in names if n.endswith("entry_points.txt"))).decode()
    assert "sim = sim.cli:main" in eps
