"""UP and MSU against OD-Only under each reading of section VI-A (docs/readings/spot.md S11).

Fig. 5's two baseline-only relations (:data:`~aisched.scenarios.spot.silent.REGIME_TARGETS`: UP / OD-Only
1.117 and MSU / OD-Only 0.963 at deadline 10 on the Vast.ai market) read with the calibration's own
estimator (:func:`aisched.experiments.verdicts.fit.estimate`: ratio of means, 90 % paired bootstrap over
seeds, met / missed / undecided) for every combination of UP's ``variant`` and MSU's ``near_deadline``,
at the silent default, at the calibration's fit, or over the whole silent grid. Only OD-Only, MSU and UP
run: nothing here reads AHAP's or AHANP's results.

``python -m aisched.scenarios.spot.up_msu --seeds 3000 --count 20`` (default and fit), or
``--seeds 1000 --count 10 --grid --confirm 20`` (the grid on fitting seeds, each setting meeting both
targets rerun on 20 confirmation seeds from 3000)
(``aisched calibrate --reading`` holds one numeric option for every baseline, so it cannot name UP's
variant alone; this is the short script the issue allows.)
"""

from __future__ import annotations

import argparse
import itertools
import math
import time
from collections.abc import Iterable, Sequence
from typing import Any

from aisched.errors import InvalidScenarioError
from aisched.scenarios.spot.silent import FIG5_POINT, REGIME_TARGETS, SILENT_PARAMETERS

__all__ = ["UP_READINGS", "MSU_READINGS", "FIT", "measure", "main"]

#: UP's readings compared (``variant`` of :func:`aisched.online.spot.baselines.up`).
UP_READINGS: tuple[str, ...] = ("reference", "paper", "paper_lagged")
#: MSU's readings compared (``near_deadline`` of :func:`aisched.online.spot.baselines.msu`).
MSU_READINGS: tuple[str, ...] = ("spot_first", "on_demand")
#: The calibration's fit (docs/readings/spot.md S-silent): value 120, availability 8, price 0.85.
FIT: dict[str, Any] = {"value": 120.0, "mean_available": 8.0, "mean_price": 0.85}


def _settings(grid: bool) -> list[dict[str, Any]]:
    """The default (``{}``) and the fit, or every setting of the market/value grid (UP's ``gpus`` aside)."""
    if not grid:
        return [{}, dict(FIT)]
    params = [p for p in SILENT_PARAMETERS if p.algorithm is None]
    out = []
    for values in itertools.product(*(p.grid for p in params)):
        out.append({p.name: v for p, v in zip(params, values) if v is not None})
    return out


def measure(seeds: Sequence[int], settings: Iterable[dict[str, Any]],
            up_readings: Sequence[str] = UP_READINGS,
            msu_readings: Sequence[str] = MSU_READINGS) -> list[dict[str, Any]]:
    """Per setting and reading pair, both targets' estimates.

    Parameters
    ----------
    seeds
        The seeds (held out: 1000+ fitting, 3000+ confirmation, as the calibration's).
    settings
        Silent values per setting (``value``, ``mean_available``, ``mean_price``; absent = default).
    up_readings, msu_readings
        UP's variants and MSU's ``near_deadline`` values.

    Returns
    -------
    list of dict
        ``{"setting", "up", "msu", "targets": [TargetEstimate.to_json(), ...]}``.

    Raises
    ------
    InvalidScenarioError
        ``seeds`` empty (``seeds``), or a reading not an option of its baseline.
    """
    from aisched.core import runner
    from aisched.experiments.verdicts.fit import estimate
    from aisched.scenarios.spot.generator import generate

    if not len(seeds):
        raise InvalidScenarioError("seeds", "= [] must name at least one seed")
    rows = []
    for setting in settings:
        runs: dict[str, dict[int, float]] = {}
        for seed in seeds:
            inst = generate(int(seed), FIG5_POINT["deadline"], FIG5_POINT["market"], **setting)
            runs.setdefault("od_only", {})[seed] = runner.run("od_only", inst).objective
            for m in msu_readings:
                runs.setdefault(f"msu:{m}", {})[seed] = runner.run("msu", inst, near_deadline=m).objective
            for u in up_readings:
                runs.setdefault(f"up:{u}", {})[seed] = runner.run("up", inst, variant=u).objective
        for u, m in itertools.product(up_readings, msu_readings):
            objectives = {"od_only": runs["od_only"], "msu": runs[f"msu:{m}"], "up": runs[f"up:{u}"]}
            rows.append({"setting": setting, "up": u, "msu": m,
                         "targets": [estimate(t, objectives).to_json() for t in REGIME_TARGETS]})
    return rows


def _line(row: dict[str, Any]) -> str:
    parts = [f"{t['name'].split(' at ')[0]} {t['estimate']:.3f} [{t['low']:.3f}, {t['high']:.3f}] {t['status']}"
             for t in row["targets"]]
    return f"{row['setting'] or 'default'} up={row['up']} msu={row['msu']}: " + "; ".join(parts)


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: print each row, and under ``--grid`` how many settings meet each target and both."""
    parser = argparse.ArgumentParser(prog="python -m aisched.scenarios.spot.up_msu", description=__doc__)
    parser.add_argument("--seeds", type=int, default=3000, help="first seed (default %(default)s)")
    parser.add_argument("--count", type=int, default=20, help="how many seeds (default %(default)s)")
    parser.add_argument("--grid", action="store_true", help="every setting of the silent grid, not default and fit")
    parser.add_argument("--confirm", type=int, default=0, metavar="N",
                        help="under --grid: rerun each setting that meets both targets on seeds 3000..3000+N-1")
    args = parser.parse_args(argv)
    if args.count < 1:
        raise InvalidScenarioError("count", f"= {args.count} must be >= 1")
    if args.confirm < 0:
        raise InvalidScenarioError("confirm", f"= {args.confirm} must be >= 0")
    started = time.perf_counter()
    rows = measure(range(args.seeds, args.seeds + args.count), _settings(args.grid))
    if not args.grid:
        for row in rows:
            print(_line(row))
    else:
        for u, m in itertools.product(UP_READINGS, MSU_READINGS):
            mine = [r for r in rows if r["up"] == u and r["msu"] == m]
            met = [[t["status"] == "met" for t in r["targets"]] for r in mine]
            both = [r for r, ok in zip(mine, met) if all(ok)]
            print(f"up={u} msu={m}: {len(mine)} settings; met " + ", ".join(
                f"{t['name'].split(' at ')[0]} {sum(ok[i] for ok in met)}" for i, t in enumerate(mine[0]["targets"]))
                  + f"; both {len(both)}")
            closest = min(mine, key=lambda r: sum(t["z"] ** 2 if t["z"] is not None else math.inf
                                                  for t in r["targets"]))
            print("    closest (least sum of z**2, the calibration's score):", _line(closest))
            for r in both:
                print("   ", _line(r))
                if args.confirm:
                    again = measure(range(3000, 3000 + args.confirm), [r["setting"]], [u], [m])[0]
                    print("      confirmed on 3000..:", _line(again).split(": ", 1)[1])
    print(f"seeds {args.seeds}..{args.seeds + args.count - 1}; {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
