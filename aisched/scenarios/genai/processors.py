"""HEFT's processors against today's baselines at the calibration's target points (docs/readings/genai.md A2d).

Issue 61 item 4. The six baseline-only relations of :data:`~aisched.scenarios.genai.silent.REGIME_TARGETS`
(HEFT-A / HEFT-MA and Random-A / HEFT-MA at Fig. 4's 500 slots and Fig. 7's Poisson 3 and 7) read with the
calibration's own estimator (:func:`aisched.experiments.verdicts.fit.estimate`: ratio of means, 90 % paired
bootstrap over seeds, met / missed / undecided against the paper's value) under three readings of an edge's
GPUs (:data:`READINGS`):

- ``none``: IP (5) as printed, today's baselines;
- ``gpus=4``: at most 4 tasks running on an edge in any slot (A2c);
- ``processors=4``: each edge 4 processors, HEFT's own insertion policy (A2d).

Beside each relation: the most tasks running at once on one edge over the seeds, per baseline
(:func:`aisched.online.genai.metrics.utilisation`'s ``tasks_running_peak``), and on how many seeds HEFT-A
and HEFT-MA choose the same models (their plans' ``model`` arrays equal, every task of every job). At the
silent default or at A-silent's fit (:data:`FIT`). Only HEFT-A, HEFT-MA and Random-A run: nothing here runs
ComDOS or reads its results.

``python -m aisched.scenarios.genai.processors --seeds 3000 --count 10 --settings both`` (the table of
A2d: held-out seeds 3000-3009, all three points, default and fit; A2d timed the nine runs of a seed at
about 50 s at Fig. 4 and 8-20 s at Fig. 7 on 2 busy cores), or
``--points fig7_p3 --settings fit``; ``--slots N`` shrinks every point to ``N`` slots for a smoke run
(the relations are then not at the paper's points).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from aisched.errors import InvalidScenarioError
from aisched.families import RegimeTarget
from aisched.scenarios.genai.silent import FIG4_POINT, FIG7_HEAVY_POINT, FIG7_LIGHT_POINT, REGIME_TARGETS

if TYPE_CHECKING:
    from aisched.outcome import Outcome

__all__ = ["BASELINES", "FIT", "POINTS", "READINGS", "SETTINGS", "measure", "table", "main"]

#: The baselines run (the relations' algorithms): never ComDOS.
BASELINES: tuple[str, ...] = ("heft_a", "heft_ma", "random_a")
#: The readings compared: each one's options to every baseline.
READINGS: dict[str, dict[str, int]] = {"none": {}, "gpus=4": {"gpus": 4}, "processors=4": {"processors": 4}}
#: The calibration's target points by short name (the generator parameters of silent.py).
POINTS: dict[str, dict[str, Any]] = {"fig4_500": FIG4_POINT, "fig7_p3": FIG7_LIGHT_POINT,
                                     "fig7_p7": FIG7_HEAVY_POINT}
#: A-silent's fit (docs/readings/genai.md A-silent): revenue 0.6, every candidate list shuffled, transfer 2.
FIT: dict[str, float] = {"revenue_scale": 0.6, "candidate_shuffle": 1.0, "transfer_scale": 2.0}
#: The ``--settings`` choices: the silent values of each setting run (``{}``: the generator's defaults).
SETTINGS: dict[str, tuple[dict[str, float], ...]] = {"default": ({},), "fit": (dict(FIT),), "both": ({}, dict(FIT))}


def _targets(point: Mapping[str, Any]) -> list[RegimeTarget]:
    """The regime targets standing at ``point`` (two: HEFT-A / HEFT-MA and Random-A / HEFT-MA)."""
    return [target for target in REGIME_TARGETS if dict(target.at) == dict(point)]


def _same_models(first: Outcome, second: Outcome) -> bool:
    """Whether two genai outcomes' plans choose the same model for every task (``-1`` where none)."""
    return bool((first.plan["model"].values == second.plan["model"].values).all())


def measure(seeds: Sequence[int], settings: Sequence[Mapping[str, float]] = ({},),
            points: Sequence[str] = tuple(POINTS), readings: Sequence[str] = tuple(READINGS),
            size: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """Per setting, point and reading: both relations' estimates, peak tasks on an edge, model ties.

    Parameters
    ----------
    seeds
        The seeds, paired across baselines and readings (held out: 3000+, the calibration's confirmation).
    settings
        Silent values per setting (``revenue_scale``, ``candidate_shuffle``, ``transfer_scale``; absent =
        default): ``({},)`` the default, :data:`FIT` the fit.
    points
        Names from :data:`POINTS`.
    readings
        Names from :data:`READINGS`.
    size
        Generator parameters laid over every point (``{"slots": 20, "edges": 3}``) for a smoke run or a test;
        ``None`` (default): the paper's points.

    Returns
    -------
    list of dict
        ``{"setting", "point", "reading", "seeds", "targets": [TargetEstimate.to_json(), ...],
        "peak": {baseline: (lowest, highest)}, "profit": {baseline: mean}, "same_models": seeds}``,
        ``peak`` the most tasks running at once on one edge, lowest and highest over the seeds, and
        ``same_models`` how many seeds HEFT-A and HEFT-MA choose the same model for every task.

    Raises
    ------
    InvalidScenarioError
        ``seeds`` empty, a point not in :data:`POINTS` or a reading not in :data:`READINGS`, naming it.
    """
    from aisched.core import runner
    from aisched.experiments.verdicts.fit import estimate
    from aisched.online.genai.metrics import utilisation
    from aisched.scenarios.genai.generator import generate

    if not len(seeds):
        raise InvalidScenarioError("seeds", "= [] must name at least one seed")
    for name, known, what in (("points", POINTS, points), ("readings", READINGS, readings)):
        unknown = [item for item in what if item not in known]
        if unknown:
            raise InvalidScenarioError(name, f"= {unknown} not known (known: {', '.join(known)})")
    rows = []
    for setting in settings:
        for point_name in points:
            point = POINTS[point_name]
            objectives: dict[str, dict[str, dict[int, float]]] = {
                reading: {baseline: {} for baseline in BASELINES} for reading in readings}
            peaks: dict[str, dict[str, list[float]]] = {
                reading: {baseline: [] for baseline in BASELINES} for reading in readings}
            ties = dict.fromkeys(readings, 0)
            for seed in seeds:
                instance = generate(int(seed), **{**point, **(size or {}), **setting})
                for reading in readings:
                    outcomes = {baseline: runner.run(baseline, instance, **READINGS[reading]) for baseline in BASELINES}
                    for baseline, outcome in outcomes.items():
                        objectives[reading][baseline][int(seed)] = float(outcome.objective)
                        peaks[reading][baseline].append(utilisation(instance, outcome)["tasks_running_peak"])
                    ties[reading] += _same_models(outcomes["heft_a"], outcomes["heft_ma"])
            for reading in readings:
                rows.append({
                    "setting": dict(setting), "point": point_name, "reading": reading, "seeds": len(seeds),
                    "targets": [estimate(target, objectives[reading]).to_json() for target in _targets(point)],
                    "peak": {baseline: (min(found), max(found)) for baseline, found in peaks[reading].items()},
                    "profit": {baseline: sum(by_seed.values()) / len(by_seed)
                               for baseline, by_seed in objectives[reading].items()},
                    "same_models": ties[reading]})
    return rows


def _relation(target: Mapping[str, Any]) -> str:
    """``0.703: 1.000 [1.000, 1.000] missed``: the paper's value, ours, its interval and status."""
    def number(value: float | None) -> str:
        return "nan" if value is None else f"{value:.3f}"
    return (f"{number(target['paper'])}: {number(target['estimate'])} "
            f"[{number(target['low'])}, {number(target['high'])}] {target['status']}")


def table(rows: Sequence[Mapping[str, Any]]) -> str:
    """The rows of :func:`measure` as a plain text table, one line a (setting, point, reading)."""
    header = ("setting", "point", "reading", "HEFT-A / HEFT-MA (paper: ours [90 %])",
              "Random-A / HEFT-MA (paper: ours [90 %])", "peak A / MA / R", "same models")
    lines = [header]
    for row in rows:
        by_name = {target["name"].split(" at ")[0]: target for target in row["targets"]}
        relations = [_relation(by_name[name]) if name in by_name else "-"
                     for name in ("HEFT-A / HEFT-MA", "Random-A / HEFT-MA")]
        peak = " / ".join(f"{low:.0f}" if low == high else f"{low:.0f}-{high:.0f}"
                          for low, high in (row["peak"][baseline] for baseline in BASELINES))
        setting = "fit" if row["setting"] == FIT else ("default" if not row["setting"] else str(row["setting"]))
        lines.append((setting, row["point"], row["reading"], *relations, peak,
                      f"{row['same_models']}/{row['seeds']}"))
    widths = [max(len(line[column]) for line in lines) for column in range(len(header))]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip() for line in lines)


def _names(text: str, known: Mapping[str, Any], option: str) -> list[str]:
    """A comma-separated list of names from ``known`` (``all``: every one)."""
    names = list(known) if text == "all" else [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in known]
    if unknown or not names:
        raise InvalidScenarioError(option, f"= {text!r} must name some of {', '.join(known)} (or all)")
    return names


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: measure and print the table (module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m aisched.scenarios.genai.processors", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=3000, help="first seed (default %(default)s)")
    parser.add_argument("--count", type=int, default=10, help="how many seeds (default %(default)s)")
    parser.add_argument("--points", default="all", help=f"comma-separated, of {', '.join(POINTS)} (default all)")
    parser.add_argument("--readings", default="all",
                        help=f"comma-separated, of {', '.join(READINGS)} (default all)")
    parser.add_argument("--settings", choices=tuple(SETTINGS), default="default",
                        help="the silent default, A-silent's fit, or both (default %(default)s)")
    parser.add_argument("--slots", type=int, default=None,
                        help="run every point at this many slots (a smoke run: not the paper's points)")
    args = parser.parse_args(argv)
    if args.count < 1:
        raise InvalidScenarioError("count", f"= {args.count} must be >= 1")
    if args.slots is not None and args.slots < 1:
        raise InvalidScenarioError("slots", f"= {args.slots} must be >= 1")
    points = _names(args.points, POINTS, "points")
    readings = _names(args.readings, READINGS, "readings")
    started = time.perf_counter()
    rows = measure(range(args.seeds, args.seeds + args.count), SETTINGS[args.settings], points, readings,
                   size=None if args.slots is None else {"slots": args.slots})
    print(table(rows))
    print(f"seeds {args.seeds}..{args.seeds + args.count - 1}"
          + ("" if args.slots is None else f"; every point at {args.slots} slots (not the paper's points)")
          + f"; fit = {FIT}; {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
