"""The `tenants` generator's light constants: the embedded scenario and the option choices.

Pure Python (no NumPy), so ``aisched compare tenants --help`` reads them without
loading the numerical stack; :mod:`~aisched.scenarios.tenants.generator` uses
the same objects. ``UTILITIES`` is a copy of :data:`aisched.models.tenants.UTILITIES`
(``tests/test_cli.py`` checks they are equal).
"""

from __future__ import annotations

from typing import Any

__all__ = ["DEFAULT_SCENARIO", "DEFAULT_SLOT_HOURS", "HORIZONS", "PAPER_SCENARIO", "REDUCED_JOBS", "REDUCED_SLOT_HOURS",
           "TRACE_CHOICES", "UTILITIES", "WINDOWS"]

#: Largest job count of the paper's reduced setting (section 5.2) and its default slot length, hours.
REDUCED_JOBS, REDUCED_SLOT_HOURS = 15, 48.0

#: The slot length of :func:`~aisched.scenarios.tenants.generator.generate` and of ``aisched compare
#: tenants`` when none is given (docs/readings/tenants.md T2): one hour (section 5.1) above
#: ``REDUCED_JOBS`` jobs, ``REDUCED_SLOT_HOURS`` at or below, so a small instance has a small MILP.
DEFAULT_SLOT_HOURS = "auto"

#: Rules that pick the trace window and the owners (docs/readings/tenants.md T8).
WINDOWS: tuple[str, ...] = ("every_tenant", "draw", "consecutive")

#: Horizon rules of :func:`~aisched.scenarios.tenants.generator.generate`.
HORIZONS: tuple[str, ...] = ("finishable", "ignore_bandwidth")

#: The users' utility shapes (the model's choices).
UTILITIES = ("linear", "convex")

#: What ``aisched compare tenants --trace`` accepts: a Philly extract, or ``synthetic`` (the API's ``trace=None``).
TRACE_CHOICES: tuple[str, ...] = ("day", "week", "synthetic")

#: The default scenario of ``aisched compare tenants`` and of
#: :func:`~aisched.scenarios.tenants.generator.generate` alike: the reduced setting of section 5.2
#: (2 users, 5 servers, 8 jobs); ``slot_hours="auto"`` gives 48-hour slots at 8 jobs, so runs take
#: a few slots and HiGHS proves the optimum in seconds.
DEFAULT_SCENARIO: dict[str, Any] = {
    "seed": 0, "users": 2, "servers": 5, "jobs": 8, "utility": "linear", "trace": "day",
    "slot_hours": DEFAULT_SLOT_HOURS, "gpus_per_server": 8,
}

#: Section 5.1's default setting (14 Philly tenants, 100 servers "set by default", one-hour slots) with
#: 200 jobs, the base point of the paper figures (``tenants/fig4a-jobs-linear`` and the others):
#: :func:`~aisched.scenarios.tenants.generator.paper_instance` draws it.
PAPER_SCENARIO: dict[str, Any] = {"users": 14, "servers": 100, "jobs": 200, "utility": "linear", "trace": "day",
                                  "slot_hours": 1.0}
