"""The folder the workers of a parallel run (pytest-xdist) share, where what every worker needs is made
once, by the first to need it (a drawn map: tests/drawn_maps.py; the built site: tests/browser/conftest.py)."""

from __future__ import annotations

import os
from pathlib import Path

#: The environment variable tests/conftest.py sets in each worker to the folder above its own temporary
#: folder; unset in a run of one process.
SHARED = "ADJUTANT_TESTS_SHARED"


def shared_folder() -> Path | None:
    """The folder this run's workers share, or None in a run of one process."""
    value = os.environ.get(SHARED)
    return Path(value) if value else None
