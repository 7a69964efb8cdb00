"""Each variant's map drawn once per test run: drawing one takes the renderer 15-80 s of CPU, and the map
tests (test_maps_render.py, test_map_labels.py) and the site the browser tests serve all need every map.

`drawn(variant_id)` is what `adjutant_maps.render_variant(variant_id)` returns, kept for the rest of the
process; in a parallel run (pytest-xdist) the first worker to need a map draws it and leaves it, pickled, in
the folder the workers share (tests/shared_folder.py), and the others read it from there. Callers
read what they get and never change it (they copy what they mean to change)."""

from __future__ import annotations

import fcntl
import pickle
from pathlib import Path

from adjutant_maps import render_variant as draw  # the renderer itself, even where a test replaces the name
from adjutant_maps.layout import MapGeometry
from shared_folder import shared_folder

_drawn: dict[str, tuple[str, MapGeometry]] = {}


def drawn(variant_id: str) -> tuple[str, MapGeometry]:
    """The SVG text of the variant's map and its geometry, drawn once per run."""
    if variant_id not in _drawn:
        shared = shared_folder()
        _drawn[variant_id] = draw(variant_id) if shared is None else _shared(shared / "maps", variant_id)
    return _drawn[variant_id]


def _shared(folder: Path, variant_id: str) -> tuple[str, MapGeometry]:
    folder.mkdir(parents=True, exist_ok=True)
    kept = folder / f"{variant_id}.pickle"
    with (folder / f"{variant_id}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if kept.exists():
            found: tuple[str, MapGeometry] = pickle.loads(kept.read_bytes())
            return found
        result = draw(variant_id)
        kept.with_suffix(".part").write_bytes(pickle.dumps(result))
        kept.with_suffix(".part").replace(kept)
        return result
