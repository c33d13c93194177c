"""normalize/checkpoints.py: checkpoint markers read into loops the later stages know."""

from __future__ import annotations

import pytest
from stages import code, prepare

import tangentlike as tl
from tangentlike.errors import UnsupportedSyntaxError

LOOP = """
def f(x, n):
    s = x
    for i in range(n):
        s = s * 2.0
    with tl.checkpoint():
        s = np.sin(s)
    for j in tl.checkpointed(range(n), every=2):
        s = s + 1.0
    return s
"""


def test_a_checkpointed_block_is_one_step_of_a_region(tmp_path):
    assert prepare(tmp_path, LOOP).checkpoints().body() == code(
        """
        s = x
        for i in range(n):
            s = s * 2.0
        for _once1 in checkpoint_region(range(1)):
            s = np.sin(s)
        for j in tl.checkpointed(range(n), every=2):
            s = s + 1.0
        return s
        """
    )


def test_a_default_schedule_marks_every_outermost_loop_without_a_marker(tmp_path):
    text = prepare(tmp_path, LOOP).checkpoints(tl.Binomial(snapshots=2)).body()
    assert text.splitlines()[1] == "for i in checkpointed(range(n), snapshots=2):"
    assert "for j in tl.checkpointed(range(n), every=2):" in text  # its own marker kept


def test_a_loop_with_an_early_exit_keeps_no_default_schedule(tmp_path):
    source = """
def f(x, n):
    for i in range(n):
        if i > 3:
            break
        x = x * 2.0
    return x
"""
    text = prepare(tmp_path, source).checkpoints(tl.Binomial(snapshots=2)).body()
    assert "checkpointed" not in text


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (
            "for i in tl.checkpointed(range(n), every=2):\n        if i > 2:\n            break",
            "break",
        ),
        ("with tl.checkpoint():\n        return x", "return"),
    ],
)
def test_an_exit_from_a_checkpointed_loop_is_refused_at_its_line(tmp_path, body, words):
    source = f"def f(x, n):\n    {body}\n    return x\n"
    with pytest.raises(UnsupportedSyntaxError, match=words) as err:
        prepare(tmp_path, source).checkpoints()
    assert err.value.location is not None and words in err.value.location.text
