"""HiveD's cells and buddy cell allocation (Zhao et al., OSDI'20 [25]) for the ``hived`` baseline.

The option ``hived(cells="buddy")`` (:func:`aisched.online.tenants.baselines.run_hived`) runs the
default emulation's FIFO queue and affinity packing, but a tenant's virtual private cluster (VC) is
a set of *cells*, not a count of GPUs:

- **Cells.** HiveD's abstract: "tenants use quota, the number of GPUs, to reserve resources,
  whereas deep learning jobs often use GPUs with a desirable GPU affinity, which quota cannot
  guarantee ... each tenant reserves resources through a Virtual Private Cluster (VC), defined
  in terms of multi-level cell structures corresponding to different levels of GPU affinity".
  A cell of one level is made of cells of the level below (a GPU, a PCIe switch, a CPU socket, a
  node, a rack ...). Our servers have no topology inside beyond their ``C_sw`` workers, so a
  server whose ``C_sw`` is a power of two is read as HiveD's usual buddy hierarchy: levels of
  ``1, 2, 4, ..., C_sw`` GPUs, the top one the node cell (the ``itc-buddy`` example of the public
  code, microsoft/hivedscheduler). There is no level above a node: a job wider than a node
  spans node cells, as HiveD's top-level cells do.
- **A VC is cells.** A VC holds a number of cells of each level. Section 5.1 of the Astraea paper
  gives quotas ``q^u_w`` in GPUs; we read a quota as the fewest cells that hold it: ``q // C``
  node cells, the rest in its binary decomposition (57 GPUs on 8-GPU servers: seven node cells
  and one 1-GPU cell).
- **Dynamic binding, buddy cell allocation.** HiveD "develops an elegant buddy cell allocation
  algorithm to ensure sharing safety by efficiently managing the dynamic binding of cells from
  VCs to those in a physical cluster" (abstract; the algorithm in its design section, and
  ``buddyAlloc`` in ``pkg/algorithm/cell_allocation.go`` of the public code: "It splits a
  higher-level cell when there is no free cell at the current level"). A VC's virtual cell is
  bound to a free physical cell of its level when a job first uses it, splitting the free cell
  of the lowest higher level into buddies when its level has none, and the binding is released
  when the cell is empty again, merging it with its free buddy. HiveD proves this keeps every
  VC's cells available whatever the other VCs do ("sharing safety").
- **Placement inside the VC.** A job sees only its VC's cells: the GPUs still free in the cells
  bound on each server, plus the free servers its unbound cells would bind to. The default
  emulation's packing rule (``baselines._hived_place``) then runs on that view; the PS goes on a
  server where the job has workers, and the tenant's PS count ``q^u_p`` stays a cap (HiveD's cells
  are GPUs; PSs have no cell). So a tenant never uses GPUs of a server another VC's cell holds,
  which the default (a count cap on any free GPU) allows: Astraea section 5.2, "HiveD reserves
  the GPU affinity for each user to guarantee sharing safety, which restricts resource sharing
  with others".

Left out, as in the default: HiveD's low-priority opportunistic jobs on other VCs' idle cells
(they are preempted when the owner comes back, and the model (3f)-(3h) has no preemption).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from aisched.errors import InvalidScenarioError
from aisched.models.tenants import TenantInstance

__all__ = ["Buddy", "HivedCells", "vc_cells"]

Cell = tuple[int, int]  # (server, offset of the cell's first GPU in the server)


def vc_cells(quota: int, node: int) -> list[int]:
    """Sizes (GPUs) of a VC's cells for a quota of ``quota`` GPUs: node cells, then the binary rest, largest first."""
    sizes = [node] * (int(quota) // node)
    rest = int(quota) % node
    size = node // 2
    while rest:
        if rest >= size:
            sizes.append(size)
            rest -= size
        size //= 2
    return sizes


class Buddy:
    """Free physical cells of servers of ``node`` GPUs each (``node`` a power of two): buddy allocation.

    ``free[size]`` holds the free cells ``(server, offset)`` of that size; offsets are aligned
    (a multiple of the size), so a cell's buddy is ``offset ^ size``.
    """

    def __init__(self, servers: int, node: int) -> None:
        self.node = node
        self.free: dict[int, set[Cell]] = {}
        size = node
        while size >= 1:
            self.free[size] = set()
            size //= 2
        self.free[node] = {(s, 0) for s in range(servers)}

    def copy(self) -> Buddy:
        out = Buddy.__new__(Buddy)
        out.node = self.node
        out.free = {size: set(cells) for size, cells in self.free.items()}
        return out

    def alloc(self, size: int) -> Cell:
        """A free cell of ``size`` GPUs: one of that level, else split the lowest higher level's (lowest address first)."""
        level = size
        while level <= self.node and not self.free[level]:
            level *= 2
        if level > self.node:
            raise RuntimeError(f"HiveD safety broken: no free cell of {size} GPUs or above")
        server, offset = min(self.free[level])
        self.free[level].remove((server, offset))
        while level > size:  # keep the lower buddy, free the upper one
            level //= 2
            self.free[level].add((server, offset + level))
        return server, offset

    def take(self, cell: Cell, size: int) -> None:
        """Allocate the given cell (the one :meth:`alloc` chose on a copy), splitting its free ancestor."""
        server, offset = cell
        level = size
        while level <= self.node and (server, offset - offset % level) not in self.free[level]:
            level *= 2
        if level > self.node:
            raise RuntimeError(f"HiveD: cell {cell} of {size} GPUs is not free")
        base = offset - offset % level
        self.free[level].remove((server, base))
        while level > size:
            level //= 2
            if offset >= base + level:
                self.free[level].add((server, base))
                base += level
            else:
                self.free[level].add((server, base + level))

    def release(self, cell: Cell, size: int) -> None:
        """Free a cell and merge it with its free buddy, level by level."""
        server, offset = cell
        while size < self.node and (server, offset ^ size) in self.free[size]:
            self.free[size].remove((server, offset ^ size))
            offset = min(offset, offset ^ size)
            size *= 2
        self.free[size].add((server, offset))


@dataclass
class _VirtualCell:
    size: int
    used: int = 0
    bound: Cell | None = None


Placer = Callable[[TenantInstance, int, np.ndarray, np.ndarray, int, int], "list[tuple[np.ndarray, np.ndarray]]"]


def node_size(instance: TenantInstance) -> int:
    """The GPUs of every server, if all hold the same power of two; else a refusal naming ``cells``."""
    caps = np.unique(instance.workers)
    node = int(caps[0])
    if caps.size != 1 or node < 1 or node & (node - 1):
        raise InvalidScenarioError(
            "cells", f"= 'buddy' needs every server to hold the same power-of-two number of workers "
                     f"(HiveD's buddy cells); this instance has {sorted(set(caps.tolist()))}")
    if int(instance.worker_quota.sum()) > node * instance.num_servers:
        raise InvalidScenarioError(
            "cells", f"= 'buddy': the quotas ({int(instance.worker_quota.sum())} workers) exceed the cluster "
                     f"({node * instance.num_servers}), so the VCs' cells cannot all be bound")
    return node


class HivedCells:
    """The :class:`~aisched.online.tenants.baselines.GreedyPolicy` of ``hived(cells="buddy")``.

    FIFO order (as the default); each tenant's VC is :func:`vc_cells` of its worker quota, bound
    through :class:`Buddy`; ``place`` runs ``base_place`` on the VC's own free GPUs per server.
    """

    def __init__(self, instance: TenantInstance, base_place: Placer) -> None:
        self.instance = instance
        self.node = node_size(instance)
        self.base_place = base_place
        self.buddy = Buddy(instance.num_servers, self.node)
        self.cells = [[_VirtualCell(size) for size in vc_cells(q, self.node)] for q in instance.worker_quota]
        self.uses: dict[int, list[tuple[int, int]]] = {}  # job -> [(cell index, GPUs)]
        self._peek: tuple[int, list[Cell]] | None = None

    def released(self, t: int, new: list[int], pending: list[int]) -> None:
        return None

    def order(self, pending: list[int]) -> Iterator[int]:
        return iter(sorted(pending, key=lambda j: (int(self.instance.arrival[j]), j)))

    def place(self, instance: TenantInstance, j: int, free_w: np.ndarray, free_p: np.ndarray, room_w: int,
              room_p: int) -> list[tuple[np.ndarray, np.ndarray]]:
        cells = self.cells[int(instance.owner[j])]
        trial = self.buddy.copy()
        binds = [c.bound if c.bound is not None else trial.alloc(c.size) for c in cells]
        vfree = np.zeros(instance.num_servers, dtype=np.int64)
        for c, (server, _) in zip(cells, binds):
            vfree[server] += c.size - c.used
        self._peek = (j, binds)
        hosts = np.where(vfree > 0, free_p, 0)
        return self.base_place(instance, j, vfree, hosts, int(vfree.sum()), room_p)

    def started(self, j: int, t: int, d: int, y: np.ndarray, z: np.ndarray) -> None:
        assert self._peek is not None and self._peek[0] == j
        binds = self._peek[1]
        cells = self.cells[int(self.instance.owner[j])]
        uses = []
        for server in np.nonzero(y)[0].tolist():
            need = int(y[server])
            here = [i for i, b in enumerate(binds) if b[0] == server]
            for i in sorted(here, key=lambda i: (-cells[i].used, i)):  # pack: fullest cell first
                take = min(need, cells[i].size - cells[i].used)
                if take <= 0:
                    continue
                if cells[i].bound is None:
                    self.buddy.take(binds[i], cells[i].size)
                    cells[i].bound = binds[i]
                cells[i].used += take
                uses.append((i, take))
                need -= take
            assert need == 0, "placement beyond the VC's cells"
        self.uses[j] = uses

    def ended(self, j: int) -> None:
        cells = self.cells[int(self.instance.owner[j])]
        for i, n in self.uses.pop(j):
            cells[i].used -= n
            if cells[i].used == 0:
                assert cells[i].bound is not None
                self.buddy.release(cells[i].bound, cells[i].size)
                cells[i].bound = None
