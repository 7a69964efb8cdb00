"""Build-time map renderer: one SVG per variant, drawn from real geography and checked against the
variant's adjacencies.  The only code in Adjutant that imports svgwrite.

>>> from pathlib import Path
>>> paths = build_maps(Path("dist/maps"), ["standard"])   # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
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


def build_maps(out_dir: Path, variants: list[str] | None = None, processes: int = 1) -> list[Path]:
    """Write ``<out_dir>/<variant>.svg`` for each variant (default: every drawn and shared one whose
    data exists), print the time taken, and return the paths written (the drawn boards first, then the
    shared ones). ``processes`` above 1 draws that many boards at once, each in a process of its own."""
    from adjutant.map.variant import maps_dir

    start = time.perf_counter()
    if variants is None:
        variants = [v for v in (*DRAWN, *SHARED) if (maps_dir() / f"{v}.json").exists()]
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    order = sorted(variants, key=lambda v: v in SHARED)
    boards: dict[str, list[str]] = {}
    for vid in order:
        boards.setdefault(SHARED.get(vid, vid), []).append(vid)
    texts: dict[str, str] = {}
    if processes > 1 and len(boards) > 1:
        # spawned, not forked: the caller may hold threads (a test's browser driver) that a fork would copy mid-lock
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(min(processes, len(boards)), mp_context=context) as pool:
            for drawn in pool.map(board_texts, boards, boards.values()):
                texts.update(drawn)
    else:
        for board, shown in boards.items():
            texts.update(board_texts(board, shown))
    written: list[Path] = []
    for vid in order:
        path = out_dir / f"{vid}.svg"
        path.write_text(texts[vid], encoding="utf-8")
        written.append(path)
    elapsed = time.perf_counter() - start
    print(f"maps: {len(written)} SVG files in {out_dir} in {elapsed:.1f} s")
    return written


def board_texts(board: str, variants: list[str]) -> dict[str, str]:
    """The SVG text of each of ``variants``, all played on ``board`` (itself or a variant of SHARED on it):
    the board placed once, then drawn under each variant's own name."""
    from adjutant.map.variant import load_variant

    from . import labels, svg

    texts: dict[str, str] = {}
    geometry: MapGeometry | None = None
    for vid in variants:
        if geometry is None:
            texts[vid], geometry = render_variant(board, vid if vid != board else None)
        else:
            shown = load_variant(vid)
            # the marks this variant's page draws beside a unit (Cluster's badges, Coast-Running's
            # shield) checked on the board's placement too
            labels.check(dataclasses.replace(geometry, variant=shown))
            texts[vid] = svg.render(geometry, shown)
    return texts
