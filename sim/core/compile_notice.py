"""Never a silent wait: a line on stderr while a kernel compiles (issue 42).

The first use of a combination of strategies compiles its kernel (seconds to minutes on a
cold cache); the later ones load it in milliseconds. :func:`compile_notice` wraps the call
that compiles: if it has not returned within a second, stderr says what is compiling and
that it happens once, with a spinner while it lasts, and the line is cleared when it ends.
On a terminal only (or with ``SIM_COMPILE_NOTICE=1``): piped stderr, as tests and scripts
read it, stays exactly the ``error:`` lines the CLI promises.
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
    if os.environ.get("SIM_COMPILE_NOTICE", "") not in ("", "0"):
        return True
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
    tty = sys.stderr.isatty()

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
