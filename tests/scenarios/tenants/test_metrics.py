"""tenants' mechanism diagnostics of a cell, against a plain loop."""

from __future__ import annotations

import numpy as np

import aisched
from aisched.scenarios import tenants as tenants_sc


def test_tenants_sharing_diagnostics_match_a_loop() -> None:
    inst = tenants_sc.generate(seed=1, users=3, servers=2, jobs=12)
    for name in ("astraea", "batchsche", "gandiva_fair", "hived"):
        out = aisched.run(name, inst)
        got = tenants_sc.cell_metrics(inst, out)
        plan = out.plan
        admitted = plan["admitted"].values.astype(bool)
        beyond = 0
        for j in np.nonzero(admitted)[0]:
            u = inst.owner[j]
            for t in range(plan["start"].values[j], plan["end"].values[j] + 1):
                running = [k for k in np.nonzero(admitted & (inst.owner == u))[0]
                           if plan["start"].values[k] <= t <= plan["end"].values[k]]
                workers = sum(int(plan["workers"].values[k].sum()) for k in running)
                ps = sum(int(plan["parameter_servers"].values[k].sum()) for k in running)
                if workers > inst.worker_quota[u] or ps > inst.ps_quota[u]:
                    beyond += 1
                    break
        assert got["jobs_beyond_quota"] == beyond, name
        assert got["users_with_jobs"] == len(set(inst.owner.tolist()))
        assert got["owners_drawn"] == float(inst.workload == "trace-draw")  # a trace rule ran (T8)
        assert got["users_admitted"] == len(set(inst.owner[admitted].tolist()))
        if "shared" in plan:
            assert got["shared_jobs"] == int((plan["shared"].values.astype(bool) & admitted).sum())
            assert 0 <= got["paying_jobs"] <= got["shared_jobs"]
        else:
            assert np.isnan(got["shared_jobs"]) and np.isnan(got["payments"])
