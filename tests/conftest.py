import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # so `tests.naive` and test-local plug-ins import

# Keep numba's threading layer and our runner predictable in CI.
os.environ.setdefault("SIM_THREADS", "2")
# The compile notice goes to piped stderr too (issue 42); the error-line tests read stderr
# and expect exactly the error line, so the suite silences it (test_compile_notice.py asks).
os.environ.setdefault("SIM_COMPILE_NOTICE", "0")


# SIM_COMPILE_LOG=FILE: every top-level numba compile of the run, one line each
# (seconds, the test running, the function) — where the suite's time goes (issue 42).
if os.environ.get("SIM_COMPILE_LOG"):
    import threading
    import time

    from numba.core import event as _event

    class _CompileLog(_event.Listener):
        def __init__(self, path):
            self.path, self.local = path, threading.local()

        def on_start(self, ev):
            stack = self.local.__dict__.setdefault("stack", [])
            stack.append(time.perf_counter())

        def on_end(self, ev):
            stack = self.local.stack
            t0 = stack.pop()
            if stack:  # nested in a compile already being timed
                return
            d = ev.data.get("dispatcher")
            name = f"{getattr(d, '__module__', '?')}.{getattr(getattr(d, 'py_func', d), '__name__', '?')}"
            test = os.environ.get("PYTEST_CURRENT_TEST", "").split(" ")[0]
            with open(self.path, "a") as f:
                f.write(f"{time.perf_counter() - t0:.1f}\t{os.getpid()}\t{test}\t{name}\n")

    _event.register("numba:compile", _CompileLog(os.environ["SIM_COMPILE_LOG"]))

