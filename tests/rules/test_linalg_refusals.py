"""Where a linear-algebra rule does not hold, the gradient refuses at run time, located
at the user's statement, instead of returning a wrong number: lstsq of a rank-deficient
matrix, eig/eigvals with complex eigenvalues (their real part is not the derivative),
sqrtm with a complex root, lu_factor of a rectangular matrix."""

from __future__ import annotations

import numpy as np
import pytest
from reference import load_module

import tangentlike as tl

SOURCE = """
import numpy as np
import scipy.linalg


def rank_deficient(x):
    a = np.outer(x, np.ones(2))
    coef, *_ = np.linalg.lstsq(a, np.ones(3), rcond=None)
    return np.sum(coef ** 2)


def rotation_eig(x):
    a = np.array([[0.0, -1.0], [1.0, 0.0]]) * x[0] + np.eye(2) * x[1]
    w, v = np.linalg.eig(a)
    return np.sum(np.real(w))


def rotation_eigvals(x):
    a = np.array([[0.0, -1.0], [1.0, 0.0]]) * x[0] + np.eye(2) * x[1]
    return np.sum(np.real(np.linalg.eigvals(a)))


def negative_sqrtm(x):
    r = scipy.linalg.sqrtm(-np.diag(x))
    return np.sum(np.real(r))


def rectangular_lu(x):
    lu, piv = scipy.linalg.lu_factor(np.outer(x, np.arange(1.0, 3.0)))
    return np.sum(lu)
"""

REFUSALS = [
    ("rank_deficient", "rank-deficient", 8),
    ("rotation_eig", "complex eigenvalues", 14),
    ("rotation_eigvals", "complex eigenvalues", 20),
    ("negative_sqrtm", "real square root", 24),
    ("rectangular_lu", "square matrices", 29),
]


@pytest.mark.parametrize(("name", "words", "line"), REFUSALS, ids=[r[0] for r in REFUSALS])
@pytest.mark.parametrize("mode", ["grad", "jvp"])
def test_refused_at_the_users_line(tmp_path, name, words, line, mode):
    f = getattr(load_module(tmp_path, SOURCE), name)
    x = np.array([0.5, 1.5, 2.0])
    with pytest.raises(tl.CheckError, match=words) as err:
        if mode == "grad":
            tl.grad(f)(x)
        else:
            tl.jvp(f)(x, np.ones(3))
    assert err.value.location is not None and err.value.location.line == line, str(err.value)
