"""Which of the map's buttons an arrow key goes to: the nearest one that way, as on any map.

Pure (no browser): the page (adjutant_ui.app) passes the buttons' centres in map coordinates (x to the
right, y down, as in the SVG) in its arrow-key list order; tests/test_ui_compass.py tests it under CPython.

A point lies that way when it is within 45 degrees either side of the arrow's axis (on the cone's edge
counts). Of those, the one with the least ``distance + OFF_AXIS_WEIGHT * offset`` is chosen, where
``offset`` is how far it lies off the axis: a point straight ahead is preferred to a nearer one well to
the side (on the Standard map, Right from Paris goes to Munich, Up to London). Equal scores go to the
earlier point in list order.

With nothing in the cone, the same score picks among the points anywhere on that side of the focused one
(ahead along the axis at all): without it a point could be reached by no arrow at all, when from each
neighbour it lies just inside one cone, whose arrow prefers a point straight ahead, and just outside the
next, which is otherwise empty. With nothing on that side either (or the focused button placed nowhere)
the focus stays: the map's edge is a wall, as in a grid, rather than a jump to the far side.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: each arrow key's direction, in map coordinates (y grows downwards)
DIRECTIONS: dict[str, tuple[int, int]] = {
    "ArrowRight": (1, 0),
    "ArrowLeft": (-1, 0),
    "ArrowDown": (0, 1),
    "ArrowUp": (0, -1),
}
#: how much a unit of distance off the arrow's axis counts against a point, beside its distance. Half:
#: enough for straight ahead to win over a little nearer off to the side, while on every variant's map
#: the arrows still lead from any set of places to each of them (at 1, a place now and then lies where
#: every neighbour's arrow prefers another: tests/browser/test_order_entry.py checks the built maps)
OFF_AXIS_WEIGHT = 0.5

Point = tuple[float, float]


def nearest_towards(points: Sequence[Point | None], here: int, key: str) -> int | None:
    """The index in ``points`` that arrow ``key`` goes to from ``points[here]``, or None to stay there.

    ``points`` holds each button's centre (None for one that is not drawn: it is never chosen); a point
    at the same place as ``here`` lies in no direction. An unknown ``key`` goes nowhere.
    """
    direction = DIRECTIONS.get(key)
    if direction is None or not 0 <= here < len(points):
        return None
    start = points[here]
    if start is None:
        return None
    ux, uy = direction
    # (outside the cone, score): any point in the cone beats every one outside it
    best: tuple[tuple[bool, float], int] | None = None
    for index, point in enumerate(points):
        if point is None or index == here:
            continue
        dx, dy = point[0] - start[0], point[1] - start[1]
        along = dx * ux + dy * uy
        if along <= 0:
            continue
        offset = abs(dx * uy - dy * ux)
        rank = (offset > along, math.hypot(dx, dy) + OFF_AXIS_WEIGHT * offset)
        if best is None or rank < best[0]:
            best = (rank, index)
    return None if best is None else best[1]
