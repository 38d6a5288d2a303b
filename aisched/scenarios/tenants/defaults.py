"""The `tenants` generator's light constants: the embedded scenario and the option choices.

Pure Python (no NumPy), so ``aisched compare tenants --help`` reads them without
loading the numerical stack; :mod:`~aisched.scenarios.tenants.generator` uses
the same objects. ``UTILITIES`` is a copy of :data:`aisched.models.tenants.UTILITIES`
(``tests/test_cli.py`` checks they are equal).
"""

from __future__ import annotations

from typing import Any

__all__ = ["DEFAULT_SCENARIO", "DEFAULT_SLOT_HOURS", "HORIZONS", "REDUCED_JOBS", "REDUCED_SLOT_HOURS", "UTILITIES",
           "WINDOWS"]

#: Largest job count of the paper's reduced setting (section 5.2) and its default slot length, hours.
REDUCED_JOBS, REDUCED_SLOT_HOURS = 15, 48.0

#: The slot length of :func:`~aisched.scenarios.tenants.generator.generate` and of ``aisched compare
#: tenants`` when none is given (issue 27, point 4; docs/readings.md T2): one hour (section 5.1) above
#: ``REDUCED_JOBS`` jobs, ``REDUCED_SLOT_HOURS`` at or below, so a small instance has a small MILP.
DEFAULT_SLOT_HOURS = "auto"

#: Rules that pick the trace window and the owners (issue 27, point 2; docs/readings.md T8).
WINDOWS: tuple[str, ...] = ("every_tenant", "draw", "consecutive")

#: Horizon rules of :func:`~aisched.scenarios.tenants.generator.generate`.
HORIZONS: tuple[str, ...] = ("finishable", "ignore_bandwidth")

#: The users' utility shapes (the model's choices).
UTILITIES = ("linear", "convex")

#: The reduced setting of section 5.2 (2 users, 5 servers, 8 jobs); ``slot_hours="auto"`` gives
#: 48-hour slots at 8 jobs, so runs take a few slots and HiGHS proves the optimum in seconds.
DEFAULT_SCENARIO: dict[str, Any] = {
    "seed": 0, "users": 2, "servers": 5, "jobs": 8, "utility": "linear", "trace": "day",
    "slot_hours": DEFAULT_SLOT_HOURS, "gpus_per_server": 8,
}
