PYTHON ?= python3

.PHONY: demo test test-checks install-test lint bench bench-checkpoint

# The main job: train the MLP on scikit-learn's bundled digits with the generated gradient.
demo:
	$(PYTHON) -m pip install -q -e ".[demo]"
	$(PYTHON) samples/mlp_digits.py

install-test:
	$(PYTHON) -m pip install -q -e ".[test,demo]"

# The project's tests, then the public API contract in ../shared/contract when it is there;
# then the whole suite again in debug mode, where every generated gradient checks its stack
# and the shapes of its adjoints as it runs (golden tests pin plain mode).
test: install-test lint
	$(PYTHON) -m pytest tests
	@if [ -d ../shared/contract ]; then $(PYTHON) -m pytest -p no:cacheprovider ../shared/contract; fi
	TANGENTLIKE_CHECKS=1 $(PYTHON) -m pytest tests

test-checks:
	TANGENTLIKE_CHECKS=1 $(PYTHON) -m pytest tests

lint:
	$(PYTHON) -m ruff check tangentlike tests samples benchmarks scripts
	$(PYTHON) -m ruff format --check tangentlike tests samples benchmarks scripts

bench:
	$(PYTHON) benchmarks/bench_mlp.py

bench-checkpoint:
	$(PYTHON) benchmarks/bench_checkpoint.py
