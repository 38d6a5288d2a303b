"""Each family's scenarios, one package per paper (mirroring :mod:`aisched.models` and :mod:`aisched.online`).

``aisched.scenarios.<family>`` holds the family's seeded generator (``generate``),
its trace or data loaders, its paper figures as named scenarios, its report
figures and metrics, and its ``aisched compare`` options. Importing a package
registers the family's record with :mod:`aisched.families`, which the
family-free machinery (catalogue, sweep, report, reproduce) reads.
"""

from aisched.scenarios import lora  # noqa: I001  (registration order = the catalogue's order)
from aisched.scenarios import spot
from aisched.scenarios import genai
from aisched.scenarios import tenants

__all__ = ["genai", "lora", "spot", "tenants"]
