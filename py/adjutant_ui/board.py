"""The board in the page: the position and the orders drawn over the map SVG that build.py made, from
the one drawing of a position (:mod:`adjutant.pictures.drawing`), patched where a drawing changed.

The SVG is the renderer's contract (maps/geo/README.md): each province is an element whose ``id`` is
the province id, with its anchor points in ``data-unit`` / ``data-sc`` ("x,y"); each named coast is a
``<g class="coast" id="stp/nc" data-unit="x,y">``; supply centres are ``circle.sc[data-province]``; the
root holds ``data-power-colours`` (JSON). Everything drawn here goes into one ``<g id="adj-overlay">``
built with createElementNS, setAttribute and textContent only.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Generator, Iterator
from typing import Any

import js
from adjutant.pictures.drawing import LAYERS, Drawing, MapPoints, Node
from adjutant.pictures.scene import PhaseMarks, Shape
from pyodide.ffi import jsnull

SVG_NS = "http://www.w3.org/2000/svg"


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


@functools.cache
def _make_tree() -> Any:
    """The page's maker of a drawing's elements from its data (web/page.js adjutantPage.makeTree)."""
    return js.window.adjutantPage.makeTree


def build(parent: Any, node: Node) -> Any:
    """``node`` and its children as page elements, appended to ``parent`` (None: not yet in the page);
    returns the element made of ``node``."""
    # one JS call per drawing, its elements passed as JSON text (speed: a phase's results are hundreds of
    # elements, and a call from Python costs more than making one); made without parsing markup
    return _make_tree()(parent, json.dumps(node.as_data(), separators=(",", ":")))


class Board:
    def __init__(self, svg: Any, variant: Any) -> None:
        self.svg = svg
        self.variant = variant
        elements = [(str(e.id), _attr(e, "data-unit"), _attr(e, "data-sc"))
                     for e in svg.querySelectorAll("[data-unit], [data-sc]") if e.id]
        self.drawing = Drawing(variant, MapPoints.from_attributes(elements, _attr(svg, "data-power-colours")))
        self.anchors = self.drawing.anchors
        self.centre_points = self.drawing.centre_points
        self.colours = self.drawing.colours
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
        #: how many drawings were begun (a drawing in steps puts nothing in if another began meanwhile)
        self._generation = 0

    def anchor(self, location: str) -> tuple[float, float] | None:
        return self.drawing.anchor(location)

    # --- drawing -------------------------------------------------------------------------------------
    def draw(self, *args: Any, **kwargs: Any) -> None:
        """Draw the position and the orders at once (:meth:`steps`' arguments, its steps all taken)."""
        for _ in self.steps(*args, **kwargs):
            pass

    def steps(
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
    ) -> Iterator[None]:
        """Draw the position and the orders; in a game with secrets, also the Sites of the Ancients
        (province -> level) and the units' strengths (province -> "3" or "2") the viewer may see.
        ``results`` are the last phase's orders with their results, drawn under the orders; ``changed``
        the centres that changed hands (province -> earlier owner); ``retreats`` where each dislodged
        unit (by location) may retreat; ``marks`` the stand-offs, dislodgements and adjustments due.
        Each piece is :mod:`adjutant.pictures.drawing`'s, as every picture of the board draws it.

        Only what differs from the last drawing is drawn again (a click changes one order or one unit's
        look, not the board): each layer is kept with what it was drawn from, and the orders and units
        one by one. What is drawn again is built apart from the page and put in at once (PyScript watches
        every change to the page).

        The drawing comes a step at a time, for one too large for a task (a new phase with its results,
        on a phone): each layer, then each new order and unit, is built apart from the page in a step of
        its own, and the last step puts everything in the page together, so no half-drawn board is ever
        shown. A drawing begun after this one (a click meanwhile) wins: this one's last step then puts
        nothing in."""
        self._generation += 1
        mine = self._generation
        drawing = self.drawing
        commits: list[Callable[[], None]] = []
        self._kept_layer("unit-marks")  # before the layers that draw in it (see LAYERS)
        centres = {p: position.centres.get(p, "") for p in changed or {}}
        layers: list[tuple[str, Any, Callable[[], tuple[Node | None, list[Node]]]]] = [
            ("sites", dict(sites or {}), lambda: (drawing.sites(sites or {}), [])),
            ("changed", (dict(changed or {}), centres),
             lambda: (drawing.changed_centres(position.centres, changed or {}), [])),
            ("results", list(results or []), lambda: drawing.results(list(results or []))),
            ("retreats", dict(retreats or {}), lambda: (drawing.retreats(retreats or {}), [])),
            ("marks", (marks, tuple(sorted(u.location for u in position.units.values()))),
             lambda: drawing.marks(marks, tuple(sorted(u.location for u in position.units.values())))
             if marks is not None else (None, [])),
        ]
        for name, inputs, paint in layers:
            if not (name in self._inputs and self._inputs[name] == inputs):
                commits.append(self._layer(name, inputs, paint))
                yield
        commits.append((yield from self._update(self._orders, "orders", [(shape, shape) for shape in shapes],
                                                drawing.order)))
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
        commits.append((yield from self._update(self._units, "units", drawn, lambda key: drawing.unit(*key))))
        if mine != self._generation:
            return
        self._colour_centres(position.centres)
        if list(targets or []) != self._targets:
            self._highlight(targets or [])
            self._targets = list(targets or [])
        for commit in commits:
            commit()

    def _layer(self, name: str, inputs: Any, paint: Any) -> Callable[[], None]:
        """Layer ``name`` drawn again with ``paint`` (which returns its element, or None when there is
        nothing to draw, and the marks it draws in the unit-marks layer), apart from the page; returns
        what puts it in the page in place of the last one, recording ``inputs`` as what it was drawn
        from."""
        layer, beside = paint()
        element = build(None, layer) if layer is not None else None
        marks = self._apart(beside)

        def commit() -> None:
            self._inputs[name] = inputs
            old = self._layers.pop(name, None)
            if old is not None:
                old.remove()
            for mark in self._beside.pop(name, []):
                mark.remove()
            if element is not None:
                self._place(name, element)
            if marks is not None:
                self._beside[name] = self._beside_marks(*marks)

        return commit

    @staticmethod
    def _apart(nodes: list[Node]) -> tuple[Any, list[Any]] | None:
        """``nodes`` built in a fragment apart from the page, and their elements (None if there are none)."""
        if not nodes:
            return None
        fragment = js.document.createDocumentFragment()
        return fragment, [build(fragment, node) for node in nodes]

    def _beside_marks(self, fragment: Any, elements: list[Any]) -> list[Any]:
        """The marks built in ``fragment`` put in the unit-marks layer, above the units; returns their
        ``elements``."""
        self._layers["unit-marks"].appendChild(fragment)
        return elements

    def _place(self, name: str, element: Any) -> None:
        """Put layer ``name``'s ``element`` in the overlay under the layers drawn above it."""
        self._layers[name] = element
        for above in LAYERS[LAYERS.index(name) + 1:]:
            if above in self._layers:
                self.overlay.insertBefore(element, self._layers[above])
                return
        self.overlay.appendChild(element)

    def _kept_layer(self, name: str) -> Any:
        """The layer ``name`` whose items :meth:`_update` keeps from one drawing to the next."""
        layer = self._layers.get(name)
        if layer is None:
            layer = _make()(None, "g", None, "class", f"adj-{name}")
            self._place(name, layer)
        return layer

    def _update(self, kept: dict[Any, list[list[Any]]], name: str, items: list[tuple[Any, Any]],
                paint: Any) -> Generator[None, None, Callable[[], None]]:
        """What makes the kept layer ``name`` hold one drawing per item: ``items`` are (key, what
        ``paint(what)`` draws: its element and the marks beside it, drawn in the unit-marks layer); a
        drawing whose key is still there is kept, the others are removed, the new ones drawn. The new
        ones are drawn now, apart from the page, a step each; the step returned puts them in together."""
        wanted: dict[Any, int] = {}
        for key, _ in items:
            wanted[key] = wanted.get(key, 0) + 1
        new = js.document.createDocumentFragment()
        fresh: list[tuple[Any, list[Any], tuple[Any, list[Any]] | None]] = []
        for key, what in items:
            if len(kept.get(key, ())) + sum(k == key for k, _, _ in fresh) < wanted[key]:
                node, beside = paint(what)
                fresh.append((key, [build(new, node)], self._apart(beside)))
                yield

        def commit() -> None:
            layer = self._kept_layer(name)
            for key in list(kept):
                drawings = kept[key]
                while len(drawings) > wanted.get(key, 0):
                    for element in drawings.pop():
                        element.remove()
                if not drawings:
                    del kept[key]
            for key, elements, marks in fresh:
                kept.setdefault(key, []).append(elements + (self._beside_marks(*marks) if marks else []))
            if new.childElementCount:
                layer.appendChild(new)

        return commit

    def _colour_centres(self, centres: dict[str, str]) -> None:
        for circle, province in self._centres:
            owner = centres.get(province)
            if self._owners.get(province, "?") == owner:
                continue
            self._owners[province] = owner
            circle.style.fill = self.drawing.centre_fill(owner)
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

    def mark_result(self, key: str) -> None:
        """Pick out the symbols of one result (a ``data-result`` key, from the results list) on the map,
        and no others; "" picks out none."""
        for element in self.svg.querySelectorAll(".adj-picked"):
            element.classList.remove("adj-picked")
        if key:  # (compared, not put in a selector: a draft variant's ids may hold any character)
            for element in self.svg.querySelectorAll("[data-result]"):
                if _attr(element, "data-result") == key:
                    element.classList.add("adj-picked")

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
