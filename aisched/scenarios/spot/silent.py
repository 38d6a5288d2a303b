"""What the spot paper leaves unstated, and what it reports about its baselines (light: no NumPy).

:data:`SILENT_PARAMETERS` are the values section VI-A never gives; :data:`REGIME_TARGETS` are the
relations among the baselines that its own percentages imply. Calibration
(:mod:`aisched.experiments.studies.calibrate`) fits the first to the second and reads only the baselines'
outcomes. ``docs/readings/spot.md`` S-silent gives the quotes, the fit and the residuals.

Not a target: AHANP / OD-Only (1.490 / 1.232 = 1.209 by Fig. 5's percentages). Section VI-A names
"the proposed AHAP and AHANP algorithms": AHANP is the paper's own algorithm, and fitting to it
would be fitting to a claim. Section VI-B states no other relation among the baselines alone (its
orderings all involve AHAP or AHANP).
"""

from __future__ import annotations

from aisched.families import RegimeTarget, SilentParameter

__all__ = ["REGIME_TARGETS", "SILENT_PARAMETERS"]

#: Fig. 5's representative point (section VI-B: "At a representative setting with deadline = 10"), on the
#: paper's market (section VI-A: Vast.ai traces).
FIG5_POINT = {"deadline": 10, "market": "vast"}

SILENT_PARAMETERS: tuple[SilentParameter, ...] = (
    SilentParameter(
        name="value", where="section III, (4) and (9); section VI-A",
        quote="the job's revenue rapidly diminishes to zero when the completion time exceeds the deadline, "
              "as described in (4)",
        low=85.0, high=240.0, default=120.0, grid=(96.0, 110.0, 120.0, 140.0, 160.0, 200.0),
        argument="section VI-A gives the job's work (80) and deadline (10 slots) but no revenue level. "
                 "1.5 x work (120) is a value whose utility is positive for every policy that meets the "
                 "deadline (OD-Only's cost at deadline 10 is 81); below 85 OD-Only's utility is near 0 and "
                 "every ratio to it is unbounded, so the range starts there."),
    SilentParameter(
        name="mean_available", where="section VI-A (Cloud Service)",
        quote="Regional spot availability is approximated by uniformly downscaling global Vast.ai "
              "availability and capped within [0, 16]",
        low=2.0, high=16.0, default=None, grid=(None, 4.0, 6.0, 8.0, 10.0, 12.0), scope={"market": "vast"},
        argument="the downscaling factor is not given. Our default scales the trace's maximum to the cap 16 "
                 "(mean 11.9 GPUs for a job that needs 9); any mean in (0, 16] is a uniform downscaling."),
    SilentParameter(
        name="mean_price", where="section VI-A (Cloud Service)",
        quote="Spot price traces are normalized from Vast.ai data with the on-demand price set to 1",
        low=0.3, high=1.0, default=None, grid=(None, 0.5, 0.6, 0.85, 1.0), scope={"market": "vast"},
        argument="what the trace is divided by is not given. Our default takes the median price over the "
                 "median of the P90 series as on-demand (readings S10; mean spot price 0.73); a spot price above "
                 "on-demand's is no spot market."),
    SilentParameter(
        name="gpus", algorithm="up", where="section VI-A (Baselines)",
        quote="At each time slot, UP compares the accumulated progress against the expected progress ... It "
              "prioritizes spot usage when available, and resorts to on-demand instances only when progress "
              "falls behind and spot instances are unavailable",
        low=9.0, high=12.0, default=None, grid=(None, 10.0, 11.0, 12.0),
        argument="UP's GPU count N is not given. Our default is OD-Only's count (9 at deadline 10), as the "
                 "reference simulator sizes a job; it leaves less than one slot of slack, so the reference's "
                 "2-overhead margin puts UP on on-demand from slot 0 (readings S4). Fewer than 9 cannot meet "
                 "the deadline; N_max is 12."),
)

REGIME_TARGETS: tuple[RegimeTarget, ...] = (
    RegimeTarget(
        name="MSU / OD-Only at deadline 10", kind="ratio", algorithms=("msu", "od_only"),
        value=1.490 / 1.548, at=FIG5_POINT, where="section VI-B, Fig. 5, deadline 10",
        quote="At a representative setting with deadline = 10, AHAP improves utility by 49.0%, 54.8%, 33.4%, "
              "and 23.2% over OD-Only, MSU, UP, and AHANP, respectively",
        derivation="(1 + 0.490) / (1 + 0.548): the ratio of two of the paper's percentages at one point "
                   "(AHAP cancels)"),
    RegimeTarget(
        name="UP / OD-Only at deadline 10", kind="ratio", algorithms=("up", "od_only"),
        value=1.490 / 1.334, at=FIG5_POINT, where="section VI-B, Fig. 5, deadline 10",
        quote="At a representative setting with deadline = 10, AHAP improves utility by 49.0%, 54.8%, 33.4%, "
              "and 23.2% over OD-Only, MSU, UP, and AHANP, respectively",
        derivation="(1 + 0.490) / (1 + 0.334) (AHAP cancels)"),
)
