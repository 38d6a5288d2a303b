"""``aisched reproduce`` in Python: the run (:mod:`aisched.experiments.run.reproduce`), then its report.

:func:`reproduce` runs every named scenario of the chosen families into one results
folder (:func:`aisched.experiments.run.reproduce.run`: resumable, one pool, one
progress bar, the run's record ``reproduce-<family>.json``), then writes ``report.md``
over every sweep (:func:`aisched.experiments.pages.report.report`: each paper claim
with "holds", "fails" or "not checked: <reason>"). The runner draws no page; this
module, above it, does both in that order. :func:`plan`, :func:`read_records`,
:func:`record_name` and :data:`IN_FLIGHT` are the runner's, named here too (this is
what the old path ``aisched.experiments.reproduce`` reaches).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from aisched.experiments.pages import report
from aisched.experiments.run.reproduce import IN_FLIGHT, plan, read_records, record_name, run

__all__ = ["IN_FLIGHT", "plan", "read_records", "record_name", "reproduce"]


def reproduce(
    families: Sequence[str],
    out: str | os.PathLike[str],
    *,
    seeds: int | str | None = None,
    max_seeds: int = 20,
    reduced: bool = False,
    names: Sequence[str] | None = None,
    executor: str = "process",
    workers: int | None = None,
    progress: bool = True,
    outcomes: bool = True,
    figures: bool = True,
    share: bool = True,
    wait: bool = False,
) -> Path:
    """Run every named scenario of ``families`` into ``out`` and write the report; returns its path.

    Parameters
    ----------
    families, out, seeds, max_seeds, reduced, names, executor, workers, progress, outcomes, share, wait
        As :func:`aisched.experiments.run.reproduce.run`.
    figures
        Draw the report's figures.

    Raises
    ------
    InvalidScenarioError
        Before any cell runs: a bad family or name, or a folder under ``out``
        holding a sweep of another definition of a scenario.
    """
    run(families, out, seeds=seeds, max_seeds=max_seeds, reduced=reduced, names=names, executor=executor,
        workers=workers, progress=progress, outcomes=outcomes, share=share, wait=wait)
    return report.report(out, figures=figures)
