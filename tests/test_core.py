"""Shared core: seeding, RNG streams, Wilson intervals, config paths, output."""
import json
import math

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.core import rng as R
from sim.core.config import parse_value, set_path, split_assignment
from sim.core.output import manifest, write_tables
from sim.core.runner import run_chunked
from sim.core.seeding import run_key
from sim.core.stats import wilson
from sim.errors import SimInputError


def test_run_key_is_deterministic_and_spawns_differ():
    assert np.array_equal(run_key(5), run_key(5))
    assert not np.array_equal(run_key(5), run_key(6))
    assert not np.array_equal(run_key(5, 0), run_key(5, 1))
    with pytest.raises(SimInputError):
        run_key(-1)


def test_streams_are_per_game_and_independent_of_order():
    key = run_key(1)
    a = np.zeros(4, np.uint64)
    b = np.zeros(4, np.uint64)
    R.seed_stream_nb(a, key, 7)
    first = [int(R.next_u64_nb(a)) for _ in range(5)]
    R.seed_stream_nb(b, key, 3)
    R.next_u64_nb(b)
    R.seed_stream_nb(b, key, 7)
    assert [int(R.next_u64_nb(b)) for _ in range(5)] == first
    R.seed_stream_nb(b, key, 8)
    assert [int(R.next_u64_nb(b)) for _ in range(5)] != first


def test_randint_is_uniform_chi_square():
    # 60,000 draws over 6 faces: chi-square with 5 dof stays below 20.5 (p ~ 0.001).
    st_ = np.zeros(4, np.uint64)
    R.seed_stream_nb(st_, run_key(2), 0)
    counts = np.zeros(6, np.int64)
    for _ in range(60_000):
        counts[R.randint_nb(st_, 6)] += 1
    exp = 10_000
    chi2 = float(((counts - exp) ** 2 / exp).sum())
    assert chi2 < 20.5, counts


def test_choose_bit_only_picks_set_bits():
    st_ = np.zeros(4, np.uint64)
    R.seed_stream_nb(st_, run_key(3), 0)
    mask = np.uint64(0b1010_0100)
    seen = {int(R.choose_bit_nb(st_, mask)) for _ in range(500)}
    assert seen == {2, 5, 7}


@pytest.mark.parametrize("k,n", [(0, 10), (10, 10), (3, 10), (500, 1000), (1, 100000)])
def test_wilson_contains_p_and_is_ordered(k, n):
    lo, hi = wilson(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0
    if k == 0:
        assert lo == 0.0
    if k == n:
        assert hi == 1.0


def test_wilson_matches_textbook_value():
    # Wilson (1927) interval for 81/263 at 95%: (0.2553, 0.3662) (Newcombe 1998, table I), to
    # its printed 4 decimals: 5e-4 let the interval without its z²/4n² term through (issue 43)
    lo, hi = wilson(81, 263)
    assert math.isclose(lo, 0.2553, abs_tol=5e-5) and math.isclose(hi, 0.3662, abs_tol=5e-5)


def test_set_path_and_values():
    cfg = {"a": {"b": [1, {"c": 2}]}, "x": 1}
    set_path(cfg, "a.b.1.c", 5)
    assert cfg["a"]["b"][1]["c"] == 5
    with pytest.raises(SimInputError, match="unknown parameter path"):
        set_path(cfg, "a.zz", 1)
    with pytest.raises(SimInputError):
        set_path(cfg, "a.b.9", 1)
    assert parse_value("3") == 3
    assert parse_value("true") is True
    assert parse_value("male,loud") == ["male", "loud"]
    assert parse_value("park") == "park"
    assert split_assignment("a.b = 2") == ("a.b", 2)
    with pytest.raises(SimInputError):
        split_assignment("nonsense")


@settings(max_examples=20, deadline=None)
@given(n=st.integers(1, 300), chunk=st.integers(1, 64), threads=st.integers(1, 3))
def test_runner_sums_are_independent_of_chunking(n, chunk, threads):
    def chunk_fn(start, count):
        idx = np.arange(start, start + count)
        return {"s": np.array([idx.sum(), (idx % 7 == 0).sum()], np.int64)}

    res = run_chunked(chunk_fn, n, chunk_size=chunk, threads=threads)
    assert res.totals["s"].tolist() == [n * (n - 1) // 2, len(range(0, n, 7))]


def test_write_tables_is_atomic_and_has_manifest(tmp_path):
    out = tmp_path / "o"
    man = manifest("looper", {"rules": {"x": 1}}, 7)
    write_tables(out, {"t": pl.DataFrame({"a": [1, 2]})}, man)
    assert pl.read_parquet(out / "t.parquet")["a"].to_list() == [1, 2]
    m = json.loads((out / "_manifest.json").read_text())
    assert m["seed"] == 7 and m["config"] == {"rules": {"x": 1}} and len(m["config_sha256"]) == 64
    assert "version" in m and "git_commit" in m and "rules_page_sha256" in m

    class Boom(Exception):
        pass

    class Bad:
        def to_arrow(self, **kw):
            raise Boom()

    with pytest.raises(Boom):
        write_tables(tmp_path / "p", {"t": Bad()}, man)
    assert not (tmp_path / "p").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["o"]  # no temp dir left behind


def test_assign_path_creates_keys_below_an_existing_id_only():
    import pytest as _pytest

    from sim.core.config import assign_path
    from sim.errors import SimInputError

    cfg = {"characters": {"p1": {"hp": 3, "effects": [{"amount": 1}]}}}
    assign_path(cfg, "characters.p1.strategy.target", "weakest")  # two new levels below p1
    assert cfg["characters"]["p1"]["strategy"] == {"target": "weakest"}
    assign_path(cfg, "characters.p1.effects.0.amount", 4)  # list items by index
    assert cfg["characters"]["p1"]["effects"][0]["amount"] == 4
    for bad, msg in [("characters.p9.hp", "no key 'characters.p9'"), ("charactrs.p1.hp", "no key 'charactrs'"),
                     ("characters.p1.hp.x", "is a value"), ("characters.p1", "is a table")]:
        with _pytest.raises(SimInputError, match=msg):
            assign_path(cfg, bad, 1)


def test_small_runs_are_cut_so_every_thread_gets_work():
    """A run smaller than one default chunk is cut into at least four chunks per thread
    (a slow strategy's 2,000 games once ran on one core); a chunk that already gives every
    thread work, and a block size a caller chose (on_chunk), stay as they are."""
    from sim.core.runner import DEFAULT_CHUNK, run_games, spread_chunk

    assert spread_chunk(2000, DEFAULT_CHUNK, 2) == 250
    assert spread_chunk(10_000_000, DEFAULT_CHUNK, 2) == DEFAULT_CHUNK
    assert spread_chunk(3, DEFAULT_CHUNK, 2) == 1
    seen = []

    def call(start, count, out):
        seen.append(count)
        out.n[0] += count

    from collections import namedtuple
    Out = namedtuple("Out", "n")
    r = run_games(2000, lambda: Out(np.zeros(1, np.int64)), call, threads=2)
    assert r.totals["n"][0] == 2000 and max(seen) == 250
    seen.clear()
    blocks = []
    run_games(2000, lambda: Out(np.zeros(1, np.int64)), call, threads=2, chunk_size=1000,
              on_chunk=lambda s, c, d: blocks.append(c))
    assert sorted(blocks) == [1000, 1000]


def test_a_choice_knob_names_its_choices_the_closest_and_takes_plug_ins_only_when_declared():
    from sim.core.knobs import Knob, knob_vector

    k = Knob("against", "choice", default="random", choices=("random", "bayes"))
    with pytest.raises(SimInputError, match=r"'baye' is not one of random, bayes \(did you mean 'bayes'\?\)"):
        k.check("baye", "w")
    with pytest.raises(SimInputError, match="is not one of"):
        k.check("my.mod:player", "w")
    p = Knob("against", "choice", default="random", choices=("random", "bayes"), plugins=True)
    assert p.check("my.mod:player", "w") == "my.mod:player"
    with pytest.raises(SimInputError, match="or a module:object plug-in"):
        p.check("nope", "w")

    class S:
        knobs = (p,)
    assert knob_vector(S, "s", {"against": "bayes"}, "w")[0] == 1.0
    assert knob_vector(S, "s", {"against": "my.mod:player"}, "w")[0] == -1.0
