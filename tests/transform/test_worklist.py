"""The worklist driver lays every callee variant out once, after the function that first
requested it, whatever the order in which variants request each other."""

from __future__ import annotations

import re

import numpy as np
from reference import check_against_fd, load_module

import tangentlike as tl

SOURCE = """
import numpy as np

def leaf(x):
    return np.sin(x) * x

def left(x):
    return leaf(x) + x * x

def right(x):
    return np.cos(x) * 2.0

def shared(x):
    return leaf(x) * right(x)

def top(x):
    a = left(x)
    b = right(x)
    c = shared(x)
    return np.sum(a * b + c)
"""


def test_each_variant_is_defined_once_and_after_its_first_caller(tmp_path):
    m = load_module(tmp_path, SOURCE)
    df = tl.grad(m.top)
    names = re.findall(r"^def (\w+)\(", df.source, re.M)
    assert len(names) == len(set(names)), names
    for callee in ("leaf", "right"):  # requested by two callers: defined once
        assert names.count(f"_fwd_{callee}") == 1
    # every function is defined before the functions that call it
    assert names.index("_bwd_leaf") < names.index("_bwd_left")
    assert names.index("_bwd_right") < names.index("_bwd_shared") < names.index("dtop")
    x = np.linspace(0.1, 1.0, 4)
    check_against_fd(m.top, df(x), (x,), 0)
