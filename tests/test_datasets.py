"""Every output opens as a dataset in polars, pandas, pyarrow and DuckDB; each parquet file
carries the manifest; every column of every output is in docs/data.md."""
from __future__ import annotations

import datetime as dt
import json
import re
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from sim.core.outdir import MARKER
from typer.testing import CliRunner

from sim.cli import app
from sim.core.output import LEGACY_MANIFEST_FILE, MANIFEST_FILE, METADATA_KEY, read_manifest
from sim.sweep.dataset import nested_tables, read

duckdb = pytest.importorskip("duckdb")

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "sim" / "trpg" / "data"
runner = CliRunner()

# every command that writes an --out directory, tiny; label -> arguments (docs/data.md uses the labels)
RUNS = {
    "looper run": ["looper", "run", "--games", 200],
    "looper loo": ["looper", "loo", "--games", 60],
    "werewolf run": ["werewolf", "run", "--games", 200],
    "werewolf loo": ["werewolf", "loo", "--games", 60],
    "trpg run": ["trpg", "run", DATA / "scenarios" / "alley.toml", "--games", 100],
    "trpg loo": ["trpg", "loo", DATA / "scenarios" / "alley.toml", "--games", 60],
    "trpg matrix": ["trpg", "matrix", DATA / "builds.toml", "--games", 40],
    "balance": ["balance", ROOT / "examples" / "balance" / "werewolf_fenrir.toml", "--tolerance", 0.05],
    "ladder": ["ladder", "werewolf", "--tiers", "village=random,claims", "--tiers", "wolves=claims,oracle_attack",
               "--games", 60],
    "ladder competence": ["ladder", "race", "--tiers", "p1=bold", "--tiers", "p2=bold", "--games", 200,
                          "--competence"],
    "restrict": ["race", "loo", "--restrict", "--games", 200],
    "values": ["werewolf", "values", "--games", 60, "--only", "fenrir,fenrir.drag"],
    # the player tiers pinned: the issue-14 players (bayes, planner) cost minutes of compiling
    "equilibrium": ["equilibrium", "looper", "--tiers", "player=random,cautious,deducer,oracle_key", "--games", 40],
    "tune": ["tune", "race", "--side", "p1", "--budget", 3, "--games", 200],
}
ROWS = {"looper run": 1, "werewolf run": 1, "trpg run": 1, "trpg matrix": 1}  # one row, tables nested

# Sweeps as the README's designer session writes them: different games and parameters, one root.
SWEEPS = {
    "werewolf": ROOT / "examples" / "sweeps" / "werewolf_fenrir.toml",   # roles.fenrir.drag × count.villager
    "looper": """game = "looper"
name = "loops"
seed = 1
games = 60
[[axes]]
path = "rules.max_loops"
values = [1, 4]
[[axes]]
path = "player"
values = ["random", "cautious"]
""",
    "trpg": """game = "trpg"
name = "melee"
seed = 1
games = 60
[base]
scenario = "alley.toml"
[[axes]]
path = "characters.ren.skills.melee"
values = [10, 14]
""",
}


def invoke(*args):
    r = runner.invoke(app, [str(a) for a in args])
    assert r.exit_code == 0, r.output
    return r


def run_dir(outputs: Path, label: str) -> Path:
    return outputs / label.replace(" ", "_")


@pytest.fixture(scope="module")
def outputs(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("outputs")
    for label, args in RUNS.items():
        invoke(*args, "--out", run_dir(base, label))
    return base


@pytest.fixture(scope="module")
def sweeps(tmp_path_factory) -> tuple[Path, str]:
    """The dataset root with three sweeps, and what ``sim sweep`` printed for the last one."""
    root = tmp_path_factory.mktemp("sweeps") / "sweeps"
    specs = root.parent / "specs"
    specs.mkdir()
    printed = ""
    for game, spec in SWEEPS.items():
        if isinstance(spec, str):
            (specs / f"{game}.toml").write_text(spec)
            spec = specs / f"{game}.toml"
        printed = invoke("sweep", spec, "--games", 60, "--out", root).output
    return root, printed


def sweep_dirs(root: Path) -> list[Path]:
    return sorted(root.glob("game=*/sweep=*"))


def all_cells(root: Path) -> tuple[int, set[str]]:
    """(cells, parameter columns) that the manifests of every sweep under root promise."""
    mans = [read_manifest(sd) for sd in sweep_dirs(root)]
    return sum(len(m["cells"]) for m in mans), {a for m in mans for a in m["axes"]}


def unified_schema(path: Path) -> pa.Schema:
    """The documented pyarrow recipe: the union of every file's schema (docs/data.md)."""
    d = ds.dataset(path, partitioning="hive")
    return pa.unify_schemas([d.schema, *(f.physical_schema for f in d.get_fragments())], promote_options="permissive")


# ------------------------------------------------------------------------- layout
@pytest.mark.parametrize("label", RUNS)
def test_run_dir_holds_one_parquet_file_and_underscored_side_files(outputs, label):
    d = run_dir(outputs, label)
    names = sorted(p.name for p in d.iterdir())
    parquet = [n for n in names if n.endswith(".parquet")]
    assert len(parquet) == 1 and MANIFEST_FILE in names, names
    assert all(n.startswith("_") for n in names if not n.endswith(".parquet"))
    assert LEGACY_MANIFEST_FILE not in names


def test_sweep_side_files_start_with_underscore(sweeps):
    root, _ = sweeps
    for p in root.rglob("*"):
        if p.is_file() and not p.name.endswith(".parquet"):
            assert p.name == MANIFEST_FILE or p == root / MARKER, p


# ------------------------------------------------------------------------- readers: a run
@pytest.mark.parametrize("label", RUNS)
def test_run_dir_opens_in_polars_pandas_pyarrow_duckdb(outputs, label):
    d = run_dir(outputs, label)
    (f,) = d.glob("*.parquet")
    want = pl.read_parquet(f)
    assert want.height == ROWS.get(label, want.height) and want.height > 0
    frames = {
        "polars glob": pl.scan_parquet(d / "**" / "*.parquet", hive_partitioning=True).collect(),
        "polars dir": pl.scan_parquet(d, hidden_file_prefix="_").collect(),
        "pandas": pl.from_pandas(pd.read_parquet(d)),
        "pyarrow": pl.from_arrow(ds.dataset(d, partitioning="hive").to_table()),
        "duckdb": duckdb.sql(f"SELECT * FROM read_parquet('{d}/**/*.parquet', hive_partitioning=true)").pl(),
    }
    scalars = [c for c in want.columns if c not in nested_tables(want.schema)]
    for reader, got in frames.items():
        assert got.columns == want.columns, reader
        assert got.select(scalars).equals(want.select(scalars)), reader
    for t in nested_tables(want.schema):  # the nested tables come through whole
        n = want[t].list.len()[0]
        assert frames["duckdb"][t].list.len()[0] == n and len(frames["pandas"][t][0]) == n


# ------------------------------------------------------------------------- readers: a sweep root
def test_sweep_recipe_reads_every_cell_with_all_parameter_columns(sweeps):
    root, printed = sweeps
    n, params = all_cells(root)
    assert len(sweep_dirs(root)) == 3 and len(params) == 5
    # what `sim sweep` prints is what works on the whole root
    assert f"sim.sweep.dataset.read('{root}')" in printed.replace("\n", "")
    assert "union_by_name=true" in printed.replace("\n", "")
    cells = read(root).collect()
    assert cells.height == n and params <= set(cells.columns)
    for sd in sweep_dirs(root):
        m = read_manifest(sd)
        mine = cells.filter((pl.col("game") == m["game"]) & (pl.col("sweep") == m["sweep"])).sort("cell")
        assert mine.height == len(m["cells"])
        for a in m["axes"]:  # every cell keeps its parameters
            assert mine[a].to_list() == [c["params"][a] for c in m["cells"]]
    # the plain-polars form of the recipe (docs/data.md)
    lf = pl.concat([pl.scan_parquet(sd / "cell=*" / "*.parquet", hive_partitioning=True) for sd in sweep_dirs(root)],
                   how="diagonal_relaxed")
    df = lf.collect()
    assert df.height == n and params <= set(df.columns)
    # a nested table of all sweeps with the parameters in front
    deaths = read(root, "deaths").collect()
    assert {"rules.max_loops", "player", "character"} <= set(deaths.columns)


def test_sweep_root_opens_in_pandas_pyarrow_duckdb(sweeps):
    root, _ = sweeps
    n, params = all_cells(root)
    # opened plainly, every cell is a row (pyarrow and pandas take the first file's columns)
    assert pd.read_parquet(root).shape[0] == n
    assert ds.dataset(root, partitioning="hive").count_rows() == n
    # with the union of the schemas (docs/data.md), every parameter column too
    schema = unified_schema(root)
    for df in (pl.from_arrow(ds.dataset(root, partitioning="hive", schema=schema).to_table()),
               pl.from_pandas(pd.read_parquet(root, schema=schema)),
               duckdb.sql(f"SELECT * FROM read_parquet('{root}/**/*.parquet', hive_partitioning=true, "
                          "union_by_name=true)").pl()):
        assert df.height == n and params | {"game", "sweep", "cell", "rate"} <= set(df.columns)
        assert sorted(df.select("game", "sweep", pl.col("cell").cast(pl.Int64)).rows()) == \
            sorted(read(root).select("game", "sweep", "cell").collect().rows())
    # one sweep has one schema: DuckDB reads it without union_by_name
    sd = root / "game=werewolf" / "sweep=fenrir"
    one = duckdb.sql(f"SELECT * FROM read_parquet('{sd}/**/*.parquet', hive_partitioning=true)").pl()
    assert one.height == 12 and {"roles.fenrir.drag", "count.villager", "cell"} <= set(one.columns)


# ------------------------------------------------------------------------- the manifest
def parquet_files(outputs: Path, root: Path) -> list[tuple[Path, Path]]:
    """(file, the directory whose _manifest.json it must carry)."""
    runs = [(f, f.parent) for f in outputs.glob("*/*.parquet")]
    cells = [(f, f.parent.parent) for f in root.glob("game=*/sweep=*/cell=*/*.parquet")]
    return runs + cells


def test_manifest_is_in_every_parquet_files_metadata(outputs, sweeps):
    root, _ = sweeps
    files = parquet_files(outputs, root)
    assert len(files) == len(RUNS) + all_cells(root)[0]
    for f, d in files:
        meta = pq.read_schema(f).metadata
        assert meta is not None and METADATA_KEY.encode() in meta, f
        assert json.loads(meta[METADATA_KEY.encode()]) == json.loads((d / MANIFEST_FILE).read_text()), f


def test_a_resumed_sweep_keeps_its_manifest_in_every_file(sweeps, tmp_path):
    root, _ = sweeps
    sd = tmp_path / "game=werewolf" / "sweep=fenrir"
    shutil.copytree(root / "game=werewolf" / "sweep=fenrir", sd)
    before = (sd / MANIFEST_FILE).read_text()
    shutil.rmtree(sd / "cell=5")
    r = invoke("sweep", SWEEPS["werewolf"], "--games", 60, "--out", tmp_path, "--json")
    assert json.loads(r.stdout)["cells_run"] == 1
    assert (sd / MANIFEST_FILE).read_text() == before
    meta = pq.read_schema(sd / "cell=5" / "part-0.parquet").metadata[METADATA_KEY.encode()]
    assert json.loads(meta) == json.loads(before)


def test_manifest_fields(outputs, sweeps):
    root, _ = sweeps
    dirty = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT / "sim", capture_output=True, text=True)
    for d in [*(run_dir(outputs, lb) for lb in RUNS), *sweep_dirs(root)]:
        m = json.loads((d / MANIFEST_FILE).read_text())
        assert isinstance(m["command_line"], str) and m["command_line"]
        assert m["versions"] == {"python": ".".join(map(str, sys.version_info[:3])), "sim": m["version"],
                                 **{k: metadata.version(k) for k in ("numpy", "numba", "polars", "pyarrow")}}
        created = dt.datetime.fromisoformat(m["created"])
        assert created.utcoffset() == dt.timedelta(0) and abs(created.timestamp() - m["created_unix"]) < 1
        if dirty.returncode == 0:
            assert m["git_dirty"] is bool(dirty.stdout.strip())
        else:
            assert m["git_dirty"] is None


def test_manifest_records_the_command_line(tmp_path):
    out = tmp_path / "o"
    cmd = [sys.executable, "-m", "sim", "werewolf", "run", "--games", "50", "--seed", "2", "--out", str(out)]
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    m = json.loads((out / MANIFEST_FILE).read_text())
    assert m["command_line"] == " ".join([Path(sys.executable).name, *cmd[1:]])


def test_not_a_checkout_gives_null_dirty_flag(monkeypatch):
    from sim.core import output

    monkeypatch.setattr(output, "_git", lambda *a: None)
    m = output.manifest("looper", {}, 1)
    assert m["git_dirty"] is None and m["git_commit"] is None


# ------------------------------------------------------------------------- older outputs
def test_older_outputs_with_manifest_json_still_load(outputs, sweeps, tmp_path):
    from sim.analysis.dataset import load, run_tables

    src = run_dir(outputs, "looper run")
    old = tmp_path / "old-run"  # what 0.1 wrote: one flat file per table and manifest.json
    old.mkdir()
    for name, t in run_tables(src).items():
        t.write_parquet(old / f"{name}.parquet")
    shutil.copy(src / MANIFEST_FILE, old / LEGACY_MANIFEST_FILE)
    a, b = load(src), load(old)
    assert a.kind == b.kind == "run" and a.cells.equals(b.cells) and a.manifest == b.manifest
    assert sorted(a.tables) == sorted(b.tables) and all(a.tables[k].equals(b.tables[k]) for k in a.tables)

    root, _ = sweeps
    sd = tmp_path / "old" / "game=werewolf" / "sweep=fenrir"
    shutil.copytree(root / "game=werewolf" / "sweep=fenrir", sd)
    (sd / MANIFEST_FILE).rename(sd / LEGACY_MANIFEST_FILE)
    s = load(sd)
    assert s.kind == "sweep" and s.cells.height == 12 and s.axes == ["roles.fenrir.drag", "count.villager"]
    # rerunning the sweep there resumes it and replaces manifest.json with _manifest.json
    r = invoke("sweep", SWEEPS["werewolf"], "--games", 60, "--out", tmp_path / "old", "--json")
    assert json.loads(r.stdout)["cells_skipped"] == 12
    assert (sd / MANIFEST_FILE).is_file() and not (sd / LEGACY_MANIFEST_FILE).exists()


# ------------------------------------------------------------------------- docs/data.md
def documented() -> dict[tuple[str, str], set[str]]:
    """docs/data.md: ``### <label>: `<table>` `` sections with ``| `column` | …`` rows."""
    out: dict[tuple[str, str], set[str]] = {}
    key = None
    for line in (ROOT / "docs" / "data.md").read_text().splitlines():
        if m := re.match(r"^###\s+(.+?):\s+`([^`]+)`", line):
            key = (m.group(1).strip(), m.group(2))
            out.setdefault(key, set())
        elif line.startswith("#"):
            key = None
        elif key and (m := re.match(r"^\|\s*`([^`]+)`\s*\|", line)):
            out[key].add(m.group(1))
    return out


def undocumented(doc, frame: pl.DataFrame, where: list[str], tables: tuple[str, ...], skip=()) -> list[str]:
    """Columns of ``frame`` (nested tables field by field) missing from the sections
    ``<label>: `<table>` `` for the labels ``where`` and the tables ``tables``."""
    def known(names: set[str], c: str) -> bool:  # `<side>_win_rate` stands for every side's column
        return any(re.fullmatch(re.sub(r"<[^>]+>", "[a-z0-9_]+", re.escape(n).replace(r"\<", "<").replace(r"\>", ">")), c)
                   for n in names)

    missing = []
    have = set().union(*(doc.get((w, t), set()) for w in where for t in tables))
    table = tables[0]
    nested = nested_tables(frame.schema)
    for c in frame.columns:
        if c in skip:
            continue
        if not known(have, c):
            missing.append(f"{'/'.join(where)}: `{table}`.{c}")
        if c in nested:
            sub = set().union(*(doc.get((w, c), set()) for w in where))
            missing += [f"{'/'.join(where)}: `{c}`.{f.name}" for f in frame.schema[c].inner.fields if not known(sub, f.name)]
    return missing


def test_every_column_of_every_output_is_documented(outputs, sweeps):
    doc = documented()
    missing = []
    for label in RUNS:
        (f,) = run_dir(outputs, label).glob("*.parquet")
        params = read_manifest(f.parent).get("result", {}) if label == "balance" else {}  # the searched paths
        if label == "tune":
            params = read_manifest(f.parent)["params"]  # one column per knob, named by the knob
        missing += undocumented(doc, pl.read_parquet(f), [label], (f.stem,), skip=params)
    root, _ = sweeps
    for sd in sweep_dirs(root):
        m = read_manifest(sd)
        cells = pl.read_parquet(sd / "cell=*" / "*.parquet", hive_partitioning=True)
        missing += undocumented(doc, cells, ["sweep cell", f"{m['game']} run"], ("part-0", "summary"),
                                skip=m["axes"])  # parameter columns are named by the spec's axes
    keys = set()
    for d in [*(run_dir(outputs, lb) for lb in RUNS), *sweep_dirs(root)]:
        keys |= set(read_manifest(d))
    sens = ROOT / "examples" / "sensitivity" / "race_sens.toml"
    invoke("sensitivity", sens, "--games", 30, "--out", root.parent / "sens")
    sd = root.parent / "sens" / "game=race" / "sensitivity=race-sens"
    missing += undocumented(doc, pl.read_parquet(sd / "sensitivity.parquet"), ["sensitivity"], ("sensitivity",))
    keys |= set(read_manifest(sd))
    missing += [f"manifest: `{MANIFEST_FILE}`.{k}" for k in sorted(keys - doc.get(("manifest", MANIFEST_FILE), set()))]
    assert not missing, "document these in docs/data.md:\n" + "\n".join(missing)
