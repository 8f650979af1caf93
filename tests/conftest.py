import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # so `tests.naive` and test-local plug-ins import

# Keep numba's threading layer and our runner predictable in CI.
os.environ.setdefault("SIM_THREADS", "2")
