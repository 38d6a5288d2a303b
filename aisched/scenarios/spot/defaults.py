"""The `spot` generator's light constants: the option choices of ``aisched compare spot`` / ``select spot``.

Pure Python (no NumPy), so ``--help`` reads them without loading the numerical
stack; :mod:`~aisched.scenarios.spot.generator` uses the same objects.
"""

from __future__ import annotations

from typing import Any

__all__ = ["CHANGEOVERS", "DEFAULT_SCENARIO", "MARKETS", "MAX_SLOTS", "NOISE_SETTINGS", "PAPER_SCENARIO"]

MARKETS = ("synthetic", "vast", "aws")
#: Largest horizon (slots) a generated instance may have; larger works are refused before any work.
MAX_SLOTS = 10_000
#: The prediction-noise settings of section VI-A (type of error, distribution), and perfect forecasts.
NOISE_SETTINGS = ("fixed-uniform", "fixed-heavy", "magnitude-uniform", "magnitude-heavy", "perfect")
#: Whether a move between spot and on-demand costs a restart: "off" (the paper's model) or "on".
CHANGEOVERS = ("off", "on")

#: The job of ``aisched compare spot`` and of :func:`~aisched.scenarios.spot.generator.generate` alike: the
#: paper's LLaMA2-7B LoRA job (work 80, soft deadline 10 slots, 1 to 12 GPUs, 800 Mbps) on the synthetic
#: daily market, seed 0.
DEFAULT_SCENARIO: dict[str, Any] = {"seed": 0, "deadline": 10, "market": "synthetic", "work": 80, "min_gpus": 1,
                                    "max_gpus": 12, "bandwidth": 800.0, "changeover": "off"}

#: Section VI-A's setting: the same job on the paper's market, Vast.ai's A100 trace (the market of
#: ``spot/fig5-deadline`` to ``spot/fig8-price``): :func:`~aisched.scenarios.spot.generator.paper_instance`.
PAPER_SCENARIO: dict[str, Any] = {"deadline": 10, "market": "vast", "work": 80, "min_gpus": 1, "max_gpus": 12,
                                  "bandwidth": 800.0}
