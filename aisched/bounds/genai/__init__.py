"""The certified upper bound on IP (5) of the `genai` family.

:mod:`~aisched.bounds.genai.bound` (registered as ``aisched.bound`` for "genai")
solves relaxed ``P1`` by column generation; :mod:`~aisched.bounds.genai.pricing`
prices a job exactly with ComDOS's factor graph.
"""

from aisched.bounds.genai import bound, pricing

__all__ = ["bound", "pricing"]
