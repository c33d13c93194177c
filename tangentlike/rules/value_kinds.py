"""What kinds of values functions make, as the registry records them from the rule
files: new arrays, float arrays from a shape, arrays like their argument, arrays of a
list literal, lists or tuples of arrays (whose adjoint is a list).

Assumes: mixed into rules.registry.Registry, which defines `_ready` (load the built-in
rule files first) and calls `_init_kinds` from `__init__` and `_copy_kinds` when it
copies itself.
"""

from __future__ import annotations

from collections.abc import Iterable


class ValueKinds:
    """The kind tables of a registry (see the module docstring)."""

    def _ready(self) -> None:  # Registry's: load the rule files
        raise NotImplementedError

    def _init_kinds(self) -> None:
        self._array_makers: set[object] = set()
        self._float_makers: set[object] = set()  # f(shape): a float array
        self._kind_keepers: set[object] = set()  # f(x): an array like x (np.copy)
        self._float_keepers: set[object] = set()  # f(x, ...): a float where x is one
        self._list_arrays: set[object] = set()  # f([a, b]): an array of rank >= 1
        self._sequence_makers: set[object] = set()
        self._sequence_params: dict[object, tuple[str, ...]] = {}

    def _copy_kinds(self, other: ValueKinds) -> None:
        self._array_makers = set(other._array_makers)
        self._float_makers = set(other._float_makers)
        self._kind_keepers = set(other._kind_keepers)
        self._float_keepers = set(other._float_keepers)
        self._list_arrays = set(other._list_arrays)
        self._sequence_makers = set(other._sequence_makers)
        self._sequence_params = dict(other._sequence_params)

    def array_makers(self, primals: Iterable[object]) -> None:
        """Functions that always return a new array (never a view of an argument)."""
        self._ready()
        self._array_makers.update(primals)

    def float_makers(self, primals: Iterable[object]) -> None:
        """Functions that, called with a shape alone (`np.zeros(n)`), return a float
        ndarray: arithmetic with it never repeats a list (`a * xs` is an array or fails)."""
        self._ready()
        self._float_makers.update(primals)

    def makes_float_array(self, primal: object) -> bool:
        self._ready()
        try:
            return primal in self._float_makers
        except TypeError:
            return False

    def array_kinds(self, keepers: Iterable[object], from_lists: Iterable[object]) -> None:
        """`keepers`: f(x) is an array of x's rank and dtype kind (np.copy);
        `from_lists`: f([a, b]) of a list literal is an array of rank >= 1 (np.array)."""
        self._ready()
        self._kind_keepers.update(keepers)
        self._list_arrays.update(from_lists)

    def float_keepers(self, primals: Iterable[object]) -> None:
        """Functions whose result, given a float or float array as first argument, is a
        float or float array, never an integer (np.sum, np.dot; not np.argmax)."""
        self._ready()
        self._float_keepers.update(primals)

    def keeps_float(self, primal: object) -> bool:
        self._ready()
        try:
            return primal in self._float_keepers or primal in self._kind_keepers
        except TypeError:
            return False

    def keeps_kind(self, primal: object) -> bool:
        self._ready()
        try:
            return primal in self._kind_keepers
        except TypeError:
            return False

    def makes_array_of_list(self, primal: object) -> bool:
        self._ready()
        try:
            return primal in self._list_arrays
        except TypeError:
            return False

    def sequence_makers(self, primals: Iterable[object]) -> None:
        """Functions that return a list or tuple of arrays (their adjoint is a list)."""
        self._ready()
        self._sequence_makers.update(primals)

    def makes_sequence(self, primal: object) -> bool:
        self._ready()
        try:
            return primal in self._sequence_makers
        except TypeError:
            return False

    def sequence_params(self, params: dict[object, tuple[str, ...]]) -> None:
        """Parameters that take a list of arrays, whose adjoint the rule gives as a list."""
        self._ready()
        self._sequence_params.update(params)

    def sequence_params_of(self, primal: object) -> tuple[str, ...]:
        self._ready()
        try:
            return self._sequence_params.get(primal, ())
        except TypeError:
            return ()

    def makes_new_array(self, primal: object) -> bool:
        self._ready()
        try:
            return primal in self._array_makers
        except TypeError:
            return False
