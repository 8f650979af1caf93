"""Mutation testing (issue 43): plant each named bug of tools/mutants.py, one at a time, in a
temporary copy of the project, run the fast tests that claim to cover it, print a score.

    .venv/bin/python tools/mutate.py              # every mutant
    .venv/bin/python tools/mutate.py --list       # names, files, tests
    .venv/bin/python tools/mutate.py wilson_no_quarter_term paired_t_995   # some

A mutant is *killed* when its tests fail (or time out), *survives* when they pass. The
unmutated copy is run first on the union of the tests: a failure there stops everything
(a score over a broken baseline means nothing). The copy has its own kernel cache
(SIM_KERNEL_DIR), so a mutant in a numba source is compiled, never loaded stale, and the
shared cache of ~/.cache is left alone. Exit status: 0 when the score reaches --target.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from mutants import MUTANTS, Mutant  # noqa: E402


def copy_project(dst: Path) -> None:
    """The tracked and new (not ignored) files of the working tree, symlinks kept."""
    out = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                         check=True, capture_output=True).stdout.decode()
    for rel in filter(None, out.split("\0")):
        src, to = ROOT / rel, dst / rel
        if not os.path.lexists(src):
            continue  # deleted in the working tree
        to.parent.mkdir(parents=True, exist_ok=True)
        if src.is_symlink():
            os.symlink(os.readlink(src), to)
        else:
            shutil.copy2(src, to)


def apply(m: Mutant, root: Path) -> str:
    """Plant ``m`` in ``root``; return the file's original text."""
    f = root / m.path
    text = f.read_text(encoding="utf-8")
    if text.count(m.old) != 1:
        raise SystemExit(f"mutant {m.name}: {m.old!r} occurs {text.count(m.old)} times in {m.path} "
                         f"(the mutant is stale: update tools/mutants.py)")
    f.write_text(text.replace(m.old, m.new), encoding="utf-8")
    return text


def run_tests(root: Path, tests: list[str], timeout: float, nojit: bool = False) -> tuple[str, float, str]:
    env = {**os.environ, "PYTHONPATH": str(root), "SIM_KERNEL_DIR": str(root / ".kernels"),
           "PYTHONDONTWRITEBYTECODE": "1", "COLUMNS": "400"}
    if nojit:
        env["NUMBA_DISABLE_JIT"] = "1"
    cmd = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:randomly", "-p", "no:cacheprovider",
           "-W", "ignore", *tests]
    t0 = time.monotonic()
    try:
        r = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", time.monotonic() - t0, ""
    status = {0: "passed", 1: "failed"}.get(r.returncode, f"error {r.returncode}")
    if status.startswith("error"):
        sys.stderr.write(r.stdout[-2000:] + r.stderr[-2000:])
    # the test that caught it, and why (a mutant that does not compile is not a real kill)
    failed = [ln for ln in r.stdout.splitlines() if ln.startswith("FAILED ") or ln.startswith("ERROR ")]
    return status, time.monotonic() - t0, failed[0][:300] if failed else ""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", help="mutants to run (default: all)")
    ap.add_argument("--list", action="store_true", help="list the mutants and exit")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per mutant's tests")
    ap.add_argument("--target", type=float, default=0.85, help="the score the exit status asks for")
    ap.add_argument("--keep", action="store_true", help="keep the temporary copy")
    ap.add_argument("-v", "--verbose", action="store_true", help="name the failing test of each killed mutant")
    a = ap.parse_args(argv)
    known = {m.name: m for m in MUTANTS}
    bad = [n for n in a.names if n not in known]
    if bad:
        ap.error(f"unknown mutant(s): {', '.join(bad)}")
    todo = [known[n] for n in a.names] if a.names else list(MUTANTS)
    if a.list:
        for m in todo:
            print(f"{m.name:32} {m.path:34} {' '.join(m.tests)}\n{'':32} {m.why}")
        return 0
    tmp = Path(tempfile.mkdtemp(prefix="sim-mutate-"))
    try:
        copy_project(tmp)
        status = "passed"
        for nojit in (False, True):  # the baseline runs every mutant's tests at once: --timeout for each file
            union = sorted({t for m in todo if m.nojit == nojit for t in m.tests})
            if union and status == "passed":
                status, secs, _ = run_tests(tmp, union, a.timeout * len(union), nojit)
                print(f"baseline (no mutant{', plain Python' if nojit else ''}): {status} in {secs:.0f} s", flush=True)
        if status != "passed":
            print("the unmutated project fails its tests: no score")
            return 2
        killed, survived = [], []
        for m in todo:
            original = apply(m, tmp)
            try:
                status, secs, by = run_tests(tmp, m.tests, a.timeout, m.nojit)
            finally:
                (tmp / m.path).write_text(original, encoding="utf-8")
            (survived if status == "passed" else killed).append(m)
            verdict = "SURVIVED" if status == "passed" else f"killed ({status})"
            print(f"{m.name:32} {verdict:18} {secs:5.0f} s  {m.path}", flush=True)
            if by and a.verbose:
                print(f"{'':32} {by}", flush=True)
        score = len(killed) / len(todo)
        print(f"\nscore: {len(killed)}/{len(todo)} killed = {score:.0%}")
        for m in survived:
            print(f"  survived: {m.name} ({m.path}): {m.why}")
        return 0 if score >= a.target else 1
    finally:
        if a.keep:
            print(f"copy kept: {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
