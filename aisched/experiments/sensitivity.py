"""Moved to :mod:`aisched.experiments.studies.sensitivity`; its Markdown to :mod:`aisched.experiments.pages.sensitivity` (this path goes in the next release)."""

from aisched._moved import moved

moved(__name__, "aisched.experiments.studies.sensitivity",
      also=dict.fromkeys(["page_entries", "summary_lines"], "aisched.experiments.pages.sensitivity"))
