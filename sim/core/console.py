"""The console the commands print their tables and summaries on."""
from __future__ import annotations

import os
import sys

from rich.console import Console

# rich draws for 80 columns when stdout is not a terminal (a file, a pipe, `| less`): the
# Looper's exploit list then wrapped every cell into slivers of nine characters
PIPE_WIDTH = 160


def out_console(**kw) -> Console:
    """rich's console on stdout; written to a file or a pipe (and COLUMNS unset) it is
    ``PIPE_WIDTH`` columns wide instead of 80, so a saved table keeps its rows whole."""
    if "width" not in kw and not os.environ.get("COLUMNS") and not sys.stdout.isatty():
        kw["width"] = PIPE_WIDTH
    return Console(**kw)
