"""UP (``aisched.run("up")``) beside the reference simulator's Uniform Progress on AWS windows.

The setting of the peer check: one V100 (``N_max = 1``), 48 h of work
(96 slots), deadlines 52 / 60 / 70 h (104 / 120 / 140 slots), 30-minute slots,
on-demand 3x spot (3 and 1 per slot), restart overhead 0, 0.1 and 0.2 h
(``mu_1 = 1``, 0.8, 0.6); six windows of the AWS availability traces in
``../shared/data/spot_traces`` (30-minute slots as ``load_spot_trace`` reads
them; spot is there in a slot when its count is ``>= 1``).

The reference is *run*, not transcribed: ``sky_spot``'s ``TraceEnv``,
``RCCRThresholdStrategy`` and ``_simulate_one`` from a working copy of
``andylizf/skynomad-artifact`` (``--artifact DIR``, the folder holding
``sky_spot/``), on a trace file written with the same 30-minute series (its
``data`` is 1 where spot is absent, as ``TraceEnv.spot_available`` reads it).
Ours runs with ``changeover="on"`` (a move between spot and on-demand costs a
restart, as in the reference) and ``"off"`` (the paper's model).

Usage: ``python benchmarks/check_up_reference.py --artifact /tmp/skynomad``.
Prints one row per cell: the reference's cost, ours, and the per-slot kinds
where they differ.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

import numpy as np

import aisched
from aisched._paths import DATA_DIR
from aisched.models.spot import SpotInstance
from aisched.scenarios.spot.traces import load_spot_trace

#: (trace file, first slot) of the six windows.
WINDOWS = (
    ("availability_1-node_aws-02-15-2023_us-east-1c_v100_1.json", 0),
    ("availability_1-node_aws-02-15-2023_us-east-1c_v100_1.json", 1000),
    ("availability_1-node_aws-10-26-2022_us-west-2a_v100_8.json", 0),
    ("availability_16-node_aws-08-27-2023_us-west-2a_v100_1.json", 0),
    ("preemption_1-node_aws-04-22-2023_us-west-2b_v100_1.json", 0),
    ("preemption_4-node_aws-08-03-2023_us-east-2a_v100_1.json", 0),
)
WORK, DEADLINES, OVERHEADS_H = 96, (104, 120, 140), (0.0, 0.1, 0.2)
OD_PRICE, SPOT_PRICE = 3.0, 1.0


def reference_cost(sky: SimpleNamespace, avail: np.ndarray, deadline: int, overhead_h: float,
                   folder: Path) -> tuple[float, list[str]]:
    """Run ``rc_cr_threshold`` on the series; its cost per slot units and the kinds it ran."""
    path = folder / "trace.json"
    meta = {"gap_seconds": 1800, "price_info": {"on_demand_price": OD_PRICE, "price": SPOT_PRICE}}
    path.write_text(json.dumps({"metadata": meta, "data": [0 if a else 1 for a in avail]}))
    env = sky.env.TraceEnv(str(path), 0.0)
    args = SimpleNamespace(deadline_hours=deadline / 2, restart_overhead_hours=[overhead_h], keep_on_demand=None)
    strategy = sky.rc_cr_threshold.RCCRThresholdStrategy(args)
    strategy.reset(env, sky.task.SingleTask({"duration": WORK / 2}))
    sky.simulate._simulate_one(env, strategy)
    if not strategy.task_done:
        raise RuntimeError("the reference missed the deadline")
    kinds = [c.name for c in env.cluster_type_histroy[1:]]
    return env.accumulated_cost * 3600 / env.gap_seconds, kinds


def ours(avail: np.ndarray, deadline: int, mu: float, changeover: str) -> tuple[float, list[str]]:
    """``aisched.run("up")`` on the same series: cost and kinds in slots ``0..d-1``."""
    slots = 2 * deadline
    series = np.zeros(slots, np.int64)
    series[: min(slots, avail.size)] = avail[:slots]
    inst = SpotInstance(work=float(WORK), deadline=deadline, min_gpus=1, max_gpus=1, value=0.0,
                        hard_deadline_factor=1.5, scale_up_efficiency=mu, scale_down_efficiency=mu,
                        on_demand_price=OD_PRICE, spot_price=np.full(slots, SPOT_PRICE),
                        spot_available=series, changeover=changeover)
    out = aisched.run("up", inst)
    od, sp = out.plan["on_demand"].values, out.plan["spot"].values
    cost = float(OD_PRICE * od.sum() + SPOT_PRICE * sp.sum())
    kinds = ["SPOT" if s else "ON_DEMAND" if o else "NONE" for o, s in zip(od, sp)]
    last = max(i for i, k in enumerate(kinds) if k != "NONE") if any(k != "NONE" for k in kinds) else -1
    return cost, kinds[: last + 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--artifact", type=Path, required=True, help="working copy holding sky_spot/")
    opts = parser.parse_args()
    sys.path.insert(0, str(opts.artifact))
    logging.disable(logging.WARNING)
    import sky_spot.env
    import sky_spot.simulate
    import sky_spot.strategies.rc_cr_threshold
    import sky_spot.task
    sky = SimpleNamespace(env=sky_spot.env, simulate=sky_spot.simulate, task=sky_spot.task,
                          rc_cr_threshold=sky_spot.strategies.rc_cr_threshold)
    equal = {"on": 0, "off": 0}
    cells = 0
    with tempfile.TemporaryDirectory() as tmp:
        print("window | deadline | overhead_h | reference | ours(on) | ours(off) | first differing slot (on)")
        for name, start in WINDOWS:
            series = (load_spot_trace(DATA_DIR / "spot_traces" / name) >= 1).astype(np.int64)[start:]
            for deadline in DEADLINES:
                for overhead in OVERHEADS_H:
                    mu = 1.0 - 2 * overhead
                    ref, ref_kinds = reference_cost(sky, series[: 2 * deadline + 2], deadline, overhead, Path(tmp))
                    on, on_kinds = ours(series, deadline, mu, "on")
                    off, _ = ours(series, deadline, mu, "off")
                    cells += 1
                    equal["on"] += abs(on - ref) < 1e-6
                    equal["off"] += abs(off - ref) < 1e-6
                    diff = next((i for i, (a, b) in enumerate(zip(ref_kinds, on_kinds)) if a != b),
                                None if len(ref_kinds) == len(on_kinds) else min(len(ref_kinds), len(on_kinds)))
                    print(f"{name[:38]}@{start} | {deadline} | {overhead} | {ref:.2f} | {on:.2f} | {off:.2f} | "
                          f"{'-' if diff is None else diff}")
    print(f"cells {cells}: ours(changeover on) == reference on {equal['on']}, ours(off) on {equal['off']}")


if __name__ == "__main__":
    main()
