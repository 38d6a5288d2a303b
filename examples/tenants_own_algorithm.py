"""Your own online algorithm for the `tenants` family, registered and compared with the offline optimum.

Users share a cluster of servers (workers and parameter servers); each
distributed training job earns a revenue that falls with its completion time
(problem (3)). The algorithm, "one_server", decides each job when it arrives
(online) and never moves it later:

- it keeps the job on one server (all workers and one parameter server
  together, the centralised placement of (3j): no gradient traffic between
  servers, so every mini-batch is faster);
- over every server and worker count, it takes the placement and start slot
  with the earliest completion, on resources free for the whole run;
- it admits the job only if its revenue at that completion is positive.

Run: ``python examples/tenants_own_algorithm.py`` (a few seconds).
"""

from __future__ import annotations

import time

import numpy as np

import aisched
from aisched.models.tenants import make_plan, plan_revenue
from aisched.registry import register


@register("tenants", "one_server")
def one_server(instance) -> aisched.Outcome:
    """Each job on one server, at the placement that finishes it earliest; admitted if its revenue is positive."""
    started = time.perf_counter()
    n_jobs, n_slots = instance.num_jobs, instance.num_slots
    free_workers = np.repeat(instance.workers[:, None], n_slots, axis=1)  # (server, slot)
    free_ps = np.repeat(instance.parameter_servers[:, None], n_slots, axis=1)
    start, end = np.full(n_jobs, -1), np.full(n_jobs, -1)
    workers = np.zeros((n_jobs, instance.num_servers), dtype=np.int64)
    parameter_servers = np.zeros_like(workers)
    admitted = np.zeros(n_jobs, dtype=bool)
    decision_s = np.zeros(n_jobs)
    for j in np.argsort(instance.arrival, kind="stable"):  # online: in order of arrival
        tic = time.perf_counter()
        best = None  # (last slot, server, workers, first slot)
        for s in range(instance.num_servers):
            for w in range(min(int(instance.chunks[j]), int(instance.workers[s])), 0, -1):
                slots = int(instance.duration(w, True, [j])[0])  # the run's length, centralised
                for t in range(int(instance.arrival[j]), n_slots - slots + 1):
                    run = slice(t, t + slots)
                    if (free_workers[s, run] >= w).all() and (free_ps[s, run] >= 1).all():
                        if best is None or t + slots - 1 < best[0]:
                            best = (t + slots - 1, s, w, t)
                        break  # the earliest start for this (server, workers)
        if best is not None:
            last, s, w, t = best
            if instance.utility_value(j, last + 1 - instance.arrival[j]) > 0:
                start[j], end[j], admitted[j] = t, last, True
                workers[j, s], parameter_servers[j, s] = w, 1
                free_workers[s, t: last + 1] -= w
                free_ps[s, t: last + 1] -= 1
        decision_s[j] = time.perf_counter() - tic
    plan = make_plan(instance, start, end, workers, parameter_servers, admitted)
    return aisched.Outcome(
        algorithm="one_server", family="tenants", objective=plan_revenue(instance, plan), plan=plan,
        admitted=admitted, runtime_s=time.perf_counter() - started, decision_s=decision_s,
    )


def main() -> None:
    # section 5.2's reduced setting, sizes passed explicitly: 2 users, 5 servers of 8 GPUs, 8 jobs; synthetic
    # arrivals (trace=None), so the example needs no data file
    instance = aisched.scenarios.tenants.generate(seed=0, users=2, servers=5, jobs=8, utility="linear", trace=None)
    table = aisched.compare(instance, ["one_server", "astraea", "batchsche"], time_limit=30)
    print(f"tenants: {instance.num_users} users, {instance.num_servers} servers, {instance.num_jobs} jobs, "
          f"{instance.num_slots} slots; objective: total revenue (higher is better)")
    print(table[["objective", "ratio", "reference", "admitted", "status"]].to_string(float_format="%.3f"))
    print("ratio: objective / " + ("the offline optimum (proven)" if table.loc["offline", "reference"] == "optimum"
                                   else "the offline solve's proven bound (it stopped at its time limit)"))


if __name__ == "__main__":
    main()
