"""The ``sim`` command: one sub-command group per game."""
from __future__ import annotations

import os
import sys

import rich.console
import typer
from typer._click import exceptions as cx  # typer ships its own click
from typer.core import TyperGroup


def _one_line(text: str) -> str:
    return " ".join(part.strip() for part in str(text).splitlines() if part.strip())


def _quiet_stdout() -> None:
    """The reader went away (``sim … | head -1``): drop the rest of the output, as Unix tools do."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _rich_broken_pipe(self) -> None:
    # rich's documented hook; its default raises SystemExit(1), Unix tools exit 0.
    _quiet_stdout()
    raise BrokenPipeError


rich.console.Console.on_broken_pipe = _rich_broken_pipe


# Every command but a sweep writes its --out directory at the end, atomically (sim.core.outdir):
# an interrupted one has written nothing, and the same command with the same seed starts over.
INTERRUPTED = ("interrupted: nothing was written (an --out directory this command was creating is removed, an "
               "older one is kept as it was); run the same command again to start over (the same seed plays "
               "the same games)")


class SimGroup(TyperGroup):
    """The root command: every failure is one ``error:`` line on stderr, never a traceback.

    Bad input (usage errors, :class:`~sim.errors.SimInputError`) exits 2; a failed write
    after the work was done exits 1; a broken pipe exits 0 quietly. ``SIM_DEBUG=1`` lets
    unexpected exceptions through with their traceback."""

    def list_commands(self, ctx):
        from sim.core.game import game_names

        own = super().list_commands(ctx)
        return [*game_names(), *LAZY, *(c for c in own if c not in LAZY)]

    def get_command(self, ctx, name):
        cmd = super().get_command(ctx, name)
        if cmd is None:
            cmd = _lazy_command(name)
            if cmd is not None:
                self.add_command(cmd, name)
        return cmd

    def invoke(self, ctx: typer.Context):
        try:
            return super().invoke(ctx)
        except (typer.Exit, cx.ClickException, typer.Abort):
            raise
        except KeyboardInterrupt:  # a sweep says more itself (its finished cells are kept)
            typer.echo(INTERRUPTED, err=True)
            raise typer.Exit(130)
        except BrokenPipeError:
            _quiet_stdout()
            raise typer.Exit(0)
        except MemoryError:
            typer.echo("error: out of memory; use fewer games or a smaller setting", err=True)
            raise typer.Exit(2)
        except IndexError as e:
            from sim.core import audit

            if not audit.enabled():  # only a bounds-checked kernel raises it on purpose
                if os.environ.get("SIM_DEBUG"):
                    raise
                typer.echo(f"error: internal error (IndexError: {_one_line(e)}); "
                           f"SIM_DEBUG=1 shows the traceback", err=True)
                raise typer.Exit(1)
            typer.echo(f"error: {_one_line(audit.explain(e))}", err=True)
            raise typer.Exit(2)
        except Exception as e:  # a bug, not the user's fault: still one line
            if os.environ.get("SIM_DEBUG"):
                raise
            typer.echo(f"error: internal error ({type(e).__name__}: {_one_line(e)}); "
                       f"SIM_DEBUG=1 shows the traceback", err=True)
            raise typer.Exit(1)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        try:
            rv = super().main(args=args, prog_name=prog_name, complete_var=complete_var,
                              standalone_mode=False, **extra)
        except cx.NoArgsIsHelpError as e:
            typer.echo(e.ctx.get_help())
            rv = 0
        except cx.UsageError as e:
            hint = f" (see {e.ctx.command_path} --help)" if e.ctx is not None else ""
            typer.echo(f"error: {_one_line(e.format_message())}{hint}", err=True)
            rv = 2
        except cx.ClickException as e:
            typer.echo(f"error: {_one_line(e.format_message())}", err=True)
            rv = e.exit_code
        except typer.Abort:
            typer.echo("error: aborted", err=True)
            rv = 130
        if not standalone_mode:
            return rv
        sys.exit(rv if isinstance(rv, int) else 0)


app = typer.Typer(
    cls=SimGroup,
    help="Monte Carlo balance analysis for Looper, Werewolf and the 3d6 TRPG. "
         "Add --check-bounds to any command that plays to compile the kernels and strategies "
         "with bounds checking (an out-of-range index in a plug-in becomes one error line "
         "naming the strategy and the array; SIM_CHECK_BOUNDS=1 does the same).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # help texts say [base], [[params]]: plain text, not rich markup
)


# Commands loaded when used (issue 42, warm start): `sim werewolf run` imports Werewolf and
# the run command, not the Looper, the TRPG, optuna's tuner or the report's figures.
# name -> (module, function, takes extra --side.knob options)
LAZY = {
    "sweep": ("sim.sweep.cli", "sweep_cmd", False),
    "compare": ("sim.sweep.cli", "compare_cmd", False),
    "report": ("sim.analysis.cli", "report_cmd", False),
    "balance": ("sim.analysis.cli", "balance_cmd", False),
    "tune": ("sim.analysis.metagame_cli", "tune_cmd", True),
    "sensitivity": ("sim.analysis.sensitivity_cli", "sensitivity_cmd", False),
    "ladder": ("sim.analysis.metagame_cli", "ladder_cmd", True),
    "equilibrium": ("sim.analysis.metagame_cli", "equilibrium_cmd", True),
}


def _typer(**kw) -> typer.Typer:
    return typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None, **kw)


def _lazy_command(name: str):
    """The click command ``name`` (a game's group or one of :data:`LAZY`), built on first use;
    None for an unknown name (click then says so)."""
    import importlib

    from sim.core.game import game_names, load_one

    if name in LAZY:
        module, attr, extra = LAZY[name]
        if extra:
            from sim.analysis.metagame_cli import _EXTRA
        t = _typer()
        t.command(name, **({"context_settings": _EXTRA} if extra else {}))(getattr(importlib.import_module(module), attr))
        return typer.main.get_command(t)
    if name not in game_names():
        return None
    from sim.analysis.competence_cli import competence_command
    from sim.analysis.values_cli import values_command
    from sim.core.game import Game
    from sim.errors import SimInputError
    from sim.game_cli import game_app, has_values

    try:
        game = load_one(name)
    except SimInputError as e:  # an installed game that does not load
        raise cx.UsageError(str(e))
    sub = game_app(game)
    if has_values(game):
        sub.command("values")(values_command(game))
    if type(game).draw_setup is not Game.draw_setup:
        sub.command("competence")(competence_command(game))
    return typer.main.get_group(sub)


@app.callback()
def _root() -> None:
    # a group, not a single command: the other commands are added when used (SimGroup)
    pass


def _register() -> None:
    from sim.core.cliutil import clean_errors

    app.command("precompile")(clean_errors(precompile_cmd))


def precompile_cmd(
    game: list[str] = typer.Argument(None, help="Games to compile (default: every one)."),
    jobs: int = typer.Option(0, "--jobs", help="Worker processes (default: one per core)."),
    light: bool = typer.Option(False, "--light", help="Leave out the kernels that take minutes to compile "
                               "(the Looper's bayes, planner and oracle_planner: they compile on first use, "
                               "saying so)."),
) -> None:
    """Compile the kernels of every built-in strategy now, in parallel processes (make
    install does this), so no later command waits for a compile."""
    from sim.core.game import game_names
    from sim.core.precompile import precompile
    from sim.errors import SimInputError, did_you_mean

    known = game_names()
    for g in game or ():
        if g not in known:
            raise SimInputError(f"no game {g!r}{did_you_mean(g, known)}; games: {', '.join(known)}")
    if jobs < 0:
        raise SimInputError("--jobs must be at least 1 (0: one per core)")
    precompile(game or (), jobs or None, light=light)


_register()


def main() -> None:
    """The console script ``sim``. ``--check-bounds`` anywhere in the arguments (taken out
    before the sub-command parses them) plays with bounds-checked kernels (sim.core.audit)."""
    from sim.core import audit

    audit.configure(sys.argv)
    app()
