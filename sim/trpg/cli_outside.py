"""TRPG outside-combat commands: ``growth``, ``labour``, ``sleep`` and ``check`` (exact, icepool).

A sub-app; the caller registers it (e.g. under ``sim trpg``).
"""
from __future__ import annotations

import csv
import io
import json
import re
from fractions import Fraction
from pathlib import Path
from typing import Dict, Optional

import typer
from rich.table import Table

from sim.core.cliutil import clean_errors, emit_json
from sim.core.console import out_console
from sim.errors import SimInputError

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None)

SKILLS_HELP = ("16 skill values in sheet order (physical, sense, intellect, mind; 4 each): inline "
               "'10,9,8,…' or 'name=10,…', or a .csv / .json / .toml file")


def _pq(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def _prob_json(d: Dict[str, Fraction]) -> dict:
    return {k: {"p": float(v), "exact": _pq(v)} for k, v in d.items()}


def _prob_table(title: str, d: Dict[str, Fraction]) -> Table:
    t = Table(title=title)
    for c in ("outcome", "probability", "exact"):
        t.add_column(c, justify="left" if c == "outcome" else "right")
    for k, v in d.items():
        t.add_row(k, f"{float(v):.6f}", _pq(v))
    return t


def _die_rows(die) -> list:
    return [{"value": int(v), "p": float(die.probability(v)), "exact": _pq(die.probability(v))}
            for v in die.outcomes()]


def _die_table(title: str, die) -> Table:
    t = Table(title=title)
    for c in ("value", "probability", "exact"):
        t.add_column(c, justify="right")
    for v in die.outcomes():
        p = die.probability(v)
        t.add_row(str(v), f"{float(p):.6f}", _pq(p))
    return t


# --- skills input -----------------------------------------------------------------------------
def _parse_skill_text(text: str, source: str):
    rows = [r for r in csv.reader(io.StringIO(text)) if any(c.strip() for c in r)]
    # "name,value" rows (optionally under a header)
    if rows and all(len(r) == 2 for r in rows):
        body = rows[1:] if not re.fullmatch(r"\s*-?\d+\s*", rows[0][1]) else rows
        if body and all(re.fullmatch(r"\s*-?\d+\s*", r[1]) for r in body) and not all(
                re.fullmatch(r"\s*-?\d+\s*", r[0]) for r in body):
            return {r[0].strip(): int(r[1]) for r in body}
    tokens = [t for t in re.split(r"[,;\s]+", text) if t]
    if tokens and all("=" in t for t in tokens):
        out = {}
        for t in tokens:
            name, _, val = t.partition("=")
            if not name or not re.fullmatch(r"-?\d+", val):
                raise SimInputError(f"bad skill entry {t!r} in {source} (expected name=integer)")
            out[name] = int(val)
        return out
    bad = [t for t in tokens if not re.fullmatch(r"-?\d+", t)]
    if bad or not tokens:
        raise SimInputError(f"cannot read skills from {source}: expected 16 integers or name=value pairs"
                            + (f", got {bad[0]!r}" if bad else ""))
    return [int(t) for t in tokens]


def load_skills(spec: str):
    """Skills from an inline CSV or a file (CSV text, JSON list/object, TOML table)."""
    spec = spec.strip()
    if not spec:
        raise SimInputError("--skills is empty")
    path = Path(spec)
    looks_like_file = path.suffix.lower() in (".csv", ".txt", ".json", ".toml") or "/" in spec
    try:
        is_file = path.is_file()
    except OSError:
        is_file = False
    if not is_file:
        if looks_like_file:
            raise SimInputError(f"skills file not found: {spec}")
        return _parse_skill_text(spec, "--skills")
    text = path.read_text(encoding="utf-8")
    suffix = path.suffix.lower()
    if suffix == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise SimInputError(f"{spec}: bad JSON ({e})") from None
    elif suffix == ".toml":
        import tomllib

        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise SimInputError(f"{spec}: bad TOML ({e})") from None
    else:
        return _parse_skill_text(text, spec)
    if isinstance(data, dict) and "skills" in data:
        from sim.core.schema import ANY, check_keys

        check_keys(data, {"skills": ANY}, spec)  # a [skills] table and nothing else
        data = data["skills"]
    if not isinstance(data, (dict, list)):
        raise SimInputError(f"{spec}: expected a list of 16 skills or a table of them")
    return data


# --- commands -----------------------------------------------------------------------------------
@app.command("check")
@clean_errors
def check_cmd(
    target: int = typer.Option(..., "--target", help="The skill value plus modifiers."),
    penalty: int = typer.Option(0, "--penalty", help="Added to the roll."),
    as_json: bool = typer.Option(False, "--json"),
):
    """Exact probabilities of a 3d6 check (R-1: natural 3 critical, natural 18 fumble)."""
    from sim.trpg.dice import check_probability

    p = check_probability(target, penalty)
    if as_json:
        emit_json({"target": target, "penalty": penalty, "probabilities": _prob_json(p)})
        return
    out_console().print(_prob_table(f"3d6 check: target {target}, penalty {penalty:+d}", p))


@app.command("labour")
@clean_errors
def labour_cmd(
    skill: int = typer.Option(..., "--skill", help="The job skill value."),
    penalty: int = typer.Option(0, "--penalty", help="Added to the roll (e.g. the sleep penalty)."),
    critical_double: bool = typer.Option(False, "--critical-double", help="A critical doubles the CR (R-2 reading)."),
    as_json: bool = typer.Option(False, "--json"),
):
    """One labour slot: job check, 2d6 CR either way, 1d6 MP lost on a failure (exact)."""
    from sim.trpg.outside import labour_exact

    r = labour_exact(skill, penalty, critical_double=critical_double)
    if as_json:
        emit_json({"skill": skill, "penalty": penalty, "critical_double": critical_double,
                   "check": _prob_json(r.check),
                   "expected_cr": {"value": float(r.expected_cr), "exact": _pq(r.expected_cr)},
                   "expected_mp_lost": {"value": float(r.expected_mp_lost), "exact": _pq(r.expected_mp_lost)},
                   "cr": _die_rows(r.cr), "mp_lost": _die_rows(r.mp_lost)})
        return
    con = out_console()
    con.print(f"[bold]Labour[/bold] — job skill {skill}, penalty {penalty:+d}: expected CR "
              f"[bold]{float(r.expected_cr):.4f}[/bold] ({_pq(r.expected_cr)}), expected MP lost "
              f"[bold]{float(r.expected_mp_lost):.4f}[/bold] ({_pq(r.expected_mp_lost)})")
    con.print(_prob_table("job check", r.check))
    con.print(_die_table("CR gained", r.cr))
    con.print(_die_table("MP lost", r.mp_lost))


@app.command("sleep")
@clean_errors
def sleep_cmd(
    awake: float = typer.Option(..., "--awake", help="Hours awake."),
    slept: float = typer.Option(0.0, "--slept", help="Hours slept (in the day)."),
    skill: Optional[int] = typer.Option(None, "--skill", help="Also give a check against this value."),
    penalty: int = typer.Option(0, "--penalty", help="Other roll penalties of that check."),
    mp: Optional[int] = typer.Option(None, "--mp", help="Current MP (with --max-mp: cap the recovery)."),
    max_mp: Optional[int] = typer.Option(None, "--max-mp"),
    as_json: bool = typer.Option(False, "--json"),
):
    """Sleep: the roll penalty from lack of sleep and the MP restored (1d6 per 3 h)."""
    from sim.trpg.dice import check_probability
    from sim.trpg.outside import HOURS_PER_DIE, sleep_mp_recovery, sleep_penalty

    pen = sleep_penalty(awake, slept)
    rec = sleep_mp_recovery(slept, mp, max_mp)
    dice = f"{int(slept // HOURS_PER_DIE)}d6"
    chk = check_probability(skill, penalty + pen) if skill is not None else None
    if as_json:
        out = {"awake": awake, "slept": slept, "penalty": pen, "recovery_dice": dice,
               "expected_recovery": {"value": float(rec.mean()), "exact": _pq(Fraction(rec.mean()))},
               "recovery": _die_rows(rec)}
        if chk is not None:
            out["check"] = {"target": skill, "penalty": penalty + pen, "probabilities": _prob_json(chk)}
        emit_json(out)
        return
    con = out_console()
    con.print(f"[bold]Sleep[/bold] — {awake:g} h awake, {slept:g} h slept: roll penalty [bold]{pen:+d}[/bold]; "
              f"MP restored {dice}{' (capped)' if mp is not None else ''}, expected "
              f"{float(rec.mean()):.4f} ({_pq(Fraction(rec.mean()))})")
    if chk is not None:
        con.print(_prob_table(f"check against {skill}, penalty {penalty + pen:+d}", chk))


@app.command("growth")
@clean_errors
def growth_cmd(
    skills: str = typer.Option(..., "--skills", help=SKILLS_HELP),
    rolls: int = typer.Option(..., "--rolls", "-k", help="Growth rolls (1–2 gag, 3–4 easy, 5–6 long or deadly)."),
    amount: int = typer.Option(1, "--amount", help="Raise per growth (R-14: 1)."),
    choice: str = typer.Option("lowest", "--choice", help="The player's free choice: lowest | highest | random"),
    as_json: bool = typer.Option(False, "--json"),
):
    """Exact distribution of every skill after K growth rolls (R-14)."""
    from sim.trpg.outside import growth_distribution

    d = growth_distribution(load_skills(skills), rolls, amount=amount, choice=choice)
    if as_json:
        emit_json(d.to_json())
        return
    con = out_console()
    con.print(f"[bold]Growth[/bold] — {rolls} roll(s) of +{amount}, free choice [cyan]{choice}[/cyan]; "
              f"{len(d.weights):,} distinct outcomes (exact)")
    exp, margs = d.expected(), d.marginals()
    t = Table(title="per skill (exact fractions: --json)")
    for c in ("skill", "start", "mean final", "mean gain", "P(raised)"):
        t.add_column(c, justify="left" if c == "skill" else "right", no_wrap=True)
    for i, n in enumerate(d.names):
        raised = 1 - margs[i].get(d.start[i], Fraction(0))
        t.add_row(n, str(d.start[i]), f"{float(exp[i]):.4f}", f"{float(exp[i] - d.start[i]):.4f}", f"{float(raised):.4f}")
    con.print(t)
