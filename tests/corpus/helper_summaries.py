"""What callers know of the helpers they call (issue 13: random programs refused).

- A helper returning a tuple (`s, v = h(x)`): the items that are the helper's own new
  memory (analyze.tuple_items) share nothing with each other nor with the caller's
  arrays, and an item that is an array is known to be one: an update through a view
  of v writes into v (seed 0 programs 71, 200, 231: refused at run time before,
  since s and v seemed to share memory and v might have been a list); a helper's
  result that is an array by its Effects is one for its caller (program 995).
- A helper whose result is not used and that writes into no argument it is given
  (analyze.plain_calls: no call it makes can write, and its Effects change none of
  them): the call cannot move a differentiated value into another (programs 449,
  558: refused before).
- Helpers that change a parameter in place called so often that their inlined
  bodies passed the old budget of 100 statements (programs 303, 532, 775): inlined
  now, up to 200 statements (normalize.helper_calls), so the caller differentiates
  their updates. (Programs 157, 461, 665 need 300 to 400: they took 10 to 20 s to
  build on a loaded machine, and stay refused.) A call whose changed parameters
  receive only temporaries read by it alone (`h(v * i, ...)`) is called as it is:
  the caller reads nothing it changes (program 4 stays right; inlined, v * i might
  have been a list written into).
- A loop that ends early (return or break) right after an in-place update of an
  array the loop's sequence holds: that sequence is read only by a round that never
  runs (analyze.liveness follows the stop flag).

CASES as in corpus.in_place (function, arguments, wrt, out-of-place equivalent);
corpus.in_place runs them (central differences, autograd on the equivalent, value),
tests/forward/test_corpus.py in forward mode, tests/transform/test_helper_summaries.py
in generic and specialised builds. REFUSED: programs that must stay refused.
"""

import autograd.numpy as anp
import numpy as np


def _r(seed):
    return np.random.RandomState(seed)


def _num_vec():
    return (0.7, np.array([0.3, -0.5, 1.2, 0.4]))


# -- tuples of new arrays ---------------------------------------------------------------
def pair(a, b):
    c = -1.1 - -3.0
    return 0.0, np.array([c, c, 3.0, c]) * np.sin(a) + np.cos(b)


def tuple_items_updated(x, y):
    s, v = pair(x, y)
    z = v[1:3]
    z *= 2.5
    return np.sum(np.sin(v)) + s * x + np.sum(z**2)


def _scaled_middle(v, k):
    return anp.concatenate([v[:1], v[1:3] * k, v[3:]])


def pair_oop(a, b):  # pair for autograd (the out-of-place twins call helpers written so)
    c = -1.1 - -3.0
    return 0.0, anp.array([c, c, 3.0, c]) * anp.sin(a) + anp.cos(b)


def tuple_items_updated_oop(x, y):
    s, v = pair_oop(x, y)
    v = _scaled_middle(v, 2.5)
    z = v[1:3]
    return anp.sum(anp.sin(v)) + s * x + anp.sum(z**2)


def tuple_items_in_a_loop(x, y):
    total = 0.0
    for k in range(3):
        s, v = pair(x * k, y)
        z = v[1:3]
        z *= 1.5
        total = total + np.sum(v * y) + s
    return total


def tuple_items_in_a_loop_oop(x, y):
    total = 0.0
    for k in range(3):
        s, v = pair_oop(x * k, y)
        v = _scaled_middle(v, 1.5)
        total = total + anp.sum(v * y) + s
    return total


def tuple_items_on_a_branch(x, y):
    if x > 0.0:
        s, v = pair(x, y)
    else:
        s, v = 1.0, y * 2.0
    z = v[1:3]
    z -= x
    return np.sum(v**2) + s


def tuple_items_on_a_branch_oop(x, y):
    if x > 0.0:
        s, v = pair_oop(x, y)
    else:
        s, v = 1.0, y * 2.0
    v = anp.concatenate([v[:1], v[1:3] - x, v[3:]])
    return anp.sum(v**2) + s


def _neg_num_vec():
    return (-0.7, np.array([0.3, -0.5, 1.2, 0.4]))


def tuple_items_by_keyword(x, y):
    s, v = pair(b=y, a=x)
    z = v[::2]
    z *= x
    return np.sum(v * v) + s


def tuple_items_by_keyword_oop(x, y):
    s, v = pair_oop(b=y, a=x)
    v = v * anp.array([x, 1.0, x, 1.0])
    return anp.sum(v * v) + s


def pair_early(a, b):
    if a > 5.0:
        return None
    w = np.tanh(b) * a
    return w, np.sum(w)


def tuple_of_an_early_return(x, y):
    w, t = pair_early(x, y)
    r = w[0:2]
    r *= 3.0
    return np.sum(w**2) + t


def tuple_of_an_early_return_oop(x, y):
    w = anp.tanh(y) * x
    t = anp.sum(w)
    w = anp.concatenate([w[0:2] * 3.0, w[2:]])
    return anp.sum(w**2) + t


def negated(a):
    return -(np.array([a, a, 2.0 * a, a]) / 1.25)


def negated_oop(a):
    return -(anp.array([a, a, 2.0 * a, a]) / 1.25)


def nested_pair(a):
    return negated(a), a / -1.0


def item_of_a_nested_result(x, y):
    v, s = nested_pair(x)
    z = v[1:3]
    z *= y[1:3]
    return np.sum(v**2) + s


def item_of_a_nested_result_oop(x, y):
    v, s = negated_oop(x), x / -1.0
    v = anp.concatenate([v[:1], v[1:3] * y[1:3], v[3:]])
    return anp.sum(v**2) + s


def view_of_a_helper_result(x, y):
    v = negated(x)
    z = v[::2]
    z += y[1::2]
    return np.sum(v**2) * x


def view_of_a_helper_result_oop(x, y):
    v = negated_oop(x)
    v = v + anp.array([y[1], 0.0, y[3], 0.0])
    return anp.sum(v**2) * x


# -- calls whose result is not used ------------------------------------------------------
def norm_of(a, b):
    return np.sum(a * b)


def through(a, b):
    return norm_of(a, b) + np.max(a)


def unused_result(x, y):
    t = norm_of(y, y * x)  # noqa: F841 (the result unused)
    return np.sum(y**2) * x


def unused_result_oop(x, y):
    return np.sum(y**2) * x


def unused_results_in_a_loop(x, y):
    total = 0.0
    for k in range(2):
        t = through(b=y, a=y * x)  # noqa: F841 (the result unused)
        if x > 0.0:
            u = norm_of(y, x)  # noqa: F841 (the result unused)
        total = total + np.sum(y * k) * x
    return total


def unused_results_in_a_loop_oop(x, y):
    total = 0.0
    for k in range(2):
        total = total + np.sum(y * k) * x
    return total


# -- many calls of a helper that changes its parameter -----------------------------------
def damp(a, b):
    s = 0.0
    for e in a:
        s = s + np.tanh(e) * 0.5
        if e > 2.0:
            s = s - e * 0.1
    t = np.cos(a) * 0.25 + np.sin(b) * 0.1
    u = t * t + np.abs(a) * 0.01
    w = np.sqrt(u + 1.0) - 1.0
    b *= 0.9
    b += 0.05 * t + 0.01 * w
    return s + np.sum(t**2) + np.mean(w)


def damp_oop(a, b):
    s = 0.0
    for e in a:
        s = s + anp.tanh(e) * 0.5
        if e > 2.0:
            s = s - e * 0.1
    t = anp.cos(a) * 0.25 + anp.sin(b) * 0.1
    u = t * t + anp.abs(a) * 0.01
    w = anp.sqrt(u + 1.0) - 1.0
    b = b * 0.9
    b = b + (0.05 * t + 0.01 * w)
    return s + anp.sum(t**2) + anp.mean(w), b


def damped_many(x, y):
    r1 = damp(y * x, y)
    r2 = damp(np.sin(y), y)
    r3 = damp(y + x, y)
    r4 = damp(np.cos(y) * x, y)
    r5 = damp(y - x, y)
    return r1 + r2 * r3 + r4 - r5 + np.sum(y**2) * x


def damped_many_oop(x, y):
    r1, y = damp_oop(y * x, y)
    r2, y = damp_oop(anp.sin(y), y)
    r3, y = damp_oop(y + x, y)
    r4, y = damp_oop(anp.cos(y) * x, y)
    r5, y = damp_oop(y - x, y)
    return r1 + r2 * r3 + r4 - r5 + anp.sum(y**2) * x


def shift_in_place(a, b):
    z = a
    z += -b
    w = a[1:3]
    w *= 2.0
    return b @ a


def shift_oop(a, b):
    a = a - b
    a = anp.concatenate([a[:1], a[1:3] * 2.0, a[3:]])
    return anp.dot(b, a)


def temporary_argument(x, y):
    v = y if x > 0 else y  # noqa: RUF034 (as the random programs write it: maybe a list)
    total = 0.0
    for i in range(3):
        total = total + shift_in_place(v * i, y * x)
    return total


def temporary_argument_oop(x, y):
    total = 0.0
    for i in range(3):
        total = total + shift_oop(y * i, y * x)
    return total


def comprehension_update(a):
    a /= np.cumsum(a) ** 2 + 1.0
    a += 0.5 ** sum([np.sum(a) for e in a])
    np.multiply(a, a, out=a)
    return np.sum(a)


def comprehension_update_oop(a):
    a = a / (anp.cumsum(a) ** 2 + 1.0)
    a = a + 0.5 ** sum([anp.sum(a) for e in a])
    return anp.sum(a * a)


def modulo_argument(x, y):
    return x * comprehension_update(y % 1.5)  # inlined: y % 1.5 is no list


def modulo_argument_oop(x, y):
    return x * comprehension_update_oop(y % 1.5)


# -- updates just before a loop ends early -----------------------------------------------
def list_loop_return(x, y):
    v = y * 1.0
    rows = [v, v * 2.0]
    for r in rows:
        if np.sum(r) > -100.0:
            v *= x
            return np.sum(v**2)
    return x


def list_loop_return_oop(x, y):
    v = y * 1.0
    return np.sum((v * x) ** 2)


def list_loop_break(x, y):
    v = y * 1.0
    rows = [v, v * 2.0]
    for r in rows:
        if np.sum(r) > x:
            v *= x
            break
    return np.sum(v**2)


def list_loop_break_oop(x, y):
    v = y * 1.0
    rows = [v, v * 2.0]
    for r in rows:
        if np.sum(r) > x:
            v = v * x
            break
    return np.sum(v**2)


CASES = [
    (tuple_items_updated, _num_vec, (0, 1), tuple_items_updated_oop),
    (tuple_items_in_a_loop, _num_vec, (0, 1), tuple_items_in_a_loop_oop),
    (tuple_items_on_a_branch, _num_vec, (0, 1), tuple_items_on_a_branch_oop),
    (tuple_items_on_a_branch, _neg_num_vec, (0, 1), tuple_items_on_a_branch_oop),
    (tuple_items_by_keyword, _num_vec, (0, 1), tuple_items_by_keyword_oop),
    (tuple_of_an_early_return, _num_vec, (0, 1), tuple_of_an_early_return_oop),
    (item_of_a_nested_result, _num_vec, (0, 1), item_of_a_nested_result_oop),
    (view_of_a_helper_result, _num_vec, (0, 1), view_of_a_helper_result_oop),
    (unused_result, _num_vec, (0, 1), unused_result_oop),
    (unused_results_in_a_loop, _num_vec, (0, 1), unused_results_in_a_loop_oop),
    (damped_many, _num_vec, (0, 1), damped_many_oop),
    (temporary_argument, _num_vec, (0, 1), temporary_argument_oop),
    (modulo_argument, _num_vec, (0, 1), modulo_argument_oop),
    (list_loop_return, _num_vec, (0, 1), list_loop_return_oop),
    (list_loop_break, _num_vec, (0, 1), list_loop_break_oop),
    (list_loop_break, lambda: (10.0, _r(1).randn(4)), (0, 1), list_loop_break_oop),
]


# -- what must stay refused ----------------------------------------------------------------
def same_twice(a):
    v = a * 2.0
    return v, v


def shared_items(x, y):
    p, q = same_twice(y * x)
    p *= 3.0
    return np.sum(q**2)


def param_item(a):
    return a, a * 2.0


def argument_item_updated(x, y):
    p, q = param_item(y)
    p *= x
    return np.sum(q**2) + np.sum(y)


def copy_into(a, x):
    np.copyto(a, x)
    return 0.0


def put_into(a, x):
    np.put(a, [0], x)
    return 0.0


def copy_through(a, x):
    return copy_into(a, x)


def unused_copyto(x, y):
    t = copy_into(y, x)  # noqa: F841 (the result unused)
    return np.sum(y**2) * x


def unused_put(x, y):
    t = put_into(y, x)  # noqa: F841 (the result unused)
    return np.sum(y**2) * x


def unused_copy_through(x, y):
    t = copy_through(y, x)  # noqa: F841 (the result unused)
    return np.sum(y**2) * x


def first_copied(v):
    np.copyto(v, v[::-1])
    return v[0]


def largest_by(a, x):
    return max([a, x * a], key=first_copied)


def unused_key_call(x, y):
    t = largest_by(y, x)  # noqa: F841 (the result unused)
    return np.sum(y**2) * x


# (function, arguments, "build" or "run" as in corpus.in_place.REFUSED, words)
REFUSED = [
    (shared_items, _num_vec, "run", ["`p *= 3.0`", "'q'"]),
    (argument_item_updated, _num_vec, "run", ["`p *= x`", "'y'"]),
    # refused where the helper writes (transform/in_place.py: np.copyto, np.put change
    # their first argument, which the helper's summary says)
    (unused_copyto, _num_vec, "build", ["np.copyto(...) writes into its first argument"]),
    (unused_put, _num_vec, "build", ["np.put(...) writes into its first argument"]),
    (unused_copy_through, _num_vec, "build", ["np.copyto(...) writes into its first argument"]),
    (unused_key_call, _num_vec, "build", ["largest_by(...) is not used"]),
]
