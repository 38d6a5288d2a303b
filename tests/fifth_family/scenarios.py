"""The fifth family's scenarios: generator, metrics, one scenario with a claim, the CLI and the record."""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from aisched import families
from tests.fifth_family.models import FAMILY, KnapsackInstance


def generate(seed: int = 0, *, items: int = 8, capacity: float = 10.0) -> KnapsackInstance:
    """``items`` items with values and sizes uniform on [1, 5)."""
    rng = np.random.default_rng(seed)
    return KnapsackInstance(value=rng.uniform(1, 5, items), size=rng.uniform(1, 5, items), capacity=capacity)


def metrics(instance: KnapsackInstance, outcome: Any) -> dict[str, float]:
    """``fill``: the share of the capacity the plan packs."""
    chosen = np.asarray(outcome.plan["admitted"].values, bool)
    return {"fill": float(instance.size[chosen].sum() / instance.capacity)}


def add_scenarios(add: Any) -> None:
    from aisched.experiments.spec.scenario import Claim, Scenario

    add(Scenario(
        name=f"{FAMILY}/fig1-capacity", family=FAMILY, title="value vs capacity", x="capacity",
        values=(6.0, 12.0), base={"items": 8}, algorithms=("threshold",), offline=True, seeds=2, metric="ratio",
        reduced_base={"items": 6},
        claims=(Claim("at_most", "the threshold rule reaches at most the optimum", "threshold", value=1.0),),
    ))


class KnapsackCli(families.FamilyCli):
    help = "online knapsack (a test-only family)"
    algorithms = ("threshold",)
    time_limit = 10.0

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--items", type=int, default=8, help="items")
        parser.add_argument("--capacity", type=float, default=10.0, help="capacity")
        parser.add_argument("--seed", type=int, default=0, help="generator seed")

    def instance(self, args: argparse.Namespace) -> KnapsackInstance:
        return generate(args.seed, items=args.items, capacity=args.capacity)

    def describe(self, instance: Any, args: argparse.Namespace) -> str:
        return f"knapsack scenario: {instance.num_jobs} items, capacity {instance.capacity:g}, seed {args.seed}"


def _hooks() -> families.FamilyHooks:
    return families.FamilyHooks(generate=generate, metrics=metrics, scenarios=add_scenarios,
                                labels={"objective": "value (money units)"})


families.register(families.Family(
    name=FAMILY, objective=families.Objective("value"), proposed="threshold", hooks=_hooks, cli=KnapsackCli,
    item="item", paper_scenarios=("fig1-capacity",), metric_columns={"fill": True},
    modules=("tests.fifth_family.models", "tests.fifth_family.online"),
))
