"""Moved to :mod:`aisched.online.genai.comdos.kernel` (this path goes in the next release)."""

from aisched._moved import moved

moved(__name__, "aisched.online.genai.comdos.kernel")
