# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# Compiled bytecode is kept under the venv, never beside the sources, and
# written even where the environment says PYTHONDONTWRITEBYTECODE (which
# means: keep .pyc out of my tree): without it every Python process the
# suite starts (the test processes, each `kroniek run` and its worker and
# API, each CLI call of the docs' examples) compiled every module again,
# and pytest rewrote every test module's asserts in each test process.
export PYTHONPYCACHEPREFIX := $(CURDIR)/$(VENV)/pycache
unexport PYTHONDONTWRITEBYTECODE
# What the browser tests inject into the pages (axe-core), pinned by its lock file.
NODE_STAMP := tests/browser/node_modules/.installed
# Pyodide, which runs engine/ in the match page, pinned by its lock file and served by the app itself.
PYODIDE_DIR   := service/web/pyodide
PYODIDE_STAMP := $(PYODIDE_DIR)/node_modules/.installed
# the files of it a page loads, served gzipped (a .gz beside each)
PYODIDE_FILES := pyodide.js pyodide.asm.js pyodide.asm.wasm python_stdlib.zip pyodide-lock.json
PORT   ?= 8000
# where `make run` keeps the embedded Redis's data
VAR    ?= var

.PHONY: run test test-redis test-deep screenshots bench install clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	@# compiled once here, on both cores, rather than by each test process at once in the first run
	$(BIN)/python -m compileall -q -j 0 $$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])') \
		engine leagues replays service workers > /dev/null
	touch $(STAMP)

$(NODE_STAMP): tests/browser/package.json tests/browser/package-lock.json
	npm ci --prefix tests/browser --ignore-scripts --no-audit --no-fund
	touch $(NODE_STAMP)

# Without npm the pages still work, online, without their own engine (and say so); `make run` goes on.
$(PYODIDE_STAMP): $(PYODIDE_DIR)/package.json $(PYODIDE_DIR)/package-lock.json
	@if command -v npm > /dev/null; then \
	  npm ci --prefix $(PYODIDE_DIR) --ignore-scripts --no-audit --no-fund --omit=dev && \
	  for f in $(PYODIDE_FILES); do gzip -9 -k -f -n $(PYODIDE_DIR)/node_modules/pyodide/$$f; done && \
	  touch $(PYODIDE_STAMP); \
	else echo "npm not found: the pages will run without their own engine (online only, as docs/ui.md says)"; fi

install: $(STAMP) $(NODE_STAMP) $(PYODIDE_STAMP)

## Start the embedded Redis (data in ./var), the workers and the API on :$(PORT) (make run PORT=8001);
## make run LAN=1 serves the phones on this machine's local network (kroniek run --lan).
run: $(STAMP) $(PYODIDE_STAMP)
	$(BIN)/kroniek run --port $(PORT) --var $(VAR)$(if $(LAN), --lan)

# Test processes run side by side (pytest-xdist); each starts its own embedded
# Redis (or uses REDIS_URL, with key prefixes of its own). Some tests wait on
# servers, workers and a browser, so one process more than the 2 cores pays;
# two more cost more than they gave (on 2 cores: 352 s with 3, 373 s with 4,
# 398 s with 2). make test TEST_WORKERS=1 runs them one by one.
TEST_WORKERS ?= 3
PYTEST := $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal --durations=15

## The whole suite; Redis-backed tests use REDIS_URL if set, else the embedded Redis.
test: $(STAMP) $(NODE_STAMP) $(PYODIDE_STAMP)
	$(PYTEST)

## Only the tests that talk to Redis (store, queue, workers, API).
test-redis: $(STAMP)
	$(PYTEST) -m redis

## The browser tests, writing their screenshots into docs/img (a plain test run writes them to a temporary folder).
screenshots: $(STAMP) $(NODE_STAMP) $(PYODIDE_STAMP)
	KRONIEK_SCREENSHOTS=docs/img $(BIN)/python -m pytest -n $(TEST_WORKERS) tests/test_web.py tests/test_web_*.py

## The legality property over every game with its deep profile (many more, longer matches), and the worked
## Swiss league run 20 times, four at a time (the suite runs it 8 times); minutes.
test-deep: $(STAMP)
	KRONIEK_LEGALITY_PROFILE=deep KRONIEK_SWISS_RUNS=20 $(PYTEST) --timeout=3600 -p no:cacheprovider \
		tests/engine/test_every_game_legality.py \
		tests/test_worker_faults.py::test_the_swiss_league_example_completes_every_time_four_leagues_at_a_time

bench: $(STAMP) $(PYODIDE_STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis tests/browser/node_modules $(PYODIDE_DIR)/node_modules
