# Red Captain: two commands, `make run` and `make test`. Everything else is a step of those two.
.DEFAULT_GOAL := help
SHELL := /bin/bash

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
# The suite runs on pytest-xdist workers, one a core up to four (each has its own test database and Redis
# database); TEST_WORKERS=0 runs it in one process.
TEST_WORKERS ?= $(shell n=$$(nproc 2>/dev/null || echo 1); echo $$(( n < 4 ? n : 4 )))
XDIST := -n $(TEST_WORKERS) --dist worksteal

.PHONY: help install run serve migrate seed test lint typecheck imports check-services test-suite test-sqlite rules-coverage bench lock clean \
	fast fast-check uncompile pure-only

help:
	@echo "make run    set up everything (venv, database, reference data, demo campaign) and serve on http://$(HOST):$(PORT)"
	@echo "make test   create the venv if needed and run the whole suite (lint, types, import boundaries, tests)"
	@echo "make bench  run the benchmarks"
	@echo "make fast   optional: compile the battle AI's hot modules with mypyc (a C compiler needed; make uncompile undoes it)"

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
test-suite: install pure-only
	@set -euo pipefail; \
	db_url=$$($(PY) -m tests.services database-url); \
	$(PY) -m tests.services redis-url >/dev/null; \
	echo "== test suite on $${db_url:-SQLite (PostgreSQL not reachable)}"; \
	DATABASE_URL="$$db_url" REDIS_URL= $(PY) -m pytest $(XDIST) $(PYTEST_ARGS)

test-sqlite: install pure-only
	@echo "== embedded-default slice on SQLite"
	DATABASE_URL= REDIS_URL= $(PY) -m pytest -m sqlite -q $(XDIST) $(PYTEST_ARGS)

# Clause coverage from the results the two runs above recorded in var/test-results/rules.json.
rules-coverage: install
	$(PY) manage.py rules_coverage

test: pure-only lint typecheck imports test-suite test-sqlite rules-coverage

bench: install
	DATABASE_URL= REDIS_URL= $(PY) -m pytest benchmarks --benchmark-only --benchmark-columns=min,mean,max,rounds $(PYTEST_ARGS)

lock:
	rm -rf /tmp/red-captain-lock && $(PYTHON) -m venv /tmp/red-captain-lock
	/tmp/red-captain-lock/bin/pip install --quiet -e ".[dev]"
	{ echo "# The whole dependency tree, pinned (pip freeze of a fresh install). make install uses it as constraints."; \
	  echo "# Regenerate with: make lock"; \
	  /tmp/red-captain-lock/bin/pip freeze --exclude-editable | grep -v '^red-captain'; } > constraints.txt

# Optional, never a step of run or test: the battle AI's hottest pure modules compiled in place with mypyc (README,
# "Faster battles"). Python imports a module's .so before its .py, so `make uncompile` is the way back to pure Python.
# mypyc reads its own minimal strict settings (--config-file= skips pyproject's, whose Django plugins it cannot
# load) and its own cache, so the project's mypy cache is left alone.
# The set is what the profile of a Pitched Battle puts on top (the AI's move search and its geometry) and compiles
# as it stands. Left out, as mypyc cannot compile them unchanged: modules with a Protocol, a cached_property or a
# dataclass's unannotated class constant (state, board, bridge, policies, galleons/record ...).
COMPILED := battles/engine/hexgrid.py battles/engine/events.py battles/engine/jsonread.py \
	battles/aikit/memo.py battles/aikit/search.py battles/aikit/ties.py \
	battles/rules/sky_galleons/tactics.py battles/rules/sky_galleons/ai_reading.py \
	battles/rules/sky_galleons/ai_moves.py battles/rules/sky_galleons/movement.py \
	battles/rules/sky_galleons/candidates.py battles/rules/sky_galleons/queries.py \
	battles/rules/sky_galleons/scenario_ai.py
MYPYC_OPT_LEVEL ?= 2
COMPILED_FILES = find battles galleons -name '*.so'; find . -maxdepth 1 -name '*__mypyc.*.so'

fast: install
	{ $(COMPILED_FILES); } | xargs -r rm -f
	MYPYC_OPT_LEVEL=$(MYPYC_OPT_LEVEL) $(VENV)/bin/mypyc --config-file= --strict --python-version 3.11 \
		--cache-dir build/mypyc-cache $(COMPILED)
	@echo "compiled: $$( { $(COMPILED_FILES); } | wc -l) extension modules; make uncompile to go back to pure Python"

# The compiled modules must behave exactly as the pure ones: the battle fingerprints, byte for byte, on the build.
fast-check: fast
	$(PY) -c 'import importlib, sys; pure = [m for m in sys.argv[1:] if not importlib.import_module(m).__file__.endswith(".so")]; \
		sys.exit(f"not compiled: {pure}" if pure else 0)' $(subst /,.,$(COMPILED:.py=))
	DATABASE_URL= REDIS_URL= $(PY) -m pytest tests/rules/sky_galleons/test_fingerprints.py -q -p no:cacheprovider \
		$(PYTEST_ARGS)

uncompile:
	{ $(COMPILED_FILES); } | xargs -r rm -f
	rm -rf build

# The suite tests the pure-Python path: it refuses to run over a compiled build rather than test the build instead.
pure-only:
	@if [ -n "$$( { $(COMPILED_FILES); } )" ]; then \
		echo "make test runs the pure-Python modules, but compiled ones are in place (make fast): make uncompile first"; \
		exit 1; fi

clean: uncompile
	rm -rf $(VENV) var .mypy_cache .ruff_cache .pytest_cache
