"""Helpers that change their parameter in place, shared by the in-place corpora
(corpus.in_place calls them on fresh values, corpus.in_place_helpers on values the
caller reads afterwards: inlined from this file at their calls)."""

import numpy as np


def bump(v):
    v += 1.0
    return v


def double(v):
    v *= 2.0
    return v


def double_through(v):
    return double(v)


def double_front(v):
    w = v[0:2]
    w *= 2.0
    return np.sum(v)
