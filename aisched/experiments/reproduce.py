"""Moved to :mod:`aisched.experiments.pages.reproduce` (this path goes in the next release)."""

from aisched._moved import moved

moved(__name__, "aisched.experiments.pages.reproduce")
