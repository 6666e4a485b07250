# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PORT   ?= 8000

.PHONY: run test test-redis test-deep bench install clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

## Start the embedded Redis (data in ./var), the workers and the API on :$(PORT) (make run PORT=8001).
run: $(STAMP)
	$(BIN)/kroniek run --port $(PORT)

## The whole suite; Redis-backed tests use REDIS_URL if set, else the embedded Redis.
test: $(STAMP)
	$(BIN)/python -m pytest

## Only the tests that talk to Redis (store, queue, workers, API).
test-redis: $(STAMP)
	$(BIN)/python -m pytest -m redis

## The legality property over every game with its deep profile (many more, longer matches; minutes).
test-deep: $(STAMP)
	KRONIEK_LEGALITY_PROFILE=deep $(BIN)/python -m pytest tests/engine/test_every_game_legality.py -p no:cacheprovider

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
