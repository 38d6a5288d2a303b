"""The aisched command: a real comparison run and one-line errors."""

import subprocess
import sys

import pytest

from aisched.cli import main


def test_compare_lora_writes_results(tmp_path, capsys):
    code = main([
        "compare", "lora", "--nodes", "2", "--slots", "8", "--tasks", "5", "--vendors", "2",
        "--seed", "1", "--algorithms", "pdftsp,eft,ntm,titan", "--out", str(tmp_path),
    ])
    assert code == 0
    text = capsys.readouterr().out
    for name in ("offline", "pdftsp", "titan", "eft", "ntm"):
        assert name in text
        assert (tmp_path / f"lora_{name}.nc").is_file()
    assert (tmp_path / "lora_objective.png").stat().st_size > 1000
    assert (tmp_path / "lora_pdftsp_compute_price.png").stat().st_size > 1000
    assert (tmp_path / "lora_comparison.csv").is_file()


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["compare", "lora", "--nodes", "0"], "nodes"),
        (["compare", "lora", "--nodes", "two"], "--nodes"),
        (["compare", "lora", "--gpu-mix", "h100"], "--gpu-mix"),
        (["compare", "lora", "--algorithms", "pdftsp,magic"], "magic"),
        (["compare", "lora", "--time-limit", "-3"], "--time-limit"),
        (["compare", "lora", "--arrival-rate", "-1"], "arrival_rate"),
        (["compare", "nosuch"], "nosuch"),
    ],
)
def test_bad_options_exit_nonzero_with_one_line(argv, needle):
    proc = subprocess.run(
        [sys.executable, "-m", "aisched.cli", *argv], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("aisched: error:") and needle in lines[0]


# --- the first fifteen minutes ----------------------------------------------------------------------

def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_importing_the_cli_loads_no_numerical_stack():
    proc = _python(
        "import sys, aisched.cli\n"
        "aisched.cli._parser()\n"  # every family's options: their cli modules are light
        "print(sorted(m for m in ('jax', 'pyomo', 'xarray', 'pandas', 'numpy') if m in sys.modules))\n"
        "from aisched.experiments.spec import catalog\n"
        "catalog.names()\n"  # the catalogue loads the families' plug-ins
        "from aisched import families\n"
        "print(families.names())\n")
    assert proc.returncode == 0, proc.stderr
    loaded, registered = proc.stdout.splitlines()
    assert loaded == "[]"
    assert registered == "['lora', 'spot', 'genai', 'tenants']"


@pytest.mark.parametrize("argv", [["--help"], ["compare", "lora", "--help"], ["compare", "genai", "--help"],
                                  ["compare", "lora", "--nodes", "two"], ["compare", "lora", "--algorithms", "x"],
                                  ["compare", "lora", "--time-limit", "0"], ["sweep"]])
def test_help_and_argument_errors_answer_within_a_second(argv):
    import time

    tic = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "aisched.cli", *argv], capture_output=True, text=True, timeout=60)
    took = time.perf_counter() - tic
    assert proc.returncode in (0, 2), proc.stderr
    assert took < 1.0 + 1.0, f"{argv}: {took:.2f} s"  # 1 s on a quiet 2-core machine; slack for a loaded CI
    if proc.returncode == 2:
        assert proc.stderr.startswith("aisched: error:") and len(proc.stderr.strip().splitlines()) == 1


def test_family_cli_constants_match_the_registry_and_the_models():
    import aisched
    from aisched.models.tenants import UTILITIES
    from aisched.online.genai import baselines, comdos
    from aisched.scenarios.genai import defaults as genai
    from aisched.scenarios.tenants import defaults as tenants

    for family in aisched.FAMILIES:
        module = aisched.families.cli(family)
        assert list(module.known_algorithms()) == aisched.algorithms(family), family
    assert genai.ALPHA_READINGS == comdos.ALPHA_READINGS and genai.SELECTIONS == comdos.SELECTIONS
    assert genai.OPTION_EVALS == comdos.OPTION_EVALS and genai.ADMISSIONS == baselines.ADMISSIONS
    assert genai.COMMUNICATIONS == baselines.COMMUNICATIONS and genai.ON_FULL == baselines.ON_FULL
    assert tenants.UTILITIES == UTILITIES


def test_help_shows_every_default_and_choice(capsys):
    from aisched.cli import _parser

    for family in ("lora", "spot", "genai", "tenants"):
        with pytest.raises(SystemExit):
            _parser().parse_args(["compare", family, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        assert "--out OUT" in text and "(default results)" in text
        assert "--time-limit" in text and "(default " in text.split("--time-limit TIME_LIMIT", 1)[1][:200]
    with pytest.raises(SystemExit):
        _parser().parse_args(["compare", "lora", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "{slack,tight,loose,uniform}" in text and "generator seed (default 0)" in text
    assert "labour vendors (default 2)" in text and "(default mixed)" in text


def test_compare_refuses_another_comparisons_folder_and_overwrite_leaves_no_stale_file(tmp_path, capsys):
    small = ["compare", "lora", "--nodes", "2", "--slots", "8", "--tasks", "5", "--seed", "1", "--out", str(tmp_path)]
    assert main([*small, "--algorithms", "eft,ntm"]) == 0
    assert (tmp_path / "lora_ntm.nc").is_file() and (tmp_path / "lora_objective.png").is_file()
    capsys.readouterr()
    assert main([*small, "--algorithms", "eft"]) == 2
    err = capsys.readouterr().err
    assert "--out" in err and "holds a different comparison's files" in err and "--overwrite" in err
    assert "--algorithms 'eft,ntm' there, 'eft' here" in err
    assert main([*small, "--algorithms", "eft", "--no-offline", "--no-figures", "--overwrite"]) == 0
    left = sorted(p.name for p in tmp_path.iterdir())  # and the folder's lock file (one comparison at a time)
    assert left == [".aisched.compare.lock", "comparison.json", "lora_comparison.csv", "lora_eft.nc", "lora_instance.nc"]


def test_the_same_comparison_again_replaces_its_own_files(tmp_path, capsys):
    small = ["compare", "lora", "--nodes", "2", "--slots", "8", "--tasks", "5", "--seed", "1", "--out", str(tmp_path),
             "--algorithms", "eft,ntm", "--no-offline"]
    assert main(small) == 0
    first = (tmp_path / "lora_comparison.csv").read_text()
    (tmp_path / "lora_ntm.nc").write_bytes(b"stale")
    assert main([*small, "--no-figures"]) == 0  # where it is written is not what is compared
    assert (tmp_path / "lora_comparison.csv").read_text().splitlines()[0] == first.splitlines()[0]
    assert (tmp_path / "lora_ntm.nc").read_bytes() != b"stale"
    assert not (tmp_path / "lora_objective.png").exists()  # the first run's figure went with its other files
    capsys.readouterr()
    assert main([*small, "--seed", "2"]) == 2  # another seed is another comparison
    assert "--seed 1 there, 2 here" in capsys.readouterr().err


def test_written_files_follow_the_umask(tmp_path):
    import os
    import stat

    from aisched.experiments.run import sweep
    from aisched.experiments.spec.catalog import get

    old = os.umask(0o027)
    try:
        assert main(["compare", "lora", "--nodes", "2", "--slots", "8", "--tasks", "5", "--seed", "1", "--algorithms", "eft",
                     "--out", str(tmp_path / "c")]) == 0
        sweep.sweep(get("lora/fig8-load").reduced(), tmp_path / "s", seeds=1, executor="serial", progress=False)
    finally:
        os.umask(old)
    modes = {p.relative_to(tmp_path).as_posix(): stat.S_IMODE(p.stat().st_mode)
             for p in tmp_path.rglob("*") if p.is_file()}
    assert any(name.endswith(".nc") for name in modes) and any(name.endswith("table.csv") for name in modes)
    assert {name: mode for name, mode in modes.items() if mode != 0o640} == {}


def test_compare_says_when_no_job_could_run(tmp_path, capsys):
    assert main(["compare", "genai", "--jobs", "4", "--slots", "8", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "note: no job could run: every algorithm and the offline optimum admitted none" in out
    assert not (tmp_path / "genai_objective.png").exists()


def test_scenarios_prints_one_short_line_each(capsys):
    from aisched.experiments.spec import catalog

    assert main(["scenarios"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(catalog.names()) and max(map(len, lines)) <= 120
    assert main(["scenarios", "--long", "--family", "lora"]) == 0
    assert "cost:" in capsys.readouterr().out


def test_the_sweep_message_names_the_option_a_cli_user_types(tmp_path, capsys):
    argv = ["sweep", "lora/fig8-load", "--reduced", "--seeds", "1", "--serial", "--no-progress", "--out", str(tmp_path)]
    assert main(argv) == 0
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "run the same command with --resume" in err and "pass resume=True (--resume)" not in err


def test_report_of_a_missing_folder_says_it_does_not_exist(tmp_path, capsys):
    assert main(["report", str(tmp_path / "nowhere")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_ahap_decision_time_leaves_out_compilation():
    import aisched

    inst = aisched.scenarios.spot.generate(seed=3, deadline=7)
    outcome = aisched.run("ahap", inst, window=2)  # first call of this shape in the process: it compiles
    assert outcome.info["compile_s"] >= 0.0
    assert outcome.decision_s[0] == pytest.approx(outcome.runtime_s - outcome.info["compile_s"])
    again = aisched.run("ahap", inst, window=2)  # compiled already
    assert again.info["compile_s"] < 0.05 and again.decision_s[0] <= again.runtime_s


@pytest.mark.slow
def test_make_run_twice_in_a_row_exits_0(tmp_path):
    """The README's main command, twice in one folder (a copy of the Makefile on this checkout's stack)."""
    import shutil
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    for name in ("Makefile", "pyproject.toml", "constraints.txt"):
        shutil.copy(root / name, tmp_path / name)
    bin_dir = Path(sys.executable).parent
    if not (bin_dir / "aisched").is_file():
        pytest.fail(f"no aisched script beside {sys.executable}: install the project (make install)")
    stamp = tmp_path / "stamp"
    stamp.touch()  # newer than the copies: make installs nothing
    for run in range(2):
        proc = subprocess.run(["make", "run", f"BIN={bin_dir}", f"STAMP={stamp}"], cwd=tmp_path,
                              capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, f"run {run + 1}: {proc.stdout[-2000:]}{proc.stderr[-2000:]}"
    assert (tmp_path / "results" / "lora_comparison.csv").is_file()


def test_version_and_a_closed_pipe_give_no_traceback():
    import os

    proc = subprocess.run([sys.executable, "-m", "aisched.cli", "--version"], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0 and proc.stdout.startswith("aisched ")
    read, write = os.pipe()
    os.close(read)  # `aisched data list | head`: the reader has gone before the first line
    try:
        proc = subprocess.run([sys.executable, "-c", "import sys; sys.argv = ['aisched', 'data', 'list']\n"
                               "from aisched.cli import entry; entry()"], stdout=write, stderr=subprocess.PIPE,
                              text=True, timeout=60)
    finally:
        os.close(write)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr


def test_conflicting_options_are_refused_in_one_line(capsys):
    assert main(["compare", "lora", "--tasks", "10", "--arrival-rate", "2"]) == 2
    assert capsys.readouterr().err.strip() == ("aisched: error: --tasks: = 10 cannot be combined with "
                                               "--arrival-rate 2: give an exact count or a Poisson rate")


def test_every_option_of_every_command_says_what_it_does():
    import argparse

    from aisched.cli import _parser

    silent = []

    def walk(parser, path):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, [*path, name])
            elif action.option_strings and not (action.help or "").strip():
                silent.append(f"{' '.join(path)} {action.option_strings[0]}")

    walk(_parser(), ["aisched"])
    assert silent == []


def test_the_compare_table_names_its_objective_and_says_what_each_status_means(tmp_path, capsys) -> None:
    small = ["compare", "lora", "--nodes", "2", "--slots", "8", "--tasks", "5", "--seed", "1", "--out", str(tmp_path),
             "--algorithms", "eft", "--no-figures"]
    assert main(small) == 0
    out = capsys.readouterr().out
    assert "objective: social welfare (money units, higher is better); ratio: to the offline reference" in out
    rows = {line.split()[0]: line for line in out.splitlines() if line.startswith(("eft ", "offline  "))}
    assert rows["eft"].endswith("online; plan verified")
    assert rows["offline"].endswith(("optimal (proven)", "stopped at the time limit (incumbent)"))


def test_the_compare_table_keeps_a_long_name_in_its_columns_and_says_what_its_columns_are() -> None:
    import pandas as pd

    from aisched.cli_compare import _fmt_table

    table = pd.DataFrame({"objective": [10.0, 12.0], "status": ["online", "online"], "admitted": [1, 2],
                          "runtime_s": [0.1, 0.2], "decision_median_s": [0.001, 0.002], "ratio": [float("nan")] * 2},
                         index=["eft", "my_long_plugin"])  # --no-offline: no reference, no ratio
    lines = _fmt_table(table, "profit").splitlines()
    assert "ratio" not in lines[0] and "ratio" not in lines[1]
    assert "decision_ms: median milliseconds an online algorithm took per decision" in lines[0]
    head, rows = lines[1], lines[3:]
    for row in rows:  # each value under its heading
        assert len(row.split()[0]) < head.index("objective")
        assert row.index("online") == head.index("status")
    with_offline = table.assign(ratio=[1.0, 1.0]).rename(index={"eft": "offline"})
    assert "ratio: to the offline reference" in _fmt_table(with_offline, "profit").splitlines()[0]


def test_python_dash_m_aisched_is_the_command() -> None:
    done = subprocess.run([sys.executable, "-m", "aisched", "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("aisched "), done.stderr
