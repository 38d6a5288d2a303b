"""Moved to :mod:`aisched._paths` (this path goes in the next release)."""

from aisched._moved import moved

moved(__name__, "aisched._paths")
