"""Sweeps: tables, resume after SIGKILL, Dask = process pool = serial, report."""

import json
import math
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from aisched.errors import InvalidScenarioError
from aisched.experiments.pages import report
from aisched.experiments.run import sweep
from aisched.experiments.spec import catalog
from aisched.experiments.spec.catalog import Claim, Scenario
from aisched.experiments.store.stored import StoredScenario

# columns that must agree between runs (timings differ)
STABLE = ["scenario", "point", "x", "seed", "algorithm", "objective", "status", "admitted", "reference",
          "reference_kind", "ratio"]

MINI = Scenario(
    name="lora/test-mini", family="lora", title="mini", x="nodes", values=(1, 2),
    base={"slots": 10, "tasks": 5, "vendors": 1}, algorithms=("pdftsp", "eft", "ntm"), seeds=2,
    offline=True, time_limit=30.0, metric="ratio",
    claims=(Claim("at_most", "ratio at most 1", "pdftsp", value=1.0),
            Claim("improvement", "pdFTSP beats NTM at 2 nodes", "pdftsp", baseline="ntm", point="2",
                  value=0.5)),
)

MINI_TOML = """
name = "lora/test-mini"
family = "lora"
title = "mini"
x = "nodes"
values = [1, 2]
algorithms = ["pdftsp", "eft", "ntm"]
seeds = 2
offline = true
time_limit = 30
metric = "ratio"
[base]
slots = 10
tasks = 5
vendors = 1
"""


@pytest.fixture(scope="module")
def serial_table(tmp_path_factory) -> pd.DataFrame:
    """MINI swept in this process: the reference the other executors must reproduce."""
    return sweep.sweep(MINI, tmp_path_factory.mktemp("serial"), executor="serial", progress=False)


def _stable(table: pd.DataFrame) -> pd.DataFrame:
    return table[STABLE].sort_values(["point", "seed", "algorithm"]).reset_index(drop=True)


def test_table_has_references_and_ratios(serial_table: pd.DataFrame, tmp_path: Path) -> None:
    table = serial_table
    assert len(table) == 2 * 2 * 4
    off = table[table["algorithm"] == "offline"]
    assert (off["status"] == "optimal").all() and (off["ratio"] == 1.0).all()
    online = table[table["algorithm"] != "offline"]
    assert ((online["ratio"] <= 1 + 1e-9) | (online["reference"] == 0)).all()
    assert np.allclose(online["competitive_ratio"] * online["ratio"], 1.0, equal_nan=True)
    root = sweep.folder(tmp_path, MINI)
    sweep.sweep(MINI, tmp_path, executor="serial", progress=False, seeds=1)
    assert sorted(p.stem for p in (root / "outcomes").glob("*.nc")) == sorted(
        p.stem for p in (root / "cells").glob("*.json"))
    assert pd.read_csv(root / "table.csv").shape == (8, table.shape[1])


def test_existing_folder_needs_resume_and_resume_redoes_nothing(tmp_path: Path) -> None:
    first = sweep.sweep(MINI, tmp_path, executor="serial", progress=False)
    with pytest.raises(InvalidScenarioError, match="--resume"):
        sweep.sweep(MINI, tmp_path, executor="serial", progress=False)
    root = sweep.folder(tmp_path, MINI)
    stamp = {p.name: p.stat().st_mtime_ns for p in (root / "cells").iterdir()}
    for leftover in (root / "outcomes" / "tmpab12cd.nc.tmp", root / "cells" / ".p000.json.x.tmp"):
        leftover.write_text("half-written by a killed run")
    again = sweep.sweep(MINI, tmp_path, executor="serial", progress=False, resume=True)
    assert not [*root.glob("**/*.tmp")]  # temporaries of a killed run are removed
    assert json.loads((root / "sweep.json").read_text())["cells_run"] == 0
    assert {p.name: p.stat().st_mtime_ns for p in (root / "cells").iterdir()} == stamp
    pd.testing.assert_frame_equal(_stable(first), _stable(again))
    more = sweep.sweep(MINI, tmp_path, executor="serial", progress=False, resume=True, seeds=3)
    assert len(more) == 2 * 3 * 4 and json.loads((root / "sweep.json").read_text())["cells_run"] == 8
    changed = Scenario(**{**vars(MINI), "values": (1, 2, 3)})
    with pytest.raises(InvalidScenarioError, match="different definition"):
        sweep.sweep(changed, tmp_path, executor="serial", progress=False, resume=True)


def test_sigkill_mid_sweep_then_resume_equals_uninterrupted(serial_table: pd.DataFrame, tmp_path: Path) -> None:
    toml = tmp_path / "kill.toml"
    toml.write_text(MINI_TOML)
    killed_out = tmp_path / "killed"
    proc = subprocess.Popen(
        [sys.executable, "-m", "aisched.cli", "sweep", str(toml), "--out", str(killed_out), "--workers", "1",
         "--no-progress"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    cells_dir = killed_out / "lora" / "test-mini" / "cells"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and len(list(cells_dir.glob("*.json"))) < 3 and proc.poll() is None:
        time.sleep(0.05)
    assert proc.poll() is None, "the sweep finished before it could be killed"
    os.killpg(proc.pid, signal.SIGKILL)  # the process and its pool workers
    proc.wait(timeout=30)
    done_before = len(list(cells_dir.glob("*.json")))
    assert 3 <= done_before < 16
    resumed = sweep.sweep(catalog.load(toml), killed_out, executor="serial", progress=False, resume=True)
    root = killed_out / "lora" / "test-mini"
    assert json.loads((root / "sweep.json").read_text())["cells_run"] == 16 - done_before
    assert not list(root.glob("**/.*.tmp"))
    assert len(resumed) == 16 and not resumed.duplicated(["point", "seed", "algorithm"]).any()
    pd.testing.assert_frame_equal(_stable(resumed), _stable(serial_table))


def test_ctrl_c_keeps_finished_cells_says_so_in_one_line_and_exits_130(serial_table: pd.DataFrame,
                                                                        tmp_path: Path) -> None:
    toml = tmp_path / "int.toml"
    toml.write_text(MINI_TOML)
    out = tmp_path / "interrupted"
    proc = subprocess.Popen(  # a terminal's Ctrl-C: SIGINT to the whole process group, workers included
        [sys.executable, "-m", "aisched.cli", "sweep", str(toml), "--out", str(out), "--workers", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        # as in a terminal's foreground job: SIGINT at its default. A test runner's worker may ignore it,
        # and an ignored SIGINT is inherited across exec (Python then installs no KeyboardInterrupt).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    cells_dir = out / "lora" / "test-mini" / "cells"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and len(list(cells_dir.glob("*.json"))) < 2 and proc.poll() is None:
        time.sleep(0.02)
    assert proc.poll() is None, "the sweep finished before it could be interrupted"
    tic = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    took = time.monotonic() - tic
    assert proc.returncode == 130
    kept = len(list(cells_dir.glob("*.json")))
    last = err.strip().splitlines()[-1]
    assert last == f"aisched: interrupted: {kept} of 16 cells kept; run the same command with --resume", err
    assert "Traceback" not in err
    assert took < 2.0 + 2.0, f"{took:.1f} s"  # 2 s on a quiet machine; slack for a loaded CI
    assert len(pd.read_csv(out / "lora" / "test-mini" / "table.csv")) == kept
    resumed = sweep.sweep(catalog.load(toml), out, executor="serial", progress=False, resume=True)
    pd.testing.assert_frame_equal(_stable(resumed), _stable(serial_table))


def test_a_keyboard_interrupt_in_a_serial_sweep_keeps_the_finished_cells(tmp_path: Path, monkeypatch) -> None:
    calls = []
    real = sweep.run_cell

    def run_cell(cell):
        calls.append(cell.key)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return real(cell)

    monkeypatch.setattr(sweep, "run_cell", run_cell)
    with pytest.raises(sweep.Interrupted) as info:
        sweep.sweep(MINI, tmp_path, executor="serial", progress=False)
    assert (info.value.kept, info.value.total) == (3, 16)
    assert str(info.value) == "interrupted: 3 of 16 cells kept; run the same command with --resume"
    assert len(list((tmp_path / "lora" / "test-mini" / "cells").glob("*.json"))) == 3


def test_dask_local_cluster_gives_the_same_table(serial_table: pd.DataFrame, tmp_path: Path) -> None:
    dasked = sweep.sweep(MINI, tmp_path, executor="dask:local:2", progress=False)
    pd.testing.assert_frame_equal(_stable(serial_table), _stable(dasked))


def test_process_pool_gives_the_same_table(serial_table: pd.DataFrame, tmp_path: Path) -> None:
    pooled = sweep.sweep(MINI, tmp_path, executor="process", workers=2, progress=False)
    pd.testing.assert_frame_equal(_stable(serial_table), _stable(pooled))  # workers dispatch synchronously
    assert json.loads((sweep.folder(tmp_path, MINI) / "sweep.json").read_text())["worker_dispatch"] == "sync"


@pytest.mark.parametrize("dispatch", ["sync", "async"])
def test_pool_workers_get_the_dispatch_they_are_given(dispatch: str) -> None:
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"), initializer=sweep._init_worker,
                             initargs=(dispatch,)) as pool:
        assert pool.submit(sweep._async_dispatch).result() is (dispatch == "async")


def test_worker_dispatch_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert sweep.worker_dispatch() == "sync"  # the default
    monkeypatch.setenv("AISCHED_WORKER_DISPATCH", "async")
    assert sweep.worker_dispatch() == "async"
    assert sweep.open_runner("serial").dispatch is None  # the user's own process: JAX's default, untouched
    monkeypatch.setenv("AISCHED_WORKER_DISPATCH", "threads")
    with pytest.raises(InvalidScenarioError, match="AISCHED_WORKER_DISPATCH.*'threads'"):
        sweep.sweep(MINI, tmp_path, executor="process", workers=1, progress=False)
    assert not (tmp_path / "lora").exists()  # refused before anything was written


def test_bad_executor_and_seeds(tmp_path: Path) -> None:
    with pytest.raises(InvalidScenarioError, match="executor"):
        sweep.sweep(MINI, tmp_path, executor="threads", progress=False)
    with pytest.raises(InvalidScenarioError, match="local:N"):
        sweep.sweep(MINI, tmp_path / "d", executor="dask:local:zero", progress=False)
    with pytest.raises(InvalidScenarioError, match="seeds"):
        sweep.cells(MINI, 0)
    assert not (tmp_path / "lora").exists() or not list((tmp_path / "lora").glob("*/cells/*.json"))


def test_report_writes_figures_tables_and_claims(tmp_path: Path) -> None:
    sweep.sweep(MINI, tmp_path, executor="serial", progress=False)
    path = report.report(tmp_path)
    text = path.read_text()
    root = sweep.folder(tmp_path, MINI)
    assert (root / "figure.png").stat().st_size > 1000 and (root / "figure.svg").stat().st_size > 1000
    assert (root / "prices.png").stat().st_size > 1000  # pdFTSP's dual prices
    assert "## lora/test-mini" in text and "| nodes | eft | ntm | pdftsp |" in text
    assert "| ratio at most 1 |" in text and "pdFTSP beats NTM at 2 nodes" in text


def _stored(metric: str, *claims: Claim, algorithms: tuple[str, ...] = ()) -> StoredScenario:
    """A hand-made sweep record: points "a" and "b", no registered family."""
    return StoredScenario(name="t/t", family="t", x="x", values=("a", "b"), metric=metric, algorithms=algorithms,
                          claims=claims)


def test_claim_checks_on_a_hand_made_summary() -> None:
    summary = pd.DataFrame({
        "point": [0, 0, 1, 1], "x": ["a", "a", "b", "b"], "algorithm": ["us", "them"] * 2,
        "mean": [10.0, 8.0, 9.0, 12.0], "std": [0.0] * 4, "count": [1] * 4,
    })
    definition = _stored(
        "objective",
        Claim("improvement", "", "us", baseline="them", point="a", value=0.3),
        Claim("improvement", "", "us", baseline="them", point="b", value=0.3),
        Claim("best", "", "us"),
        Claim("increasing", "", "us"),
        Claim("greater", "", "them", point="b", other_point="a"),
        Claim("at_most", "", "us", value=10.0),
        Claim("at_least", "", "us", value=9.5),
        Claim("better_than", "", "us", baseline="them"),
        Claim("better_than", "", "them", baseline="us", point=None),
    )
    checks = report.check_claims(definition, summary)
    assert [c.holds for c in checks] == [True, False, False, False, True, True, False, False, False]
    lower = report.check_claims(replace(definition, metric="runtime_s"), summary)
    assert [c.holds for c in lower][2] is False and lower[7].holds is False and lower[8].holds is False
    assert checks[0].measured == pytest.approx(0.25)
    assert checks[1].measured == pytest.approx(-0.25)
    assert "beaten at b: them" in checks[2].detail


def test_claims_with_a_missing_algorithm_are_unchecked() -> None:
    """A killed or unfinished cell must not make 'best' or 'better_than' hold by default."""
    summary = pd.DataFrame({  # 'them' has no cell at point b
        "point": [0, 0, 1], "x": ["a", "a", "b"], "algorithm": ["us", "them", "us"],
        "mean": [10.0, 8.0, 9.0], "std": [0.0] * 3, "count": [1] * 3,
    })
    definition = _stored("objective", Claim("best", "", "us"), Claim("better_than", "", "us", baseline="them"),
                         algorithms=("us", "them"))
    best, better = report.check_claims(definition, summary)
    assert best.holds is None and "no measurement of b: them" in best.detail
    assert better.holds is None and "them at b" in better.detail
    partial = pd.DataFrame({  # a stopped run: 'us' itself has no cell at point b
        "point": [0, 0, 1], "x": ["a", "a", "b"], "algorithm": ["us", "them", "them"],
        "mean": [10.0, 8.0, 9.0], "std": [0.0] * 3, "count": [1] * 3,
    })
    best, better = report.check_claims(definition, partial)
    assert best.holds is None and best.detail == "no measurement of us at b"
    assert better.holds is None and better.detail == "no measurement of us at b"


def test_without_outcomes_the_table_is_the_same(serial_table: pd.DataFrame, tmp_path: Path) -> None:
    table = sweep.sweep(MINI, tmp_path, executor="serial", progress=False, outcomes=False)
    root = sweep.folder(tmp_path, MINI)
    assert not list((root / "outcomes").glob("*.nc"))
    assert len(list((root / "cells").glob("*.json"))) == len(serial_table)
    pd.testing.assert_frame_equal(_stable(table), _stable(serial_table))
    assert "## lora/test-mini" in report.report(tmp_path).read_text()  # no heatmap, no error


def test_a_claim_at_a_point_not_in_the_run_is_listed_as_not_checked(tmp_path: Path) -> None:
    """No claim disappears from a reduced run; the summary counts all three verdicts."""
    full = replace(MINI, values=(2, 3), claims=(
        *MINI.claims, Claim("improvement", "pdFTSP gains at 3 nodes", "pdftsp", baseline="ntm", point="3",
                            value=0.1)))
    reduced = replace(full.reduced(), values=(2,))
    assert reduced.claims == full.claims
    sweep.sweep(reduced, tmp_path, executor="serial", progress=False, outcomes=False)
    text = report.report(tmp_path, figures=False).read_text()
    n = len(full.claims)
    assert f"Claims: {n} in all: " in text and " 1 not checked." in text
    assert text.splitlines()[0] == "# aisched report" + report.reduced_heading(True)
    # listed once, under "Not in this run" not as a "not checked" row of the figure's table
    assert not any(line.startswith("| pdFTSP gains at 3 nodes") for line in text.splitlines())
    assert "## Not in this run" in text and f"- {reduced.name}: pdFTSP gains at 3 nodes (at nodes=3)" in text
    rows = [line for line in text.splitlines() if line.startswith("| ") and line.endswith(" |")
            and any(line.startswith(f"| {c.text} |") for c in full.claims)]
    assert rows and all(line.endswith(f" {report.REDUCED_LABEL} |") for line in rows)  # every verdict says it
    for claim in full.claims[:-1]:
        assert f"| {claim.text} |" in text


def test_a_sweep_without_finished_cells_still_lists_its_claims(tmp_path: Path) -> None:
    root = sweep.folder(tmp_path, MINI)
    root.mkdir(parents=True)
    (root / "scenario.json").write_text(json.dumps(MINI.sweep_record()))
    text = report.report(tmp_path, figures=False).read_text()
    assert f"0 hold, 0 fail, 0 inconclusive, 0 untestable, {len(MINI.claims)} not checked." in text
    assert text.count("not checked: no finished cells yet") == len(MINI.claims)


def test_variants_run_beside_the_default_and_every_claim_is_checked_under_each(tmp_path: Path) -> None:
    """A scenario's variants (other readings) and the claims under each."""
    scenario = replace(MINI, offline=False, metric="objective", seeds=1, claims=(
        Claim("improvement", "pdFTSP beats NTM at 2 nodes", "pdftsp", baseline="ntm", point="2", value=0.5),
        Claim("best", "EFT is best", "eft")),
        variants={"paper-pay": {"pdftsp": {"payment": "paper"}}, "positive": {"eft": {"require_positive_welfare": True}}})
    assert scenario.runs == ["pdftsp", "eft", "ntm", "pdftsp@paper-pay", "eft@positive"]
    assert scenario.algorithm_params(0, "pdftsp@paper-pay") == {"payment": "paper"}
    table = sweep.sweep(scenario, tmp_path, executor="serial", progress=False, outcomes=False)
    assert set(table["algorithm"]) == set(scenario.runs)
    paid = table[table["algorithm"] == "pdftsp@paper-pay"].set_index("x")["objective"]
    base = table[table["algorithm"] == "pdftsp"].set_index("x")["objective"]
    pd.testing.assert_series_equal(paid, base, check_names=False)  # payments do not change welfare
    text = report.report(tmp_path, figures=False).read_text()
    assert "Under variant `paper-pay` (pdftsp: payment='paper'):" in text
    assert "Under variant `positive` (eft: require_positive_welfare=True):" in text
    assert "Under the scenarios' variants (other readings): " in text
    summary = report.summarise(table, "objective")
    checks = report.variant_checks(StoredScenario.of(scenario), summary)
    assert [c.claim.text for c in checks["paper-pay"]] == ["pdFTSP beats NTM at 2 nodes", "EFT is best"]
    assert [c.claim.text for c in checks["positive"]] == ["EFT is best"]
    default = report.check_claims(StoredScenario.of(scenario), summary)
    assert [c.holds for c in checks["paper-pay"]] == [c.holds for c in default]


def test_variant_errors_name_the_field() -> None:
    with pytest.raises(InvalidScenarioError, match=r"^variants.v.ntm.payment: "):
        replace(MINI, variants={"v": {"ntm": {"payment": "paper"}}})
    with pytest.raises(InvalidScenarioError, match=r"^variants.v.titan: .*not compared"):
        replace(MINI, variants={"v": {"titan": {"seed": 1}}})
    with pytest.raises(InvalidScenarioError, match=r"^variants: .*variant name 'a b'"):
        replace(MINI, variants={"a b": {"eft": {"require_positive_welfare": True}}})
    toml = MINI_TOML + '\n[variants.strict.eft]\nrequire_positive_welfare = true\n'
    s = catalog.from_mapping(__import__("tomllib").loads(toml))
    assert s.variants == {"strict": {"eft": {"require_positive_welfare": True}}}


def test_claim_verdicts_are_plain_booleans() -> None:
    """A numpy comparison must not leak np.bool_ into the verdict (the page bolds `holds is False`)."""
    chk = report.ClaimCheck(Claim("at_most", "", "us", value=1.0), 2.0, np.float64(2.0) <= 1.0, "")
    assert chk.holds is False and chk.verdict == "fails"


def test_ratios_to_a_bound_decide_only_the_side_the_bound_certifies() -> None:
    """bound / ALG is an upper estimate of OPT / ALG: "<= c" holding is proven, failing is undecided."""
    summary = pd.DataFrame({
        "point": [0, 1], "x": ["a", "b"], "algorithm": ["us", "us"], "mean": [1.5, 2.5], "std": [0.0] * 2,
        "count": [1] * 2, "by_bound": [1, 1],
    })
    definition = _stored("competitive_ratio", Claim("at_most", "", "us", value=3.0),
                         Claim("at_most", "", "us", value=2.0), Claim("decreasing", "", "us"))
    proven, undecided, trend = report.check_claims(definition, summary)
    assert proven.holds is True and "holds on the optimum too" in proven.detail
    assert undecided.holds is None and "cannot decide" in undecided.detail and "largest 2.5" in undecided.detail
    assert trend.holds is None  # a trend of one-sided estimates decides nothing
    ratio = summary.assign(mean=[0.7, 0.5])  # ALG / bound: a lower estimate of ALG / OPT
    low = _stored("ratio", Claim("at_least", "", "us", value=0.4), Claim("at_least", "", "us", value=0.6))
    assert [c.holds for c in report.check_claims(low, ratio)] == [True, None]
    pair = pd.concat([summary, summary.assign(algorithm="them", mean=[1.2, 2.0])], ignore_index=True)
    shared = _stored("competitive_ratio", Claim("better_than", "", "us", baseline="them"))
    assert [c.holds for c in report.check_claims(shared, pair)] == [False]  # one reference per point: decided
    exact = summary.assign(by_bound=[0, 0])  # references proven optimal: both verdicts stand
    assert [c.holds for c in report.check_claims(definition, exact)] == [True, False, False]


def test_a_bound_met_by_its_verified_plan_is_a_proven_optimum(tmp_path: Path) -> None:
    rows = [{"scenario": "s", "point": 0, "x": "a", "seed": 0, "algorithm": "bound", "objective": 10.0,
             "status": "lp_optimal", "bound": 10.0, "admitted": 1, "runtime_s": 1.0, "decision_median_s": 0.0,
             "work_s": 1.0},
            {"scenario": "s", "point": 1, "x": "b", "seed": 0, "algorithm": "bound", "objective": 8.0,
             "status": "limit", "bound": 12.0, "admitted": 1, "runtime_s": 1.0, "decision_median_s": 0.0,
             "work_s": 1.0}]
    rows += [{**r, "algorithm": "us", "objective": 5.0, "bound": float("nan"), "status": "online"} for r in rows]
    (tmp_path / "cells").mkdir()
    for i, row in enumerate(rows):
        (tmp_path / "cells" / f"p{row['point']:03d}-s{row['seed']:03d}-{row['algorithm']}.json").write_text(json.dumps(row))
    table = sweep.load_table(tmp_path).set_index(["point", "algorithm"])
    assert table.loc[(0, "us"), "reference_kind"] == "optimum" and table.loc[(0, "us"), "reference"] == 10.0
    assert table.loc[(1, "us"), "reference_kind"] == "bound" and table.loc[(1, "us"), "reference"] == 12.0


def test_netcdf_writes_hold_the_process_lock(tmp_path: Path) -> None:
    """HDF5 is not thread-safe: every outcome write holds sweep._NETCDF_LOCK (two sweeps write at once)."""
    held: list[bool] = []

    class Outcome:
        def to_netcdf(self, path: Path) -> None:
            held.append(sweep._NETCDF_LOCK.locked())

    cell = sweep.cells(MINI, 1)[0]
    for sub in ("outcomes", "cells"):
        (tmp_path / sub).mkdir()
    sweep._write_cell(tmp_path, cell, {"objective": 1.0}, Outcome())
    assert held == [True] and not sweep._NETCDF_LOCK.locked()


def test_an_offline_row_gives_its_gap_and_a_time_limited_one_says_so() -> None:
    from aisched.experiments.store.stored import TABLE_COLUMNS, _gap

    assert TABLE_COLUMNS[-1] == "gap"
    assert _gap({"algorithm": "offline", "status": "optimal", "bound": 10.0, "objective": 10.0}) == 0.0
    limited = {"algorithm": "offline", "status": "time_limit", "bound": 11.0, "objective": 10.0}
    assert _gap(limited) == pytest.approx(0.1)
    assert math.isnan(_gap({**limited, "bound": float("nan")})) and math.isnan(_gap({**limited, "bound": None}))
    assert math.isnan(_gap({**limited, "algorithm": "eft"}))  # online rows have no gap


def test_load_table_on_a_results_root_names_its_sweeps(tmp_path) -> None:
    for name in ("spot/a", "lora/b"):
        (tmp_path / name / "cells").mkdir(parents=True)
        (tmp_path / name / "scenario.json").write_text("{}")
    with pytest.raises(InvalidScenarioError, match="is a results folder, not one sweep's; its sweeps: lora/b, spot/a"):
        sweep.load_table(tmp_path)
    assert sweep.load_table(tmp_path / "spot" / "a").empty  # a sweep folder without cells: empty, no error
