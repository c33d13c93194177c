"""Checkpoint schedules and the measuring stack, driven by generated code.

Like runtime.py, everything here is copied into generated modules that use it,
so each class is self-contained: builtins and NumPy only, no tangentlike imports.

A checkpointed loop of n steps keeps snapshots of its loop-carried state. The
forward sweep runs every step without recording and saves the state before
the steps in `plan.kept`; the backward sweep then asks `plan.reversal()` for
actions, in order:

    ("advance", i)  run step i without recording (a recomputation)
    ("save", i)     snapshot the current state, the state before step i
    ("restore", i)  set the state to the snapshot taken before step i
    ("record", i)   run step i recording what its adjoint needs on the stack
    ("reverse", i)  run the adjoint of step i (pops what "record" pushed)

Every "reverse" of step i follows the "record" of step i, and steps are
reversed from last to first.
"""

from __future__ import annotations


class Plan:
    """Snapshots of a checkpointed loop's state, by step; what the schedules share."""

    def __init__(self, steps, tape=None):
        self.steps = int(steps)
        self.saved = {}
        self.advances = 0  # steps recomputed by the backward sweep
        self.peak_saved = 0
        self.tape = tape
        if tape is not None:
            tape.plans.append(self)

    def save(self, i, state):
        self.saved[i] = state
        if len(self.saved) > self.peak_saved:
            self.peak_saved = len(self.saved)
        if self.tape is not None:
            self.tape.hold(state)

    def load(self, i):
        return self.saved[i]

    def drop(self, i):
        state = self.saved.pop(i)
        if self.tape is not None:
            self.tape.release(state)


class BinomialPlan(Plan):
    """Revolve-style offline binomial checkpointing (Griewank and Walther).

    Keeps at most `snapshots` states (the initial one included) and recomputes
    the fewest forward steps any schedule with that many snapshots can: with
    r the smallest integer such that C(snapshots + r, snapshots) >= steps,
    r * steps - C(snapshots + r, snapshots + 1) advances in all (counting the
    forward sweep's), see `BinomialPlan.fewest_advances`.
    """

    def __init__(self, steps, snapshots, tape=None):
        super().__init__(steps, tape)
        steps, snapshots = self.steps, int(snapshots)
        if snapshots < 1:
            raise ValueError(f"a checkpointed loop needs snapshots >= 1, not {snapshots}")
        self.snapshots = snapshots
        # The forward sweep walks the right spine of the schedule: from position a with
        # c snapshots it advances m steps, saves, and continues with c - 1 snapshots.
        self.kept = {0} if steps else set()
        self._todo = []  # (a, b, c): reverse steps a..b-1 from the snapshot at a
        a, c = 0, snapshots
        while steps - a > 1 and c > 1:
            m = self.split(steps - a, c)
            self._todo.append((a, a + m, c))  # the left part, reversed last
            self._todo.append((None, a + m, 0))  # then the snapshot at a + m is dropped
            a, c = a + m, c - 1
            self.kept.add(a)
        if steps:
            self._todo.append((a, steps, c))

    def reversal(self):
        """The backward sweep's actions (see the module docstring)."""
        todo = self._todo
        while todo:
            a, b, c = todo.pop()
            if a is None:
                self.drop(b)
                continue
            if b - a == 1:
                yield "restore", a
                yield "record", a
                yield "reverse", a
            elif c == 1:
                for j in range(b - 1, a - 1, -1):
                    yield "restore", a
                    for i in range(a, j):
                        self.advances += 1
                        yield "advance", i
                    yield "record", j
                    yield "reverse", j
            else:
                m = self.split(b - a, c)
                yield "restore", a
                for i in range(a, a + m):
                    self.advances += 1
                    yield "advance", i
                yield "save", a + m
                todo.append((a, a + m, c))
                todo.append((None, a + m, 0))
                todo.append((a + m, b, c - 1))
        for i in list(self.saved):
            self.drop(i)

    @staticmethod
    def fewest_advances(steps, snapshots):
        """Advances an optimal schedule needs to reverse `steps` steps from a stored start."""
        if steps <= 1:
            return 0
        if snapshots == 1:
            return steps * (steps - 1) // 2
        r, beta = 0, 1  # beta = C(snapshots + r, snapshots)
        while beta < steps:
            r += 1
            beta = beta * (snapshots + r) // r
        return r * steps - beta * r // (snapshots + 1)

    @classmethod
    def split(cls, steps, snapshots):
        """Where to put the next snapshot: the advance count m + cost(right) + cost(left)
        is convex in m, so the first m where it stops falling is optimal."""
        cost = cls.fewest_advances

        def total(m):
            return m + cost(steps - m, snapshots - 1) + cost(m, snapshots)

        lo, hi = 1, steps - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if total(mid + 1) >= total(mid):
                hi = mid
            else:
                lo = mid + 1
        return lo


class IntervalPlan(Plan):
    """Fixed-interval checkpointing: a snapshot every `every` steps; the backward sweep
    records one interval at a time (the stack holds at most `every` steps)."""

    def __init__(self, steps, every, tape=None):
        super().__init__(steps, tape)
        every = int(every)
        if every < 1:
            raise ValueError(f"a checkpointed loop needs every >= 1, not {every}")
        self.every = every
        self.kept = set(range(0, self.steps, every))

    def reversal(self):
        for start in sorted(self.kept, reverse=True):
            stop = min(start + self.every, self.steps)
            yield "restore", start
            for i in range(start, stop):
                yield "record", i
            for i in range(stop - 1, start - 1, -1):
                yield "reverse", i
            self.drop(start)


class Tape(list):
    """The stack of a gradient built with stats=True: a list that counts what it holds.

    Bytes count what the stack retains: an array (or other object) pushed again while
    the stack still holds it is stored once (a loop pushing the same parameter array at
    every step holds one array), counted when its first copy is pushed and uncounted
    when its last is popped."""

    def __init__(self):
        super().__init__()
        self.pushes = 0
        self.bytes = 0
        self.held = {}  # id(array held) -> [the array, how many times the stack holds it]
        self.peak_stack_bytes = 0
        self.snapshot_bytes = 0
        self.peak_snapshot_bytes = 0
        self.peak_bytes = 0
        self.plans = []

    @staticmethod
    def size(value):
        """Bytes of data in a value: array buffers, 8 per number, tuples and lists summed."""
        nbytes = getattr(value, "nbytes", None)
        if nbytes is not None:
            return int(nbytes)
        if isinstance(value, (tuple, list)):
            return sum(Tape.size(v) for v in value)
        if isinstance(value, (int, float, complex)):
            return 8
        return 0

    def _note(self):
        self.peak_stack_bytes = max(self.peak_stack_bytes, self.bytes)
        self.peak_snapshot_bytes = max(self.peak_snapshot_bytes, self.snapshot_bytes)
        self.peak_bytes = max(self.peak_bytes, self.bytes + self.snapshot_bytes)

    def retained(self, value, step):
        """The change in bytes retained when the stack holds `value` once more (step 1)
        or once less (step -1): an array's buffer only for its first copy held."""
        if getattr(value, "nbytes", None) is not None:
            held = self.held.get(id(value))
            if step > 0 and held is None:
                self.held[id(value)] = [value, 1]
                return self.size(value)
            if held is None:  # not counted when pushed (a list changed while held)
                return 0
            held[1] += step
            if held[1] > 0:
                return 0
            del self.held[id(value)]
            return -self.size(value)
        if isinstance(value, (tuple, list)):
            return sum(self.retained(v, step) for v in value)
        return step * self.size(value)

    def append(self, value):
        self.pushes += 1
        self.bytes += self.retained(value, 1)
        self._note()
        super().append(value)

    def pop(self, index=-1):
        value = super().pop(index)
        self.bytes += self.retained(value, -1)
        return value

    def hold(self, state):
        self.snapshot_bytes += self.size(state)
        self._note()

    def release(self, state):
        self.snapshot_bytes -= self.size(state)
