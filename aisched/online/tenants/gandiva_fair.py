"""Gandiva_fair's ticket-based fair share (Chaudhary et al., EuroSys'20 [14]) for the ``gandiva_fair`` baseline.

The option ``gandiva_fair(share="tickets")`` (:func:`aisched.online.tenants.baselines.run_gandiva_fair`)
keeps the default emulation's placement-unaware first fit and work conservation, and replaces its
order (the owner's workers in use now over its quota) by Gandiva_fair's own fairness rule:

- **Tickets, stride.** Gandiva_fair "allocates cluster-wide GPU time fairly among active users"
  (abstract): each user holds tickets (its share), and a gang-aware *stride* scheduler (its "split
  stride gang-scheduling") runs, at each scheduling point, the job whose *pass* is least, then
  advances that pass by its stride (inversely proportional to its tickets) times the GPUs it
  holds for the quantum. Our tickets are the quotas ``q^u_w`` (section 5.1: "each user's fair
  share"); a user's pass is the GPU time it has been granted divided by its tickets.
- **No preemption, so the quantum is the run.** Gandiva_fair time-slices jobs (suspend / resume)
  and migrates them; the model's (3f)-(3h) do neither, so a job, once started, holds its
  workers ``w`` until it ends, ``d`` slots later. The stride step is then charged when the job is
  selected and started: ``pass_u += w d / tickets_u`` (stride scheduling advances a pass when a
  client is selected for its quantum). The pending job of the user with the least pass is tried
  first (then arrival, index), and the order is taken again after every start, so several users
  starting at one instant alternate as stride does.
- **Joining users.** Stride scheduling gives a client that (re)joins the *global pass*, so it gets
  no credit for the time it was idle (Waldspurger, "Lottery and Stride Scheduling", 1995: the
  global pass advances by the global stride, one over the active tickets, per quantum). Ours
  advances by ``sum_s C_sw / (active users' tickets)`` per slot (the pass of a user served at
  exactly its share of the cluster), over the users with a running or pending job; a user that
  becomes active takes ``max(its pass, global pass)``. Gandiva_fair's fairness is "among active
  users", which this keeps: an idle user does not bank its share.
- **Trading.** Gandiva_fair's resource trading exchanges a user's share of one GPU generation for
  another's at a rate set by the jobs' different speedups on them. Section 5.1's cluster has one
  GPU kind (every worker trains at the same rate (1)), so there is nothing to trade: trading is
  the identity here, and no option models it.
- **Work conservation** (the default's): a job that does not fit is passed over and the next is
  tried; "unused quota" goes to the other active users, with no compensation (Astraea section
  5.2: Gandiva_fair "pursues the fair division of GPUs among users, while not considering the
  communication time of different placement of workers and PSs").
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from aisched.models.tenants import TenantInstance

__all__ = ["StrideTickets"]

Placer = Callable[[TenantInstance, int, np.ndarray, np.ndarray, int, int], "list[tuple[np.ndarray, np.ndarray]]"]


class StrideTickets:
    """The :class:`~aisched.online.tenants.baselines.GreedyPolicy` of ``gandiva_fair(share="tickets")``.

    ``tickets`` are the worker quotas; a user with none never gains share (its pass is
    infinite once it starts a job, and it is tried last).
    """

    def __init__(self, instance: TenantInstance, base_place: Placer) -> None:
        self.instance = instance
        self.place = base_place  # type: ignore[assignment]  (the default's first fit)
        self.tickets = instance.worker_quota.astype(np.float64)
        self.passes = np.zeros(instance.num_users)
        self.running = np.zeros(instance.num_users, dtype=np.int64)
        self.global_pass = 0.0
        self._cluster = float(instance.workers.sum())
        self._active: set[int] = set()  # users with a running or pending job after the last event
        self._t = 0

    def _key(self, j: int) -> tuple[float, int, int]:
        return float(self.passes[int(self.instance.owner[j])]), int(self.instance.arrival[j]), j

    def released(self, t: int, new: list[int], pending: list[int]) -> None:
        active_tickets = float(sum(self.tickets[u] for u in self._active))
        if active_tickets > 0:
            self.global_pass += (t - self._t) * self._cluster / active_tickets
        self._t = t
        for u in sorted({int(self.instance.owner[k]) for k in new} - self._active):
            self.passes[u] = max(self.passes[u], self.global_pass)

    def order(self, pending: list[int]) -> Iterator[int]:
        untried = list(pending)
        while untried:
            j = min(untried, key=self._key)
            untried.remove(j)
            yield j
        # every pending job tried (``pending`` now holds those that did not start): who is active
        self._active = {int(self.instance.owner[k]) for k in pending} | set(np.nonzero(self.running)[0].tolist())

    def started(self, j: int, t: int, d: int, y: np.ndarray, z: np.ndarray) -> None:
        u = int(self.instance.owner[j])
        granted = float(y.sum()) * d
        self.passes[u] += granted / self.tickets[u] if self.tickets[u] > 0 else np.inf
        self.running[u] += 1

    def ended(self, j: int) -> None:
        self.running[int(self.instance.owner[j])] -= 1
