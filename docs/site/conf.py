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
]

root_doc = "index"
exclude_patterns = ["_build"]
templates_path: list[str] = []
html_theme = "alabaster"
html_static_path: list[str] = []
# the project's written record (docs/*.md) beside the pages, so the pages' links to it work wherever the
# HTML is opened or copied (plain Markdown: rendered where the repository is browsed)
RECORD = ["readings.md", "reproduction.md", "reproduction-lora.md", "reproduction-spot.md", "reproduction-genai.md",
          "reproduction-tenants.md", "claims.md", "data.md", "architecture.md"]
html_extra_path = [f"../{name}" for name in RECORD]
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


