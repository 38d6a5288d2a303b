"""Titan's day at the sizes of Figs. 4-9 under slot budgets and JCT forms, on the same instances.

Runs ``titan`` on the day of a figure point (``aisched.scenarios.lora.paper``:
144 slots, mixed nodes, 3 vendors) with the 20 s slot limit (Fig. 13's form,
the reference) and with the budgeted form, and prints per run: wall and CPU
seconds, welfare, scheduled tasks, slot statuses and the load average before
and after. With ``--out`` each run is appended as one JSON line.

Usage::

    PYTHONPATH=$PWD python benchmarks/bench_titan_day.py --point fig4-50 --seeds 0 --forms sized limit20
    PYTHONPATH=$PWD nice -n 10 python benchmarks/bench_titan_day.py --point fig4-50 --slots 12 \
        --forms limit20 limit5 running20

``--slots N`` keeps the tasks arriving in the first N slots (a cheap proxy of the
day; the same sub-instance for every form). Per run it also prints the slot
statuses, the summed slot seconds and the slots over 1 s.

``--stages`` also prints where the day's solver time goes: the
CPU seconds of the count stage and of the JCT stage, each in the first round of a
slot and in its packing repairs, the solves that stopped at the time limit, and the
five longest solves (slot, round, columns, rows, CPU, status). It times every
``titan_model._milp`` call, so it adds nothing to the solves themselves.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

import aisched
import aisched.online.lora.titan.algorithm as titan_loop
from aisched.online.lora.titan import model as titan_model
from aisched.scenarios.lora import generate

_DAY = {"slots": 144, "arrival_rate": 50.0, "vendors": 3, "gpu_mix": "mixed", "deadline": "slack"}
POINTS = {
    "fig4-50": {**_DAY, "nodes": 50},
    "fig8-high": {**_DAY, "nodes": 100, "arrival_rate": 80.0},
    "fig9-loose": {**_DAY, "nodes": 100, "deadline": "loose"},
    "fig9-uniform": {**_DAY, "nodes": 100, "deadline": "uniform"},
    "fig7-alibaba": {**_DAY, "nodes": 100, "trace": "alibaba"},
    "fig7-philly": {**_DAY, "nodes": 100, "trace": "philly"},
    "fig7-helios": {**_DAY, "nodes": 100, "trace": "helios"},
}
FORMS = {
    "limit20": {"slot_time_limit": 20.0, "slot_budget": "limit"},
    "limit5": {"slot_time_limit": 5.0, "slot_budget": "limit"},
    "sized": {"slot_time_limit": 20.0, "slot_budget": "sized"},
    # the JCT stage on still-running indicators (titan.running), same problem
    "running20": {"slot_time_limit": 20.0, "jct_form": "running"},
    # the same without the count-stage fallback (titan.greedy): the stopped solve's answer, as before 2026-11-27
    "running20-nofallback": {"slot_time_limit": 20.0, "jct_form": "running", "count_fallback": "none"},
    "running5": {"slot_time_limit": 5.0, "jct_form": "running"},
    "runwork20": {"slot_time_limit": 20.0, "jct_form": "running_work"},
    "runwarm20": {"slot_time_limit": 20.0, "jct_form": "running", "slot_budget": "warm"},
    "runworkwarm20": {"slot_time_limit": 20.0, "jct_form": "running_work", "slot_budget": "warm"},
}


class StageTimer:
    """Times every MILP solve of a Titan day by slot, round and stage (``--stages``).

    Wraps ``titan_model._milp`` (the solves), ``titan_model._solve_program`` (one call
    per round: its first solve is the count stage, the second the JCT stage) and the
    loop's ``solve_slot`` (the slot); :meth:`restore` puts them back. The labels assume
    Titan's objective ``"jct"`` (two solves a round), which every form of :data:`FORMS` runs.
    """

    def __init__(self) -> None:
        self.solves: list[dict] = []
        self._slot, self._round, self._nth = -1, 0, 0
        self._saved = (titan_model._milp, titan_model._solve_program, titan_loop.solve_slot)
        milp, program, slot_fn = self._saved

        def timed_milp(cost, n_int, A, *args, **kwargs):  # type: ignore[no-untyped-def]
            tic = time.process_time()
            out = milp(cost, n_int, A, *args, **kwargs)
            self._nth += 1
            self.solves.append({"slot": self._slot, "round": self._round,
                                "stage": "count" if self._nth == 1 else "jct", "cols": int(cost.size),
                                "rows": int(A.shape[0]), "cpu_s": time.process_time() - tic, "status": out[0]})
            return out

        def counted_program(*args, **kwargs):  # type: ignore[no-untyped-def]
            self._round += 1
            self._nth = 0
            return program(*args, **kwargs)

        def slot_solve(instance, tasks, *args, **kwargs):  # type: ignore[no-untyped-def]
            self._slot, self._round = int(instance.arrival[tasks[0]]), 0
            return slot_fn(instance, tasks, *args, **kwargs)

        titan_model._milp, titan_model._solve_program, titan_loop.solve_slot = timed_milp, counted_program, slot_solve

    def restore(self) -> None:
        titan_model._milp, titan_model._solve_program, titan_loop.solve_slot = self._saved

    def report(self) -> str:
        """Lines: CPU by stage and round kind, stops at the limit, the longest solves."""
        parts: dict[str, float] = {}
        for r in self.solves:
            key = f"{r['stage']} stage, {'first round' if r['round'] == 1 else 'repairs'}"
            parts[key] = parts.get(key, 0.0) + r["cpu_s"]
        total = sum(parts.values())
        lines = [f"  solver CPU {total:.1f} s in {len(self.solves)} solves: " + ", ".join(
            f"{k} {v:.1f} s ({100 * v / max(total, 1e-9):.0f} %)" for k, v in sorted(parts.items()))]
        stopped = [r for r in self.solves if r["status"] != "optimal"]
        lines.append(f"  solves not proved (time limit): {len(stopped)}, {sum(r['cpu_s'] for r in stopped):.1f} s CPU")
        for r in sorted(self.solves, key=lambda r: -r["cpu_s"])[:5]:
            lines.append(f"  slot {r['slot']} round {r['round']} {r['stage']}: {r['cols']} columns, {r['rows']} rows, "
                         f"{r['cpu_s']:.1f} s CPU, {r['status']}")
        return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--point", choices=sorted(POINTS), action="append", required=True)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument("--forms", nargs="+", choices=sorted(FORMS), default=["sized", "limit20"])
    parser.add_argument("--out", default=None, help="append one JSON line per run")
    parser.add_argument("--progress", action="store_true", help="print every slot taking over 1 s")
    parser.add_argument("--slots", type=int, default=None,
                        help="keep only the tasks arriving in the first N slots (a proxy of the day)")
    parser.add_argument("--stages", action="store_true",
                        help="print the solver CPU by stage (count, JCT) and round, and the longest solves")
    args = parser.parse_args(argv)
    for point in args.point:
        for seed in args.seeds:
            inst = generate(seed=seed, **POINTS[point])
            if args.slots is not None:
                inst = inst.subset(np.nonzero(inst.arrival < args.slots)[0])
            for form in args.forms:
                load0 = os.getloadavg()
                tic, cpu = time.perf_counter(), time.process_time()
                def show(slot: int, res: object) -> None:
                    if res.seconds > 1.0:  # type: ignore[attr-defined]
                        print(f"  slot {slot}: {res.status} {res.seconds:.1f} s, "  # type: ignore[attr-defined]
                              f"rounds {res.rounds}, load {os.getloadavg()[0]:.1f}", flush=True)  # type: ignore[attr-defined]

                timer = StageTimer() if args.stages else None
                try:
                    out = aisched.run("titan", inst, **FORMS[form], progress=show if args.progress else None)
                finally:
                    if timer is not None:
                        timer.restore()
                wall, cpu = time.perf_counter() - tic, time.process_time() - cpu
                row = {"point": point, "seed": seed, "form": form, "tasks": inst.num_tasks,
                       "wall_s": round(wall, 1), "cpu_s": round(cpu, 1), "welfare": out.objective,
                       "scheduled": out.num_admitted, "statuses": out.info["slot_status_counts"],
                       "fallback_slots": out.info.get("slots_count_fallback"),
                       "slots": args.slots, "total_jct": out.info["total_jct"],
                       "slot_s_max": round(max(out.info["slot_seconds"], default=0.0), 1),
                       "slots_over_1s": int(sum(x > 1.0 for x in out.info["slot_seconds"])),
                       "load_before": [round(x, 2) for x in load0],
                       "load_after": [round(x, 2) for x in os.getloadavg()],
                       "date": time.strftime("%Y-%m-%d %H:%M")}
                print(json.dumps(row), flush=True)
                if timer is not None:
                    print(timer.report(), flush=True)
                if args.out:
                    with open(args.out, "a") as fh:
                        fh.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
