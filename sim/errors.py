"""One exception type for bad designer input; the CLI turns it into one line and exit code 2."""
from __future__ import annotations

import difflib
from typing import Any, Iterable


class SimInputError(ValueError):
    """Raised for malformed TOML, unknown ids, impossible settings or bad counts."""


def closest(word: Any, choices: Iterable[Any], cutoff: float = 0.6) -> str | None:
    """The valid name nearest to a misspelt ``word`` (difflib's ratio ≥ ``cutoff``), or None."""
    hit = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=cutoff)
    return hit[0] if hit else None


def did_you_mean(word: Any, choices: Iterable[Any], cutoff: float = 0.6) -> str:
    """``" (did you mean 'x'?)"`` for the nearest valid name, or "" when none is near: every
    unknown-name error says it the same way."""
    hit = closest(word, choices, cutoff)
    return f" (did you mean {hit!r}?)" if hit else ""
