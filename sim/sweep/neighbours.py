"""Which cells of a sweep are each cell's neighbours: the warm start of a
``metric = "equilibrium"`` sweep grows each cell again from its neighbours' populations.

A cell's position on a list/grid axis is its value's index in the axis's list; on a random
axis, a number's rank among the values drawn (another value: 0 when equal, else 1). Two
cells' distance is the sum over axes of their positions' differences; a cell's neighbours
are the other cells at the least distance from it — on a grid, the cells one step away on
one axis."""
from __future__ import annotations

from typing import Any, Sequence


def _same(a: Any, b: Any) -> bool:
    return a == b and (type(a) is bool) == (type(b) is bool)


def _positions(axis, values: list) -> list[float | None]:
    """Each point's position on one axis (None: a category, compared by equality)."""
    if axis.kind != "random":
        return [float(next(i for i, v in enumerate(axis.values) if _same(v, x))) for x in values]
    if all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in values):
        ranks = {v: i for i, v in enumerate(sorted(set(values)))}
        return [float(ranks[x]) for x in values]
    return [None] * len(values)


def neighbours(axes: Sequence, points: Sequence[dict]) -> list[list[int]]:
    """For each cell (in cell order), the indices of its neighbours, ascending."""
    cols = [_positions(a, [p[a.path] for p in points]) for a in axes]
    n = len(points)

    def dist(i: int, j: int) -> float:
        d = 0.0
        for a, col in zip(axes, cols):
            if col[i] is None:
                d += 0.0 if _same(points[i][a.path], points[j][a.path]) else 1.0
            else:
                d += abs(col[i] - col[j])
        return d

    out = []
    for i in range(n):
        ds = [(dist(i, j), j) for j in range(n) if j != i]
        least = min((d for d, _ in ds), default=None)
        out.append(sorted(j for d, j in ds if d == least))
    return out
