"""Drawing the position and the orders over the map SVG that build.py made.

The SVG is the renderer's contract (maps/geo/README.md): each province is an element whose ``id`` is
the province id, with its anchor points in ``data-unit`` / ``data-sc`` ("x,y"); each named coast is a
``<g class="coast" id="stp/nc" data-unit="x,y">``; supply centres are ``circle.sc[data-province]``; the
root holds ``data-power-colours`` (JSON). Everything drawn here goes into one ``<g id="adj-overlay">``
built with createElementNS and textContent only.
"""

from __future__ import annotations

import functools
import json
import math
from typing import Any

import js
from adjutant import pieces
from pyodide.ffi import jsnull

from .session import PhaseMarks, Shape

SVG_NS = "http://www.w3.org/2000/svg"
FALLBACK_COLOURS = ["#c0392b", "#2c3e50", "#2980b9", "#7f8c8d", "#27ae60", "#8e44ad", "#d4ac0d", "#e67e22", "#16a085"]
UNIT_RADIUS = pieces.ARMY_RADIUS
DISLODGED_OFFSET = pieces.DISLODGED_OFFSET
ORDER_RING, DISLODGED_RING, BUILD_SITE_RING = pieces.ORDER_RING, pieces.DISLODGED_RING, pieces.BUILD_SITE_RING
FLEET_WIDTH, FLEET_HEIGHT = pieces.FLEET_SIZE
#: how an order with no place but its unit's reads in a tooltip ("Paris holds")
ORDER_VERBS = {"hold": "holds", "disband": "disbands", "research": "researches"}


@functools.cache
def _make() -> Any:
    """The page's maker of one SVG element (web/page.js adjutantPage.make), looked up once."""
    return js.window.adjutantPage.make


def _v(value: Any) -> Any:
    """JavaScript's null as None (Pyodide gives it as its own `jsnull`)."""
    return None if value is None or value is jsnull else value


def _attr(element: Any, name: str) -> str | None:
    value = _v(element.getAttribute(name)) if hasattr(element, "getAttribute") else None
    return None if value is None else str(value)


def _point(text: str | None) -> tuple[float, float] | None:
    if not text:
        return None
    try:
        x, y = text.split(",")
        return float(x), float(y)
    except ValueError:
        return None


class Board:
    def __init__(self, svg: Any, variant: Any) -> None:
        self.svg = svg
        self.variant = variant
        self.anchors: dict[str, tuple[float, float]] = {}
        self.centre_points: dict[str, tuple[float, float]] = {}
        for element in svg.querySelectorAll("[data-unit]"):
            point = _point(_attr(element, "data-unit"))
            if point is not None and element.id:
                self.anchors[str(element.id)] = point
        for element in svg.querySelectorAll("[data-sc]"):
            point = _point(_attr(element, "data-sc"))
            if point is not None and element.id:
                self.centre_points[str(element.id)] = point
        try:
            self.colours: dict[str, str] = json.loads(_attr(svg, "data-power-colours") or "{}")
        except ValueError:
            self.colours = {}
        for index, power in enumerate(variant.powers):
            self.colours.setdefault(power, FALLBACK_COLOURS[index % len(FALLBACK_COLOURS)])
        self.has_anchors = bool(self.anchors)
        overlay = _v(svg.querySelector("#adj-overlay"))
        if overlay is None:
            overlay = js.document.createElementNS(SVG_NS, "g")
            overlay.setAttribute("id", "adj-overlay")
            svg.appendChild(overlay)
        self.overlay = overlay
        overlay.replaceChildren()
        #: what each layer was last drawn from, and its element (see :meth:`draw`)
        self._inputs: dict[str, Any] = {}
        self._layers: dict[str, Any] = {}
        #: the orders' and the units' drawings by what they were drawn from
        self._orders: dict[Any, list[list[Any]]] = {}
        self._units: dict[Any, list[list[Any]]] = {}
        self._targets: list[str] | None = None
        #: the map's supply centres, and the owner each is coloured for
        self._centres = [(circle, _attr(circle, "data-province") or "")
                         for circle in svg.querySelectorAll("circle.sc[data-province]")]
        self._owners: dict[str, str | None] = {}
        #: the marks a whole layer ("results", "marks") drew in the unit-marks layer, removed with it
        self._beside: dict[str, list[Any]] = {}

    # --- helpers -------------------------------------------------------------------------------------
    def anchor(self, location: str) -> tuple[float, float] | None:
        return self.anchors.get(location) or self.anchors.get(location.split("/")[0])

    @staticmethod
    def _el(tag: str, parent: Any, text: str | None = None, **attrs: Any) -> Any:
        """A new SVG element ``tag`` appended to ``parent`` (None: not yet in the page), with the
        attributes (``class_`` is ``class``, ``data_result`` is ``data-result``) and its text if given.
        ``style="fill: #abc"`` (one property) is set through CSSOM, not as a ``style`` attribute: the
        page's policy allows no inline style (docs/security.md)."""
        flat: list[str] = []
        for key, value in attrs.items():
            if key == "style":
                name, _, setting = str(value).partition(":")
                flat += ("style:" + name.strip(), setting.strip())
            else:
                flat += (key.rstrip("_").replace("_", "-"), str(value))
        # one JS call per element, not one per attribute (speed: a phase's results are some 250 elements)
        return _make()(parent, tag, text, *flat)

    def _text(self, parent: Any, x: float, y: float, text: str, cls: str) -> Any:
        return self._el("text", parent, text, x=f"{x:.1f}", y=f"{y:.1f}", class_=cls)

    # --- drawing -------------------------------------------------------------------------------------
    def draw(
        self,
        position: Any,
        shapes: list[Shape],
        selected: str | None = None,
        targets: list[str] | None = None,
        orderable: set[str] | None = None,
        sites: dict[str, int] | None = None,
        strengths: dict[str, str] | None = None,
        results: list[Shape] | None = None,
        changed: dict[str, str] | None = None,
        retreats: dict[str, list[str]] | None = None,
        marks: PhaseMarks | None = None,
    ) -> None:
        """Draw the position and the orders; in a game with secrets, also the Sites of the Ancients
        (province -> level) and the units' strengths (province -> "3" or "2") the viewer may see.
        ``results`` are the last phase's orders with their results, drawn under the orders; ``changed``
        the centres that changed hands (province -> earlier owner); ``retreats`` where each dislodged
        unit (by location) may retreat; ``marks`` the stand-offs, dislodgements and adjustments due.

        Only what differs from the last drawing is drawn again (a click changes one order or one unit's
        look, not the board): each layer is kept with what it was drawn from, and the orders and units
        one by one. What is drawn again is built apart from the page and put in at once (PyScript watches
        every change to the page)."""
        self._colour_centres(position.centres)
        self._kept_layer("unit-marks")  # before the layers that draw in it (see LAYERS)
        if list(targets or []) != self._targets:
            self._highlight(targets or [])
            self._targets = list(targets or [])
        self._layer("sites", dict(sites or {}), lambda: self._sites(sites) if sites else None)
        centres = {p: position.centres.get(p, "") for p in changed or {}}
        self._layer("changed", (dict(changed or {}), centres),
                    lambda: self._changed_centres(position.centres, changed) if changed else None)
        self._layer("results", list(results or []), lambda: self._results(results) if results else None)
        self._layer("retreats", dict(retreats or {}), lambda: self._retreats(retreats) if retreats else None)
        spots = tuple(sorted(u.location for u in position.units.values()))
        self._layer("marks", (marks, spots), lambda: self._marks(marks, spots) if marks is not None else None)
        orders = self._kept_layer("orders")
        self._update(self._orders, orders, [(shape, shape) for shape in shapes], self._shape)
        units = self._kept_layer("units")
        drawn: list[tuple[Any, Any]] = []
        # in a retreat phase only the dislodged units are ordered (one may share its place with the victor)
        standing = position.phase.kind != "retreat"
        for unit in position.units.values():
            mark = (strengths or {}).get(unit.province)
            key = (unit, False, standing and selected == unit.location,
                   standing and unit.location in (orderable or set()), mark)
            drawn.append((key, key))
        for d in position.dislodged:
            if self.anchor(d.unit.location) is not None:
                key = (d.unit, True, selected == d.unit.location, d.unit.location in (orderable or set()), None)
                drawn.append((key, key))
        self._update(self._units, units, drawn, self._draw_unit)

    #: the overlay's layers, bottom first. The lines of the orders go under the units (a unit is never
    #: crossed by its own arrow); the marks that belong beside a unit (an illegal order's "!", the protect
    #: shield, Cluster's order letters and strengths, the builds and removals due) go above them, where no
    #: unit hides them (docs/game-table.md).
    LAYERS = ("sites", "changed", "results", "retreats", "marks", "orders", "units", "unit-marks")

    def _layer(self, name: str, inputs: Any, paint: Any) -> None:
        """Draw layer ``name`` again with ``paint`` (which returns it, not yet in the page, or None when
        there is nothing to draw) unless it was last drawn from equal ``inputs``."""
        if name in self._inputs and self._inputs[name] == inputs:
            return
        self._inputs[name] = inputs
        old = self._layers.pop(name, None)
        if old is not None:
            old.remove()
        for mark in self._beside.pop(name, []):
            mark.remove()
        layer = paint()
        if layer is not None:
            self._place(name, layer)

    def _place(self, name: str, element: Any) -> None:
        """Put layer ``name``'s ``element`` in the overlay under the layers drawn above it."""
        self._layers[name] = element
        for above in self.LAYERS[self.LAYERS.index(name) + 1:]:
            if above in self._layers:
                self.overlay.insertBefore(element, self._layers[above])
                return
        self.overlay.appendChild(element)

    def _kept_layer(self, name: str) -> Any:
        """The layer ``name`` whose items :meth:`_update` keeps from one drawing to the next."""
        layer = self._layers.get(name)
        if layer is None:
            layer = self._el("g", None, class_=f"adj-{name}")
            self._place(name, layer)
        return layer

    @staticmethod
    def _update(kept: dict[Any, list[list[Any]]], layer: Any, items: list[tuple[Any, Any]], paint: Any) -> None:
        """Make ``layer`` hold one drawing per item: ``items`` are (key, what ``paint(parent, what)``
        draws, as one or more elements appended to ``parent``, and returns those it drew in another layer);
        a drawing whose key is still there is kept, the others are removed, the new ones drawn (apart, then
        put in the layer together)."""
        wanted: dict[Any, int] = {}
        for key, _ in items:
            wanted[key] = wanted.get(key, 0) + 1
        for key in list(kept):
            drawings = kept[key]
            while len(drawings) > wanted.get(key, 0):
                for element in drawings.pop():
                    element.remove()
            if not drawings:
                del kept[key]
        new = js.document.createDocumentFragment()
        for key, what in items:
            if len(kept.get(key, ())) < wanted[key]:
                before = new.childElementCount
                elsewhere = paint(new, what)
                elements = [new.children.item(i) for i in range(before, new.childElementCount)]
                elements += elsewhere or []
                if elements:
                    kept.setdefault(key, []).append(elements)
        if new.childElementCount:
            layer.appendChild(new)

    def _results(self, results: list[Shape]) -> Any:
        layer = self._el("g", None, class_="adj-results")
        for shape in results:
            self._beside.setdefault("results", []).extend(self._shape(layer, shape, "result"))
        return layer

    def _draw_unit(self, layer: Any, key: tuple[Any, bool, bool, bool, str | None]) -> list[Any]:
        """One unit as :meth:`draw` keys it: (unit, dislodged, selected, orderable, strength mark);
        returns its strength mark, drawn in the unit-marks layer."""
        unit, dislodged, selected, orderable, mark = key
        if not dislodged:
            group = self._unit(layer, unit, unit.location, selected, orderable)
            return self._strength(group, unit.location, mark) if mark else []
        self._unit(layer, unit, unit.location, selected, orderable, offset=DISLODGED_OFFSET, dislodged=True)
        return []

    def _sites(self, sites: dict[str, int]) -> Any:
        """A diamond with the level beside each site's unit place (the site key, `#map-legend`, explains)."""
        layer = self._el("g", None, class_="adj-sites")
        for province, level in sorted(sites.items()):
            point = self.anchor(province)
            if point is None:
                continue
            site = pieces.SITE_DIAMOND
            x, y = point[0] + site.offset[0], point[1] + site.offset[1]
            r = site.radius
            group = self._el("g", layer, class_=f"adj-site level-{int(level)}", data_province=province,
                             data_level=int(level))
            self._el("polygon", group, points=f"{x:.1f},{y - r:.1f} {x + r:.1f},{y:.1f} {x:.1f},{y + r:.1f} "
                     f"{x - r:.1f},{y:.1f}", class_="adj-site-body")
            self._text(group, x, y + 3.5, str(int(level)), "adj-site-text")
            name = self.variant.province_name(province)
            self._el("title", group, f"Site of the Ancients, level {int(level)}: {name}")
        return layer

    def _changed_centres(self, centres: dict[str, str], changed: dict[str, str]) -> Any:
        """Each centre that changed hands, its dot half in the old owner's colour, titled with its old and
        new owner."""
        layer = self._el("g", None, class_="adj-changed-centres")
        for province, before in changed.items():
            point = self.centre_points.get(province) or self.anchor(province)
            if point is None:
                continue
            now = centres.get(province, "")
            home = any(province in power.home_centres for power in self.variant.powers.values())
            # the dot's left half in the old owner's colour (white: no one's) under a solid dark rim:
            # unlike a build site's wide dashed ring, and inside the box the map keeps free for the dot
            group = self._el("g", layer, class_="adj-centre-changed", data_province=province,
                             data_result=f"centre:{province}")
            x, y, r = point[0], point[1], pieces.CENTRE_DOT_RADIUS[home]
            was = self.colours.get(before, "#fff") if before else "#fff"
            self._el("path", group, d=f"M{x:.1f},{y - r:.1f}A{r:g},{r:g} 0 0 0 {x:.1f},{y + r:.1f}Z",
                     class_="adj-centre-was", style=f"fill: {was}")
            self._el("circle", group, cx=f"{x:.1f}", cy=f"{y:.1f}", r=f"{pieces.changed_ring_radius(home):.2f}",
                     class_="adj-centre-rim")
            self._el("title", group, f"{self.variant.province_name(province)}: now {self._owner(now)}'s, "
                                     f"was {self._owner(before)}'s")
        return layer

    def _owner(self, power: str) -> str:
        return self.variant.powers[power].name if power in self.variant.powers else "no one"

    def _retreats(self, retreats: dict[str, list[str]]) -> Any:
        """Thin dashed lines from each dislodged unit to the places it may retreat to."""
        layer = self._el("g", None, class_="adj-retreat-options")
        for location, options in retreats.items():
            home = self.anchor(location)
            if home is None:
                continue
            start = (home[0] + DISLODGED_OFFSET[0], home[1] + DISLODGED_OFFSET[1])
            for option in options:
                end = self.anchor(option)
                if end is None:
                    continue
                group = self._el("g", layer, class_="adj-retreat-option", data_from=location, data_to=option,
                                 data_result=f"dislodged:{location}")
                self._el("line", group, x1=f"{start[0]:.1f}", y1=f"{start[1]:.1f}", x2=f"{end[0]:.1f}",
                         y2=f"{end[1]:.1f}", class_="adj-line retreat-option")
                self._el("circle", group, cx=f"{end[0]:.1f}", cy=f"{end[1]:.1f}", r=4, class_="adj-dot retreat-option")
                self._el("title", group, f"may retreat to {self.variant.province_name(option)}")
        return layer

    def _strength(self, group: Any, location: str, mark: str) -> list[Any]:
        point = self.anchor(location)
        if point is None:
            return []
        group.setAttribute("data-strength", mark)
        label = _attr(group, "aria-label")
        if label:
            group.setAttribute("aria-label", f"{label}, strength {mark}")
        # the mark is drawn beside the unit's group, not in it: the unit's visible text stays its letter,
        # which its accessible name holds
        badge = pieces.STRENGTH_BADGE
        x, y = point[0] + badge.offset[0], point[1] + badge.offset[1]
        drawn = self._el("g", self._layers["unit-marks"], class_="adj-strength", data_location=location)
        self._el("circle", drawn, cx=f"{x:.1f}", cy=f"{y:.1f}", r=badge.radius, class_="adj-strength-body")
        self._text(drawn, x, y + 3.5, mark, "adj-strength-text")
        return [drawn]

    def _colour_centres(self, centres: dict[str, str]) -> None:
        for circle, province in self._centres:
            owner = centres.get(province)
            if self._owners.get(province, "?") == owner:
                continue
            self._owners[province] = owner
            circle.style.fill = self.colours.get(owner, "") if owner else "#ffffff"
            circle.setAttribute("data-owner", owner or "")

    def _highlight(self, targets: list[str]) -> None:
        """Mark the places the next click may choose; each is a button for the keyboard too."""
        for element in self.svg.querySelectorAll(".adj-target"):
            element.classList.remove("adj-target")
            for name in ("tabindex", "role", "aria-label"):
                element.removeAttribute(name)
        for location in targets:
            focusable = True
            for ident in (location, location.split("/")[0]):
                element = _v(self.svg.querySelector(f'[id="{ident}"]'))
                if element is not None:
                    element.classList.add("adj-target")
                    if focusable:  # (a coast's province is highlighted too, but reached once)
                        element.setAttribute("tabindex", "0")
                        element.setAttribute("role", "button")
                        element.setAttribute("aria-label", self._place_label(element, location))
                        focusable = False

    def _place_label(self, element: Any, location: str) -> str:
        """A highlighted place's accessible name: its full name, and the label the map shows on it (a
        coast's "NC"), so that the name holds the text a sighted user sees there."""
        name = self.variant.province_name(location)
        shown = _v(element.querySelector(".coast-label")) if "/" in location else None
        text = str(shown.textContent).strip() if shown is not None else ""
        return f"{name}, {text}" if text and text not in name else name

    def _unit(self, parent: Any, unit: Any, location: str, selected: bool, orderable: bool,
              offset: tuple[float, float] = (0.0, 0.0), dislodged: bool = False) -> Any:
        point = self.anchor(location)
        power = self.variant.powers.get(unit.power)
        owner = power.adjective if power else unit.power
        name = f"{owner} {unit.type} {self.variant.province_name(location)}"
        title = name + (", dislodged: it must retreat or be disbanded" if dislodged else "")
        classes = "adj-unit" + " selected" * selected + " orderable" * orderable + " dislodged" * dislodged
        focus = {"tabindex": "0", "role": "button", "aria-label": name + (" (selected)" if selected else "")}
        group = self._el("g", parent, class_=classes, data_location=location, data_power=unit.power,
                         data_type=unit.type, **(focus if orderable and point is not None else {}))
        if point is None:
            return group
        x, y = point[0] + offset[0], point[1] + offset[1]
        self._body(group, x, y, unit.type, self.colours.get(unit.power, "#888"), "adj-unit-body")
        self._text(group, x, y + 4.5, unit.type, "adj-unit-letter")
        self._el("title", group, title)
        return group

    def _body(self, parent: Any, x: float, y: float, unit_type: str, colour: str, cls: str) -> None:
        """A unit's shape at (x, y): a fleet's rounded box, an army's disc."""
        if unit_type == "F":
            self._el("rect", parent, x=f"{x - FLEET_WIDTH / 2:.1f}", y=f"{y - FLEET_HEIGHT / 2:.1f}",
                     width=f"{FLEET_WIDTH:g}", height=f"{FLEET_HEIGHT:g}", rx=5, class_=cls, style=f"fill: {colour}")
        else:
            self._el("circle", parent, cx=f"{x:.1f}", cy=f"{y:.1f}", r=UNIT_RADIUS, class_=cls, style=f"fill: {colour}")

    def _arrow(self, parent: Any, a: tuple[float, float], b: tuple[float, float], cls: str, colour: str,
               head: bool = True, shorten: float = UNIT_RADIUS + 2) -> None:
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy) or 1.0
        ux, uy = dx / length, dy / length
        start = (a[0] + ux * (UNIT_RADIUS + 1), a[1] + uy * (UNIT_RADIUS + 1))
        end = (b[0] - ux * shorten, b[1] - uy * shorten) if length > shorten * 2 else b
        # a dark casing under the power's colour: the line keeps its contrast over land and sea alike
        # (the lighter power colours alone do not: tests/test_maps_render.py measures it)
        self._el("line", parent, x1=f"{start[0]:.1f}", y1=f"{start[1]:.1f}", x2=f"{end[0]:.1f}",
                 y2=f"{end[1]:.1f}", class_=cls.replace("adj-line", "adj-casing"))
        self._el("line", parent, x1=f"{start[0]:.1f}", y1=f"{start[1]:.1f}", x2=f"{end[0]:.1f}",
                 y2=f"{end[1]:.1f}", class_=cls, style=f"stroke: {colour}")
        if head:
            size = 11.0
            left = (end[0] - ux * size - uy * size * 0.55, end[1] - uy * size + ux * size * 0.55)
            right = (end[0] - ux * size + uy * size * 0.55, end[1] - uy * size - ux * size * 0.55)
            self._el("polygon", parent, points=" ".join(f"{p[0]:.1f},{p[1]:.1f}" for p in (end, left, right)),
                     class_=cls + " head", style=f"fill: {colour}")

    def _order_title(self, shape: Shape) -> str:
        """An order in words, as its symbols' tooltip says it: "Paris moves to Burgundy"."""
        name = self.variant.province_name
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

    def _shape(self, parent: Any, shape: Shape, extra: str = "") -> list[Any]:
        """Draw ``shape`` in ``parent``; returns the marks drawn beside its unit, in the unit-marks layer."""
        colour = self.colours.get(shape.power, "#444")
        state = "" if shape.success is None else (" succeeded" if shape.success else " failed")
        classes = f"adj-order {shape.kind}{state} {extra}".strip()
        attrs = {"data_kind": shape.kind}
        if extra == "result":  # the key the results list marks it by (Session.results_entries)
            attrs["data_result"] = f"order:{shape.at}"
        at = self.anchor(shape.at)
        if at is not None:
            classes += " illegal" * shape.illegal + (f" {shape.outcome}" if shape.outcome else "")
            if shape.outcome:
                attrs["data_outcome"] = shape.outcome
        group = self._el("g", parent, class_=classes, **attrs)
        if at is None:
            return []
        title = self._order_title(shape)
        if shape.success is not None:
            outcome = "succeeded" if shape.success else "failed"
            title = f"{title}: {outcome} ({shape.reason})" if shape.reason else f"{title}: {outcome}"
        if shape.illegal:
            title = f"{title}: illegal, kept anyway: the unit will hold"
        self._el("title", group, title)
        beside: list[Any] = []

        def mark_group(what: str) -> Any:
            """A group for a mark beside the unit, above the units; a click on it is a click on the unit."""
            keyed = {"data_result": f"order:{shape.at}"} if extra == "result" else {}
            drawn = self._el("g", self._layers["unit-marks"], class_=f"adj-unit-mark {what} {extra}".strip(),
                             data_kind=shape.kind, data_location=shape.at, **keyed)
            self._el("title", drawn, title)
            beside.append(drawn)
            return drawn

        if shape.illegal:  # kept at the player's say: a "!" beside the unit says it will hold
            mark = pieces.ILLEGAL_MARK
            x, y = at[0] + mark.offset[0], at[1] + mark.offset[1]
            drawn = mark_group("illegal")
            self._el("circle", drawn, cx=f"{x:.1f}", cy=f"{y:.1f}", r=mark.radius, class_="adj-illegal-body")
            self._text(drawn, x, y + 3.5, "!", "adj-illegal-text")
        to = self.anchor(shape.to) if shape.to else None
        via = self.anchor(shape.via) if shape.via else None
        if shape.kind in ("move", "retreat") and to is not None:
            self._arrow(group, at, to, "adj-line", colour)
        elif shape.kind == "support" and via is not None:
            if to is None:
                self._arrow(group, at, via, "adj-line dashed", colour, head=False)
                self._el("circle", group, cx=f"{via[0]:.1f}", cy=f"{via[1]:.1f}", r=UNIT_RADIUS + 4,
                         class_="adj-ring", style=f"stroke: {colour}")
            else:
                mid = ((via[0] + to[0]) / 2, (via[1] + to[1]) / 2)
                self._arrow(group, at, mid, "adj-line dashed", colour, shorten=2)
        elif shape.kind == "convoy" and via is not None and to is not None:
            mid = ((via[0] + to[0]) / 2, (via[1] + to[1]) / 2)
            self._arrow(group, at, mid, "adj-line dotted", colour, head=False)
            self._el("circle", group, cx=f"{mid[0]:.1f}", cy=f"{mid[1]:.1f}", r=4, class_="adj-dot",
                     style=f"fill: {colour}")
        elif shape.kind == "protect" and via is not None:
            # a dotted line to the fleet it protects, then the fleet's run as a dotted arrow, and a shield
            self._arrow(group, at, via, "adj-line dotted", colour, head=False)
            if to is not None:
                self._arrow(group, via, to, "adj-line dotted", colour, shorten=4)
            shield = pieces.PROTECT_SHIELD
            sx, sy, r = at[0] + shield.offset[0], at[1] + shield.offset[1], shield.radius
            # a flat top 2r wide less a sixth, straight sides, then curves to a point: inside the square
            w = r * 5 / 6
            self._el("path", mark_group("protect"), d=f"M{sx - w:.1f},{sy - r:.1f}h{2 * w:.1f}v{r * 5 / 6:.1f}"
                     f"q0,{r * 5 / 6:.1f} {-w:.1f},{r * 7 / 6:.1f}q{-w:.1f},{-r / 3:.1f} {-w:.1f},{-r * 7 / 6:.1f}z",
                     class_="adj-shield", style=f"fill: {colour}")
        elif shape.kind == "transfer" and via is not None:
            self._arrow(group, at, via, "adj-line double", colour)
            self._badge(mark_group("transfer"), at, "T", colour)
        elif shape.kind == "mattermit" and to is not None:
            self._arrow(group, at, to, "adj-line dashed long", colour)
            self._badge(mark_group("mattermit"), at, "M", colour)
        elif shape.kind == "research":
            self._el("circle", group, cx=f"{at[0]:.1f}", cy=f"{at[1]:.1f}", r=ORDER_RING.radius,
                     class_="adj-ring dashed", style=f"stroke: {colour}")
            self._badge(mark_group("research"), at, "R", colour)
        elif shape.kind == "hold":
            self._el("circle", group, cx=f"{at[0]:.1f}", cy=f"{at[1]:.1f}", r=ORDER_RING.radius,
                     class_="adj-ring", style=f"stroke: {colour}")
        elif shape.kind == "disband":
            self._el("path", group, d=f"M{at[0]-9:.1f},{at[1]-9:.1f}L{at[0]+9:.1f},{at[1]+9:.1f}"
                     f"M{at[0]+9:.1f},{at[1]-9:.1f}L{at[0]-9:.1f},{at[1]+9:.1f}", class_="adj-cross")
        elif shape.kind == "build":
            self._el("circle", group, cx=f"{at[0]:.1f}", cy=f"{at[1]:.1f}", r=ORDER_RING.radius,
                     class_="adj-ring build", style=f"stroke: {colour}")
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
                mid = ((at[0] + end[0]) / 2, (at[1] + end[1]) / 2)
                self._el("path", group, d=f"M{mid[0]-6:.1f},{mid[1]-6:.1f}L{mid[0]+6:.1f},{mid[1]+6:.1f}"
                         f"M{mid[0]+6:.1f},{mid[1]-6:.1f}L{mid[0]-6:.1f},{mid[1]+6:.1f}", class_="adj-cross")
        return beside

    def _bounce(self, group: Any, at: tuple[float, float], to: tuple[float, float]) -> None:
        """A bounced move: a bar across the arrow just short of the province it could not enter."""
        dx, dy = to[0] - at[0], to[1] - at[1]
        length = math.hypot(dx, dy) or 1.0
        ux, uy = dx / length, dy / length
        back = min(UNIT_RADIUS + 12.0, length / 2)
        cx, cy = to[0] - ux * back, to[1] - uy * back
        self._el("path", group, d=f"M{cx - uy * 9:.1f},{cy + ux * 9:.1f}L{cx + uy * 9:.1f},{cy - ux * 9:.1f}",
                 class_="adj-bounce")

    def _cut(self, group: Any, at: tuple[float, float], target: tuple[float, float]) -> None:
        """A cut support: a zigzag break across the middle of the support line."""
        dx, dy = target[0] - at[0], target[1] - at[1]
        length = math.hypot(dx, dy) or 1.0
        ux, uy = dx / length, dy / length
        mx, my = (at[0] + target[0]) / 2, (at[1] + target[1]) / 2
        points = []
        for step, side in ((-6.0, -8.0), (-2.0, 8.0), (2.0, -8.0), (6.0, 8.0)):
            points.append(f"{mx + ux * step - uy * side:.1f},{my + uy * step + ux * side:.1f}")
        self._el("polyline", group, points=" ".join(points), class_="adj-cut")

    def _marks(self, marks: PhaseMarks, spots: tuple[str, ...] = ()) -> Any:
        """Stand-offs, the places units were dislodged from, and the adjustments due with the build sites;
        a power's badge of adjustments due is placed clear of the units (at ``spots``) and centre dots."""
        layer = self._el("g", None, class_="adj-marks")
        for province, units in sorted(marks.standoffs.items()):
            point = self.anchor(province)
            if point is None:
                continue
            group = self._el("g", layer, class_="adj-standoff", data_province=province,
                             data_result=f"standoff:{province}")
            x, y = point
            spikes = []
            for i in range(16):
                angle = math.pi * i / 8
                r = 13.0 if i % 2 == 0 else 6.0
                spikes.append(f"{x + r * math.cos(angle):.1f},{y + r * math.sin(angle):.1f}")
            self._el("polygon", group, points=" ".join(spikes), class_="adj-standoff-body")
            names = ", ".join(self.variant.province_name(u) for u in units)
            self._el("title", group, f"Stand-off in {self.variant.province_name(province)}: {names} bounced; "
                                     "no unit may retreat there")
        for location, reason in sorted(marks.dislodged.items()):
            home = self.anchor(location)
            if home is None:
                continue
            group = self._el("g", layer, class_="adj-dislodged-mark", data_location=location,
                             data_result=f"dislodged:{location}")
            end = (home[0] + DISLODGED_OFFSET[0], home[1] + DISLODGED_OFFSET[1])
            # a dashed red ring round the unit, drawn beside the place it was pushed out of
            self._el("circle", group, cx=f"{end[0]:.1f}", cy=f"{end[1]:.1f}", r=DISLODGED_RING.radius,
                     class_="adj-dislodged-ring")
            self._el("title", group, f"The unit in {self.variant.province_name(location)} was {reason or 'dislodged'}")
        taken: list[tuple[float, float]] = []
        for power, delta in sorted(marks.adjustments.items()):
            homes = [p for p in (self.centre_points.get(h) or self.anchor(h)
                                 for h in self.variant.powers[power].home_centres) if p is not None]
            colour = self.colours.get(power, "#444")
            for province in marks.build_sites.get(power, []):
                point = self.centre_points.get(province) or self.anchor(province)
                if point is None:
                    continue
                site = self._el("circle", layer, cx=f"{point[0]:.1f}", cy=f"{point[1]:.1f}", r=BUILD_SITE_RING.radius,
                                class_="adj-build-site", data_power=power, data_province=province,
                                data_result=f"adjust:{power}", style=f"stroke: {colour}")
                self._el("title", site, f"{self._owner(power)} may build in {self.variant.province_name(province)}")
            if not homes:
                continue
            x, y = self._clear_spot((sum(p[0] for p in homes) / len(homes), sum(p[1] for p in homes) / len(homes)),
                                    (15.0, 10.0), [a for a in map(self.anchor, spots) if a is not None], taken)
            taken.append((x, y))
            text = f"+{delta}" if delta > 0 else f"\u2212{-delta}"
            group = self._el("g", self._layers["unit-marks"],
                             class_="adj-adjustment " + ("builds" if delta > 0 else "removals"),
                             data_power=power, data_delta=delta, data_result=f"adjust:{power}")
            self._el("rect", group, x=f"{x - 15:.1f}", y=f"{y - 10:.1f}", width=30, height=20, rx=10,
                     class_="adj-adjustment-body", style=f"fill: {colour}")
            self._text(group, x, y + 5, text, "adj-adjustment-text")
            count = abs(delta)
            what = ("build" if delta > 0 else "removal") + ("s" if count != 1 else "")
            self._el("title", group, f"{self._owner(power)}: {count} {what} due")
            self._beside.setdefault("marks", []).append(group)
        return layer

    def _clear_spot(self, near: tuple[float, float], half: tuple[float, float], units: list[tuple[float, float]],
                    badges: list[tuple[float, float]]) -> tuple[float, float]:
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

    def mark_result(self, key: str) -> None:
        """Pick out the symbols of one result (a ``data-result`` key, from the results list) on the map,
        and no others; "" picks out none."""
        for element in self.svg.querySelectorAll(".adj-picked"):
            element.classList.remove("adj-picked")
        if key:  # (compared, not put in a selector: a draft variant's ids may hold any character)
            for element in self.svg.querySelectorAll("[data-result]"):
                if _attr(element, "data-result") == key:
                    element.classList.add("adj-picked")

    def _badge(self, group: Any, at: tuple[float, float], letter: str, colour: str) -> None:
        """A small lettered disc on a unit's lower left corner: the Cluster orders that are not moves (R, T, M)."""
        badge = pieces.ORDER_BADGE
        x, y = at[0] + badge.offset[0], at[1] + badge.offset[1]
        self._el("circle", group, cx=f"{x:.1f}", cy=f"{y:.1f}", r=badge.radius, class_="adj-badge",
                 style=f"stroke: {colour}")
        self._text(group, x, y + 3.5, letter, "adj-badge-text")

    @staticmethod
    def location_of(event_target: Any) -> str | None:
        """The location (province or coast id) a click on the map landed on."""
        element = _v(event_target)
        while element is not None and str(getattr(element, "tagName", "")).lower() not in ("svg", ""):
            location = _attr(element, "data-location")
            if location:
                return location
            classes = (_attr(element, "class") or "").split()
            if element.id and ("province" in classes or "coast" in classes):
                return str(element.id)
            province = _attr(element, "data-province")
            if province:
                return province
            element = _v(element.parentNode)
        return None


def show_drawn(key: Any, svg: Any) -> bool:
    """Show each item of the map's key ``key`` that explains a mark ``svg`` draws (an item's
    ``data-marks`` selects the board's marks it explains), hide the others; returns whether any is shown.
    So a variant's own marks are explained where they are drawn, and no key lists a mark the game in
    hand does not draw (docs/game-table.md, "The key to a variant's own marks")."""
    return bool(js.window.adjutantPage.showDrawn(key, svg))
