"""The page's computer players: the "Against the computer" new game, the Computer players panel (who plays
each power, "Orders for the rest by computer") and the thinking, run in slices with a progress line.

:mod:`adjutant_ui.computer` is the plain-Python part (who the computer orders, the thinking itself); this
module wires it to index.html and to the hooks :class:`adjutant_ui.app.App` calls (``on_show``,
``start_new``, ``will_order``, ``before_adjudicate``, ``render``). Design: docs/computer-players.md.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple

import js
from adjutant import AdjutantError, load_variant
from adjutant.adjudication.orders import Order
from adjutant.bots import DEFAULT_LEVEL
from adjutant.formats.link import link_steps
from adjutant.group_play import cluster_views
from pyodide.ffi import jsnull

from . import computer, sealed
from .group import inert, marked_busy
from .page import Page
from .session import Session

document = js.document

#: what takes no input while the computer thinks: whatever would change the game or replace it (the map's
#: own zoom buttons, the page's scrolling and the Stop button stay)
THINKING_PARTS = (
    "#click-order", "#order-list", "#orders-form", ".adjudicate-row", "#adjudicate-warning",
    "header .new-game", "header .file-actions", "nav.history", "#computer", "#group", "#group-send",
    "#secrets", "#group-jump",
)


#: what is marked busy while the computer thinks but takes input: the map, which can be zoomed and panned
#: meanwhile and whose clicks and keys give no order then (:meth:`adjutant_ui.play.Play.act_on`); made inert,
#: its thousands of elements would be styled anew, a long task on a phone
THINKING_BUSY = ("#map",)


#: the adjudication the computer's thinking goes on to, given the pause between its parts
Adjudication = Callable[[Callable[[], Awaitable[object]]], Awaitable[object]]


def _pause() -> Any:
    """The browser's turn (input, painting) before the page's next task: web/page.js nextSlice."""
    return js.window.adjutantPage.nextSlice()


def _id(name: str) -> Any:
    return document.getElementById(name)


def _v(value: Any) -> Any:
    return None if value is None or value is jsnull else value


def new_seed() -> int:
    """A seat's seed: recorded in the game, so that the same game and seed give the same orders."""
    return random.SystemRandom().randrange(1, 2**31)


def _fill_levels(select: Any, chosen: str) -> None:
    select.replaceChildren()
    for level, label in computer.level_choices():
        option = document.createElement("option")
        option.value = level
        option.textContent = label
        select.appendChild(option)
    select.value = chosen


def power_boxes(holder: Any, game_powers: list[tuple[str, str]], prefix: str) -> None:
    """One checkbox per power (labelled with its name) in ``holder``, after its legend."""
    for box in holder.querySelectorAll("label"):
        box.remove()
    for power, name in game_powers:
        label = document.createElement("label")
        label.className = "power-choice"
        entry = document.createElement("input")
        entry.type = "checkbox"
        entry.value = power
        entry.id = f"{prefix}-{power}"
        label.append(entry, document.createTextNode(" " + name))
        holder.appendChild(label)


def checked(holder: Any) -> list[str]:
    return [str(entry.value) for entry in holder.querySelectorAll("input[type=checkbox]") if entry.checked]


class _Thought(NamedTuple):
    """The computer's orders for one phase (:meth:`ComputerPlayers._orders`), the phase's title, and the
    powers that were given them (filled as they are given)."""

    orders: dict[str, list[Order]]
    phase: str
    given: list[str]


class ComputerPlayers:
    def __init__(self, app: Page) -> None:
        self.app = app
        self.wired = False
        self.thinking = False
        self.stop = False
        #: what the seats list was last drawn for (the variant, the seats, whether they may be changed)
        self.drawn: Any = None
        #: the percentage the progress line last said (it is said in steps of ten: a live region)
        self.said = -1
        #: the game the list of seats was last opened or closed for
        self.opened_for: Any = None
        #: the phases the computer has played by itself since a person last pressed Adjudicate
        self.alone: list[str] = []

    # --- hooks the app calls ----------------------------------------------------------------------
    def on_show(self, session: Session) -> None:
        """A game shown: the Players box says "Against the computer" for a game the computer plays in."""
        kind = _v(_id("game-kind"))
        if kind is not None and self.app.group.state is None:
            kind.value = "computer" if session.game.computer else "sandbox"
        self._say("")

    def will_order(self) -> list[str]:
        """The powers the computer orders when Adjudicate is pressed (the warning of units without orders
        leaves them out)."""
        session = self.app.session
        if session is None or not session.at_current or not self.offered(session):
            return []
        return computer.to_order(session.kept, computer.seated(session.kept))

    def offered(self, session: Session) -> bool:
        """Whether the computer may play in the game shown: any game but one with secrets shown with every
        secret at one screen (a Cluster game master's sandbox); a Cluster game against the computer and a
        Cluster group game are (docs/computer-players.md, "Cluster")."""
        return not sealed.has_secrets(session.game) or session.master is not None or self.app.group.state is not None

    def before_adjudicate(self, then: Adjudication) -> bool:
        """Adjudicate was pressed: if the computer has orders to give, it thinks first (in slices), gives
        them and awaits ``then`` (the adjudication, given the pause that hands the browser its turn); True if
        so (the app waits for it), False to go on."""
        if self.thinking:
            return True
        powers = self.will_order()
        session = self.app.session
        if not powers or session is None:
            return False
        self.alone = []
        self._start_thinking(session, powers, None, then)
        return True

    def play_on(self, then: Adjudication, chained: bool = False) -> bool:
        """An adjudication is over: if the phase reached asks nothing of the people
        (:func:`computer.plays_alone`), the computer thinks for it and ``then`` adjudicates it, as for any
        phase, and so on until a phase needs a person or the game ends; True if so. Not in a group game:
        there each phase adjudicated is the game master's step, with its message to the players
        (docs/computer-players.md, "When the computer orders"). ``chained``: called at the end of a phase
        the computer played by itself (the phases so far are said together at the end)."""
        session = self.app.session
        if (self.thinking or session is None or not session.at_current or session.readonly
                or self.app.group.state is not None or not self.offered(session)
                or not computer.plays_alone(session.kept)):
            return False
        if not chained:
            self.alone = []
        self._start_thinking(session, self.will_order(), None, then, alone=True)
        return True

    def _start_thinking(self, session: Session, powers: list[str], level: str | None, then: Adjudication | None,
                        alone: bool = False) -> None:
        """:meth:`_think` begun in a task of its own; the page's root says meanwhile, from now until the
        computer's last phase is drawn, ``data-computer-thinking`` (for tests and benchmarks to wait on)."""
        document.documentElement.dataset.computerThinking = "yes"
        asyncio.ensure_future(self._think(session, powers, level, then, alone))

    # --- starting a game against the computer -----------------------------------------------------
    def start_new(self, variant_id: str) -> None:
        """The dialog for a new game against the computer: the powers played here, and the level."""
        self.wire()
        variant = load_variant(variant_id)
        dialog = _id("computer-dialog")
        dialog.dataset.variant = variant_id
        power_boxes(_id("computer-mine"), [(p.id, p.name) for p in variant.powers.values()], "mine")
        _fill_levels(_id("computer-new-level"), DEFAULT_LEVEL)
        _id("computer-errors").replaceChildren()
        dialog.showModal()

    def on_start(self, event: Any) -> None:
        event.preventDefault()
        dialog = _id("computer-dialog")
        variant = load_variant(str(dialog.dataset.variant))
        mine = checked(_id("computer-mine"))
        problems = []
        if not mine:
            problems.append("Choose the power you play (tick one; a few people at this screen tick one each).")
        elif len(mine) == len(variant.powers):
            problems.append("Leave one power at least to the computer (to play them all yourself, choose "
                            "Players: Sandbox).")
        if self.app.list_problems("computer-errors", problems):
            _v(document.querySelector("#computer-mine input")).focus()
            return
        dialog.close()
        level = computer.check_level(str(_id("computer-new-level").value))
        asyncio.ensure_future(self._start(variant.id, mine, level))

    async def _start(self, variant_id: str, mine: list[str], level: str) -> None:
        app = self.app
        try:
            variant = load_variant(variant_id)
            secret = sealed.variant_has_secrets(variant)
            # (a game with secrets: its sites drawn by the page's strong randomness, as for any Cluster game)
            game = cluster_views.new_game(int(js.window.adjutantSeal.randomSeed()), variant.id) if secret \
                else Session.new(variant_id).game
            seed = new_seed()
            for power in game.variant.powers:
                if power not in mine:
                    game.set_computer(power, level, seed)
            session = Session.of(game)
        except AdjutantError as error:
            app.message(str(error))
            return
        app.saving.replacing()
        await app.show(session)
        app.clear_message()
        if len(mine) == 1:  # typed orders are for the power played, and the map's Tab stop its first unit
            _id("orders-power").value = mine[0]
        app.changed()
        app.render()
        game = session.game
        hidden = " Each power's secrets are its own: you see yours, not the computer's." if session.master else ""
        self._say(f"New game: you play {computer.names(game, mine)}, the computer the others "
                  f"({computer.level_name(level)}). Give your orders, then press Adjudicate.{hidden}")

    def seat_group_game(self, game: Any) -> None:
        """A new group game: the powers its game master ticked as empty seats are the computer's."""
        seats = checked(_id("group-computer"))
        if seats:
            seed, level = new_seed(), computer.check_level(str(_id("group-computer-level").value))
            for power in seats:
                game.set_computer(power, level, seed)

    def group_dialog(self, variant_id: str) -> None:
        """The new group game's dialog offers its powers as empty seats for the computer."""
        variant = load_variant(variant_id)
        power_boxes(_id("group-computer"), [(p.id, p.name) for p in variant.powers.values()], "empty")
        _fill_levels(_id("group-computer-level"), DEFAULT_LEVEL)

    # --- the panel --------------------------------------------------------------------------------
    def wire(self) -> None:
        if self.wired:
            return
        self.wired = True
        app = self.app
        app.on(_id("computer-form"), "submit", self.on_start)
        app.on(_id("computer-cancel"), "click", lambda e: _id("computer-dialog").close())
        app.on(_id("computer-seats"), "change", self.on_seat)
        app.on(_id("computer-fill"), "click", self.on_fill)
        app.on(_id("computer-stop"), "click", self.on_stop)
        _fill_levels(_id("computer-level"), DEFAULT_LEVEL)

    @staticmethod
    def _say(text: str, kind: str = "info") -> None:
        line = _id("computer-status")
        if line is not None and line is not jsnull:
            line.textContent = text
            line.className = f"group-status {kind}"

    def _seats_list(self, game: Any, editable: bool) -> None:
        """Who plays each power: a person, or the computer at a level (a select per power)."""
        seats = computer.seated(game)
        key = (game.variant.id, tuple(seats.items()), editable)
        if key == self.drawn:
            return
        self.drawn = key
        holder = _id("computer-seats")
        holder.replaceChildren()
        choices = [("", "a person")] + [(level, f"the computer: {computer.level_name(level)}")
                                        for level, _ in computer.level_choices()]
        for power in game.variant.powers.values():
            label = document.createElement("label")
            label.htmlFor = f"seat-{power.id}"
            label.textContent = power.name
            select = document.createElement("select")
            select.id = f"seat-{power.id}"
            select.dataset.power = power.id
            for value, text in choices:
                option = document.createElement("option")
                option.value = value
                option.textContent = text
                select.appendChild(option)
            select.value = seats.get(power.id, "")
            select.disabled = not editable
            holder.append(label, select)

    def render(self) -> None:
        self.wire()
        app, session = self.app, self.app.session
        panel = _id("computer")
        if session is None or panel is None or panel is jsnull:
            return
        game = session.kept
        group = app.group.state
        offered = self.offered(session)
        panel.hidden = not offered
        if not offered:
            return
        player = group is not None and not group.is_gm
        editable = not player and not session.readonly and not game.over
        self._seats_list(game, editable)
        _id("computer-summary").textContent = computer.summary(game)
        if self.opened_for is not game:  # another game shown: its seats are shown open if it has any
            self.opened_for = game
            _id("computer-seats-box").open = bool(game.computer)
        # the fill is a sandbox's: a group game's seats are the game master's say, a player's their own
        fill = group is None and session.master is None  # (a Cluster view: the computer's orders are its secrets)
        _id("computer-fill-row").hidden = not fill
        _id("computer-fill").disabled = not (fill and editable and session.at_current)
        self._intake()

    def _intake(self) -> None:
        """The game master's table of orders in says of a computer player's power that the computer orders it."""
        state = self.app.group.state
        if state is None or not state.is_gm:
            return
        seats = computer.seated(state.game)
        for row in document.querySelectorAll("#intake tbody tr[data-power]"):
            level = seats.get(str(row.dataset.power))
            cell = _v(row.querySelector("td"))
            if level is not None and cell is not None and not state.game.orders_of(str(row.dataset.power)):
                cell.textContent = f"the computer ({computer.level_name(level)}): orders made when you adjudicate"
                row.className = "computer"

    def on_seat(self, event: Any) -> None:
        """A power handed to the computer, or back to a person."""
        session = self.app.session
        target = event.target
        if session is None or not hasattr(target, "dataset") or self.thinking:
            return
        game = session.kept
        power, level = str(target.dataset.power), str(target.value)
        if power not in game.variant.powers:
            return
        name = game.variant.powers[power].name
        try:
            if level:
                seeds = {seat.seed for seat in game.computer.values()}
                game.set_computer(power, computer.check_level(level), min(seeds) if seeds else new_seed())
            else:
                game.set_computer(power, None)
        except AdjutantError as error:
            self.app.message(str(error))
            return
        if session.master is not None:  # the people here play other powers now: the view is theirs
            session.reseen()
        self.app.changed()
        self.app.render()
        gm = self.app.group.state is not None
        when = "when you adjudicate (Message to players says so)" if gm else "when you press Adjudicate"
        self._say(f"{name} is played by the computer ({computer.level_name(level)}): its orders are made {when}."
                  if level else f"{name} is played by a person now.")

    def on_fill(self, event: Any) -> None:
        """Orders for the rest by computer: every power with something unordered gets the computer's, drawn
        on the map to look at and change before adjudicating."""
        session = self.app.session
        if session is None or self.thinking or session.readonly:
            return
        session.step(to=len(session.game.history))
        powers = computer.to_order(session.kept, session.kept.variant.powers)
        if not powers:
            self._say("Every power has its orders: nothing left for the computer to fill.")
            return
        level = computer.check_level(str(_id("computer-level").value))
        self._start_thinking(session, powers, level, None)

    def on_stop(self, event: Any) -> None:
        self.stop = True

    # --- thinking ---------------------------------------------------------------------------------
    def _report(self, progress: computer.Progress) -> None:
        bar = _id("computer-progress")
        percent = int(progress.done * 100)
        bar.value = percent
        if percent // 10 != self.said // 10:
            self.said = percent
            session = self.app.session
            who = self._who(session.game, progress.powers) if session is not None else ""
            self._say(f"The computer is thinking for {who}… {percent // 10 * 10}%")

    @staticmethod
    def _who(game: Any, powers: Any) -> str:
        """The powers thought for, as the progress line names them: by name up to three, else how many
        (the line stays short on a phone, and Stop above it stays put)."""
        powers = list(powers)
        return computer.names(game, powers) if len(powers) <= 3 else f"{len(powers)} powers"

    async def _think(self, session: Session, powers: list[str], level: str | None, then: Adjudication | None,
                     alone: bool = False) -> None:
        """Think for ``powers`` in slices, the page taking input meanwhile (only Stop and the map's zoom:
        the rest is inert), then give their orders and call ``then`` (adjudicate), or draw them; then
        play on through the phases that ask nothing of the people (:meth:`play_on`). ``alone``: the
        phase is one of those."""
        going_on = False
        try:
            orders = await self._orders(session, powers, level)
            if orders is not None and await self._give(session, orders, then):
                if then is not None:
                    if alone:
                        self.alone.append(orders.phase)
                    going_on = self.play_on(then, chained=True)
                    if not going_on:
                        self._say(self._adjudicated_line(session.kept, orders.given))
                else:
                    self._say(f"The computer gave orders for {computer.names(session.kept, orders.given)}: they "
                              "are drawn on the map and listed under Orders. Change any you like, then press "
                              "Adjudicate." if orders.given else "The computer found nothing to order.")
        finally:
            if not going_on:
                document.documentElement.removeAttribute("data-computer-thinking")

    def _adjudicated_line(self, game: Any, given: list[str]) -> str:
        """What the progress line says once the computer's orders are adjudicated: whose orders they were,
        and the phases it then played by itself."""
        if self.alone:
            phases = computer.joined(self.alone)
            return (f"The computer played {phases} by itself (nothing there was yours to order): its orders are "
                    "in the results; step back through the phases to see each.")
        return f"The computer gave the orders of {computer.names(game, given)}: they are in the results." \
            if given else ""

    async def _orders(self, session: Session, powers: list[str], level: str | None) -> _Thought | None:
        """The computer's orders for ``powers``, thought in slices (None if stopped or the game moved on)."""
        app, game = self.app, session.kept
        phase, busy = str(game.phase), _id("computer-busy")
        title = game.phase.title
        self.thinking, self.stop, self.said = True, False, -1
        active = _v(document.activeElement)
        todo = computer.thinkers(game, powers, level, new_seed())
        self._say(f"The computer is thinking for {self._who(game, powers)}…")
        _id("computer-progress").value = 0
        busy.hidden = False
        try:
            with inert(THINKING_PARTS), marked_busy(THINKING_BUSY):
                if active is not None and _v(active.closest(".adjudicate-row, #computer")) is not None:
                    _id("computer-stop").focus()  # (the button pressed is inert now: Stop is the key's next use)
                # the browser's style work for the parts made inert in a task of its own, before the first
                # slice of thinking
                await _pause()
                orders = await computer.think(game, todo, _pause, self._report,
                                              lambda: self.stop or app.session is not session)
        except AdjutantError as error:
            self._say(f"The computer could not give its orders: {error}", "error")
            orders = None
        finally:
            self.thinking = False
            # the focus on Stop, about to be hidden, or lost: back where it was (Adjudicate, say)
            now = _v(document.activeElement)
            lost = now is None or bool(now.isSameNode(document.body)) or bool(busy.contains(now))
            busy.hidden = True
            if lost and active is not None and bool(active.isConnected):
                active.focus()
        if orders is None or app.session is not session or str(game.phase) != phase:
            if self.stop:
                self._say("Stopped: the computer gave no orders, and nothing was adjudicated.")
            return None
        return _Thought(orders, title, [])

    async def _give(self, session: Session, thought: _Thought, then: Adjudication | None) -> bool:
        """Give the orders thought (``thought.given`` says to whom) and await ``then`` (the adjudication);
        False if the game moved on first, or the adjudication did not happen."""
        app, game = self.app, session.kept
        phase, count = str(game.phase), len(game.history)
        self.thinking = True  # (until adjudicated: Adjudicate pressed meanwhile does nothing)
        try:
            await _pause()  # the last slice's task ends: the orders are given, and adjudicated, in tasks of their own
            if app.session is not session or str(game.phase) != phase:
                return False
            thought.given.extend(computer.give(game, thought.orders))
            if then is not None:
                # the link's work for this phase's orders, made now in slices: the link made once it is
                # adjudicated (holding them as its record) then takes no long task
                await computer.in_slices(link_steps(game), _pause)
                await _pause()
                await then(_pause)
        finally:
            self.thinking = False
        if then is None:
            app.changed()
            app.render()
            return True
        return len(game.history) > count  # (not if the adjudication was refused: its message is said)
