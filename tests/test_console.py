"""The commands' console: a table written to a file or a pipe keeps its rows whole."""
from rich.table import Table

from sim.core.console import PIPE_WIDTH, out_console


def _table():
    t = Table()
    t.add_column("permanent moves")
    t.add_row("verge_of_madness → ruins; socrates_in_love → underworld; attention_seeker → school")
    return t


def test_a_table_written_to_a_pipe_keeps_its_rows_whole(monkeypatch, capsys):
    """rich draws for 80 columns when stdout is no terminal, which cut the exploit list's
    cells into slivers; the commands' console is PIPE_WIDTH wide there."""
    monkeypatch.delenv("COLUMNS", raising=False)
    con = out_console()  # pytest's captured stdout is not a terminal
    assert con.width == PIPE_WIDTH
    con.print(_table())
    out = capsys.readouterr().out
    assert "verge_of_madness → ruins; socrates_in_love → underworld; attention_seeker → school" in out


def test_columns_and_an_explicit_width_win(monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    assert out_console().width == 100
    monkeypatch.delenv("COLUMNS")
    assert out_console(width=90).width == 90
