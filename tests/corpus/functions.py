"""Programs using nested functions, lambdas, *args/**kwargs, methods, partials and
decorated helpers; listed explicitly in CASES (function, arguments, positions)."""

import functools

import numpy as np

import tangentlike as tl


def closure_layer(W, b, x):
    def layer(v):
        return np.tanh(W @ v + b)

    return np.sum(layer(x) ** 2)


def closure_in_loop(W, b, x):
    def layer(v):
        return np.tanh(W @ v + b)

    h = x
    for _ in range(3):
        h = layer(h)
    return np.sum(h * h)


def closure_calls_closure(x, s):
    def inner(v):
        return np.sin(v) * s

    def outer(v, k=2.0):
        w = inner(v)
        return inner(w) * k + v

    return np.sum(outer(x) + outer(x, k=3.0))


def closure_early_returns(x):
    def pick(v):
        if np.sum(v) > 0:
            return v * v
        for i in range(3):
            if i == 1:
                return v * 3.0
        return v

    return np.sum(pick(x) + pick(-x))


def closure_default_is_evaluated_at_definition(x, s):
    scale = s * 2.0

    def f(v, k=scale):
        return v * k

    scale = s * 100.0  # the default keeps the value it had at definition
    return np.sum(f(x) + scale * 0.0)


def closure_reads_late(x, s):
    k = s

    def f(v):
        return v * k  # k is read when f runs

    k = s * s
    return np.sum(f(x))


def closure_defined_in_loop(x):
    total = 0.0
    for i in range(3):
        c = float(i) + 1.0

        def g(v):
            return np.sin(v * c)  # noqa: B023 (called in the same iteration)

        total = total + np.sum(g(x))
    return total


def closure_nested_def(x, y):
    def outer(v):
        def inner(u):
            return u * y

        return inner(v) + inner(v * v)

    return np.sum(outer(x))


def closure_statement_call(x):
    def check(v):
        assert v.shape == (3,)

    check(x)
    return np.sum(x * x)


def closure_in_condition(x):
    def positive(v):
        return np.sum(v) > 0.0

    def shrink(v):
        return v * 0.5

    y = x * 4.0
    while positive(y - 1.0) and np.sum(y) < 100.0:
        y = shrink(y)
    if positive(y) or positive(-y):
        y = np.sin(y)
    return np.sum(y)


def closure_star_params(x, y):
    def total(*vs, scale=1.0):
        return (vs[0] + vs[1]) * scale

    return np.sum(total(x, y) + total(y, x, scale=2.0))


def closure_forwards_star_args(x, y):
    def wrap(*vs, **options):
        return takes_options(*vs, **options) * vs[0]

    return np.sum(wrap(x, y, scale=2.0) + wrap(y, 3.0, b=x))


def lambda_relu(x):
    act = lambda v: np.maximum(v, 0.0)  # noqa: E731
    return np.sum(act(x) * x)


def lambda_closes_over_active(x, w):
    scaled = lambda v: v * w + np.sin(w)  # noqa: E731
    return np.sum(scaled(x) * scaled(x * x))


def lambda_with_default(x):
    act = lambda v, slope=0.1: np.where(v > 0, v, v * slope)  # noqa: E731
    return np.sum(act(x) + act(x, slope=0.3))


def closure_returns_tuple(x, w):
    def step(a, b):
        return a * w + b, b * 0.5 + np.sin(a)

    a, b = step(x, x)
    a, b = step(a, b)
    return np.sum(a * b)


def closure_returns_unlike_pair_early(x):
    def g(v):
        for _ in range(3):
            if np.sum(v) > 1.0:
                return v * 2.0, np.sum(v)
            v = v + 1.0
        return v, 0.5

    a, s = g(x)
    return np.sum(a) * s


def combination(xs, ys, w):
    """A while with break inside a for over zip, calling a closure that returns a tuple."""

    def step(u, v):
        return np.tanh(u * w + v), v * 0.9

    total = 0.0
    for x, y in zip(xs, ys):
        a, b = x, y
        n = 0
        while n < 5:
            a, b = step(a, b)
            if np.sum(a * a) > 2.5:
                break
            n = n + 1
        total = total + np.sum(a * b)
    return total


class Model:
    """A user class: methods read attributes and call other methods."""

    def __init__(self, seed):
        r = np.random.RandomState(seed)
        self.W = r.randn(3, 3) * 0.5
        self.b = r.randn(3)
        self.scale = 1.5

    def forward(self, x):
        return np.tanh(self.W @ x + self.b)

    @staticmethod
    def square(v):
        return v * v

    def loss(self, x):
        h = self.forward(x)
        for _ in range(2):
            h = self.forward(h) * self.scale
        return np.sum(self.square(h))


class Deeper(Model):
    def forward(self, x):
        return np.sin(self.W @ x) + super_free(x)


def super_free(x):
    return x * 0.1


class Residual(Deeper):
    """super() reaches Deeper.forward; self.act dispatches on the instance's class."""

    def forward(self, x):
        return super().forward(x) + self.act(x)

    def act(self, x):
        return x * 0.5

    @tl.differentiable
    def score(self, x):
        return np.sum(self.forward(x) ** 2)


class Residual2(Residual):
    def act(self, x):
        return np.sin(x)


def calls_decorated_method(model, x):
    return model.score(x) + model.loss(x)


class Dense:
    """A callable layer; composed into Encoder and Net below."""

    def __init__(self, seed):
        r = np.random.RandomState(seed)
        self.W = r.randn(3, 3) * 0.5
        self.b = r.randn(3)

    def __call__(self, x):
        return np.tanh(self.W @ x + self.b)


class Encoder:
    def __init__(self, seed):
        self.dense = Dense(seed)
        self.scale = 0.5

    def forward(self, x):
        return self.dense(x) * self.scale


class Net:
    def __init__(self, seed):
        self.enc = Encoder(seed)
        self.head = Dense(seed + 1)

    def __call__(self, x):
        h = self.enc.forward(x)
        for _ in range(2):
            h = self.head(h)
        return np.sum(h**2)


GLOBAL_LAYER = Dense(11)


def calls_global_layer(x):
    return np.sum(GLOBAL_LAYER(x) ** 2)


def calls_layer_argument(layer, x):
    return np.sum(layer(layer(x)))


def calls_net(net, x):
    return net(x) + np.sum(net.enc.dense(x))


def method_of_argument(model, x):
    return model.loss(x) + np.sum(model.b * x)


def helper_calls_method(model, x):
    y = method_of_argument(model, x * 2.0)
    return y * 3.0


def attributes_are_constants(model, x):
    return np.sum(np.tanh(model.W @ x + model.b) * model.scale)


GLOBAL_MODEL = Model(7)


def method_of_global(x):
    return GLOBAL_MODEL.loss(x) * 2.0


def base(x, W, s):
    return np.sum(np.sin(W @ x) * s)


partial_keyword = functools.partial(base, s=3.0)
partial_positional = functools.partial(base, np.eye(3) * 0.5)


def leaky(v, slope=0.01, scale=1.0):
    return (np.maximum(v, 0.0) + np.minimum(v, 0.0) * slope) * scale


def local_partials(x, s):
    act = functools.partial(leaky, slope=0.2)
    shifted = functools.partial(leaky, x * 0.5, scale=s)
    return np.sum(act(x) + act(x * s, slope=0.3) + shifted())


def calls_partials(x, W):
    return partial_keyword(x, W) + partial_positional(x * 2.0, s=2.0)


column_sums = functools.partial(np.sum, axis=0)


def partial_of_numpy(X):
    return np.sum(column_sums(X * X) ** 2)


@tl.differentiable
def decorated_helper(x, k):
    return np.sin(x) * k


def calls_decorated(x):
    return np.sum(decorated_helper(x, 2.0) + decorated_helper(x * x, k=0.5))


def takes_options(x, a, b=1.0, *, scale=1.0):
    return np.sin(x * a) * b * scale


def passes_through(x, *args, **kw):
    return np.sum(takes_options(x, *args, **kw))


def calls_pass_through(x, s):
    y = passes_through(x * s, 2.0, b=0.5, scale=3.0)
    return y + passes_through(x, 1.0) * s


def keyword_only(x, s, *, power=2.0, shift=0.5):
    return np.sum((x * s + shift) ** power)


def calls_keyword_only(x, s):
    return keyword_only(x, s, power=3.0) + keyword_only(s * x, 1.0, shift=s)


STAR_ARGS = (2.0, 0.5)
STAR_OPTIONS = {"scale": 1.5}
SUM_OPTIONS = {"axis": 0, "keepdims": False}


def static_unpacking(X, w):
    y = takes_options(w, *STAR_ARGS, **STAR_OPTIONS)
    z = np.sum(X * y, **SUM_OPTIONS)
    return np.sum(z * z)


class GatedRNN:
    """Everything at once: a method with a nested def returning a tuple, called in a
    while loop with break inside a for over zip, a lambda, a partial and super()."""

    def __init__(self, seed):
        r = np.random.RandomState(seed)
        self.Wh = r.randn(3, 3) * 0.4
        self.Wx = r.randn(3, 3) * 0.4
        self.cell = Dense(seed + 1)

    def gate(self, h):
        return 1.0 / (1.0 + np.exp(-h))

    def run(self, xs, ms, h, limit=4.0):
        squash = lambda v: np.tanh(v) * 0.9  # noqa: E731

        def step(h, x, m):
            z = self.gate(self.Wh @ h + self.Wx @ x)
            return squash(z * self.cell(h) + (1.0 - z) * h), np.sum(m * z)

        total = 0.0
        for x, m in zip(xs, ms):
            k = 0
            while k < 3:
                h, score = step(h, x, m)
                total = total + score
                if np.sum(h * h) > limit:
                    break
                k = k + 1
        return total + scaled_norm(h)


def _norm(v, power):
    return np.sum(v**2) ** (power / 2.0)


scaled_norm = functools.partial(_norm, power=3.0)


class LoudRNN(GatedRNN):
    def gate(self, h):
        return super().gate(h * 2.0)


def train_step(model, xs, ms, h0):
    return model.run(xs, ms, h0, limit=2.0)


class Simulation:
    """Attributes named like array attributes (T, shape) are the object's own."""

    def __init__(self):
        self.T = 3
        self.dt = 0.1
        self.shape = 2.0

    def run(self, x):
        for _ in range(self.T):
            x = x + self.dt * np.sin(x) * self.shape
        return np.sum(x)


def applies(act, x):
    """A function passed in: the gradient is specialised to it, per call."""
    return np.sum(act(x) * x)


def default_activation(x, act=np.tanh):
    h = act(x)
    return np.sum(act(h))


def soft(v):
    return np.log1p(np.exp(v))


cube = lambda v: v * v * v  # noqa: E731


def _r(seed):
    return np.random.RandomState(seed)


def _wbx():
    return (_r(0).randn(3, 3) * 0.5, _r(1).randn(3), _r(2).randn(3))


CASES = [
    (closure_layer, _wbx, (0, 1, 2)),
    (closure_in_loop, _wbx, (0, 1, 2)),
    (closure_calls_closure, lambda: (_r(0).randn(3), 1.5), (0, 1)),
    (closure_early_returns, lambda: (np.abs(_r(0).randn(3)),), (0,)),
    (closure_early_returns, lambda: (_r(0).randn(3) - 1.0,), (0,)),
    (closure_default_is_evaluated_at_definition, lambda: (_r(0).randn(3), 0.7), (0, 1)),
    (closure_reads_late, lambda: (_r(0).randn(3), 0.7), (0, 1)),
    (closure_defined_in_loop, lambda: (_r(0).randn(3),), (0,)),
    (closure_nested_def, lambda: (_r(0).randn(3), _r(1).randn(3)), (0, 1)),
    (closure_statement_call, lambda: (_r(0).randn(3),), (0,)),
    (closure_in_condition, lambda: (np.abs(_r(0).randn(3)),), (0,)),
    (closure_in_condition, lambda: (-np.abs(_r(0).randn(3)),), (0,)),
    (closure_star_params, lambda: (_r(0).randn(3), _r(1).randn(3)), (0, 1)),
    (closure_forwards_star_args, lambda: (_r(0).randn(3), _r(1).randn(3)), (0, 1)),
    (lambda_relu, lambda: (_r(0).randn(5),), (0,)),
    (lambda_closes_over_active, lambda: (_r(0).randn(3), 0.3), (0, 1)),
    (lambda_with_default, lambda: (_r(0).randn(5),), (0,)),
    (closure_returns_tuple, lambda: (_r(0).randn(3), 0.8), (0, 1)),
    (closure_returns_unlike_pair_early, lambda: (np.array([-3.0, 0.2, 0.1]),), (0,)),
    (closure_returns_unlike_pair_early, lambda: (np.array([3.0, 0.2, 0.1]),), (0,)),
    (combination, lambda: (_r(0).randn(4, 3), _r(1).randn(4, 3), 1.3), (0, 1, 2)),
    (Model(1).loss, lambda: (_r(0).randn(3),), (0,)),
    (Deeper(1).loss, lambda: (_r(0).randn(3),), (0,)),
    (method_of_argument, lambda: (Model(2), _r(0).randn(3)), (1,)),
    (method_of_argument, lambda: (Deeper(2), _r(0).randn(3)), (1,)),
    (helper_calls_method, lambda: (Deeper(3), _r(0).randn(3)), (1,)),
    (attributes_are_constants, lambda: (Model(4), _r(0).randn(3)), (1,)),
    (method_of_global, lambda: (_r(0).randn(3),), (0,)),
    (calls_global_layer, lambda: (_r(0).randn(3),), (0,)),
    (calls_layer_argument, lambda: (Dense(12), _r(0).randn(3)), (1,)),
    (calls_net, lambda: (Net(13), _r(0).randn(3)), (1,)),
    (Net(14), lambda: (_r(0).randn(3),), (0,)),
    (
        GatedRNN(20).run,
        lambda: (_r(0).randn(4, 3), _r(1).randn(4, 3), _r(2).randn(3)),
        (0, 1, 2),
    ),
    (
        train_step,
        lambda: (LoudRNN(21), _r(0).randn(4, 3), _r(1).randn(4, 3), _r(2).randn(3) * 2.0),
        (1, 2, 3),
    ),
    (local_partials, lambda: (_r(0).randn(5), 1.3), (0, 1)),
    (Simulation().run, lambda: (_r(0).randn(3),), (0,)),
    (applies, lambda: (np.tanh, _r(0).randn(3)), (1,)),
    (applies, lambda: (soft, _r(0).randn(3)), (1,)),
    (applies, lambda: (cube, _r(0).randn(3)), (1,)),
    (applies, lambda: (Dense(30), _r(0).randn(3)), (1,)),
    (default_activation, lambda: (_r(0).randn(3),), (0,)),
    (partial_keyword, lambda: (_r(0).randn(3), _r(1).randn(3, 3)), (0, 1)),
    (partial_positional, lambda: (_r(0).randn(3, 3), 0.7), (0, 1)),
    (calls_partials, lambda: (_r(0).randn(3), _r(1).randn(3, 3)), (0, 1)),
    (calls_decorated, lambda: (_r(0).randn(3),), (0,)),
    (calls_decorated_method, lambda: (Residual(5), _r(0).randn(3)), (1,)),
    (calls_decorated_method, lambda: (Residual2(5), _r(0).randn(3)), (1,)),
    (Residual2(6).loss, lambda: (_r(0).randn(3),), (0,)),
    (partial_of_numpy, lambda: (_r(0).randn(3, 2),), (0,)),
    (passes_through, lambda: (_r(0).randn(3), 2.0, 0.5), (0,)),
    (calls_pass_through, lambda: (_r(0).randn(3), 0.8), (0, 1)),
    (keyword_only, lambda: (_r(0).randn(3), 0.8), (0, 1)),
    (calls_keyword_only, lambda: (np.abs(_r(0).randn(3)) + 0.5, 0.8), (0, 1)),
    (static_unpacking, lambda: (_r(0).randn(4, 3), _r(1).randn(3)), (0, 1)),
]
