"""Keeping province names readable: the box each thing drawn at an anchor point covers, the check that
no province name is hidden by a unit, a coast label, a centre dot or another name, and the placement of
names that satisfies it.

A unit is drawn by the page (py/adjutant_ui/board.py) at a ``data-unit`` point: an army is a circle of
radius 11, a fleet a 26 by 18 rectangle, both with a 1.6 outline; every unit spot (a province's and each of
its coasts') is checked as the box that holds either. Text boxes come from DejaVu Sans's advance widths
(the first font of the map's font list) with a margin for the fallbacks, plus the halo stroke.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry
from shapely.ops import polylabel

from . import layout
from .layout import MapGeometry

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in SVG units
Anywhere = tuple[list[tuple[float, float]], np.ndarray]  # grid points inside a province and their room

UNIT_HALF = (13.8, 11.8)  # half width and height of a drawn unit: the fleet's 26 x 18 box or the army's
# radius-11 circle, and half the 1.6 outline
DOT_RADIUS = {True: 5.5 + 0.8, False: 4.5 + 0.8}  # home centre, other centre (circle and half its outline)
LABEL_SIZE = 15.0  # px: a province's abbreviation
SMALL_SIZE = 12.0  # px: an abbreviation where the province is too small for the usual size
SEA_NAME_SIZE = 10.0  # px: a sea's full name, in italics under its abbreviation
SEA_NAME_GAP = 12.0  # from the abbreviation's baseline to the full name's
COAST_LABEL_SIZE = 10.0
HALO = {LABEL_SIZE: 1.5, SMALL_SIZE: 1.25, SEA_NAME_SIZE: 1.25, COAST_LABEL_SIZE: 1.25}  # half the halo stroke
WIDTH_MARGIN = 1.06  # Verdana and Arial, the fallbacks, set a little wider than DejaVu Sans

# advance widths in em (DejaVu Sans Bold, DejaVu Sans Oblique); other characters count as DEFAULT_EM
BOLD_EM = dict(zip(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz '-.",
    [0.774, 0.762, 0.734, 0.83, 0.683, 0.683, 0.821, 0.837, 0.372, 0.372, 0.775, 0.637, 0.995, 0.837, 0.85,
     0.733, 0.85, 0.77, 0.72, 0.682, 0.812, 0.774, 1.103, 0.771, 0.724, 0.725,
     0.675, 0.716, 0.593, 0.716, 0.678, 0.435, 0.716, 0.712, 0.343, 0.343, 0.665, 0.343, 1.042, 0.712, 0.687,
     0.716, 0.716, 0.493, 0.595, 0.478, 0.712, 0.652, 0.924, 0.645, 0.652, 0.582, 0.348, 0.306, 0.415, 0.38],
    strict=True,
))
OBLIQUE_EM = dict(zip(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz '-.",
    [0.684, 0.686, 0.698, 0.77, 0.632, 0.575, 0.775, 0.752, 0.295, 0.295, 0.656, 0.557, 0.863, 0.748, 0.787,
     0.603, 0.787, 0.695, 0.635, 0.611, 0.732, 0.684, 0.989, 0.685, 0.611, 0.685,
     0.613, 0.635, 0.55, 0.635, 0.615, 0.352, 0.635, 0.634, 0.278, 0.278, 0.579, 0.278, 0.974, 0.634, 0.612,
     0.635, 0.635, 0.411, 0.521, 0.392, 0.634, 0.592, 0.818, 0.592, 0.592, 0.525, 0.318, 0.275, 0.361, 0.318],
    strict=True,
))
DEFAULT_EM = 0.8
ASCENT = 0.76  # em above the baseline of capitals and tall lower-case letters
DESCENT = 0.24  # em below the baseline of g, j, p, q, y
DESCENDERS = set("gjpqy,;")


def text_box(text: str, size: float, x: float, baseline: float, italic: bool = False) -> Box:
    """The box a centred (``text-anchor: middle``) line of text covers, halo included."""
    table = OBLIQUE_EM if italic else BOLD_EM
    width = sum(table.get(ch, DEFAULT_EM) for ch in text) * size * WIDTH_MARGIN
    halo = HALO.get(size, 1.5)
    below = DESCENT * size if DESCENDERS & set(text) else 0.0
    return (x - width / 2 - halo, baseline - ASCENT * size - halo, x + width / 2 + halo, baseline + below + halo)


def baseline(size: float) -> float:
    """How far below its label point an abbreviation's baseline is, so the text is centred on the point."""
    return round(size * ASCENT / 2, 1)


def label_size(mg: MapGeometry, pid: str) -> float:
    return SMALL_SIZE if pid in mg.small_labels else LABEL_SIZE


def name_boxes(mg: MapGeometry, pid: str, at: tuple[float, float] | None = None) -> list[Box]:
    """The boxes of a province's name as drawn at its label point (or at ``at``): its abbreviation,
    and a sea's full name where it is written."""
    x, y = at or mg.anchors[pid]["label"]
    size = label_size(mg, pid)
    out = [text_box(pid.capitalize(), size, x, y + baseline(size))]
    if pid in mg.sea_names:
        out.append(text_box(mg.variant.provinces[pid].name, SEA_NAME_SIZE, x, y + baseline(size) + SEA_NAME_GAP,
                            italic=True))
    return out


def coast_label_box(loc: str, at: tuple[float, float]) -> Box:
    return text_box(loc.split("/")[1].upper(), COAST_LABEL_SIZE, at[0], at[1] + baseline(COAST_LABEL_SIZE))


def unit_box(at: tuple[float, float]) -> Box:
    return (at[0] - UNIT_HALF[0], at[1] - UNIT_HALF[1], at[0] + UNIT_HALF[0], at[1] + UNIT_HALF[1])


def dot_box(at: tuple[float, float], home: bool) -> Box:
    r = DOT_RADIUS[home]
    return (at[0] - r, at[1] - r, at[0] + r, at[1] + r)


@dataclass(frozen=True)
class Item:
    what: str  # e.g. "name of London (lon)", "unit spot of St Petersburg north coast (stp/nc)"
    owner: str  # the province it belongs to
    box: Box


def obstacles(mg: MapGeometry) -> Iterator[Item]:
    """Every unit spot, coast label and centre dot on the map."""
    v = mg.variant
    homes = {c for p in v.powers.values() for c in p.home_centres}
    for loc in sorted(mg.anchors):
        pid = loc.split("/")[0]
        name = v.provinces[pid].name
        pts = mg.anchors[loc]
        if "/" in loc:
            yield Item(f"unit spot of {name} {loc.split('/')[1].upper()} ({loc})", pid, unit_box(pts["unit"]))
            yield Item(f"coast label {loc}", pid, coast_label_box(loc, pts["unit"]))
        else:
            yield Item(f"unit spot of {name} ({pid})", pid, unit_box(pts["unit"]))
            if "sc" in pts:
                yield Item(f"centre dot of {name} ({pid})", pid, dot_box(pts["sc"], pid in homes))


def names(mg: MapGeometry) -> Iterator[Item]:
    for pid in sorted(p for p in mg.anchors if "/" not in p):
        for box in name_boxes(mg, pid):
            yield Item(f"name of {mg.variant.provinces[pid].name} ({pid})", pid, box)


def _meet(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def overlaps(mg: MapGeometry) -> list[str]:
    """Every province name whose box meets a unit spot, a coast label, a centre dot or another name,
    as sentences."""
    named = list(names(mg))
    others = list(obstacles(mg))
    problems = []
    for i, item in enumerate(named):
        for other in others + named[i + 1:]:
            if other.what != item.what and _meet(item.box, other.box):
                problems.append(f"{item.what} overlaps {other.what}")
    return problems


class LabelCheckError(ValueError):
    """A province name is hidden; the message names every overlap."""


def check(mg: MapGeometry) -> None:
    problems = overlaps(mg)
    if problems:
        raise LabelCheckError(
            f"map of {mg.variant.id!r}: {len(problems)} province names are hidden:\n  " + "\n  ".join(problems)
        )


GAP = 1.5  # clear space kept between a name and a unit or dot placed beside it
UNIT_ROOM = 10.0  # a unit point wants this much of its province around it
DOT_ROOM = 6.0
GRID = 3.0  # spacing of the candidate label points, SVG units
OUTSIDE_REACH = 24.0  # how far beside a province too small for its name the name may be written
DOWN, RIGHT, LEFT, UP = (0.0, 1.0), (1.0, 0.0), (-1.0, 0.0), (0.0, -1.0)
DIAGONALS = [(0.7, 0.7), (-0.7, 0.7), (0.7, -0.7), (-0.7, -0.7)]


def _hits(box: Box, boxes: np.ndarray) -> bool:
    if not len(boxes):
        return False
    across = (boxes[:, 0] < box[2]) & (box[0] < boxes[:, 2])
    return bool(np.any(across & (boxes[:, 1] < box[3]) & (box[1] < boxes[:, 3])))


def _meets_any(boxes: np.ndarray, others: np.ndarray) -> np.ndarray:
    """For each of ``boxes``, whether it meets any of ``others``."""
    if not len(others):
        return np.zeros(len(boxes), dtype=bool)
    a, b = boxes[:, None, :], others[None, :, :]
    meet = (a[..., 0] < b[..., 2]) & (b[..., 0] < a[..., 2]) & (a[..., 1] < b[..., 3]) & (b[..., 1] < a[..., 3])
    return np.asarray(meet.any(axis=1))


def _union(boxes: list[Box]) -> Box:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _beside(shape: BaseGeometry, around: Box, half: tuple[float, float], need: float, avoid: list[Box],
            placed: np.ndarray, up_first: bool, prefer: tuple[float, float] | None,
            anywhere: Anywhere) -> tuple[float, float] | None:
    """A point for a thing of half size ``half`` just off the box ``around`` (a name), meeting neither
    ``avoid`` nor the ``placed`` names: the first in reading order with ``need`` units of the province
    around it, else the one with the most room of those and of the ``anywhere`` points; None if every
    one meets something."""
    cx, cy = (around[0] + around[2]) / 2, (around[1] + around[3]) / 2
    hw, hh = (around[2] - around[0]) / 2, (around[3] - around[1]) / 2
    order = [UP, RIGHT, LEFT, DOWN, *DIAGONALS[2:], *DIAGONALS[:2]] if up_first else [DOWN, RIGHT, LEFT, UP, *DIAGONALS]
    cands: list[tuple[float, float]] = [prefer] if prefer else []
    for extra in (GAP, GAP + 4, GAP + 9, GAP + 15):
        for dx, dy in order:
            # the centre distance at which the two boxes just clear each other along this direction
            tx = (hw + half[0] + extra) / abs(dx) if dx else np.inf
            ty = (hh + half[1] + extra) / abs(dy) if dy else np.inf
            t = min(tx, ty)
            cands.append((round(cx + dx * t, 1), round(cy + dy * t, 1)))
    ring = len(cands)
    cands += anywhere[0]
    pts = np.array(cands)
    mine = np.column_stack([pts[:, 0] - half[0], pts[:, 1] - half[1], pts[:, 0] + half[0], pts[:, 1] + half[1]])
    clear = ~_meets_any(mine, np.vstack([np.array(avoid).reshape(-1, 4), placed]))
    near = shapely.points(pts[:ring])
    room = np.concatenate([
        np.where(shapely.contains(shape, near), shapely.distance(near, shape.boundary), -1.0), anywhere[1],
    ])
    room = np.where(clear, room, -np.inf)
    for i in range(ring):
        if room[i] >= need:
            return cands[i]
    # else the best trade of room against distance from the name
    far = np.hypot(pts[:, 0] - cx, pts[:, 1] - cy)
    score = np.where(room > 2.0, np.minimum(room, need) - 0.1 * far, -np.inf)
    best = int(np.argmax(score))
    return cands[best] if np.isfinite(score[best]) else None


def _label_candidates(area: BaseGeometry, start: tuple[float, float],
                      first: bool = True) -> list[tuple[float, float]]:
    """Label points to try: the preferred one, then points of a grid inside ``area``, nearest first."""
    x0, y0, x1, y1 = area.bounds
    xs, ys = np.meshgrid(np.arange(x0, x1, GRID), np.arange(y0, y1, GRID))
    pts = shapely.points(xs.ravel(), ys.ravel())
    inside = shapely.contains(area, pts)
    grid = np.column_stack([xs.ravel()[inside], ys.ravel()[inside]])
    d = np.hypot(grid[:, 0] - start[0], grid[:, 1] - start[1])
    order = np.lexsort((grid[:, 0], grid[:, 1], np.round(d, 3)))
    return ([start] if first else []) + [(round(float(x), 1), round(float(y), 1)) for x, y in grid[order]]


def place(mg: MapGeometry) -> None:
    """Label, unit and centre-dot points for every province and a unit point for every coast, placed so
    that no name meets a unit spot, a coast label, a centre dot or another name (what :func:`check`
    demands). Provinces are placed tightest first; each takes the first label point, nearest its
    pole of inaccessibility (or the geo file's ``anchors`` point), from which its name's box stays inside
    the province and its unit, dot and coasts fit beside it clear of everything placed before; failing
    that with its sea name dropped, then in the smaller size, then with the name's box allowed over the
    province's edge; a province where nothing fits (an island smaller than a unit) has its name beside it
    (:func:`_outside`). Whatever still fits nowhere is left where it was first tried, for :func:`check` to
    report. Deterministic."""
    v = mg.variant
    overrides = mg.geo.get("anchors", {})
    homes = {c for p in v.powers.values() for c in p.home_centres}
    names_placed: list[Box] = []
    others_placed: list[Box] = []
    units_placed: list[Box] = []  # other provinces' unit spots and dots, which a unit or dot keeps off if it can
    dots_placed: list[Box] = []
    # coasts the geo file places are fixed before any name
    for loc, lonlat in sorted(mg.geo.get("coasts", {}).items()):
        pid = loc.split("/")[0]
        if pid in mg.shapes and loc.split("/")[1] in v.provinces[pid].coasts:
            u, vv = mg.proj.point(lonlat)
            mg.anchors[loc] = {"unit": (round(u, 1), round(vv, 1))}
            others_placed += [unit_box(mg.anchors[loc]["unit"]), coast_label_box(loc, mg.anchors[loc]["unit"])]
            units_placed.append(unit_box(mg.anchors[loc]["unit"]))
    starts: dict[str, tuple[float, float]] = {}
    mains: dict[str, BaseGeometry] = {}
    for pid, shape in mg.shapes.items():
        main = max(shapely.get_parts(shape), key=lambda p: p.area)
        mains[pid] = main
        over = overrides.get(pid, {})
        if "label" in over:
            starts[pid] = mg.proj.point(over["label"])
        else:
            p = polylabel(main, tolerance=0.5)
            starts[pid] = (round(p.x, 1), round(p.y, 1))
        room = float(shapely.distance(shapely.Point(starts[pid]), main.boundary))
        mg.label_room[pid] = round(room, 1)
    for pid in sorted(mg.shapes, key=lambda q: (mg.label_room[q], q)):
        prov = v.provinces[pid]
        main = mains[pid]
        over = {k: mg.proj.point(val) for k, val in overrides.get(pid, {}).items()}
        room = mg.label_room[pid]
        styles = []
        if room >= layout.SMALL_ROOM:
            if prov.type == "sea" and room >= layout.NAME_ROOM:
                styles.append((False, True))
            styles.append((False, False))
        styles.append((True, False))
        inner = main.buffer(1.0)
        names_arr = np.array(names_placed).reshape(-1, 4)
        others_arr = np.array(others_placed).reshape(-1, 4)
        marks = (np.array(units_placed).reshape(-1, 4), np.array(dots_placed).reshape(-1, 4))
        cands = _label_candidates(main, starts[pid])
        grid = cands[1:]
        anywhere: Anywhere = (grid, shapely.distance(shapely.points(np.array(grid).reshape(-1, 2)), main.boundary))
        chosen = None
        for strict in (True, False):
            for small, sea_name in styles:
                mg.small_labels.discard(pid)
                mg.sea_names.discard(pid)
                if small:
                    mg.small_labels.add(pid)
                if sea_name:
                    mg.sea_names.add(pid)
                for at in cands:
                    boxes = name_boxes(mg, pid, at)
                    if any(_hits(b, names_arr) or _hits(b, others_arr) for b in boxes):
                        continue
                    if strict and not all(inner.contains(shapely.box(*b)) for b in boxes[:1]):
                        continue
                    found = _fit_beside(mg, pid, main, at, boxes, names_arr, over, homes, anywhere, marks)
                    if found is not None:
                        chosen = (at, found)
                        break
                if chosen:
                    break
            if chosen:
                break
        if chosen is None:
            chosen = _outside(mg, pid, main, starts[pid], names_arr, others_arr, over, homes, anywhere)
        if chosen is None:
            # nothing fits: the first style at the preferred point, for check() to report
            mg.small_labels.discard(pid)
            mg.sea_names.discard(pid)
            at = starts[pid]
            found = {"unit": over.get("unit", at)}
            if prov.centre:
                found["sc"] = over.get("sc", at)
            mg.anchors[pid] = {"label": at}
            for c in prov.coasts:
                if f"{pid}/{c}" not in mg.anchors:
                    found[f"{pid}/{c}"] = layout.coast_point(mg, pid, f"{pid}/{c}")
            chosen = (at, found)
        at, pts = chosen
        mg.anchors[pid] = {"label": at, **{k: val for k, val in pts.items() if "/" not in k}}
        for loc, val in pts.items():
            if "/" in loc:
                mg.anchors[loc] = {"unit": val}
        names_placed += name_boxes(mg, pid)
        for loc, val in pts.items():
            if loc == "unit" or "/" in loc:
                others_placed.append(unit_box(val))
                units_placed.append(unit_box(val))
            if "/" in loc:
                others_placed.append(coast_label_box(loc, val))
            if loc == "sc":
                others_placed.append(dot_box(val, pid in homes))
                dots_placed.append(dot_box(val, pid in homes))


def _outside(mg: MapGeometry, pid: str, main: BaseGeometry, start: tuple[float, float], names_arr: np.ndarray,
             others_arr: np.ndarray, over: dict[str, tuple[float, float]], homes: set[str],
             anywhere: Anywhere) -> tuple[tuple[float, float], dict[str, tuple[float, float]]] | None:
    """For a province too small to hold its unit and its name (an island): the unit at its middle, the
    centre dot inside it as far from the unit as it goes, and the name, in the smaller size, just
    beside the province (nearest first), clear of everything."""
    prov = mg.variant.provinces[pid]
    mg.small_labels.add(pid)
    mg.sea_names.discard(pid)
    unit = over.get("unit", start)
    pts: dict[str, tuple[float, float]] = {"unit": unit}
    own = [unit_box(unit)]
    if prov.centre:
        # the farthest from the unit of the points a little inside the shore
        roomy = [q for q, r in zip(*anywhere, strict=True) if r >= min(2.0, float(np.max(anywhere[1], initial=0.0)))]
        far = sorted(roomy, key=lambda q: (-round((q[0] - unit[0]) ** 2 + (q[1] - unit[1]) ** 2, 1), q))
        pts["sc"] = over.get("sc", far[0] if far else unit)
        own.append(dot_box(pts["sc"], pid in homes))
    mg.anchors[pid] = {"label": start}
    for c in prov.coasts:
        loc = f"{pid}/{c}"
        if loc not in mg.anchors:
            pts[loc] = layout.coast_point(mg, pid, loc)
            own += [unit_box(pts[loc]), coast_label_box(loc, pts[loc])]
    if any(_hits(b, names_arr) for b in own):
        return None
    ring = shapely.difference(main.buffer(OUTSIDE_REACH), main)
    own_arr = np.array(own).reshape(-1, 4)
    for at in _label_candidates(ring, start, first=False):
        boxes = name_boxes(mg, pid, at)
        if not any(_hits(b, names_arr) or _hits(b, others_arr) or _hits(b, own_arr) for b in boxes):
            mg.outside_labels.add(pid)
            return at, pts
    return None


def _fit_beside(mg: MapGeometry, pid: str, main: BaseGeometry, at: tuple[float, float], boxes: list[Box],
                names_arr: np.ndarray, over: dict[str, tuple[float, float]],
                homes: set[str], anywhere: Anywhere,
                marks: tuple[np.ndarray, np.ndarray]) -> dict[str, tuple[float, float]] | None:
    """The unit point, centre dot and computed coast points of a province whose name is at ``at``, each
    clear of the name and of the names placed before (and, where there is a place for it, a unit clear of
    the dots and a dot clear of the units and dots placed before); None if one does not fit."""
    prov = mg.variant.provinces[pid]
    around = _union(boxes)
    out: dict[str, tuple[float, float]] = {}
    units, dots = marks
    unit = _beside(main, around, UNIT_HALF, UNIT_ROOM, boxes, np.vstack([names_arr, dots]), prov.type == "sea",
                   over.get("unit"), anywhere)
    if unit is None:
        unit = _beside(main, around, UNIT_HALF, UNIT_ROOM, boxes, names_arr, prov.type == "sea", over.get("unit"),
                       anywhere)
    if unit is None:
        return None
    out["unit"] = unit
    if prov.centre:
        r = DOT_RADIUS[pid in homes]
        sc = _beside(main, around, (r, r), DOT_ROOM, [*boxes, unit_box(unit)], np.vstack([names_arr, units, dots]),
                     False, over.get("sc"), anywhere)
        if sc is None:
            sc = _beside(main, around, (r, r), DOT_ROOM, [*boxes, unit_box(unit)], names_arr, False, over.get("sc"),
                         anywhere)
        if sc is None:
            return None
        out["sc"] = sc
    mg.anchors[pid] = {"label": at}
    for c in prov.coasts:
        loc = f"{pid}/{c}"
        if loc in mg.anchors and loc in mg.geo.get("coasts", {}):
            continue
        spot = layout.coast_point(mg, pid, loc)
        if any(_meet(b, unit_box(spot)) or _meet(b, coast_label_box(loc, spot)) for b in boxes) or _hits(
            unit_box(spot), names_arr
        ):
            return None
        out[loc] = spot
    return out
