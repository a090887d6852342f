# Two commands: `make serve` and `make test`. Each sets up what it needs first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 0.0.0.0
PORT ?= 8000
# the secure address beside the plain one; HTTPS_PORT=off for none
HTTPS_PORT ?= 8443

.PHONY: serve test check lint fuzz install install-test system-packages translations messages clean

# the app reads compiled catalogues (.mo); they are built from the .po files, never committed
CATALOGUES := $(wildcard translations/*/LC_MESSAGES/messages.po)

# uv installs the packages: the same wheels from the same index as pip, resolved and fetched
# in parallel (a fresh virtualenv's test tools in some 3 s, against 18 s for pip)
$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# a virtualenv made before uv was used gets it too
$(BIN)/uv: | $(BIN)/python
	$(BIN)/pip install --quiet uv

UV_PIP := $(BIN)/uv pip install --quiet --python $(BIN)/python

# the stamp files re-run the install only when the package's requirements change
$(VENV)/.installed: pyproject.toml | $(BIN)/uv
	$(UV_PIP) -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/uv
	$(UV_PIP) -e '.[test]'
	touch $@ $(VENV)/.installed

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

install: $(VENV)/.installed

install-test: $(VENV)/.installed-test node_modules/.installed system-packages

system-packages:
	scripts/system-packages.sh

translations: $(CATALOGUES:.po=.mo)

translations/%/LC_MESSAGES/messages.mo: translations/%/LC_MESSAGES/messages.po | $(BIN)/python
	$(BIN)/python -m babel.messages.frontend -q compile -i $< -o $@ -l $*

# after changing a message in the code or templates: refresh the .pot and every .po
messages: install
	$(BIN)/python tools/i18n.py extract

serve: install translations
	HOST=$(HOST) PORT=$(PORT) HTTPS_PORT=$(HTTPS_PORT) $(BIN)/companion serve

# the tests start `companion serve` processes by the dozen: each reads the package's
# compiled files, instead of compiling every module again, when they can be written
unexport PYTHONDONTWRITEBYTECODE

# parallel test workers (pytest-xdist); TEST_WORKERS=0 runs the suite in this one process.
# Three on two cores for the SQLite pass, whose browser tests wait on pages and servers (218 s
# against 227 s with two); two for the PostgreSQL pass, where the database server wants the
# rest of the CPU (83 s against 97 s with three). docs/benchmarks.md, "The test suite"
TEST_WORKERS ?= 3
PG_TEST_WORKERS ?= 2

# every test on SQLite, then the tests that reach a database (marked `database` by
# tests/conftest.py) on a throwaway PostgreSQL server of their own; browser tests drive the
# phone's view, the same on either database, so they run once. The second pass accepts
# pytest's 5 (no test chosen): PYTEST_ARGS may name only tests without a database
test: install-test translations lint
	$(BIN)/python -m pytest -n $(TEST_WORKERS) $(PYTEST_ARGS)
	scripts/with-postgres.sh $(BIN)/python -m pytest -n $(PG_TEST_WORKERS) -m "database and not browser" $(PYTEST_ARGS) || [ $$? -eq 5 ]

# the inner loop: lint, then every test that needs no browser and no PostgreSQL (SQLite only).
# Three workers on two cores, a test file to each: many of these tests wait on server
# processes, which a module's tests share, and a third worker fills that wait (79 s, against
# 94 s for two workers taking tests one by one; docs/benchmarks.md)
CHECK_WORKERS ?= 3
check: install-test translations lint
	$(BIN)/python -m pytest -n $(CHECK_WORKERS) --dist loadfile -m "not browser" $(PYTEST_ARGS)

# the style of the whole tree (ruff: lint and format), the package's types (mypy --strict)
# and its layers (import-linter), as pyproject.toml configures them
LINTED := companion tests benchmarks tools
lint: install-test
	$(BIN)/ruff check $(LINTED)
	$(BIN)/ruff format --check $(LINTED)
	$(BIN)/mypy
	$(BIN)/lint-imports

# the hostile-input tests with ten times their examples (minutes, not seconds): before a release
fuzz: install-test translations
	COMPANION_FUZZ_SCALE=10 $(BIN)/python -m pytest tests/test_hostile_input.py $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) node_modules .pytest_cache translations/*/LC_MESSAGES/*.mo
