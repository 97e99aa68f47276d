# Tablier: the two commands of the README are `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# One stamp per install, both remade when pyproject.toml changes: `make run` installs what the
# web application needs (.[web]: no Ray, OpenSpiel or Playwright), `make test` everything
# (.[dev], which includes .[web], so it also counts as the web install).
WEB_STAMP := $(VENV)/.installed-web
DEV_STAMP := $(VENV)/.installed-dev
# The install compiles the compiled core (setup.py), so it is redone when a C source changes.
NATIVE_SOURCES := setup.py $(wildcard src/tablier/*/_native.c src/tablier/games/*/_native.c \
	src/tablier/*/*.h src/tablier/games/*/*.h)

.PHONY: run test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(WEB_STAMP): pyproject.toml $(NATIVE_SOURCES) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[web]'
	touch $(WEB_STAMP)

$(DEV_STAMP): pyproject.toml $(NATIVE_SOURCES) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(DEV_STAMP) $(WEB_STAMP)

run: $(WEB_STAMP)
	$(BIN)/tablier serve

# tools/with-test-services.sh provides Chromium and a throwaway PostgreSQL for the browser and
# storage tests (installing them from Debian's packages where it can).
# loadgroup: the tests marked xdist_group("ray") share one worker (one Ray instance).
# pytest also runs the docstring examples of src/ and the README's (pyproject.toml).
test: $(DEV_STAMP)
	$(BIN)/ruff check src tests benchmarks tools
	$(BIN)/ruff format --check src tests benchmarks tools
	$(BIN)/mypy
	bash tools/with-test-services.sh $(BIN)/python -m pytest -n 2 --dist loadgroup -q

lint: $(DEV_STAMP)
	$(BIN)/ruff check src tests benchmarks tools
	$(BIN)/ruff format --check src tests benchmarks tools

bench: $(DEV_STAMP)
	$(BIN)/python benchmarks/volo_speed.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis .mypy_cache
