"""Moved to :mod:`aisched.cli_support` (public names ``family_cli`` and ``out_dir``)."""

from aisched._moved import moved

moved(__name__, "aisched.cli_support")
