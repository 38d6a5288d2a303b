"""Moved to :mod:`aisched.online.tenants.astraea.reference` (this path goes in the next release)."""

from aisched._moved import moved

moved(__name__, "aisched.online.tenants.astraea.reference")
