"""A fifth family that lives only in the tests: online knapsack, in three modules.

It proves the family contract (:mod:`aisched.families`): ``models`` (the instance and its integer
program), ``online`` (one online algorithm) and ``scenarios`` (generator, metrics, a paper-style
scenario, the command line and the family object) register with aisched's one registry, and
``compare``, a sweep, ``report`` and the reproduction page run it without one shared file knowing it.
Importing ``models``, ``online`` and ``scenarios`` registers the family (``tests/test_fifth_family.py``
does, for its own tests only).
"""

FAMILY = "knapsack"
