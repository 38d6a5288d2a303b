"""Spot scenarios: generator, workload, bandwidth mapping, trace loaders, and the CLI."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import SHARED_DATA

from aisched.cli import main
from aisched.errors import InvalidScenarioError
from aisched.scenarios import spot
from aisched.scenarios.spot.traces import load_gcp_ratios, load_market_csv, load_spot_trace


def test_generate_paper_job():
    inst = spot.generate(seed=0, deadline=10)
    assert (inst.work, inst.deadline, inst.min_gpus, inst.max_gpus) == (80, 10, 1, 12)
    assert inst.scale_up_efficiency == 0.9 and inst.on_demand_price == 1.0
    assert inst.spot_available.max() <= 16 and inst.spot_available.min() >= 0
    assert spot.generate(seed=0) == inst and spot.generate(seed=1) != inst


def test_workload_ranges():
    jobs = spot.workload(seed=0, jobs=50)
    work = np.array([j.work for j in jobs])
    assert work.min() >= 70 and work.max() <= 120
    assert {j.min_gpus for j in jobs} <= {1, 2, 3, 4} and {j.max_gpus for j in jobs} <= set(range(12, 17))


def test_bandwidth_mapping():
    assert spot.bandwidth_efficiency(800) == 0.9
    assert spot.bandwidth_efficiency(100) < spot.bandwidth_efficiency(400) < 0.9
    with pytest.raises(InvalidScenarioError, match="bandwidth"):
        spot.bandwidth_efficiency(50)


def test_bad_market_name():
    with pytest.raises(InvalidScenarioError, match="market"):
        spot.generate(market="nasdaq")


@pytest.mark.skipif(not SHARED_DATA.is_dir(), reason="../shared/data is absent")
@pytest.mark.parametrize("market", ["vast", "aws"])
def test_trace_markets(market):
    inst = spot.generate(seed=3, market=market, data_dir=SHARED_DATA)
    assert inst.spot_available.max() <= 16 and (inst.spot_price >= 0).all()


@pytest.mark.skipif(not SHARED_DATA.is_dir(), reason="../shared/data is absent")
def test_vast_market_is_section_vi_a():
    """One socket's series; price / the median P90 price; availability downscaled by one factor, capped to 16."""
    csv = SHARED_DATA / "gpu_market_price_availability_2025.csv"
    grid = load_market_csv(csv)
    raw = grid["n_available"].to_numpy(float)
    assert raw.max() <= 18  # SXM4 alone (mixed with PCIe rows the series jumped between 5 and 40)
    price, avail = spot.vast_market(SHARED_DATA)
    assert price == pytest.approx(np.round(grid["price_median"] / np.median(grid["price_p90"]), 2))
    assert avail.max() == 16 and (avail == np.clip(np.round(raw * 16 / raw.max()), 0, 16)).all()
    # Fig. 7: the factor sets the mean (before the cap); Fig. 8: one scale sets the price's mean
    for level in (4.0, 8.0):
        _, a = spot.vast_market(SHARED_DATA, mean_available=level)
        assert abs(a.mean() - level) < 0.1
    _, a12 = spot.vast_market(SHARED_DATA, mean_available=12.0)
    assert a12.max() == 16 and a12.mean() <= 12.0  # capped
    p4, _ = spot.vast_market(SHARED_DATA, mean_price=0.4)
    assert abs(p4.mean() - 0.4) < 0.01 and np.corrcoef(p4, price)[0, 1] > 0.99
    low = spot.generate(seed=2, market="vast", mean_available=4.0, data_dir=SHARED_DATA)
    high = spot.generate(seed=2, market="vast", mean_available=12.0, data_dir=SHARED_DATA)
    assert (low.spot_price == high.spot_price).all() and low.spot_available.sum() < high.spot_available.sum()
    mixed = load_market_csv(csv, socket_type=None)
    assert mixed["n_available"].max() > 18


@pytest.mark.skipif(not SHARED_DATA.is_dir(), reason="../shared/data is absent")
def test_real_loaders():
    grid = load_market_csv(SHARED_DATA / "gpu_market_price_availability_2025.csv")
    assert grid.index.freq is not None or len(grid) > 100
    assert (np.diff(grid.index.values).astype("timedelta64[s]").astype(int) == 1800).all()
    trace = load_spot_trace(sorted((SHARED_DATA / "spot_traces").glob("availability_*.json"))[0])
    assert trace.dtype.kind == "i" and trace.size > 10
    ratios = load_gcp_ratios(SHARED_DATA / "gcp_gpu_price_weekly.csv")
    assert ((ratios > 0) & (ratios < 1)).all()


def test_malformed_files(tmp_path):
    bad = tmp_path / "t.json"
    bad.write_text('{"metadata": {"gap_seconds": 300}, "data": [1, 2, "x"]}')
    with pytest.raises(InvalidScenarioError, match=r"data\[2\]"):
        load_spot_trace(bad)
    bad.write_text("{not json")
    with pytest.raises(InvalidScenarioError, match="not valid JSON"):
        load_spot_trace(bad)
    bad.write_text(json.dumps({"metadata": {}, "data": [1]}))
    with pytest.raises(InvalidScenarioError, match="gap_seconds"):
        load_spot_trace(bad)
    csv = tmp_path / "m.csv"
    csv.write_text("timestamp,gpu_type,n_available\n2025-01-01T00:00:00,A100_80GB,3\n")
    with pytest.raises(InvalidScenarioError, match="price_median"):
        load_market_csv(csv)
    csv.write_text("timestamp,gpu_type,n_available,price_median,price_p90\n"
                   "2025-01-01T00:00:00,A100_80GB,-3,1,1\n")
    with pytest.raises(InvalidScenarioError, match="row 0"):
        load_market_csv(csv)
    with pytest.raises(InvalidScenarioError, match="no such file"):
        load_gcp_ratios(tmp_path / "none.csv")


def test_cli_compare_spot(tmp_path, capsys):
    rc = main(["compare", "spot", "--deadline", "6", "--work", "40", "--out", str(tmp_path),
               "--no-figures"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "offline optimum proven" in out
    for name in ("ahap", "ahanp", "od_only", "msu", "up"):
        assert name in out
    assert (tmp_path / "spot_comparison.csv").is_file()


def test_cli_select_spot(tmp_path, capsys):
    rc = main(["select", "spot", "--jobs", "4", "--deadline", "4", "--noise", "magnitude-heavy",
               "--error", "0.3", "--windows", "1", "--thresholds", "0.5,0.9",
               "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert rc == 0
    assert "best fixed policy" in out and "regret" in out and "most-weighted" in out
    assert (tmp_path / "spot_select_weights.nc").is_file()
    assert (tmp_path / "spot_select_weights.png").is_file()
    assert "4 policies" in out  # 2 AHAP (w = 1, v = 1) + 2 AHANP


@pytest.mark.slow
def test_cli_select_spot_paper_pool(tmp_path, capsys):
    rc = main(["select", "spot", "--jobs", "6", "--deadline", "4", "--out", str(tmp_path), "--no-figures"])
    assert rc == 0 and "112 policies" in capsys.readouterr().out


def test_cli_select_bad_error(tmp_path, capsys):
    rc = main(["select", "spot", "--jobs", "2", "--error", "-1", "--out", str(tmp_path)])
    assert rc == 2
    assert "--error" in capsys.readouterr().err


@pytest.mark.parametrize("argv, field", [
    (["--work", "nan"], "work"), (["--work", "inf"], "work"), (["--work", "-3"], "work"),
    (["--work", "1e9"], "work"), (["--seed", "-1"], "seed"), (["--deadline", "0"], "deadline"),
    (["--deadline", "100000"], "deadline"), (["--min-gpus", "5", "--max-gpus", "2"], "min_gpus"),
], ids=["nan", "inf", "negative", "huge", "seed", "deadline0", "deadline-huge", "gpus"])
def test_cli_compare_spot_bad_input_exits_2(tmp_path, capsys, argv, field):
    rc = main(["compare", "spot", *argv, "--out", str(tmp_path)])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and field in err[0], err


@pytest.mark.parametrize("argv, field", [
    (["--windows", "1,1"], "--windows"), (["--thresholds", "0.3,0.6,0.3"], "--thresholds"),
    (["--seed", "-1"], "seed"), (["--thresholds", "0.3,inf"], "--thresholds"),
], ids=["windows", "thresholds", "seed", "inf"])
def test_cli_select_spot_bad_input_exits_2(tmp_path, capsys, argv, field):
    rc = main(["select", "spot", "--jobs", "2", "--deadline", "4", *argv, "--out", str(tmp_path)])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and field in err[0], err


def test_cli_select_spot_memory_guard_names_windows_and_size(tmp_path, capsys, monkeypatch):
    import time

    windows = ",".join(str(w) for w in range(1, 31))  # 465 x 7 AHAP policies: ~97 GiB on 1000 jobs
    t0 = time.perf_counter()
    rc = main(["select", "spot", "--windows", windows, "--out", str(tmp_path)])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and "--windows" in err[0] and "GiB" in err[0], err
    assert time.perf_counter() - t0 < 5  # refused before the workload or the pool is built
    # the library names the pool with the implied size
    from aisched.online.spot import evaluate_pool, paper_pool
    from aisched.online.spot import selection as sel

    limit = sel.MAX_POOL_BYTES  # the paper's pool and windows up to the deadline stay under it
    assert sel.pool_memory_bytes(1000, paper_pool(), 10) < sel.pool_memory_bytes(
        1000, paper_pool(windows=range(1, 11)), 10) < limit
    monkeypatch.setattr(sel, "MAX_POOL_BYTES", 1)
    with pytest.raises(InvalidScenarioError, match="^pool: needs about .* GiB"):
        evaluate_pool(spot.workload(seed=0, jobs=2, deadline=4), paper_pool(windows=(1,)))


def test_generate_size_guard_and_field_names():
    with pytest.raises(InvalidScenarioError, match="^work: .*size guard"):
        spot.generate(work=1e9)
    with pytest.raises(InvalidScenarioError, match="^seed: "):
        spot.workload(seed=-1, jobs=2)
    with pytest.raises(InvalidScenarioError, match="^max_gpus: "):
        spot.generate(max_gpus=0)
    with pytest.raises(InvalidScenarioError, match="^hard_deadline_factor: "):
        spot.generate(hard_deadline_factor=float("inf"))
    # the largest instance under the guard still builds
    from aisched.scenarios.spot.generator import MAX_SLOTS
    inst = spot.generate(work=MAX_SLOTS * 0.9 * 12 * 0.5)
    assert inst.num_slots <= MAX_SLOTS


def test_fig10_claim_bound_is_computed_from_k_and_m():
    import math

    from aisched.experiments.spec import catalog
    from aisched.online.spot import paper_pool
    from aisched.scenarios.spot.selection import PHASES
    fig10 = catalog.get("spot/fig10-phases")
    K = sum(n for n, _, _ in PHASES["fig10"])
    M = len(paper_pool())
    assert (K, M) == (3600, 112)
    bound = math.sqrt(2 * K * math.log(M))
    assert bound == pytest.approx(184.3, abs=0.05)  # the paper's figure (Fig. 10 text)
    # the claim is on regret / bound of the run's own K and M, so a reduced run is held to its own bound
    assert fig10.metric == "regret_to_bound" and fig10.claims[0].value == 1.0
    assert f"{bound:.1f} for K = {K}, M = {M}" in fig10.claims[0].text


def _write_trace(tmp_path, data, gap):
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"metadata": {"gap_seconds": gap}, "data": list(map(int, data))}))
    return path


@pytest.mark.parametrize("gap", [195, 600, 700, 1800, 2000])
def test_spot_trace_resampled_by_time(tmp_path, gap):
    rng = np.random.default_rng(gap)
    data = rng.integers(0, 9, 60)
    got = load_spot_trace(_write_trace(tmp_path, data, gap))
    # oracle: expand to one value per second, take the min over each whole 1800-s slot
    per_second = np.repeat(data, gap)
    n = per_second.size // 1800
    assert got.size == n
    np.testing.assert_array_equal(got, per_second[: n * 1800].reshape(n, 1800).min(axis=1))


def test_spot_trace_by_ticks_is_the_old_reading(tmp_path):
    data = np.arange(40) % 7
    path = _write_trace(tmp_path, data, 195)
    old = load_spot_trace(path, resample="by_ticks")
    assert old.size == 40 // 9  # round(1800 / 195) = 9 ticks per slot: 29.25 minutes
    np.testing.assert_array_equal(old, data[:36].reshape(4, 9).min(axis=1))
    assert load_spot_trace(path).size == int(40 * 195 // 1800)
    with pytest.raises(InvalidScenarioError, match="^resample: "):
        load_spot_trace(path, resample="nearest")


def test_default_instance_is_what_compare_spot_runs():
    import argparse

    from aisched import families
    from aisched.scenarios.spot import default_instance

    parser = argparse.ArgumentParser()
    cli = families.cli("spot")
    cli.add_arguments(parser)
    assert default_instance().to_dataset().identical(cli.instance(parser.parse_args([])).to_dataset())
