"""`L[k] op= v` on items of lists and dicts the function made (issue 13): an array item
changes in place, so the out-of-place form tangentlike differentiates is the program's
meaning when the names read afterwards that held the old array are rebound to the new
one and nothing else read afterwards holds or shares it (another slot of the list, a
view); numbers in a list are rebound. `CASES`: (f, arguments, wrt, the
out-of-place program for autograd or None: f itself);
`REFUSED`: (f, arguments, words of the run-time message)."""

import numpy as np


def two_slots_not_read(y):
    v1 = y
    v2 = np.zeros(4)
    L1 = [v2, v2]
    L1[0] -= 1.1 * y
    return np.sum(v1 * y)


def two_slots_out_of_place(y):  # for autograd, whose boxes cannot go into v2 in place
    v2 = np.zeros(4)
    L1 = [v2, v2]
    L1[0] = L1[0] - 1.1 * y
    return np.sum(y * y)


def fresh_item(y):
    D = {"a": y * 1.0, "b": y}
    D["a"] += y
    return np.sum(D["a"] ** 2) + np.sum(D["b"])


def numbers(y):
    L = [y[0], y[1]]
    L[0] -= y[2]
    L[1] *= L[0]
    return L[0] + L[1]


def view_not_read(y):
    v = y * 2.0
    L = [v[0:2], 3.0]
    L[0] *= y[1:3]
    return np.sum(L[0] ** 2)


def in_a_loop(y):
    L = [y * 1.0, y * 2.0]
    for i in range(2):
        L[i] += L[1 - i] * y
    return np.sum(L[0] * L[1])


def dict_of_parameters(y):
    p = {"w": y[:2] * 1.0, "b": y[2:] + 0.0}
    for _ in range(3):
        p["w"] -= 0.1 * np.tanh(p["w"]) * p["b"]
        p["b"] /= 1.5
    return np.sum(p["w"] ** 2) + np.sum(p["b"])


def argument_in_a_dict(y):  # y changes (for the caller too): both names see it
    D = {"a": y}
    D["a"] += y
    return np.sum(y * y) + np.sum(D["a"])


def argument_in_a_dict_out_of_place(y):
    z = y + y
    return np.sum(z * z) + np.sum(z)


def name_and_slot(y):
    v = y * 2.0
    w = v
    L = [v, 1.0]
    for i in range(2):
        L[0] *= y
        L[1] += np.sum(w)
    return np.sum(v * w) + L[1]


def name_and_slot_out_of_place(y):
    v = y * 2.0
    s = 1.0
    for i in range(2):
        v = v * y
        s = s + np.sum(v)
    return np.sum(v * v) + s


def both_slots_read(y):
    v2 = np.zeros(4)
    L1 = [v2, v2]
    L1[0] -= 1.1 * y
    return np.sum(L1[0] ** 2)


def argument_view_in_a_list(y):  # the caller's y changes: refused, not followed
    L = [y[0:2], 1.0]
    L[0] += 1.0
    return np.sum(L[0] ** 2)


def other_slot_read(y):
    v = y * 2.0
    L = [v, v]
    L[0] -= y
    return np.sum(L[1] ** 2)


def view_read(y):
    v = y * 2.0
    L = [v[0:2], 3.0]
    L[0] *= y[1:3]
    return np.sum(v**2)


def argument_item_then_rebound(y):
    """y is the argument's own copy, rebound in one branch: the names holding the old
    item are rebound to the new array itself (not to `L1[0]`, which could be a list's)."""
    L1 = [y, y]
    L1[0] -= 0.5
    if np.sum(y) > 100.0:
        y /= 2.0
    else:
        y = y * 3.0
    return np.sum(y**2)


def argument_item_then_rebound_out_of_place(y):
    return np.sum(((y - 0.5) * 3.0) ** 2)


def number_held_by_a_name(y):
    """s is the very float object the slot holds: `L[0] += 1.0` puts a new float in the
    slot and leaves s as it was (only an array changes in place)."""
    s = y @ y
    t = np.sum(y) * 3.0
    L = [s, t]
    L[0] += 1.0
    return s * L[0] + t


Y = np.array([0.3, -0.7, 1.1, 0.5])

CASES = [
    (two_slots_not_read, (Y,), 0, two_slots_out_of_place),
    (fresh_item, (Y,), 0, None),
    (numbers, (Y,), 0, None),
    (view_not_read, (Y,), 0, None),
    (in_a_loop, (Y,), 0, None),
    (dict_of_parameters, (Y,), 0, None),
    (argument_in_a_dict, (Y,), 0, argument_in_a_dict_out_of_place),
    (name_and_slot, (Y,), 0, name_and_slot_out_of_place),
    (argument_item_then_rebound, (Y,), 0, argument_item_then_rebound_out_of_place),
    (number_held_by_a_name, (Y,), 0, None),
]

REFUSED = [
    (both_slots_read, (Y,), ["`L1[0] -= 1.1 * y`", "the item of 'L1'"]),
    (other_slot_read, (Y,), ["`L[0] -= y`", "the item of 'L'"]),
    (argument_view_in_a_list, (Y,), ["`L[0] += 1.0`", "the item of 'L'"]),
    (view_read, (Y,), ["`L[0] *= y[1:3]`", "the item of 'L'"]),
]
