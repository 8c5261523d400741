# Every target creates .venv when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench lint clean clean-cache

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,dask]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/analyze simulate --game skull-island --n 1e6

# one worker per core; a test file's tests stay on one worker, so a module's shared fixture is built once
test: $(STAMP)
	$(BIN)/python -m pytest -n auto --dist loadfile

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
