"""The map from the keyboard, and the map's clicks: which of the map's buttons takes Tab, where the arrow
keys go, and what Enter, Space, Tab and Escape do on it.

The map's buttons are one Tab stop, after the map itself (a roving tabindex, as in a toolbar or a grid):
an arrow key goes to the nearest of its buttons that way on the map (adjutant_ui.compass), Home and End
to the first and last in list order, and Enter or Space presses one. With no unit selected its buttons
are the units that can be ordered (and the highlighted places, when a phase has any: builds); with a
unit selected, the places highlighted for it, then the unit itself (Enter on it holds). Selecting a unit
puts the focus on its first highlighted place; Tab then goes to its choices (Hold, Support, ..., Cancel)
and Shift+Tab from the first choice back to the map; Escape cancels, back to the unit.
docs/game-table.md (keyboard) has the design; tests/browser/test_map_keys.py and test_order_entry.py the
key presses. :class:`MapKeys` is given the page (:class:`adjutant_ui.page.Page`), the group game's
controller (whose player gives orders for one power) and the order entry (:class:`adjutant_ui.play.Play`)
that a press on the map goes to.
"""

from __future__ import annotations

from typing import Any

import js
from pyodide.ffi import to_js

from . import compass
from .board import Board
from .dom import attr_of as _attr_of
from .dom import by_id as _id
from .dom import js_value as _v
from .group import GroupController
from .page import Page
from .play import Play

document = js.document


class MapKeys:
    """The map's buttons as one Tab stop moved by the arrow keys, and the map's clicks and key presses
    handed to the order entry."""

    def __init__(self, page: Page, group: GroupController, play: Play) -> None:
        self.page = page
        self.group = group
        self.play = play
        #: the map's button that takes Tab (its location: see :meth:`rove`), and whether the last step of
        #: click entry came from the keyboard (the order panel then says which keys do what)
        self.map_focus: str | None = None
        self.by_keyboard = False

    def _roving(self) -> Any:
        """[the map's button that takes Tab or null, the map's buttons in list order (Home, End)], made in
        one JS call (web/page.js mapStops; a call per unit and attribute would cost milliseconds a render)."""
        session = self.page.session
        holder = _v(_id("map"))
        if session is None or holder is None:
            return None
        chosen = str(_id("orders-power").value) or self.group.player_power() or ""
        powers = to_js(list(session.game.variant.powers))
        selected, moving, focus = bool(session.selected), session.mode == "move", self.map_focus or ""
        return js.window.adjutantPage.mapStops(holder, selected, moving, powers, focus, chosen)

    def map_stops(self) -> list[Any]:
        """The map's buttons in list order (Home and End): units by power then name, places by name."""
        roving = self._roving()
        return [] if roving is None else list(roving[1])

    def rove(self) -> Any:
        """Make the map's buttons one Tab stop: the button at :attr:`map_focus` (else the first unit of the
        power whose orders are being given, else the first) takes Tab, the others only the arrow keys.
        Returns that button (None when the map has none)."""
        roving = self._roving()
        return None if roving is None else _v(roving[0])

    def focus_stop(self, location: str | None) -> None:
        """Focus the map's button at ``location`` (None: its first); with none there, the first choice."""
        self.map_focus = location
        current = self.rove()
        first_choice = _v(document.querySelector("#click-order button"))
        if current is not None:
            current.focus()
        elif first_choice is not None:
            first_choice.focus()
        else:
            _id("map").focus()

    def focus_after_action(self, was: str | None) -> None:
        """After a key pressed on the map or on a choice: a coast to choose (or a set-up's choice) comes
        first; then a selected unit's first highlighted place; else the unit just ordered (or let go)."""
        coast = _v(document.querySelector("#click-order button[data-action^='coast-'], #setup-choice button"))
        if coast is not None:
            coast.focus()
        elif self.page.session is not None and self.page.session.selected:
            self.focus_stop(None)
        else:
            self.focus_stop(was)

    def on_key(self, event: Any) -> None:
        """A key pressed anywhere on the page: Escape cancels the order under way; on the map, the keys of
        the module's docstring."""
        if event.key == "Escape":
            self.cancel(refocus=True)
            return
        if self.page.embed or self.page.session is None:
            return
        target = event.target
        inside = hasattr(target, "closest") and _v(target.closest("#map")) is not None
        location = Board.location_of(target) if inside and _attr_of(target, "tabindex") is not None else None
        if location is None:
            if event.key == "Tab" and event.shiftKey and self.page.session.selected and self._first_choice(target):
                event.preventDefault()  # from the selected unit's first choice back to its place on the map
                self.by_keyboard = True
                self.focus_stop(self.map_focus)
            return
        self.by_keyboard = True
        if event.key in ("Enter", " "):
            # the same as a click on it
            event.preventDefault()
            was = self.page.session.selected
            self.map_focus = location
            self.play.act_on(location)
            self.focus_after_action(was or location)
            return
        if event.key == "Tab" and not event.shiftKey and self.page.session.selected:
            first = _v(document.querySelector("#click-order button"))
            if first is not None:
                event.preventDefault()  # to the selected unit's choices, which the page puts further on
                self.map_focus = location
                first.focus()
            return
        if event.key in compass.DIRECTIONS or event.key in ("Home", "End"):
            event.preventDefault()
            keys = [Board.location_of(e) for e in self.map_stops()]
            if not keys:
                return
            if event.key in ("Home", "End"):
                there: int | None = 0 if event.key == "Home" else len(keys) - 1
            else:  # the nearest button that way on the map; none: the focus stays
                board = self.page.board
                points = [board.anchor(key) if board is not None and key else None for key in keys]
                there = compass.nearest_towards(points, keys.index(location) if location in keys else -1, event.key)
            if there is not None:
                self.focus_stop(keys[there])

    def on_orders_power(self, event: Any) -> None:
        """A power chosen for the orders: its build places are ringed, and the map's Tab stop goes to its
        first unit."""
        self.map_focus = None
        self.page.render()

    def on_map_focus(self, event: Any) -> None:
        """A unit or a place on the map reached from the keyboard: the order panel says which keys do what."""
        target = event.target
        if self.by_keyboard or not bool(target.matches(":focus-visible")) or Board.location_of(target) is None:
            return
        self.by_keyboard = True
        if self.page.session is not None and not self.page.embed:
            self.page.orders_panel()

    @staticmethod
    def _first_choice(element: Any) -> bool:
        first = _v(document.querySelector("#click-order button"))
        return first is not None and bool(first.isSameNode(element))

    def cancel(self, refocus: bool = False) -> None:
        """Leave the order under way. From the keyboard (``refocus``), the focus goes back to the unit
        when it was on the map or on the unit's choices."""
        if self.page.session is None:
            return
        was = self.page.session.selected
        active = _v(document.activeElement)
        on_order = active is None or active.isSameNode(document.body) or any(
            _v(active.closest(selector)) is not None for selector in ("#map", "#click-order"))
        self.page.session.clear_selection()
        self.play.coast_choices = []
        self.page.render()
        if refocus and was and on_order:
            self.focus_stop(was)

    def on_map_click(self, event: Any) -> None:
        session = self.page.session
        if session is None or self.page.embed:
            return
        location = Board.location_of(event.target)
        if location is None:
            return
        self.by_keyboard = event.detail == 0  # (Enter on a focused place is handled by on_key)
        self.play.act_on(location)
