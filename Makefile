# Red Captain: two commands, `make run` and `make test`. Everything else is a step of those two.
.DEFAULT_GOAL := help
SHELL := /bin/bash

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: help install run serve migrate seed test lint typecheck imports check-services test-suite test-sqlite rules-coverage bench lock clean

help:
	@echo "make run    set up everything (venv, database, reference data, demo campaign) and serve on http://$(HOST):$(PORT)"
	@echo "make test   create the venv if needed and run the whole suite (lint, types, import boundaries, tests)"
	@echo "make bench  run the benchmarks"

$(INSTALLED): pyproject.toml constraints.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(PY) -m pip install --quiet --disable-pip-version-check -c constraints.txt -e ".[dev]"
	@touch $(INSTALLED)

install: $(INSTALLED)

migrate: install
	$(PY) manage.py migrate --noinput

# The demo's printed links name the address `make run` serves on (make run HOST=... PORT=...).
seed: migrate
	$(PY) manage.py load_reference_data
	$(PY) manage.py seed_demo --base-url http://$(HOST):$(PORT)

# tests/browser/test_make_run.py runs this very target (`make -o install run`, with its own Python and a
# temporary database) and checks the site in a browser: keep make run's steps here, not in a script elsewhere.
run: seed
	$(PY) manage.py runserver $(HOST):$(PORT)

lint: install
	$(PY) -m ruff check .

typecheck: install
	$(PY) -m mypy

imports: install
	$(VENV)/bin/lint-imports

# The database tests run on PostgreSQL when it answers (always with CI=true, where its absence is an error),
# and the embedded-default slice (marker `sqlite`) runs again on SQLite.
test-suite: install
	@set -euo pipefail; \
	db_url=$$($(PY) -m tests.services database-url); \
	$(PY) -m tests.services redis-url >/dev/null; \
	echo "== test suite on $${db_url:-SQLite (PostgreSQL not reachable)}"; \
	DATABASE_URL="$$db_url" REDIS_URL= $(PY) -m pytest $(PYTEST_ARGS)

test-sqlite: install
	@echo "== embedded-default slice on SQLite"
	DATABASE_URL= REDIS_URL= $(PY) -m pytest -m sqlite -q $(PYTEST_ARGS)

# Clause coverage from the results the two runs above recorded in var/test-results/rules.json.
rules-coverage: install
	$(PY) manage.py rules_coverage

test: lint typecheck imports test-suite test-sqlite rules-coverage

bench: install
	DATABASE_URL= REDIS_URL= $(PY) -m pytest benchmarks --benchmark-only --benchmark-columns=min,mean,max,rounds $(PYTEST_ARGS)

lock:
	rm -rf /tmp/red-captain-lock && $(PYTHON) -m venv /tmp/red-captain-lock
	/tmp/red-captain-lock/bin/pip install --quiet -e ".[dev]"
	{ echo "# The whole dependency tree, pinned (pip freeze of a fresh install). make install uses it as constraints."; \
	  echo "# Regenerate with: make lock"; \
	  /tmp/red-captain-lock/bin/pip freeze --exclude-editable | grep -v '^red-captain'; } > constraints.txt

clean:
	rm -rf $(VENV) var .mypy_cache .ruff_cache .pytest_cache
