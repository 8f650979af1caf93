"""``sim report DATASET --out DIR``: a static HTML page with PNG figures."""
from __future__ import annotations

import html
import itertools
import os
from dataclasses import dataclass
from pathlib import Path


from sim.analysis import figures as F
from sim.analysis.dataset import Loaded, load, locate, loo_table
from sim.core.outdir import OutDir
from sim.core.output import replace_dir
from sim.errors import SimInputError

MAX_HEATMAPS = 6


@dataclass
class Figure:
    """One figure of a report: its file name and caption."""
    file: str
    caption: str


def metric_label(d: Loaded) -> str:
    """The rate as figures name it (the game's ``metric_label``), e.g. "village's win rate"."""
    from sim.core.game import games

    g = games().get(d.game)
    if d.metric == "equilibrium":
        return "equilibrium value"
    return g.label(d.tables) if g is not None and d.metric == g.metric else d.metric.replace("_", " ")


def strategies_line(d: Loaded) -> str:
    """Under which strategies the figures hold (every figure is a figure under some)."""
    from sim.core.game import games

    g = games().get(d.game)
    if g is None:
        return ""
    if not g.sides:
        return "strategies: each character's, as its scenario sets them"
    base = (d.manifest.get("config") or {}).get("base", {}) if d.kind == "sweep" else {}
    out = []
    for s in g.sides:
        if s in d.axes:
            out.append(f"{s}: swept")
        elif d.kind == "sweep":
            out.append(f"{s}={base.get(s, 'random')}")
        elif s in d.manifest:
            out.append(f"{s}={d.manifest[s]}")
    if d.kind == "ladder":
        return "strategies: the tiers of the ladder (rows and columns)"
    return ("strategies: " + ", ".join(out)) if out else ""


def heatmap_pairs(axes: list[str], des) -> list[tuple[str, str]]:
    """Pairs of axes a heatmap can show honestly: neither is confounded with a third axis."""
    out = []
    for a, b in itertools.combinations(axes, 2):
        if set(des.confounded[a]) <= {b} and set(des.confounded[b]) <= {a}:
            out.append((a, b))
    return out[:MAX_HEATMAPS]


def build_figures(d: Loaded, out: Path, target=None) -> list[Figure]:
    """Draw every figure the dataset supports into ``out``; ``target`` (sim.core.target.Target,
    the designer's band) is drawn where a rate is, and nothing is without one."""
    from sim.analysis.marginals import design

    figs: list[Figure] = []

    def add(name: str, caption: str | None) -> None:
        if caption:
            figs.append(Figure(name, caption))

    label = metric_label(d)
    axes = [a for a in d.axes if a in d.cells.columns and d.cells[a].n_unique() > 1]
    des = design(d.cells, axes)
    eq = d.metric == "equilibrium"  # a sweep of grown equilibria: per-cell values, never pooled
    for i, a in enumerate(axes):
        add(f"rate_{i}.png", F.rate_vs_param(d.cells, a, label, out / f"rate_{i}.png",
                                             target=(target.low, target.high) if target else None, blocks=d.blocks,
                                             confounded=des.confounded[a], equilibrium=eq))
    if eq:
        return figs
    for k, (a, b) in enumerate(heatmap_pairs(axes, des)):
        add(f"heatmap_{k}.png", F.heatmap(d.cells, a, b, label, out / f"heatmap_{k}.png",
                                          target=(target.low, target.high) if target else None))
    crossed = [a for a in axes if not des.confounded[a]]
    if crossed:
        add("tornado.png", F.tornado(d.cells, crossed, label, out / "tornado.png", blocks=d.blocks))
    if "matrix" in d.tables:
        add("matrix.png", F.matrix_heatmap(d.tables["matrix"], out / "matrix.png"))
    if "sensitivity" in d.tables:
        add("sensitivity.png", F.sensitivity_bars(d.tables["sensitivity"].drop("cell", strict=False), label,
                                                  out / "sensitivity.png"))
    if "ladder" in d.tables:
        add("ladder.png", F.ladder_heatmap(d.tables["ladder"], list(d.manifest.get("sides", [])), label,
                                           out / "ladder.png"))
    if "values" in d.tables:
        add("values.png", F.values_bars(d.tables["values"], out / "values.png"))
    if "tune" in d.tables:
        add("tune.png", F.tune_trace(d.tables["tune"], d.manifest, label, out / "tune.png"))
    loo = loo_table(d.tables)
    if loo is not None:
        add("loo.png", F.loo_bars(loo[1], out / "loo.png"))
    tables = dict(d.tables)
    if "games" in d.cells.columns:
        tables["_cell_games"] = d.cells.select("cell", "games")
        # these figures sum every cell: a caption says so when the cells differ in a swept value
        pooled = (f" — pooled over all {d.cells.height} cells, which differ in {', '.join(axes)}; each value's "
                  f"own figure needs a sweep of that value alone") if axes and d.cells.height > 1 else ""

        def add_pooled(name: str, caption: str | None) -> None:
            add(name, caption + pooled if caption else caption)

        add_pooled("causes.png", F.causes(d.game, tables, d.games, out / "causes.png"))
        add_pooled("length.png", F.length_hist(d.game, tables, d.cells, out / "length.png"))
        add_pooled("when.png", F.wins_by_length(d.game, tables, out / "when.png"))
        for name, caption in F.game_histograms(d.game, tables, out):
            add_pooled(name, caption)
    return figs


def _cells_table(d: Loaded, limit: int = 60, target=None) -> str:
    """The cells with their rates; with a target, the cells whose whole 95% CI lies in the
    band are highlighted (and the page says so); without one, none is. A ladder or a
    matrix has no cells of its own: one row pooling every pair would mean nothing."""
    if "rate" not in d.cells.columns or d.kind in ("ladder", "matrix"):
        return ""
    axes = [a for a in d.axes if a in d.cells.columns]
    cols = ["cell", *axes, "games", "rate", "rate_ci_low", "rate_ci_high"]
    df = d.cells
    for a in axes:
        df = F.as_label(df, a)
    rows = []
    for r in df.select(cols).head(limit).iter_rows(named=True):
        hit = target is not None and target.low <= r["rate_ci_low"] and r["rate_ci_high"] <= target.high
        cls = ' class="hit"' if hit else ""
        cells = [str(r["cell"]), *[html.escape(str(r[a])) for a in cols[1:-4]], f"{r['games']:,}",
                 f"{r['rate']:.4f}", f"{r['rate_ci_low']:.4f} – {r['rate_ci_high']:.4f}"]
        rows.append(f"<tr{cls}>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    head = "".join(f"<th>{html.escape(c)}</th>" for c in [*cols[:-2], "95% CI"])
    more = f"<p>… {d.cells.height - limit} more cells in the dataset.</p>" if d.cells.height > limit else ""
    said = (f"<p>Highlighted: the whole 95% CI lies in the target {html.escape(target.text)}.</p>"
            if target is not None else "")
    return (f"<h2>Cells</h2>{said}"
            f"<table><tr>{head}</tr>{''.join(rows)}</table>{more}")


def _tables_html(d: Loaded) -> str:
    out = []
    for name in ("matrix", "overall", "ladder", "sensitivity", "first_mover"):
        if name in d.tables:
            out.append(f"<h2>{name}</h2>" + d.tables[name].drop("cell", strict=False).head(60).to_pandas()
                       .to_html(index=False, float_format=lambda x: f"{x:.4f}"))
    if "ladder" in d.tables and d.kind == "ladder":
        out.append(_equilibrium_html(d))
    hidden = d.manifest.get("hidden_information")
    if hidden:  # sim ladder with oracle tiers and their honest twins
        import pandas as pd

        out.append("<h2>value of the hidden information</h2><p>Each oracle tier against its honest twin on "
                   "the same games: the oracle side's gain in the first side's rate (for the second side, how "
                   "much lower the rate is), with the paired 95% interval.</p>"
                   + pd.DataFrame(hidden).to_html(index=False, float_format=lambda x: f"{x:.4f}"))
    loo = loo_table(d.tables)
    if loo:
        out.append(f"<h2>leave one out ({loo[0]})</h2>" + loo[1].drop("cell", strict=False).to_pandas()
                   .to_html(index=False, float_format=lambda x: f"{x:.4f}", na_rep=""))
    return "".join(out)


def _equilibrium_html(d: Loaded) -> str:
    """The zero-sum equilibrium of the ladder's own matrix: its value and each side's mixture
    (the same solver as ``sim equilibrium``, here on the measured rates, not on fresh games)."""
    import numpy as np

    from sim.analysis.figures import ladder_order
    from sim.analysis.metagame import solve_zero_sum

    lad = d.tables["ladder"]
    if "value" in d.manifest and "mixture" in d.manifest:  # an equilibrium output: its own, on fresh games
        v, mix = d.manifest["value"], d.manifest["mixture"]
        said = "measured again on fresh games (sim equilibrium)"
    else:
        rows, cols = ladder_order(lad)
        a = np.full((len(rows), len(cols)), np.nan)
        for r in lad.iter_rows(named=True):
            a[rows.index(r["row"]), cols.index(r["col"])] = r["rate"]
        if np.isnan(a).any():
            return ""
        v, x, y = solve_zero_sum(a)
        sides = list(d.manifest.get("sides") or ["rows", "columns"])
        mix = {sides[0]: dict(zip(rows, x)), sides[-1]: dict(zip(cols, y))}
        said = ("on the measured rates above (in-sample: `sim equilibrium` solves it on one measurement and "
                "reports the value on fresh games)")
    parts = "; ".join(f"{html.escape(str(s))}: " + ", ".join(f"{html.escape(str(k))} {w:.2f}"
                                                             for k, w in m.items() if w > 1e-9)
                      for s, m in mix.items())
    return (f"<h2>equilibrium</h2><p>The meta-game's value is <b>{v:.4f}</b>, {said}; the mixtures: "
            f"{parts}.</p>")


CSS = """body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;color:#222}
table{border-collapse:collapse;font-size:13px;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}
tr.hit{background:#e8f4e8}figure{margin:2em 0}figcaption{font-size:13px;color:#555;max-width:800px}
img{max-width:100%;border:1px solid #eee}.oracle{background:#fde8e8;border:1px solid #c00;padding:6px}
.design{background:#fff6e0;border:1px solid #c90;padding:6px}"""


def oracle_note(d: Loaded) -> str:
    """Which oracle strategies (reading hidden information) the dataset's figures rest on, or ""."""
    found = {f"{k}={v}" for k, v in (d.manifest.get("oracles") or {}).items()}
    if "ladder" in d.tables:
        from sim.core.views import is_oracle

        found.update(t for t in {*d.tables["ladder"]["row"], *d.tables["ladder"]["col"]}
                     if is_oracle(t.split("@")[0]))
    if "oracles" in d.cells.columns:
        for o in d.cells["oracles"].drop_nulls().unique().to_list():
            found.update(x for x in o.split(",") if x)
    if not found:
        return ""
    return (f"ORACLE strategies: {', '.join(sorted(found))}. They read hidden information, so these "
            f"figures are not those of honest play.")


def _embedded(folder: Path | None, name: str) -> str:
    """A figure as a data: URI, so the page is one file that opens from anywhere."""
    import base64

    if folder is None or not (folder / name).is_file():
        return name
    return "data:image/png;base64," + base64.b64encode((folder / name).read_bytes()).decode("ascii")


def render(d: Loaded, figs: list[Figure], folder: Path | None = None, target=None) -> str:
    """The report's HTML page (figures embedded when ``folder`` holds them)."""
    from sim.analysis.marginals import design

    title = f"{d.game} — {d.name}" if d.name else d.game
    parts = [f"{d.cells.height} cell(s)"] if d.kind == "sweep" else []
    if d.games:
        parts.append(f"{d.games:,} games")
    parts.append(f"primary rate: <b>{html.escape(metric_label(d))}</b>")
    head = (f"<h1>{html.escape(title)}</h1><p>{html.escape(d.kind)} dataset <code>{html.escape(str(d.path))}</code>; "
            f"{'; '.join(parts)}; seed "
            f"{html.escape(str(d.manifest.get('seed', '')))}, version {html.escape(str(d.manifest.get('version', '')))}, "
            f"commit {html.escape(str(d.manifest.get('git_commit', ''))[:10])}"
            f"{' (uncommitted changes)' if d.manifest.get('git_dirty') else ''}"
            f"{', made ' + html.escape(str(d.manifest['created'])) if d.manifest.get('created') else ''}.</p>")
    who = strategies_line(d)
    if who:
        head += f"<p>Every figure holds under these {html.escape(who)}.</p>"
    if d.manifest.get("settings"):  # run, loo, values, ladder, …: every setting the figures depend on
        head += f"<p>Settings: {html.escape(str(d.manifest['settings']))}.</p>"
    note = oracle_note(d)
    if note:
        head += f'<p class="oracle"><b>{html.escape(note)}</b></p>'
    axes = [a for a in d.axes if a in d.cells.columns and d.cells[a].n_unique() > 1]
    dnote = design(d.cells, axes).note() if axes else ""
    if dnote:
        head += f'<p class="design"><b>Design:</b> {html.escape(dnote)}.</p>'
    body = "".join(f'<figure><img src="{_embedded(folder, f.file)}" alt="{html.escape(f.caption)}" '
                   f'data-file="{f.file}"><figcaption>{html.escape(f.caption)}</figcaption></figure>' for f in figs)
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{CSS}</style></head><body>{head}<h2>Figures</h2>{body}{_cells_table(d, target=target)}"
            f"{_tables_html(d)}"
            "</body></html>")


def check_report_out(dataset: str | Path, out: str | Path) -> None:
    """A report is never written over or inside the dataset it reads (and a path that is no
    dataset is said to be so first: that is the mistake)."""
    locate(dataset)
    src, dst = Path(os.path.abspath(dataset)), Path(os.path.abspath(out))
    if dst == src or src in dst.parents or dst in src.parents:
        raise SimInputError(f"--out {out}: overlaps the dataset {dataset}; write the report elsewhere")


def report(dataset: str | Path, out: "str | Path | OutDir", target=None) -> tuple[Path, list[Figure]]:
    """Write ``index.html`` and its figures into ``out`` (replaced as a whole, atomically)."""
    if not isinstance(out, OutDir):
        check_report_out(dataset, out)
    d = load(dataset)

    def fill(tmp: Path) -> list[Figure]:
        figs = build_figures(d, tmp, target)
        (tmp / "index.html").write_text(render(d, figs, tmp, target), encoding="utf-8")
        return figs

    figs = replace_dir(out, fill, kind="report")
    return (out.path if isinstance(out, OutDir) else Path(out)) / "index.html", figs


__all__ = ["report", "build_figures", "render"]
