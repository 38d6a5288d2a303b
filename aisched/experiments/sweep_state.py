"""Moved to :mod:`aisched.experiments.store.sweep_state` (this path goes in the next release)."""

from aisched._moved import moved

moved(__name__, "aisched.experiments.store.sweep_state")
