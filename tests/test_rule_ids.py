"""Rule ids tie the rules pages, the code and the tests together: every ruling a game's
pages define (``**R-n**`` on docs/rules/GAME.md, the project's ``**P-n**`` / ``**Q-n**`` /
``**T-n**`` on docs/GAME.md) is named by some test, and every id the code cites (a trace
event's rule, a comment's string) is defined on that game's pages."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GAMES = sorted(p.stem for p in (ROOT / "docs" / "rules").glob("*.md"))
DEFINED = re.compile(r"\*\*([A-Z]-\d+)\b")
CITED = re.compile(r"\"([A-Z]-\d+)\"")


def defined(game: str) -> set[str]:
    pages = [ROOT / "docs" / "rules" / f"{game}.md", ROOT / "docs" / f"{game}.md"]
    return {m for p in pages if p.exists() for m in DEFINED.findall(p.read_text(encoding="utf-8"))}


def test_every_game_has_rules_pages():
    assert set(GAMES) >= {"looper", "werewolf", "trpg"}


@pytest.mark.parametrize("game", GAMES)
def test_every_ruling_is_named_by_a_test(game):
    ids = defined(game)
    assert len(ids) >= 7, ids  # the pattern still finds the page's rulings
    tests = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("*.py")
                      if p.name != Path(__file__).name)
    named = set(re.findall(r"\b[A-Z]-\d+\b", tests))
    assert not sorted(ids - named), f"{game}: rulings no test names: {sorted(ids - named)}"


@pytest.mark.parametrize("game", GAMES)
def test_every_id_the_code_cites_is_defined(game):
    code = [p for d in ("sim", "strategies") for p in (ROOT / d / game).rglob("*.py")]
    cited = {m for p in code for m in CITED.findall(p.read_text(encoding="utf-8"))}
    assert cited, game
    undefined = sorted(cited - defined(game))
    assert not undefined, f"{game}: cited but not defined: {undefined}"
