"""A list or dict argument the function writes into, copied and written back
(transform/argument_containers.py)."""

from __future__ import annotations


def own_container(x, what):
    """A shallow copy of the list or dict argument `x`, which the function then owns;
    any other value raises ValueError(what) (the gradient was built for a list or dict)."""
    if type(x) is list:
        return list(x)
    if type(x) is dict:
        return dict(x)
    raise ValueError(f"tangentlike: {what}")


def write_back_items(caller, own):
    """Give the caller's list or dict the items the function left in its copy `own`, as
    the function's writes into it would have."""
    if caller is own:
        return
    if isinstance(caller, list):
        caller[:] = own
    elif isinstance(caller, dict):
        caller.clear()
        caller.update(own)


def own_tangent(t):
    """The tangent of own_container(x): a shallow copy of x's tangent when it is a list or
    dict (the function's writes go into the copy), else the tangent as it is."""
    if isinstance(t, list):
        return list(t)
    if isinstance(t, dict):
        return dict(t)
    return t


def apart(value, others, what):
    """Raise ValueError(what) when the list or dict argument `value`, or a list or dict
    it holds, is also held by one of `others` (other arguments, globals read): the
    function's writes into its copy of `value` would not show through them at once."""

    def reach(x, found):
        if isinstance(x, (list, tuple, dict)) and id(x) not in found:
            if not isinstance(x, tuple):
                found.add(id(x))
            for part in x.values() if isinstance(x, dict) else x:
                reach(part, found)
        return found

    mine = reach(value, set())
    theirs: set[int] = set()
    for other in others:
        reach(other, theirs)
    if mine & theirs:
        raise ValueError(f"tangentlike: {what}")
