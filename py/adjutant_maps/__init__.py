"""Build-time map renderer: one SVG per variant, drawn from real geography and checked against the
variant's adjacencies.  The only code in Adjutant that imports svgwrite.

>>> from pathlib import Path
>>> paths = build_maps(Path("dist/maps"), ["standard"])   # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

from .labels import LabelCheckError
from .layout import MapCheckError, MapGeometry

__all__ = [
    "build_maps", "render_variant", "MapCheckError", "LabelCheckError", "MapGeometry", "DRAWN", "PENDING", "SHARED",
]

DRAWN = ("standard", "loeb9", "cline5", "cline6")
# drawn from maps/geo/ but their seeds do not yet give the variant's graph: not built by default
PENDING: tuple[str, ...] = ()
# variants on the standard board: their SVG is standard's, written again under their own name
SHARED = {"coast_running": "standard", "cluster": "standard"}


def render_variant(variant_id: str, shown: str | None = None) -> tuple[str, MapGeometry]:
    """The SVG text of one variant's map and its geometry; raises MapCheckError naming every pair
    of provinces whose drawn border disagrees with the variant's adjacencies, and LabelCheckError naming
    every province name a unit spot, coast label, centre dot or other name would hide and every unit spot
    (a dislodged unit's too) that would meet another or a centre dot. ``shown``: the id of a variant
    played on this board, whose name and id the SVG carries instead."""
    from adjutant.map.variant import load_variant, maps_dir

    from . import labels, layout, svg

    mg = layout.compute(variant_id)
    problems = layout.check(mg)
    if problems:
        raise MapCheckError(f"map of {variant_id!r} does not match its adjacencies:\n  " + "\n  ".join(problems))
    layout.offboard_boxes(mg)
    mg.shared_with = [load_variant(v) for v, board in sorted(SHARED.items())
                      if board == variant_id and (maps_dir() / f"{v}.json").exists()]
    labels.place(mg)
    labels.check(mg)
    layout.coast_lines(mg)
    layout.canal_lines(mg)
    return svg.render(mg, load_variant(shown) if shown else None), mg


def build_maps(out_dir: Path, variants: list[str] | None = None) -> list[Path]:
    """Write ``<out_dir>/<variant>.svg`` for each variant (default: every drawn and shared one whose
    data exists), print the time taken, and return the paths written."""
    from adjutant.map.variant import load_variant, maps_dir

    from . import labels, svg

    start = time.perf_counter()
    if variants is None:
        variants = [v for v in (*DRAWN, *SHARED) if (maps_dir() / f"{v}.json").exists()]
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    geometry: dict[str, MapGeometry] = {}
    for vid in sorted(variants, key=lambda v: v in SHARED):
        path = out_dir / f"{vid}.svg"
        base = SHARED.get(vid)
        if base is not None and base in geometry:
            shown = load_variant(vid)
            # the marks this variant's page draws beside a unit (Cluster's badges, Coast-Running's
            # shield) checked on the board's placement too
            labels.check(dataclasses.replace(geometry[base], variant=shown))
            text = svg.render(geometry[base], shown)
        else:
            text, geometry[base or vid] = render_variant(base or vid, vid if base else None)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    elapsed = time.perf_counter() - start
    print(f"maps: {len(written)} SVG files in {out_dir} in {elapsed:.1f} s")
    return written
