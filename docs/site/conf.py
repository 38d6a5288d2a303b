"""Sphinx configuration of aisched's documentation site (``make docs``).

The site is built the way the scientific Python ecosystem builds its API
references (NumPy, SciPy, pandas, networkx, xarray): Sphinx reads the
package's numpydoc-style docstrings through ``sphinx.ext.autodoc`` and
``numpydoc``, and ``sphinx.ext.autosummary`` makes the summary tables.

Build: ``make docs`` (HTML in ``docs/site/_build/html``), or
``python -m sphinx -W --keep-going -b html docs/site docs/site/_build/html``.
Every warning is an error (``-W``), so a public name whose docstring does not
render fails the build; ``tests/test_docs_site.py`` builds the site the same way.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # the checkout's package, also without an editable install
    sys.path.insert(0, str(ROOT))

import aisched  # noqa: E402

project = "aisched"
author = "the aisched authors"
copyright = "the aisched authors; Apache-2.0"
version = release = aisched.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_parser",  # the written record (docs/*.md) rendered as pages, figures and anchors included
]

root_doc = "index"
exclude_patterns = ["_build"]
templates_path: list[str] = []
html_theme = "alabaster"
html_static_path: list[str] = []
# The project's written record (docs/*.md: the reproduction pages rendered from docs/records, the readings,
# the claims, the data's provenance, the architecture, the theorems) is rendered here by MyST, with its figures.
# Each build copies it into record/ (ignored by git) so its own relative links (figures/, readings/, records/)
# hold on the site as they do where the repository is browsed; examples/ becomes record/examples.md.
DOCS = ROOT / "docs"
RECORD_DIR = Path(__file__).resolve().parent / "record"
RECORD = ["reproduction.md", "reproduction-lora.md", "reproduction-spot.md", "reproduction-genai.md",
          "reproduction-tenants.md", "claims.md", "theorems.md", "data.md", "architecture.md"]
RECORD_FOLDERS = ["readings", "figures", "records"]


def _example_page() -> str:
    """record/examples.md: each example's docstring as prose, then its code (one page, in file order)."""
    import ast

    lines = ["# Examples: your own algorithm, registered and compared", "",
             "Each example registers a user's own online algorithm for one family with `aisched.registry` and "
             "compares it with the paper's algorithms and the offline optimum. Run one with "
             "`python examples/<file>` from the checkout.", ""]
    for path in sorted((ROOT / "examples").glob("*.py")):
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or path.stem
        title, _, body = doc.partition("\n")
        lines += [f"## `{path.name}`", "", title, "", body.strip(), "",
                  f"```{{literalinclude}} ../../../examples/{path.name}", ":language: python", "```", ""]
    return "\n".join(lines)


def _copy_record() -> None:
    shutil.rmtree(RECORD_DIR, ignore_errors=True)
    RECORD_DIR.mkdir()
    for name in RECORD:
        shutil.copyfile(DOCS / name, RECORD_DIR / name)
    for name in RECORD_FOLDERS:
        if (DOCS / name).is_dir():
            shutil.copytree(DOCS / name, RECORD_DIR / name)
    (RECORD_DIR / "examples.md").write_text(_example_page(), encoding="utf-8")


_copy_record()
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
myst_heading_anchors = 4  # GitHub's anchors on headings down to ####: the pages' links work on both
myst_enable_extensions = ["dollarmath"]
suppress_warnings = ["myst.header"]  # a rendered page may start its sections at ### (a figure's notes)
html_title = f"aisched {release}"
html_theme_options = {"description": "Online scheduling and pricing of AI workloads", "page_width": "1100px"}

# autodoc: the names a module lists in __all__ (the lazy packages resolve them on first read),
# in source order, signatures with their type hints
autodoc_default_options = {"members": True, "member-order": "bysource", "show-inheritance": True}
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
autosummary_generate = False  # the summary tables link to the entries autodoc writes on the same pages

# numpydoc: the "Parameters", "Returns", "Raises", "Attributes" sections; a class's members are
# documented by autodoc (not listed again by numpydoc), and its style checks stay off (the
# docstrings are checked by the build's warnings only)
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_validation_checks: set[str] = set()
numpydoc_xref_param_type = False
numpydoc_attributes_as_param_list = True


