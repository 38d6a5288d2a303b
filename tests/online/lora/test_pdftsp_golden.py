"""pdFTSP's results are those of the code before the speed work (docs/readings/lora.md L2), bit for bit.

``tests/data/lora_pdftsp_golden.npz`` was written by commit 217020a (before the fronts
kernel, the vectorized front updates and the per-start F parts) from
``generate(seed=3, nodes=12, slots=48, arrival_rate=6, vendors=3, gpu_mix="mixed")``
(301 tasks), default parameters (the batch share U(0.1, 0.5) of that time: ``min_batch_share=0.1``
since the default moved to 0.33), for ``selection="faithful"`` (the default) and
``"cell_prices"``: plans, vendors, payments, every task's F (10) and the final prices.
The decision-by-decision comparison with the NumPy oracle is in test_pdftsp_fronts.py.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import aisched
from aisched.scenarios.lora import generate

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "lora_pdftsp_golden.npz"


@pytest.mark.parametrize("selection", ["faithful", "cell_prices"])
def test_pdftsp_reproduces_the_stored_run_bit_for_bit(selection):
    if not GOLDEN.exists():
        pytest.skip(f"golden file {GOLDEN} absent")
    want = np.load(GOLDEN)
    inst = generate(seed=3, nodes=12, slots=48, arrival_rate=6.0, vendors=3, gpu_mix="mixed", min_batch_share=0.1)
    out = aisched.run("pdftsp", inst, selection=selection)
    got = {
        "assignment": out.plan["assignment"].values,
        "vendor": out.plan["vendor"].values,
        "payments": out.payments,
        "surplus": out.plan["surplus"].values,
        "compute_price": out.prices["compute_price"].values,
        "memory_price": out.prices["memory_price"].values,
    }
    assert out.num_admitted > 0 and np.isfinite(want[f"{selection}_surplus"]).any()
    for name, values in got.items():
        np.testing.assert_array_equal(values, want[f"{selection}_{name}"], err_msg=name)
