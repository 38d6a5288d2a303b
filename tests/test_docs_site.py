"""The documentation site (docs/site, ``make docs``) builds from the docstrings without a warning.

The build runs as ``make docs`` does (Sphinx with autodoc and numpydoc, ``-W --keep-going``), in a
subprocess into a temporary folder, so a public name whose docstring does not render (bad
reStructuredText, a numpydoc section it cannot parse, a module that fails to import) fails here
with Sphinx's own message naming the file and line.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sphinx", reason="the docs extra is not installed (make install installs it)")
pytest.importorskip("numpydoc", reason="the docs extra is not installed (make install installs it)")
pytest.importorskip("myst_parser", reason="the docs extra is not installed (make install installs it)")

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "docs" / "site"

#: Entries the API reference and the family pages must hold (page -> object ids).
EXPECTED = {
    "api.html": [
        "aisched.api.run", "aisched.api.offline", "aisched.api.compare", "aisched.api.bound",
        "aisched.api.algorithms", "aisched.outcome.Outcome", "aisched.outcome.Outcome.verify",
        "aisched.registry.register", "aisched.registry.load_plugin", "aisched.errors.AischedError",
        "aisched.errors.InfeasiblePlanError", "aisched.scenarios.lora.generate",
        "aisched.scenarios.spot.generate", "aisched.scenarios.genai.generate",
        "aisched.scenarios.tenants.generate", "aisched.scenarios.lora.default_instance",
        "aisched.experiments.Scenario", "aisched.experiments.Claim",
    ],
    "lora.html": ["aisched.models.lora.LoraInstance", "aisched.online.lora.pdftsp.run"],
    "spot.html": ["aisched.models.spot.SpotInstance", "aisched.online.spot.ahap.run"],
    "genai.html": ["aisched.models.genai.GenaiInstance", "aisched.online.genai.comdos.run"],
    "tenants.html": ["aisched.models.tenants.TenantInstance", "aisched.online.tenants.astraea.run"],
}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("docs-site")
    html = out / "html"
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         "-d", str(out / "doctrees"), str(SITE), str(html)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    messages = (proc.stdout + proc.stderr).strip()
    assert proc.returncode == 0 and "WARNING" not in messages, (
        f"the documentation site does not build cleanly (exit {proc.returncode}):\n{messages}")
    return html


def test_site_builds_without_warnings(site: Path) -> None:
    for page in ("index.html", "quickstart.html", "lora.html", "spot.html", "genai.html", "tenants.html",
                 "api.html"):
        assert (site / page).is_file(), page


@pytest.mark.parametrize("page", sorted(EXPECTED))
def test_public_names_are_documented(site: Path, page: str) -> None:
    ids = set(re.findall(r'<dt class="sig sig-object py" id="([^"]+)"', (site / page).read_text()))
    missing = [name for name in EXPECTED[page] if name not in ids]
    assert not missing, f"{page} documents none of {missing}"


def test_family_pages_show_the_examples_and_link_the_record(site: Path) -> None:
    for family in ("lora", "spot", "genai", "tenants"):
        text = (site / f"{family}.html").read_text()
        assert "@register" in text and f'"{family}"' in text, f"{family}.html lacks its example"
        assert f'href="record/reproduction-{family}.html"' in text and f'href="record/readings/{family}.html"' in text
    assert (site / "record" / "readings" / "index.html").is_file()


def test_the_record_is_rendered_with_its_figures(site: Path) -> None:
    """The reproduction pages, readings, claims, data, architecture and examples are pages of the site, not
    raw Markdown files: each has its HTML, and a family's page shows its figures."""
    for name in ("reproduction", "reproduction-lora", "reproduction-spot", "reproduction-genai",
                 "reproduction-tenants", "claims", "theorems", "data", "architecture", "examples"):
        assert (site / "record" / f"{name}.html").is_file(), name
    page = (site / "record" / "reproduction-lora.html").read_text()
    images = re.findall(r'<img [^>]*src="([^"]+\.svg)"', page)
    assert images and all((site / "record" / src).is_file() for src in images), images[:3]
    assert 'id="claims-at-a-glance"' in page  # the glance table's heading, anchored as on GitHub
    examples = (site / "record" / "examples.html").read_text()
    assert all(f"{family}_own_algorithm.py" in examples for family in ("lora", "spot", "genai", "tenants"))
