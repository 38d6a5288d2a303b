"""The package layout of ARCHITECTURE.md: one family package per layer, imports one way, no circles.

``models/``, ``online/`` and ``scenarios/`` hold the same four family packages;
the family-free experiment machinery (``experiments/``) imports no family
(families register with it); ``scenarios -> experiments``, never back.

Every ``import`` in ``aisched/`` counts, those inside functions too (a lazy
import is still a dependency); only ``if TYPE_CHECKING:`` blocks are left out.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "aisched"
#: The built-in families: the packages under ``aisched/scenarios`` (each registers its record).
FAMILIES = tuple(sorted(p.name for p in (PACKAGE / "scenarios").iterdir() if (p / "__init__.py").is_file()))


def _module_files() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _is_type_checking(node: ast.AST) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and (
        (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
        or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    found: list[ast.Import | ast.ImportFrom] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if _is_type_checking(node):
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return found


def import_graph() -> nx.DiGraph:
    """aisched module -> the aisched modules it imports (a package imports its submodules)."""
    modules = _module_files()
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(parts + ([base] if base else []))
                subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules]
                targets = subs + ([base] if len(subs) < len(node.names) else [])
            for target in targets:
                # `import aisched.x.y` names the leaf; an outside package (jax, pyomo) is kept by name
                graph.add_edge(name, target if target in modules else target.split(".")[0])
    return graph


GRAPH = import_graph()


def _layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "aisched" else None


def test_layers_mirror_models() -> None:
    for layer in ("models", "online", "scenarios"):
        packages = sorted(p.name for p in (PACKAGE / layer).iterdir() if (p / "__init__.py").is_file())
        assert packages == sorted(FAMILIES), layer
        flat = sorted(p.name for p in (PACKAGE / layer).glob("*.py") if p.name != "__init__.py")
        allowed = {"models": ["_offline.py", "_validate.py"]}.get(layer, [])
        assert flat == allowed, f"aisched/{layer}/ holds modules outside a family package: {flat}"


def test_tests_mirror_the_layers() -> None:
    tests = Path(__file__).resolve().parent
    for layer in ("models", "online", "scenarios"):
        found = sorted(p.name for p in (tests / layer).iterdir() if p.is_dir() and p.name != "__pycache__")
        assert found == sorted(FAMILIES), layer
    assert (tests / "experiments").is_dir()
    assert sorted(p.name for p in (tests / "scenarios").glob("test_*.py")) == [
        "test_data_loaders.py", "test_paper_scenarios.py"], "family tests go in tests/scenarios/<family>/"


def test_experiments_import_no_family() -> None:
    wrong = sorted(
        (a, b) for a, b in GRAPH.edges
        if _layer(a) == "experiments" and (_layer(b) in {"scenarios", "online", "models", "cli"} or b == "aisched")
    )
    assert wrong == [], f"the experiment machinery imports a family (or the package that imports them): {wrong}"


def test_experiments_name_no_family_module() -> None:
    """No ``import_module("aisched.scenarios." ...)``: families reach the machinery by registering only."""
    for path in (PACKAGE / "experiments").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "import_module" not in text, path.name
        assert "import aisched.scenarios" not in text and "from aisched.scenarios" not in text, path.name


def test_no_import_circles() -> None:
    # a package importing its own submodules is not a circle; anything else is
    inner = GRAPH.subgraph(n for n in GRAPH if n.startswith("aisched."))
    edges = [(a, b) for a, b in inner.edges if not a.startswith(b + ".")]
    circles = list(nx.simple_cycles(nx.DiGraph(edges)))
    assert circles == [], f"import circles: {circles}"


@pytest.mark.parametrize(("layer", "forbidden"), [
    ("models", {"online", "bounds", "scenarios", "experiments", "cli", "api", "jax"}),
    ("online", {"bounds", "scenarios", "experiments", "cli", "api"}),
    ("bounds", {"scenarios", "experiments", "cli", "api", "jax"}),
    ("solvers", {"models", "online", "bounds", "scenarios", "experiments", "dag", "cli", "api", "jax"}),
    ("dag", {"models", "online", "bounds", "scenarios", "experiments", "solvers", "cli", "api", "jax"}),
    ("experiments", {"scenarios", "online", "bounds", "models", "cli"}),
])
def test_imports_go_one_way(layer: str, forbidden: set[str]) -> None:
    wrong = sorted(
        (a, b) for a, b in GRAPH.edges
        if _layer(a) == layer and (_layer(b) in forbidden or b in forbidden)
    )
    assert wrong == [], f"{layer} imports what it must not: {wrong}"


def test_online_family_uses_only_its_own_family() -> None:
    wrong = sorted(
        (a, b) for a, b in GRAPH.edges
        if a.startswith("aisched.online.") and b.startswith(("aisched.online.", "aisched.models."))
        and len(a.split(".")) > 3 and len(b.split(".")) > 3 and a.split(".")[2] != b.split(".")[2]
        and b.split(".")[2] in FAMILIES and a.split(".")[2] in FAMILIES
    )
    assert wrong == [], f"an online family package imports another family: {wrong}"


def test_scenario_family_uses_only_its_own_family() -> None:
    wrong = sorted(
        (a, b) for a, b in GRAPH.edges
        if a.startswith("aisched.scenarios.") and b.startswith(("aisched.scenarios.", "aisched.online.",
                                                                  "aisched.models."))
        and len(a.split(".")) > 2 and len(b.split(".")) > 3 and a.split(".")[2] != b.split(".")[2]
        and b.split(".")[2] in FAMILIES
    )
    assert wrong == [], f"a scenario family package imports another family: {wrong}"


def test_spot_pool_calls_go_one_way() -> None:
    """selection -> pool -> (window_groups ->) window_batched -> window_kernel -> window_core -> window_split:
    none calls up."""
    order = ["selection", "pool", "window_groups", "window_batched", "window_kernel", "window_core", "window_split"]
    rank = {f"aisched.online.spot.{m}": i for i, m in enumerate(order)}
    up = sorted((a, b) for a, b in GRAPH.edges if a in rank and b in rank and rank[b] <= rank[a])
    assert up == [], f"spot's pool modules call back up: {up}"


def test_no_module_over_600_lines() -> None:
    long = sorted((p.relative_to(PACKAGE.parent).as_posix(), n) for p in PACKAGE.rglob("*.py")
                  if (n := len(p.read_text(encoding="utf-8").splitlines())) > 600)
    assert long == [], f"modules over 600 lines: {long}"


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the docstring nodes of a module, its classes and functions."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def family_literals(source: str) -> list[tuple[int, str]]:
    """(line, text) of each string in ``source``'s code (not a docstring) that names a built-in family:
    the name itself, or a scenario name ``<family>/...``."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    return sorted((node.lineno, node.value) for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
                  and any(node.value == f or node.value.startswith(f + "/") for f in FAMILIES))


def test_shared_code_names_no_family() -> None:
    """The API, the command line and the experiment machinery read the family registry (aisched.families)."""
    shared = [PACKAGE / "api.py", PACKAGE / "cli.py", PACKAGE / "families.py", PACKAGE / "registry.py",
              *sorted((PACKAGE / "experiments").glob("*.py"))]
    named = {p.relative_to(PACKAGE.parent).as_posix(): hits for p in shared
             if (hits := family_literals(p.read_text(encoding="utf-8")))}
    assert named == {}, f"shared code names a family (read aisched.families instead): {named}"


def test_the_family_literal_rule_can_fail() -> None:
    assert family_literals('"""About lora."""\nX = ("lora", "genai/fig4-slots", "lorax", "other")\n') == [
        (2, "genai/fig4-slots"), (2, "lora")]


def test_bounds_are_a_family_layer() -> None:
    """aisched/bounds/<family>: certified bounds (offline results) beside the offline programs, tests mirrored."""
    packages = sorted(p.name for p in (PACKAGE / "bounds").iterdir() if (p / "__init__.py").is_file())
    assert set(packages) <= set(FAMILIES), packages
    tests = Path(__file__).resolve().parent / "bounds"
    assert sorted(p.name for p in tests.iterdir() if p.is_dir() and p.name != "__pycache__") == packages
