"""Reasons: why a strategy decided as it did, as data in a trace.

Every strategy view has a field ``why``, next to its whitelist (it tells the strategy
nothing). A strategy states its reason by calling :func:`reason_nb` on it, any number of
times per decision, each an item ``(kind, a, b, score)``: ``kind`` a small integer whose
meaning the game names (``sim/<game>/enums.py``: ``WHY``, e.g. Werewolf's ``suspect``),
``a`` / ``b`` participants, characters or places (-1: none), ``score`` a number. Work done
only to explain a decision goes under ``if explaining_nb(view.why):``.

In a batch run ``why`` is None: :func:`reason_nb` compiles to nothing and
:func:`explaining_nb` to the constant False (the branch is removed), so reasons cost
nothing there. ``sim GAME trace`` gives each decision a fresh buffer
(:func:`new_why_nb`) and, after the decision's event, appends its items to the event log
(:func:`explain_nb`); the game's decoder attaches them to that event as ``reason`` (a
list of dicts) and ``reason_text`` (one line of text). A strategy must not draw from its ``rng``
or write its memory only to explain: the games of a trace are those of the batch.

Rules for a strategy: touch ``view.why`` only through these functions (numba types a
branch even when it is never taken, and ``why`` has no type a strategy can use in a batch).
"""
from __future__ import annotations

import numba as nb
import numpy as np
from numba import types
from numba.extending import overload

from sim.core.trace import emit_nb

CAP = 24          # items a decision may state (more are dropped, the event says so)
REASON = 1000     # the event code of a reason item in every game's log (above every game's own)
SCALE = 1_000_000  # a score is kept in the int64 log as micro-units


def _none(t) -> bool:
    return isinstance(t, (types.NoneType, types.Omitted))


def reason_nb(why, kind, a=-1, b=-1, score=0.0):
    """State one item of the present decision's reason (nothing outside a trace)."""
    if why is None:
        return
    n = int(why[0, 0])
    if n > CAP:
        why[0, 1] = 1
        return
    why[n, 0], why[n, 1], why[n, 2], why[n, 3] = kind, a, b, score
    why[0, 0] = n + 1


@overload(reason_nb)
def _reason_ov(why, kind, a=-1, b=-1, score=0.0):
    if _none(why):
        def nothing(why, kind, a=-1, b=-1, score=0.0):
            return None
        return nothing

    def record(why, kind, a=-1, b=-1, score=0.0):
        n = np.int64(why[0, 0])
        if n > CAP:
            why[0, 1] = 1.0
            return None
        why[n, 0] = kind
        why[n, 1] = a
        why[n, 2] = b
        why[n, 3] = score
        why[0, 0] = n + 1
        return None
    return record


def explaining_nb(why):
    """Whether the decision is being explained (a trace): False, known at compile time, in a batch."""
    return why is not None


@overload(explaining_nb)
def _explaining_ov(why):
    if _none(why):
        return lambda why: False
    return lambda why: True


def new_why_nb(log):
    """A fresh reason buffer for one decision when ``log`` is an event log, else None."""
    if log is None:
        return None
    why = np.zeros((CAP + 1, 4))
    why[0, 0] = 1
    return why


@overload(new_why_nb)
def _new_why_ov(log):
    if _none(log):
        return lambda log: None

    def make(log):
        why = np.zeros((CAP + 1, 4))
        why[0, 0] = 1
        return why
    return make


def explain_nb(log, why, actor):
    """Append the items of ``why`` to ``log`` as ``REASON`` rows (right after the event of
    the decision they explain: the decoder attaches them to it)."""
    if log is None:
        return
    for i in range(1, int(why[0, 0])):
        emit_nb(log, REASON, actor, int(why[i, 0]), int(why[i, 1]), int(why[i, 2]), _micro(why[i, 3]))
    if why[0, 1]:
        emit_nb(log, REASON, actor, -1, 0, 0, 0)


def _micro(x):
    if x != x:  # NaN
        return 0
    return int(max(min(x, 1e12), -1e12) * SCALE)


@overload(explain_nb)
def _explain_ov(log, why, actor):
    if _none(log):
        return lambda log, why, actor: None

    def write(log, why, actor):
        for i in range(1, np.int64(why[0, 0])):
            x = why[i, 3]
            s = np.int64(0) if x != x else np.int64(max(min(x, 1e12), -1e12) * SCALE)
            emit_nb(log, REASON, actor, np.int64(why[i, 0]), np.int64(why[i, 1]), np.int64(why[i, 2]), s)
        if why[0, 1] != 0.0:
            emit_nb(log, REASON, actor, -1, 0, 0, 0)
        return None
    return write


@nb.njit
def rank_nb(why, kind, scores, mask, first=-1, k=3, sign=1.0):
    """State a ranking: ``first`` (the one chosen, when >= 0), then the highest ``sign ×
    scores[i]`` of the other set bits of ``mask`` (a uint64), ``k`` items in all, each as
    ``(kind, i, -1, scores[i])``. Nothing outside a trace."""
    if not explaining_nb(why):
        return
    left = np.uint64(mask)
    if first >= 0:
        reason_nb(why, kind, first, -1, scores[first])
        left &= ~(np.uint64(1) << np.uint64(first))
        k -= 1
    for _ in range(k):
        best = -1
        for i in range(min(scores.shape[0], 64)):
            if (left >> np.uint64(i)) & np.uint64(1) and (best < 0 or sign * scores[i] > sign * scores[best]):
                best = i
        if best < 0:
            return
        reason_nb(why, kind, best, -1, scores[best])
        left &= ~(np.uint64(1) << np.uint64(best))


# ----------------------------------------------------------------------------- decoding
def reason_item(row) -> dict:
    """A ``REASON`` row as ``{"kind": code, "a", "b", "score"}`` (``kind`` -1: items were dropped)."""
    _, actor, kind, a, b, s = (int(x) for x in row[:6])
    return {"actor": actor, "kind": kind, "a": a, "b": b, "score": s / SCALE}


def attach(events: list[dict], item: dict, describe) -> None:
    """Attach a decoded reason item to the last event (the decision it explains):
    ``describe(item)`` gives ``(fields, text)`` — its named fields for JSON and a short
    phrase for the event's ``reason_text`` line."""
    if item["kind"] == -1:
        fields, text = {"why": "dropped", "dropped": True}, f"… (more than {CAP} items)"
    else:
        fields, text = describe(item)
    if not events:
        return
    ev = events[-1]
    ev.setdefault("reason", []).append(fields)
    ev["reason_text"] = f"{ev['reason_text']}; {text}" if ev.get("reason_text") else text


__all__ = ["CAP", "REASON", "attach", "explain_nb", "explaining_nb", "new_why_nb", "rank_nb", "reason_item",
           "reason_nb"]
