"""``python -m adjutant_maps OUT_DIR [VARIANT ...]``: write the maps' SVG files."""

import sys
from pathlib import Path

from . import MapCheckError, build_maps

if len(sys.argv) < 2:
    sys.exit("usage: python -m adjutant_maps OUT_DIR [VARIANT ...]")
try:
    build_maps(Path(sys.argv[1]), sys.argv[2:] or None)
except MapCheckError as exc:
    sys.exit(str(exc))
