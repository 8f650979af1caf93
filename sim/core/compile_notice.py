"""Never a silent wait: a line on stderr while a kernel compiles (issue 42).

The first use of a combination of strategies compiles its kernel (seconds to minutes on a
cold cache); the later ones load it in milliseconds. :func:`compile_notice` wraps the call
that compiles: if it has not returned within a second, stderr says what is compiling and
that it happens once — on a terminal with a spinner while it lasts, cleared when it ends;
on piped stderr (a script, a CI log) as one plain line. ``SIM_COMPILE_NOTICE=0`` silences
it (the test suite does, so the error-line tests read exactly the ``error:`` lines).
"""
from __future__ import annotations

import os
import sys
import threading
from contextlib import contextmanager

_WHAT = threading.local()
FRAMES = "|/-\\"


def playing(game: str, strategies: dict) -> None:
    """Remember what the current thread plays (the Game protocol's run says it)."""
    from sim.core.views import strategy_name

    names = " vs ".join(strategy_name(s) for s in strategies.values()) or "its scenario's strategies"
    _WHAT.text = f"the {game} kernel for {names}"


def _enabled() -> bool:
    return os.environ.get("SIM_COMPILE_NOTICE", "") != "0"


def _tty() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


@contextmanager
def compile_notice(delay: float = 1.0):
    """Around a call that may compile: after ``delay`` seconds, say so on stderr."""
    if not _enabled():
        yield
        return
    what = getattr(_WHAT, "text", "a game kernel")
    done = threading.Event()
    tty = _tty()

    def speak() -> None:
        if done.wait(delay):
            return
        msg = f"compiling {what} — first use only, cached after"
        if not tty:
            print(msg, file=sys.stderr, flush=True)
            return
        i = 0
        while not done.wait(0.12):
            sys.stderr.write(f"\r{FRAMES[i % 4]} {msg}")
            sys.stderr.flush()
            i += 1
        sys.stderr.write("\r" + " " * (len(msg) + 2) + "\r")
        sys.stderr.flush()

    t = threading.Thread(target=speak, daemon=True)
    t.start()
    try:
        yield
    finally:
        done.set()
        t.join()
