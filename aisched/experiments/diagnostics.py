"""Moved to :mod:`aisched.experiments.verdicts.diagnostics` (this path goes in the next release)."""

from aisched._moved import moved

moved(__name__, "aisched.experiments.verdicts.diagnostics")
