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


def test_piped_stderr_gets_one_plain_line_unless_silenced(monkeypatch, capsys):
    """Never a silent wait, also for a script or a CI log (issue 42): one line, no spinner;
    SIM_COMPILE_NOTICE=0 (as the suite sets for its error-line tests) silences it."""
    monkeypatch.delenv("SIM_COMPILE_NOTICE", raising=False)
    C.playing("looper", {"player": "oracle_key", "scriptwriter": "random"})
    with C.compile_notice(delay=0.01):
        time.sleep(0.3)
    err = capsys.readouterr().err
    assert err == "compiling the looper kernel for oracle_key vs random — first use only, cached after\n"
    monkeypatch.setenv("SIM_COMPILE_NOTICE", "0")
    with C.compile_notice(delay=0.01):
        time.sleep(0.2)
    assert capsys.readouterr().err == ""
