"""sim.sweep.neighbours: the cells a warm-started sweep of equilibria grows each cell from."""
from sim.sweep.neighbours import neighbours
from sim.sweep.spec import Axis


def test_grid_neighbours_are_one_step_on_one_axis():
    a, b = Axis("x", "list", [10, 20, 30]), Axis("y", "grid", ["lo", "hi"])
    pts = [{"x": x, "y": y} for x in a.values for y in b.values]  # cell order: x outer, y inner
    nb = neighbours([a, b], pts)
    assert nb[0] == [1, 2]          # (10, lo): (10, hi) and (20, lo)
    assert nb[3] == [1, 2, 5]       # (20, hi): (10, hi), (20, lo), (30, hi)
    assert nb[4] == [2, 5]
    assert all(i in nb[j] for i in range(6) for j in nb[i])  # symmetric on a grid


def test_values_are_placed_by_list_order_not_by_size_and_bools_are_not_ints():
    a = Axis("x", "list", [5, 1, 3])
    assert neighbours([a], [{"x": v} for v in a.values]) == [[1], [0, 2], [1]]
    t = Axis("f", "list", [True, 1])
    assert neighbours([t], [{"f": True}, {"f": 1}]) == [[1], [0]]


def test_random_axes_by_rank_and_category():
    r = Axis("p", "random", [])
    pts = [{"p": 0.9}, {"p": 0.1}, {"p": 0.5}, {"p": 0.55}]
    assert neighbours([r], pts) == [[3], [2], [1, 3], [0, 2]]
    c = Axis("s", "random", [])
    assert neighbours([c], [{"s": "a"}, {"s": "b"}, {"s": "a"}]) == [[2], [0, 2], [0]]
    assert neighbours([r], [{"p": 1.0}]) == [[]]
