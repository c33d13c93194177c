"""A differential random-program tester for tangentlike (issue 10, "make it self-checking").

`generator` writes seeded random modules (`def f(x, y, ...)` plus helpers) from a
typed grammar; `tracer` makes a twin of a program that records every branch,
comparison and kink decision; `oracle` finds a point where those decisions are
stable and computes references there (central differences along a random
direction, and autograd where it runs and agrees); `classify` runs tangentlike
and sorts the program into ok / refused / wrong / crash / skipped; `shrink`
reduces a failing program while it keeps failing the same way; `runner` and
`report` tie them together (`python -m tests.fuzz --n 5000 --seed 0 --out DIR`,
or `make fuzz N=5000 SEED=0`). `masks` rewrites the constructs of known open
bug classes out of every program (`--mask all`), so that a run shows what else
fails while those classes are being fixed.

Nothing here imports tangentlike internals: only `tangentlike.value_and_grad`
and `tangentlike.errors.TangentlikeError`.
"""
