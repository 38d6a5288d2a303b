"""Task DAGs: validation, ranks and orders, schedule options, generators and loaders.

Graph-first free functions on ``networkx.DiGraph`` (networkx style). This
package imports nothing from aisched but :mod:`aisched.errors`.

- :func:`validate`, :func:`from_edges`, :func:`with_entry_exit`, :func:`multi_child_tasks`
- :func:`ranks` / :func:`rank` (ComDOS eq. (10)), :func:`execution_order` (Algorithm 2, line 2),
  :func:`upward_rank` (HEFT), :func:`mean_runtime`
- :func:`schedule_options` (Algorithm 2's ``H``)
- generators :func:`chain`, :func:`fork_join`, :func:`random_dag`
- loaders :func:`load_hugginggpt`, :func:`parse_hugginggpt`, :func:`load_taskbench`
"""

from aisched.dag.generators import chain, fork_join, random_dag
from aisched.dag.loaders import TaskGraph, load_hugginggpt, load_taskbench, parse_hugginggpt
from aisched.dag.options import count_schedule_options, schedule_options
from aisched.dag.ranks import execution_order, mean_runtime, rank, ranks, upward_rank
from aisched.dag.validate import ENTRY, EXIT, from_edges, multi_child_tasks, validate, with_entry_exit

__all__ = [
    "ENTRY",
    "EXIT",
    "TaskGraph",
    "chain",
    "count_schedule_options",
    "execution_order",
    "fork_join",
    "from_edges",
    "load_hugginggpt",
    "load_taskbench",
    "mean_runtime",
    "multi_child_tasks",
    "parse_hugginggpt",
    "random_dag",
    "rank",
    "ranks",
    "schedule_options",
    "upward_rank",
    "validate",
    "with_entry_exit",
]
