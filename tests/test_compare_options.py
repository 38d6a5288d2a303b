"""What ``aisched compare`` says: a solve without a plan, every option's help, conflicting options.

An offline solve stopped by its time limit before any incumbent has no plan: its row must not read as
an incumbent (objective NaN, 0 admitted, "stopped at the time limit (incumbent)"), the output says in
one line that no plan was found, and verifying the plan-less outcome is an error naming what is missing
rather than an objective of 0. Every option of every ``compare`` subparser says what it does, its default
and, where it has choices, the choices; options that contradict each other are refused in one line.
"""

from __future__ import annotations

import argparse
import math

import pytest

import aisched
from aisched.cli import _parser, main
from aisched.errors import AischedError, InfeasiblePlanError
from aisched.solvers import SolveResult, Status

#: The families with an ``aisched compare`` command.
FAMILY_NAMES = ("lora", "spot", "genai", "tenants")


def _no_incumbent(*args, **kwargs) -> SolveResult:  # noqa: ANN002, ANN003 - the solver's signature
    """A solver that stops at its time limit before finding any plan (as HiGHS at a limit of ~0.001 s)."""
    return SolveResult(status=Status.TIME_LIMIT, objective=math.nan, bound=math.nan, gap=math.nan,
                       wall_time_s=0.001, solver="highs", termination="maxTimeLimit", has_solution=False,
                       message="time limit reached before any incumbent")


@pytest.fixture
def planless_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    import aisched.models.lora.program as program

    monkeypatch.setattr(program, "solve", _no_incumbent)


def test_a_planless_offline_row_says_no_plan_was_found(planless_solver, tmp_path, capsys) -> None:
    argv = ["compare", "lora", "--nodes", "2", "--slots", "8", "--tasks", "5", "--seed", "1", "--algorithms", "eft",
            "--time-limit", "0.001", "--no-figures", "--out", str(tmp_path)]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    offline = next(line for line in lines if line.startswith("offline "))
    assert offline.split()[1] == "none" and offline.endswith("no plan found within the time limit")
    assert "incumbent" not in offline and "nan" not in offline
    said = [line for line in lines if "found no plan" in line]
    assert said == [next(line for line in lines if line.startswith("offline solve found no plan within its 0.001 s "
                                                                    "limit (status time_limit;"))]


def test_verifying_a_planless_offline_outcome_names_the_missing_plan(planless_solver) -> None:
    inst = aisched.scenarios.lora.generate(seed=1, nodes=2, slots=8, tasks=5)
    outcome = aisched.offline(inst, time_limit=0.001)
    assert outcome.status == "time_limit" and math.isnan(outcome.objective)
    with pytest.raises(InfeasiblePlanError, match="^plan: the offline outcome holds no plan to verify") as err:
        outcome.verify(inst)
    assert isinstance(err.value, AischedError) and err.value.constraint == "plan"


def _compare_parsers() -> dict[str, argparse.ArgumentParser]:
    root = _parser()
    commands = next(a for a in root._actions if isinstance(a, argparse._SubParsersAction))
    compare = commands.choices["compare"]
    families = next(a for a in compare._actions if isinstance(a, argparse._SubParsersAction))
    return dict(families.choices)


def test_every_compare_option_has_help_with_its_default_and_choices() -> None:
    parsers = _compare_parsers()
    assert sorted(parsers) == sorted(FAMILY_NAMES)
    lacking = []
    for family, parser in parsers.items():
        formatter = parser._get_formatter()
        for action in parser._actions:
            if not action.option_strings or isinstance(action, argparse._HelpAction):
                continue
            where = f"compare {family} {action.option_strings[0]}"
            text = " ".join(formatter._format_action(action).split())
            if not (action.help or "").strip():
                lacking.append(f"{where}: no help")
                continue
            flag = action.nargs == 0  # --no-offline and the like: present or not, nothing to default
            if not flag and "default" not in text:
                lacking.append(f"{where}: no default shown ({text!r})")
            for choice in action.choices or ():
                if str(choice) not in text:
                    lacking.append(f"{where}: choice {choice!r} not shown")
    assert lacking == []


def test_the_options_the_report_named_show_default_and_choices(capsys) -> None:
    wanted = {
        "spot": ["--min-gpus MIN_GPUS N_min, the fewest GPUs the job runs on (default 1)",
                 "--max-gpus MAX_GPUS N_max, the most GPUs the job runs on (default 12)",
                 "--market {synthetic,vast,aws}", "(default synthetic)", "--seed SEED generator seed (default 0)"],
        "genai": ["--dag-source {taskbench,hugginggpt,generator}", "(default taskbench)",
                  "--seed SEED generator seed (default 0)"],
        "tenants": ["--utility {linear,convex}", "(default linear)", "--trace {day,week,synthetic}", "(default day)",
                    "--gpus-per-server GPUS_PER_SERVER workers (GPUs) per server (default 8)",
                    "--seed SEED generator seed (default 0)"],
        "lora": ["--trace FILE", "--trace-start SLOT", "--seed SEED generator seed (default 0)"],
    }
    for family, pieces in wanted.items():
        with pytest.raises(SystemExit):
            _parser().parse_args(["compare", family, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        for piece in pieces:
            assert piece in text, (family, piece)


@pytest.mark.parametrize(("argv", "message"), [
    (["compare", "lora", "--tasks", "10", "--arrival-rate", "2"],
     "--tasks: = 10 cannot be combined with --arrival-rate 2: give an exact count or a Poisson rate"),
    (["compare", "genai", "--jobs", "4", "--arrival-rate", "1.5"],
     "--jobs: = 4 cannot be combined with --arrival-rate 1.5: give an exact count or a Poisson rate"),
    (["compare", "spot", "--min-gpus", "13", "--max-gpus", "12"],
     "min_gpus: = 13 exceeds max_gpus = 12"),
    (["compare", "lora", "--trace-start", "6"], "--trace-start: = 6 needs --trace: it says where a trace starts"),
])
def test_conflicting_options_are_refused_in_one_line(argv, message, tmp_path, capsys) -> None:
    assert main([*argv, "--out", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.err.strip() == f"aisched: error: {message}" and captured.out == ""
    assert not any(tmp_path.iterdir())  # refused before any work
