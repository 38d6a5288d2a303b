"""Moved to :mod:`aisched.experiments.run.progress` (this path goes in the next release)."""

from aisched._moved import moved

moved(__name__, "aisched.experiments.run.progress")
