"""Second order through a dict comprehension's adjoint helper (undict_of) and a
checkpointed block's container copy (copied): rules/runtime_containers.py. Each was
refused ("has no second-order rule yet") when a gradient calling it was differentiated
again. Hessian-vector products forward over reverse and reverse over reverse and
Hessians, against central differences of tangentlike's own gradient (autograd has no
dicts of boxes to compare with here), and reverse over forward.

Still refused, located, by other checks: a dict comprehension in a loop at second order
(its keys' list, restored from the gradient's stack, reads as differentiated: dict_of
has no gradient for its keys), and a jvp of a dict comprehension differentiated again."""

from __future__ import annotations

import numpy as np
import pytest
from reference import fd_hvp, load_module

import tangentlike as tl
from tangentlike.errors import UnsupportedSyntaxError

SOURCE = """
import numpy as np

import tangentlike as tl
from tangentlike.runtime import copied

KEYS = ["a", "b", "c"]


def f_comprehension(x):
    d = {k: x[i] ** 2 for i, k in enumerate(KEYS)}
    return d["a"] * d["c"] + np.sin(d["b"])


def f_repeated_key(x):
    d = {k: x[i] * x[3] for i, k in enumerate(["a", "b", "a"])}
    return d["a"] ** 2 * d["b"]


def f_over_items(x):
    base = {"p": x[0], "q": x[1] * x[2]}
    d = {k: np.exp(v) * x[3] for k, v in base.items()}
    return d["p"] * d["q"]


def f_copied(x):
    xs = copied([x[0], x[1] ** 2, np.sin(x[2])])
    return xs[0] * xs[1] * xs[2] + x[3] * xs[1]


def f_copied_dict(x):
    d = copied({"a": x[0] * x[3], "b": x[1]})
    return d["a"] ** 2 * np.sin(d["b"])


def f_block(x):
    xs = [x[0], x[1]]
    for i in range(3):
        with tl.checkpoint():
            xs[0] = xs[0] * np.sin(xs[1]) + x[2]
            xs[1] = xs[1] + 0.1 * xs[0]
    return xs[0] * xs[1]


def phi_of(jf):
    def phi(x, v):
        return jf(x, v)[1]

    return phi
"""

NAMES = [
    "f_comprehension",
    "f_repeated_key",
    "f_over_items",
    "f_copied",
    "f_copied_dict",
]
X = np.array([0.7, 1.3, -0.4, 0.9])
V = np.array([0.3, -0.5, 0.8, 0.2])


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(tmp_path_factory.mktemp("dict_comp2"), SOURCE, name="tl_second_dict_comp")


@pytest.mark.parametrize("method", ["forward", "reverse"])
@pytest.mark.parametrize("case", NAMES)
def test_hvp(m, case, method):
    f = getattr(m, case)
    hv = tl.hvp(f, method=method)(X, V)
    np.testing.assert_allclose(hv, fd_hvp(f, X, V), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("case", ["f_comprehension", "f_repeated_key", "f_copied"])
def test_hessian(m, case):
    f = getattr(m, case)
    H = tl.hessian(f)(X)
    columns = [fd_hvp(f, X, e) for e in np.eye(X.size)]
    np.testing.assert_allclose(H, np.array(columns).T, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("case", ["f_copied", "f_copied_dict"])
def test_gradient_of_the_jvp(m, case):
    """copied's forward form differentiated in reverse (a dict comprehension's jvp is
    refused before: its tangents' list is appended to while it may be shared)."""
    f = getattr(m, case)
    hv = tl.grad(m.phi_of(tl.jvp(f)))(X, V)
    np.testing.assert_allclose(hv, fd_hvp(f, X, V), rtol=1e-6, atol=1e-8)


def test_checkpointed_block_of_a_list_is_refused(m):
    """A `with tl.checkpoint()` block writing into a list copies it (copied, which has a
    rule now); what the gradient saves of the overwritten items (saved_item) is refused,
    located, for a list copied from another container: never a wrong second derivative."""
    with pytest.raises(UnsupportedSyntaxError, match="saved_item") as info:
        tl.hvp(m.f_block)(X, V)
    assert "xs[0] = xs[0] * np.sin(xs[1]) + x[2]" in str(info.value)
