"""Astraea: online fair sharing of distributed ML jobs among tenants (Algorithms 1-5).

One module per piece of the algorithm:

- :mod:`~aisched.online.tenants.astraea.algorithm`: Algorithm 1 (batches, :func:`run`,
  registered as "astraea") and Algorithm 2 (A_round, :func:`schedule_batch`), the
  parameters (:func:`make_params`, :func:`default_thetas`, :func:`lemma1_lambda`) and the
  income division (2).
- :mod:`~aisched.online.tenants.astraea.kernel`: Algorithm 3 (A_maxIrev) with Algorithms
  4-5, vectorised over one round of one job.
- :mod:`~aisched.online.tenants.astraea.reference`: the plain-loop oracle of Algorithms 3-5.

This package re-exports the public names of :mod:`~aisched.online.tenants.astraea.algorithm`
(``astraea.run``, ``astraea.AstraeaParams``, ...). To monkeypatch a global that the algorithm
reads (``value_bound``, ``best_schedule``), patch :mod:`~aisched.online.tenants.astraea.algorithm`,
not this package.
"""

from aisched.online.tenants.astraea import algorithm, kernel, reference  # noqa: F401
from aisched.online.tenants.astraea.algorithm import (  # noqa: F401  (re-exported: the public API)
    BOUND_MARGIN,
    Admission,
    AstraeaParams,
    Clock,
    default_thetas,
    income_division,
    job_spec,
    lemma1_lambda,
    make_params,
    outcome_of,
    real_revenue,
    run,
    schedule_batch,
    simulate,
)

__all__ = list(algorithm.__all__)  # the algorithm module's public names, not a second list
