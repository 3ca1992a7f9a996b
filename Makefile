PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: test play bench clean

$(BIN)/jux: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test,cluster]'
	@touch $@

test: $(BIN)/jux
	$(BIN)/pytest

play: $(BIN)/jux
	$(BIN)/jux play

bench: $(BIN)/jux
	$(BIN)/python bench/run.py
	$(BIN)/python bench/parallel.py
	$(BIN)/python bench/bots.py

clean:
	rm -rf $(VENV) *.egg-info
