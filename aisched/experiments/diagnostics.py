"""Moved to :mod:`aisched.experiments.verdicts.diagnostics`; its Markdown to :mod:`aisched.experiments.pages.diagnostics` (this path goes in the next release)."""

from aisched._moved import moved

moved(__name__, "aisched.experiments.verdicts.diagnostics",
      also=dict.fromkeys(["diagnostics_lines", "notes_lines"], "aisched.experiments.pages.diagnostics"))
