# Tablier: the two commands of the README are `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/tablier serve

# tools/with-test-services.sh provides Chromium and a throwaway PostgreSQL for the browser and
# storage tests (installing them from Debian's packages where it can).
# loadgroup: the tests marked xdist_group("ray") share one worker (one Ray instance).
test: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	bash tools/with-test-services.sh $(BIN)/python -m pytest -n 2 --dist loadgroup -q

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

bench: $(STAMP)
	$(BIN)/python benchmarks/volo_speed.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
