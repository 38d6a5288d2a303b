"""Moved to :mod:`aisched.experiments.studies.calibrate`; its Markdown to :mod:`aisched.experiments.pages.fidelity` (this path goes in the next release)."""

from aisched._moved import moved

moved(__name__, "aisched.experiments.studies.calibrate",
      also=dict.fromkeys(["fidelity_lines"], "aisched.experiments.pages.fidelity"))
