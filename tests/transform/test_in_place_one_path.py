"""Updates of an argument rebound on one path only (issue 13). The gradients of
corpus/in_place_one_path.py run with corpus/in_place.py's cases (central differences,
autograd, the caller's arrays, forward mode); these tests look at the generated code,
the specialised builds, and what stays refused.
"""

from __future__ import annotations

import numpy as np
import pytest
from corpus import in_place_one_path as one_path
from reference import autograd_grad

import tangentlike as tl
from tangentlike.errors import CheckError


def test_the_rebound_name_is_asked_whether_it_is_the_arguments_copy():
    source = tl.grad(one_path.rebound_on_one_path_then_reshaped).source
    body = source.split("# forward sweep")[1].split("# backward sweep")[0]
    assert "same_array(y, _y_own1," in body and "_y_own1[...] = " in body, body


@pytest.mark.parametrize("case", one_path.CASES, ids=lambda c: c[0].__name__)
def test_generic_and_specialised_builds_match_autograd(case):
    f, make, wrt, equivalent = case
    args = make()
    df = tl.grad(f, wrt=wrt)
    for _ in range(3):  # the generic build, then the one specialised to the arguments
        changed = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        grads = df(*changed)
        for i, g in zip(wrt, grads, strict=True):
            np.testing.assert_allclose(g, autograd_grad(equivalent, list(args), i), rtol=1e-7)


def test_rebound_and_updated_in_the_same_loop_is_refused_where_it_shares():
    # the name is the argument's copy on the loop's entry, a new array after a round
    # that rebinds it: one run-time question cannot tell which (a limitation)
    y = np.array([0.3, 0.8, -0.4, 1.1])
    with pytest.raises(CheckError, match=r"`z \+= x \* y\[0\]` changes 'z' in place"):
        tl.grad(one_path.rebound_on_one_path_and_updated_in_a_loop, wrt=(0, 1))(y, 0.7)
