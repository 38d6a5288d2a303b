"""GPU prices for the ``workload="gpu_priced"`` draw of the `genai` generator.

Source: ``gcp_gpu_price_weekly.csv`` (Google Cloud on-demand and spot prices per machine type and
region, 290 weekly versions 2022-02..2026-07, from the git history of
Cyclenerd/google-cloud-pricing-cost-calculator ``pricing.yml``, Apache-2.0; see the data folder's
PROVENANCE.md). The machine type read is ``g2-standard-4``: one NVIDIA L4 with 24 GB, the memory of the
RTX 4090 of the paper's ``homo-M`` edge (section IV.A); the file has no RTX 3060, RTX 4090 or V100 price.

- ``spot``: the median spot price per GPU-hour over every version and region (the marginal price of
  renting the GPU: the provider's cost of a GB-slot of GPU memory held);
- ``on_demand``: the median on-demand price, what a user pays to rent the same GPU outright;
- ``markup = on_demand / spot - 1``: the margin a cloud charges over its marginal price, the stated
  markup of the revenue rate (docs/readings/genai.md A2b).
"""

from __future__ import annotations

import csv
import functools
from dataclasses import dataclass

from aisched.data import data_file
from aisched.errors import InvalidScenarioError

__all__ = ["GpuPrice", "REFERENCE_GPU_GB", "REFERENCE_MACHINE", "gpu_price"]

#: The machine type read and its GPU memory (one NVIDIA L4, 24 GB).
REFERENCE_MACHINE = "g2-standard-4"
REFERENCE_GPU_GB = 24.0


@dataclass(frozen=True)
class GpuPrice:
    """Median hourly prices of one reference GPU (US dollars per GPU-hour) and their ratio."""

    on_demand: float
    spot: float
    versions: int

    @property
    def markup(self) -> float:
        """``on_demand / spot - 1``."""
        return self.on_demand / self.spot - 1.0

    def per_gb_slot(self, price: float, slot_seconds: float) -> float:
        """A GPU-hour price spread over the GPU's memory, per GB and slot of ``slot_seconds``."""
        return price / REFERENCE_GPU_GB * slot_seconds / 3600.0


def _median(values: list[float]) -> float:
    values = sorted(values)
    n = len(values)
    return values[n // 2] if n % 2 else 0.5 * (values[n // 2 - 1] + values[n // 2])


@functools.lru_cache(maxsize=1)
def gpu_price() -> GpuPrice:
    """The median on-demand and spot prices of :data:`REFERENCE_MACHINE` in ``gcp_gpu_price_weekly.csv``.

    Raises
    ------
    InvalidScenarioError
        When the file is missing or has no usable row of the machine type.
    """
    path = data_file("gcp_gpu_price_weekly.csv")
    hour, spot = [], []
    with open(path, newline="") as fh:
        for row in csv.DictReader(fh):
            if row.get("machine_type") != REFERENCE_MACHINE:
                continue
            try:
                h, s = float(row["hour"]), float(row["hour_spot"])
            except (TypeError, ValueError):
                continue  # a version without a spot price
            if h > 0 and s > 0:
                hour.append(h)
                spot.append(s)
    if not hour:
        raise InvalidScenarioError("workload", f"'gpu_priced' needs {REFERENCE_MACHINE} prices in {path}, found none")
    return GpuPrice(on_demand=_median(hour), spot=_median(spot), versions=len(hour))
