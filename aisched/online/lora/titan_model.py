"""Moved to :mod:`aisched.online.lora.titan.model` (this path goes in the next release)."""

from aisched._moved import moved

moved(__name__, "aisched.online.lora.titan.model")
