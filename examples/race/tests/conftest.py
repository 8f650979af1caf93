import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))  # so the test plug-ins (race_plugins) import as `race_plugins:…`

os.environ.setdefault("SIM_THREADS", "2")
os.environ.setdefault("SIM_COMPILE_NOTICE", "0")  # error-line tests read stderr (sim.core.compile_notice)
