"""What ComDOS's construction proves, as checks (aisched.theorems.genai): each holds where it should and can fail."""

from __future__ import annotations

import dataclasses

import numpy as np
from genai_tiny import random_tiny

from aisched.online.genai.comdos.algorithm import run as run_comdos
from aisched.theorems import genai as theorems


def test_the_step_is_tight_and_the_duals_feasible_and_a_bound() -> None:
    inst = random_tiny(1)
    out = run_comdos(inst)
    step = theorems.dual_step(inst, out)
    assert step.verdict == "holds" and abs(step.margin) < 1e-9  # equality: (8) and (9) give (1 + alpha) b_il
    cert = theorems.dual_certificate(inst, out)
    assert theorems.dual_feasibility(inst, out, cert).verdict == "holds"
    claim = theorems.fig9_claim(inst, out, certificate=cert)
    assert cert["dual_bound"] >= claim.extra["optimum"]  # weak duality
    # a job with mu > 0 declined by the resource check: OPT / P = 5.2 > 2, Fig. 9's claim fails here
    assert claim.verdict == "violated" and claim.measured > 5


def test_dual_checks_catch_broken_runs() -> None:
    inst = random_tiny(1)
    out = run_comdos(inst)
    lowered = dataclasses.replace(out, info={**out.info, "mu": np.zeros(inst.num_jobs)})  # mu forgotten
    assert theorems.dual_feasibility(inst, lowered).verdict == "violated"
    stepped = dataclasses.replace(out, info={**out.info, "dual_step_slack": -0.5})  # a step past (1 + alpha) b_il
    assert theorems.dual_step(inst, stepped).verdict == "violated"
