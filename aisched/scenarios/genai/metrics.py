"""`genai` mechanism diagnostics (issue 25): the cell columns that say whether ComDOS's memory pricing acted.

The columns themselves are the family's registered resource metrics
(:func:`aisched.online.genai.metrics.utilisation`, recorded in every sweep cell).
"""

from __future__ import annotations

from aisched.experiments import families

__all__ = ["DIAGNOSTICS", "FINDINGS"]


#: Issue 25's mechanism diagnostics: the cell columns that say whether comdos's mechanism acted.
DIAGNOSTICS: tuple[families.Diagnostic, ...] = (
    families.Diagnostic("memory_binding", "edge-slots at memory capacity", acts_above=0.0),
    families.Diagnostic("memory_utilisation", "mean memory utilisation"),
    families.Diagnostic("memory_peak", "peak memory utilisation"),
)

#: Measured findings about the paper, printed in the reproduction page's summary (docs/readings.md).
FINDINGS: tuple[str, ...] = (
    "under the paper's alpha (either reading, docs/readings.md A1) the update (9) prices a cell out after "
    "about one job: ComDOS admits 88-117 jobs whatever the load (346-1,221 jobs) or the memory (96-3 GB "
    "an edge) and never fills an edge-slot, while HEFT-MA fills up to 57 % of them (seed 0, 5 edges, "
    "100 slots; measured 2026-11-26).",
)
