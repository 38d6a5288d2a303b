"""Moved to :mod:`aisched.figures` (this path goes in the next release)."""

from aisched._moved import moved

moved(__name__, "aisched.figures")
