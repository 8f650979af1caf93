"""Output directories that never lose a user's data.

Every command that writes takes ``--out DIR``. DIR is accepted when it is new, empty, or
a previous output of the same kind written by this project: such a directory carries a
marker file (``_sim-balance.json``) listing every file the project wrote there. Anything
else — a regular file, a symbolic link, the working directory, a directory holding one
file the marker does not list — is refused, naming the first foreign entry, before any
game is played. A new output is built in a hidden sibling directory and swapped in only
when complete; of the old output, only the files its marker lists are deleted.
"""
from __future__ import annotations

import json
import os
import shlex
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterable

from sim.errors import SimInputError

MARKER = "_sim-balance.json"  # "_": pandas, pyarrow and polars (hidden_file_prefix="_") skip it
TMP_TAG = ".sim-tmp-"
# What a kind of output may replace: a run over a run, a report over a report; a sweep
# root only ever gains sweeps (resumed or new), it is never replaced.
KINDS = ("tables", "report", "balance", "sweep")


class SimOutputError(RuntimeError):
    """Writing an output failed after the work was done (disk full, device gone)."""


def _umask() -> int:
    old = os.umask(0)
    os.umask(old)
    return old


def dir_mode() -> int:
    """The mode a plain ``mkdir`` would give (0755 under umask 022)."""
    return 0o777 & ~_umask()


def _where(flag: str, path: Path) -> str:
    return f"{flag} {path}"


def _read_marker(d: Path) -> dict | None:
    m = d / MARKER
    if not m.is_file():
        return None
    try:
        data = json.loads(m.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("files"), list):
        return None
    return data


def _tree(d: Path) -> list[str]:
    """Every file and directory below ``d`` as a relative POSIX path, sorted, parents first."""
    out: list[str] = []
    for root, dirs, files in os.walk(d):
        dirs.sort()
        rel = Path(root).relative_to(d)
        for name in dirs + sorted(files):
            out.append((rel / name).as_posix())
    return out


_LEGACY_MANIFESTS = ("_manifest.json", "manifest.json")


def _is_project_manifest(p: Path) -> bool:
    try:
        return json.loads(p.read_text(encoding="utf-8")).get("package") == "sim-balance"
    except (OSError, ValueError, AttributeError):
        return False


def legacy_marker(d: Path, kind: str) -> dict | None:
    """The marker an output written before markers existed would have had, recognised by
    its layout: a sweep root of ``game=…/sweep=…`` directories each with the project's
    manifest; a run directory of the project's manifest and parquet files."""
    entries = sorted(os.listdir(d))
    if kind == "sweep":
        files = []
        for e in entries:
            if not (e.startswith("game=") and (d / e).is_dir()):
                return None
            subs = sorted(os.listdir(d / e))
            for s in subs:
                sd = d / e / s
                if not (s.startswith("sweep=") and sd.is_dir()
                        and any(_is_project_manifest(sd / m) for m in _LEGACY_MANIFESTS)):
                    return None
                files.append(f"{e}/{s}")
            files.append(e)
        return {"kind": "sweep", "command": "an earlier sim sweep", "files": files} if files else None
    mans = [m for m in _LEGACY_MANIFESTS if m in entries and _is_project_manifest(d / m)]
    if not mans or not all(e in mans or (e.endswith(".parquet") and (d / e).is_file()) for e in entries):
        return None
    man = json.loads((d / mans[0]).read_text(encoding="utf-8"))
    was = "balance" if man.get("command") == "sim balance" else "tables"
    return {"kind": was, "command": man.get("command"), "files": entries}


def _foreign(d: Path, kind: str, flag: str) -> None:
    """Refuse ``d`` unless it is empty or this project's output of ``kind``."""
    entries = sorted(os.listdir(d))
    if not entries:
        return
    mark = _read_marker(d) or legacy_marker(d, kind)
    where = _where(flag, d)
    if mark is None:
        raise SimInputError(f"{where}: the directory holds files sim-balance did not write (first: "
                            f"{entries[0]!r}); choose a new or empty directory")
    if mark.get("kind") != kind:
        raise SimInputError(f"{where}: holds a {mark.get('kind', 'different')} output of sim-balance "
                            f"({mark.get('command') or 'unknown command'}); a {kind} output would replace it; "
                            f"choose another directory")
    listed = {MARKER, *mark["files"]}
    if kind == "sweep":
        # A sweep root holds game=…/sweep=… trees; below them everything is the sweep's own.
        tops = {f.split("/")[0] for f in listed} | {MARKER}
        for e in entries:
            if e not in tops:
                raise SimInputError(f"{where}: {e!r} was not written by sim-balance; choose another directory")
        for e in entries:
            if e != MARKER and (d / e).is_dir():
                for s in sorted(os.listdir(d / e)):
                    if f"{e}/{s}" not in listed:
                        raise SimInputError(f"{where}: {e}/{s!s} was not written by sim-balance; "
                                            f"choose another directory")
        return
    dirs = {str(Path(f).parent.as_posix()) for f in listed}
    for rel in _tree(d):
        if rel in listed:
            continue
        if (d / rel).is_dir() and not (d / rel).is_symlink() and any(x == rel or x.startswith(rel + "/")
                                                                       for x in dirs):
            continue
        raise SimInputError(f"{where}: {rel!r} was not written by sim-balance; choose another directory "
                            f"(nothing there is deleted)")


def _existing_ancestor(p: Path) -> Path:
    a = p
    while not os.path.lexists(a):
        a = a.parent
    return a


def check_target(path: str | Path, kind: str, *, flag: str = "--out") -> Path:
    """Every check that needs no write: the path is usable for an output of ``kind``."""
    if kind not in KINDS:
        raise ValueError(f"unknown output kind {kind!r}")
    p = Path(path)
    where = _where(flag, p)
    if str(path).strip() == "":
        raise SimInputError(f"{flag}: empty path")
    ab = Path(os.path.abspath(p))
    cwd = Path(os.getcwd())
    if ab == cwd or ab in cwd.parents:
        raise SimInputError(f"{where}: is the working directory or holds it; name a new directory")
    if p.is_symlink():
        raise SimInputError(f"{where}: is a symbolic link; name a real directory")
    if os.path.lexists(p) and not p.is_dir():
        raise SimInputError(f"{where}: exists and is not a directory; it is left alone")
    anc = _existing_ancestor(ab.parent)
    if not anc.is_dir():
        raise SimInputError(f"{where}: {anc} is not a directory")
    if p.is_dir():
        try:
            _foreign(p, kind, flag)
        except PermissionError as e:
            raise SimInputError(f"{where}: cannot read it ({e.strerror})") from None
    return p


class OutDir:
    """A claimed output directory: checked, and a hidden sibling created to write into.

    Use as a context manager around the work: an exception removes what was created.
    ``write(fill)`` fills the sibling and swaps it in."""

    def __init__(self, path: Path, kind: str, command: str | None, flag: str):
        self.path = path
        self.kind = kind
        self.command = command
        self.flag = flag
        self.tmp: Path | None = None
        self.created: list[Path] = []   # parent directories this claim made
        self.done = False

    @classmethod
    def claim(cls, path: str | Path, kind: str, *, command: str | None = None, flag: str = "--out") -> "OutDir":
        p = check_target(path, kind, flag=flag)
        od = cls(p, kind, command if command is not None else command_line(), flag)
        od._make_tmp()
        return od

    # -- creation ---------------------------------------------------------------------
    def _make_tmp(self) -> None:
        parent = Path(os.path.abspath(self.path)).parent
        missing = []
        a = parent
        while not a.exists():
            missing.append(a)
            a = a.parent
        try:
            for m in reversed(missing):
                m.mkdir()
                self.created.append(m)
            self.tmp = Path(tempfile.mkdtemp(prefix=f".{self.path.name}{TMP_TAG}", dir=parent))
            os.chmod(self.tmp, dir_mode())
        except OSError as e:
            self._remove_created()
            raise SimInputError(f"{_where(self.flag, self.path)}: cannot write there "
                                f"({e.strerror or e})") from None

    def _remove_created(self) -> None:
        for m in reversed(self.created):
            try:
                m.rmdir()
            except OSError:
                pass
        self.created = []

    def abort(self) -> None:
        if self.tmp is not None and self.tmp.exists():
            _remove_listed(self.tmp, _tree(self.tmp))
        self.tmp = None
        if not self.done:
            self._remove_created()

    def __enter__(self) -> "OutDir":
        return self

    def __exit__(self, et, ev, tb) -> None:
        if not self.done:
            self.abort()

    # -- commit -----------------------------------------------------------------------
    def write(self, fill: Callable[[Path], Any]) -> Any:
        """``fill(tmp)``, then the marker, then the swap. An OSError on the way leaves the
        old output as it was and raises :class:`SimOutputError` saying what was not written."""
        assert self.tmp is not None, "write() after abort"
        try:
            result = fill(self.tmp)
            files = [r for r in _tree(self.tmp) if (self.tmp / r).is_file()]
            _write_marker(self.tmp, self.kind, self.command, files)
            self._swap()
        except Exception as e:
            self.abort()
            if not _is_io_error(e):
                raise
            why = e.strerror if isinstance(e, OSError) and e.strerror else _first_line(e)
            raise SimOutputError(f"could not write {self.path} ({why}); nothing was written there") from None
        except BaseException:
            self.abort()
            raise
        self.done = True
        return result

    def _swap(self) -> None:
        out = self.path
        assert self.tmp is not None
        if not out.exists():
            os.rename(self.tmp, out)
        else:
            _foreign(out, self.kind, self.flag)  # once more: nothing foreign arrived meanwhile
            old = _read_marker(out) or legacy_marker(out, self.kind)
            backup = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
            os.rmdir(backup)
            os.rename(out, backup)
            os.rename(self.tmp, out)
            listed = [MARKER, *(old["files"] if old else [])]
            if not _remove_listed(backup, listed):
                print(f"warning: kept {backup}: it holds files sim-balance did not write", file=sys.stderr)
        self.tmp = None


def _first_line(e: BaseException) -> str:
    lines = [x for x in str(e).splitlines() if x.strip()]
    return lines[0] if lines else type(e).__name__


def _is_io_error(e: BaseException) -> bool:
    """Disk full, quota, device gone: an OSError, or one that polars wraps in its own errors."""
    if isinstance(e, OSError):
        return True
    text = str(e)
    return type(e).__module__.startswith("polars") and ("os error" in text or "IO error" in text)


def _write_marker(d: Path, kind: str, command: str | None, files: Iterable[str]) -> None:
    (d / MARKER).write_text(json.dumps({"written_by": "sim-balance", "kind": kind, "command": command,
                                        "files": sorted(files)}, indent=1), encoding="utf-8")


def _remove_listed(d: Path, listed: Iterable[str]) -> bool:
    """Delete the listed files below ``d``, then every directory left empty, ``d`` last.
    True when ``d`` is gone; anything not listed stays."""
    for rel in listed:
        f = d / rel
        if f.is_file() or f.is_symlink():
            try:
                f.unlink()
            except OSError:
                pass
    for root, _dirs, _files in sorted(os.walk(d), key=lambda t: -len(t[0])):
        try:
            os.rmdir(root)
        except OSError:
            pass
    return not d.exists()


def command_line() -> str:
    """The process's command line, shell-quoted (``python -m sim …`` spelled out)."""
    argv = list(sys.argv)
    if argv and Path(argv[0]).name == "__main__.py" and Path(argv[0]).parent.name == "sim":
        argv[:1] = [Path(sys.executable).name, "-m", "sim"]
    return shlex.join(argv)


# -- sweep roots: written into, never replaced ----------------------------------------
def claim_sweep_root(root: str | Path, flag: str = "--out") -> Path:
    """Check a sweep's ``--out`` root and that it can be written, creating nothing."""
    p = check_target(root, "sweep", flag=flag)
    probe_in = _existing_ancestor(Path(os.path.abspath(p)))
    try:
        probe = tempfile.mkdtemp(prefix=TMP_TAG, dir=probe_in)
        os.rmdir(probe)
    except OSError as e:
        raise SimInputError(f"{_where(flag, p)}: cannot write there ({e.strerror or e})") from None
    return p


def register_sweep(root: Path, entry: str, command: str | None = None) -> None:
    """Create the root (mode from the umask) and list ``game=…/sweep=…`` in its marker."""
    root.mkdir(parents=True, exist_ok=True)
    mark = _read_marker(root) or legacy_marker(root, "sweep") or {"files": []}
    files = set(mark["files"]) | {entry, entry.split("/")[0]}
    if files != set(mark["files"]) or not (root / MARKER).is_file():
        tmp = root / f"{TMP_TAG}{MARKER}.{os.getpid()}"
        tmp.write_text(json.dumps({"written_by": "sim-balance", "kind": "sweep",
                                   "command": command if command is not None else command_line(),
                                   "files": sorted(files)}, indent=1), encoding="utf-8")
        os.replace(tmp, root / MARKER)


__all__ = ["MARKER", "OutDir", "SimOutputError", "check_target", "claim_sweep_root", "register_sweep",
           "command_line", "dir_mode"]
