"""A time limit for one phase of a check (SIGALRM: main thread only, else no limit)."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator


class Timeout(BaseException):
    """A phase took longer than its time limit (a BaseException, so that no `except
    Exception` in the code under test swallows it)."""


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise Timeout in the body after `seconds` (no limit for 0 or off the main thread)."""
    if seconds <= 0 or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum, frame):
        raise Timeout(f"no result after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
