"""Moved to :mod:`aisched.experiments.store.stored` (this path goes in the next release)."""

from aisched._moved import moved

moved(__name__, "aisched.experiments.store.stored")
