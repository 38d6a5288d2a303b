"""genai scenarios (section IV-A settings, trace DAG sources) and ``aisched compare genai``."""

from __future__ import annotations

import numpy as np
import pytest

from aisched import _paths
from aisched.cli import main
from aisched.data import data_file
from aisched.errors import InvalidScenarioError
from aisched.scenarios import genai


def need_data():
    if data_file("taskbench_dags.jsonl", required=False) is None:
        pytest.skip("TaskBench DAGs (taskbench_dags.jsonl) absent from every data folder")


def test_settings_of_section_iv_a():
    need_data()
    inst = genai.generate(seed=0, edges=5, slots=100, arrival_rate=3, capacity="homo-M")
    assert inst.num_edges == 5 and inst.num_slots == 100
    assert np.all(inst.memory_capacity == 96.0)
    assert 200 < inst.num_jobs < 400  # Poisson(3) per slot over 100 slots
    assert np.all(inst.deadline >= inst.arrival) and np.all(inst.deadline <= 99)
    assert np.all(inst.revenue > 0)
    np.testing.assert_array_equal(inst.cost_weight, [1.0, 1.0, 1.0])
    small = genai.generate(seed=0, edges=4, slots=20, arrival_rate=1, capacity="homo-S")
    large = genai.generate(seed=0, edges=4, slots=20, arrival_rate=1, capacity="homo-L")
    assert small.memory_capacity[0] == 48.0 and large.memory_capacity[0] == 128.0
    mixed = genai.generate(seed=1, edges=20, slots=20, arrival_rate=1, capacity="hetero")
    assert set(mixed.memory_capacity.tolist()) <= {48.0, 96.0, 128.0} and len(set(mixed.memory_capacity)) > 1


def test_deadline_earliest_finish_rule_not_before_the_fastest_finish():
    inst = genai.generate(seed=4, edges=3, slots=60, jobs=30, dag_source="generator", deadline_rule="earliest_finish",
                          capacity="homo-M")
    from aisched import dag

    for i in range(inst.num_jobs):
        fast = {j: float(inst.runtime[i, j][inst.candidate_model[i, j] >= 0].min()) for j in range(inst.num_tasks[i])}
        critical = max(dag.ranks(inst.graph(i), fast).values())
        assert inst.deadline[i] >= min(inst.arrival[i] + critical - 1, inst.num_slots - 1)


def test_default_workload_as_section_iv_a_states_it():
    """Deadlines uniform in [arrival, T-1]; revenue = REVENUE_RATE x demand x reference completion time."""
    from aisched import dag

    inst = genai.generate(seed=4, edges=3, slots=60, jobs=400, dag_source="generator", capacity="homo-M")
    fast_ok = []
    for i in range(inst.num_jobs):
        valid = inst.candidate_model[i] >= 0
        mean_f = {j: float(inst.runtime[i, j][valid[j]].mean()) for j in range(inst.num_tasks[i])}
        fast = {j: float(inst.runtime[i, j][valid[j]].min()) for j in range(inst.num_tasks[i])}
        demand = sum(float(np.mean([s for _, s, _ in genai.MODEL_POOLS[genai.task_category(t)][1]]))
                     for t in inst.task_type[i, : inst.num_tasks[i]])
        ref = max(dag.ranks(inst.graph(i), mean_f).values())
        assert inst.revenue[i] == pytest.approx(genai.REVENUE_RATE * demand * ref, abs=1e-6)
        fast_ok.append(inst.deadline[i] >= inst.arrival[i] + max(dag.ranks(inst.graph(i), fast).values()) - 1)
    slack = (inst.deadline - inst.arrival) / np.maximum(inst.num_slots - 1 - inst.arrival, 1)
    assert np.all(inst.deadline >= inst.arrival) and np.all(inst.deadline <= inst.num_slots - 1)
    assert not all(fast_ok)  # unlike "earliest_finish", some deadlines fall before the fastest finish
    assert np.any(inst.deadline == inst.arrival) and 0.4 < slack.mean() < 0.6  # uniform over the range
    old = genai.generate(seed=4, edges=3, slots=60, jobs=400, dag_source="generator", revenue_rule="random_factor",
                          capacity="homo-M")
    ratio = old.revenue / inst.revenue  # same DAGs, runtimes and deadlines, revenue times U(0.5, 3)
    np.testing.assert_array_equal(old.deadline, inst.deadline)
    assert ratio.min() >= 0.5 - 1e-6 and ratio.max() <= 3.0 + 1e-6 and ratio.std() > 0.3


def test_seeded_and_sources():
    need_data()
    a = genai.generate(seed=7, edges=3, slots=30, arrival_rate=1, capacity="homo-M")
    assert a == genai.generate(seed=7, edges=3, slots=30, arrival_rate=1, capacity="homo-M")
    assert a != genai.generate(seed=8, edges=3, slots=30, arrival_rate=1, capacity="homo-M")
    h = genai.generate(seed=1, edges=2, slots=30, jobs=10, dag_source="hugginggpt", capacity="homo-M")
    assert h.max_tasks <= 9 and set(h.task_type[h.task_type != ""]) <= {
        "image-to-text", "object-detection", "visual-question-answering", "text-to-image", "image-to-image",
        "text-to-video", "document-question-answering", "text-to-speech", "openpose-control",
        "openpose-text-to-image", "conversational"}
    w = genai.generate(seed=1, edges=2, slots=30, jobs=3, cost_weights=(0.5, 0.1, 0.1), capacity="homo-M")
    np.testing.assert_array_equal(w.cost_weight, [0.5, 0.1, 0.1])


def test_term_weights_scale_revenue_and_weight_costs():
    """Fig. 8 (readings A9): (revenue, computation, communication, hosting) weights of section II.E."""
    base = genai.generate(seed=2, edges=2, slots=30, jobs=5, dag_source="generator", capacity="homo-M")
    w = genai.generate(seed=2, edges=2, slots=30, jobs=5, dag_source="generator", term_weights=(0.5, 0.1, 0.2, 0.3),
                          capacity="homo-M")
    np.testing.assert_allclose(w.revenue, 0.5 * base.revenue)
    np.testing.assert_array_equal(w.cost_weight, [0.1, 0.2, 0.3])
    np.testing.assert_array_equal(w.deadline, base.deadline)  # the same workload, only the weights differ


def test_fig8_lists_the_five_tests_of_its_text():
    from aisched.experiments.spec import catalog

    fig8 = catalog.get("genai/fig8-weights")
    assert fig8.x == "term_weights" and len(fig8.values) == 5
    assert fig8.values[0] == (0.1,) * 4
    assert sorted(int(np.argmax(v)) for v in fig8.values[1:]) == [0, 1, 2, 3]
    assert all(sorted(v)[-1] == 0.5 and sorted(v)[:3] == [0.1] * 3 for v in fig8.values[1:])
    assert len(catalog.get("genai/fig6-capacity").values) == 4


def test_task_categories():
    assert genai.task_category("Text-to-Image") == "text-to-image"
    assert genai.task_category("openpose-control") == "image-to-image"
    assert genai.task_category("Translation#2") == "text"
    assert genai.task_category("Audio-to-Video") == "text-to-video"
    assert genai.task_category("Speech-to-Text Trancription") == "speech-recognition"
    assert genai.task_category("Color Detection") == "vision"
    for _, pool in genai.MODEL_POOLS.values():
        assert all(size > 0 and runtime >= 1 for _, size, runtime in pool)


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"edges": 0}, "edges: = 0"),
        ({"slots": 2.5}, "slots"),
        ({"arrival_rate": -1}, "arrival_rate: = -1"),
        ({"capacity": "huge"}, "capacity: = 'huge'"),
        ({"capacity": -3.0}, "capacity"),
        ({"dag_source": "web"}, "dag_source: = 'web'"),
        ({"cost_weights": (1, 1)}, "cost_weights"),
        ({"jobs": -1}, "jobs"),
        ({"deadline_rule": "paper"}, "deadline_rule: = 'paper'"),
        ({"revenue_rule": "flat"}, "revenue_rule: = 'flat'"),
        ({"term_weights": (1, 1, 1)}, "term_weights"),
        ({"term_weights": (1, 1, 1, 1), "cost_weights": (2, 1, 1)}, "term_weights"),
        ({"capacity_scale": 0.0}, "capacity_scale: = 0.0"),
        ({"capacity_scale": float("nan")}, "capacity_scale: = nan"),
        ({"capacity_scale": True}, "capacity_scale: = True"),
    ],
)
def test_bad_parameters(kwargs, needle):
    with pytest.raises(InvalidScenarioError) as err:
        genai.generate(**{"seed": 0, "edges": 2, "slots": 10, "arrival_rate": 1.0, **kwargs})
    assert needle in str(err.value)


def test_capacity_scale_scales_memory_and_draws_nothing():
    """The scarcity knob: c^s_k times the scale; every other array as at scale 1."""
    base = genai.generate(seed=4, edges=3, slots=20, arrival_rate=1.0, capacity="hetero")
    scarce = genai.generate(seed=4, edges=3, slots=20, arrival_rate=1.0, capacity="hetero", capacity_scale=1 / 16)
    np.testing.assert_allclose(scarce.memory_capacity, base.memory_capacity / 16)
    for name in ("arrival", "deadline", "revenue", "candidate_model", "runtime", "compute", "compute_cost"):
        np.testing.assert_array_equal(getattr(scarce, name), getattr(base, name))


def test_missing_trace_file(monkeypatch, tmp_path):
    monkeypatch.setenv("AISCHED_DATA", str(tmp_path))
    monkeypatch.setenv("AISCHED_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(_paths, "SHARED_DATA", tmp_path / "no-shared")
    genai.generator._trace_graphs.cache_clear()
    with pytest.raises(InvalidScenarioError, match="taskbench_dags.jsonl' not found"):
        genai.generate(seed=0, edges=2, slots=10, jobs=2, capacity="homo-M")
    assert genai.generate(seed=0, edges=2, slots=10, jobs=2, dag_source="generator", capacity="homo-M").num_jobs == 2


def test_compare_genai_cli(tmp_path, capsys):
    need_data()
    code = main(["compare", "genai", "--out", str(tmp_path)])
    assert code == 0
    text = capsys.readouterr().out
    assert "offline optimum proven" in text
    for name in ("offline", "comdos", "heft_a", "heft_ma", "random_a"):
        assert name in text
        assert (tmp_path / f"genai_{name}.nc").is_file()
    assert (tmp_path / "genai_comdos_memory_price.png").stat().st_size > 1000
    assert (tmp_path / "genai_comparison.csv").is_file()


def test_compare_genai_cli_bad_option(capsys):
    with pytest.raises(SystemExit) as err:
        main(["compare", "genai", "--capacity", "tiny"])
    assert err.value.code == 2
    assert "--capacity" in capsys.readouterr().err


@pytest.mark.parametrize("flag", ["--selection", "--alpha-reading", "--deadline-rule", "--revenue-rule",
                                  "--workload", "--admission", "--communication", "--on-full", "--option-eval"])
def test_compare_genai_cli_bad_algorithm_option_value(flag, capsys):
    with pytest.raises(SystemExit) as err:
        main(["compare", "genai", flag, "nonsense"])
    assert err.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and flag in lines[0]


def test_compare_genai_cli_options_reach_the_algorithms(tmp_path, capsys, monkeypatch):
    import aisched

    seen = {}

    def spy(instance, names, **kwargs):
        seen.update(kwargs["params"])
        return real(instance, names, **kwargs)

    real = aisched.compare
    monkeypatch.setattr(aisched, "compare", spy)
    code = main(["compare", "genai", "--dag-source", "generator", "--jobs", "3", "--edges", "2", "--slots", "12",
                 "--no-offline", "--no-figures", "--algorithms", "comdos,random_a", "--selection", "exact",
                 "--alpha-reading", "gb", "--on-full", "redraw", "--admission", "job",
                 "--deadline-rule", "earliest_finish", "--out", str(tmp_path)])
    assert code == 0
    assert seen == {"comdos": {"alpha_reading": "gb", "selection": "exact", "option_eval": "shared"},
                    "random_a": {"admission": "job", "on_full": "redraw"}}
    assert "comdos" in capsys.readouterr().out


def test_compare_genai_cli_workload_builds_the_generators_instance() -> None:
    """``--workload`` reaches :func:`generate` (the paper figures run gpu_priced; the CLI default is generate()'s)."""
    import argparse

    from aisched.scenarios.genai.cli import GenaiCli
    from aisched.scenarios.genai.defaults import DEFAULT_SCENARIO
    from aisched.scenarios.genai.generator import generate

    parser = argparse.ArgumentParser()
    genai_cli = GenaiCli()
    genai_cli.add_arguments(parser)
    for workload in ("legacy", "gpu_priced"):
        args = parser.parse_args(["--jobs", "4", "--edges", "2", "--slots", "20", "--workload", workload])
        d = DEFAULT_SCENARIO
        assert genai_cli.instance(args) == generate(
            seed=d["seed"], jobs=4, edges=2, slots=20, capacity=d["capacity"], dag_source=d["dag_source"],
            arrival_rate=1.0, workload=workload)
    assert parser.parse_args([]).workload == "legacy"
    legacy = genai_cli.instance(parser.parse_args(["--jobs", "4", "--edges", "2", "--slots", "20"]))
    priced = genai_cli.instance(parser.parse_args(["--jobs", "4", "--edges", "2", "--slots", "20",
                                                   "--workload", "gpu_priced"]))
    assert legacy != priced


def test_compare_reports_utilisation_per_algorithm():
    import aisched
    from aisched.online.genai import metrics

    inst = genai.generate(seed=3, edges=2, slots=20, jobs=8, dag_source="generator", capacity=16.0)
    table = aisched.compare(inst, offline=False)  # the registered resource metrics are columns
    for name in aisched.algorithms("genai"):
        out = aisched.run(name, inst)
        row = table.loc[name, ["memory_utilisation", "memory_peak", "memory_binding", "compute_load",
                               "compute_utilisation", "tasks_running_peak", "gpu_oversubscribed"]].to_dict()
        assert row == pytest.approx(metrics.utilisation(inst, out), nan_ok=True)
        assert 0 <= row["memory_utilisation"] <= row["memory_peak"] <= 1 + 1e-9
        assert (row["memory_utilisation"] > 0) == bool(out.admitted.any())


def test_fig3_table_reproduces_the_paper_worked_example(tmp_path):
    """Golden values printed in the paper's Fig. 3: ranks 16, 7, 11, 4; order 1, 3, 2, 4; task 1 forks."""
    table = genai.fig3_table().set_index("task")
    assert table["mean_runtime"].tolist() == [5.0, 3.0, 7.0, 4.0]
    assert table["rank"].tolist() == [16.0, 7.0, 11.0, 4.0]
    assert table["order"].tolist() == [1, 3, 2, 4]
    assert table["options"].tolist() == [4, 1, 1, 1]  # 2 edges x 2 models of task 1
    assert genai.fig3_table(edges=5)["options"].prod() == 10
    pytest.importorskip("matplotlib")
    path = genai.fig3_figure(tmp_path / "fig3.png")
    assert path.is_file() and path.stat().st_size > 1000
