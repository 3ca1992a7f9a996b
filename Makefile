PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
PIP := $(BIN)/pip install -q --disable-pip-version-check

.PHONY: test play bench clean

# What playing needs: jux and its dependencies, nothing else.
$(BIN)/jux: pyproject.toml
	$(PY) -m venv $(VENV)
	$(PIP) -e .
	@touch $@

# What the tests and the bench need besides: the test, charts and cluster extras.
$(VENV)/.test: $(BIN)/jux
	$(PIP) -e '.[test,cluster]'
	@touch $@

# The suite on two processes (pytest-xdist): every test starts its own servers on free ports and
# keeps its files in its own temporary folder.
test: $(VENV)/.test
	$(BIN)/pytest -n 2

play: $(BIN)/jux
	$(BIN)/jux play

bench: $(VENV)/.test
	$(BIN)/python bench/run.py
	$(BIN)/python bench/parallel.py
	$(BIN)/python bench/bots.py
	for g in capital_jux guildhall bruges; do \
		$(BIN)/python bench/ismcts_ab.py dfde39a --own-rules --iterations 200 --ruleset $$g || exit 1; done
	$(BIN)/python bench/server.py
	$(BIN)/python bench/lsp.py
	$(BIN)/python bench/balance.py

clean:
	rm -rf $(VENV) *.egg-info build
