"""`aisched reproduce`: every scenario of a family, one pool, one bar, resumable, then the report."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest

import aisched
from aisched import cli
from aisched.errors import InvalidScenarioError
from aisched.experiments.pages import render, report, reproduce, reproduction
from aisched.experiments.run import reproduce as run_reproduce
from aisched.experiments.run import sweep
from aisched.experiments.spec import catalog

SMALL = ["spot/fig5-deadline", "spot/fig6-bandwidth"]  # millisecond cells
STABLE = ["scenario", "point", "x", "seed", "algorithm", "objective", "status", "admitted"]


def _tables(out: Path) -> pd.DataFrame:
    frames = [sweep.load_table(sweep.folder(out, catalog.get(n).reduced())) for n in SMALL]
    return pd.concat(frames).sort_values(["scenario", "point", "seed", "algorithm"])[STABLE].reset_index(drop=True)


def test_plan_is_the_catalogue_of_the_family() -> None:
    assert [s.name for s in reproduce.plan(["spot"])] == catalog.names("spot")
    assert [s.name for s in reproduce.plan(["all"])] == [n for f in aisched.families.names() for n in catalog.names(f)]
    assert all(s.seeds == 1 for s in reproduce.plan(["genai"], reduced=True))
    with pytest.raises(InvalidScenarioError, match=r"^families\[0\]: 'nope'"):
        reproduce.plan(["nope"])
    with pytest.raises(InvalidScenarioError, match=r"^names\[0\]: 'lora/fig4-scale' is not a scenario"):
        reproduce.plan(["spot"], names=["lora/fig4-scale"])


def test_reproduce_runs_everything_then_resumes_nothing(tmp_path: Path) -> None:
    path = reproduce.reproduce(["spot"], tmp_path, reduced=True, names=SMALL, executor="serial",
                               progress=False, outcomes=False, figures=False)
    text = path.read_text()
    claims = [c for n in SMALL for c in catalog.get(n).claims]
    assert f"Claims: {len(claims)} in all:" in text
    assert all(f"| {c.text} |" in text for c in claims)
    records = reproduce.read_records(tmp_path / reproduce.record_name(["spot"], True))
    assert len(records) == 1
    record = records[0]
    cells = sum(len(sweep.cells(catalog.get(n).reduced())) for n in SMALL)
    assert record["cells_total"] == cells and record["cells_already_done"] == 0
    assert set(record["wall_s_per_scenario"]) == set(SMALL) and record["machine"]["cpus"] >= 1
    first = _tables(tmp_path)
    assert len(first) == cells
    reproduce.reproduce(["spot"], tmp_path, reduced=True, names=SMALL, executor="serial", progress=False,
                        outcomes=False, figures=False)
    first_record, again = reproduce.read_records(tmp_path / reproduce.record_name(["spot"], True))
    assert first_record == record  # the run that computed the cells keeps its record
    assert again["cells_already_done"] == cells  # a second run redoes nothing, and adds its own record
    pd.testing.assert_frame_equal(_tables(tmp_path), first)
    readings = tmp_path / "docs" / "readings"  # the folder: a page per family, findings in findings.toml
    readings.mkdir(parents=True)
    (readings / "spot.md").write_text("# Readings: spot (AHAP / AHANP)\n\ntext\n\n### S3. Averaged commitments\n\n"
                                      "### S-headroom. Why AHAP ties MSU\n\n### S10. The market\n")
    (readings / "findings.toml").write_text('[[finding]]\nfamily = "spot"\nkey = "S-findings-1"\nreading = "S10"\n'
                                            'text = "A finding from the TOML."\n')
    page = reproduction.write(tmp_path, tmp_path / "docs" / "reproduction.md", readings=readings).read_text()
    every = [c for n in catalog.names("spot") for c in catalog.get(n).claims]  # the scenarios not run too
    assert f"Claims: {len(every)} in all:" in page and "--reduced" in page
    assert page.splitlines()[0].startswith("# spot: the paper's claims against our runs: reduced run")
    assert (tmp_path / "docs" / "records" / "spot.json").is_file()  # the record the page is rendered from
    assert all(c.text in page for c in every)
    verdicts = [line for line in page.splitlines() if line.startswith("- ") and (": holds" in line or "fails" in line)]
    assert verdicts and all(report.REDUCED_LABEL in line for line in verdicts)
    assert page.count("Run: `aisched reproduce spot") == 2  # both records quoted
    assert page.count("  Made by aisched ") == 2 and "HiGHS" in page  # each run's provenance
    assert records[0]["provenance"]["commit"] and records[0]["provenance"]["python"]
    assert page.count("[readings: spot](readings/spot.md)") == len(SMALL)
    assert "A finding from the TOML." in page
    assert all(f"### {n}" in page for n in SMALL)
    claim_lines = [line for line in page.splitlines() if line.startswith("- ") and report.REDUCED_LABEL in line]
    asks = [line for line in claim_lines if any(k in line for k in ("**fails**", ": untestable", ": inconclusive"))]
    assert asks  # one seed: every direction claim is inconclusive, fig5's MSU claim untestable
    assert all("Why: [S10](readings/spot.md#s10-the-market), [S-headroom](readings/spot.md#s-headroom-why-ahap-ties-msu), "
               "[S3](readings/spot.md#s3-averaged-commitments)" in line for line in asks)
    assert not any("Why:" in line for line in claim_lines if line not in asks)


def test_a_folder_of_another_definition_stops_the_run_before_any_cell(tmp_path: Path) -> None:
    other = catalog.get(SMALL[1]).reduced()
    root = sweep.folder(tmp_path, other)
    (root / "cells").mkdir(parents=True)
    changed = replace(other, values=other.values[:1])  # another computation, with a finished cell of its own
    (root / "scenario.json").write_text(sweep._record_text(changed))
    row = {"scenario": other.name, "point": 0, "x": changed.labels[0], "seed": 0, "algorithm": other.algorithms[0],
           "objective": 1.0, "status": "online", "bound": None, "admitted": 1, "runtime_s": 0.1,
           "decision_median_s": 0.0, "work_s": 0.1}
    (root / "cells" / f"p000-s000-{other.algorithms[0]}.json").write_text(json.dumps(row))
    with pytest.raises(InvalidScenarioError, match="different definition"):
        reproduce.reproduce(["spot"], tmp_path, reduced=True, names=SMALL, executor="serial", progress=False)
    assert not sweep.folder(tmp_path, catalog.get(SMALL[0]).reduced()).exists()


@pytest.fixture(scope="module")
def serial_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """SMALL run serially once: the reference of the other executors."""
    out = tmp_path_factory.mktemp("serial")
    reproduce.reproduce(["spot"], out, reduced=True, names=SMALL, executor="serial",
                        progress=False, outcomes=False, figures=False)
    return out


@pytest.mark.slow  # a LocalCluster's start-up (~90 s on 2 loaded cores); test_sweep's Dask test is the fast one
def test_dask_gives_the_same_table_cell_for_cell(tmp_path: Path, serial_run: Path) -> None:
    reproduce.reproduce(["spot"], tmp_path / "dask", reduced=True, names=SMALL, executor="dask:local:2",
                        progress=False, outcomes=False, figures=False)
    pd.testing.assert_frame_equal(_tables(tmp_path / "dask"), _tables(serial_run))


def test_cli_reproduce_rejects_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:  # argparse choices: a one-line error, exit 2
        cli.main(["reproduce", "nope"])
    assert info.value.code == 2
    assert "invalid choice: 'nope'" in capsys.readouterr().err
    assert cli.main(["reproduce", "spot", "--seeds", "0"]) == 2
    assert "--seeds: = 0 must be an integer >= 1" in capsys.readouterr().err


def _fake_sweep(root: Path, rows: list[dict[str, object]]) -> None:
    """A sweep folder of ``genai/fig5-edges``'s reduced form holding ``rows`` as its finished cells."""
    scenario = catalog.get("genai/fig5-edges").reduced()
    (root / "cells").mkdir(parents=True)
    (root / "scenario.json").write_text(sweep._record_text(scenario), encoding="utf-8")
    for i, row in enumerate(rows):
        full = {"scenario": scenario.name, "seed": 0, "status": "online", "bound": float("nan"), "admitted": 1,
                "runtime_s": 0.1, "decision_median_s": 0.001, "work_s": 0.1, **row}
        key = f"p{full['point']:03d}-s{full['seed']:03d}-{full['algorithm']}"  # named as its cell, as a sweep names it
        (root / "cells" / f"{key}.json").write_text(json.dumps(full), encoding="utf-8")


def test_reproduction_page_shows_each_claim_under_every_variant_and_the_budget(tmp_path: Path) -> None:
    """A variant that turns a verdict is listed under the claim and in "Claims a reading carries"."""
    rows = []
    for point, x in enumerate(["2", "3"]):  # comdos below heft_ma by default, best under alpha-gb
        for algorithm, value in [("comdos", 1.0), ("comdos@alpha-gb", 9.0), ("heft_ma", 5.0), ("heft_a", 4.0),
                                 ("random_a", 3.0)]:
            for seed in range(3):  # the same order on every seed: decided on the paired differences
                rows.append({"point": point, "x": x, "seed": seed, "algorithm": algorithm,
                             "objective": value + point + 0.5 * seed})
    _fake_sweep(tmp_path / "genai" / "fig5-edges", rows)
    alone = reproduction.write(tmp_path, tmp_path / "sweeps-only.md", readings=None).read_text()
    assert "Rendered from [`records/genai.json`](records/genai.json) (from the run folder " in alone
    assert str(tmp_path.parent) not in alone  # no machine path
    assert "no `aisched reproduce` record in this folder" in alone  # sweeps run one by one: said so
    record = {"families": ["genai"], "reduced": False, "seeds": 3, "cells_total": 10, "cells_already_done": 0,
              "executor": "process", "workers": 2, "wall_s": 600.0, "finished": "2026-11-23T00:00:00+00:00",
              "machine": {"cpus": 2, "platform": "test"}, "load_start": [1.0, 1.0, 1.0], "load_end": [2.0, 1.5, 1.2]}
    (tmp_path / "reproduce-genai.json").write_text(json.dumps(record), encoding="utf-8")
    slow = {**record, "families": ["spot"], "wall_s": 91 * 60.0}
    (tmp_path / "reproduce-spot.json").write_text(json.dumps(slow), encoding="utf-8")
    every = {**record, "families": ["all"], "wall_s": 170 * 60.0}  # as `aisched reproduce all` records it
    auto = {**record, "families": ["tenants"], "seeds": "auto", "max_seeds": 20, "wall_s": 121 * 60.0,
            "first_look": {"seeds": 3, "cells": 8, "wall_s": 30 * 60.0}}
    (tmp_path / "reproduce-all.json").write_text(json.dumps(every), encoding="utf-8")
    (tmp_path / "reproduce-tenants.json").write_text(json.dumps(auto), encoding="utf-8")
    page = reproduction.write(tmp_path, tmp_path / "reproduction.md", readings=None).read_text()
    best = "ComDOS still outperforms the others"
    assert (f"- {best}: **fails** [reduced run] (measured: worse (95 % paired interval below 0, or a tie) at 2: heft_ma, "
            "2: heft_a, 2: random_a, 3: heft_ma, 3: heft_a, 3: random_a; headroom over heft_ma unknown at 2, 3 (no optimum or certified bound was run there))") in page
    assert ("  - under `alpha-gb` (comdos: alpha_reading='gb'): holds [reduced run] (measured: best at every point "
            "(95 % paired intervals above 0)") in page
    assert "## Claims a reading carries" in page
    assert f"- genai/fig5-edges: {best}: fails by default, holds under `alpha-gb`" in page
    claims = catalog.get("genai/fig5-edges").claims
    listed = sum(len(catalog.get(n).claims) for n in catalog.names("genai"))  # run or not, every claim is counted
    assert f"Claims: {listed} in all: 0 hold, 1 fail, 0 inconclusive, 0 untestable, {listed - 1} not checked." in page
    assert ("variants (other readings, listed under each claim): 1 hold, 0 fail, 0 inconclusive, 0 untestable, "
            "2 not checked") in page  # fig5's `full-cell` and `heft-processors` variants have no rows in this fake sweep  # the claims at points this run lacks: listed once, under "Not in this run"
    assert page.count("## Not in this run") == 1
    assert sum(line.startswith("- genai/fig5-edges: ") and "(at edges=" in line
               for line in page.splitlines()) == len(claims) - 1
    assert "| genai | 3 | 10 | 10.0 | 90 | 1.0, 2.0 | yes |" in page
    assert "| all | 3 | 10 | 170.0 | 180 | 1.0, 2.0 | yes |" in page  # all four: 3 hours
    assert "| spot | 3 |" not in page and "| tenants |" not in page  # a family's page: the runs that covered it
    assert f"| genai | default | {listed} | 0 | 0 of 0 | 1 | 0 | 0 | {listed - 1} |" in page  # the summary on top
    assert "- genai's regime map: not in this run." in page
    assert "![genai/fig5-edges](figures/genai-fig5-edges.svg)" in page  # its picture, beside the page
    assert (tmp_path / "figures" / "genai-fig5-edges.svg").stat().st_size < 60_000
    budget = "\n".join(render.budget_lines([record, slow, every, auto]))
    assert "| spot | 3 | 10 | 91.0 | 90 | 1.0, 2.0 | **no** |" in budget
    assert "| tenants | auto (at most 20) | 10 | 121.0 | 120 | 1.0, 2.0 | **no** |" in budget  # --seeds auto: 2 hours
    bullets = "\n".join(reproduction._run_bullets([auto]))
    assert ("- `aisched reproduce tenants --seeds auto --max-seeds 20`, finished 2026-11-23, on 2 CPUs: 10 cells in "
            "121.0 min (a first look at 3 seeds, 8 cells in 30.0 min, then seeds added where a claim was undecided)"
            ) in bullets
    assert "load average 1.0 at the start, 2.0 at the end (1.2 over the last 15 min)" in page
    others = [n for n in catalog.names("genai") if n != "genai/fig5-edges"]  # not run: still listed, unchecked
    assert "## Not run in this folder" in page and all(f"### {n}" in page for n in others)
    assert f"- {catalog.get(others[0]).claims[0].text}: not checked: not run" in page


def test_a_familys_own_page_from_a_root_that_holds_every_family(tmp_path: Path) -> None:
    """``families=[...]`` (``aisched report DIR --family F``): that family's sweeps and the runs that covered it."""
    rows = [{"point": point, "x": x, "seed": seed, "algorithm": algorithm, "objective": 1.0 + seed}
            for point, x in enumerate(["2", "3"]) for algorithm in ("comdos", "heft_ma", "heft_a", "random_a")
            for seed in range(3)]
    _fake_sweep(tmp_path / "genai" / "fig5-edges", rows)
    spot = catalog.get("spot/fig5-deadline").reduced()
    folder = tmp_path / "spot" / "fig5-deadline"
    (folder / "cells").mkdir(parents=True)
    (folder / "scenario.json").write_text(sweep._record_text(spot), encoding="utf-8")
    for i, (point, x) in enumerate(enumerate(spot.labels)):
        row = {"scenario": spot.name, "point": point, "x": x, "seed": 0, "algorithm": "ahap", "objective": 1.0,
               "status": "online", "bound": float("nan"), "admitted": 1, "runtime_s": 0.1,
               "decision_median_s": 0.001, "work_s": 0.1}
        (folder / "cells" / f"p{row['point']:03d}-s{row['seed']:03d}-{row['algorithm']}.json").write_text(json.dumps(row), encoding="utf-8")
    record = {"families": ["all"], "reduced": False, "seeds": 3, "cells_total": 30, "cells_already_done": 0,
              "executor": "process", "workers": 2, "wall_s": 6000.0, "finished": "2026-12-03T00:00:00+00:00",
              "machine": {"cpus": 2, "platform": "test"}}
    (tmp_path / "reproduce-all.json").write_text(json.dumps(record), encoding="utf-8")
    (tmp_path / "reproduce-spot.json").write_text(json.dumps({**record, "families": ["spot"]}), encoding="utf-8")
    page = reproduction.write(tmp_path, tmp_path / "genai.md", readings=None, figures=False,
                              families=["genai"]).read_text()
    assert "### genai/fig5-edges" in page and "spot/" not in page and "| spot |" not in page
    assert "Run: `aisched reproduce all --seeds 3`" in page and "aisched reproduce spot" not in page
    assert "| all | 3 | 30 | 100.0 | 180 |" in page  # the run that covered genai, on its budget table
    both = reproduction.write(tmp_path, tmp_path / "both.md", readings=None, figures=False).read_text()
    assert "[genai](both-genai.md)" in both and "[spot](both-spot.md)" in both  # the index: a line per family
    assert "### spot/fig5-deadline" not in both  # no copied section
    both_spot = (tmp_path / "both-spot.md").read_text()
    assert "### spot/fig5-deadline" in both_spot and "aisched reproduce spot --seeds 3" in both_spot
    assert (tmp_path / "both-genai.md").read_text().count("### genai/fig5-edges\n") == 1
    assert cli.main(["report", str(tmp_path), "--no-figures", "--family", "spot", "--reproduction",
                     str(tmp_path / "spot.md")]) == 0
    spot_page = (tmp_path / "spot.md").read_text()
    assert "### spot/fig5-deadline" in spot_page and "genai/" not in spot_page
    with pytest.raises(SystemExit) as refused:  # argparse's one line: not a family
        cli.main(["report", str(tmp_path), "--family", "nope", "--reproduction", str(tmp_path / "n.md")])
    assert refused.value.code == 2 and not (tmp_path / "n.md").exists()
    with pytest.raises(InvalidScenarioError, match=r"families\[1\].*'nope' is not a family"):
        reproduction.write(tmp_path, tmp_path / "x.md", readings=None, figures=False, families=["genai", "nope"])
    (tmp_path / "genai" / "fig5-edges" / "scenario.json").unlink()
    with pytest.raises(InvalidScenarioError, match="holds no sweep of genai"):
        reproduction.write(tmp_path, tmp_path / "x.md", readings=None, figures=False, families=["genai"])
    assert not (tmp_path / "x.md").exists()


def test_a_regime_scenario_beside_a_run_record_keeps_the_record(tmp_path: Path) -> None:
    """The page's run lines read the records after the regime scenarios drew their maps (a name clash once broke it)."""
    scenario = catalog.get("genai/regime-capacity").reduced()
    root = tmp_path / "genai" / "regime-capacity"
    (root / "cells").mkdir(parents=True)
    (root / "scenario.json").write_text(sweep._record_text(scenario), encoding="utf-8")
    i = 0
    for point, x in enumerate(scenario.labels):
        for algorithm in scenario.runs:
            for seed in range(3):
                row = {"scenario": scenario.name, "point": point, "x": x, "seed": seed, "algorithm": algorithm,
                       "objective": 5.0 + seed + (2.0 if algorithm.startswith("comdos") else 0.0), "status": "online",
                       "bound": float("nan"), "admitted": 1, "runtime_s": 0.1, "decision_median_s": 0.001,
                       "work_s": 0.1}
                (root / "cells" / f"p{row['point']:03d}-s{row['seed']:03d}-{row['algorithm']}.json").write_text(json.dumps(row), encoding="utf-8")
                i += 1
    record = {"families": ["genai"], "reduced": True, "seeds": 3, "cells_total": i, "cells_already_done": 0,
              "executor": "serial", "workers": 1, "wall_s": 60.0, "finished": "2026-11-26T00:00:00+00:00",
              "machine": {"cpus": 2, "platform": "test"}, "load_start": [1.0, 1.0, 1.0], "load_end": [1.0, 1.0, 1.0]}
    (tmp_path / "reproduce-genai-reduced.json").write_text(json.dumps(record), encoding="utf-8")
    page = reproduction.write(tmp_path, tmp_path / "reproduction.md", readings=None, figures=False).read_text()
    assert "genai's regime map: genai/regime-capacity: " in page
    assert ("Run: `aisched reproduce genai --seeds 3 --reduced`, finished 2026-11-26, on 2 CPUs: "
            f"{i} cells in 1.0 min.") in page


@pytest.mark.slow  # ~34 s; the in-flight machinery's fast test is the Ctrl-C one below
def test_two_scenarios_in_flight_give_the_same_table_cell_for_cell(tmp_path: Path, serial_run: Path) -> None:
    # on a process pool the next scenario's cells queue behind the current one's
    reproduce.reproduce(["spot"], tmp_path / "pool", reduced=True, names=SMALL, executor="process", workers=2,
                        progress=False, outcomes=False, figures=False)
    pd.testing.assert_frame_equal(_tables(tmp_path / "pool"), _tables(serial_run))
    (serial,) = reproduce.read_records(serial_run / reproduce.record_name(["spot"], True))
    (pool,) = reproduce.read_records(tmp_path / "pool" / reproduce.record_name(["spot"], True))
    assert serial["scenarios_in_flight"] == 1 and pool["scenarios_in_flight"] == reproduce.IN_FLIGHT == 2
    for record in (serial, pool):
        assert set(record["wall_s_per_scenario"]) == set(record["work_s_per_scenario"]) == set(SMALL)
        assert all(w is not None and w > 0 for w in record["work_s_per_scenario"].values())


def test_ctrl_c_with_scenarios_in_flight_stops_the_workers_and_runs_nothing_more() -> None:
    import threading

    class Runner:
        stopped = threading.Event()

        def stop(self) -> None:
            self.stopped.set()

    runner, ran = Runner(), []
    second = threading.Event()

    def one(s: object) -> None:
        ran.append(s)
        if s == 0:  # the Ctrl-C reaches the waiting thread through the first sweep's result
            assert second.wait(10)  # (interrupt_main would miss a test run off the main thread, as xdist does)
            raise KeyboardInterrupt
        second.set()
        assert runner.stopped.wait(10)  # the sweeps in flight end once the workers are stopped

    class Bar:
        done, planned = 3, 10

    with pytest.raises(sweep.Interrupted) as info:
        run_reproduce._overlapped(one, list(range(6)), runner, Bar())
    assert runner.stopped.is_set() and (info.value.kept, info.value.total) == (3, 10)
    # the scenarios not started are cancelled: at most one more than were in flight may slip in
    # (the first sweep's thread is free before the waiting thread has cancelled)
    assert set(ran[:2]) == {0, 1} and len(ran) <= reproduce.IN_FLIGHT + 1


def test_size_line_says_when_the_last_sweep_reran_only_some_cells() -> None:
    full = {"wall_s": 1611.2, "executor": "process", "cells_run": 63}
    assert reproduction._timing(full, 63) == ", 1611 s wall (process)"
    resumed = {"wall_s": 436.0, "executor": "process", "cells_run": 9}
    assert reproduction._timing(resumed, 63) == ", the last 9 re-run in 436 s wall (process)"
    assert reproduction._timing({"wall_s": 0.1, "cells_run": 0}, 63) == ", every cell kept from an earlier sweep"
    assert reproduction._timing({"wall_s": 5.0}, 4) == ", 5 s wall (?)"  # older sweep.json: no count
