PYTHON ?= python3

.PHONY: demo test install-test lint bench bench-checkpoint fuzz

# The main job: train the MLP on scikit-learn's bundled digits with the generated gradient.
demo:
	$(PYTHON) -m pip install -q -e ".[demo]"
	$(PYTHON) samples/mlp_digits.py

install-test:
	$(PYTHON) -m pip install -q -e ".[test,demo]"

# The project's tests, then the public API contract in ../shared/contract when it is there.
test: install-test lint
	$(PYTHON) -m pytest tests
	@if [ -d ../shared/contract ]; then $(PYTHON) -m pytest -p no:cacheprovider ../shared/contract; fi

lint:
	$(PYTHON) -m ruff check tangentlike tests samples benchmarks scripts
	$(PYTHON) -m ruff format --check tangentlike tests samples benchmarks scripts

bench:
	$(PYTHON) benchmarks/bench_mlp.py

bench-checkpoint:
	$(PYTHON) benchmarks/bench_checkpoint.py

# The differential random-program tester (tests/fuzz): N programs of seed SEED against finite
# differences and autograd; counts and the per-construct table on stdout, every wrong/crash
# program as a standalone (shrunk) reproduction in FUZZ_OUT.
N ?= 5000
SEED ?= 0
FUZZ_OUT ?= fuzz-out
fuzz:
	PYTHONPATH=$(CURDIR) $(PYTHON) -m tests.fuzz --n $(N) --seed $(SEED) --out $(FUZZ_OUT)
