"""The ``aisched`` command.

``aisched compare lora [options]`` compares the online algorithms of the
`lora` family with the offline optimum on a generated scenario (by default
the embedded one of :func:`aisched.scenarios.lora.default_instance`), prints
a table and writes the outcomes (netCDF), the table (CSV) and two figures.
Bad options exit with status 2 and a one-line message.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from aisched.errors import AischedError

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage dump)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"aisched: error: {message}\n")


def _parser() -> argparse.ArgumentParser:
    from aisched.scenarios.lora import DEFAULT_SCENARIO

    p = _Parser(prog="aisched", description="Online scheduling and pricing of AI workloads.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    cmp_ = sub.add_parser("compare", help="compare online algorithms with the offline optimum")
    fam = cmp_.add_subparsers(dest="family", required=True, parser_class=_Parser)
    lora = fam.add_parser("lora", help="multi-LoRA fine-tuning auction (pdFTSP)")
    d = DEFAULT_SCENARIO
    lora.add_argument("--nodes", type=int, default=d["nodes"], help="GPU nodes (default %(default)s)")
    lora.add_argument("--slots", type=int, default=d["slots"], help="10-minute slots (default %(default)s)")
    lora.add_argument(
        "--arrival-rate", type=float, default=None,
        help="Poisson tasks per slot (default: the embedded scenario's exact task count)",
    )
    lora.add_argument(
        "--tasks", type=int, default=None,
        help=f"exact task count (default {d['tasks']} unless --arrival-rate is given)",
    )
    lora.add_argument("--vendors", type=int, default=d["vendors"], help="labour vendors")
    lora.add_argument("--gpu-mix", choices=("a100", "a40", "mixed"), default=d["gpu_mix"])
    lora.add_argument("--deadline", default=d.get("deadline", "slack"), help="deadline method")
    lora.add_argument("--seed", type=int, default=d["seed"])
    lora.add_argument(
        "--algorithms", default="pdftsp,titan,eft,ntm", help="comma-separated (default %(default)s)"
    )
    lora.add_argument("--time-limit", type=float, default=60.0, help="offline solve limit, seconds")
    lora.add_argument("--no-offline", action="store_true", help="skip the offline optimum")
    lora.add_argument("--out", type=Path, default=Path("results"), help="output folder")
    lora.add_argument("--no-figures", action="store_true", help="skip the PNG figures")
    return p


def _fmt_table(table) -> str:  # type: ignore[no-untyped-def]
    header = f"{'algorithm':<10} {'welfare':>12} {'ratio':>7} {'admitted':>8} {'runtime_s':>10} {'decision_ms':>11}  status"
    lines = [header, "-" * len(header)]
    for name, row in table.iterrows():
        ratio = "" if math.isnan(row["ratio"]) else f"{row['ratio']:.3f}"
        lat = "" if math.isnan(row["decision_median_s"]) else f"{1e3 * row['decision_median_s']:.3f}"
        lines.append(
            f"{name:<10} {row['objective']:>12.2f} {ratio:>7} {row['admitted']:>8d} "
            f"{row['runtime_s']:>10.3f} {lat:>11}  {row['status']}"
        )
    return "\n".join(lines)


def _compare_lora(args: argparse.Namespace) -> int:
    import aisched
    from aisched.scenarios import figures
    from aisched.scenarios.lora import DEFAULT_SCENARIO, generate

    names = [n.strip() for n in args.algorithms.split(",") if n.strip()]
    known = aisched.algorithms("lora")
    for name in names:
        if name not in known:
            raise aisched.UnknownAlgorithmError(f"unknown algorithm {name!r} (known: {', '.join(known)})")
    if args.time_limit is not None and not (math.isfinite(args.time_limit) and args.time_limit > 0):
        raise aisched.InvalidScenarioError("--time-limit", f"= {args.time_limit} must be > 0")
    tasks = args.tasks
    if tasks is None and args.arrival_rate is None:
        tasks = DEFAULT_SCENARIO["tasks"]
    inst = generate(
        seed=args.seed,
        nodes=args.nodes,
        slots=args.slots,
        arrival_rate=2.0 if args.arrival_rate is None else args.arrival_rate,
        tasks=tasks,
        vendors=args.vendors,
        gpu_mix=args.gpu_mix,
        deadline=args.deadline,
    )
    print(
        f"lora scenario: {inst.num_tasks} tasks, {inst.num_nodes} nodes ({args.gpu_mix}), "
        f"{inst.num_slots} slots, {inst.num_vendors} vendors, seed {args.seed}",
        flush=True,
    )
    outcomes: dict[str, aisched.Outcome] = {}
    table = aisched.compare(
        inst, names, offline=not args.no_offline, time_limit=args.time_limit, outcomes=outcomes
    )
    print(_fmt_table(table))
    if "offline" in outcomes:
        off = outcomes["offline"]
        if off.status == "optimal":
            print(f"offline optimum proven by {off.info.get('solver')} in {off.runtime_s:.2f} s")
        else:
            print(
                f"offline solve stopped: status {off.status}, incumbent {off.objective:.2f}, "
                f"bound {off.bound:.2f} (ratios are to the bound)"
            )
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    inst.to_dataset().to_netcdf(out / "lora_instance.nc", engine="netcdf4")
    for name, outcome in outcomes.items():
        outcome.to_netcdf(out / f"lora_{name}.nc")
    table.to_csv(out / "lora_comparison.csv")
    written = ["lora_instance.nc", *(f"lora_{n}.nc" for n in outcomes), "lora_comparison.csv"]
    if not args.no_figures:
        figures.welfare_bars(table, out / "lora_welfare.png", title="lora: social welfare by algorithm")
        written.append("lora_welfare.png")
        if "pdftsp" in outcomes:
            figures.price_heatmap(
                outcomes["pdftsp"].prices, out / "lora_pdftsp_compute_price.png",
                title="pdFTSP final compute price lambda (node x slot)",
            )
            written.append("lora_pdftsp_compute_price.png")
    print(f"wrote {', '.join(written)} to {out}/")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``aisched`` command; returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "compare" and args.family == "lora":
            return _compare_lora(args)
    except AischedError as exc:
        print(f"aisched: error: {exc}", file=sys.stderr)
        return 2
    return 2  # pragma: no cover - argparse requires a command


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
