"""syntax/namespace.py: the global names of a generated module; one object per name."""

from __future__ import annotations

import numpy as np

from tangentlike.emit import codegen
from tangentlike.syntax.names import Namer
from tangentlike.syntax.namespace import Namespace


def test_bind_reuses_the_name_of_the_same_object_and_renames_a_clash():
    namespace = Namespace()
    first, second = object(), object()
    assert namespace.bind("w", first) == "w"
    assert namespace.bind("w", first) == "w"
    assert namespace.bind("w", second) == "w_2"
    assert namespace.name_of(second) == "w_2" and namespace.name_of(object()) is None


def test_bind_avoids_the_locals_of_a_namer_and_reserves_the_name():
    namespace = Namespace()
    namer = Namer(locals_={"scale"})
    assert namespace.bind("scale", 2.5, namer) == "scale_2"
    assert namer.taken("scale_2") and namer.exact("scale_2") == "scale_2_2"


def test_ref_binds_a_module_by_its_usual_alias():
    namespace = Namespace()
    assert codegen.expr_source(namespace.ref("numpy.linalg.inv")) == "linalg.inv"
    assert codegen.expr_source(namespace.ref("numpy.sum")) == "np.sum"
    assert namespace.objects["np"] is np and namespace.objects["linalg"] is np.linalg


def test_a_copy_binds_apart():
    namespace = Namespace()
    namespace.bind("a", 1)
    other = namespace.copy()
    other.bind("b", 2)
    assert set(namespace.objects) == {"a"} and set(other.objects) == {"a", "b"}
