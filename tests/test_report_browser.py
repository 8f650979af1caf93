"""The report opened in a real headless browser: one self-contained file, no console
errors, every image loads. The screenshot is kept for a person to look at
(``SIM_SCREENSHOT_DIR``, default the test's tmp dir)."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.cli import app

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# a closed network: the flags keep Chromium from calling home at every start
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine: `make test` installs Debian's "
                                              "chromium where apt-get can; it could not here")
def test_report_opens_in_a_browser_from_any_folder(tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (a test dependency) is missing")
    runner = CliRunner()
    r = runner.invoke(app, ["sweep", str(ROOT / "examples" / "race" / "specs" / "race_sweep.toml"), "--games", "400",
                            "--out", str(tmp_path / "data")])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["report", str(tmp_path / "data"), "--out", str(tmp_path / "rep")])
    assert r.exit_code == 0, r.output
    alone = tmp_path / "elsewhere" / "report.html"  # the page alone, far from its PNG files
    alone.parent.mkdir()
    shutil.copy(tmp_path / "rep" / "index.html", alone)
    shots = Path(os.environ.get("SIM_SCREENSHOT_DIR", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("requestfailed", lambda q: errors.append(f"failed: {q.url}"))
        page.goto(alone.as_uri())
        page.wait_for_load_state("load")
        imgs = page.evaluate("() => Array.from(document.images).map(i => [i.dataset.file, i.complete, "
                             "i.naturalWidth, i.naturalHeight])")
        page.screenshot(path=str(shots / "report.png"), full_page=True)
        browser.close()
    assert errors == []
    assert len(imgs) >= 5
    for name, complete, w, h in imgs:
        assert complete and w > 300 and h > 150, (name, w, h)
    assert (shots / "report.png").stat().st_size > 20_000
