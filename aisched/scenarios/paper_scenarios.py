"""The papers' figures as named scenarios (:func:`scenarios`; the catalogue registers them).

One scenario per figure that compares algorithms, with the paper's x-axis
values, algorithms and metric where the text gives them. Where a paper's text
does not state an x-axis value (its figures are images), the values chosen
here are marked "chosen" in the scenario's title. Claims quote or paraphrase
the paper's text; the report checks their direction, not their size.

`lora` (Zheng et al., ICPP'24, section 5): one day of 144 ten-minute slots,
mixed A100/A40 nodes, Poisson arrivals of 50 tasks a slot ("medium") unless a
figure varies it, 3 labour vendors, "slack" deadlines. Titan solves one MILP
per slot (20 s limit each). At paper scale these days hold thousands of tasks:
the full-size runs take long (see the README's "Reproducing the papers").

Each family's figures live in its own module: :mod:`aisched.scenarios.paper_lora`,
:mod:`~aisched.scenarios.paper_spot` (Figs. 5-8, and 9-10 as policy selection),
:mod:`~aisched.scenarios.paper_genai` (Figs. 4-9) and
:mod:`~aisched.scenarios.paper_tenants` (Figs. 4-12).
"""

from __future__ import annotations

from aisched.scenarios import paper_genai, paper_lora, paper_spot, paper_tenants
from aisched.scenarios.scenario import Scenario

__all__ = ["scenarios"]


def scenarios() -> list[Scenario]:
    """Every comparing figure of the four papers as a validated :class:`Scenario`."""
    found: list[Scenario] = []
    for family in (paper_lora, paper_spot, paper_genai, paper_tenants):
        family.add_scenarios(found.append)
    return found
