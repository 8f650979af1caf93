"""Files shipped inside the package, found by name: the TRPG scenarios and builds
(``sim/trpg/data``), the example sweep and balance specs (``sim/examples``, a symlink to
``examples/`` in the repository) and the rules pages (``sim/rules``).

An argument that names an existing file is that file; otherwise a bare name, with or
without ``.toml``, is the shipped file of that name; otherwise one error lists them."""
from __future__ import annotations

from pathlib import Path

from sim.errors import SimInputError

PACKAGE = Path(__file__).resolve().parents[1]
EXAMPLES = PACKAGE / "examples"


def tomls(folder: Path) -> dict[str, Path]:
    """``name -> path`` of the ``*.toml`` files in ``folder`` (none if it is missing)."""
    return {p.stem: p for p in sorted(folder.glob("*.toml"))} if folder.is_dir() else {}


def find_shipped(arg: str | Path, shipped: dict[str, Path], what: str, base: Path | None = None) -> Path:
    """``arg`` (relative to ``base`` if given, else to the working directory) if that file
    exists; else the shipped file named ``arg``; else a :class:`SimInputError` naming them."""
    p = Path(arg)
    path = p if base is None or p.is_absolute() else base / p
    if path.is_file():
        return path
    if path.is_dir():
        raise SimInputError(f"{arg}: is a directory; expected a TOML file (a {what})")
    name = p.name[:-5] if p.name.endswith(".toml") else p.name
    if p.parent == Path(".") and name in shipped:
        return shipped[name]
    if name in shipped:  # a path to the repository's copy, from elsewhere: the name alone finds it
        raise SimInputError(f"{arg}: no such file here; the shipped {what} {name!r} is found by its name "
                            f"alone (give {name} instead of the path)")
    raise SimInputError(f"{arg}: no such file, and no shipped {what} of that name; "
                        f"shipped {what}s: {', '.join(shipped) or '(none)'}")


def example_spec(arg: str | Path, kind: str) -> Path:
    """A sweep (``kind = "sweeps"``) or balance (``"balance"``) spec: a file or an example by name."""
    return find_shipped(arg, tomls(EXAMPLES / kind), f"{kind.rstrip('s')} example")
