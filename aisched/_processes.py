"""Ending a run for good: the stop signals of the command line, and child processes killed.

:func:`catch_stop_signals` routes SIGINT (Ctrl-C) and SIGTERM (what ``timeout``, SLURM and systemd
send) to one handler: the first raises ``KeyboardInterrupt`` where the program is, and the run ends
its workers and keeps what finished (:func:`aisched.experiments.run.sweep.sweep`); the ones after it
are ignored, so that a second Ctrl-C cannot cut that short and leave a worker or a half-written table.
Python ignores an exception raised where it cannot propagate (a garbage-collector callback such as
JAX's, a ``__del__``: "Exception ignored in ..."); until the program has caught the interrupt
(:func:`seen`), the signal is sent again every :data:`RESEND_S` seconds, so none is lost that way.

:func:`kill_all`: a process pool's workers ignore SIGINT and SIGTERM (the parent decides,
:func:`aisched.experiments.run.sweep._init_worker`); when a run ends, however it ends, each one
still there gets SIGKILL, and none is ever joined while it may be blocked on a queue lock another
killed worker held.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Iterable
from typing import Any

__all__ = ["RESEND_S", "catch_stop_signals", "kill_all", "restore_signals", "seen", "stopped_by"]

#: Seconds between the repeats of a stop signal whose interrupt the program has not caught yet.
RESEND_S = 0.5

_LOCK = threading.Lock()
_STATE: dict[str, Any] = {"by": None, "seen": False}


def stopped_by() -> int | None:
    """The signal (its number) that stopped this command, or None."""
    return _STATE["by"]


def seen() -> None:
    """The program caught the interrupt of a stop signal: it is ending; the signals after it are ignored."""
    _STATE["seen"] = True


def _on_stop_signal(number: int, frame: Any) -> None:
    if _STATE["by"] is None:
        _STATE["by"], _STATE["seen"] = number, False
        threading.Thread(target=_resend, args=(number,), name="aisched-stop-signal", daemon=True).start()
        raise KeyboardInterrupt
    if not _STATE["seen"]:  # the first one's interrupt was lost where Python ignores exceptions: again
        raise KeyboardInterrupt


def _resend(number: int) -> None:
    while True:
        time.sleep(RESEND_S)
        with _LOCK:
            if _STATE["by"] != number or _STATE["seen"]:
                return
            os.kill(os.getpid(), number)


def catch_stop_signals() -> dict[int, Any] | None:
    """Route SIGINT and SIGTERM to the stop handler (main thread only); the handlers they had.

    A signal the process was started ignoring (a background job's SIGINT) stays ignored.
    """
    if threading.current_thread() is not threading.main_thread():
        return None
    with _LOCK:
        _STATE["by"], _STATE["seen"] = None, False
    previous: dict[Any, Any] = {"unraisablehook": sys.unraisablehook}
    sys.unraisablehook = _quiet_lost_interrupt
    for number in (signal.SIGINT, signal.SIGTERM):
        handler = signal.getsignal(number)
        if handler is signal.SIG_IGN or handler is None:
            continue
        previous[number] = handler
        signal.signal(number, _on_stop_signal)
    return previous


def restore_signals(previous: dict[int, Any] | None) -> None:
    """Give SIGINT and SIGTERM back the handlers :func:`catch_stop_signals` found; no signal is sent again."""
    if previous is None:
        return
    with _LOCK:
        _STATE["by"], _STATE["seen"] = None, False
    previous = dict(previous)
    sys.unraisablehook = previous.pop("unraisablehook", sys.__unraisablehook__)
    for number, handler in previous.items():
        signal.signal(number, handler)


def _quiet_lost_interrupt(unraisable: Any) -> None:
    """``sys.unraisablehook`` while the stop signals are caught: a stop signal's interrupt that Python
    ignored (raised in a garbage-collector callback) prints no traceback; the signal is sent again."""
    if isinstance(unraisable.exc_value, KeyboardInterrupt):
        return
    sys.__unraisablehook__(unraisable)


def kill_all(processes: Iterable[Any], patience: float = 10.0) -> None:
    """SIGKILL each of ``processes`` (multiprocessing ``Process`` objects) until none is alive.

    Never joins one that may be blocked; gives up after ``patience`` seconds (a process the
    kernel cannot end: in uninterruptible sleep).
    """
    processes = list(processes)
    deadline = time.monotonic() + patience
    while True:
        alive = [p for p in processes if p.is_alive()]
        if not alive or time.monotonic() > deadline:
            return
        for process in alive:
            try:
                process.kill()
            except (OSError, ValueError):  # ended meanwhile, or already closed
                pass
        time.sleep(0.01)
