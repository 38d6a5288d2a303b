"""Where the shared trace extracts live (``../shared/data`` beside the project checkout).

The data are read by path, never copied into the repository. Set the
environment variable ``AISCHED_DATA`` to point elsewhere.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["DATA_DIR"]

#: Folder of the shared trace extracts (``$AISCHED_DATA`` or ``<checkout>/../shared/data``).
DATA_DIR: Path = Path(
    os.environ.get("AISCHED_DATA", Path(__file__).resolve().parents[2].parent / "shared" / "data")
)
