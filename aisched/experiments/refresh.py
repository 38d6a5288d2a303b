"""Moved to :mod:`aisched.experiments.run.refresh` (this path goes in the next release)."""

from aisched._moved import moved

moved(__name__, "aisched.experiments.run.refresh")
