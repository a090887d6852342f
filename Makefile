# Two commands: `make serve` and `make test`. Each sets up what it needs first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 0.0.0.0
PORT ?= 8000

.PHONY: serve test install install-test system-packages clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# the stamp files re-run pip only when the package's requirements change
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

install: $(VENV)/.installed

install-test: $(VENV)/.installed-test node_modules/.installed system-packages

system-packages:
	scripts/system-packages.sh

serve: install
	HOST=$(HOST) PORT=$(PORT) $(BIN)/companion serve

# the whole suite twice: on SQLite, then on a throwaway PostgreSQL server of its own
test: install-test
	$(BIN)/python -m pytest $(PYTEST_ARGS)
	scripts/with-postgres.sh $(BIN)/python -m pytest $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) node_modules .pytest_cache
