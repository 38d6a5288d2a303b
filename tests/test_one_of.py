"""Run functions called directly (past ``aisched.run``'s check) refuse a bad choice with the one wording.

:func:`aisched.core.parameters.one_of`: ``"<field>: = 'x' is not one of 'a', 'b'"``.
"""

from __future__ import annotations

import pytest
from genai_tiny import random_tiny as genai_tiny
from lora_tiny import random_tiny as lora_tiny
from spot_tiny import tiny as spot_tiny
from tenants_tiny import random_tiny as tenants_tiny

from aisched.errors import InvalidScenarioError
from aisched.online.genai.baselines import heft_ma
from aisched.online.lora.titan.algorithm import run as titan
from aisched.online.spot.ahap import run as ahap
from aisched.online.tenants.baselines import run_gandiva_fair

CASES = [
    ("engine", lambda: ahap(spot_tiny(0), engine="numba"), "'kernel', 'reference'"),
    ("formulation", lambda: titan(lora_tiny(0), formulation="flows"), "'classes', 'nodes'"),
    ("tie", lambda: heft_ma(genai_tiny(0), tie="last"), "'first', 'random'"),
    ("release", lambda: run_gandiva_fair(tenants_tiny(0), release="never"), "'arrival', 'batch'"),
]


@pytest.mark.parametrize(("field", "call", "choices"), CASES, ids=[c[0] for c in CASES])
def test_a_bad_choice_names_its_field_and_the_choices(field, call, choices):
    with pytest.raises(InvalidScenarioError, match=rf"^{field}: = '\w+' is not one of {choices}$"):
        call()
