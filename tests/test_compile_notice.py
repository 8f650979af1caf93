"""A compile is never a silent wait (sim/core/compile_notice.py, issue 42)."""
import time

from sim.core import compile_notice as C


def test_a_slow_first_call_says_what_compiles(monkeypatch, capsys):
    monkeypatch.setenv("SIM_COMPILE_NOTICE", "1")
    C.playing("werewolf", {"village": "claims", "wolves": "my.mod:wolves"})
    with C.compile_notice(delay=0.05):
        time.sleep(0.4)
    err = capsys.readouterr().err
    assert "compiling the werewolf kernel for claims vs my.mod:wolves — first use only, cached after" in err


def test_a_fast_call_says_nothing(monkeypatch, capsys):
    monkeypatch.setenv("SIM_COMPILE_NOTICE", "1")
    with C.compile_notice(delay=0.5):
        pass
    assert capsys.readouterr().err == ""


def test_piped_stderr_stays_quiet_unless_asked(monkeypatch, capsys):
    monkeypatch.delenv("SIM_COMPILE_NOTICE", raising=False)
    with C.compile_notice(delay=0.01):
        time.sleep(0.2)
    assert capsys.readouterr().err == ""  # error-line tests read stderr: only errors there
