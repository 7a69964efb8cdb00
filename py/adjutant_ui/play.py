"""Orders given at the table and the phase played on: orders typed or clicked on the map, the problems
of each entry, adjudication (after a warning of what has no order), undo, a draw declared, a new game.

:class:`Play` is given the page (:class:`adjutant_ui.page.Page`) and the parts a phase's play goes
through: the group game's controller (a player's orders, the game master's lock), the computer players
(they order before the phase is adjudicated), the set-up panel (a click on its map sets up the
position), the saving (a new game replaces the one in hand) and the games with secrets (a new one starts
from its passphrases).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import js
from adjutant import AdjutantError, load_variant
from adjutant.formats.limits import without_bidi_controls
from adjutant.formats.link import link_steps

from . import computer, sealed
from .computer_page import ComputerPlayers
from .dom import by_id as _id
from .group import GroupController, choosing
from .page import Page
from .saving import Saving
from .sealing import Sealing
from .session import Session
from .setup import SetupPanel

document = js.document


class Play:
    """Orders entered, typed or clicked, and each phase adjudicated, undone or drawn; a new game begun."""

    def __init__(self, page: Page, group: GroupController, computer: ComputerPlayers, setup: SetupPanel,
                 saving: Saving, sealing: Sealing) -> None:
        self.page = page
        self.group = group
        self.computer = computer
        self.setup = setup
        self.saving = saving
        self.sealing = sealing
        #: the "units without orders" warning is open (Adjudicate was pressed with something unordered)
        self.warning_open = False
        #: the coasts offered for the order under way (a fleet moved or built where it has a choice)
        self.coast_choices: list[str] = []

    def step(self, delta: int | None = None, to: int | None = None) -> None:
        assert self.page.session is not None
        self.page.session.step(delta=delta, to=to)
        self.page.render()
        if document.activeElement.disabled:  # « or » at the history's end: the focus stays in the history bar
            for name in ("hist-prev", "hist-next"):
                if not _id(name).disabled:
                    _id(name).focus()
                    break

    def act_on(self, location: str) -> None:
        """A click, tap, Enter or Space on ``location`` of the map (or on a choice of the order under way):
        the next step of click entry; nothing while the computer thinks, whose orders are made from the
        position as it was."""
        session = self.page.session
        assert session is not None
        if self.computer.thinking:
            return
        if self.setup.draft is not None:
            self.setup.click(location)
            return
        order, coasts = session.click(location)
        self.coast_choices = coasts
        if order:
            self.enter(order, power=None)
        elif session.withdrawn:  # a build or removal taken back: the game's orders changed
            self.warning_open = False
            _id("orders-errors").replaceChildren()
            self.page.changed()
        self.page.render()

    def enter(self, text: str, power: str | None) -> None:
        assert self.page.session is not None
        self.warning_open = False
        player = self.group.player_power()
        # a player's click adds to their own orders, for no other power
        problems = self.page.session.enter_orders(text, player if power is None and player else power)
        self.show_problems(problems)
        self.page.changed()

    def show_problems(self, problems: list[Any]) -> None:
        """The problems of the last entry, then what it replaced (so no earlier order goes silently)."""
        errors = _id("orders-errors")
        errors.replaceChildren()
        for problem in problems:
            item = document.createElement("li")
            item.className = "kept" if getattr(problem, "kept", False) else "rejected"
            kept = " (kept: marked illegal, it will hold)" if problem.kept else ""
            item.textContent = without_bidi_controls(str(problem)) + kept  # (it quotes the orders as typed)
            errors.appendChild(item)
        for old, new in self.page.session.replaced if self.page.session is not None else []:
            item = document.createElement("li")
            item.className = "replaced"
            item.textContent = f"replaced {old} by {new}"
            errors.appendChild(item)

    def on_orders(self, event: Any) -> None:
        event.preventDefault()
        if self.page.session is None:
            return
        text = str(_id("orders-text").value)
        # a sealed code is not an order: nothing is entered, the text stays, and each code's line says where
        # it goes instead (a code typed here would otherwise be parsed as a power's or a province's name)
        if self.page.list_problems("orders-errors", self.group.codes_typed(text)):
            return
        power = str(_id("orders-power").value) or self.group.player_power()
        # orders are for the current phase: show it, not the past one being looked at
        self.page.session.step(to=len(self.page.session.game.history))
        self.warning_open = False
        try:
            problems = self.page.session.enter_orders(text, power, keep_illegal=bool(_id("orders-keep").checked))
        except AdjutantError as error:
            self.page.message(str(error))
            return
        self.show_problems(problems)
        self.group.typed(power)
        # what was taken leaves the box; the lines refused stay, to be corrected
        _id("orders-text").value = "\n".join(self.page.session.refused)
        self.page.changed()
        self.page.render()

    def on_clear_orders(self, event: Any) -> None:
        assert self.page.session is not None
        power = str(_id("orders-power").value) or None
        self.page.session.step(to=len(self.page.session.game.history))
        self.page.session.game.clear_orders(power)
        self.page.changed()
        self.page.render()

    def on_adjudicate(self, event: Any) -> None:
        """Adjudicate, or first list what has no order (units that will hold, builds unused) and what will
        not count (builds or removals beyond those due), and let the player go on or go back."""
        session = self.page.session
        assert session is not None
        # (the computer's powers are given their orders as the phase is adjudicated)
        missing, extra = session.unordered(but=self.computer.will_order()), session.beyond_due()
        if missing or extra:
            self.warning_open = True
            count = len(missing)
            _id("adjudicate-warning-text").textContent = (
                f"{count} {'thing has' if count == 1 else 'things have'} no order yet:" if not extra
                else "Before adjudicating, look at:")
            listing = _id("adjudicate-missing")
            listing.replaceChildren()
            for line in missing + extra:
                item = document.createElement("li")
                item.textContent = line
                listing.appendChild(item)
            _id("adjudicate-warning").hidden = False
            _id("adjudicate-anyway").focus()
            return
        self.adjudicate(by_keyboard=event.detail == 0)

    def on_adjudicate_anyway(self, event: Any) -> None:
        if not self.adjudicate(by_keyboard=event.detail == 0):
            _id("adjudicate").focus()  # the warning, and the button pressed, are gone: the focus stays at hand

    def on_adjudicate_back(self, event: Any) -> None:
        self.warning_open = False
        _id("adjudicate-warning").hidden = True
        _id("adjudicate").focus()

    def adjudicate(self, by_keyboard: bool = False, thought: bool = False) -> bool:
        """Adjudicate the phase, once the computer players have given their orders (unless ``thought``:
        they have). A group game's master who pressed Adjudicate from the keyboard (a click with no pointer:
        ``event.detail`` 0) is taken on to the next step, Message to players; True if the focus went there."""
        self.warning_open = False
        _id("adjudicate-warning").hidden = True
        if self.group.locked():  # (its button is greyed, and says why)
            return False
        if not thought and self.computer.before_adjudicate(lambda pause: self.adjudicate_in_parts(by_keyboard, pause)):
            return False
        if not self._adjudicate_phase():
            return False
        self.page.changed()
        self.page.render()
        self.computer.play_on(lambda pause: self.adjudicate_in_parts(by_keyboard, pause))
        return by_keyboard and self.group.to_message()

    async def adjudicate_in_parts(self, by_keyboard: bool, pause: Callable[[], Awaitable[object]]) -> bool:
        """:meth:`adjudicate` once the computer has given its orders: the phase adjudicated, the link and
        the save made, and the page drawn, each in a task of its own (``pause`` gives the browser its turn
        between them), so that none holds the page's main thread long on a phone (docs/computer-players.md)."""
        if not self._adjudicate_phase():
            return False
        await pause()
        session = self.page.session
        if session is not None:  # the new phase's part of its link, in slices: changed() then makes it at once
            await computer.in_slices(link_steps(session.kept), pause)
        self.page.changed()
        await pause()
        # the largest part of drawing the new phase, in slices (each layer built in a step of its own, all put
        # in the page at the last); the rest of the page after it
        if self.page.board is not None and self.page.session is not None:
            await computer.in_slices(self.page.board_steps(), pause)
        await pause()
        # the rest of the page, a panel or two a task (the board is drawn: nothing of it is drawn again)
        await computer.in_slices(self.page.render_steps(), pause)
        return by_keyboard and self.group.to_message()

    def _adjudicate_phase(self) -> bool:
        """The game's part of :meth:`adjudicate`: the phase adjudicated and the page's state moved on to the
        next (not yet drawn); False, with the message said, if it was not."""
        session = self.page.session
        assert session is not None
        if self.group.locked():  # (locked while the computer thought: a code being taken in, say)
            return False
        done = session.game.phase.title
        try:
            session.adjudicate()
        except AdjutantError as error:
            self.page.message(str(error))
            return False
        session.step(to=len(session.game.history))
        self.group.adjudicated(done)
        self.page.clear_message()
        self._orders_box_for_new_phase()
        return True

    @staticmethod
    def _orders_box_for_new_phase() -> None:
        """Another phase is in hand: the orders box and what it said of the last entry (a refused line left
        to correct) were of the phase before, and go."""
        _id("orders-text").value = ""
        _id("orders-errors").replaceChildren()

    def on_undo(self, event: Any) -> None:
        session = self.page.session
        assert session is not None
        if self.group.locked():
            return
        try:
            session.undo()
        except AdjutantError as error:
            self.page.message(str(error))
            return
        self._orders_box_for_new_phase()
        session.step(to=len(session.game.history))
        self.group.undone()
        self.page.changed()
        self.page.render()

    def on_draw(self, event: Any) -> None:
        session = self.page.session
        game = session.kept if session else None
        if session is None or game is None or self.group.locked():
            return
        survivors = [p for p, n in game.centre_counts().items() if n > 0]
        names = ", ".join(game.variant.powers[p].name for p in survivors)
        if not js.window.confirm(f"Declare a draw between {names}?"):
            return
        session.declare_draw(survivors)
        self.page.changed()
        self.page.render()

    def on_new_game(self, event: Any) -> None:
        variant_id = str(_id("variant-select").value)
        try:
            secret = sealed.variant_has_secrets(load_variant(variant_id))
        except AdjutantError as error:
            self.page.message(str(error))
            return
        if not self.saving.may_replace():
            return
        if str(_id("game-kind").value) == "computer":  # the powers played here, and the computer's level
            self.computer.start_new(variant_id)
            if bool(_id("computer-dialog").open):  # (not for a variant it refuses, with a message instead)
                choosing()
            return
        if secret:  # the game master sets the passphrases first; the game starts when they are set
            group_game = str(_id("game-kind").value) == "group"
            self.sealing.open_passphrases("group" if group_game else "new", variant_id)
            return
        if str(_id("game-kind").value) == "group":
            self.group.start_new(variant_id)
            return
        asyncio.ensure_future(self._new_game(variant_id))

    async def _new_game(self, variant_id: str) -> None:
        try:
            new_session = Session.new(variant_id)
        except AdjutantError as error:
            self.page.message(str(error))
            return
        self.saving.replacing()
        await self.page.show(new_session)
        self.page.clear_message()  # it spoke of the game replaced
        self.page.changed()
        self.page.render()
