"""Certified upper bounds at paper scale; prints figures.

lora: a paper-scale day (200 mixed nodes, 144 slots, Poisson(80) arrivals, 5
vendors: ``aisched.scenarios.lora.generate``, ~11,755 tasks), bound by
:func:`aisched.bounds.lora.bound.bound` within ``--lora-time`` seconds of
rounds; tenants: ``aisched.scenarios.tenants.generate``'s defaults (200 jobs,
100 servers, 14 users). Per family: seconds, rounds, the certified bound, the
best primal value (a verified plan), the proven gap ``bound - primal``, and
the online algorithm's value (pdFTSP, Astraea) with its ratio to the bound
(a lower estimate of its true ratio to the optimum).

genai: the paper's largest setting (10 edges, 500 slots, Poisson(7) arrivals, homo-M:
``aisched.scenarios.genai.generate``, 3,451 jobs at seed 0), bound by
:func:`aisched.bounds.genai.bound.bound` within ``--genai-time`` seconds, against ComDOS
(Algorithm 2, the paper's default readings).

lora also prints pdFTSP's competitive ratio against the bound, ``bound / pdFTSP``
(>= the true ``OPT / pdFTSP``: an upper estimate; the paper's claim is <= 3), and
its ratio ``pdFTSP / bound`` (a lower estimate of ``pdFTSP / OPT``). pdFTSP's
plan is the bound's ``incumbent`` (its schedules seed the configuration LP;
``--no-incumbent`` to start without).

Usage: ``python benchmarks/bench_bound.py [--family lora|tenants|genai|both|all] [--lora-time 240]
[--method colgen|subgradient] [--smoothing 0.5] [--warm] [--no-incumbent] [--tenants-time 120]
[--genai-time 300] [--genai-slots 500] [--genai-rate 7] [--seed 0]`` (``both`` = lora and tenants,
``all`` = the three).
"""

from __future__ import annotations

import argparse
import os
import time

import aisched
import aisched.bounds  # noqa: F401  (registers the certified bounds with aisched.bound)


def _show(name: str, out, online_name: str, online_value: float, online_s: float) -> None:
    print(f"[{name}] bound {out.bound:.6g} ({out.status}, {out.info['iterations']} rounds, {out.runtime_s:.1f} s, "
          f"columns {out.info['columns']}, LP {out.info['lp_value']:.6g})")
    print(f"[{name}] best primal {out.objective:.6g}; proven gap {out.bound - out.objective:.6g} "
          f"({(out.bound - out.objective) / max(abs(out.bound), 1e-12):.1%} of the bound)")
    print(f"[{name}] {online_name} {online_value:.6g} in {online_s:.1f} s; ratio to the bound "
          f"{online_value / out.bound:.4f} (a lower estimate of its ratio to the optimum)")
    extra = {k: v for k, v in out.info.items() if k.endswith("_s") or k in ("exact_units", "primal_method")}
    print(f"[{name}] info {extra}")


def _genai(args: argparse.Namespace) -> None:
    """genai at paper scale: the certified bound, its primal, and ComDOS's ratio to the bound."""
    inst = aisched.scenarios.genai.generate(args.seed, edges=10, capacity="homo-M", slots=args.genai_slots,
                                            arrival_rate=args.genai_rate)
    print(f"[genai] {inst.num_jobs} jobs, {inst.num_edges} edges, {inst.num_slots} slots")
    out = aisched.bound(inst, time_limit=args.genai_time)
    print(f"[genai] cyclic-skeleton jobs {out.info['cyclic_jobs']}, relaxed (capped) at the best bound "
          f"{out.info['relaxed_jobs']}, conditional solves {out.info['conditional_solves']}, "
          f"proven optimal {out.info['proven_optimal']}")
    tic = time.perf_counter()
    online = aisched.run("comdos", inst)
    _show("genai", out, "ComDOS", online.objective, time.perf_counter() - tic)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--family", choices=["lora", "tenants", "genai", "both", "all"], default="both")
    ap.add_argument("--lora-time", type=float, default=240.0)
    ap.add_argument("--smoothing", type=float, default=0.5, help="lora colgen: Wentges smoothing weight")
    ap.add_argument("--no-incumbent", action="store_true", help="lora: do not seed the bound with pdFTSP's plan")
    ap.add_argument("--method", choices=["colgen", "subgradient"], default="colgen")
    ap.add_argument("--tenants-time", type=float, default=120.0)
    ap.add_argument("--genai-time", type=float, default=300.0)
    ap.add_argument("--genai-slots", type=int, default=500)
    ap.add_argument("--genai-rate", type=float, default=7.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--warm", action="store_true", help="lora: start from pdFTSP's final prices")
    args = ap.parse_args()
    print(f"load average {os.getloadavg()}; cores {os.cpu_count()}")
    if args.family in ("genai", "all"):
        _genai(args)
    if args.family in ("lora", "both", "all"):
        inst = aisched.scenarios.lora.generate(args.seed, nodes=200, slots=144, arrival_rate=80, vendors=5)
        print(f"[lora] {inst.num_tasks} tasks, {inst.num_nodes} nodes, {inst.num_slots} slots")
        tic = time.perf_counter()
        online = aisched.run("pdftsp", inst)
        online_s = time.perf_counter() - tic
        tic = time.perf_counter()
        start = online.prices if args.warm else None
        out = aisched.bound(inst, time_limit=args.lora_time, method=args.method, prices=start,
                            smoothing=args.smoothing, incumbent=None if args.no_incumbent else online)
        print(f"[lora] bound wall {time.perf_counter() - tic:.1f} s (starting prices: "
              f"{'pdFTSP final duals' if args.warm else 'zero'}; node classes {out.info['node_classes']}; "
              f"primal from {out.info['primal_source']}; L per round (M) "
              f"{[round(v / 1e6, 1) for v in out.info['lagrangian_history']]})")
        _show("lora", out, "pdFTSP", online.objective, online_s)
        print(f"[lora] pdFTSP competitive ratio against the bound: bound / pdFTSP = "
              f"{out.bound / online.objective:.4f} (>= OPT / pdFTSP; the paper's claim: <= 3); gap bound - pdFTSP "
              f"{out.bound - online.objective:.6g} ({(out.bound - online.objective) / out.bound:.1%} of the bound)")
    if args.family in ("tenants", "both", "all"):
        inst = aisched.scenarios.tenants.paper_instance(seed=args.seed)
        print(f"[tenants] {inst.num_jobs} jobs, {inst.num_servers} servers, {inst.num_slots} slots")
        out = aisched.bound(inst, time_limit=args.tenants_time)
        tic = time.perf_counter()
        online = aisched.run("astraea", inst)
        _show("tenants", out, "Astraea", online.objective, time.perf_counter() - tic)


if __name__ == "__main__":
    main()
