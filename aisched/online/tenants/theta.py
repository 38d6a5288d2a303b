"""How Astraea estimates ``theta_w, theta_p``, the bases of its posted prices (8).

Section 4.4 asks ``theta - 1`` to be at least each job's utility per worker-slot (PS-slot) at its
schedule, "by assuming" that ratio is at least 1; the worked example calls the largest such value
the prices' "actual value" (Fig. 11). Section 5.2 (Setting of Maximum Price): "The maximal price
(theta_w, theta_p) of workers and PSs are estimated based on past experiments", and Fig. 11 runs
percentages of the actual value. What an operator can know when it sets ``theta`` is the jobs it
has already seen, not the ones it is about to schedule. So :func:`estimation_jobs` offers:

- ``"past_window"`` (Astraea's default): section 4.4's actual value
  (:func:`~aisched.online.tenants.astraea.default_thetas`) over the jobs of a **past window** of
  the trace on the same cluster, which the generator attaches to the instance
  (:func:`attach_past_window`; :func:`aisched.scenarios.tenants.generate` does). No scheduled job
  enters it. An instance without a past window (built by hand, or read back from a file) falls
  back to ``"all_jobs"``, and the outcome's ``info["theta_estimate"]`` says so;
- ``"all_jobs"``: the same maximum over **all the jobs being scheduled**, the rule before issue
  43. It uses future jobs (an online operator could not know it) and one short job sets it.

Fig. 11's percentages multiply either estimate (Astraea's ``theta_scale``). Section 4.4's
condition has a floor: ``theta - 1 >= 1``, i.e. ``theta >= 2``; a scale that takes either value
to or below 1 is refused, and :data:`CONDITION_FLOOR` marks the floor for tables and figures.

The past window is kept beside the instance, not in it (the instance is the models' contract and
holds the jobs scheduled only): a mapping from the instance object (by identity, weakly) to the
past window's instance, so it lives as long as the instance does and copies (``replace``, a file round trip)
have none.
"""

from __future__ import annotations

import weakref
from typing import Literal

from aisched.core.parameters import one_of
from aisched.errors import InvalidScenarioError
from aisched.models.tenants import TenantInstance

__all__ = ["CONDITION_FLOOR", "THETA_ESTIMATES", "ThetaEstimate", "attach_past_window", "estimation_jobs",
           "past_window"]

#: Estimation rules of :func:`estimation_jobs` (Astraea's ``theta_estimate``).
THETA_ESTIMATES: tuple[str, ...] = ("past_window", "all_jobs")
ThetaEstimate = Literal["past_window", "all_jobs"]
#: Section 4.4 assumes ``theta - 1 >= 1``: the least ``theta`` the condition allows.
CONDITION_FLOOR = 2.0

#: id(instance) -> (weak reference to it, its past window); an entry goes when its instance does.
_PAST: dict[int, tuple[weakref.ref[TenantInstance], TenantInstance]] = {}


def attach_past_window(instance: TenantInstance, past: TenantInstance) -> TenantInstance:
    """Record ``past`` (jobs seen before ``instance``'s, on its cluster) as ``instance``'s past window.

    Returns ``instance``. ``past`` must have the same servers, bandwidths and utility form (the
    estimate prices the same cluster).
    """
    same = (past.num_servers == instance.num_servers and (past.workers == instance.workers).all()
            and (past.parameter_servers == instance.parameter_servers).all()
            and past.worker_bandwidth == instance.worker_bandwidth and past.ps_bandwidth == instance.ps_bandwidth
            and past.utility == instance.utility)
    if not same:
        raise InvalidScenarioError("past_window", "must be on the instance's cluster (servers, bandwidths) with "
                                   "its utility form")
    key = id(instance)
    if key not in _PAST or _PAST[key][0]() is not instance:
        weakref.finalize(instance, _PAST.pop, key, None)
    _PAST[key] = (weakref.ref(instance), past)
    return instance


def past_window(instance: TenantInstance) -> TenantInstance | None:
    """The past window attached to ``instance`` (:func:`attach_past_window`), or None."""
    entry = _PAST.get(id(instance))
    return entry[1] if entry is not None and entry[0]() is instance else None


def estimation_jobs(instance: TenantInstance, rule: str = "past_window") -> tuple[TenantInstance, str]:
    """The jobs section 4.4's actual value is taken over by ``rule``, and the rule used (module docstring).

    :func:`~aisched.online.tenants.astraea.default_thetas` of the returned instance is the estimate.

    Raises
    ------
    InvalidScenarioError
        ``rule`` is not one of :data:`THETA_ESTIMATES`.
    """
    one_of("theta_estimate", rule, THETA_ESTIMATES)
    if rule == "all_jobs":
        return instance, rule
    past = past_window(instance)
    return (instance, "all_jobs (no past window attached)") if past is None else (past, rule)
