"""The certified upper bound on MINLP (3) of the `tenants` family.

:mod:`~aisched.bounds.tenants.bound` (registered as ``aisched.bound`` for
"tenants"): a cluster-level configuration LP with exact pricing by enumeration.
"""

from aisched.bounds.tenants import bound

__all__ = ["bound"]
