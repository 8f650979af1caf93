"""The README is a front door (issue 39): under 120 lines, from clone (with `sim` on the
PATH) to the fenrir verdict (`values` under random and tuned tiers, with `--target`), and
every page it links to exists."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def test_readme_is_short_and_takes_a_designer_to_the_verdict():
    assert len(README.splitlines()) < 120
    assert "make install" in README and 'PATH="$PWD/.venv/bin:$PATH"' in README
    cmd = README[README.index("sim werewolf values"):].split("```")[0]
    assert "--target 0.45:0.55" in cmd and "--tiers village=random,claims" in cmd and "--tiers wolves=random" in cmd
    assert "verdict: wolves favoured by" in README


def test_readme_links_resolve():
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README)
    assert "docs/glossary.md" in links
    for link in links:
        if not link.startswith("http"):
            assert (ROOT / link).exists(), link
