"""Moved to :mod:`aisched.experiments.studies.calibrate` (this path goes in the next release)."""

from aisched._moved import moved

moved(__name__, "aisched.experiments.studies.calibrate")
