"""Each variant's map drawn once per test run: drawing one takes the renderer 15-80 s of CPU, and the map
tests (test_maps_render.py, test_map_labels.py) and the site the browser tests serve all need every map.

`drawn(variant_id)` is what `adjutant_maps.render_variant(variant_id)` returns, kept for the rest of the
process; in a parallel run (pytest-xdist) the first worker to need a map draws it and leaves it, pickled, in
the folder the workers share (tests/shared_folder.py), and the others read it from there. Callers
read what they get and never change it (they copy what they mean to change).

A worker that needs a map another is drawing draws meanwhile the boards no one has started (each map has a
lock of its own), so two workers that both need the maps draw them side by side; `draw_all` has them all."""

from __future__ import annotations

import fcntl
import pickle
from pathlib import Path

from adjutant.map.variant import maps_dir
from adjutant_maps import DRAWN
from adjutant_maps import render_variant as draw  # the renderer itself, even where a test replaces the name
from adjutant_maps.layout import MapGeometry
from shared_folder import shared_folder

_drawn: dict[str, tuple[str, MapGeometry]] = {}


def drawn(variant_id: str) -> tuple[str, MapGeometry]:
    """The SVG text of the variant's map and its geometry, drawn once per run. While another worker
    draws it, this one draws the boards no one has started (each map has a lock of its own)."""
    if variant_id not in _drawn:
        shared = shared_folder()
        if shared is None:
            _drawn[variant_id] = draw(variant_id)
            return _drawn[variant_id]
        found = _shared(shared / "maps", variant_id, wait=False)
        if found is None:
            for other in boards():
                if other != variant_id and other not in _drawn:
                    meanwhile = _shared(shared / "maps", other, wait=False)
                    if meanwhile is not None:
                        _drawn[other] = meanwhile
            found = _shared(shared / "maps", variant_id, wait=True)
        assert found is not None
        _drawn[variant_id] = found
    return _drawn[variant_id]


def boards() -> list[str]:
    """The variants whose boards the renderer draws (the site's build needs each of them)."""
    return [v for v in DRAWN if (maps_dir() / f"{v}.json").exists()]


def draw_all(variant_ids: list[str]) -> None:
    """Every map of ``variant_ids`` drawn (or read), side by side with the other workers."""
    for variant_id in variant_ids:
        drawn(variant_id)


def _shared(folder: Path, variant_id: str, wait: bool) -> tuple[str, MapGeometry] | None:
    """The map kept in ``folder``, drawn and kept there first if it is not; None, without ``wait``, if
    another worker is drawing it."""
    folder.mkdir(parents=True, exist_ok=True)
    kept = folder / f"{variant_id}.pickle"
    with (folder / f"{variant_id}.lock").open("w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return None
        if kept.exists():
            found: tuple[str, MapGeometry] = pickle.loads(kept.read_bytes())
            return found
        result = draw(variant_id)
        kept.with_suffix(".part").write_bytes(pickle.dumps(result))
        kept.with_suffix(".part").replace(kept)
        return result
