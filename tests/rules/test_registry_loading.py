"""A registry whose built-in rule files fail to load never answers from half of them."""

from __future__ import annotations

import numpy as np
import pytest

from tangentlike.errors import InternalError
from tangentlike.rules.registry import Registry


def test_a_failed_rule_file_fails_every_later_query_instead_of_answering_from_half():
    def load(registry: Registry) -> None:
        registry.nondifferentiable({np.floor: "locally constant"})
        raise RuntimeError("a rule file is broken")

    registry = Registry()
    registry.builtins(load)
    with pytest.raises(InternalError, match="a rule file is broken"):
        registry.lookup(np.floor)
    for _ in range(2):  # later queries: the same error, not an answer from np.floor alone
        with pytest.raises(InternalError, match="loading the built-in derivative rules failed"):
            registry.is_nondifferentiable(np.floor)
