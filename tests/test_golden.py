"""Same configuration and seed → the same numbers as when the summaries were stored."""
import json

import pytest

from tests.golden.cases import CASES, FILE, run_case

STORED = json.loads(FILE.read_text())


@pytest.mark.parametrize("name", sorted(CASES))
def test_summary_unchanged(name):
    assert run_case(name) == STORED[name]
