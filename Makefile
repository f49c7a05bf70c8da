# mlcourse: `make run` serves the app, `make test` runs every test. See README.md.
# With DATABASE_URL unset both use an embedded PostgreSQL under var/; with it set, that server.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
HOST   ?= 127.0.0.1
PORT   ?= 8000
# Development and test runs; production sets DEBUG=0 and a real SECRET_KEY itself.
export DEBUG ?= 1
WITH_DB := $(PY) -m apps.common.devdb exec
MANAGE  := $(WITH_DB) $(PY) manage.py

.PHONY: install run setup test lint format bench backup restore browser db-url db-stop shell clean

$(VENV)/.installed: requirements.lock requirements-dev.lock pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.lock
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

install: $(VENV)/.installed node_modules/.installed

## Migrate, load the seed decks, create the demo accounts: everything but serving.
setup: install
	$(MANAGE) migrate --noinput
	$(MANAGE) createcachetable
	$(MANAGE) load_content
	$(MANAGE) create_demo_accounts
	$(MANAGE) create_demo_cohort

run: setup
	@echo "Serving on http://$(HOST):$(PORT)/  (demo accounts: student / learn-ml-2026, instructor / teach-ml-2026)"
	LOG_FORMAT=$${LOG_FORMAT:-text} $(MANAGE) runserver $(HOST):$(PORT)

## Debian's Chromium for the browser tests, when it is missing and we may install it.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
	      || echo "Could not install chromium: browser tests will be skipped."; \
	  else echo "chromium is missing and cannot be installed here: browser tests will be skipped."; fi; }

test: install browser
	$(WITH_DB) $(PY) -m pytest $(PYTEST_ARGS)

## Answer throughput under 32 clients against gunicorn, and cohort dashboards over 1,000,000 answers,
## on a throwaway <database>_bench (tests/bench/). Options: make bench BENCH_ARGS="answers --seconds 30".
bench: install
	$(WITH_DB) $(PY) -m tests.bench $(BENCH_ARGS)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/bandit --quiet --recursive --severity-level medium apps mlcourse

## pg_dump of the database (custom format) into var/backups/; `make restore FILE=...` into an empty database.
backup: install
	$(MANAGE) backup_db

restore: install
	@test -n "$(FILE)" || { echo "usage: make restore FILE=var/backups/mlcourse-....dump"; exit 2; }
	$(MANAGE) restore_db "$(FILE)"

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

db-url: install
	@$(PY) -m apps.common.devdb url

db-stop: install
	$(PY) -m apps.common.devdb stop

shell: install
	$(MANAGE) shell

clean:
	rm -rf $(VENV) node_modules staticfiles .pytest_cache .ruff_cache
