"""Moved to :mod:`aisched.experiments.spec.validation` (this path goes in the next release)."""

from aisched._moved import moved

moved(__name__, "aisched.experiments.spec.validation")
