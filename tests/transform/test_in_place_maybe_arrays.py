"""Updates of a slice or reshape of a value that may be no array (issue 13). The
gradients of corpus/in_place_maybe_arrays.py run with corpus/in_place.py's cases
(tests/transform/test_in_place_updates.py, forward mode in tests/forward/test_corpus.py);
these tests look at the generated code, the specialised builds, and the refusals where
the value shares memory without being a view.
"""

from __future__ import annotations

import numpy as np
import pytest
from corpus import in_place_maybe_arrays as maybe
from reference import autograd_grad

import tangentlike as tl
from tangentlike.errors import CheckError


def _forward(f) -> str:
    return tl.grad(f).source.split(f"def d{f.__name__}(")[1].split("# backward sweep")[0]


def test_the_slice_of_a_helpers_new_array_is_written_into_it():
    # the helper's summary says its second item is its own new array (analyze/tuple_items)
    # : z is a sure view of it, written into v itself, nothing asked at run time
    body = _forward(maybe.slice_of_a_tuple_item)
    assert "part_of(" not in body and "v[1:3] = " in body, body


def test_a_reshape_of_a_possible_list_is_asked_at_run_time():
    body = _forward(maybe.reshape_of_a_dict_value)
    assert "part_of(z, v," in body and "[...] = " in body, body


@pytest.mark.parametrize(
    "case", [c for c in maybe.CASES if c[3] is not None], ids=lambda c: c[0].__name__
)
def test_generic_and_specialised_builds_match_autograd(case):
    f, make, wrt, equivalent = case
    args = make()
    df = tl.grad(f, wrt=wrt)
    for _ in range(3):  # the generic build, then the one specialised to the arguments
        grads = df(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
        for i, g in zip(wrt, grads, strict=True):
            np.testing.assert_allclose(g, autograd_grad(equivalent, list(args), i), rtol=1e-7)


def test_a_value_held_in_a_dict_read_afterwards_is_refused_at_run_time():
    df = tl.grad(maybe.slice_of_a_dict_value_read_again, wrt=(0, 1))
    with pytest.raises(CheckError, match=r"`z \*= x` changes 'v' in place, and 'D'"):
        df(np.ones(4), 0.7)


def test_a_list_slice_holding_the_lists_arrays_is_refused_at_run_time():
    df = tl.grad(maybe.slice_of_a_list_held_in_a_dict)
    with pytest.raises(CheckError, match="without being a view of it") as info:
        df(np.ones(4), 0.7)
    assert "in_place_maybe_arrays.py" in str(info.value)


def test_a_name_sharing_another_part_of_the_base_is_refused_at_run_time():
    # the update is written into a copy of the base: a name still sharing the old base
    # would miss a later update of it (u here), so it must share none of the base
    df = tl.grad(maybe.two_updates_and_a_helpers_view_read, wrt=(0, 1))
    with pytest.raises(CheckError) as err:  # where v's update reaches u, at the first or
        df(np.ones(4), 0.7)  # (v a helper's new array: z a sure view of it) the second
    assert "'u'" in str(err.value) and "in_place_maybe_arrays.py:15" in str(err.value)
