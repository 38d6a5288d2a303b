# The two commands a fresh clone needs: `make run` and `make test`.
# Both create .venv and install the pinned stack on first use.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
OUT    ?= results

.PHONY: install run test test-slow test-all bench lint docs clean

$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -c constraints.txt -e '.[plot,dev,docs]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)          ## compare pdFTSP, Titan, EFT, NTM with the offline optimum (or its proven bound)
	$(BIN)/aisched compare lora --out $(OUT)

test: $(STAMP)         ## the default (fast) test suite
	$(BIN)/python -m pytest -q -n 2 --dist loadfile --durations=25

test-slow: $(STAMP)    ## only the tests marked slow (CI runs them after make test)
	$(BIN)/python -m pytest -q -n 2 --dist loadfile -m slow --durations=15

test-all: $(STAMP)     ## including tests marked slow
	$(BIN)/python -m pytest -q -n 2 --dist loadfile -m ''

bench: $(STAMP)        ## paper-scale timings and the start-up time (prints figures)
	$(BIN)/python benchmarks/bench_startup.py
	$(BIN)/python benchmarks/bench_pdftsp.py
	$(BIN)/python benchmarks/bench_spot.py
	$(BIN)/python benchmarks/bench_comdos.py
	$(BIN)/python benchmarks/bench_astraea.py
	$(BIN)/python benchmarks/bench_sweep.py

docs: $(STAMP)         ## the documentation site (Sphinx + numpydoc; warnings fail): docs/site/_build/html/index.html
	$(BIN)/python -m sphinx -W --keep-going -q -b html -d docs/site/_build/doctrees docs/site docs/site/_build/html

lint: $(STAMP)
	$(BIN)/python -m pip install -q ruff
	$(BIN)/ruff check aisched tests benchmarks

clean:
	rm -rf $(VENV) $(OUT) .pytest_cache .hypothesis
