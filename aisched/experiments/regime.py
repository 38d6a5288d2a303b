"""Moved to :mod:`aisched.experiments.verdicts.regime`; its Markdown to :mod:`aisched.experiments.pages.regime` (this path goes in the next release)."""

from aisched._moved import moved

moved(__name__, "aisched.experiments.verdicts.regime",
      also=dict.fromkeys(["regime_figure", "regime_lines", "regime_plot", "regime_summary", "region_text"], "aisched.experiments.pages.regime"))
