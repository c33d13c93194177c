"""Masks remove their construct and keep the program's value."""

from __future__ import annotations

import numpy as np
import pytest

from .generator import generate
from .masks import MASKS, mask, names
from .program import ENTRY, copy_args, draw_inputs, namespace

CASES = {
    "negative-base": ("return (-1.1) ** 2 * x + (-1.0) ** n * x", "** 2", "(-"),
    "modulo": ("return x % 0.7 + np.mod(x, 1.3) + np.fmod(-x, 0.4)", "np.floor", "%"),
    "concat": ("return np.sum(np.r_[y, y[1:]] + np.c_[y, y][:, 0].sum())", "concatenate", "r_"),
    "inplace": ("z = y\n    z += x\n    np.multiply(y, y, out=z)\n    return np.sum(y)", "=", "+="),
}


@pytest.mark.parametrize("name", sorted(MASKS))
def test_a_mask_removes_its_construct(name):
    body, present, absent = CASES[name]
    source = f"import numpy as np\n\n\ndef f(x, y, n):\n    {body}\n"
    masked = mask(source, (name,))
    assert present in masked and absent not in masked.split("def f")[1], masked


def test_masks_keep_the_value_of_arithmetic_programs():
    kept = 0
    for i in range(80):
        program = generate(6, i)
        masked = mask(program.source, ("negative-base", "modulo", "concat"))
        args = draw_inputs(program, 0)
        try:
            with np.errstate(all="ignore"):
                expected = namespace(program.source, np, "<t>")[ENTRY](*copy_args(args))
        except Exception:
            continue
        with np.errstate(all="ignore"):
            value = namespace(masked, np, "<t>")[ENTRY](*copy_args(args))
        assert np.allclose(value, expected, rtol=1e-9, equal_nan=True), masked
        kept += 1
    assert kept > 60


def test_mask_names_are_checked():
    assert names("all") == tuple(MASKS)
    assert names("") == ()
    with pytest.raises(ValueError, match="unknown mask"):
        names("modulo,nope")
