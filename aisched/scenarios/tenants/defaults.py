"""The `tenants` generator's light constants: the embedded scenario and the option choices.

Pure Python (no NumPy), so ``aisched compare tenants --help`` reads them without
loading the numerical stack; :mod:`~aisched.scenarios.tenants.generator` uses
the same objects. ``UTILITIES`` is a copy of :data:`aisched.models.tenants.UTILITIES`
(``tests/test_cli.py`` checks they are equal).
"""

from __future__ import annotations

from typing import Any

__all__ = ["DEFAULT_SCENARIO", "HORIZONS", "REDUCED_JOBS", "REDUCED_SLOT_HOURS", "UTILITIES"]

#: Largest job count of the paper's reduced setting (section 5.2) and its default slot length, hours.
REDUCED_JOBS, REDUCED_SLOT_HOURS = 15, 48.0

#: Horizon rules of :func:`~aisched.scenarios.tenants.generator.generate`.
HORIZONS: tuple[str, ...] = ("finishable", "ignore_bandwidth")

#: The users' utility shapes (the model's choices).
UTILITIES = ("linear", "convex")

#: The reduced setting of section 5.2 (2 users, 5 servers, 8 jobs) with 48-hour
#: slots, so runs take a few slots and HiGHS proves the optimum in seconds.
DEFAULT_SCENARIO: dict[str, Any] = {
    "seed": 0, "users": 2, "servers": 5, "jobs": 8, "utility": "linear", "trace": "day",
    "slot_hours": 48.0, "gpus_per_server": 8,
}
