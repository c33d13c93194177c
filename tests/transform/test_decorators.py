"""Decorated functions are differentiated as what is called: a functools.wraps wrapper's
own code (scaling, logging, stacked decorators) counts, tangentlike's wrappers and
functools.lru_cache are transparent, and a wrapper using its *args other than passing them
on is refused at that use, naming the decorator."""

from __future__ import annotations

import numpy as np
import pytest
from reference import check_against_fd, load_module

import tangentlike as tl
from tangentlike.errors import UnsupportedSyntaxError

SOURCE = """
import functools
import logging

import numpy as np

import tangentlike as tl

log = logging.getLogger("decorated")


def scaled(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return 2.0 * fn(*args, **kwargs)

    return wrapper


def shifted(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs) + np.sin(args_free_constant())

    return wrapper


def args_free_constant():
    return 0.25


def logged(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        log.debug("calling %s", fn.__name__)
        result = fn(*args, **kwargs)
        log.debug("done")
        return result

    return wrapper


def scaled_by(k):
    def decorator(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            return k * fn(*args, **kwargs)

        return wrapper

    return decorator


def explicit(fn):
    @functools.wraps(fn)
    def wrapper(x):
        return 3.0 * fn(x)

    return wrapper


def peeks(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if args[0] > 100.0:
            return 0.0
        return fn(*args, **kwargs)

    return wrapper


@scaled
def f_scaled(x):
    return np.sin(x) * x


@logged
def f_logged(x):
    return np.sin(x) * x


@scaled
@shifted
def f_stacked(x):
    return np.sin(x) * x


@scaled_by(1.5)
def f_parametrized(x, y=2.0, *, z=0.5):
    return np.sin(x) * y + z * x


@explicit
def f_explicit(x):
    return np.cos(x)


@functools.lru_cache
def f_cached(x):
    return np.sin(x) * x


@peeks
def f_peeks(x):
    return np.sin(x)


@scaled
def helper(x):
    return np.exp(x)


@functools.lru_cache(maxsize=8)
def cached_helper(x):
    return x * x


def calls_decorated_helper(x):
    return helper(x) * x + cached_helper(x)


class Model:
    @scaled
    def forward(self, x):
        return np.tanh(x) * 1.5

    def loss(self, x):
        return self.forward(x) * x


M = Model()


def calls_decorated_method(x):
    return M.forward(x) * x


@tl.checkpoint
@scaled
def checkpointed(x):
    return np.sin(x)


def calls_checkpointed(x):
    return checkpointed(x) * x
"""


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("decorators"), SOURCE)


CASES = [
    ("f_scaled", (0.3,)),
    ("f_logged", (0.3,)),
    ("f_stacked", (0.3,)),
    ("f_parametrized", (0.3,)),
    ("f_parametrized", (0.3, 4.0)),
    ("f_explicit", (0.3,)),
    ("f_cached", (0.3,)),
    ("calls_decorated_helper", (0.3,)),
    ("calls_decorated_method", (0.3,)),
    ("calls_checkpointed", (0.3,)),
]


@pytest.mark.parametrize(("name", "args"), CASES, ids=[f"{n}{a}" for n, a in CASES])
def test_decorated_function_gradient_matches_finite_differences(m, name, args):
    f = getattr(m, name)
    check_against_fd(f, tl.grad(f, cache=False)(*args), list(args), 0)


def test_keyword_only_parameter_of_a_decorated_function(m):
    f = m.f_parametrized
    df = tl.grad(f, cache=False)
    assert df(0.3, z=2.0) == pytest.approx(1.5 * (np.cos(0.3) * 2.0 + 2.0))


def test_decorated_method_given_to_grad(m):
    check_against_fd(m.M.forward, tl.grad(m.M.forward, cache=False)(0.3), [0.3], 0)
    check_against_fd(m.M.loss, tl.grad(m.M.loss, cache=False)(0.3), [0.3], 0)


def test_logging_decorator_is_as_transparent_as_it_is(m):
    plain = 0.3 * np.cos(0.3) + np.sin(0.3)
    assert tl.grad(m.f_logged, cache=False)(0.3) == pytest.approx(plain)
    assert tl.grad(m.f_scaled, cache=False)(0.3) == pytest.approx(2.0 * plain)


def test_wrapper_reading_its_args_is_refused_naming_the_decorator(m):
    with pytest.raises(UnsupportedSyntaxError) as info:
        tl.grad(m.f_peeks, cache=False)
    message = str(info.value)
    line = SOURCE.splitlines().index("        if args[0] > 100.0:") + 1
    assert f":{line}:12:" in message  # at `args`
    assert "if args[0] > 100.0:" in message
    assert "the decorator peeks" in message
    assert "f_peeks.__wrapped__" in message


def test_the_undecorated_function_is_still_reachable(m):
    inner = m.f_scaled.__wrapped__
    assert tl.grad(inner, cache=False)(0.3) == pytest.approx(0.3 * np.cos(0.3) + np.sin(0.3))
