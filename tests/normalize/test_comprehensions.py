"""normalize/comprehensions.py: comprehensions become loops that append; loops iterate
`iterable(x)` (a dict's keys); a dict comprehension's keys are not differentiated."""

from __future__ import annotations

from stages import code, prepare


def lowered(tmp_path, source: str) -> str:
    return prepare(tmp_path, source).comprehensions().body()


def test_a_generator_is_consumed_like_a_list_and_its_variable_renamed(tmp_path):
    source = "def f(x, v):\n    g = sum(v * v for v in x)\n    return g + v\n"
    assert lowered(tmp_path, source) == code(
        """
        _comp1 = []
        for _v1 in iterable(x):
            _comp1.append(_v1 * _v1)
        g = sum(_comp1)
        return g + v
        """
    )


def test_nested_fors_and_conditions_nest_in_order(tmp_path):
    source = "def f(x):\n    p = [a * b for a in x for b in x if a > b]\n    return p\n"
    assert lowered(tmp_path, source) == code(
        """
        _comp1 = []
        for _a1 in iterable(x):
            for _b1 in iterable(x):
                if _a1 > _b1:
                    _comp1.append(_a1 * _b1)
        p = _comp1
        return p
        """
    )


def test_a_dict_comprehension_fills_keys_and_values(tmp_path):
    source = "def f(x, d):\n    m = {k: d[k] * x for k in d}\n    return m\n"
    assert lowered(tmp_path, source) == code(
        """
        _keys1 = []
        _values1 = []
        for _k1 in iterable(d):
            _keys1.append(stop_gradient(_k1))
            _values1.append(d[_k1] * x)
        m = dict_of(_keys1, _values1)
        return m
        """
    )


def test_loops_over_values_iterate_iterable_and_calls_stay(tmp_path):
    source = """
def f(x, d, n):
    for k in d:
        x = x + d[k]
    for i in range(n):
        x = x * 2.0
    return x
"""
    assert lowered(tmp_path, source) == code(
        """
        for k in iterable(d):
            x = x + d[k]
        for i in range(n):
            x = x * 2.0
        return x
        """
    )


def test_a_tuple_loop_over_items_reads_each_key(tmp_path):
    source = "def f(d):\n    s = 0.0\n    for k, v in d.items():\n        s = s + v\n    return s\n"
    assert lowered(tmp_path, source) == code(
        """
        s = 0.0
        for _key1 in iterable(d):
            k, v = _key1, d[_key1]
            s = s + v
        return s
        """
    )


def test_a_comprehension_in_a_branch_runs_only_on_its_branch(tmp_path):
    source = "def f(x):\n    y = x[0] if x[0] > 0 else sum([v for v in x])\n    return y\n"
    assert lowered(tmp_path, source) == code(
        """
        if x[0] > 0:
            _cond1 = x[0]
        else:
            _comp1 = []
            for _v1 in iterable(x):
                _comp1.append(_v1)
            _cond1 = sum(_comp1)
        y = _cond1
        return y
        """
    )


def test_a_comprehension_after_and_or_runs_only_when_python_evaluates_it(tmp_path):
    source = "def f(x):\n    y = x[0] > 0 and x[1] > 0 or [v for v in x]\n    return y\n"
    assert lowered(tmp_path, source) == code(
        """
        _cond1 = x[0] > 0 and x[1] > 0
        if not _cond1:
            _comp1 = []
            for _v1 in iterable(x):
                _comp1.append(_v1)
            _cond1 = _comp1
        y = _cond1
        return y
        """
    )


def test_a_comprehension_in_a_while_test_runs_before_each_test(tmp_path):
    source = "def f(x):\n    while sum([v for v in x]) < 3.0:\n        x = x * 2.0\n    return x\n"
    assert lowered(tmp_path, source) == code(
        """
        while True:
            _comp1 = []
            for _v1 in iterable(x):
                _comp1.append(_v1)
            if not sum(_comp1) < 3.0:
                break
            x = x * 2.0
        return x
        """
    )


def test_a_while_with_else_and_a_comprehension_in_its_test_runs_else_after_a_false_test(
    tmp_path,
):
    body = "while sum([v for v in x]) < 3.0:\n        x = x * 2.0\n    else:\n        x = x + 1.0"
    assert lowered(tmp_path, f"def f(x):\n    {body}\n    return x\n") == code(
        """
        _exhausted1 = False
        while True:
            _comp1 = []
            for _v1 in iterable(x):
                _comp1.append(_v1)
            if not sum(_comp1) < 3.0:
                _exhausted1 = True
                break
            x = x * 2.0
        if _exhausted1:
            x = x + 1.0
        return x
        """
    )
