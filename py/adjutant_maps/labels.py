"""Keeping the map readable: the box each thing drawn at an anchor point covers, the check that no
province name is hidden by a unit, a coast label, a centre dot or another name and that no unit spot meets
another unit spot or a centre dot, and the placement that satisfies it.

A unit is drawn by the page (py/adjutant_ui/board.py) at a ``data-unit`` point, and a dislodged unit at
that point moved by ``DISLODGED_OFFSET``; the sizes of both, and of the marks the page draws beside a
unit (an illegal order's "!", in Cluster Diplomacy the strength badge, an order's letter and a site's
diamond, and Coast-Running's protect shield) and round
a centre dot (the ring of a centre that changed hands), are in :mod:`adjutant.pictures.pieces`, which the page
reads too. Every unit spot (a province's and each of its coasts', and the dislodged unit's beside each)
is checked as the box that holds either an army or a fleet, and each mark as its own box. Text boxes
come from DejaVu Sans's advance widths (the first font of the map's font list) with a margin for the
fallbacks, plus the halo stroke.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely
from adjutant.pictures import pieces
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points, polylabel

from . import layout
from .layout import MapGeometry

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in SVG units
Anywhere = tuple[list[tuple[float, float]], np.ndarray]  # grid points inside a province and their room

UNIT_HALF = pieces.UNIT_HALF  # half width and height of the box holding a drawn army or fleet
DISLODGED_OFFSET = pieces.DISLODGED_OFFSET
DOT_RADIUS = {home: r + pieces.CENTRE_DOT_OUTLINE / 2 for home, r in pieces.CENTRE_DOT_RADIUS.items()}  # with outline
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
    width = _text_width(text, size, italic)
    halo = HALO.get(size, 1.5)
    below = DESCENT * size if DESCENDERS & set(text) else 0.0
    return (x - width / 2 - halo, baseline - ASCENT * size - halo, x + width / 2 + halo, baseline + below + halo)


@functools.lru_cache(maxsize=4096)  # the placement asks for the same names' boxes thousands of times
def _text_width(text: str, size: float, italic: bool) -> float:
    table = OBLIQUE_EM if italic else BOLD_EM
    return sum(table.get(ch, DEFAULT_EM) for ch in text) * size * WIDTH_MARGIN


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


def dislodged_point(at: tuple[float, float]) -> tuple[float, float]:
    """Where the page draws a unit dislodged from ``at``."""
    return (round(at[0] + DISLODGED_OFFSET[0], 1), round(at[1] + DISLODGED_OFFSET[1], 1))


def unit_boxes(at: tuple[float, float]) -> list[Box]:
    """The unit spot at ``at`` and the dislodged unit's beside it."""
    return [unit_box(at), unit_box(dislodged_point(at))]


def _around(mark: pieces.Mark) -> Box:
    """The box a mark covers, around the point it is drawn beside."""
    (dx, dy), h = mark.offset, mark.half
    return (dx - h, dy - h, dx + h, dy + h)


def spot_marks(mg: MapGeometry, loc: str, variant: Any = None) -> list[pieces.Mark]:
    """The marks the page may draw beside a unit at ``loc`` (in ``variant``, by default the map's): an
    illegal order's "!" in every variant; in Cluster Diplomacy the unit's strength and its order's letter
    (research, transfer, mattermission), and beside a province's own spot (not a coast's) its site; with
    Coast-Running's protect order, the shield beside an army (a province's own spot)."""
    v = variant or mg.variant
    out = [pieces.ILLEGAL_MARK]
    if v.cluster is not None:
        out += [pieces.STRENGTH_BADGE, pieces.ORDER_BADGE]
        if "/" not in loc:
            out.append(pieces.SITE_DIAMOND)
    if v.options.protect_order and "/" not in loc:
        out.append(pieces.PROTECT_SHIELD)
    return out


def spot_parts(mg: MapGeometry, loc: str) -> list[Box]:
    """Everything the page may draw at the unit spot of ``loc``, in the map's variant or another drawn on
    its board (``mg.shared_with``), as boxes around the spot: the unit, the unit dislodged from there,
    and the marks beside the unit that do not lie inside one of those two (Cluster's site diamond)."""
    marks = [_around(m) for v in (mg.variant, *mg.shared_with) for m in spot_marks(mg, loc, v)]
    beside = [m for m in marks if not any(_inside(m, part) for part in UNIT_PARTS)]
    return [*UNIT_PARTS, *sorted(set(beside))]


def _inside(a: Box, b: Box) -> bool:
    return b[0] <= a[0] and b[1] <= a[1] and a[2] <= b[2] and a[3] <= b[3]


def _shift(parts: list[Box], at: tuple[float, float]) -> list[Box]:
    return [(at[0] + p[0], at[1] + p[1], at[0] + p[2], at[1] + p[3]) for p in parts]


def spot_boxes(mg: MapGeometry, loc: str, at: tuple[float, float]) -> list[Box]:
    """The boxes of :func:`spot_parts` with the spot at ``at``."""
    return _shift(spot_parts(mg, loc), at)


def ring_box(at: tuple[float, float], home: bool) -> Box:
    """The ring the page draws over the rim of a centre dot at ``at`` when the centre changed hands."""
    h = pieces.changed_ring_radius(home) + pieces.CHANGED_RING_STROKE / 2
    return (at[0] - h, at[1] - h, at[0] + h, at[1] + h)


def dot_box(at: tuple[float, float], home: bool) -> Box:
    r = DOT_RADIUS[home]
    return (at[0] - r, at[1] - r, at[0] + r, at[1] + r)


@dataclass(frozen=True)
class Item:
    what: str  # e.g. "name of London (lon)", "unit spot of St Petersburg north coast (stp/nc)"
    owner: str  # the province it belongs to
    box: Box
    kind: str = ""  # "unit", "dislodged", "dot", "coast label" or "name"
    loc: str = ""  # the province or coast it marks


def holds_units(mg: MapGeometry, pid: str) -> bool:
    """Whether a unit can ever stand in a province: not in an impassable one (Switzerland), whose
    ``data-unit`` point is its label's and is never drawn at."""
    return bool(mg.variant.provinces[pid].type != "impassable")


def unit_spots(mg: MapGeometry) -> Iterator[Item]:
    """Every place the page may draw a unit: each province's and each coast's unit spot, and the
    dislodged unit's spot beside each."""
    v = mg.variant
    for loc in sorted(mg.anchors):
        pid = loc.split("/")[0]
        if not holds_units(mg, pid):
            continue
        name = v.provinces[pid].name + (f" {loc.split('/')[1].upper()}" if "/" in loc else "")
        at = mg.anchors[loc]["unit"]
        unit, dislodged = unit_boxes(at)
        yield Item(f"unit spot of {name} ({loc})", pid, unit, "unit", loc)
        yield Item(f"dislodged-unit spot of {name} ({loc})", pid, dislodged, "dislodged", loc)
        for mark in spot_marks(mg, loc):
            yield Item(f"{mark.what} at {name} ({loc})", pid, _shift([_around(mark)], at)[0], "mark", loc)


def dots(mg: MapGeometry) -> Iterator[Item]:
    v = mg.variant
    homes = {c for p in v.powers.values() for c in p.home_centres}
    for pid in sorted(p for p in mg.anchors if "sc" in mg.anchors[p]):
        at = mg.anchors[pid]["sc"]
        yield Item(f"centre dot of {v.provinces[pid].name} ({pid})", pid, dot_box(at, pid in homes), "dot", pid)
        yield Item(f"changed-centre ring of {v.provinces[pid].name} ({pid})", pid, ring_box(at, pid in homes), "ring",
                   pid)


def disc_boxes(at: tuple[float, float], reach: float) -> list[Box]:
    """Three boxes whose union holds the disc of radius ``reach`` round ``at`` and little more: a wide
    one, a tall one and a square (each covers a third of the circle's arc)."""
    wide, square = reach / 2, reach * 3 ** 0.5 / 2
    return [(at[0] - a, at[1] - b, at[0] + a, at[1] + b) for a, b in ((reach, wide), (wide, reach), (square, square))]


def build_places(mg: MapGeometry) -> set[str]:
    """The centres where a unit may be built: the home centres and the powers' other build sites."""
    return {c for p in mg.variant.powers.values() for c in (*p.home_centres, *(s.province for s in p.build_sites))}


def rings(mg: MapGeometry) -> Iterator[Item]:
    """The rings the page draws round a unit for its order, round a dislodged unit and round a centre
    where a unit may be built, each as the boxes of the disc inside the ring's middle line."""
    v = mg.variant
    for loc in sorted(mg.anchors):
        pid = loc.split("/")[0]
        if not holds_units(mg, pid):
            continue
        at = mg.anchors[loc]["unit"]
        for ring, centre in ((pieces.ORDER_RING, at), (pieces.DISLODGED_RING, dislodged_point(at))):
            for box in disc_boxes(centre, ring.radius):
                yield Item(f"{ring.what} at {v.provinces[pid].name} ({loc})", pid, box, ring.what, loc)
    for pid in sorted(p for p in mg.anchors if "sc" in mg.anchors[p] and p in build_places(mg)):
        ring = pieces.BUILD_SITE_RING
        for box in disc_boxes(mg.anchors[pid]["sc"], ring.radius):
            yield Item(f"{ring.what} at {v.provinces[pid].name} ({pid})", pid, box, ring.what, pid)


def obstacles(mg: MapGeometry) -> Iterator[Item]:
    """Every unit spot (dislodged units' too), coast label and centre dot on the map."""
    yield from unit_spots(mg)
    for loc in sorted(p for p in mg.anchors if "/" in p):
        yield Item(f"coast label {loc}", loc.split("/")[0], coast_label_box(loc, mg.anchors[loc]["unit"]),
                   "coast label", loc)
    yield from dots(mg)


def names(mg: MapGeometry) -> Iterator[Item]:
    for pid in sorted(p for p in mg.anchors if "/" not in p):
        for box in name_boxes(mg, pid):
            yield Item(f"name of {mg.variant.provinces[pid].name} ({pid})", pid, box, "name", pid)


def boxes_meet(a: Box, b: Box) -> bool:
    """Whether boxes ``a`` and ``b`` (``(left, top, right, bottom)``) overlap; boxes that only touch do not."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _may_meet(a: Item, b: Item) -> bool:
    """Whether two marks may overlap by design: a unit and the unit dislodged from the same place (drawn
    half over it), the dislodged units of one province's places (a province holds one at a time), a
    mark beside a unit and the units and marks of the same province (one unit stands there at a time),
    and a centre dot and its ring. A mark never meets a dislodged unit, which stands beside the unit
    that dislodged it, and its marks, in a retreat phase."""
    kinds = {a.kind, b.kind}
    if a.loc == b.loc and kinds in ({"unit", "dislodged"}, {"dot", "ring"}):
        return True
    if a.owner == b.owner and "mark" in kinds and kinds <= {"unit", "mark"}:
        return True
    return a.owner == b.owner and kinds == {"dislodged"}


def overlaps(mg: MapGeometry) -> list[str]:
    """Every province name whose box meets a unit spot, a mark beside one, a coast label, a centre dot,
    its ring or another name, or another province's order ring, dislodged unit's ring or build-site
    ring; every leader line that crosses another province's name or marks; and every unit spot or mark
    that meets another unit spot, mark, centre dot or ring, as sentences."""
    named = list(names(mg))
    others = list(obstacles(mg))
    problems = []
    # every pair's test at once (boxes_meet on arrays), the pairs that meet then read in the order of the items
    names_meet, named_meet = _meeting(named, others), _meeting(named, named)
    for i, item in enumerate(named):
        hits = [others[j] for j in np.flatnonzero(names_meet[i])]
        hits += [named[j] for j in np.flatnonzero(named_meet[i]) if j > i]
        problems += [f"{item.what} overlaps {other.what}" for other in hits if other.what != item.what]
    seen = set()
    ringed = list(rings(mg))
    for r, i in zip(*np.nonzero(_meeting(ringed, named)), strict=True):
        ring, item = ringed[r], named[i]
        if item.owner != ring.owner and (ring.what, item.what) not in seen:
            seen.add((ring.what, item.what))
            problems.append(f"{item.what} is under the {ring.what}")
    crossed = others + named
    boxes = np.array([other.box for other in crossed]).reshape(-1, 4)
    for pid, line in sorted(mg.leaders.items()):
        name = mg.variant.provinces[pid].name
        for j in np.flatnonzero(_line_hits_each(line, boxes)):
            if crossed[j].owner != pid:
                problems.append(f"leader line of {name} ({pid}) crosses {crossed[j].what}")
    marks = [*unit_spots(mg), *dots(mg)]
    for i, k in zip(*np.nonzero(np.triu(_meeting(marks, marks), 1)), strict=True):
        if not _may_meet(marks[i], marks[k]):
            problems.append(f"{marks[i].what} overlaps {marks[k].what}")
    return problems


def _meeting(a: list[Item], b: list[Item]) -> np.ndarray:
    """For each item of ``a`` and each of ``b``, whether their boxes meet (:func:`boxes_meet`)."""
    x = np.array([item.box for item in a]).reshape(-1, 1, 4)
    y = np.array([item.box for item in b]).reshape(1, -1, 4)
    across = (x[..., 0] < y[..., 2]) & (y[..., 0] < x[..., 2])
    return np.asarray(across & (x[..., 1] < y[..., 3]) & (y[..., 1] < x[..., 3]))


class LabelCheckError(ValueError):
    """A province name or a unit is hidden; the message names every overlap."""


def check(mg: MapGeometry) -> None:
    problems = overlaps(mg)
    if problems:
        raise LabelCheckError(
            f"map of {mg.variant.id!r}: {len(problems)} overlaps hide a province name, a unit or a centre dot:\n  "
            + "\n  ".join(problems)
        )


GAP = 1.5  # clear space kept between a name and a unit or dot placed beside it
UNIT_ROOM = 10.0  # a unit point wants this much of its province around it
DOT_ROOM = 6.0
EDGE = 3.0  # how far inside its province a name's, unit's or dot's point stays at least
GRID = 3.0  # spacing of the candidate label points, SVG units
OUTSIDE_REACH = 24.0  # how far beside a province too small for its name the name may be written
OUTSIDE_AREA = 4 * (2 * UNIT_HALF[0]) * (2 * UNIT_HALF[1])  # a province smaller may have its name beside it
OUTSIDE_TRIES = 40  # unit points tried, best first, in a province too small for its name
DOWN, RIGHT, LEFT, UP = (0.0, 1.0), (1.0, 0.0), (-1.0, 0.0), (0.0, -1.0)
DIAGONALS = [(0.7, 0.7), (-0.7, 0.7), (0.7, -0.7), (-0.7, -0.7)]


def _hits(box: Box, boxes: np.ndarray) -> bool:
    if not len(boxes):
        return False
    across = (boxes[:, 0] < box[2]) & (box[0] < boxes[:, 2])
    return bool(np.any(across & (boxes[:, 1] < box[3]) & (box[1] < boxes[:, 3])))


SURE = 1e-6  # an overlap larger than rounding could make or undo, SVG units


def _surely_hit(around: list[Box], pts: np.ndarray, blocked: np.ndarray) -> Iterator[bool]:
    """For each point, in turn, whether one of the boxes ``around`` it (as at (0, 0)) overlaps one of
    ``blocked`` by more than SURE both ways, so that the box worked out at the point itself meets it
    too: a quick test that rules out most points before the exact one. Worked out a growing batch of
    points at a time, as the points are read."""
    shrunk = [(b[0] + SURE, b[1] + SURE, b[2] - SURE, b[3] - SURE) for b in around]
    start, size = 0, 16
    while start < len(pts):
        yield from (not clear for clear in _clear(pts[start:start + size], shrunk, blocked).tolist())
        start, size = start + size, size * 2


def union_box(boxes: list[Box]) -> Box:
    """The smallest box that holds every one of ``boxes``."""
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


UNIT_PARTS = [
    (-UNIT_HALF[0], -UNIT_HALF[1], UNIT_HALF[0], UNIT_HALF[1]),
    (DISLODGED_OFFSET[0] - UNIT_HALF[0], DISLODGED_OFFSET[1] - UNIT_HALF[1],
     DISLODGED_OFFSET[0] + UNIT_HALF[0], DISLODGED_OFFSET[1] + UNIT_HALF[1]),
]  # a unit spot and its dislodged unit's, around the spot


UNIT_RINGS = [*disc_boxes((0.0, 0.0), pieces.ORDER_RING.radius),
              *disc_boxes(DISLODGED_OFFSET, pieces.DISLODGED_RING.radius)]  # round a unit spot and its dislodged unit
DOT_RINGS = disc_boxes((0.0, 0.0), pieces.BUILD_SITE_RING.radius)  # round a centre dot where a unit may be built


def _dot_parts(home: bool) -> list[Box]:
    r = DOT_RADIUS[home]
    return [(-r, -r, r, r)]


@functools.lru_cache(maxsize=1024)  # the same few things' parts are tested tens of thousands of times
def _part_edges(parts: tuple[Box, ...]) -> tuple[Box, tuple[np.ndarray, ...]]:
    """The box that holds every one of ``parts``, and the parts' left, top, right and bottom edges, each
    shaped (1, parts, 1) for :func:`_clear`."""
    edges = np.array(parts)
    edges.setflags(write=False)
    return union_box(list(parts)), tuple(edges[None, :, k:k + 1] for k in range(4))


CLEAR_BATCH = 64  # points :func:`_clear` tests at once


def _clear(pts: np.ndarray, parts: list[Box], blocked: np.ndarray) -> np.ndarray:
    """For each point, whether the thing made of ``parts`` (boxes around the point) meets nothing blocked."""
    ok = np.ones(len(pts), dtype=bool)
    if not len(pts) or not parts:
        return ok
    reach, edges = _part_edges(tuple(parts))
    (lx, ly), (hx, hy) = pts.min(axis=0).tolist(), pts.max(axis=0).tolist()
    x0, y0, x1, y1 = blocked.T
    blocked = blocked[(x0 < hx + reach[2]) & (x1 > lx + reach[0]) & (y0 < hy + reach[3]) & (y1 > ly + reach[1])]
    if not len(blocked):
        return ok
    if len(pts) <= CLEAR_BATCH:
        return _meet_none(pts, edges, blocked)
    if len(blocked) > CLEAR_BATCH:
        # a band of rows at a time, each tested against only the boxes near it
        rows = np.argsort(pts[:, 1], kind="stable")
        for start in range(0, len(pts), CLEAR_BATCH):
            batch = rows[start:start + CLEAR_BATCH]
            ok[batch] = _clear(pts[batch], parts, blocked)
        return ok
    # only the points near the few boxes blocked can meet one
    x0, y0, x1, y1 = blocked.T
    xs, ys = pts[:, 0], pts[:, 1]
    near = np.flatnonzero((xs + reach[0] < x1.max()) & (xs + reach[2] > x0.min())
                          & (ys + reach[1] < y1.max()) & (ys + reach[3] > y0.min()))
    ok[near] = _meet_none(pts[near], edges, blocked)
    return ok


def _meet_none(pts: np.ndarray, edges: tuple[np.ndarray, ...], blocked: np.ndarray) -> np.ndarray:
    """For each point, whether the parts whose ``edges`` :func:`_part_edges` gives meet none of ``blocked``."""
    # each part's box (axis 1) at each point (axis 0) against each blocked box (axis 2), as boxes_meet tests two
    p0, p1, p2, p3 = edges
    x0, y0, x1, y1 = blocked.T
    xs, ys = pts[:, None, 0:1], pts[:, None, 1:2]
    meet = (xs + p0 < x1) & (x0 < xs + p2) & (ys + p1 < y1) & (y0 < ys + p3)
    return np.asarray(~meet.any(axis=(1, 2)))


@dataclass
class _Clearance:
    """What blocks a province's unit and dot points while its name is tried at one point after another:
    the boxes placed before it (``base``, and ``names``, the names among them), the same at every try,
    and, for each thing placed beside the name (its parts and its rings), which of the province's
    ``anywhere`` points (``grid``, with their ``room``) have room and are clear of them, worked out at
    the first try. A point is clear of all that is blocked at a try when it is clear of the base and of
    what the try adds: :func:`_clear` tests each point against each box on its own. ``near``: the
    points tried beside each name box with their room (:func:`_points_near`), the same in every round."""

    base: np.ndarray
    names: np.ndarray
    grid: np.ndarray
    room: np.ndarray
    near: dict[tuple[Any, ...], tuple[list[tuple[float, float]], np.ndarray, np.ndarray]]
    known: dict[tuple[tuple[Box, ...], tuple[Box, ...]], tuple[np.ndarray, ...]] = field(default_factory=dict)

    def open_points(self, parts: list[Box], rings: list[Box], added: np.ndarray) -> np.ndarray:
        """The indices of the grid points with EDGE of room at least where the thing made of ``parts``
        meets nothing of the base nor ``added``, and its ``rings`` no name."""
        key = (tuple(parts), tuple(rings))
        if key not in self.known:
            roomy = np.flatnonzero(self.room >= EDGE)
            pts = self.grid[roomy]
            known = roomy[_clear(pts, parts, self.base) & _clear(pts, rings, self.names)]
            across = np.argsort(self.grid[known, 0], kind="stable")
            self.known[key] = (known, self.grid[known], across, self.grid[known[across], 0])
        known, pts, across, xs = self.known[key]
        if not len(added) or not len(known):
            return known
        # a point further across from the added boxes than the thing reaches (a unit to spare for
        # rounding) meets none of them; xs: the points' x, in order across
        reach = _part_edges(tuple(parts))[0]
        lo, hi = np.searchsorted(xs, [added[:, 0].min() - reach[2] - 1.0, added[:, 2].max() - reach[0] + 1.0])
        near = across[lo:hi]
        ok = np.ones(len(known), dtype=bool)
        ok[near] = _clear(pts[near], parts, added)
        return np.asarray(known[ok])


def _points_near(shape: tuple[BaseGeometry, BaseGeometry], around: Box, reach: Box, up_first: bool,
                 prefer: tuple[float, float] | None) -> tuple[list[tuple[float, float]], np.ndarray, np.ndarray]:
    """The points to try for a thing reaching ``reach`` round its point just off the box ``around``:
    ``prefer`` if given, then those around the box in reading order (see :func:`_beside`); as a list and
    an array, with each one's room: its distance to ``shape``'s boundary (``shape[1]``) if it is inside
    the main part (``shape[0]``), else -1."""
    cx, cy = (around[0] + around[2]) / 2, (around[1] + around[3]) / 2
    order = [UP, RIGHT, LEFT, DOWN, *DIAGONALS[2:], *DIAGONALS[:2]] if up_first else [DOWN, RIGHT, LEFT, UP, *DIAGONALS]
    cands: list[tuple[float, float]] = [prefer] if prefer else []
    for extra in (GAP, GAP + 4, GAP + 9, GAP + 15):
        for dx, dy in order:
            # the distance along this direction at which the thing just clears the name on one axis
            tx = ((around[2] + extra - cx - reach[0]) / dx if dx > 0 else
                  (around[0] - extra - cx - reach[2]) / dx if dx < 0 else np.inf)
            ty = ((around[3] + extra - cy - reach[1]) / dy if dy > 0 else
                  (around[1] - extra - cy - reach[3]) / dy if dy < 0 else np.inf)
            t = max(min(tx, ty), 0.0)
            cands.append((round(cx + dx * t, 1), round(cy + dy * t, 1)))
    first = np.array(cands).reshape(-1, 2)
    near = shapely.points(first)
    inside = shapely.contains(shape[0], near)
    room = np.full(len(first), -1.0)
    room[inside] = shapely.distance(near[inside], shape[1])
    first.setflags(write=False)
    room.setflags(write=False)
    return cands, first, room


def _beside(shape: tuple[BaseGeometry, BaseGeometry], around: Box, parts: list[Box], need: float,
            blocked: np.ndarray, up_first: bool, prefer: tuple[float, float] | None, anywhere: Anywhere,
            rings: tuple[list[Box], np.ndarray], clearance: _Clearance, added: np.ndarray
            ) -> tuple[float, float] | None:
    """A point for a thing made of ``parts`` (boxes around the point) just off the box ``around`` (a
    name), meeting nothing ``blocked``, with the rings drawn round it (``rings``: their boxes around the
    point, and the other provinces' names they must not meet) clear too: ``prefer`` (the geo file's
    anchor) if it has ``need`` units of the province around it, else of the points around the name (in
    reading order) and the ``anywhere`` points the best trade of room (up to ``need``) against distance
    from the name, so a unit stays near its name rather than going to the roomiest corner; None if every
    one meets something (or has less than EDGE of room). ``blocked`` is ``clearance``'s base and
    ``added``; ``shape``: the province's main part and its boundary."""
    cx, cy = (around[0] + around[2]) / 2, (around[1] + around[3]) / 2
    key = (around, _part_edges(tuple(parts))[0], up_first, prefer)
    if key not in clearance.near:
        clearance.near[key] = _points_near(shape, around, key[1], up_first, prefer)
    cands, first, room = clearance.near[key]
    ring = len(cands)
    # only the points with EDGE of room may be chosen, so only they are tested
    room_near = np.full(ring, -np.inf)
    roomy = np.flatnonzero(room >= EDGE)
    roomy = roomy[_clear(first[roomy], parts, blocked)]
    roomy = roomy[_clear(first[roomy], *rings)]
    room_near[roomy] = room[roomy]
    if prefer and room_near[0] >= need:
        return prefer
    # of the grid, only the points that may be chosen (clear, with room) are scored
    open_points = clearance.open_points(parts, rings[0], added)
    pts = np.vstack([first, clearance.grid[open_points]])
    room = np.concatenate([room_near, clearance.room[open_points]])
    far = np.hypot(pts[:, 0] - cx, pts[:, 1] - cy)
    score = np.where(room >= EDGE, np.minimum(room, need) - NEAR_WEIGHT * far, -np.inf)
    best = int(np.argmax(score))
    if not np.isfinite(score[best]):
        return None
    return cands[best] if best < ring else anywhere[0][open_points[best - ring]]


def _label_candidates(area: BaseGeometry, start: tuple[float, float],
                      first: bool = True) -> list[tuple[float, float]]:
    """Label points to try: the preferred one, then points of a grid inside ``area``, nearest first."""
    x0, y0, x1, y1 = area.bounds
    across, down = np.arange(x0, x1, GRID), np.arange(y0, y1, GRID)
    col, row = (index.ravel() for index in np.meshgrid(np.arange(len(across)), np.arange(len(down))))
    inside = shapely.contains(area, shapely.points(across[col], down[row]))
    col, row = col[inside], row[inside]
    grid = np.column_stack([across[col], down[row]])
    d = np.hypot(grid[:, 0] - start[0], grid[:, 1] - start[1])
    order = np.lexsort((grid[:, 0], grid[:, 1], np.round(d, 3)))
    # each grid line's coordinate rounded once, not once per point on it
    xs = np.array([round(float(x), 1) for x in across])[col[order]].tolist()
    ys = np.array([round(float(y), 1) for y in down])[row[order]].tolist()
    return ([start] if first else []) + list(zip(xs, ys, strict=True))


NEAR_WEIGHT = 0.15  # a unit or dot point: the room (up to what it needs) one unit nearer its name is worth
OUTSIDE_AFTER = 2  # rounds without room after which a small province tries its name beside it first
NEIGHBOURS_OUTSIDE_AFTER = 3  # ... after which its small neighbours do too
INSIDE_RETRIES = 2  # rounds more, after one where all fit, to bring names beside their province inside
ROUNDS = 16  # placements tried, each with the provinces that found no room before placed first


def place(mg: MapGeometry) -> None:
    """Label, unit and centre-dot points for every province and a unit point for every coast, placed so
    that no name meets a unit spot, a coast label, a centre dot or another name, and no unit spot (nor
    the dislodged unit's beside it) meets another or a centre dot (what :func:`check` demands).
    Provinces are placed one by one (:func:`_place_in_order`), tightest first; the provinces that find
    no room among those placed before them are placed first in the next round (before those moved
    earlier); a small one that found no room twice tries its name beside it first, and after three
    times its small neighbours do too; after a round where all fit, the provinces whose names went
    beside them are placed first, for INSIDE_RETRIES rounds more at most; up to ROUNDS rounds. The round with
    the fewest provinces without room, then the fewest names beside, is kept, for :func:`check` to
    report. Deterministic."""
    overrides = mg.geo.get("anchors", {})
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
    first: list[str] = []
    outside_first: set[str] = set()
    misses: dict[str, int] = {}  # rounds in which each province found no room
    memo: dict[str, Any] = {}
    best: tuple[tuple[int, int], Any] | None = None
    tried_first: set[str] = set()  # names that went beside their province, placed first once since
    retries = INSIDE_RETRIES
    for _ in range(ROUNDS):
        order = first + sorted((q for q in mg.shapes if q not in first), key=lambda q: (mg.label_room[q], q))
        mg.anchors.clear()
        for marked in (mg.small_labels, mg.sea_names, mg.outside_labels):
            marked.clear()
        mg.leaders.clear()
        failed = _place_in_order(mg, order, starts, mains, outside_first, memo)
        score = (len(failed), len(mg.outside_labels))
        if best is None or score < best[0]:
            best = (score, copy.deepcopy((mg.anchors, mg.small_labels, mg.sea_names, mg.outside_labels, mg.leaders)))
        if best[0][0] == 0:  # a round has fitted every province: INSIDE_RETRIES rounds more at most
            if retries == 0:
                break
            retries -= 1
        if not failed:
            # names that went beside their province for want of room among their neighbours: placed
            # first, before those neighbours, they may fit inside
            beside = sorted(mg.outside_labels - outside_first - tried_first)
            if not beside:
                break
            tried_first |= set(beside)
            first = beside + [pid for pid in first if pid not in beside]
            continue
        first = failed + [pid for pid in first if pid not in failed]
        for pid in failed:
            misses[pid] = misses.get(pid, 0) + 1
        # a small province that found no room twice tries its name beside it; three times, its small
        # neighbours do too
        again = {pid for pid in failed if misses[pid] >= OUTSIDE_AFTER}
        again |= {q for pair in mg.borders for q in pair
                  if set(pair) & {p for p in failed if misses[p] >= NEIGHBOURS_OUTSIDE_AFTER}}
        outside_first |= {pid for pid in again if mg.shapes[pid].area < OUTSIDE_AREA}
    assert best is not None
    mg.anchors, mg.small_labels, mg.sea_names, mg.outside_labels, mg.leaders = best[1]


def _place_in_order(mg: MapGeometry, order: list[str], starts: dict[str, tuple[float, float]],
                    mains: dict[str, BaseGeometry], outside_first: set[str], memo: dict[str, Any]) -> list[str]:
    """Place the provinces in ``order``, each against everything placed before it: its name goes at its
    start point (its pole of inaccessibility or the geo file's ``anchors`` point) or the nearest point
    of a grid from which the name's box stays inside the province and its unit, dot and coasts fit
    beside it clear of everything placed before and inside the map; failing that with its sea name
    dropped, then in the smaller size, then with the name's box allowed over the province's edge; a
    small province (under OUTSIDE_AREA) where nothing fits, an island smaller than a unit, has its name
    beside it (:func:`_outside`), and so has a province in ``outside_first`` if it can. A province that fits
    nowhere is left at its start point; the list of those is returned. ``memo`` keeps each province's
    candidate points from one round to the next."""
    v = mg.variant
    overrides = mg.geo.get("anchors", {})
    homes = {c for p in v.powers.values() for c in p.home_centres}
    builds = build_places(mg)
    names_placed: list[Box] = []
    marks_placed: list[Box] = []  # unit spots, dislodged units' spots, coast labels and centre dots
    rings_placed: list[Box] = []  # the rings round them, which only names must keep clear of
    big = 1e5  # everything outside the map is blocked for units and dots
    frame: list[Box] = [(-big, -big, 0.0, big), (mg.width, -big, big, big), (-big, -big, big, 0.0),
                        (-big, mg.svg_height, big, big)]
    # coasts the geo file places are fixed before any name
    fixed = set()
    for loc, lonlat in sorted(mg.geo.get("coasts", {}).items()):
        pid = loc.split("/")[0]
        if pid in mg.shapes and loc.split("/")[1] in v.provinces[pid].coasts:
            u, vv = mg.proj.point(lonlat)
            mg.anchors[loc] = {"unit": (round(u, 1), round(vv, 1))}
            at = mg.anchors[loc]["unit"]
            marks_placed += [*spot_boxes(mg, loc, at), coast_label_box(loc, at)]
            rings_placed += _shift(UNIT_RINGS, at)
            fixed.add(loc)
    failed = []
    later = set(order)
    bounds = {q: mg.shapes[q].bounds for q in order}
    for pid in order:
        later.discard(pid)
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
        names_arr = np.array(names_placed).reshape(-1, 4)
        marks_arr = np.array(marks_placed).reshape(-1, 4)
        rings_arr = np.array(rings_placed).reshape(-1, 4)
        blocked = np.vstack([names_arr, marks_arr, np.array(frame)])
        if pid not in memo:
            cands = _label_candidates(main, starts[pid])
            grid = cands[1:]
            near = shapely.distance(shapely.points(np.array(grid).reshape(-1, 2)), main.boundary)
            shores = {loc: _shore_points(mg, pid, loc, (grid, near)) for loc in _free_coasts(prov, fixed)}
            # a name's point stays a little inside its province, off its border
            cands = cands[:1] + [q for q, r in zip(grid, near, strict=True) if r >= EDGE]
            # (not prepared, nor is main: GEOS's prepared tests answer otherwise for a few boxes)
            memo[pid] = {"cands": cands, "anywhere": (grid, near), "inner": main.buffer(1.0), "shores": shores,
                         "edge": main.boundary,
                         "grid": np.array(grid).reshape(-1, 2), "cands_arr": np.array(cands).reshape(-1, 2),
                         "near": {}, "held": {}, "covered": {}}
        cands, anywhere, inner, shores = (memo[pid][k] for k in ("cands", "anywhere", "inner", "shores"))
        clearance = _Clearance(blocked, names_arr, memo[pid]["grid"], anywhere[1], memo[pid]["near"])
        taken = np.vstack([names_arr, marks_arr, rings_arr])
        chosen = None
        # the name's points (and styles) where its unit, dot and coasts found no room: what is placed
        # before it is the same when the name's box may go over the edge, so they find none there either
        no_room: set[tuple[bool, bool, tuple[float, float]]] = set()
        if pid in outside_first:
            chosen = _outside(mg, pid, starts[pid], blocked, names_arr, rings_arr, over, homes, anywhere, shores, later,
                              memo[pid])
        for strict in (True, False):
            if chosen:
                break
            for small, sea_name in styles:
                mg.small_labels.discard(pid)
                mg.sea_names.discard(pid)
                if small:
                    mg.small_labels.add(pid)
                if sea_name:
                    mg.sea_names.add(pid)
                fits = []
                tries = CHOICES if mg.shapes[pid].area < CHOOSE_AREA else 1
                surely = _surely_hit(name_boxes(mg, pid, (0.0, 0.0)), memo[pid]["cands_arr"], taken)
                for at, hit in zip(cands, surely, strict=True):
                    if hit or (small, sea_name, at) in no_room:
                        continue
                    boxes = name_boxes(mg, pid, at)
                    if any(_hits(b, taken) for b in boxes):
                        continue
                    if strict and not _holds(inner, boxes[0], memo[pid]["held"]):
                        continue
                    found = _fit_beside(mg, pid, (main, memo[pid]["edge"]), at, boxes, clearance, over, homes,
                                        anywhere, shores)
                    if found is None:
                        no_room.add((small, sea_name, at))
                        continue
                    fits.append((at, found))
                    if len(fits) >= tries:
                        break
                if fits:
                    chosen = min(fits, key=lambda fit: _room_taken(mg, pid, fit[0], fit[1], later, homes, bounds,
                                                                   memo[pid]["covered"]))
                    break
        if chosen is None and pid not in outside_first and mg.shapes[pid].area < OUTSIDE_AREA:
            chosen = _outside(mg, pid, starts[pid], blocked, names_arr, rings_arr, over, homes, anywhere, shores, later,
                              memo[pid])
        if chosen is None:
            # nothing fits: the first style at the preferred point, for check() to report
            failed.append(pid)
            mg.small_labels.discard(pid)
            mg.sea_names.discard(pid)
            at = starts[pid]
            found = {"unit": over.get("unit", at)}
            if prov.centre:
                found["sc"] = over.get("sc", at)
            mg.anchors[pid] = {"label": at}
            for loc in shores:
                found[loc] = layout.coast_point(mg, pid, loc)
            chosen = (at, found)
        at, pts = chosen
        mg.anchors[pid] = {"label": at, **{k: val for k, val in pts.items() if "/" not in k}}
        for loc, val in pts.items():
            if "/" in loc:
                mg.anchors[loc] = {"unit": val}
        names_placed += name_boxes(mg, pid)
        for loc, val in pts.items():
            if (loc == "unit" and holds_units(mg, pid)) or "/" in loc:
                marks_placed += spot_boxes(mg, pid if loc == "unit" else loc, val)
                rings_placed += _shift(UNIT_RINGS, val)
            if "/" in loc:
                marks_placed.append(coast_label_box(loc, val))
            if loc == "sc":
                marks_placed.append(dot_box(val, pid in homes))
                if pid in builds:
                    rings_placed += _shift(DOT_RINGS, val)
    return failed


def _holds(inner: BaseGeometry, box: Box, held: dict[Box, bool]) -> bool:
    """Whether ``inner`` holds ``box``, kept in ``held`` (the same boxes are asked of it round after round)."""
    if box not in held:
        held[box] = bool(inner.contains(shapely.box(*box)))
    return held[box]


CHOOSE_AREA = 5000.0  # a province smaller than this chooses among several places for its name and unit
CHOICES = 40  # ... among this many, the first that fit (nearest its start point first)


def _room_taken(mg: MapGeometry, pid: str, at: tuple[float, float], pts: dict[str, tuple[float, float]],
                later: set[str], homes: set[str], bounds: dict[str, Box],
                covered: dict[tuple[Box, ...], tuple[BaseGeometry, Box, dict[str, float | None]]]) -> float:
    """How much of the land provinces placed ``later`` a province's name at ``at`` and its unit,
    dislodged unit, centre dot and coasts at ``pts`` cover: the shares of each, added up (a small share
    of a small neighbour counts as much as a large share of a large one). ``bounds``: each province's
    bounding box. ``covered`` keeps, for the boxes of each placing asked about, what they cover and
    their share of each province (None where they do not meet it), from one round to the next."""
    boxes = list(name_boxes(mg, pid, at))
    for loc, val in pts.items():
        if loc == "sc":
            boxes.append(dot_box(val, pid in homes))
        elif loc == "unit" or "/" in loc:
            boxes += _shift(UNIT_PARTS, val)
    key = tuple(boxes)
    if key not in covered:
        covers = shapely.union_all(shapely.box(*np.array(boxes).T))
        covered[key] = (covers, covers.bounds, {})
    covers, (x0, y0, x1, y1), shares = covered[key]
    total = 0.0
    for other in later:
        shape = mg.shapes[other]
        if mg.variant.provinces[other].type == "sea":
            continue
        sx0, sy0, sx1, sy1 = bounds[other]
        if sx1 < x0 or x1 < sx0 or sy1 < y0 or y1 < sy0:
            continue  # (apart: their bounding boxes are)
        if other not in shares:
            meets = shape.intersects(covers)
            shares[other] = shapely.area(shapely.intersection(covers, shape)) / shape.area if meets else None
        share = shares[other]
        if share is not None:
            total += share
    return round(total, 3)


def _free_coasts(prov: Any, fixed: set[str]) -> list[str]:
    """The coasts of a province whose unit points are placed here (not given by the geo file)."""
    return [f"{prov.id}/{c}" for c in prov.coasts if f"{prov.id}/{c}" not in fixed]


COAST_REACH = 24.0  # how far from its shoreline a coast's unit point may be moved


def _shore_points(mg: MapGeometry, pid: str, loc: str, anywhere: Anywhere) -> np.ndarray:
    """The grid points of a province within COAST_REACH of a coast's shoreline: where its unit point may
    go when the one beside the middle of the shoreline is taken."""
    shore = layout.coast_shore(mg, pid, loc)
    pts = np.array(anywhere[0]).reshape(-1, 2)
    if shore is None or not len(pts):
        return pts
    near = shapely.distance(shapely.points(pts), shore) <= COAST_REACH
    return np.asarray(pts[near & (anywhere[1] >= EDGE)])


def _place_coasts(mg: MapGeometry, pid: str, blocked: np.ndarray, names: np.ndarray,
                  shores: dict[str, np.ndarray]) -> dict[str, tuple[float, float]] | None:
    """Unit points for the coasts in ``shores``: each the point beside the middle of its shoreline, or
    else the nearest to it of its shore points, clear of everything ``blocked`` and of the coasts placed
    before, its rings clear of the other provinces' ``names``; None if one does not fit. (The
    province's label point must be in ``mg.anchors``.)"""
    out: dict[str, tuple[float, float]] = {}
    for loc, near in shores.items():
        first = layout.coast_point(mg, pid, loc)
        pts = np.vstack([np.array([first]), near])
        d = np.hypot(pts[:, 0] - first[0], pts[:, 1] - first[1])
        pts = pts[np.lexsort((pts[:, 0], pts[:, 1], np.round(d, 3)))]
        clear = _clear(pts, spot_parts(mg, loc), blocked) & _clear(pts, UNIT_RINGS, names)
        if not clear.any():
            return None
        x, y = pts[int(np.argmax(clear))]
        out[loc] = (round(float(x), 1), round(float(y), 1))
        blocked = np.vstack([blocked, np.array(spot_boxes(mg, loc, out[loc]))])
    return out


def _land_taken(mg: MapGeometry, pid: str, pts: np.ndarray, later: set[str]) -> np.ndarray:
    """For each unit point, the shares of the land provinces placed ``later`` its unit spot and the
    dislodged unit's spot cover, added up."""
    spots = [shapely.box(pts[:, 0] + part[0], pts[:, 1] + part[1], pts[:, 0] + part[2], pts[:, 1] + part[3])
             for part in UNIT_PARTS]
    covers = shapely.union(*spots) if len(pts) else np.array([])
    out = np.zeros(len(pts))
    if not len(pts):
        return out
    reach = shapely.box(*shapely.total_bounds(covers))
    for other, shape in mg.shapes.items():
        if other in later and mg.variant.provinces[other].type != "sea" and shape.intersects(reach):
            out += shapely.area(shapely.intersection(covers, shape)) / shape.area
    return out


def _outside(mg: MapGeometry, pid: str, start: tuple[float, float], blocked: np.ndarray, names: np.ndarray,
             rings: np.ndarray, over: dict[str, tuple[float, float]], homes: set[str], anywhere: Anywhere,
             shores: dict[str, np.ndarray], later: set[str], memo: dict[str, Any]
             ) -> tuple[tuple[float, float], dict[str, tuple[float, float]]] | None:
    """For a province too small to hold its unit and its name (an island): the unit at its middle (or
    the roomiest point where it is clear of everything), the centre dot inside it as far from the unit as
    it goes, and the name, in the smaller size, just beside the province (nearest first), clear of
    everything."""
    prov = mg.variant.provinces[pid]
    mg.small_labels.add(pid)
    mg.sea_names.discard(pid)
    first = over.get("unit", start)
    cands = np.array([first, *anywhere[0]])
    room = np.concatenate([[np.inf], anywhere[1]])
    edge = min(EDGE, 0.4 * float(np.max(anywhere[1], initial=0.0)))  # (an island may be narrower)
    clear = _clear(cands, spot_parts(mg, pid), blocked) & _clear(cands, UNIT_RINGS, names) & (room >= edge)
    cands, room = cands[clear], room[clear]
    # the unit takes as little of the neighbouring land as it can (a small share of a small province
    # counts as much as a large share of a large one), then the most room
    taken = _land_taken(mg, pid, cands, later)
    cands = cands[np.lexsort((cands[:, 0], cands[:, 1], -np.round(room, 1), np.round(taken, 2)))][:OUTSIDE_TRIES]
    inside = [q for q, r in zip(*anywhere, strict=True) if r >= edge]
    home = pid in homes
    pts: dict[str, tuple[float, float]] = {} if holds_units(mg, pid) else {"unit": start}
    own: list[Box] = []
    for x, y in ([] if pts else cands):
        unit = (round(float(x), 1), round(float(y), 1))
        own = spot_boxes(mg, pid, unit)
        if not prov.centre:
            pts = {"unit": unit}
            break
        # the farthest from the unit of the points inside the province that is clear of everything
        far = sorted(inside, key=lambda q: (-round((q[0] - unit[0]) ** 2 + (q[1] - unit[1]) ** 2, 1), q))
        spots = np.array(far).reshape(-1, 2)
        ok = _clear(spots, _dot_parts(home), np.vstack([blocked, np.array(own).reshape(-1, 4)]))
        ok &= _clear(spots, DOT_RINGS if pid in build_places(mg) else [], names)
        if ok.any():
            sx, sy = spots[int(np.argmax(ok))]
            pts = {"unit": unit, "sc": (round(float(sx), 1), round(float(sy), 1))}
            own.append(dot_box(pts["sc"], home))
            break
    if not pts:
        return None
    mg.anchors[pid] = {"label": start}
    coasts = _place_coasts(mg, pid, np.vstack([blocked, np.array(own).reshape(-1, 4)]), names, shores)
    if coasts is None:
        return None
    for loc, val in coasts.items():
        pts[loc] = val
        own += [*spot_boxes(mg, loc, val), coast_label_box(loc, val)]
    if "ring" not in memo:
        ring = shapely.difference(mg.shapes[pid].buffer(OUTSIDE_REACH), mg.shapes[pid])
        memo["ring"] = _label_candidates(ring, start, first=False)
    taken = np.vstack([blocked, rings, np.array(own).reshape(-1, 4)])
    for at in memo["ring"]:
        boxes = name_boxes(mg, pid, at)
        if any(_hits(b, taken) for b in boxes):
            continue
        line = leader(mg, pid, at)
        if _line_hits(line, blocked):
            continue
        mg.outside_labels.add(pid)
        mg.leaders[pid] = line
        return at, pts
    return None


LEADER_WIDTH = 1.2  # the leader line's stroke (svg.py), kept clear of everything but its own province's
LEADER_DEPTH = 3.0  # how far inside its province a leader line ends
LEADER_LENGTH = 4.0  # how long a leader line is at least, where its province has room


def leader(mg: MapGeometry, pid: str, at: tuple[float, float]
           ) -> tuple[tuple[float, float], tuple[float, float]]:
    """The leader line from a name written at ``at`` beside its province into the province: from the
    edge of the name's box to the point LEADER_DEPTH inside the province (nearer its shore where it is
    too narrow for that) and at least LEADER_LENGTH from the box, nearest the box."""
    shape = mg.shapes[pid]
    box = shapely.box(*union_box(name_boxes(mg, pid, at)))
    target = shape
    for depth, length in ((LEADER_DEPTH, LEADER_LENGTH), (1.0, LEADER_LENGTH), (1.0, 0.5), (0.0, 0.5)):
        inner = shape.buffer(-depth).difference(box.buffer(length))
        if not inner.is_empty:
            target = inner
            break
    end = nearest_points(target, box)[0]
    start = nearest_points(box.exterior, end)[0]
    return (round(start.x, 1), round(start.y, 1)), (round(end.x, 1), round(end.y, 1))


def _line_hits(line: tuple[tuple[float, float], tuple[float, float]], boxes: np.ndarray) -> bool:
    """Whether a leader line, with its stroke, meets any of ``boxes``."""
    return bool(np.any(_line_hits_each(line, boxes)))


def _line_hits_each(line: tuple[tuple[float, float], tuple[float, float]], boxes: np.ndarray) -> np.ndarray:
    """For each of ``boxes``, whether a leader line, with its stroke, meets it."""
    out = np.zeros(len(boxes), dtype=bool)
    if not len(boxes):
        return out
    stroke = shapely.LineString(line).buffer(LEADER_WIDTH / 2, cap_style="flat")
    x0, y0, x1, y1 = stroke.bounds
    near = (boxes[:, 0] < x1) & (x0 < boxes[:, 2]) & (boxes[:, 1] < y1) & (y0 < boxes[:, 3])
    if near.any():
        out[near] = shapely.intersects(stroke, shapely.box(*boxes[near].T))
    return out


def _fit_beside(mg: MapGeometry, pid: str, main: tuple[BaseGeometry, BaseGeometry], at: tuple[float, float],
                boxes: list[Box], clearance: _Clearance, over: dict[str, tuple[float, float]], homes: set[str],
                anywhere: Anywhere, shores: dict[str, np.ndarray]) -> dict[str, tuple[float, float]] | None:
    """The unit point, centre dot and coast points of a province whose name is at ``at``, each clear of
    the name, of one another and of everything blocked (``clearance``); None if one does not fit.
    ``main``: the province's main part and its boundary."""
    prov = mg.variant.provinces[pid]
    around = union_box(boxes)
    out: dict[str, tuple[float, float]] = {}
    names = clearance.names
    added = np.array(boxes).reshape(-1, 4)
    blocked = np.vstack([clearance.base, added])
    if not holds_units(mg, pid):
        return {"unit": at}
    parts = spot_parts(mg, pid)
    unit = _beside(main, around, parts, UNIT_ROOM, blocked, prov.type == "sea", over.get("unit"), anywhere,
                   (UNIT_RINGS, names), clearance, added)
    if unit is None:
        return None
    out["unit"] = unit
    added = np.vstack([added, np.array(spot_boxes(mg, pid, unit))])
    blocked = np.vstack([clearance.base, added])
    if prov.centre:
        home = pid in homes
        sc = _beside(main, around, _dot_parts(home), DOT_ROOM, blocked, False, over.get("sc"), anywhere,
                     (DOT_RINGS if pid in build_places(mg) else [], names), clearance, added)
        if sc is None:
            return None
        out["sc"] = sc
        blocked = np.vstack([blocked, np.array([dot_box(sc, home)])])
    mg.anchors[pid] = {"label": at}
    coasts = _place_coasts(mg, pid, blocked, names, shores)
    if coasts is None:
        return None
    return {**out, **coasts}
