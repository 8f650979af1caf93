"""Every named mutant of tools/mutants.py still finds its text exactly once: a merge that
edits a mutated line must update the mutant, or `make mutate` stops (it did, 2026-12-06)."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_mutant_applies_once():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        from mutants import MUTANTS
    finally:
        sys.path.pop(0)
    stale = [(m.name, m.path, (ROOT / m.path).read_text().count(m.old)) for m in MUTANTS
             if (ROOT / m.path).read_text().count(m.old) != 1]
    assert not stale, stale
