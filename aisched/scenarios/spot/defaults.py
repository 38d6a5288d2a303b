"""The `spot` generator's light constants: the option choices of ``aisched compare spot`` / ``select spot``.

Pure Python (no NumPy), so ``--help`` reads them without loading the numerical
stack; :mod:`~aisched.scenarios.spot.generator` uses the same objects.
"""

from __future__ import annotations

__all__ = ["MARKETS", "MAX_SLOTS", "NOISE_SETTINGS"]

MARKETS = ("synthetic", "vast", "aws")
#: Largest horizon (slots) a generated instance may have; larger works are refused before any work.
MAX_SLOTS = 10_000
#: The prediction-noise settings of section VI-A (type of error, distribution), and perfect forecasts.
NOISE_SETTINGS = ("fixed-uniform", "fixed-heavy", "magnitude-uniform", "magnitude-heavy", "perfect")
