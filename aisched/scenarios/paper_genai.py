"""`genai`'s paper figures (ComDOS, section IV) as named scenarios.
"""

from __future__ import annotations

from aisched.scenarios.scenario import Add, Claim, Scenario, improvement_claims

__all__ = ["add_scenarios"]

_GENAI_ALGOS = ("comdos", "heft_ma", "heft_a", "random_a")
_GENAI_BASE = {"edges": 10, "slots": 200, "arrival_rate": 5.0, "capacity": "homo-M"}
_GENAI_SMALL = {"edges": 2, "slots": 12, "jobs": 4, "capacity": 8.0}


def _genai_small(x: str) -> dict:
    return {k: v for k, v in _GENAI_SMALL.items() if k != x}




def add_scenarios(add: Add) -> None:
    """ComDOS (section IV): 5-second slots, 10 edges, Poisson(5), homo-M capacities unless varied."""
    add(Scenario(
        name="genai/fig4-slots", family="genai", title="Fig. 4: profit vs number of time slots (100, 200, 500)",
        x="slots", values=(100, 200, 500), base=_GENAI_BASE, algorithms=_GENAI_ALGOS,
        reduced_base=_genai_small("slots"), reduced_values=(8, 12),
        claims=(*improvement_claims("comdos", "500", {"heft_ma": 0.412, "heft_a": 1.0078, "random_a": 3.1551},
                               "with 500 slots"),
                Claim("best", "ComDOS consistently achieves the highest profit", "comdos")),
    ))
    add(Scenario(
        name="genai/fig5-edges", family="genai", title="Fig. 5: profit vs number of edge clouds (5, 10, 20)",
        x="edges", values=(5, 10, 20), base=_GENAI_BASE, algorithms=_GENAI_ALGOS,
        reduced_base=_genai_small("edges"), reduced_values=(2, 3),
        claims=(*improvement_claims("comdos", "5", {"heft_ma": 0.3895, "heft_a": 0.9495}, "with 5 edges"),
                *improvement_claims("comdos", "10", {"heft_ma": 0.3976, "heft_a": 0.9560}, "with 10 edges"),
                *improvement_claims("comdos", "20", {"heft_ma": 0.3894, "heft_a": 0.9444}, "with 20 edges"),
                Claim("best", "ComDOS still outperforms the others", "comdos")),
    ))
    add(Scenario(
        name="genai/fig6-capacity", family="genai",
        title="Fig. 6: profit with edge capacities of 4x RTX 3060 / 4090 / V100 and a heterogeneous mix",
        x="capacity", values=("homo-S", "homo-M", "homo-L", "hetero"), base=_GENAI_BASE,
        algorithms=_GENAI_ALGOS, reduced_base=_genai_small("capacity"),
        reduced_values=("homo-S", "homo-M", "homo-L", "hetero"),
        claims=(Claim("best", "ComDOS achieves the best performance in all tests", "comdos"),),
    ))
    add(Scenario(
        name="genai/fig7-workload", family="genai", title="Fig. 7: profit under Poisson(3, 5, 7) arrivals",
        x="arrival_rate", values=(3.0, 5.0, 7.0), base=_GENAI_BASE, algorithms=_GENAI_ALGOS,
        reduced_base={k: v for k, v in _GENAI_SMALL.items() if k != "jobs"}, reduced_values=(0.3, 0.6),
        claims=(*improvement_claims("comdos", "3.0", {"heft_ma": 0.3267, "heft_a": 0.9238, "random_a": 2.9028},
                               "under light load (Poisson 3)"),
                *improvement_claims("comdos", "7.0", {"heft_ma": 0.3544, "heft_a": 0.8587, "random_a": 1.9816},
                               "under heavy load (Poisson 7)")),
    ))
    add(Scenario(
        name="genai/fig8-weights", family="genai",
        title="Fig. 8: profit under cost weights (all 0.1, then one cost term at 0.5); "
              "our model has three cost terms (computation, communication, hosting), the paper's text four",
        x="cost_weights", values=((0.1, 0.1, 0.1), (0.5, 0.1, 0.1), (0.1, 0.5, 0.1), (0.1, 0.1, 0.5)),
        base=_GENAI_BASE, algorithms=_GENAI_ALGOS, reduced_base=_GENAI_SMALL,
        reduced_values=((0.1, 0.1, 0.1), (0.5, 0.1, 0.1)),
        claims=(Claim("best", "ComDOS achieves the best performance across the weight settings", "comdos"),),
    ))
    add(Scenario(
        name="genai/fig9-competitive", family="genai",
        title="Fig. 9: empirical competitive ratio OPT / ComDOS on instances the MILP solves (sizes chosen)",
        x="edges", values=(2, 3, 4), base={"slots": 12, "jobs": 6, "capacity": 8.0},
        algorithms=("comdos",), metric="competitive_ratio", offline=True, time_limit=60.0,
        reduced_base={"jobs": 4}, reduced_values=(2,),
        claims=(Claim("at_most", "ComDOS's empirical competitive ratio is no more than 2", "comdos", value=2.0),),
    ))
