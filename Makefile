PYTHON ?= python3

.PHONY: demo test test-checks install-test lint bench bench-quick install-bench bench-mlp bench-checkpoint fuzz

# The main job: train the MLP on scikit-learn's bundled digits with the generated gradient.
demo:
	$(PYTHON) -m pip install -q -e ".[demo]"
	$(PYTHON) samples/mlp_digits.py

install-test:
	$(PYTHON) -m pip install -q -e ".[test,demo,jit]"

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

# The benchmark suite: every workload, every contender, against hand-written gradients
# (benchmarks/README.md). Needs the bench extra (JAX, a CPU torch, tangent-ad, autograd);
# a contender that is not installed is reported n/a. BENCH_ARGS="--only mlp --json run.json".
bench:
	$(PYTHON) -m benchmarks.suite $(BENCH_ARGS)

bench-quick:
	$(PYTHON) -m benchmarks.suite --quick $(BENCH_ARGS)

install-bench:
	$(PYTHON) -m pip install -q -e ".[bench]"

# The MLP gradient alone, with per-line costs of the generated code (--lines).
bench-mlp:
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
