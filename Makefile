# Every target creates .venv when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench lint clean clean-cache

# the install compiles the package's bytecode too: pip compiles an installed package, not an editable
# one, and with PYTHONDONTWRITEBYTECODE set every run would compile its sources again (0.1-0.2 s a run)
$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,dask]'
	$(BIN)/python -m compileall -q analyzer
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/analyze simulate --game skull-island --n 1e6

# one worker per core; a test file's tests stay on one worker, so a module's shared fixture is built once;
# bytecode written even under PYTHONDONTWRITEBYTECODE, so that the processes the tests start (commands,
# Dask workers) read the package's and the tests' compiled modules instead of compiling them again; the
# ten slowest tests listed at the end, where a change that slows the suite shows
test: $(STAMP)
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n auto --dist loadfile --durations=10

# BASELINE=<git revision> also times every simulation figure in that revision, in turn with this one
bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

lint: $(STAMP)
	$(BIN)/pip install --quiet ruff
	$(BIN)/ruff check analyzer tests benchmarks

clean: clean-cache
	rm -rf $(VENV) build *.egg-info

# every compiled kernel (each is stamped with its game's and the engine's sources, so edits recompile it anyway)
clean-cache:
	find analyzer tests -name __pycache__ -type d -prune -exec rm -rf {} +
