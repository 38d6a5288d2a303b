"""Hand-made `lora` instances on which the papers' bounds are tight or broken (tests of aisched.theorems)."""

from __future__ import annotations

import numpy as np

from aisched.models.lora import LoraInstance


def long_task_blocked(slots: int = 10, memory_capacity: float = 1000.0) -> LoraInstance:
    """One node; task 0 (one slot, 5 of 10 samples, bid 11) arrives first and fills half of slot 0;
    task 1 needs all ``slots`` slots at 6 samples (bid ``10 (6 + 6)``): both have ``b-bar = 1``.

    pdFTSP admits task 0; task 1 then has F > 0 (it enters S_a) but does not fit slot 0, so
    ``P = 11`` while ``OPT = 12 slots``-worth (task 1 alone): ``P~ / P`` and ``OPT / P`` grow
    with ``slots`` while Lemma 3's ``rho = 2.2`` does not.
    """
    return LoraInstance(
        num_slots=slots, compute_capacity=np.array([10.0]), memory_capacity=np.array([memory_capacity]),
        base_memory=0.0, gpu_type=np.array(["A100-80GB"]), arrival=np.array([0, 0]),
        deadline=np.array([0, slots - 1]), memory_need=np.array([6.0, 6.0]),
        work=np.array([5.0, 6.0 * slots]), needs_preprocessing=np.array([False, False]),
        bid=np.array([11.0, 12.0 * slots]), throughput=np.array([[5.0], [6.0]]),
        vendor_price=np.zeros((2, 0)), vendor_delay=np.zeros((2, 0), dtype=int),
        energy_use=np.zeros((2, 1)), energy_price=np.zeros((1, slots)))


def energy_above_value(value: float = 5.0, energy: float = 8.0) -> LoraInstance:
    """One task, one slot, whose energy cost ``energy`` exceeds its value: with (14) as printed
    (``payment="paper"``) it is rejected when truthful (F = v - E < 0) but wins and pays 0 when it
    bids above ``energy`` -- a profitable lie (Theorem 3 broken); the corrected payment charges E."""
    return LoraInstance(
        num_slots=1, compute_capacity=np.array([10.0]), memory_capacity=np.array([100.0]), base_memory=0.0,
        gpu_type=np.array(["A100-80GB"]), arrival=np.array([0]), deadline=np.array([0]),
        memory_need=np.array([1.0]), work=np.array([5.0]), needs_preprocessing=np.array([False]),
        bid=np.array([value]), throughput=np.array([[5.0]]), vendor_price=np.zeros((1, 0)),
        vendor_delay=np.zeros((1, 0), dtype=int), energy_use=np.array([[1.0]]),
        energy_price=np.array([[energy]]))
