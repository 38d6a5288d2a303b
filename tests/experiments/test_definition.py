"""A scenario's two mappings: ``definition()`` (its whole TOML form) and ``sweep_record()`` (scenario.json).

``from_mapping(s.definition()) == s`` for every scenario, through JSON too; ``sweep_record()`` is what
sweep folders have always recorded, so a folder written before still resumes; the report side reads it
back as a :class:`StoredScenario`.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, given, settings

from aisched.errors import InvalidScenarioError
from aisched.experiments.run import sweep
from aisched.experiments.spec import catalog
from aisched.experiments.spec.scenario import Claim, Scenario, from_mapping
from aisched.experiments.store.stored import StoredScenario

DATA = Path(__file__).resolve().parent.parent / "data"

#: Every key a sweep record may hold (``Scenario.sweep_record``, old folders' included).
RECORD_KEYS = {"name", "family", "title", "x", "values", "labels", "base", "algorithms", "metric", "offline",
               "time_limit", "params", "claims", "kind", "bound", "bound_at", "reduced_form", "x_target",
               "figures", "variants"}

#: The scenario of the golden records ``tests/data/scenario_record_{full,reduced}.json``, written by the
#: code before the typed record (``Scenario.definition()`` then) with ``json.dumps(..., indent=1, sort_keys=True)``.
GOLDEN = Scenario(
    name="lora/golden", family="lora", title="a folder written before the typed record", x="nodes", values=(1, 2, 4),
    base={"slots": 10, "tasks": 5, "vendors": 1}, algorithms=("pdftsp", "eft", "ntm"), seeds=2, offline=True,
    time_limit=30.0, metric="ratio", bound=True, bound_at=(2,), figures=("regime",),
    params={"pdftsp": {"selection": "exact"}}, reduced_base={"slots": 8}, reduced_values=(1, 2),
    variants={"paper-pay": {"pdftsp": {"payment": "paper"}}},
    claims=(Claim("at_most", "ratio at most 1", "pdftsp", value=1.0, why=("L5",)),
            Claim("improvement", "pdFTSP beats NTM at 4 nodes", "pdftsp", baseline="ntm", point="4", value=0.5)),
    cost="about a minute", why=("L8",),
)


def _round_trips(s: Scenario) -> None:
    assert from_mapping(s.definition()) == s
    assert from_mapping(json.loads(json.dumps(s.definition()))) == s  # tuples come back as lists


@pytest.mark.parametrize("name", catalog.names())
def test_every_paper_scenario_and_its_reduced_form_round_trip(name: str) -> None:
    scenario = catalog.get(name)
    for s in (scenario, scenario.reduced()):
        _round_trips(s)
        record = s.sweep_record()
        assert set(record) <= RECORD_KEYS and "seeds" not in record and "cost" not in record
        assert all("why" not in c for c in record["claims"])  # documentation: restating it keeps folders resumable
        assert ("reduced_form" in record) == (s.full_values is not None)
        stored = StoredScenario.of(s)
        assert (stored.name, stored.family, stored.x, stored.metric) == (s.name, s.family, s.x, s.metric)
        assert stored.labels == tuple(s.labels) and stored.algorithms == s.algorithms
        assert stored.claims == tuple(replace(c, why=()) for c in s.claims)
        assert stored.reduced_form == (s.full_values is not None) and stored.figures == s.figures


def test_a_folder_written_before_the_typed_record_still_resumes(tmp_path: Path) -> None:
    for s, name in ((GOLDEN, "full"), (GOLDEN.reduced(), "reduced")):
        text = (DATA / f"scenario_record_{name}.json").read_text(encoding="utf-8")
        root = sweep.folder(tmp_path / name, s)
        (root / "cells").mkdir(parents=True)
        (root / "scenario.json").write_text(text, encoding="utf-8")
        assert sweep.finished_cells(s, root) == set()  # the same computation: no "different definition"
        assert StoredScenario.read(root) == StoredScenario.of(s)
        for restated in (replace(s, cost="other"), replace(s, why=("S3",)), replace(s, seeds=5)):
            assert sweep.finished_cells(restated, root) == set()
        assert sweep.finished_cells(replace(s, title="another title"), root) == set()  # text: resumes
        row = {"scenario": s.name, "point": 0, "x": s.labels[0], "seed": 0, "algorithm": "pdftsp", "objective": 1.0,
               "status": "online", "bound": None, "admitted": 1, "runtime_s": 0.1, "decision_median_s": 0.0,
               "work_s": 0.1}
        (root / "cells" / "p000-s000-pdftsp.json").write_text(json.dumps(row))
        assert sweep.finished_cells(replace(s, title="another title"), root) == {"p000-s000-pdftsp"}
        with pytest.raises(InvalidScenarioError, match="different definition.*time_limit differs"):
            sweep.finished_cells(replace(s, time_limit=5.0), root)


def test_a_stored_scenario_reads_old_records_and_refuses_unknown_keys() -> None:
    old = {"name": "lora/old", "family": "lora", "x": "nodes", "values": [1, 2], "metric": "objective",
           "claims": [{"kind": "best", "text": "pdFTSP is best", "algorithm": "pdftsp"}]}  # before labels, params, ...
    stored = StoredScenario.from_record(old)
    assert stored.labels == ("1", "2") and stored.values == (1, 2) and stored.base == {} and stored.params == {}
    assert stored.claims == (Claim("best", "pdFTSP is best", "pdftsp"),) and not stored.reduced_form
    assert (stored.kind, stored.x_target, stored.bound, stored.bound_at) == ("compare", "generator", False, ())
    other = StoredScenario.from_record({**old, "family": "gone"})  # a family this installation lacks still reads
    assert other.family == "gone"
    with pytest.raises(InvalidScenarioError, match=r"^seeds: .*unknown key"):
        StoredScenario.from_record({**old, "seeds": 3})
    with pytest.raises(InvalidScenarioError, match=r"^x: .*missing required key"):
        StoredScenario.from_record({k: v for k, v in old.items() if k != "x"})
    with pytest.raises(InvalidScenarioError, match=r"^values: .*wrong type"):
        StoredScenario.from_record({**old, "values": 3})
    with pytest.raises(InvalidScenarioError, match=r"^claims\[0\]: .*keys"):
        StoredScenario.from_record({**old, "claims": [{"kind": "best", "text": "", "algorithm": "a", "size": 1}]})


def test_a_stored_scenario_is_read_from_its_folder(tmp_path: Path) -> None:
    s = GOLDEN.reduced()
    root = tmp_path / "f"
    with pytest.raises(InvalidScenarioError, match="^scenario: .*cannot be read"):
        StoredScenario.read(root)
    root.mkdir()
    (root / "scenario.json").write_text("{", encoding="utf-8")
    with pytest.raises(InvalidScenarioError, match="^scenario: .*not valid JSON"):
        StoredScenario.read(root)
    (root / "scenario.json").write_text(sweep._record_text(s), encoding="utf-8")
    stored = StoredScenario.read(root)
    assert stored == StoredScenario.of(s)
    assert stored.reduced_form and stored.bound_at == (2,) and stored.variants == {"paper-pay": {"pdftsp": {
        "payment": "paper"}}}
    assert stored.claims[1].point == "4" and stored.claims[1].why == ()


def test_x_values_that_are_tuples_read_back_as_tuples() -> None:
    """genai Fig. 8 varies term_weights: each value a tuple, its label the tuple's text."""
    (name,) = [n for n in catalog.names() if any(isinstance(v, tuple) for v in catalog.get(n).values)][:1]
    s = catalog.get(name)
    data = json.loads(json.dumps(s.definition()))
    assert isinstance(data["values"][0], list) and from_mapping(data).values == s.values
    assert StoredScenario.of(s).labels == tuple(s.labels)
    with pytest.raises(InvalidScenarioError, match=r"^values\[0\]: .*not a number or name"):
        from_mapping({**data, "values": [[]]})
    with pytest.raises(InvalidScenarioError, match=r"^values\[0\]: .*not a number or name"):
        from_mapping({**data, "values": [[1.0, {"a": 1}]]})


def test_definition_types_are_checked_for_cost_full_values_and_time_limit() -> None:
    data = GOLDEN.definition()
    with pytest.raises(InvalidScenarioError, match="^cost: .*wrong type"):
        from_mapping({**data, "cost": 3})
    with pytest.raises(InvalidScenarioError, match=r"^full_values\[0\]: .*not a number or name"):
        from_mapping({**data, "full_values": [None]})
    assert from_mapping({**data, "time_limit": None}).time_limit is None  # JSON's null: no limit
    with pytest.raises(InvalidScenarioError, match="^time_limit: .*wrong type"):
        from_mapping({**data, "time_limit": True})


# -- hypothesis: variations of one family's scenario -------------------------------------------------------

ALGORITHMS = ("pdftsp", "eft", "ntm")
PARAMS = {"pdftsp": [{"selection": "exact"}, {"payment": "paper"}, {}], "eft": [{"require_positive_welfare": True}, {}],
          "ntm": [{"seed": 1}, {}]}
KEYS = st.sampled_from(["L5", "L8", "S3", "A-bound", "T10"])
number = st.one_of(st.integers(-10**6, 10**6), st.floats(allow_nan=False, allow_infinity=False))
value = st.one_of(number, st.text(max_size=6), st.tuples(number, number))


@st.composite
def claims(draw: st.DrawFn, labels: list[str], algorithms: tuple[str, ...]) -> tuple[Claim, ...]:
    out = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["best", "at_most", "increasing", "greater"]
                                    + (["improvement", "better_than"] if len(algorithms) > 1 else [])))
        algorithm, baseline = [*draw(st.permutations(algorithms)), None][:2]
        why = tuple(draw(st.lists(KEYS, max_size=2)))
        text = draw(st.text(max_size=20))
        if kind == "improvement":
            out.append(Claim(kind, text, algorithm, baseline=baseline, point=draw(st.sampled_from(labels)),
                             value=draw(number), why=why))
        elif kind == "at_most":
            out.append(Claim(kind, text, algorithm, value=draw(number), why=why))
        elif kind == "greater":
            out.append(Claim(kind, text, algorithm, point=draw(st.sampled_from(labels)),
                             other_point=draw(st.sampled_from(labels)), why=why))
        elif kind == "better_than":
            out.append(Claim(kind, text, algorithm, baseline=baseline, why=why))
        else:
            out.append(Claim(kind, text, algorithm, why=why))
    return tuple(out)


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    values = tuple(draw(st.lists(value, min_size=1, max_size=4, unique_by=str)))
    labels = [str(v) for v in values]
    algorithms = tuple(draw(st.lists(st.sampled_from(ALGORITHMS), min_size=1, max_size=3, unique=True)))
    params = {a: p for a in algorithms if (p := draw(st.sampled_from(PARAMS[a])))}
    variants = {}
    for name in draw(st.lists(st.sampled_from(["v1", "paper-pay", "x.y_z"]), max_size=2, unique=True)):
        by = {a: p for a in algorithms if (p := draw(st.sampled_from(PARAMS[a])))}
        if by:
            variants[name] = by
    offline, bound = draw(st.booleans()), draw(st.booleans())
    time_limit = draw(st.one_of(st.none(), st.integers(1, 1000), st.floats(0.01, 1e5)))
    s = Scenario(
        name="lora/drawn", family="lora", title=draw(st.text(max_size=30)), x="nodes", values=values,
        base={"slots": draw(st.integers(2, 30)), "tasks": 5}, algorithms=algorithms,
        metric=draw(st.sampled_from(["objective", "admitted"] + (["ratio", "competitive_ratio"]
                                                                  if offline or bound else []))),
        seeds=draw(st.integers(1, 9)), offline=offline, time_limit=time_limit, params=params,
        reduced_base=draw(st.sampled_from([{}, {"slots": 4}])),
        reduced_values=draw(st.one_of(st.none(), st.lists(st.sampled_from(values), min_size=1, unique_by=str)
                                      .map(tuple))),
        claims=draw(claims(labels, algorithms)),
        figures=tuple(draw(st.lists(st.sampled_from(["utility_vs_bid", "payment_vs_bid"]
                                                    + (["regime"] if "pdftsp" in algorithms and len(algorithms) > 1
                                                       else [])), max_size=2, unique=True))),
        variants=variants, bound=bound,
        bound_at=tuple(draw(st.lists(st.sampled_from(values), max_size=2, unique_by=str))) if bound else (),
        cost=draw(st.text(max_size=10)), why=tuple(draw(st.lists(KEYS, max_size=2))),
    )
    return s.reduced() if draw(st.booleans()) else s


@settings(max_examples=120, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_drawn_scenarios_round_trip_through_their_definition(s: Scenario) -> None:
    _round_trips(s)
    record = json.loads(json.dumps(s.sweep_record(), default=str))
    stored = StoredScenario.from_record(record)
    assert stored == StoredScenario.of(s) and stored.labels == tuple(s.labels)
    assert stored.claims == tuple(replace(c, why=()) for c in s.claims)


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(st.sampled_from(catalog.names()), st.booleans())
def test_drawn_paper_scenarios_round_trip(name: str, reduced: bool) -> None:
    s = catalog.get(name)
    _round_trips(s.reduced() if reduced else s)
