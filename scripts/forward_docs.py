"""Write docs/forward.md: functions beside the forward-mode source tangentlike generates.

    python scripts/forward_docs.py           # rewrite docs/forward.md
    python scripts/forward_docs.py --check   # exit 1 if docs/forward.md is stale

The page is generated, never edited by hand (tests/forward/test_docs.py checks that
every source it shows is what the tool generates now).
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "docs" / "forward.md"
MARK = "# --- tangentlike runtime helpers ---"

INTRO = """# Forward mode: jvp, vector tangents, jacobian

`tl.jvp(f, wrt)` returns `jf(*args, t)`, which computes `(f(*args), J t)`: the value and
the directional derivative along `t` (shaped like the `wrt` argument; a tuple of them for
a tuple `wrt`). Like reverse mode, it is generated Python source you can read, print
(`jf.source`) and step through: each statement of the function, in A-normal form, is
followed by the statement computing its tangent. The tangent of `x` is `dx`. There is no
stack: forward mode runs once, front to back. A helper the function calls gets a forward
variant (`_jvp_cell`) returning its value and its tangent.

```python
import tangentlike as tl
value, tangent = tl.jvp(f, wrt=0)(x, A, t)
J = tl.jacobian(f, wrt=0, mode="auto")(x, A)   # shape out.shape + x.shape
```

- `jf` also takes its tangents by the keywords of the generated function (`jf(x, dx=t)`;
  `jf(x, y, dx=tx, dy=ty)` for `wrt=(0, 1)`). A differentiated function may call a jvp
  (`y, t = jf(x, v)` inside `f`, then `tl.grad(f)`): the call is spelled that way and
  differentiated through the generated jvp; a tuple of tangents must then be a display,
  `jf(x, y, (tx, ty))`.
- Any output structure (array, tuple, dict) gets a tangent of the same structure, checked
  and given the output's float dtype on the way out (`output_tangent`); the tangent passed
  in is checked against its argument (`tangent_like`): its structure and shape, no
  broadcasting.
- Every operation on a differentiated value uses its rule's forward form (stated beside
  the reverse form, or derived from it for elementwise rules). An operation with no
  forward form is refused with the file, line and a caret, never given a zero tangent.
- Vector mode (`tangentlike.api_forward.jvp_vector`) carries k directions in one pass, as a
  leading axis on every tangent. Elementwise forms broadcast (`lift` lines the tangent's
  axes up with the value's); sums, means and matrix products move their axes one along
  (`shifted_axis`, `matmul_left`, `matmul_right`); any other form runs once per direction
  and stacks the results.
- `tl.jacobian(f, wrt, mode=...)`: "forward" runs one vector jvp with the identity as
  its k = x.size directions; "reverse" runs one vjp per output element; "auto" picks
  forward when the input is smaller than the output. A tuple `wrt` gives a tuple of blocks.

The copied runtime helpers (`tangent_like`, `output_tangent`, `zero_tangent`, ...) are
left out below; a written module carries them.
"""

# (title, function, wrt, vector mode, what to say)
EXAMPLES = [
    ("A vector field", "squash", 0, False, "One tangent statement per primal statement."),
    (
        "A loop over a helper",
        "unroll",
        (0, 1),
        False,
        "The write `out[t] = h` has its tangent write `dout[t] = dh`; `dout` starts as "
        "the zero tangent of `np.zeros(...)`.",
    ),
    (
        "Branches and a dict output",
        "piecewise",
        (0, 1),
        False,
        "The tangent follows the branch the primal takes; the dict output gets a dict tangent.",
    ),
    (
        "Vector mode: k directions at once",
        "squash",
        0,
        True,
        "`jacobian(squash, mode='forward')` runs this with the 3 x 3 identity as "
        "tangents: the matrix product takes the directions first (`matmul_right`).",
    ),
]


def generated(name: str, wrt, vector: bool) -> str:
    """The generated module of an example, its runtime helpers left out."""
    sys.path.insert(0, str(ROOT))
    try:
        from samples import forward_examples
    finally:
        sys.path.remove(str(ROOT))
    import tangentlike as tl
    from tangentlike.api_forward import jvp_vector

    f = getattr(forward_examples, name)
    text = (jvp_vector if vector else tl.jvp)(f, wrt=wrt).source
    head, _, rest = text.partition(MARK)
    functions = rest[
        rest.index("\ndef _jvp") if "\ndef _jvp" in rest else rest.index("\ndef jvp") :
    ]
    header = "\n".join(line for line in head.splitlines() if line.startswith("#"))
    return header + "\n\n" + functions.strip() + "\n"


def render() -> str:
    sys.path.insert(0, str(ROOT))
    try:
        from samples import forward_examples
    finally:
        sys.path.remove(str(ROOT))
    parts = [INTRO]
    for title, name, wrt, vector, note in EXAMPLES:
        f = getattr(forward_examples, name)
        source = inspect.getsource(f)
        if name == "unroll":
            source = inspect.getsource(forward_examples.cell) + "\n\n" + source
        call = "jvp_vector" if vector else "tl.jvp"
        parts.append(f"## {title}\n\n{note}\n\n```python\n{source.rstrip()}\n```\n")
        parts.append(
            f"`{call}({name}, wrt={wrt!r}).source`:\n\n```python\n"
            f"{generated(name, wrt, vector).rstrip()}\n```\n"
        )
    return "\n".join(parts)


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        if not OUTPUT.exists() or OUTPUT.read_text() != text:
            print("docs/forward.md is stale: run python scripts/forward_docs.py")
            return 1
        return 0
    OUTPUT.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
