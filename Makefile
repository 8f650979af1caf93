# Two commands do all set-up on a fresh machine: `make demo` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-heavy test-all bench install clean browser constraints mutate

$(BIN)/python:
	$(PY) -m venv $(VENV)

# `sim precompile --light`: the built-in strategies' kernels compiled now, in parallel processes
# (issue 42), so a designer's first run and the test suite load them instead of compiling —
# every game's, the Looper's players but its filter's (bayes, planner, oracle_planner: ten to
# twenty CPU minutes each cold; `sim precompile looper` builds them too; docs/performance.md).
# constraints.txt: the versions known to pass (pip freeze of a passing venv, updated on
# purpose: `make constraints`); pyproject.toml keeps the compatible ranges for users.
$(STAMP): pyproject.toml examples/race/pyproject.toml constraints.txt | $(BIN)/python
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -c constraints.txt -e ".[test]"
	$(BIN)/python -m pip install -q -c constraints.txt -e ./examples/race
	$(BIN)/sim precompile --light
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/sim looper run --games 200000 --seed 1 --out demo-out/looper
	$(BIN)/sim werewolf run --games 1000000 --seed 1 --out demo-out/werewolf
	$(BIN)/sim trpg run alley --games 100000 --seed 1 --out demo-out/trpg
	$(BIN)/sim sweep examples/sweeps/trpg_alley.toml --games 5000 --out demo-out/sweeps
	$(BIN)/sim report demo-out/sweeps/game=trpg/sweep=alley-melee --out demo-out/report

# Second pass: the kernels run as plain Python under NUMBA_DISABLE_JIT (coverage, debugging).
# Every differential test (engine vs the naive reference in tests/naive) runs here too;
# those files compare fewer games when numba.config.DISABLE_JIT is set.
# tests/test_looper_posterior.py is of the heavy tier (its kernels hold the Looper's filter) but
# runs here as plain Python in under a minute: the filter's properties, checked inside the
# kernel's code on hypothesis-drawn scripts, stay in `make test`. tests/test_looper_bayes_exact.py
# runs only here: its probe reads the particles into Python lists (the exact-posterior oracle).
NOJIT_TESTS := tests/test_looper_golden.py tests/test_core.py tests/test_looper_diff.py \
	tests/test_werewolf_diff.py tests/test_trpg_diff.py tests/test_werewolf_rules.py \
	tests/test_honest_core.py tests/test_looper_posterior.py tests/test_looper_bayes_exact.py

# The report's browser test needs Chromium: Debian's package where apt-get can install it
# (the test skips, saying why, where it cannot). Playwright drives it (a test dependency).
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  { command -v apt-get >/dev/null 2>&1 && \
	    { apt-get install -y -q chromium >/dev/null 2>&1 || \
	      { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q chromium >/dev/null 2>&1; }; }; } || \
	  echo "note: chromium could not be installed; tests/test_report_browser.py will be skipped"

# Two workers each pass. `--dist loadfile`: a file's tests share their kernels, so one worker
# compiles them instead of both (cold, 2026-12-03: 46.6 against 52.9 CPU minutes; compiling is
# most of the suite). `--durations=30` lists where the time went. The plain-Python pass
# compiles nothing: tests are spread one by one (155 s against 301 s on one worker).
#
# The heavy tier (`-m heavy`, docs/testing.md) is left to `make test-heavy`: the tests that compile
# a kernel of the Looper's filter players (bayes, planner, oracle_planner), one to twenty CPU
# minutes each from a cold cache (more when nothing of the filter is in the helpers' cache) (a fresh-clone run of 2026-12-06 did not finish in 90 minutes
# with them). `make test-all` runs both.
test: $(STAMP) browser
	$(BIN)/python -m pytest -q -n 2 --dist loadfile --durations=30 -m "not heavy" tests
	$(BIN)/python -m pytest -q -n 2 --dist loadfile examples/race/tests
	NUMBA_DISABLE_JIT=1 $(BIN)/python -m pytest -q -n 2 -p no:randomly -W ignore::RuntimeWarning $(NOJIT_TESTS)

test-heavy: $(STAMP)
	$(BIN)/python -m pytest -q -n 2 --dist loadfile --durations=30 -m heavy tests

test-all: test test-heavy

# Mutation testing (docs/testing.md): each named bug of tools/mutants.py against its fast tests.
mutate: $(STAMP)
	$(BIN)/python tools/mutate.py

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_looper.py
	$(BIN)/python benchmarks/bench_werewolf.py
	$(BIN)/python benchmarks/bench_trpg.py
	$(BIN)/python benchmarks/bench_sweep.py
	$(BIN)/python benchmarks/bench_skill.py
	$(BIN)/python benchmarks/bench_compile.py

constraints: $(STAMP)
	$(BIN)/python -m pip freeze --exclude-editable | grep -v -i "^sim[-_]" > constraints.txt

clean:
	rm -rf $(VENV) demo-out sweep-out balance-out report
