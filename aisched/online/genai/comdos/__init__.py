"""ComDOS: online primal-dual scheduling of generative-AI job DAGs (Algorithm 1 with Algorithm 2).

One module per piece of the algorithm:

- :mod:`~aisched.online.genai.comdos.algorithm`: Algorithm 1, job by job (prices raised by
  (9), the resource check); :func:`run` (registered as "comdos"), :class:`ComdosState`,
  :func:`default_alpha`, :func:`job_data`.
- :mod:`~aisched.online.genai.comdos.kernel`: Algorithm 2 as a jitted dynamic program,
  vectorised over the schedule options.
- :mod:`~aisched.online.genai.comdos.batched`: Algorithm 2 over many options at once,
  sharing what the options share (``option_eval="shared"``), jitted.
- :mod:`~aisched.online.genai.comdos.exact`: the exact per-job selection
  (``selection="exact"``), beside the paper.
- :mod:`~aisched.online.genai.comdos.reference`: the plain NumPy oracle of Algorithm 2,
  and the schedule backtrack.

This package re-exports the public names of :mod:`~aisched.online.genai.comdos.algorithm`
(``comdos.run``, ``comdos.ComdosState``, ...). To monkeypatch a global that the algorithm
reads, patch :mod:`~aisched.online.genai.comdos.algorithm`, not this package.
"""

from aisched.online.genai.comdos import algorithm, batched, exact, kernel, reference  # noqa: F401
from aisched.online.genai.comdos.algorithm import (  # noqa: F401  (re-exported: the public API)
    ALPHA_READINGS,
    FULL_CELL_ALPHA,
    FULL_CELL_OPTIONS,
    OPTION_EVALS,
    SELECTIONS,
    AlphaReading,
    ComdosState,
    Decision,
    OptionEval,
    Selection,
    default_alpha,
    job_data,
    run,
)

__all__ = list(algorithm.__all__)  # the algorithm module's public names, not a second list
