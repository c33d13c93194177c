"""normalize/methods.py: calls of bound methods of objects whose class is known become
calls of the plain function; methods of arrays stay (anf turns them into NumPy calls)."""

from __future__ import annotations

from stages import code, prepare

SOURCE = """
class Model:
    def __init__(self, s):
        self.s = s

    def apply(self, x):
        return x * self.s

    @staticmethod
    def twice(x):
        return x * 2.0


MODEL = Model(2.0)


def f(x):
    y = MODEL.apply(x)
    z = MODEL.twice(y)
    return z.sum() + x.T.sum()
"""


def test_methods_of_a_global_object_are_called_through_its_class(tmp_path):
    # a staticmethod needs no receiver: MODEL.twice already names the plain function
    stage = prepare(tmp_path, SOURCE).methods()
    assert stage.body() == code(
        """
        y = Model.apply(MODEL, x)
        z = MODEL.twice(y)
        return z.sum() + x.T.sum()
        """
    )
    assert stage.namespace.objects["Model"].__name__ == "Model"  # bound for the module
