"""The size of the pieces drawn on a map, in SVG units: read by the page, which draws them
(adjutant_ui.board, and web/shell.js through the map's ``data-unit-sizes``), and by the renderer, which
places every unit spot, centre dot and name so that none hides another (adjutant_maps.labels). All read
them from here, so they never disagree.
"""

from __future__ import annotations

#: an army: a circle of this radius
ARMY_RADIUS = 11.0
#: a fleet: a rounded rectangle this wide and high
FLEET_SIZE = (26.0, 18.0)
#: the width of a unit's outline
UNIT_OUTLINE = 1.6
#: where a dislodged unit is drawn, from the place it stood (down and to the right, half over it)
DISLODGED_OFFSET = (16.0, 14.0)
#: half the width and height of the box that holds either unit with its outline
UNIT_HALF = (
    max(ARMY_RADIUS, FLEET_SIZE[0] / 2) + UNIT_OUTLINE / 2,
    max(ARMY_RADIUS, FLEET_SIZE[1] / 2) + UNIT_OUTLINE / 2,
)


def as_json() -> dict[str, object]:
    """The sizes as the renderer writes them on the map (``data-unit-sizes``), for the page's shell,
    which paints a saved position before Python starts."""
    return {"army_radius": ARMY_RADIUS, "fleet": list(FLEET_SIZE), "dislodged": list(DISLODGED_OFFSET)}
