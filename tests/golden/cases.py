"""Fixed runs whose JSON summaries are stored (``summaries.json``) and compared exactly.

Refactors that must not change results (one Game protocol, renamed modules) are checked
against these. Regenerate only on purpose, when a rule or a stream changes:
``python -m tests.golden.cases``; the commit then says why the numbers moved."""
from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
FILE = HERE / "summaries.json"
TIMING = {"games_per_second", "seconds"}

CASES = {
    "looper-random": ["looper", "run", "--games", "3000", "--seed", "11"],
    "looper-cautious-adversarial": ["looper", "run", "--games", "1000", "--seed", "12", "--player", "cautious",
                                    "--scriptwriter", "adversarial"],
    "looper-deducer-expansion": ["looper", "run", "--games", "2000", "--seed", "13", "--player", "deducer",
                                 "--expansion"],
    "werewolf-random": ["werewolf", "run", "--games", "20000", "--seed", "21"],
    "werewolf-claims-variants": ["werewolf", "run", "--games", "10000", "--seed", "22", "--village", "trusting",
                                 "--wolves", "trusting", "--set", "variants.vote_rule=plurality",
                                 "--set", "variants.start=night"],
    "werewolf-small": ["werewolf", "run", "--games", "20000", "--seed", "23", "--roles",
                       "werewolf,seer,villager*4"],
    "werewolf-loo": ["werewolf", "loo", "--games", "3000", "--seed", "24"],
    "trpg-alley": ["trpg", "run", "ALLEY", "--games", "5000", "--seed", "31"],
    "trpg-squad": ["trpg", "run", "SQUAD", "--games", "2000", "--seed", "32"],
}


def scrub(obj):
    """The JSON without wall-clock fields (they differ run to run), the settings line (a
    label that names this checkout's paths; tests/test_settings.py checks it) and the
    ``*_points`` copies of fractions the summaries keep (the fractions are pinned)."""
    if isinstance(obj, dict):
        return {k: scrub(v) for k, v in obj.items()
                if k not in TIMING and k != "settings" and not k.endswith("_points")}
    if isinstance(obj, list):
        return [scrub(v) for v in obj]
    return obj


def argv(name: str) -> list[str]:
    root = HERE.parents[1]
    sc = root / "sim" / "trpg" / "data" / "scenarios"
    return [{"ALLEY": str(sc / "alley.toml"), "SQUAD": str(sc / "squad.toml")}.get(a, a) for a in CASES[name]]


def run_case(name: str) -> dict:
    from typer.testing import CliRunner

    from sim.cli import app

    r = CliRunner().invoke(app, [*argv(name), "--json"])
    assert r.exit_code == 0, (name, r.output)
    return scrub(json.loads(r.stdout))


if __name__ == "__main__":
    FILE.write_text(json.dumps({n: run_case(n) for n in CASES}, indent=1, sort_keys=True) + "\n")
    print(f"wrote {FILE}")
