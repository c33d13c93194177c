import numpy
import numpy as onp
from numpy import exp
from numpy import sum as npsum

np = 3.0


def f(x, w):
    return onp.sum(exp(x * w)) + npsum(numpy.tanh(x)) * np


def g(x, unbroadcast):
    y = x * unbroadcast
    return numpy.sum(y * x)


def h(x, b_x1):
    _x1 = x * 2.0
    return numpy.sum(_x1 * b_x1 * x)


def uses_stack_names(x, _stack):
    _push = x * 2.0
    for _ in range(3):
        _push = numpy.sin(_push) * _stack
    return numpy.sum(_push)


def loop_variable_reused(x, n=3, scale=2.0):
    i = 10
    y = x
    for i in range(n):
        y = y * scale + i
    z = y * i
    return numpy.sum(z)
