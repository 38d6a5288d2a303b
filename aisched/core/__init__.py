"""The core below the facade: the family object, the one registry, declared parameters and the runner.

- :mod:`~aisched.core.declarations`: what a family declares about its paper (objective, silent
  parameters, regime targets, diagnostics, scenario kinds);
- :mod:`~aisched.core.family`: :class:`~aisched.core.family.Family`, the one typed object per
  family, with its hooks, CLI and run-time tables, and :class:`~aisched.core.family.Algorithm`;
- :mod:`~aisched.core.parameters`: an algorithm's declared parameters and their checks;
- :mod:`~aisched.core.registry`: the one registry (families, and each family's run functions);
- :mod:`~aisched.core.runner`: :func:`~aisched.core.runner.run`, :func:`~aisched.core.runner.offline`,
  :func:`~aisched.core.runner.bound`, :func:`~aisched.core.runner.check_params`.

:mod:`aisched.api`, :mod:`aisched.families` and :mod:`aisched.registry` re-export them. The core
imports nothing of aisched but :mod:`aisched.errors` and (the runner) :mod:`aisched.outcome`; every
other layer may import it. Importing this package imports no numerical stack.
"""
