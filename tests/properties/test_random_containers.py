"""Random programs that build, grow, read and stack lists and dicts, against autograd.

Each statement is drawn from a small grammar: list and dict literals, append loops
(also under an if), extend, concatenation, reads by constant and computed index,
np.stack, builtin sum, comprehensions over lists. Every program must either be
refused with a located error or give autograd's gradient.
"""

from __future__ import annotations

import itertools

import autograd
import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from reference import autograd_version, load_module

import tangentlike as tl
from tangentlike.errors import TangentlikeError

ELEMENTS = [
    "np.tanh({a} * {b})",
    "{a} * 0.5 + {b}",
    "np.sin({a}) * {b}",
    "np.exp(-{a} * {a})",
]

_ids = itertools.count()


@st.composite
def programs(draw):
    arrays, lists, dicts, lines = ["x", "y"], [], [], []

    def element():
        template = draw(st.sampled_from(ELEMENTS))
        return template.format(a=draw(st.sampled_from(arrays)), b=draw(st.sampled_from(arrays)))

    for n in range(draw(st.integers(2, 7))):
        kind = draw(st.integers(0, 8))
        if not lists and kind in (3, 4, 5, 6, 8):
            kind = 0
        if kind == 7 and not dicts:
            kind = 2
        if kind == 0:
            lines.append(f"L{n} = [{', '.join(element() for _ in range(draw(st.integers(1, 3))))}]")
            lists.append(f"L{n}")
        elif kind == 1:
            guard = draw(st.sampled_from(["", "    if i % 2 == 0:\n    "]))
            steps = draw(st.integers(1, 4))
            lines.append(
                f"L{n} = [x]\nfor i in range({steps}):\n{guard}    L{n}.append({element()} * i)"
            )
            lists.append(f"L{n}")
        elif kind == 2:
            lines.append(f"D{n} = {{'a': {element()}, 'b': {draw(st.sampled_from(arrays))}}}")
            dicts.append(f"D{n}")
        elif kind in (3, 4, 5):
            name = draw(st.sampled_from(lists))
            value = {
                3: f"{name}[{draw(st.sampled_from(['0', '-1', f'len({name}) // 2']))}]",
                4: f"np.sum(np.stack({name}), axis=0)",
                5: f"sum({name})",
            }[kind]
            lines.append(f"v{n} = {value}")
            arrays.append(f"v{n}")
        elif kind == 6:
            name = draw(st.sampled_from(lists))
            lines.append(f"L{n} = [np.sin(a) * {element()} for a in {name} if np.sum(a) > -9.0]")
            lists.append(f"L{n}")
        elif kind == 7:
            name = draw(st.sampled_from(dicts))
            lines.append(f"v{n} = {name}['a'] * {name}['b']")
            arrays.append(f"v{n}")
        else:
            name = draw(st.sampled_from(lists))
            if draw(st.booleans()):
                lines.append(f"{name}.extend([{element()}, {draw(st.sampled_from(arrays))}])")
            else:
                lines.append(f"{name} = {name} + [{element()}]")
    result = " + ".join(f"np.sum({a} * {a})" for a in arrays[-2:])
    if lists:
        result += f" + np.sum(np.stack({lists[-1]}) ** 2)"
    body = "\n".join(lines) + f"\nreturn {result}"
    indented = "\n".join("    " + line for line in body.splitlines())
    return f"import numpy as np\n\n\ndef f(x, y):\n{indented}\n"


@given(source=programs(), seed=st.integers(0, 2**16))
def test_random_container_program_matches_autograd(tmp_path_factory, source, seed):
    module = load_module(tmp_path_factory.mktemp("cont"), source, name=f"cont_{next(_ids)}")
    rng = np.random.RandomState(seed)
    x, y = rng.uniform(-1.0, 1.0, 3), rng.uniform(-1.0, 1.0, 3)
    try:
        gx, gy = tl.grad(module.f, wrt=(0, 1))(x, y)
    except TangentlikeError as err:  # refused: must say where
        assert err.location is not None, str(err)
        return
    reference = autograd_version(module.f)
    np.testing.assert_allclose(gx, autograd.grad(reference, 0)(x, y), rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(gy, autograd.grad(reference, 1)(x, y), rtol=1e-7, atol=1e-9)


ARGUMENT_STATEMENTS = [
    "v{n} = np.tanh(params['W'] @ {a}) * params['s']",
    "v{n} = sum(np.sin(params[k] * {a}) for k in ['b', 'c'])",
    "v{n} = {a} * xs[{i}][0]",
    "acc{n} = []\nfor a, b in xs:\n    acc{n}.append(a * {a} + b)\n"
    "v{n} = np.sum(np.stack(acc{n}), axis=0)",
    "d{n} = {{k: params[k] * 2.0 for k in params if k != 'W'}}\nv{n} = {a} * d{n}['b'] + d{n}['s']",
    "v{n} = {a}\nfor name, val in params.items():\n    if name != 'W':\n"
    "        v{n} = v{n} + np.sum(val) * 0.1",
    "p{n} = (params['b'], [{a}, xs[0][1]])\nv{n} = p{n}[0] * p{n}[1][1] + p{n}[1][0]",
    "v{n} = np.exp(-{a} * {a})",
]


@st.composite
def argument_programs(draw):
    arrays, lines = ["x"], []
    for n in range(draw(st.integers(2, 6))):
        template = draw(st.sampled_from(ARGUMENT_STATEMENTS))
        index = draw(st.sampled_from(["0", "-1", "len(xs) - 1"]))
        lines.append(template.format(n=n, a=draw(st.sampled_from(arrays)), i=index))
        arrays.append(f"v{n}")
    body = "\n".join(lines) + f"\nreturn np.sum({arrays[-1]} ** 2) + np.sum({arrays[-2]})"
    indented = "\n".join("    " + line for line in body.splitlines())
    return f"import numpy as np\n\n\ndef f(params, xs, x):\n{indented}\n"


def _leaves(g):
    if isinstance(g, dict):
        return [leaf for k in sorted(g) for leaf in _leaves(g[k])]
    if isinstance(g, (list, tuple)):
        return [leaf for item in g for leaf in _leaves(item)]
    return [g]


@given(source=argument_programs(), seed=st.integers(0, 2**16))
def test_random_program_over_container_arguments_matches_autograd(tmp_path_factory, source, seed):
    module = load_module(tmp_path_factory.mktemp("args"), source, name=f"args_{next(_ids)}")
    r = np.random.RandomState(seed)
    params = {"W": r.randn(3, 3) * 0.5, "b": r.randn(3), "c": r.randn(3), "s": 0.7}
    xs = [(r.randn(3), r.randn(3)) for _ in range(3)]
    args = (params, xs, r.randn(3))
    grads = tl.grad(module.f, wrt=(0, 1, 2))(*args)
    reference = autograd_version(module.f)
    for i, g in enumerate(grads):
        expected = autograd.grad(reference, i)(*args)
        for a, b in zip(_leaves(g), _leaves(expected), strict=True):
            np.testing.assert_allclose(a, b, rtol=1e-7, atol=1e-9)


MIXED_STATEMENTS = [
    # a helper that appends, given a ragged list literal
    "L{n} = scale_all([{a}, {b}[:2], np.sum({a})], {s})\nv{n} = np.sum(L{n}[1]) * {b} + L{n}[2]",
    # a helper returning a tuple holding a dict
    "a{n}, d{n} = pair_and_dict({a}, {b})\nv{n} = a{n} * d{n}['s'] + d{n}['t']",
    # a helper taking a ragged dict literal
    "v{n} = squares_of_values({{'a': {a}, 'b': {b}[1:]}}) * {a}",
    "R{n} = [{a}, {b}[:1], np.sum({a})]\nv{n} = R{n}[0] * R{n}[1] + R{n}[2]",
    # a while loop that appends slices
    "h{n} = {a}\nhs{n} = []\nwhile np.sum(h{n} * h{n}) > 0.05 and len(hs{n}) < 6:\n"
    "    h{n} = h{n} * 0.6\n    hs{n}.append(h{n}[:2])\n"
    "v{n} = np.sum(sum(hs{n}) * 1.0) if hs{n} else 0.0\nv{n} = v{n} + {b}",
    # nested dicts, lists and tuples
    "N{n} = {{'in': {{'w': {a}}}, 'l': [{b}, ({a}, 2.0)]}}\n"
    "v{n} = N{n}['in']['w'] * N{n}['l'][1][0] * N{n}['l'][1][1] + N{n}['l'][0]",
    "v{n} = np.sum(np.stack([np.tanh(r * {a}) for r in [{a}, {b}] if np.sum(r) > -50]), axis=0)",
    "v{n} = np.sin({a}) * {b}",
]


@st.composite
def mixed_programs(draw):
    arrays, lines = ["x", "y"], []
    for n in range(draw(st.integers(2, 6))):
        template = draw(st.sampled_from(MIXED_STATEMENTS))
        a, b = draw(st.sampled_from(arrays)), draw(st.sampled_from(arrays))
        scale = draw(st.sampled_from(["0.5", "np.sum(x)"]))
        lines.append(template.format(n=n, a=a, b=b, s=scale))
        arrays.append(f"v{n}")
    body = "\n".join(lines) + f"\nreturn np.sum({arrays[-1]} ** 2) + np.sum({arrays[-2]})"
    indented = "\n".join("    " + line for line in body.splitlines())
    return (
        "import numpy as np\n\nfrom corpus.containers import pair_and_dict, scale_all, "
        f"squares_of_values\n\n\ndef f(x, y):\n{indented}\n"
    )


@given(source=mixed_programs(), seed=st.integers(0, 2**16))
def test_random_program_with_helpers_and_ragged_containers_matches_autograd(
    tmp_path_factory, source, seed
):
    module = load_module(tmp_path_factory.mktemp("mixed"), source, name=f"mixed_{next(_ids)}")
    rng = np.random.RandomState(seed)
    x, y = rng.uniform(-0.8, 0.8, 3), rng.uniform(-0.8, 0.8, 3)
    gx, gy = tl.grad(module.f, wrt=(0, 1))(x, y)
    reference = autograd_version(module.f)
    np.testing.assert_allclose(gx, autograd.grad(reference, 0)(x, y), rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(gy, autograd.grad(reference, 1)(x, y), rtol=1e-7, atol=1e-9)
