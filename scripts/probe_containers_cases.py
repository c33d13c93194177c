"""The cases of scripts/probe_containers.py: ordinary Python that issue 13 (language and
containers) lists, one small function each."""

# ruff: noqa  (plain user code, written as users write it)
import numpy as np


# ---- item assignment into lists/dicts
def list_const_index(x):
    out = [0.0, 0.0, 0.0]
    out[0] = x[0] * 2
    out[2] = x[1] * x[2]
    return out[0] + out[1] + out[2] * 3


def list_loop_index(x):
    n = 3
    out = [0.0] * n
    for i in range(n):
        out[i] = x[i] * 2
    return out[0] * out[1] + out[2]


def list_loop_recurrence(x):
    out = [0.0] * 3
    out[0] = x[0]
    for i in range(1, 3):
        out[i] = out[i - 1] * x[i]
    return sum(out)


def dict_const_key(x):
    d = {}
    d["a"] = x[0] * 2
    d["b"] = np.sin(x[1])
    return d["a"] * d["b"]


def dict_computed_key(x):
    d = {}
    for k in ["p", "q", "r"]:
        d[k] = x[len(d)] ** 2
    return d["p"] + d["q"] * d["r"]


def dict_overwrite(x):
    d = {"a": x[0]}
    d["a"] = d["a"] * x[1]
    return d["a"]


def list_of_arrays_write(x):
    hs = [None] * 3
    h = x
    for t in range(3):
        h = np.tanh(h * 0.5)
        hs[t] = h
    return np.sum(hs[0] * hs[2]) + np.sum(hs[1])


# ---- pop, dict(), sorted
def list_pop(x):
    xs = [x[0], x[1] * 2, x[2] * 3]
    a = xs.pop()
    b = xs.pop(0)
    return a * b + xs[0]


def list_pop_loop(x):
    xs = [x[0], x[1], x[2]]
    s = 0.0
    while xs:
        s = s * 0.5 + xs.pop()
    return s


def dict_kwargs(x):
    d = dict(a=x[0], b=x[1] * 2)
    return d["a"] * d["b"]


def dict_zip(x):
    keys = ["a", "b", "c"]
    vals = [x[0], x[1], x[2] ** 2]
    d = dict(zip(keys, vals))
    return d["a"] + d["b"] * d["c"]


def sorted_consts(x):
    s = 0.0
    for k in sorted([2, 0, 1]):
        s = s * 2 + x[k]
    return s


def sorted_dict_keys(x):
    d = {"b": x[0], "a": x[1]}
    s = 0.0
    for k in sorted(d):
        s = s * 3 + d[k]
    return s


def dict_get_default(x):
    d = {"a": x[0]}
    return d.get("a", 0.0) * d.get("b", x[1])


# ---- iterator builtins
def enum_zip(x):
    a = [x[0], x[1]]
    b = [x[2], x[0]]
    s = 0.0
    for i, (u, v) in enumerate(zip(a, b)):
        s = s + i * u * v + u
    return s


def zip_rev(x):
    s = 0.0
    for u, v in zip(reversed(x), x):
        s = s + u * v * v
    return s


def enum_rev(x):
    s = 0.0
    for i, u in enumerate(reversed(x)):
        s = s + (i + 1) * u**2
    return s


def zip_dict_items(x):
    d = {"a": x[0], "b": x[1]}
    s = 0.0
    for (k, v), w in zip(d.items(), [1.0, 2.0]):
        s = s + v * w
    return s


# ---- *args
def star_sum(*xs):
    return sum(x * x for x in xs)


def _inner(*xs):
    return xs[0] * xs[1]


def star_call(x, y):
    args = (x, y)
    return _inner(*args) + np.sin(x)


def star_call_list(x, y):
    args = [x * 2, y]
    return _inner(*args)


def _inner_fixed(a, b):
    return a * np.cos(b)


def star_call_fixed(x, y):
    return _inner_fixed(*(x, y))


# ---- function-valued attributes, lists of objects
class Layer:
    def __init__(self, w, act):
        self.w = w
        self.act = act

    def __call__(self, h):
        return self.act(h * self.w)


class Net:
    def __init__(self):
        self.layers = [Layer(0.5, np.tanh), Layer(1.5, np.sin)]
        self.act = np.tanh

    def forward(self, x):
        h = x
        for layer in self.layers:
            h = layer(h)
        return np.sum(self.act(h))


NET = Net()


def net_loss(x):
    return NET.forward(x)


class Mlp:
    def __init__(self):
        self.act = np.tanh

    def loss(self, w, x):
        h = self.act(x * w)
        return np.sum(h)


MLP = Mlp()


def attr_fn(w):
    return MLP.loss(w, np.array([1.0, 2.0, 0.5]))


# ---- closure defaults
def closure_default(x):
    num = 3.0

    def g(y, num=num):
        return y * num

    return np.sum(g(x) * x)


def closure_default_diff(x):
    s = x[0] * 2

    def g(y, c=s):
        return y * c

    return np.sum(g(x))


# ---- copy in place, x ** 0.0
def copy_inplace(y):
    v1 = y.copy()
    v1 *= 3
    v1 += y
    return np.sum(v1 * y)


def pow_zero(x):
    return np.sum(x**0.0 + x * 2)


def pow_zero_scalar(x):
    return x[0] ** 0.0 + x[1] ** 0 + x[0] * 2


# ---- builtins
def bi_min2(x):
    return min(x[0], x[1]) * max(x[1], x[2])


def bi_min3(x):
    return min(x[0], x[1], x[2]) + max(x[0], x[1], x[2] * 2)


def bi_max_list(x):
    xs = [x[0], x[1] * 2, x[2]]
    return max(xs) * min(xs)


def bi_abs(x):
    return abs(x[0]) * abs(x[1] - 3.0)


def bi_abs_array(x):
    return np.sum(abs(x))


def bi_sum(x):
    return sum([x[0], x[1], x[2] ** 2]) + sum(x)


def bi_sum_start(x):
    return sum([x[0], x[1]], x[2])


def bi_pow(x):
    return pow(x[0], 3) + pow(x[1], x[2]) + pow(2.0, x[0])


def bi_round(x):
    return round(x[0]) * x[1] + round(x[2], 1) * 0.0 + x[2]


def bi_divmod(x):
    q, r = divmod(x[0], 0.3)
    return q * x[1] + r * x[2]


# ---- rng
def rng_const(x, rng):
    eps = rng.standard_normal(3)
    z = x + eps
    return np.sum(z**2)


def rng_normal(x, rng):
    eps = rng.normal(0.0, 1.0, size=x.shape)
    u = rng.uniform(size=3)
    return np.sum((x * eps + u) ** 2)


class Lin:
    def __init__(self, w):
        self.w = w

    def __call__(self, h):
        return np.tanh(h * self.w)


class Stack:
    def __init__(self):
        self.layers = [Lin(0.5), Lin(1.5), Lin(-0.7)]

    def forward(self, x):
        h = x
        for layer in self.layers:
            h = layer(h)
        return np.sum(h)


STACK = Stack()


def layers_loop(x):
    return STACK.forward(x)


LAYERS = [Lin(0.5), Lin(1.5)]


def global_layers(x):
    h = x
    for layer in LAYERS:
        h = layer(h)
    return np.sum(h)


class Act:
    def __init__(self):
        self.act = np.tanh
        self.acts = {"a": np.sin, "b": np.cos}

    def f(self, x):
        return np.sum(self.act(x) + self.acts["a"](x))


ACT = Act()


def act_attr(x):
    return ACT.f(x)


def _fixed3(a, b, c=1.0):
    return a * np.cos(b) + c


def star_local_tuple(x, y):
    args = (x, y * 2.0)
    return _fixed3(*args) + _fixed3(*[y, x], x)


def star_local_list_mutated(x, y):
    args = [x]
    args.append(y)
    return _fixed3(*args)
