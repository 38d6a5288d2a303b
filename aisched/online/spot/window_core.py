"""Moved to :mod:`aisched.online.spot.window.core` (this path goes in the next release)."""

from aisched._moved import moved

moved(__name__, "aisched.online.spot.window.core")
