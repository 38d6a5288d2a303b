"""Every aisched error pickles with its fields, so a pool worker's error reads as it does in one process."""

from __future__ import annotations

import pickle

import pytest

from aisched import errors
from aisched.data import FetchError

ARGS = {
    errors.InvalidInstanceError: ("deadline", "task 3: -1 must be >= arrival 0"),
    errors.InvalidScenarioError: ("seeds", "= 0 must be >= 1"),
    FetchError: ("openb", "pods.csv: download failed"),
    errors.InfeasiblePlanError: ("(4f) capacity_compute", "node 1, slot 2: 1.5 > 1"),
    errors.AlgorithmError: ("mine", "returned None, not an Outcome"),
    errors.UnknownAlgorithmError: ("unknown algorithm 'x' for family 'lora' (known: eft)",),
    errors.SolverError: ("HiGHS crashed",),
    errors.SolverUnavailableError: ("no solver 'cplex'",),
    errors.ModelTooLargeError: ("IP (4) would have 10^9 variables",),
    errors.InvariantViolatedError: ("Lemma 1 (lora)", "a dual step exceeds its bound by 0.1"),
    errors.AischedError: ("plain",),
}


def _all_subclasses(cls: type) -> set[type]:
    return {cls} | {s for sub in cls.__subclasses__() for s in _all_subclasses(sub)}


def test_every_error_class_is_covered() -> None:
    known = {c for c in _all_subclasses(errors.AischedError) if c.__module__.startswith("aisched")}
    assert known <= set(ARGS), f"add these to ARGS: {sorted(c.__name__ for c in known - set(ARGS))}"


@pytest.mark.parametrize("cls", list(ARGS), ids=lambda c: c.__name__)
def test_an_error_round_trips_a_pickle_with_its_fields(cls: type) -> None:
    err = cls(*ARGS[cls])
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is cls and str(back) == str(err) and back.args == err.args
    for name in getattr(cls, "_fields", ()):
        assert getattr(back, name) == getattr(err, name)


def test_a_workers_error_reads_as_in_one_process(tmp_path, capsys) -> None:
    """Raised in a pool worker (UP on more GPUs than the job has), shown as the same one line as --serial."""
    from aisched.cli import main

    toml = tmp_path / "bad.toml"
    toml.write_text('name = "spot/bad-gpus"\nfamily = "spot"\nx = "deadline"\nvalues = [10]\n'
                    'algorithms = ["up"]\nseeds = 1\n[params.up]\ngpus = 13\n')
    lines = []
    for how in (["--serial"], ["--workers", "1"]):
        code = main(["sweep", str(toml), "--out", str(tmp_path / how[0]), "--no-progress", *how])
        err = capsys.readouterr().err.strip().splitlines()
        assert code == 2 and len(err) == 1, err
        lines.append(err[0])
    assert lines[0] == lines[1] and lines[0].startswith("aisched: error: gpus: = 13 must be an integer in [1, 12]")
