"""The package layout of docs/architecture.md: one family package per layer, imports one way, no circles.

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
#: The command line: its entry and the modules it is made of (no layer below imports them).
CLI = ("cli", "cli_compare", "_cli_common")


def _layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "aisched" else None


def test_layers_mirror_models() -> None:
    for layer in ("models", "online", "scenarios"):
        packages = sorted(p.name for p in (PACKAGE / layer).iterdir() if (p / "__init__.py").is_file())
        assert packages == sorted(FAMILIES), layer
        flat = sorted(p.name for p in (PACKAGE / layer).glob("*.py") if p.name != "__init__.py")
        allowed = {"models": ["_instance.py", "_offline.py", "_validate.py"]}.get(layer, [])
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
        if _layer(a) == "experiments" and (_layer(b) in {"scenarios", "online", "models", *CLI} or b == "aisched")
    )
    assert wrong == [], f"the experiment machinery imports a family (or the package that imports them): {wrong}"


def test_experiments_name_no_family_module() -> None:
    """No ``import_module("aisched.scenarios." ...)``: families reach the machinery by registering only."""
    for path in (PACKAGE / "experiments").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if path == PACKAGE / "experiments" / "__init__.py":  # the package's old attributes: its own modules
            text = text.replace('importlib.import_module(new)', "")
        assert "import_module" not in text, path.name
        assert "import aisched.scenarios" not in text and "from aisched.scenarios" not in text, path.name


def test_no_import_circles() -> None:
    # a package importing its own submodules is not a circle; anything else is
    inner = GRAPH.subgraph(n for n in GRAPH if n.startswith("aisched."))
    edges = [(a, b) for a, b in inner.edges if not a.startswith(b + ".")]
    circles = list(nx.simple_cycles(nx.DiGraph(edges)))
    assert circles == [], f"import circles: {circles}"


@pytest.mark.parametrize(("layer", "forbidden"), [
    ("models", {"online", "bounds", "scenarios", "experiments", *CLI, "api", "jax"}),
    ("online", {"bounds", "scenarios", "experiments", *CLI, "api"}),
    ("bounds", {"scenarios", "experiments", *CLI, "api", "jax"}),
    ("solvers", {"models", "online", "bounds", "scenarios", "experiments", "dag", *CLI, "api", "jax"}),
    ("dag", {"models", "online", "bounds", "scenarios", "experiments", "solvers", *CLI, "api", "jax"}),
    ("experiments", {"scenarios", "online", "bounds", "models", *CLI, "api"}),
    # the core below the facade: the family object, the registry and the runner import no layer above
    ("core", {"models", "online", "bounds", "scenarios", "experiments", *CLI, "api", "families", "registry",
              "dag", "solvers", "figures", "data", "jax", "pyomo"}),
    # a family's scenarios reach the runner through the core, never through the facade
    ("scenarios", {"api", "cli", "cli_compare"}),
    # the shared helpers every room of experiments may use import none of it
    ("figures", {"scenarios", "online", "bounds", "models", "experiments", *CLI}),
    ("data", {"scenarios", "online", "bounds", "models", "experiments", *CLI}),
    ("_paths", {"scenarios", "online", "bounds", "models", "experiments", *CLI}),
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


#: The rooms of ``aisched.experiments``, lowest first: a room imports only its own and earlier rooms.
ROOMS = ("spec", "store", "verdicts", "run", "studies", "pages")
#: The top-level helpers every room may import (they import nothing of experiments).
SHARED_HELPERS = {"aisched.figures", "aisched.data", "aisched._paths"}


def _is_shim(module: str) -> bool:
    """A module left at an old path by a move (``aisched._moved.moved``): it names its new place only."""
    return module != "aisched._moved" and "\nmoved(__name__" in _module_files()[module].read_text(encoding="utf-8")


SHIMS = sorted(m for m in _module_files() if _is_shim(m))


def _room(module: str) -> str | None:
    """``"run"`` for ``aisched.experiments.run.sweep``; None outside the rooms (the package, an old path, others)."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["aisched", "experiments"] and parts[2] in ROOMS else None


def test_experiments_rooms_exist_and_hold_every_module() -> None:
    flat = sorted(m for m in _module_files() if m.startswith("aisched.experiments.") and _room(m) is None)
    assert flat == [m for m in flat if m in SHIMS], f"modules of aisched.experiments outside a room: {flat}"
    for room in ROOMS:
        assert (PACKAGE / "experiments" / room / "__init__.py").is_file(), room


def test_experiments_rooms_import_one_way() -> None:
    """spec < store < verdicts < run < studies < pages: none imports a later room (or an old path)."""
    rank = {room: i for i, room in enumerate(ROOMS)}
    wrong = sorted(
        (a, b) for a, b in GRAPH.edges
        if _room(a) is not None and b.startswith("aisched.experiments")
        and (_room(b) is None or rank[_room(b)] > rank[_room(a)])
    )
    assert wrong == [], f"a room of aisched.experiments imports a later room (or an old path): {wrong}"


def test_the_room_rule_can_fail() -> None:
    assert _room("aisched.experiments.pages.report") == "pages" and _room("aisched.experiments.sweep") is None
    assert _room("aisched.figures") is None and "aisched.experiments.sweep" in SHIMS


def test_shared_helpers_import_no_experiments() -> None:
    wrong = sorted((a, b) for a, b in GRAPH.edges if a in SHARED_HELPERS and b.startswith("aisched.experiments"))
    assert wrong == [], f"the shared helpers import the experiment machinery: {wrong}"


def _fallback_free(tree: ast.AST) -> ast.AST:
    """``tree`` without its ``except ImportError:`` bodies (a fallback to an older layout never runs on this one)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Try):
            node.handlers = [h for h in node.handlers if not (
                isinstance(h.type, ast.Name) and h.type.id in {"ImportError", "ModuleNotFoundError"})]
    return tree


def test_nothing_imports_an_old_path() -> None:
    """The shims at the old paths are for users: the package, its tests and tools import the new places."""
    root = PACKAGE.parent
    wrong = sorted((a, b) for a, b in GRAPH.edges if b in SHIMS)
    for folder in ("tests", "tools", "benchmarks", "examples"):
        for path in sorted((root / folder).rglob("*.py")) if (root / folder).is_dir() else []:
            for node in _imports(_fallback_free(ast.parse(path.read_text(encoding="utf-8")))):
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                else:
                    names = [node.module or "", *(f"{node.module}.{a.name}" for a in node.names)]
                wrong += [(path.relative_to(root).as_posix(), n) for n in names if n in SHIMS]
    assert wrong == [], f"imports of a moved module's old path (a DeprecationWarning): {wrong}"


def test_spot_pool_calls_go_one_way() -> None:
    """selection -> pool -> (window.groups ->) window.batched -> window.kernel -> window.core -> window.split:
    none calls up."""
    order = ["selection", "pool", "window.groups", "window.batched", "window.kernel", "window.core", "window.split"]
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
              PACKAGE / "figures.py", PACKAGE / "data.py", PACKAGE / "_paths.py", PACKAGE / "cli_support.py",
              PACKAGE / "cli_compare.py", *sorted((PACKAGE / "core").rglob("*.py")),
              *sorted((PACKAGE / "experiments").rglob("*.py"))]
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


def test_the_top_package_is_imported_by_nothing_inside() -> None:
    """``import aisched`` (the facade that imports every family) is never what a module of it imports."""
    wrong = sorted(a for a, b in GRAPH.edges if b == "aisched" and a != "aisched" and not a.startswith("aisched.cli"))
    assert wrong == [], f"modules that import the top-level package: {wrong}"
