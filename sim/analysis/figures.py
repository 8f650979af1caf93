"""Matplotlib figures for reports. Each function draws one PNG and returns its caption.

Rates pooled over cells are successes / games summed over the cells, with the Wilson
95% interval of the pooled counts.
"""
from __future__ import annotations

from pathlib import Path

import matplotlib
import matplotlib.patches
import matplotlib.text
import matplotlib.ticker

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

from sim.analysis.dataset import with_rates  # noqa: E402
from sim.analysis.marginals import as_label  # noqa: E402,F401 - also figures.as_label for callers

DPI = 110


def marginal(cells: pl.DataFrame, axis: str) -> pl.DataFrame:
    """Pool the cells per value of ``axis`` (games and successes added) with the rate and its CI."""
    m = (as_label(cells, axis).group_by(axis).agg(pl.col("games").sum(), pl.col("successes").sum())
         .sort(axis))
    return with_rates(m, "lo", "hi")


def _numeric(s: pl.Series) -> bool:
    return s.dtype.is_numeric() and s.dtype != pl.Boolean


def outside_texts(fig) -> list[str]:
    """The drawn texts (titles, labels, tick labels, legends, annotations) that stick out
    of the figure, by their bounding boxes in the rendered figure."""
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    W, H = fig.bbox.width, fig.bbox.height
    texts = [t for t in fig.texts]
    for ax in fig.axes:
        texts += [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label, *ax.texts]
        for axis in (ax.xaxis, ax.yaxis):
            lo, hi = sorted(axis.get_view_interval())
            for tick in axis.get_major_ticks():  # only the ticks drawn: inside the view
                if lo - 1e-9 <= tick.get_loc() <= hi + 1e-9:
                    texts += [tick.label1, tick.label2]
        leg = ax.get_legend()
        if leg is not None:
            texts += list(leg.get_texts())
    bad = []
    for t in texts:
        if not t.get_visible() or not t.get_text().strip():
            continue
        bb = t.get_window_extent(r)
        if bb.x0 < -0.5 or bb.y0 < -0.5 or bb.x1 > W + 0.5 or bb.y1 > H + 0.5:
            bad.append(t.get_text())
    return bad


def save(fig, path: Path) -> None:
    """Save a figure as PNG and close it. The layout is made tight, and while a text still
    sticks out (a long title, tick label or legend) the figure grows until none does."""
    import textwrap

    fig.tight_layout()
    for _ in range(8):
        bad = outside_texts(fig)
        if not bad:
            break
        titles = [t for ax in fig.axes for t in (ax.title,) if t.get_text() in bad]
        for t in titles:  # a title is re-wrapped narrower first: growing would not help it
            flat = t.get_text().replace("\n", " ")
            width = max(12, int(max(len(x) for x in t.get_text().split("\n")) * 0.75))
            t.set_text("\n".join(textwrap.wrap(flat, width)))
        w, h = fig.get_size_inches()
        fig.set_size_inches(w * 1.15, h * 1.1)
        fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


def wrap(title: str, width: int = 60) -> str:
    """A long title over several lines (a figure's title must never be clipped)."""
    import textwrap

    return "\n".join(textwrap.wrap(title, width)) if len(title) > width else title


def readable(path: str) -> str:
    """An axis name a designer reads: ``characters.ren.skills.melee`` → ``ren melee``,
    ``roles.fenrir.drag`` → ``fenrir drag``, ``rules.target`` → ``target``,
    ``count.villager`` → ``villager count``, ``weapons.pistol.dice`` → ``pistol dice``."""
    parts = path.split(".")
    if parts[0] == "count" and len(parts) == 2:
        return f"{parts[1]} count"
    drop = {"characters", "roles", "rules", "weapons", "items", "skills", "strategy", "variants", "settings",
            "locations", "effects", "sides"}
    keep = [p.replace("_", " ") for p in parts if p not in drop]
    return " ".join(keep) or path


def rate_vs_param(cells: pl.DataFrame, axis: str, metric: str, path: Path, target: float | None = None, *,
                  blocks: pl.DataFrame | None = None, confounded: list[str] | None = None,
                  equilibrium: bool = False) -> str:
    """The primary rate against one swept parameter; the caption. A crossed axis: the mean
    of the cells' rates per value with an interval valid for paired cells (see
    :mod:`sim.analysis.marginals`). A confounded axis: every cell as measured, no line."""
    from sim.analysis.marginals import marginal as pooled

    name = readable(axis)
    fig, ax = plt.subplots(figsize=(6.4, 4))
    if confounded or equilibrium:
        c = as_label(cells, axis)
        xv = c[axis]
        rate = c["rate"].to_numpy()
        lo, hi = c["rate_ci_low"].to_numpy(), c["rate_ci_high"].to_numpy()
        if _numeric(xv):
            pos = xv.to_numpy()
        else:
            cats = sorted(set(xv.to_list()))
            pos = np.array([cats.index(v) for v in xv.to_list()], float)
            ax.set_xticks(range(len(cats)), [str(v) for v in cats])
        ax.errorbar(pos, rate, yerr=[rate - lo, hi - rate], fmt="o", capsize=3, alpha=0.8,
                    label="one cell each (95% CI)")
        if equilibrium:  # each cell's own grown equilibrium: values, not counts, so nothing is pooled
            ax.set_title(wrap(f"equilibrium value per cell against {name}"), fontsize=10)
            caption = (f"the grown equilibrium's value of every cell against {name}, each with its 95% CI on fresh "
                       f"games (both sides adapt to each setting; values are not pooled over cells)")
        else:
            others = ", ".join(readable(o) for o in confounded)
            ax.set_title(wrap(f"{metric} per cell against {name}: confounded with {others}, no line drawn"),
                         fontsize=10)
            caption = (f"{metric} of every cell against {name}, each with its 95% CI; the design does not cross "
                       f"{name} with {others}, so its effect cannot be told from theirs and no pooled line is drawn")
    else:
        m = pooled(cells, blocks, axis)
        x = m[axis]
        rate, lo, hi = m["rate"].to_numpy(), m["lo"].to_numpy(), m["hi"].to_numpy()
        if _numeric(x) and m.height > 1:
            xv = x.to_numpy()
            ax.fill_between(xv, lo, hi, alpha=0.25, label="95% CI")
            ax.plot(xv, rate, marker="o", label=metric)
            if x.dtype.is_integer():
                ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
        else:
            pos = np.arange(m.height)
            ax.errorbar(pos, rate, yerr=[rate - lo, hi - rate], fmt="o", capsize=4, label=f"{metric} (95% CI)")
            ax.set_xticks(pos, [str(v) for v in x], rotation=30 if m.height > 4 else 0,
                          ha="right" if m.height > 4 else "center")
        others = int(m["cells"].max()) if m.height else 1
        ax.set_title(wrap(f"{metric} against {name}" + (" (mean over the other axes)" if others > 1 else "")),
                     fontsize=10)
        caption = f"{metric} against {name}, with its 95% CI" + (
            f"; each point is the mean of {others} cells over the other axes, its interval from the spread of "
            f"their block means (valid for paired cells)" if others > 1 else "")
    if target is not None:  # the designer's band (sim report --target); none is drawn without one
        lo_t, hi_t = (target, target) if isinstance(target, (int, float)) else target
        if hi_t > lo_t:
            ax.axhspan(lo_t, hi_t, color="grey", alpha=0.15, label=f"target {100 * lo_t:g}–{100 * hi_t:g}%")
        else:
            ax.axhline(lo_t, color="grey", ls="--", lw=1, label=f"target {lo_t:g}")
    ax.set_ylim(*_rate_limits(ax.get_ylim()))
    ax.set_xlabel(name)
    ax.set_ylabel(metric)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    save(fig, path)
    return caption


def _rate_limits(lim) -> tuple[float, float]:
    lo, hi = lim
    return max(0.0, lo), min(1.0, hi)


def heatmap(cells: pl.DataFrame, a: str, b: str, metric: str, path: Path, target=None) -> str:
    """The primary rate for each pair of values of two axes (the mean of the cells' rates
    over the other axes); pairs the design never played are hatched "n/a"; the caption."""
    c = as_label(as_label(cells, a), b)
    g = c.group_by(a, b).agg((pl.col("successes") / pl.col("games")).mean().alias("rate"), pl.len().alias("n"))
    xs, ys = sorted(g[a].unique().to_list()), sorted(g[b].unique().to_list())
    grid = np.full((len(ys), len(xs)), np.nan)
    for r in g.iter_rows(named=True):
        grid[ys.index(r[b]), xs.index(r[a])] = r["rate"]
    _heat(grid, [str(x) for x in xs], [str(y) for y in ys], readable(a), readable(b), metric,
          f"{metric} by {readable(a)} and {readable(b)}", path, target=target)
    missing = int(np.isnan(grid).sum())
    pooled = int(g["n"].max()) if g.height else 1  # cells behind one square: they differ in the other axes
    return (f"{metric} for each pair of {readable(a)} and {readable(b)}"
            + (f" (each square the mean of up to {pooled} cells' rates over the other swept axes)" if pooled > 1 else
               " (one cell each)")
            + (f"; {missing} pair(s) the design never played are hatched n/a" if missing else ""))


def _heat(grid, xl, yl, xlab, ylab, metric, title, path, origin="lower", target=None) -> None:
    """A rate grid. The colour scale is fitted to the data (a sequential map: cells 0.18 and
    0.34 apart never share a colour); with a target band (low, high) it diverges around the
    band's middle instead, so the colour says which side of the target a cell lies."""
    fig, ax = plt.subplots(figsize=(min(1.0 + 0.8 * len(xl), 12) + 1.5, min(1.0 + 0.55 * len(yl), 10) + 1))
    vals = grid[~np.isnan(grid)]
    lo, hi = (float(vals.min()), float(vals.max())) if vals.size else (0.0, 1.0)
    if hi - lo < 1e-3:
        lo, hi = lo - 0.005, hi + 0.005
    if target is not None:
        mid = (target[0] + target[1]) / 2
        span = max(abs(hi - mid), abs(mid - lo), (target[1] - target[0]) / 2) or 0.01
        norm = matplotlib.colors.TwoSlopeNorm(mid, mid - span, mid + span)
        im = ax.imshow(grid, cmap="RdBu", norm=norm, aspect="auto", origin=origin)
    else:
        im = ax.imshow(grid, cmap="viridis", vmin=lo, vmax=hi, aspect="auto", origin=origin)
    ax.set_xticks(range(len(xl)), xl, rotation=30 if len(xl) > 5 else 0, ha="right" if len(xl) > 5 else "center")
    ax.set_yticks(range(len(yl)), yl)
    for i in range(grid.shape[0]):
        for j in range(grid.shape[1]):
            if np.isnan(grid[i, j]):  # hatched grey: no colour of the scale
                ax.add_patch(matplotlib.patches.Rectangle((j - 0.5, i - 0.5), 1, 1, facecolor="#dddddd",
                                                          edgecolor="#888888", hatch="///", lw=0))
                ax.text(j, i, "n/a", ha="center", va="center", fontsize=7, color="#444444")
            elif grid.size <= 400:
                r, g, b, _ = im.cmap(im.norm(grid[i, j]))
                ax.text(j, i, f"{grid[i, j]:.2f}", ha="center", va="center", fontsize=7,
                        color="white" if 0.299 * r + 0.587 * g + 0.114 * b < 0.5 else "black")
    ax.set_xlabel(xlab)
    ax.set_ylabel(ylab)
    ax.set_title(wrap(title), fontsize=10)
    fig.colorbar(im, ax=ax, label=metric)
    save(fig, path)


def matrix_heatmap(matrix: pl.DataFrame, path: Path) -> str:
    """The TRPG build matrix as a heatmap (row build's win rate against the column build); the caption."""
    names = list(dict.fromkeys(matrix["build"].to_list() + matrix["opponent"].to_list()))
    grid = np.full((len(names), len(names)), np.nan)
    for r in matrix.iter_rows(named=True):
        grid[names.index(r["build"]), names.index(r["opponent"])] = r["win_rate"]
    _heat(grid, names, names, "opponent", "build", "win rate", "matchup matrix: the row build's win rate", path,
          origin="upper")
    return "win rate of each build (row) against each opponent (column), both first moves pooled"


def ladder_order(ladder: pl.DataFrame) -> tuple[list[str], list[str]]:
    """The tiers in strength order: rows by their mean rate, highest first (the first side
    maximises it), columns by theirs, lowest first (the second side minimises it)."""
    r = ladder.group_by("row").agg(pl.col("rate").mean()).sort(["rate", "row"], descending=[True, False])
    c = ladder.group_by("col").agg(pl.col("rate").mean()).sort(["rate", "col"])
    return r["row"].to_list(), c["col"].to_list()


def ladder_heatmap(ladder: pl.DataFrame, sides: list[str], metric: str, path: Path) -> str:
    """The skill ladder: the first side's rate for each pair of tiers, strongest tiers first,
    oracle tiers marked on the axes; the caption."""
    from sim.core.views import is_oracle

    rows, cols = ladder_order(ladder)
    grid = np.full((len(rows), len(cols)), np.nan)
    for r in ladder.iter_rows(named=True):
        grid[rows.index(r["row"]), cols.index(r["col"])] = r["rate"]

    def mark(t: str) -> str:
        return f"{t} (ORACLE)" if is_oracle(t.split("@")[0]) else t

    a, b = (sides + ["row side", "column side"])[:2] if len(sides) < 2 else sides[:2]
    _heat(grid, [mark(c) for c in cols], [mark(r) for r in rows], f"{b} tier", f"{a} tier", metric,
          f"skill ladder: {metric} by tier", path, origin="upper")
    return (f"{metric} for each {a} tier (row) against each {b} tier (column), all cells on the same random "
            f"streams; the strongest tiers first (rows by their mean rate, highest first; columns lowest first); "
            f"(ORACLE) marks a tier that reads hidden information; the ladder table below gives each cell's 95% CI")


def sensitivity_bars(t: pl.DataFrame, metric: str, path: Path) -> str:
    """Sobol' first/total-order indices and Morris μ* as bars with their bootstrap 95% CIs; the caption."""
    panels = [(c, f"{c}_conf", lab) for c, lab in (("ST", "Sobol total order ST"), ("S1", "Sobol first order S1"),
                                                   ("mu_star", f"Morris μ* (change of {metric})")) if c in t.columns]
    names = t["param"].to_list()
    fig, axes = plt.subplots(1, len(panels), figsize=(3.2 * len(panels) + 1.6, 1.2 + 0.45 * len(names)),
                             sharey=True, squeeze=False)
    for ax, (col, conf, lab) in zip(axes[0], panels):
        v = t[col].to_numpy().astype(float)
        e = t[conf].to_numpy().astype(float)
        ax.barh(range(len(names)), v, xerr=e, color="tab:blue", alpha=0.75, capsize=3)
        ax.set_title(lab, fontsize=9)
        lo = min(0.0, float(np.nanmin(v - e)))
        hi = max(float(np.nanmax(v + e)), 1e-3)
        if col != "mu_star":
            hi = max(hi, 0.1)
        ax.set_xlim(lo - 0.05 * (hi - lo), hi + 0.05 * (hi - lo))
        ax.axvline(0, color="grey", lw=0.8)
    axes[0][0].set_yticks(range(len(names)), names)
    axes[0][0].invert_yaxis()
    fig.suptitle(f"global sensitivity of {metric}", fontsize=10)
    save(fig, path)
    return (f"global sensitivity of {metric} to each parameter: Sobol' total-order (ST) and first-order (S1) "
            f"shares of its variance and Morris' mean absolute elementary effect μ*, each with its bootstrap "
            f"95% CI (SALib)")


def tornado(cells: pl.DataFrame, axes: list[str], metric: str, path: Path, *,
            blocks: pl.DataFrame | None = None) -> str:
    """Each (crossed) parameter's effect as a bar from its lowest to its highest pooled
    rate; the caption. A parameter whose values all give the same rate is "no effect"."""
    from sim.analysis.marginals import marginal as pooled

    overall = float((cells["successes"] / cells["games"]).mean())
    rows = []
    for a in axes:
        m = pooled(cells, blocks, a)
        lo_i, hi_i = int(m["rate"].arg_min()), int(m["rate"].arg_max())
        rows.append((readable(a), float(m["rate"].min()), float(m["rate"].max()), str(m[a][lo_i]), str(m[a][hi_i])))
    rows.sort(key=lambda r: r[2] - r[1])
    fig, ax = plt.subplots(figsize=(6.4, 1.4 + 0.5 * len(rows)))
    for i, (a, lo, hi, at_lo, at_hi) in enumerate(rows):
        if hi - lo < 1e-12:
            ax.plot([lo], [i], marker="|", color="tab:blue", ms=12)
            ax.text(hi, i, "  no effect", ha="left", va="center", fontsize=8)
            continue
        ax.barh(i, hi - lo, left=lo, color="tab:blue", alpha=0.7)
        ax.text(lo, i, f"{at_lo} ", ha="right", va="center", fontsize=8)
        ax.text(hi, i, f" {at_hi}", ha="left", va="center", fontsize=8)
    ax.axvline(overall, color="grey", ls="--", lw=1)
    ax.set_yticks(range(len(rows)), [r[0] for r in rows])
    ax.set_xlabel(metric)
    span = max(max(r[2] for r in rows) - min(r[1] for r in rows), 0.02)
    ax.set_xlim(max(0.0, min(r[1] for r in rows) - 0.3 * span), min(1.0, max(r[2] for r in rows) + 0.3 * span))
    ax.set_title(wrap(f"effect of each parameter on {metric} (range of its pooled rates)"), fontsize=10)
    save(fig, path)
    return (f"each crossed parameter's effect: the bar spans its lowest and highest pooled {metric} (labels: the "
            f"values giving them); the dashed line is the mean rate {overall:.3f}")


def stacked(labels, parts: dict[str, np.ndarray], xlabel: str, title: str, path: Path) -> None:
    """A horizontal stacked bar chart (one bar per label, one segment per part)."""
    fig, ax = plt.subplots(figsize=(8.5, 1.2 + 0.32 * len(labels)))
    left = np.zeros(len(labels))
    for name, vals in parts.items():
        ax.barh(range(len(labels)), vals, left=left, label=name)
        left += vals
    # a zero-width segment's base is a sticky edge, so autoscaling would end the axis
    # exactly at the longest bar, which then looks cut off: leave room past it
    top = float(left.max()) if len(left) else 0.0
    ax.set_xlim(0, top * 1.05 if top > 0 else 1.0)
    ax.set_yticks(range(len(labels)), labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))  # outside: never hides a bar
    ax.grid(axis="x", alpha=0.3)
    save(fig, path)


def causes(game: str, tables: dict, total_games: int, path: Path) -> str | None:
    """How participants leave the game, drawn by the game (:meth:`Game.causes_figure`)."""
    from sim.core.game import get

    return get(game).causes_figure(tables, total_games, path)


def length_hist(game: str, tables: dict, cells: pl.DataFrame, path: Path) -> str | None:
    """The distribution of game length over all cells (:meth:`Game.lengths`)."""
    from sim.core.game import get

    got = get(game).lengths(tables, cells)
    if got is None:
        return None
    x, y, lab = got
    y = np.asarray(y, dtype=float)
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    ax.bar(x, y / y.sum(), width=0.85)
    ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    ax.set_xlabel(lab)
    ax.set_ylabel("share of games")
    mean = float((x * y).sum() / y.sum())
    ax.set_title(f"game length (mean {mean:.2f} {lab.split()[0]})", fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    save(fig, path)
    return f"distribution of game length in {lab} over all cells"


def wins_by_length(game: str, tables: dict, path: Path) -> str | None:
    """Who wins when: each side's wins by game length, as shares of all games (stacked)."""
    from sim.core.game import get

    got = get(game).wins_by_length(tables)
    if got is None:
        return None
    x, sides, lab = got
    total = float(sum(np.asarray(v, float).sum() for v in sides.values())) or 1.0
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    bottom = np.zeros(len(x))
    for side, v in sides.items():
        v = np.asarray(v, float) / total
        if v.sum() == 0:
            continue
        ax.bar(x, v, bottom=bottom, width=0.85, label=side)
        bottom += v
    ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    ax.set_xlabel(lab)
    ax.set_ylabel("share of all games")
    ax.set_ylim(0, min(1.0, max(float(bottom.max()) * 1.15, 0.05)))
    ax.legend(fontsize=8)
    ax.set_title("who wins when", fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    save(fig, path)
    shares = ", ".join(f"{s} {np.asarray(v, float).sum() / total:.3f}" for s, v in sides.items())
    return f"each side's wins by {lab}, as shares of all games over all cells (in all: {shares})"


def game_histograms(game: str, tables: dict, out: Path) -> list[tuple[str, str]]:
    """The game's own distributions (:meth:`Game.histograms`), one PNG each: (file, caption)."""
    from sim.core.game import get

    made = []
    for h in get(game).histograms(tables):
        total = float(h.total) or 1.0
        fig, ax = plt.subplots(figsize=(6.4, 3.6))
        xs = np.arange(len(h.x))
        bottom = np.zeros(len(h.x))
        for label, v in h.parts.items():
            v = np.asarray(v, float) / total
            ax.bar(xs, v, bottom=bottom, width=0.85, label=label)
            bottom += v
        ax.set_xticks(xs, [str(x) for x in h.x])
        ax.set_xlabel(h.xlabel)
        ax.set_ylabel(h.ylabel)
        ax.set_ylim(0, max(float(bottom.max()) * 1.15, 1e-3))
        if len(h.parts) > 1:
            ax.legend(fontsize=8)
        ax.set_title(wrap(h.title), fontsize=10)
        ax.grid(axis="y", alpha=0.3)
        name = f"hist_{h.name}.png"
        save(fig, out / name)
        made.append((name, f"{h.title}, as {h.ylabel} over all cells ({h.total:,.0f} in all)"
                           + (f"; {h.note}" if h.note else "")))
    return made


def tune_trace(trace: pl.DataFrame, man: dict, metric: str, path: Path) -> str:
    """``sim tune``: the rate of every evaluated point in search order (each on the search's
    common streams, with its Wilson 95% interval), and the winner and the default knobs
    re-measured on the same fresh games; the caption."""
    from sim.core.stats import wilson

    fig, ax = plt.subplots(figsize=(7.0, 3.6))
    for phase, colour in (("search", "tab:blue"), ("top-up", "tab:green")):
        t = trace.filter(pl.col("phase") == phase)
        if t.height:
            ci = np.array([wilson(round(r * g), g) for r, g in zip(t["rate"], t["games"])])
            r = t["rate"].to_numpy()
            ax.errorbar(t["evaluation"].to_numpy(), r, yerr=[r - ci[:, 0], ci[:, 1] - r], fmt="o", ms=3,
                        capsize=2, color=colour, alpha=0.7, label=f"{phase} (95% CI)")
    for phase, style in (("final", "-"), ("baseline", "--")):
        t = trace.filter(pl.col("phase") == phase)
        if t.height:
            ax.axhline(float(t["rate"][0]), ls=style, color="black", lw=1,
                       label=f"{'tuned' if phase == 'final' else 'default knobs'} on fresh games: {t['rate'][0]:.3f}")
    ax.set_xlabel("evaluation")
    ax.set_ylabel(metric)
    side, strategy = man.get("side", "?"), man.get("strategy", "?")
    ax.set_title(wrap(f"tune {side} {strategy}: {metric} at each evaluated point"), fontsize=10)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    save(fig, path)
    against = ", ".join(f"{k}={v}" for k, v in (man.get("against") or {}).items())
    return (f"{metric} at each point the search evaluated for {side}'s {strategy} against {against or 'its opponent'} "
            f"(search and top-up points on common streams, each with its 95% CI); the lines are the winner and the "
            f"default knobs re-measured on the same fresh games")


def values_bars(values: pl.DataFrame, path: Path) -> str:
    """``sim GAME values``: each change's value to its holder's side in points with its paired
    95% CI, one bar per tier; the caption."""
    d = values.filter((pl.col("change") != "(none)") & pl.col("value").is_not_null())
    names = list(dict.fromkeys(d["change"].to_list()))
    tiers = list(dict.fromkeys(values["tier"].to_list()))
    h = 0.8 / max(len(tiers), 1)
    fig, ax = plt.subplots(figsize=(7.0, 1.4 + 0.35 * max(len(names), 1) * max(1, len(tiers) * 0.6)))
    for k, tier in enumerate(tiers):
        t = {r["change"]: r for r in d.filter(pl.col("tier") == tier).iter_rows(named=True)}
        ys = [i + (k - (len(tiers) - 1) / 2) * h for i, n in enumerate(names) if n in t]
        v = np.array([100 * t[n]["value"] for n in names if n in t])
        lo = np.array([100 * t[n]["value_ci_low"] for n in names if n in t])
        hi = np.array([100 * t[n]["value_ci_high"] for n in names if n in t])
        ax.barh(ys, v, height=h, xerr=[v - lo, hi - v], capsize=2, label=tier or "as given")
    ax.set_yticks(range(len(names)), names, fontsize=8)
    ax.invert_yaxis()
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel("value to the holder's side, points (paired 95% CI)")
    ax.set_title("values by substitution: the table as given against each change, one at a time", fontsize=10)
    if len(tiers) > 1:
        ax.legend(fontsize=7)
    ax.grid(axis="x", alpha=0.3)
    save(fig, path)
    # the game's own words for what a change is (a role replaced, an ability off, gear taken away)
    kinds = "; ".join(dict.fromkeys(str(w) for w in d["said"].to_list()[:3])) if "said" in d.columns else ""
    return ("each change's value to its holder's side in points (the table as given − the table with the change, "
            "e.g. " + (kinds or "a role replaced by its team's plain one, an ability at its neutral value") + "), "
            "every row on the same games, paired 95% CI"
            + (f"; one bar per tier ({'; '.join(tiers)})" if len(tiers) > 1 else ""))


def loo_bars(loo: pl.DataFrame, path: Path) -> str:
    """Leave-one-out / restricted-play changes as bars with the 95% CI of the *paired*
    change (``delta_ci_low/high``); older tables without it get no error bars."""
    key = next(k for k in ("replaced", "removed", "restricted") if k in loo.columns)
    label_col = "withheld" if "withheld" in loo.columns else key
    dc = "delta" if "delta" in loo.columns else next(c for c in loo.columns if c.endswith("_delta"))
    pre = dc[: -len("delta")]
    rate = next((c for c in (pre + "win_rate", "rate") if c in loo.columns),
                next((c for c in loo.columns if c.endswith("win_rate")), "rate"))
    d = loo.filter(pl.col(dc).is_not_null() & (pl.col(key) != "(none)")).sort(dc)
    fig, ax = plt.subplots(figsize=(6.4, 1.4 + 0.35 * max(d.height, 1)))
    err, what = None, "no interval: an older table"
    lo_c, hi_c = pre + "delta_ci_low", pre + "delta_ci_high"
    if {lo_c, hi_c} <= set(d.columns):
        err = [(d[dc] - d[lo_c]).to_numpy(), (d[hi_c] - d[dc]).to_numpy()]
        what = "95% CI of the paired change"
    ax.barh(range(d.height), d[dc].to_numpy(), xerr=err, capsize=3, color="tab:orange")
    ax.set_yticks(range(d.height), [str(x) for x in d[label_col].to_list()], fontsize=8)
    ax.axvline(0, color="black", lw=0.8)
    name = rate.replace("_", " ")
    ax.set_xlabel(f"change in {name} ({what})")
    kind = "restricted play" if key == "restricted" else "leave one out"
    ax.set_title(wrap(f"{kind}: change of {name} when each is {key}"), fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    save(fig, path)
    return f"change of {name} when each one is {key}, against the full game on the same games ({what})"
