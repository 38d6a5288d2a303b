"""Helpers of the fuzz suite: a wall-clock guard (no hang) and the profiles."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

from hypothesis import HealthCheck, Phase, settings

#: Default profile: a few dozen inputs per entry point (the whole fuzz folder stays about a minute).
#: Derandomized, so a CI run is reproducible (the same inputs every time); the ``slow`` profile
#: below draws fresh random inputs on every run and is where new findings come from.
FAST = settings(max_examples=40, deadline=None, database=None, phases=[Phase.explicit, Phase.generate],
                derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
#: ``-m slow``: the deeper profile.
DEEP = settings(max_examples=600, deadline=None, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

#: Seconds one input may take before it counts as a hang.
HANG_SECONDS = 30


class Hang(AssertionError):
    """One input ran past :data:`HANG_SECONDS`."""


@contextlib.contextmanager
def no_hang(what: object, seconds: int = HANG_SECONDS) -> Iterator[None]:
    """Fail with :class:`Hang` naming ``what`` if the block runs longer than ``seconds`` (main thread only)."""
    if threading.current_thread() is not threading.main_thread():  # signals need the main thread
        yield
        return

    def _alarm(signum: int, frame: object) -> None:
        raise Hang(f"{what!r} ran longer than {seconds} s")

    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
