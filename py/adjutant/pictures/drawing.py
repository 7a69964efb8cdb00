"""The one drawing of a position: a :class:`~adjutant.pictures.scene.Scene` as the SVG elements drawn over the
variant's map, like python-chess's ``chess.svg.board``. Pure Python, standard library only: the page
builds its board from these elements (``adjutant_ui.board``, patching only what changed), the page's shell
paints a saved position from their text before Python is ready, and the command line and the page's
"Download the board" write them over the map as one SVG file (:func:`board_svg`).

The map (built by ``adjutant_maps``) gives the places: each location's unit point (``data-unit``), each
centre's dot (``data-sc``), the powers' colours (``data-power-colours``); :meth:`MapPoints.from_svg` reads
them from the map's text, the page from the map in the page. The pieces' look is :data:`STYLE`, which the
renderer writes into every map's stylesheet, so the page, the shell and a file all draw with it.

>>> from adjutant.game import Game
>>> from adjutant.pictures.scene import scene
>>> points = MapPoints({"par": (10.0, 20.0), "bur": (60.0, 20.0)}, {}, {"france": "#2255aa"})
>>> game = Game.new("standard")
>>> _ = game.add_orders("A Par - Bur")
>>> svg = to_svg(Drawing(game.variant, points).overlay(scene(game)))
>>> svg.count('class="adj-order move"'), svg.count('class="adj-unit-body"')
(1, 1)
"""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Generator, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..adjudication.orders import format_order
from ..errors import AdjutantError
from ..formats import report
from ..formats.limits import without_bidi_controls
from ..steps import run_to_end
from . import pieces
from .scene import PhaseMarks, Scene, Shape, results_record

if TYPE_CHECKING:
    from ..adjudication.orders import Unit
    from ..game import Game, Position
    from ..map.variant import Variant

SVG_NS = "http://www.w3.org/2000/svg"
#: the look of every piece drawn over a map; the renderer writes it into each map's stylesheet
STYLE = """.adj-site.level-1 .adj-site-body { fill: #c9c2b3; }
.adj-site.level-2 .adj-site-body { fill: #f2c14e; }
.adj-site.level-3 .adj-site-body { fill: #d1495b; }
.adj-unit-body { stroke: #111; stroke-width: 1.6; }
.adj-unit-letter { font: bold 13px system-ui, sans-serif; fill: #fff; text-anchor: middle;
 pointer-events: none; paint-order: stroke; stroke: #000; stroke-width: 2.5px; }
.adj-unit.dislodged .adj-unit-body { stroke: #b3261e; stroke-width: 3; stroke-dasharray: 3 2; }
.adj-orders { pointer-events: none; }
.adj-line { stroke-width: 4; stroke-linecap: round; fill: none; }
.adj-line.head { stroke: none; }
.adj-line.dashed { stroke-dasharray: 8 5; stroke-width: 3; }
.adj-line.dotted { stroke-dasharray: 2 5; stroke-width: 3; }
.adj-ring { fill: none; stroke-width: 3; }
.adj-ring.build { stroke-dasharray: 4 3; }
.adj-build-unit { opacity: .6; }
.adj-dot { stroke: none; }
.adj-cross { stroke: #b3261e; stroke-width: 4; stroke-linecap: round; fill: none; }
.adj-order.failed .adj-line { opacity: .55; }
.adj-sites, .adj-site, .adj-strength { pointer-events: none; }
.adj-site-body { stroke: #111; stroke-width: 1.4; }
.adj-site-text, .adj-strength-text { font: bold 10px system-ui, sans-serif; text-anchor: middle; fill: #111; }
.adj-site.level-3 .adj-site-text { fill: #fff; }
.adj-strength-body { fill: #fff; stroke: #111; stroke-width: 1.2; }
.adj-illegal-body { fill: #fff; stroke: #b3261e; stroke-width: 2; }
.adj-illegal-text { fill: #b3261e; font: bold 11px sans-serif; text-anchor: middle; pointer-events: none; }
.adj-order.result > .adj-line, .adj-order.result > .adj-casing, .adj-order.result > .head,
.adj-order.result > .adj-ring, .adj-order.result > .adj-dot { opacity: .55; }
.adj-order.result.failed > .adj-line, .adj-order.result.failed > .adj-casing,
 .adj-order.result.failed > .head { opacity: .4; }
.adj-bounce { stroke: #b3261e; stroke-width: 5; stroke-linecap: round; }
.adj-cut { stroke: #b3261e; stroke-width: 3.5; stroke-linejoin: round; stroke-linecap: round; fill: #fff;
 fill-opacity: 0; }
.adj-standoff-body { fill: #fff3c4; stroke: #b3261e; stroke-width: 2; stroke-linejoin: round; }
.adj-dislodged-ring { fill: none; stroke: #b3261e; stroke-width: 2.5; stroke-dasharray: 4 2; }
.adj-build-site { fill: none; stroke-width: 3; stroke-dasharray: 5 3; }
.adj-adjustment-body { stroke: #111; stroke-width: 1.5; }
.adj-adjustment-text { font: bold 13px system-ui, sans-serif; fill: #fff; text-anchor: middle;
 paint-order: stroke; stroke: #000; stroke-width: 2.5px; }
.adj-order.result .adj-line { stroke-width: 2.5; }
.adj-centre-was { stroke: none; }
.adj-centre-rim { fill: none; stroke: #111; stroke-width: 2.4; }
.adj-line.retreat-option { stroke: #333; stroke-width: 1.5; stroke-dasharray: 4 3; }
.adj-dot.retreat-option { fill: #333; }
.adj-shield { stroke: #fff; stroke-width: 1.5; }
.adj-line.double { stroke-width: 5; stroke-dasharray: 1 0; opacity: .8; }
.adj-line.long { stroke-dasharray: 12 4 2 4; }
.adj-ring.dashed { stroke-dasharray: 3 3; }
.adj-badge { fill: #fff; stroke-width: 2; }
.adj-badge-text { font: bold 10px sans-serif; text-anchor: middle; fill: #222; pointer-events: none; }
.adj-key-text { font: 13px system-ui, sans-serif; fill: #2b2418; }
.adj-casing { stroke: #1b1b1b; stroke-width: 6; stroke-linecap: round; fill: none; }
.adj-casing.dashed { stroke-dasharray: 8 5; }
.adj-casing.dotted { stroke-dasharray: 2 5; stroke-width: 5; }
.adj-casing.double { stroke-width: 8; }
.adj-order .head { stroke: #1b1b1b; stroke-width: 1.5; stroke-linejoin: round; }
.adj-order.result .adj-casing { stroke-width: 4.5; }"""
FALLBACK_COLOURS = ["#c0392b", "#2c3e50", "#2980b9", "#7f8c8d", "#27ae60", "#8e44ad", "#d4ac0d", "#e67e22", "#16a085"]
#: a colour the drawing writes (into an attribute): nothing but a hex colour, whatever a map file says
_COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}\Z")
UNIT_RADIUS = pieces.ARMY_RADIUS
DISLODGED_OFFSET = pieces.DISLODGED_OFFSET
FLEET_WIDTH, FLEET_HEIGHT = pieces.FLEET_SIZE
#: how an order with no place but its unit's reads in a tooltip ("Paris holds")
ORDER_VERBS = {"hold": "holds", "disband": "disbands", "research": "researches"}
#: the overlay's layers, bottom first. The lines of the orders go under the units (a unit is never
#: crossed by its own arrow); the marks that belong beside a unit (an illegal order's "!", the protect
#: shield, Cluster's order letters and strengths, the builds and removals due) go above them, where no
#: unit hides them (docs/game-table.md).
LAYERS = ("centres", "sites", "changed", "results", "retreats", "marks", "orders", "units", "unit-marks")

Point = tuple[float, float]


class Node:
    """One SVG element: its tag, attributes (in order), text and children."""

    __slots__ = ("attrs", "children", "tag", "text")

    def __init__(self, tag: str, attrs: list[tuple[str, str]], text: str | None = None) -> None:
        self.tag = tag
        self.attrs = attrs
        self.text = text
        self.children: list[Node] = []

    def get(self, name: str) -> str | None:
        """The value of attribute ``name``, or None."""
        for key, value in self.attrs:
            if key == name:
                return value
        return None

    def as_data(self) -> list[Any]:
        """The element as plain data, [tag, [[name, value], ...], text, [children]] (JSON for the page's
        shell, which builds it without parsing markup)."""
        return [self.tag, [list(pair) for pair in self.attrs], self.text, [child.as_data() for child in self.children]]

    def iter(self) -> Iterable[Node]:
        """This element and every element inside it, in document order."""
        yield self
        for child in self.children:
            yield from child.iter()


def el(tag: str, parent: Node | None, text: str | None = None, /, **attrs: object) -> Node:
    """A new element ``tag`` appended to ``parent`` (if any), with the attributes (``class_`` is ``class``,
    ``data_result`` is ``data-result``) and its text if given."""
    node = Node(tag, [(key.rstrip("_").replace("_", "-"), str(value)) for key, value in attrs.items()], text)
    if parent is not None:
        parent.children.append(node)
    return node


def _escape(text: str, quote: bool) -> str:
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace('"', "&quot;") if quote else text


def to_svg(nodes: Node | Iterable[Node]) -> str:
    """The elements as SVG text. Every name and value is escaped: text from a game (a province's name, a
    reason) is never markup."""
    out: list[str] = []

    def write(node: Node) -> None:
        out.append("<" + node.tag)
        for key, value in node.attrs:
            out.append(f' {key}="{_escape(value, True)}"')
        if node.text is None and not node.children:
            out.append("/>")
            return
        out.append(">")
        if node.text is not None:
            out.append(_escape(node.text, False))
        for child in node.children:
            write(child)
        out.append(f"</{node.tag}>")

    for node in [nodes] if isinstance(nodes, Node) else nodes:
        write(node)
    return "".join(out)


def _f(value: float) -> str:
    return f"{value:.1f}"


def _point(text: str | None) -> Point | None:
    if not text:
        return None
    try:
        x, y = text.split(",")
        point = float(x), float(y)
    except ValueError:
        return None
    return point if all(math.isfinite(v) for v in point) else None


@dataclass
class MapPoints:
    """Where a map puts things: each location's unit point, each centre's dot, and each power's colour."""

    anchors: dict[str, Point]
    centres: dict[str, Point] = field(default_factory=dict)
    colours: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_attributes(cls, elements: Iterable[tuple[str, str | None, str | None]], colours: str | None) -> MapPoints:
        """From the map's (id, data-unit, data-sc) of each element that has an id, and its root's
        data-power-colours (JSON)."""
        anchors: dict[str, Point] = {}
        centres: dict[str, Point] = {}
        for ident, unit, sc in elements:
            point = _point(unit)
            if point is not None:
                anchors[ident] = point
            point = _point(sc)
            if point is not None:
                centres[ident] = point
        try:
            data = json.loads(colours or "{}")
        except ValueError:
            data = {}
        kept = {str(k): v for k, v in data.items() if isinstance(v, str)} if isinstance(data, dict) else {}
        return cls(anchors, centres, kept)

    @classmethod
    def from_svg(cls, text: str) -> MapPoints:
        """From a map's SVG text (as build.py writes it)."""
        try:
            root = ET.fromstring(text)
        except ET.ParseError as error:
            raise AdjutantError(f"the map is not SVG that can be read: {error}") from None
        return cls.from_attributes(((e.get("id") or "", e.get("data-unit"), e.get("data-sc"))
                                    for e in root.iter() if e.get("id")), root.get("data-power-colours"))


class Drawing:
    """The pieces of one variant's map: each method returns the elements of one layer or one piece."""

    def __init__(self, variant: Variant, points: MapPoints) -> None:
        self.variant = variant
        self.anchors = points.anchors
        self.centre_points = points.centres
        self.colours = {p: c for p, c in points.colours.items() if _COLOUR.match(c)}
        for index, power in enumerate(variant.powers):
            self.colours.setdefault(power, FALLBACK_COLOURS[index % len(FALLBACK_COLOURS)])
        self.homes = {c for power in variant.powers.values() for c in power.home_centres}

    def anchor(self, location: str) -> Point | None:
        return self.anchors.get(location) or self.anchors.get(location.split("/")[0])

    def _name(self, location: str) -> str:
        try:
            return self.variant.province_name(location)
        except KeyError:
            return location

    def _owner(self, power: str) -> str:
        return self.variant.powers[power].name if power in self.variant.powers else "no one"

    @staticmethod
    def _text(parent: Node, x: float, y: float, text: str, cls: str) -> Node:
        return el("text", parent, text, x=_f(x), y=_f(y), class_=cls)

    # --- the whole picture ---------------------------------------------------------------------------
    def overlay(self, scene: Scene, centres: bool = False) -> Node:
        """Everything ``scene`` shows, as the group ``#adj-overlay`` over the map; ``centres``: with each
        centre's dot in its owner's colour (the page colours the map's own dots instead)."""
        root = el("g", None, id="adj-overlay")
        layers = {name: el("g", None, class_=f"adj-{name}") for name in ("orders", "units", "unit-marks")}
        drawn: dict[str, Node | None] = {"centres": self.centres(scene.position.centres) if centres else None}
        position = scene.position
        drawn["sites"] = self.sites(scene.sites) if scene.sites else None
        drawn["changed"] = self.changed_centres(position.centres, scene.changed) if scene.changed else None
        beside: list[Node] = []
        if scene.results:
            drawn["results"], more = self.results(scene.results)
            beside += more
        drawn["retreats"] = self.retreats(scene.retreats) if scene.retreats else None
        if scene.marks is not None:
            spots = tuple(sorted(u.location for u in position.units.values()))
            drawn["marks"], more = self.marks(scene.marks, spots)
            beside += more
        for shape in scene.orders:
            node, more = self.order(shape)
            layers["orders"].children.append(node)
            beside += more
        for node, more in self.units(position, scene.strengths):
            layers["units"].children.append(node)
            beside += more
        layers["unit-marks"].children += beside
        for name in LAYERS:
            layer = layers.get(name) or drawn.get(name)
            if layer is not None:
                root.children.append(layer)
        return root

    def units(self, position: Position, strengths: Mapping[str, str] | None = None,
              selected: str | None = None, orderable: Iterable[str] = ()) -> list[tuple[Node, list[Node]]]:
        """Each unit of ``position`` (and each dislodged one, beside the place it was pushed out of) as
        :meth:`unit` draws it."""
        return list(self._each_unit(position, strengths, selected, orderable))

    def _each_unit(self, position: Position, strengths: Mapping[str, str] | None = None,
                   selected: str | None = None, orderable: Iterable[str] = ()) -> Iterator[tuple[Node, list[Node]]]:
        """:meth:`units`, one unit at a time."""
        ordered = set(orderable)
        # in a retreat phase only the dislodged units are ordered (one may share its place with the victor)
        standing = position.phase.kind != "retreat"
        for u in position.units.values():
            yield self.unit(u, False, standing and selected == u.location, standing and u.location in ordered,
                            (strengths or {}).get(u.province))
        for d in position.dislodged:
            if self.anchor(d.unit.location) is not None:
                yield self.unit(d.unit, True, selected == d.unit.location, d.unit.location in ordered)

    def units_data(self, position: Position) -> list[Any]:
        """The units of ``position`` as plain data (:meth:`Node.as_data`): the page's shell paints them
        before Python is ready."""
        return run_to_end(self.units_data_steps(position))

    def units_data_steps(self, position: Position, every: int = 8) -> Generator[None, None, list[Any]]:
        """:meth:`units_data` made ``every`` units at a time, a yield between two (the page makes it in
        idle moments of its own); returns the data.

        >>> from adjutant.game import Game
        >>> game = Game.new("standard")
        >>> drawing = Drawing(game.variant, MapPoints({}, {}, {}))
        >>> steps = drawing.units_data_steps(game.position, every=8)
        >>> sum(1 for _ in steps)  # 22 units: a yield after the 8th and the 16th
        2
        """
        layer = el("g", None, class_="adj-units adj-snapshot")
        made: list[Any] = []
        for count, (node, _) in enumerate(self._each_unit(position), 1):
            made.append(node.as_data())
            if count % every == 0:
                yield
        data = layer.as_data()
        data[3] = made
        return data

    # --- the pieces ----------------------------------------------------------------------------------
    def unit(self, unit: Unit, dislodged: bool = False, selected: bool = False, orderable: bool = False,
             strength: str | None = None) -> tuple[Node, list[Node]]:
        """A unit (its group keyed by location, power and type; a button where it may be ordered), and its
        strength mark (Cluster), which goes in the unit-marks layer."""
        location = unit.location
        point = self.anchor(location)
        power = self.variant.powers.get(unit.power)
        owner = power.adjective if power else unit.power
        name = f"{owner} {unit.type} {self._name(location)}"
        title = name + (", dislodged: it must retreat or be disbanded" if dislodged else "")
        classes = "adj-unit" + " selected" * selected + " orderable" * orderable + " dislodged" * dislodged
        label = name + (" (selected)" if selected else "")
        extra: dict[str, object] = {}
        if orderable and point is not None:
            extra = {"tabindex": "0", "role": "button"}
        if strength and point is not None and not dislodged:
            extra["data_strength"] = strength
            label += f", strength {strength}"
        if "tabindex" in extra:
            extra["aria_label"] = label
        group = el("g", None, class_=classes, data_location=location, data_power=unit.power, data_type=unit.type,
                   **extra)
        if point is None:
            return group, []
        dx, dy = DISLODGED_OFFSET if dislodged else (0.0, 0.0)
        x, y = point[0] + dx, point[1] + dy
        self._body(group, x, y, unit.type, self.colours.get(unit.power, "#888"), "adj-unit-body")
        self._text(group, x, y + 4.5, unit.type, "adj-unit-letter")
        el("title", group, title)
        if not strength or dislodged:
            return group, []
        # the mark is drawn beside the unit's group, not in it: the unit's visible text stays its letter,
        # which its accessible name holds
        badge = pieces.STRENGTH_BADGE
        bx, by = point[0] + badge.offset[0], point[1] + badge.offset[1]
        mark = el("g", None, class_="adj-strength", data_location=location)
        el("circle", mark, cx=_f(bx), cy=_f(by), r=badge.radius, class_="adj-strength-body")
        self._text(mark, bx, by + 3.5, strength, "adj-strength-text")
        return group, [mark]

    def _body(self, parent: Node, x: float, y: float, unit_type: str, colour: str, cls: str) -> None:
        """A unit's shape at (x, y): a fleet's rounded box, an army's disc."""
        if unit_type == "F":
            el("rect", parent, x=_f(x - FLEET_WIDTH / 2), y=_f(y - FLEET_HEIGHT / 2), width=f"{FLEET_WIDTH:g}",
               height=f"{FLEET_HEIGHT:g}", rx=5, class_=cls, fill=colour)
        else:
            el("circle", parent, cx=_f(x), cy=_f(y), r=UNIT_RADIUS, class_=cls, fill=colour)

    def sites(self, sites: Mapping[str, int]) -> Node | None:
        """A diamond with the level beside each site's unit place (the site key, `#map-legend`, explains)."""
        if not sites:
            return None
        layer = el("g", None, class_="adj-sites")
        for province, level in sorted(sites.items()):
            point = self.anchor(province)
            if point is None:
                continue
            site = pieces.SITE_DIAMOND
            x, y = point[0] + site.offset[0], point[1] + site.offset[1]
            r = site.radius
            group = el("g", layer, class_=f"adj-site level-{int(level)}", data_province=province,
                       data_level=int(level))
            el("polygon", group, points=f"{x:.1f},{y - r:.1f} {x + r:.1f},{y:.1f} {x:.1f},{y + r:.1f} "
               f"{x - r:.1f},{y:.1f}", class_="adj-site-body")
            self._text(group, x, y + 3.5, str(int(level)), "adj-site-text")
            el("title", group, f"Site of the Ancients, level {int(level)}: {self._name(province)}")
        return layer

    def centre_fill(self, owner: str | None) -> str:
        """The fill of a centre's dot owned by ``owner`` (None or "": no one's)."""
        return self.colours.get(owner, "#ffffff") if owner else "#ffffff"

    def centres(self, centres: Mapping[str, str]) -> Node:
        """Every centre's dot in its owner's colour, drawn over the map's own (the page recolours those)."""
        layer = el("g", None, class_="adj-centres")
        for province, point in sorted(self.centre_points.items()):
            home = province in self.homes
            owner = centres.get(province)
            el("circle", layer, cx=_f(point[0]), cy=_f(point[1]), r=pieces.CENTRE_DOT_RADIUS[home],
               class_="sc sc-home" if home else "sc", fill=self.centre_fill(owner), data_province=province,
               data_owner=owner or "")
        return layer

    def changed_centres(self, centres: Mapping[str, str], changed: Mapping[str, str]) -> Node | None:
        """Each centre that changed hands, its dot half in the old owner's colour, titled with its old and
        new owner."""
        if not changed:
            return None
        layer = el("g", None, class_="adj-changed-centres")
        for province, before in changed.items():
            point = self.centre_points.get(province) or self.anchor(province)
            if point is None:
                continue
            now = centres.get(province, "")
            home = province in self.homes
            # the dot's left half in the old owner's colour (white: no one's) under a solid dark rim:
            # unlike a build site's wide dashed ring, and inside the box the map keeps free for the dot
            group = el("g", layer, class_="adj-centre-changed", data_province=province,
                       data_result=f"centre:{province}")
            x, y, r = point[0], point[1], pieces.CENTRE_DOT_RADIUS[home]
            was = self.colours.get(before, "#fff") if before else "#fff"
            el("path", group, d=f"M{x:.1f},{y - r:.1f}A{r:g},{r:g} 0 0 0 {x:.1f},{y + r:.1f}Z",
               class_="adj-centre-was", fill=was)
            el("circle", group, cx=_f(x), cy=_f(y), r=f"{pieces.changed_ring_radius(home):.2f}",
               class_="adj-centre-rim")
            el("title", group, f"{self._name(province)}: now {self._owner(now)}'s, was {self._owner(before)}'s")
        return layer

    def retreats(self, retreats: Mapping[str, list[str]]) -> Node | None:
        """Thin dashed lines from each dislodged unit to the places it may retreat to."""
        if not retreats:
            return None
        layer = el("g", None, class_="adj-retreat-options")
        for location, options in retreats.items():
            home = self.anchor(location)
            if home is None:
                continue
            start = (home[0] + DISLODGED_OFFSET[0], home[1] + DISLODGED_OFFSET[1])
            for option in options:
                end = self.anchor(option)
                if end is None:
                    continue
                group = el("g", layer, class_="adj-retreat-option", data_from=location, data_to=option,
                           data_result=f"dislodged:{location}")
                el("line", group, x1=_f(start[0]), y1=_f(start[1]), x2=_f(end[0]), y2=_f(end[1]),
                   class_="adj-line retreat-option")
                el("circle", group, cx=_f(end[0]), cy=_f(end[1]), r=4, class_="adj-dot retreat-option")
                el("title", group, f"may retreat to {self._name(option)}")
        return layer

    def results(self, results: list[Shape]) -> tuple[Node | None, list[Node]]:
        """The orders of the phase that made the position, with their results' symbols."""
        if not results:
            return None, []
        layer = el("g", None, class_="adj-results")
        beside: list[Node] = []
        for shape in results:
            node, more = self.order(shape, "result")
            layer.children.append(node)
            beside += more
        return layer, beside

    def order_title(self, shape: Shape) -> str:
        """An order in words, as its symbols' tooltip says it: "Paris moves to Burgundy"."""
        name = self._name
        at, to, via = name(shape.at) if shape.at else "", name(shape.to) if shape.to else "", \
            name(shape.via) if shape.via else ""
        if shape.kind in ("move", "retreat", "mattermit"):
            verb = {"move": "moves", "retreat": "retreats", "mattermit": "mattermits"}[shape.kind]
            return f"{at} {verb} to {to}"
        if shape.kind == "support":
            return f"{at} supports {via} to {to}" if to else f"{at} supports {via}"
        if shape.kind == "convoy":
            return f"{at} convoys {via} to {to}"
        if shape.kind == "protect":
            return f"{at} protects {via}"
        if shape.kind == "transfer":
            return f"{at} transfers to {via}"
        if shape.kind == "build":
            unit = {"A": "an army", "F": "a fleet"}.get(shape.unit, "")
            builds = f"builds {unit} in" if unit else "builds in"
            return f"{self._owner(shape.power)} {builds} {at}" if at else f"{self._owner(shape.power)} waives a build"
        return f"{at} {ORDER_VERBS.get(shape.kind, shape.kind)}"

    def order(self, shape: Shape, extra: str = "") -> tuple[Node, list[Node]]:
        """``shape`` drawn (``extra`` "result": as a result, faint, keyed for the results list), and the
        marks drawn beside its unit, in the unit-marks layer."""
        colour = self.colours.get(shape.power, "#444")
        state = "" if shape.success is None else (" succeeded" if shape.success else " failed")
        classes = f"adj-order {shape.kind}{state} {extra}".strip()
        attrs: dict[str, object] = {"data_kind": shape.kind}
        if extra == "result":  # the key the results list marks it by (Session.results_entries)
            attrs["data_result"] = f"order:{shape.at}"
        at = self.anchor(shape.at)
        if at is not None:
            classes += " illegal" * shape.illegal + (f" {shape.outcome}" if shape.outcome else "")
            if shape.outcome:
                attrs["data_outcome"] = shape.outcome
        group = el("g", None, class_=classes, **attrs)
        if at is None:
            return group, []
        title = self.order_title(shape)
        if shape.success is not None:
            outcome = "succeeded" if shape.success else "failed"
            title = f"{title}: {outcome} ({shape.reason})" if shape.reason else f"{title}: {outcome}"
        if shape.illegal:
            title = f"{title}: illegal, kept anyway: the unit will hold"
        el("title", group, title)
        beside: list[Node] = []

        def mark_group(what: str) -> Node:
            """A group for a mark beside the unit, above the units; a click on it is a click on the unit."""
            keyed = {"data_result": f"order:{shape.at}"} if extra == "result" else {}
            drawn = el("g", None, class_=f"adj-unit-mark {what} {extra}".strip(), data_kind=shape.kind,
                       data_location=shape.at, **keyed)
            el("title", drawn, title)
            beside.append(drawn)
            return drawn

        if shape.illegal:  # kept at the player's say: a "!" beside the unit says it will hold
            mark = pieces.ILLEGAL_MARK
            x, y = at[0] + mark.offset[0], at[1] + mark.offset[1]
            drawn = mark_group("illegal")
            el("circle", drawn, cx=_f(x), cy=_f(y), r=mark.radius, class_="adj-illegal-body")
            self._text(drawn, x, y + 3.5, "!", "adj-illegal-text")
        to = self.anchor(shape.to) if shape.to else None
        via = self.anchor(shape.via) if shape.via else None
        if shape.kind in ("move", "retreat") and to is not None:
            self._arrow(group, at, to, "adj-line", colour)
        elif shape.kind == "support" and via is not None:
            if to is None:
                self._arrow(group, at, via, "adj-line dashed", colour, head=False)
                el("circle", group, cx=_f(via[0]), cy=_f(via[1]), r=UNIT_RADIUS + 4, class_="adj-ring", stroke=colour)
            else:
                mid = ((via[0] + to[0]) / 2, (via[1] + to[1]) / 2)
                self._arrow(group, at, mid, "adj-line dashed", colour, shorten=2)
        elif shape.kind == "convoy" and via is not None and to is not None:
            mid = ((via[0] + to[0]) / 2, (via[1] + to[1]) / 2)
            self._arrow(group, at, mid, "adj-line dotted", colour, head=False)
            el("circle", group, cx=_f(mid[0]), cy=_f(mid[1]), r=4, class_="adj-dot", fill=colour)
        elif shape.kind == "protect" and via is not None:
            # a dotted line to the fleet it protects, then the fleet's run as a dotted arrow, and a shield
            self._arrow(group, at, via, "adj-line dotted", colour, head=False)
            if to is not None:
                self._arrow(group, via, to, "adj-line dotted", colour, shorten=4)
            shield = pieces.PROTECT_SHIELD
            sx, sy, r = at[0] + shield.offset[0], at[1] + shield.offset[1], shield.radius
            # a flat top 2r wide less a sixth, straight sides, then curves to a point: inside the square
            w = r * 5 / 6
            el("path", mark_group("protect"), d=f"M{sx - w:.1f},{sy - r:.1f}h{2 * w:.1f}v{r * 5 / 6:.1f}"
               f"q0,{r * 5 / 6:.1f} {-w:.1f},{r * 7 / 6:.1f}q{-w:.1f},{-r / 3:.1f} {-w:.1f},{-r * 7 / 6:.1f}z",
               class_="adj-shield", fill=colour)
        elif shape.kind == "transfer" and via is not None:
            self._arrow(group, at, via, "adj-line double", colour)
            self._badge(mark_group("transfer"), at, "T", colour)
        elif shape.kind == "mattermit" and to is not None:
            self._arrow(group, at, to, "adj-line dashed long", colour)
            self._badge(mark_group("mattermit"), at, "M", colour)
        elif shape.kind == "research":
            el("circle", group, cx=_f(at[0]), cy=_f(at[1]), r=pieces.ORDER_RING.radius, class_="adj-ring dashed",
               stroke=colour)
            self._badge(mark_group("research"), at, "R", colour)
        elif shape.kind == "hold":
            el("circle", group, cx=_f(at[0]), cy=_f(at[1]), r=pieces.ORDER_RING.radius, class_="adj-ring",
               stroke=colour)
        elif shape.kind == "disband":
            self._cross(group, at, 9)
        elif shape.kind == "build":
            el("circle", group, cx=_f(at[0]), cy=_f(at[1]), r=pieces.ORDER_RING.radius, class_="adj-ring build",
               stroke=colour)
            if shape.unit:  # the unit to be built, drawn as a unit is but faded: not there yet
                self._body(group, at[0], at[1], shape.unit, colour, "adj-unit-body adj-build-unit")
                self._text(group, at[0], at[1] + 4.5, shape.unit, "adj-unit-letter adj-build-unit")
        if shape.success is False and shape.kind in ("move", "retreat", "support", "convoy"):
            end = to or via or at
            if shape.outcome == "bounced" and shape.kind in ("move", "retreat") and to is not None:
                self._bounce(group, at, to)
            elif shape.outcome == "cut" and shape.kind == "support":
                target = ((via[0] + to[0]) / 2, (via[1] + to[1]) / 2) if via is not None and to is not None else end
                self._cut(group, at, target)
            else:
                self._cross(group, ((at[0] + end[0]) / 2, (at[1] + end[1]) / 2), 6)
        return group, beside

    @staticmethod
    def _cross(group: Node, at: Point, half: float) -> None:
        x, y = at
        el("path", group, d=f"M{x - half:.1f},{y - half:.1f}L{x + half:.1f},{y + half:.1f}"
           f"M{x + half:.1f},{y - half:.1f}L{x - half:.1f},{y + half:.1f}", class_="adj-cross")

    @staticmethod
    def _bounce(group: Node, at: Point, to: Point) -> None:
        """A bounced move: a bar across the arrow just short of the province it could not enter."""
        dx, dy = to[0] - at[0], to[1] - at[1]
        length = math.hypot(dx, dy) or 1.0
        ux, uy = dx / length, dy / length
        back = min(UNIT_RADIUS + 12.0, length / 2)
        cx, cy = to[0] - ux * back, to[1] - uy * back
        el("path", group, d=f"M{cx - uy * 9:.1f},{cy + ux * 9:.1f}L{cx + uy * 9:.1f},{cy - ux * 9:.1f}",
           class_="adj-bounce")

    @staticmethod
    def _cut(group: Node, at: Point, target: Point) -> None:
        """A cut support: a zigzag break across the middle of the support line."""
        dx, dy = target[0] - at[0], target[1] - at[1]
        length = math.hypot(dx, dy) or 1.0
        ux, uy = dx / length, dy / length
        mx, my = (at[0] + target[0]) / 2, (at[1] + target[1]) / 2
        points = [f"{mx + ux * step - uy * side:.1f},{my + uy * step + ux * side:.1f}"
                  for step, side in ((-6.0, -8.0), (-2.0, 8.0), (2.0, -8.0), (6.0, 8.0))]
        el("polyline", group, points=" ".join(points), class_="adj-cut")

    @staticmethod
    def _arrow(parent: Node, a: Point, b: Point, cls: str, colour: str, head: bool = True,
               shorten: float = UNIT_RADIUS + 2) -> None:
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy) or 1.0
        ux, uy = dx / length, dy / length
        start = (a[0] + ux * (UNIT_RADIUS + 1), a[1] + uy * (UNIT_RADIUS + 1))
        end = (b[0] - ux * shorten, b[1] - uy * shorten) if length > shorten * 2 else b
        # a dark casing under the power's colour: the line keeps its contrast over land and sea alike
        # (the lighter power colours alone do not: tests/test_maps_render.py measures it)
        line = {"x1": _f(start[0]), "y1": _f(start[1]), "x2": _f(end[0]), "y2": _f(end[1])}
        el("line", parent, **line, class_=cls.replace("adj-line", "adj-casing"))
        el("line", parent, **line, class_=cls, stroke=colour)
        if head:
            size = 11.0
            left = (end[0] - ux * size - uy * size * 0.55, end[1] - uy * size + ux * size * 0.55)
            right = (end[0] - ux * size + uy * size * 0.55, end[1] - uy * size - ux * size * 0.55)
            el("polygon", parent, points=" ".join(f"{p[0]:.1f},{p[1]:.1f}" for p in (end, left, right)),
               class_=cls + " head", fill=colour)

    def _badge(self, group: Node, at: Point, letter: str, colour: str) -> None:
        """A small lettered disc on a unit's lower left corner: the Cluster orders that are not moves (R, T, M)."""
        badge = pieces.ORDER_BADGE
        x, y = at[0] + badge.offset[0], at[1] + badge.offset[1]
        el("circle", group, cx=_f(x), cy=_f(y), r=badge.radius, class_="adj-badge", stroke=colour)
        self._text(group, x, y + 3.5, letter, "adj-badge-text")

    def marks(self, marks: PhaseMarks, spots: tuple[str, ...] = ()) -> tuple[Node, list[Node]]:
        """Stand-offs, the places units were dislodged from, and the adjustments due with the build sites
        (the badges of adjustments due go in the unit-marks layer); a power's badge is placed clear of
        the units (at ``spots``) and centre dots."""
        layer = el("g", None, class_="adj-marks")
        beside: list[Node] = []
        for province, units in sorted(marks.standoffs.items()):
            point = self.anchor(province)
            if point is None:
                continue
            group = el("g", layer, class_="adj-standoff", data_province=province, data_result=f"standoff:{province}")
            el("polygon", group, points=_star(*point), class_="adj-standoff-body")
            names = ", ".join(self._name(u) for u in units)
            el("title", group, f"Stand-off in {self._name(province)}: {names} bounced; no unit may retreat there")
        for location, reason in sorted(marks.dislodged.items()):
            home = self.anchor(location)
            if home is None:
                continue
            group = el("g", layer, class_="adj-dislodged-mark", data_location=location,
                       data_result=f"dislodged:{location}")
            end = (home[0] + DISLODGED_OFFSET[0], home[1] + DISLODGED_OFFSET[1])
            # a dashed red ring round the unit, drawn beside the place it was pushed out of
            el("circle", group, cx=_f(end[0]), cy=_f(end[1]), r=pieces.DISLODGED_RING.radius,
               class_="adj-dislodged-ring")
            el("title", group, f"The unit in {self._name(location)} was {reason or 'dislodged'}")
        taken: list[Point] = []
        for power, delta in sorted(marks.adjustments.items()):
            if power not in self.variant.powers:
                continue
            homes = [p for p in (self.centre_points.get(h) or self.anchor(h)
                                 for h in self.variant.powers[power].home_centres) if p is not None]
            colour = self.colours.get(power, "#444")
            for province in marks.build_sites.get(power, []):
                point = self.centre_points.get(province) or self.anchor(province)
                if point is None:
                    continue
                site = el("circle", layer, cx=_f(point[0]), cy=_f(point[1]), r=pieces.BUILD_SITE_RING.radius,
                          class_="adj-build-site", data_power=power, data_province=province,
                          data_result=f"adjust:{power}", stroke=colour)
                el("title", site, f"{self._owner(power)} may build in {self._name(province)}")
            if not homes:
                continue
            x, y = self._clear_spot((sum(p[0] for p in homes) / len(homes), sum(p[1] for p in homes) / len(homes)),
                                    (15.0, 10.0), [a for a in map(self.anchor, spots) if a is not None], taken)
            taken.append((x, y))
            text = f"+{delta}" if delta > 0 else f"\u2212{-delta}"
            group = el("g", None, class_="adj-adjustment " + ("builds" if delta > 0 else "removals"),
                       data_power=power, data_delta=delta, data_result=f"adjust:{power}")
            el("rect", group, x=_f(x - 15), y=_f(y - 10), width=30, height=20, rx=10, class_="adj-adjustment-body",
               fill=colour)
            self._text(group, x, y + 5, text, "adj-adjustment-text")
            count = abs(delta)
            what = ("build" if delta > 0 else "removal") + ("s" if count != 1 else "")
            el("title", group, f"{self._owner(power)}: {count} {what} due")
            beside.append(group)
        return layer, beside

    def _clear_spot(self, near: Point, half: Point, units: list[Point], badges: list[Point]) -> Point:
        """The place nearest ``near`` (tried outwards in rings) for a badge ``half`` wide and high each way
        that covers no unit, no centre dot and no badge placed before; ``near`` if there is none."""
        ux, uy = pieces.UNIT_HALF
        dot = pieces.CENTRE_DOT_RADIUS[True] + pieces.CENTRE_DOT_OUTLINE
        boxes = [(u, (ux, uy)) for u in units] + [(c, (dot, dot)) for c in self.centre_points.values()]
        boxes += [(b, half) for b in badges]
        for distance in (0.0, 22.0, 34.0, 48.0):
            for step in range(8 if distance else 1):
                angle = math.pi * step / 4 - math.pi / 2
                x, y = near[0] + distance * math.cos(angle), near[1] + distance * math.sin(angle)
                if all(abs(x - c[0]) >= half[0] + h[0] + 1 or abs(y - c[1]) >= half[1] + h[1] + 1
                       for c, h in boxes):
                    return x, y
        return near


#: the height of the title band above the map in a picture, and of one line of text below it
TITLE_BAND, LINE = 48.0, 17.0
#: the width of one column of the orders and results written below the map in a picture
COLUMN = 540.0
_ROOT = re.compile(r"<svg\b[^>]*>")
_VIEWBOX = re.compile(r'viewBox="0[ ,]+0[ ,]+([0-9.]+)[ ,]+([0-9.]+)"')


def _key(drawing: Drawing, top: float) -> Node:
    """The key to the pieces: what each symbol over the map means."""
    key = el("g", None, class_="adj-key")
    grey = "#777777"
    x = 16.0
    y = top + 18

    def item(text: str, width: float) -> None:
        nonlocal x
        el("text", key, text, x=_f(x + 34), y=_f(y + 4), class_="adj-key-text")
        x += 34 + width

    drawing._body(key, x + 12, y, "A", grey, "adj-unit-body")
    drawing._text(key, x + 12, y + 4.5, "A", "adj-unit-letter")
    item("army", 44)
    drawing._body(key, x + 12, y, "F", grey, "adj-unit-body")
    drawing._text(key, x + 12, y + 4.5, "F", "adj-unit-letter")
    item("fleet", 44)
    move = el("g", key, class_="adj-order move")
    drawing._arrow(move, (x - 12, y), (x + 44, y), "adj-line", grey)
    x += 18
    item("move", 46)
    support = el("g", key, class_="adj-order support")
    drawing._arrow(support, (x - 12, y), (x + 44, y), "adj-line dashed", grey, shorten=2)
    x += 18
    item("support", 64)
    bounce = el("g", key, class_="adj-order move failed")
    drawing._arrow(bounce, (x - 12, y), (x + 44, y), "adj-line", grey)
    drawing._bounce(bounce, (x - 12, y), (x + 44, y))
    x += 18
    item("bounced", 66)
    cut = el("g", key, class_="adj-order support failed")
    drawing._arrow(cut, (x - 12, y), (x + 44, y), "adj-line dashed", grey, shorten=2)
    drawing._cut(cut, (x - 12, y), (x + 44, y))
    x += 18
    item("support cut", 90)
    el("circle", key, cx=_f(x + 12), cy=_f(y), r=pieces.DISLODGED_RING.radius, class_="adj-dislodged-ring")
    item("dislodged", 74)
    el("polygon", key, points=_star(x + 12, y), class_="adj-standoff-body")
    item("stand-off", 74)
    return key


def _star(x: float, y: float) -> str:
    """The points of a stand-off's star at (x, y)."""
    spikes = []
    for i in range(16):
        angle = math.pi * i / 8
        r = 13.0 if i % 2 == 0 else 6.0
        spikes.append(f"{x + r * math.cos(angle):.1f},{y + r * math.sin(angle):.1f}")
    return " ".join(spikes)


def picture_title(game: Game, view: int, name: str = "", secrets: bool = False) -> str:
    """A picture's title: the variant, the phase, the game's ``name`` if any, and, for a picture that
    shows what the players may not see (``secrets``), that it is the game master's."""
    phase = game.position_at(view).phase
    parts = [game.variant.name, f"{phase.title} ({phase})"]
    if name.strip():
        parts.append(without_bidi_controls(name.strip())[:80])
    if secrets:
        parts.append("game master's view, with secrets")
    return " \u2014 ".join(parts)


def picture_lines(game: Game, view: int, orders: bool = True, results: bool = True) -> list[str]:
    """The text a picture of position ``view`` writes below the map: the results of the phase that made
    it (judge-style), if ``results``, and the orders given at it so far, if ``orders``."""
    lines: list[str] = []
    index = results_record(game, view) if results else None
    if index is not None:
        lines += [line for line in report.results(game.variant, game.history[index]).splitlines() if line.strip()]
    if orders:
        given = (game.history[view].orders if view < len(game.history) else
                 {p: [format_order(o) for o in mine] for p, mine in game.all_orders().items()})
        if given and not (results and view < len(game.history)):
            lines.append(f"Orders, {game.position_at(view).phase.title}:")
            for power, texts in sorted(given.items()):
                named = game.variant.powers[power].name if power in game.variant.powers else power
                lines.append(f"{named}: " + "; ".join(report.place_labels(game.variant, t) for t in texts))
    return lines


def board_svg(map_svg: str, drawing: Drawing, scene: Scene, title: str, lines: Iterable[str] = ()) -> str:
    """One SVG document that opens alone: ``title`` above the map ``map_svg`` (the variant's map as
    build.py writes it, its legend beside it) with ``scene`` drawn over it, the key to the pieces, and
    ``lines`` (the orders and results, say) written below. Everything is inside it: the map's stylesheet
    holds the pieces' (:data:`STYLE`), and nothing is fetched."""
    root = _ROOT.search(map_svg)
    size = _VIEWBOX.search(root.group(0)) if root else None
    if root is None or size is None:
        raise AdjutantError("the map is not one of Adjutant's map SVGs (no <svg> with a viewBox)")
    width, height = float(size.group(1)), float(size.group(2))
    end = map_svg.rfind("</svg>")
    if end < root.end():
        raise AdjutantError("the map SVG is cut short (no closing </svg>)")
    text = list(lines)
    per_column = max(1, math.ceil(len(text) / max(1, int(width // COLUMN))))
    below = 44.0 + (per_column * LINE + 16 if text else 0)
    total = TITLE_BAND + height + below
    head = el("g", None, class_="adj-picture-title")
    el("rect", head, x=0, y=0, width=_f(width), height=_f(TITLE_BAND), fill="#fbf7ec")
    el("text", head, title, x=16, y=31, class_="legend-title adj-title")
    foot = el("g", None, transform=f"translate(0 {TITLE_BAND + height:.1f})")
    el("rect", foot, x=0, y=0, width=_f(width), height=_f(below), fill="#fbf7ec")
    foot.children.append(_key(drawing, 4))
    for i, line in enumerate(text):
        column, row = divmod(i, per_column)
        shown = line if len(line) <= COLUMN // 7 else line[: int(COLUMN // 7) - 1] + "\u2026"  # (7: a letter's width)
        el("text", foot, shown, x=_f(16 + column * COLUMN), y=_f(58 + row * LINE), class_="legend-text")
    overlay = to_svg(drawing.overlay(scene, centres=True))
    inner = map_svg[root.start():end] + overlay + "</svg>"
    return (f'<svg xmlns="{SVG_NS}" width="{width:g}" height="{total:g}" viewBox="0 0 {width:g} {total:g}">'
            f"<title>{_escape(title, False)}</title>{to_svg(head)}"
            f'<g transform="translate(0 {TITLE_BAND:g})">{inner}</g>{to_svg(foot)}</svg>\n')

__all__ = [
    "LAYERS",
    "STYLE",
    "Drawing",
    "MapPoints",
    "Node",
    "board_svg",
    "el",
    "picture_lines",
    "picture_title",
    "to_svg",
]
