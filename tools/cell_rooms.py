"""Which rooms of aisched one sweep cell passes through: a maintainer's map of a cell's path.

Runs one cell of a paper scenario (``lora/fig4-scale``, reduced, its first point, seed 0, an online
algorithm) in this process under :func:`sys.setprofile`, and prints each room the call path enters
(a room: a sub-package of ``aisched``, a room of ``aisched.experiments``, or a top-level module) with
how many times it is entered from another room. Usage::

    .venv/bin/python tools/cell_rooms.py [SCENARIO] [ALGORITHM]

Works on a checkout from before the rooms too (it falls back to the flat ``aisched.experiments``).
"""

from __future__ import annotations

import collections
import sys


def room(module: str) -> str | None:
    """The room of a module name (``aisched.experiments.run.sweep`` -> ``experiments.run``)."""
    parts = module.split(".")
    if parts[0] != "aisched":
        return None
    if len(parts) == 1:
        return "aisched"
    if parts[1] == "experiments" and len(parts) > 3:
        return f"experiments.{parts[2]}"
    if parts[1] == "experiments" and len(parts) == 3:  # a flat module of the old layout
        return f"experiments({parts[2]})"
    return parts[1]


def main(argv: list[str]) -> int:
    scenario_name = argv[0] if argv else "lora/fig4-scale"
    algorithm = argv[1] if len(argv) > 1 else "eft"
    try:
        from aisched.experiments.run import sweep
        from aisched.experiments.spec import catalog
    except ImportError:  # the flat layout
        from aisched.experiments import catalog, sweep

    scenario = catalog.get(scenario_name).reduced()
    cell = next(c for c in sweep.cells(scenario, seeds=1) if c.algorithm == algorithm)
    sweep.run_cell(cell)  # once untraced: imports and compiles happen here, not in the trace
    entries: collections.Counter[str] = collections.Counter()
    order: list[str] = []
    stack: list[str | None] = []

    def profile(frame, event, arg):  # noqa: ANN001
        if event == "call":
            here = room(frame.f_globals.get("__name__", ""))
            caller = next((r for r in reversed(stack) if r is not None), None)
            if here is not None and here != caller:
                entries[here] += 1
                if here not in order:
                    order.append(here)
            stack.append(here)
        elif event == "return" and stack:
            stack.pop()

    sys.setprofile(profile)
    try:
        sweep.run_cell(cell)
    finally:
        sys.setprofile(None)
    print(f"one cell: {cell.scenario} point {cell.point} seed {cell.seed} {cell.algorithm}")
    print(f"rooms entered: {len(order)}; entries from another room: {sum(entries.values())}")
    for name in order:
        print(f"  {name:28s} {entries[name]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
