"""Your own online algorithm for the `spot` family, registered and compared with the offline optimum.

One fine-tuning job must do its work by a soft deadline; each slot it rents
on-demand GPUs at a fixed price or spot GPUs at the slot's price, as many as
the market has (problem (5)). The algorithm, "cheap_spot", sees one slot's
price and availability at a time (online):

- while the job can still finish by the deadline on ``N_max`` on-demand GPUs
  from the next slot on, it runs only on spot GPUs, and only in slots whose
  spot price is below ``threshold`` times the on-demand price (otherwise it
  waits);
- once it cannot (the safety net), it runs ``N_max`` GPUs, spot first and
  on-demand for the rest, until the work is done.

``@register("spot", "cheap_spot")`` makes it a name ``aisched.run`` and
``aisched.compare`` know (with its ``threshold`` parameter checked against
the signature); ``aisched.run`` re-checks the plan against problem (5).

Run: ``python examples/spot_own_algorithm.py`` (a few seconds).
"""

from __future__ import annotations

import time

import numpy as np

import aisched
from aisched.models.spot import make_plan, plan_utility
from aisched.registry import register

TOL = 1e-9


@register("spot", "cheap_spot")
def cheap_spot(instance, *, threshold: float = 0.5) -> aisched.Outcome:
    """Spot GPUs in cheap slots while the deadline is safe; ``N_max`` GPUs, spot first, once it is not."""
    started = time.perf_counter()
    d, full = instance.deadline, float(instance.throughput(instance.max_gpus))
    on_demand = np.zeros(instance.num_slots, dtype=np.int64)
    spot = np.zeros(instance.num_slots, dtype=np.int64)
    done, previous = 0.0, (0, 0)
    for t in range(instance.num_slots):  # one slot at a time: only slot t's price and availability are read
        if done >= instance.work - TOL:
            break
        available = min(int(instance.spot_available[t]), instance.max_gpus)
        later = instance.scale_up_efficiency * full + (d - t - 2) * full if t < d - 1 else 0.0
        if instance.work - done <= later + TOL:  # safe: the deadline holds from the next slot on
            cheap = instance.spot_price[t] <= threshold * instance.on_demand_price
            o, s = 0, (available if cheap and available >= instance.min_gpus else 0)
        else:  # the safety net: N_max GPUs, the spot ones first
            o, s = instance.max_gpus - available, available
        on_demand[t], spot[t] = o, s
        done += instance.slot_work(o, s, *previous)
        previous = (o, s)
    plan = make_plan(instance, on_demand, spot)
    return aisched.Outcome(
        algorithm="cheap_spot", family="spot", objective=plan_utility(instance, on_demand, spot)[0], plan=plan,
        admitted=plan["admitted"].values.astype(bool), runtime_s=time.perf_counter() - started,
        decision_s=np.array([time.perf_counter() - started]), info={"threshold": threshold},
    )


def main() -> None:
    # the paper's LLaMA2-7B job on the synthetic market, soft deadline 10 slots (passed explicitly)
    instance = aisched.scenarios.spot.generate(seed=0, deadline=10, market="synthetic")
    table = aisched.compare(instance, ["cheap_spot", "ahap", "msu", "od_only"], time_limit=30)
    print(f"spot: one job of {instance.work:g} work units, soft deadline {instance.deadline} slots, "
          f"{instance.min_gpus}..{instance.max_gpus} GPUs; objective: utility (value - cost, higher is better)")
    print(table[["objective", "ratio", "reference", "admitted", "status"]].to_string(float_format="%.3f"))
    print("ratio: objective / " + ("the offline optimum (proven)" if table.loc["offline", "reference"] == "optimum"
                                   else "the offline solve's proven bound (it stopped at its time limit)"))


if __name__ == "__main__":
    main()
