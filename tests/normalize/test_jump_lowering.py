"""normalize/jumps.py: break, continue and early return become flags and structured
control flow; one return, last. (tests/normalize/test_jumps.py checks the gradients
of every combination end to end.)"""

from __future__ import annotations

from stages import code, prepare


def lowered(tmp_path, source: str) -> str:
    return prepare(tmp_path, source).desugar().jumps().body()


def test_break_turns_the_loop_into_a_while_on_a_flag(tmp_path):
    source = """
def f(x, n):
    s = 0.0
    for i in range(n):
        if i > 2:
            break
        s = s + x
    return s
"""
    assert lowered(tmp_path, source) == code(
        """
        s = 0.0
        _stop1 = False
        _seq1 = range(n)
        _k1 = 0
        while not _stop1 and _k1 < len(_seq1):
            _at1 = _k1
            i = _seq1[_at1]
            _k1 = _at1 + 1
            _skip1 = False
            if i > 2:
                _skip1 = True
                _stop1 = True
            if not _skip1:
                s = s + x
        return s
        """
    )


def test_continue_skips_the_rest_of_the_body_and_else_runs_after_the_loop(tmp_path):
    source = """
def f(x, n):
    s = x
    for i in range(n):
        if s > 3.0:
            continue
        s = s * 2.0
    else:
        s = s + 1.0
    return s
"""
    assert lowered(tmp_path, source) == code(
        """
        s = x
        for i in range(n):
            _skip1 = False
            if s > 3.0:
                _skip1 = True
            if not _skip1:
                s = s * 2.0
        s = s + 1.0
        return s
        """
    )


def test_an_early_return_sets_the_result_and_a_flag(tmp_path):
    source = """
def f(x):
    if x > 1.0:
        return x * 2.0
    y = x * 3.0
    return y
"""
    assert lowered(tmp_path, source) == code(
        """
        f = None
        _returned1 = False
        if x > 1.0:
            f = x * 2.0
            _returned1 = True
        if not _returned1:
            y = x * 3.0
            f = y
            _returned1 = True
        return f
        """
    )


def test_a_function_without_jumps_is_unchanged(tmp_path):
    source = "def f(x, n):\n    for i in range(n):\n        x = x * 2.0\n    return x\n"
    assert lowered(tmp_path, source) == code(
        """
        for i in range(n):
            x = x * 2.0
        return x
        """
    )
