"""Moved to :mod:`aisched.experiments.spec.readings` (this path goes in the next release)."""

from aisched._moved import moved

moved(__name__, "aisched.experiments.spec.readings")
