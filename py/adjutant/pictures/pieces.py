"""The size of the pieces drawn on a map, in SVG units: read by the drawing of a position
(adjutant.pictures.drawing: the page's board, its early paint and every picture of the board), and by the renderer,
which places every unit spot, centre dot and name so that none hides another (adjutant_maps.labels). All read
them from here, so they never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

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



#: The marks the page draws beside a unit, each a circle, diamond or shield centred ``offset`` from the
#: unit's point with this ``radius`` (half a diamond's width; half the side of the square holding a
#: shield) and ``outline`` (its stroke's width, adjutant.pictures.drawing.STYLE).
#: Each lies inside the box held free for a unit and the unit dislodged from it (UNIT_HALF around the
#: point, the same box moved by DISLODGED_OFFSET) or, the site diamond, beside them, where the renderer
#: keeps room for it too; the renderer's check covers each mark, and keeps the marks other than those on
#: a unit's corners clear of the dislodged unit.
@dataclass(frozen=True)
class Mark:
    what: str
    offset: tuple[float, float]
    radius: float
    outline: float

    @property
    def half(self) -> float:
        """Half the width and height of the box holding the mark, outline included."""
        return self.radius + self.outline / 2


#: a unit's strength in Cluster Diplomacy ("3", "2" or "M"), on the unit's upper left corner
STRENGTH_BADGE = Mark("strength badge", (-8.2, -6.2), 5.0, 1.2)
#: the "!" on the upper right corner of a unit whose illegal order was kept (it will hold)
ILLEGAL_MARK = Mark("illegal-order mark", (7.8, -5.8), 5.0, 2.0)
#: a Site of the Ancients' level in Cluster Diplomacy, a diamond below the province's unit spot and left
#: of where a dislodged unit would stand, clear of both (in the corner of the room kept for the two)
SITE_DIAMOND = Mark("site diamond", (-6.0, 19.5), 7.0, 1.4)
#: the letter of a Cluster order that is not a move (R research, T transfer, M mattermission), on the
#: unit's lower left corner (the dislodged unit takes the lower right)
ORDER_BADGE = Mark("order badge", (-7.8, 5.8), 5.0, 2.0)
#: the shield of Coast-Running's protect order, on the protecting army's lower left corner
PROTECT_SHIELD = Mark("protect shield", (-7.0, 5.0), 6.0, 1.5)
#: a supply centre's dot: a circle of this radius (home centre, other centre) with this outline
CENTRE_DOT_RADIUS = {True: 5.5, False: 4.5}
CENTRE_DOT_OUTLINE = 1.6
#: a centre that changed hands: a solid dark rim this wide over the dot's rim (its left half in the old owner's colour),
#: inside the box held free for the dot
CHANGED_RING_STROKE = 2.4


#: A ring the page draws round a unit for its order (hold, research, build; a supported hold's ring is
#: smaller), round a dislodged unit, and round a centre where a unit may be built: ``radius`` from the
#: point it is drawn round, ``stroke`` wide (adjutant.pictures.drawing.STYLE). A name's box holds its halo (as wide as
#: half a ring's stroke): a ring's middle line keeps out of other provinces' names' boxes, so its stroke may
#: cross a halo but never a letter. The stand-off star (13 at most from the unit's point) lies inside
#: the order ring.
@dataclass(frozen=True)
class Ring:
    what: str
    radius: float
    stroke: float

    @property
    def reach(self) -> float:
        """How far from its point the ring's stroke reaches."""
        return self.radius + self.stroke / 2


ORDER_RING = Ring("order ring", ARMY_RADIUS + 5, 3.0)
DISLODGED_RING = Ring("dislodged ring", ARMY_RADIUS + 5, 2.5)
BUILD_SITE_RING = Ring("build-site ring", 14.0, 3.0)


def changed_ring_radius(home: bool) -> float:
    """The radius of the ring over the rim of a (home) centre's dot that changed hands."""
    return CENTRE_DOT_RADIUS[home] + CENTRE_DOT_OUTLINE / 2 - CHANGED_RING_STROKE / 2

