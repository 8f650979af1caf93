"""The shared pieces of honest information and traces: one-way streams, read-only
views, oracle labels, event logs and ``--find`` conditions."""
import numba as nb
import numpy as np
import pytest
from collections import namedtuple

from sim.core.rng import RULES, next_u64_nb, seed_stream_nb, splitmix64_nb
from sim.core.seeding import run_key
from sim.core.trace import Trace, emit_nb, log_rows, matches, new_log, parse_find, trace_lines
from sim.core.nrt import unmanaged_nb
from sim.core.views import is_oracle, oracle_label, oracles, readonly_nb
from sim.errors import SimInputError

_INV1 = pow(0xBF58476D1CE4E5B9, -1, 1 << 64)
_INV2 = pow(0x94D049BB133111EB, -1, 1 << 64)
_M = (1 << 64) - 1


def _unshift(z: int, k: int) -> int:
    x = z
    for _ in range(64 // k + 1):
        x = z ^ (x >> k)
    return x & _M


def unsplitmix(z: int) -> int:
    """The inverse of splitmix64 (what a strategy that knows the seeding could compute)."""
    z = _unshift(z, 31)
    z = (z * _INV2) & _M
    z = _unshift(z, 27)
    z = (z * _INV1) & _M
    z = _unshift(z, 30)
    return (z - 0x9E3779B97F4A7C15) & _M


def test_unsplitmix_inverts_splitmix():
    for x in (0, 1, 12345, _M, 0x0123456789ABCDEF):
        assert unsplitmix(int(splitmix64_nb(np.uint64(x)))) == x


def test_streams_differ_by_game_and_side_and_are_deterministic():
    key = run_key(5)
    seen = set()
    for g in range(50):
        for side in range(4):
            st = np.zeros(4, np.uint64)
            seed_stream_nb(st, key, g, side)
            again = np.zeros(4, np.uint64)
            seed_stream_nb(again, key, g, side)
            assert (st == again).all()
            seen.add(tuple(int(x) for x in st))
    assert len(seen) == 200
    a, b = np.zeros(4, np.uint64), np.zeros(4, np.uint64)
    seed_stream_nb(a, key, 3)
    seed_stream_nb(b, key, 3, RULES)
    assert (a == b).all()  # side 0 is the rules' stream


def test_a_side_state_gives_away_neither_the_key_nor_another_stream():
    """The starts are SipHash outputs: undoing the SplitMix64 expansion of a side's start
    gives the two PRF outputs, which share no word with the key and predict nothing of
    the rules' stream (the attack that broke the old SplitMix-chain seeding)."""
    key = run_key(11)
    hits = 0
    for g in range(200):
        side = np.zeros(4, np.uint64)
        seed_stream_nb(side, key, g, 1)
        a = unsplitmix(int(side[0]))
        b = unsplitmix(int(side[2]))
        assert {a, b}.isdisjoint(int(x) for x in key)
        rules = np.zeros(4, np.uint64)
        seed_stream_nb(rules, key, g, RULES)
        # the old derivation's weakness: key words fall out of consecutive state words
        guess = unsplitmix(int(side[1])) ^ int(side[0])
        hits += guess in {int(x) for x in key} or guess == int(rules[0])
        assert int(next_u64_nb(side.copy())) != int(next_u64_nb(rules.copy()))
    assert hits == 0


V = namedtuple("V", "a b")


@nb.njit
def _writes(v):
    v.a[0] = 1
    return 0


@nb.njit
def _reads(v):
    return v.a.sum() + v.b[1]


@nb.njit
def _call(x, f):
    return f(V(readonly_nb(x), readonly_nb(x[1:])))


def test_views_are_read_only():
    x = np.arange(4)
    assert _call(x, _reads) == 6 + 2
    with pytest.raises(Exception) as e:
        _call(x, _writes)
    assert ("setitem" in str(e.value)) or ("read-only" in str(e.value))
    assert (x == np.arange(4)).all()


class _S:
    def __init__(self, name):
        self.name = name


def test_oracle_names_are_labelled():
    s = {"player": _S("oracle_key"), "writer": _S("random"), "x": _S("my.mod:oracle_peek"), "y": _S("mod:x")}
    assert is_oracle(s["player"]) and is_oracle(s["x"]) and not is_oracle(s["y"])
    assert oracles(s) == {"player": "oracle_key", "x": "my.mod:oracle_peek"}
    assert "ORACLE" in oracle_label(s) and oracle_label({"w": _S("random")}) == ""


@nb.njit
def _logged(n, log):
    s = 0
    for i in range(n):
        s += i
        emit_nb(log, 7, i, s)
    return s


def test_event_log_records_and_none_is_silent():
    assert _logged(5, None) == 10
    log = new_log(4)
    assert _logged(5, log) == 10
    rows, cut = log_rows(log)
    assert cut and rows.shape == (3, 8) and rows[2, :3].tolist() == [7, 2, 3]
    log = new_log(100)
    _logged(5, log)
    rows, cut = log_rows(log)
    assert not cut and rows[:, 1].tolist() == [0, 1, 2, 3, 4]


def test_find_conditions():
    keys = ("winner", "rounds", "died")
    c = parse_find("winner=village, rounds>=20", keys)
    assert matches({"winner": "village", "rounds": 20, "died": []}, c)
    assert not matches({"winner": "village", "rounds": 19, "died": []}, c)
    assert matches({"winner": "x", "rounds": 1, "died": ["cat", "dog"]}, parse_find("died=cat", keys))
    assert not matches({"winner": "x", "rounds": 1, "died": ["dog"]}, parse_find("died=cat", keys))
    assert matches({"winner": "x", "rounds": 1, "died": ["dog", "cat"]}, parse_find("died>=2", keys))
    with pytest.raises(SimInputError, match="did you mean 'rounds'"):
        parse_find("round>=3", keys)
    with pytest.raises(SimInputError, match="expected KEY=VALUE"):
        parse_find("winner", keys)
    with pytest.raises(SimInputError, match="is a number"):
        matches({"rounds": 3}, parse_find("rounds>=many", keys))


def test_trace_lines_end_with_the_result():
    tr = Trace(game=4, events=[{"event": "x", "text": "t"}], result={"winner": "draw"})
    lines = trace_lines(tr, 9)
    assert lines[-1]["event"] == "result" and lines[-1]["winner"] == "draw" and lines[-1]["game"] == 4


@nb.njit
def _writes_through_unmanaged(a, log):
    from_view = unmanaged_nb(a)
    for i in range(a.shape[0]):
        from_view[i] = i + 1
        emit_nb(log, 1, i)
    return from_view.sum()


def test_emit_keeps_the_callers_writes_into_refcount_free_views():
    """Regression: an inlined emit_nb overload once dropped stores into unmanaged arrays
    (every TRPG combat froze into a draw)."""
    for log in (None, new_log(16)):
        a = np.zeros(5, np.int64)
        assert _writes_through_unmanaged(a, log) == 15 and a.tolist() == [1, 2, 3, 4, 5]
