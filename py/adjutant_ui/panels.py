"""The panels beside the map, filled at each render (:meth:`adjutant_ui.app.App.render_steps`): the powers'
table, the position as text, the results as sentences, the orders given and the buttons of click entry,
and a game's secrets (who is looking, what they may know, the nominations due).

Each is filled again only when what it shows changed (:meth:`Panels.stale`), so that the browser lays out
only those panels again. Every text from a game goes in through ``textContent``, never as markup."""

from __future__ import annotations

import json
from typing import Any

import js

from . import computer, sealed
from .dom import by_id as _id
from .dom import js_value as _v
from .group import GroupController
from .keyboard import MapKeys
from .page import Page
from .play import Play
from .sealed import GM
from .sealing import Sealing
from .session import order_label

document = js.document


class Panels:
    """The side panels of the game shown; the buttons they draw are put in the page's ``actions``."""

    def __init__(self, page: Page, group: GroupController, sealing: Sealing, play: Play, keyboard: MapKeys) -> None:
        self.page = page
        self.group = group
        self.sealing = sealing
        self.play = play
        self.keyboard = keyboard
        #: what each panel was last filled with (see :meth:`stale`)
        self.shown: dict[str, Any] = {}

    def stale(self, panel: str, data: Any) -> bool:
        """Whether ``panel`` shows other ``data`` than these (then they are taken as shown): a render fills
        again only the panels whose data changed (an order entered changes the order list, not the
        position or the last phase's results), so the browser lays out only those again."""
        if self.shown.get(panel) == data:
            return False
        self.shown[panel] = data
        return True

    def secrets(self, sites: dict[str, int]) -> None:
        """Who is looking at a game with secrets, the passphrase entry, and what the viewer may know."""
        session = self.page.session
        assert session is not None
        game = session.game
        secret = sealed.has_secrets(game)
        _id("secrets").hidden = not secret
        _id("download-note").hidden = not (secret and self.page.role == GM)
        _id("nominations").replaceChildren()
        listing = _id("secret-list")
        listing.replaceChildren()
        if not secret:
            return
        variant = game.variant
        viewers = session.viewers
        if session.master is not None:  # a game against the computer: the people here see their powers' secrets
            role = (f"You play {computer.names(game, viewers)}: {'its' if len(viewers) == 1 else 'their'} secrets "
                    "are shown; the computer's powers keep theirs, as players would." if viewers else
                    "The computer plays every power: only what the rules report is shown.")
        elif self.page.role == GM:
            role = "Game master: every secret of this game is shown, and only you adjudicate it."
        elif self.page.role in variant.powers:
            role = f"{variant.powers[self.page.role].name}'s secrets are shown (the game master adjudicates)."
        else:
            role = "Public view: only what the rules report. Enter your passphrase to see your secrets."
        _id("secrets-role").textContent = role
        # once a power's secrets are open the passphrase field folds away behind "Another passphrase…"
        # (a player has one passphrase; one person holding several, or the game master's, asks for it)
        self.sealing.fold_unlock(self.page.role in variant.powers and not self.sealing.unlocking_again)
        if self.page.role == GM or session.master is not None:  # every secret it shows is in hand: no passphrase
            _id("unlock-form").hidden = True
        _id("show-passphrases").hidden = self.page.role != GM

        def item(text: str) -> None:
            entry = document.createElement("li")
            entry.textContent = text
            listing.appendChild(entry)

        for line in sealed.secret_lines(game, ",".join(viewers) or self.page.role, sites):
            item(line)
        player = self.group.player_power()
        if not (session.at_current and not game.over):
            return
        if session.master is not None:
            self._nominations_form(viewers)
        elif self.page.role == GM or (player and self.page.role == player):
            self._nominations_form((player,) if player else ())

    def _nominations_form(self, only: tuple[str, ...] = ()) -> None:
        """Rule 2: for each power with a nomination due (or only those of ``only``: the powers played at
        this screen), which unit is its 3× or 2× (or a later build)."""
        session = self.page.session
        assert session is not None
        game = session.game
        holder = _id("nominations")
        due = sealed.nominations_due(game)
        if only or session.master is not None:
            due = {p: levels for p, levels in due.items() if p in only}
        if due:
            note = document.createElement("p")
            note.textContent = "Nominations due (rule 2): each power's 3× and 2× unit, or a later build."
            holder.appendChild(note)
        for power, levels in due.items():
            box = document.createElement("fieldset")
            box.dataset.power = power
            legend = document.createElement("legend")
            legend.textContent = game.variant.powers[power].name
            box.appendChild(legend)
            for level in levels:
                label = document.createElement("label")
                label.textContent = f"{level}× "
                select = document.createElement("select")
                select.dataset.power = power
                select.dataset.level = str(level)
                select.name = f"nominate-{power}-{level}"
                choices = [("-", "choose…"), ("", "a later build")]
                choices += session.nomination_choices(power, level)  # only the units it may name
                for value, text in choices:
                    option = document.createElement("option")
                    option.value = value
                    option.textContent = text
                    select.appendChild(option)
                label.appendChild(select)
                box.appendChild(label)
            button = document.createElement("button")
            button.type = "button"
            button.textContent = "Nominate"
            button.dataset.action = f"nominate-{power}"
            self.page.actions[f"nominate-{power}"] = lambda p=power: self.sealing.on_nominate(p)
            box.appendChild(button)
            holder.appendChild(box)

    def powers(self) -> None:
        session = self.page.session
        assert session is not None and self.page.board is not None
        game = session.game
        position = session.shown_position()
        centres: dict[str, int] = {p: 0 for p in game.variant.powers}
        for owner in position.centres.values():
            centres[owner] = centres.get(owner, 0) + 1
        units: dict[str, int] = {p: 0 for p in game.variant.powers}
        for unit in position.units.values():
            units[unit.power] += 1
        due = game.orders_due() if session.at_current else {}
        adjustments = game.adjustments() if session.at_current and game.phase.kind == "adjustment" else {}
        # a group game's master needs whose orders are in, not what is due of each (a sealed code leaves a
        # unit without orders as often as not)
        group_column = self.group.orders_column() if session.at_current else None
        rows = []
        for power in game.variant.powers.values():
            status, kind = "—", ""
            if not session.at_current or game.over:
                pass
            elif group_column is not None:
                status, kind = group_column[power.id]
            elif power.id in due:
                delta = adjustments.get(power.id)
                if delta:
                    status = f"{'builds' if delta > 0 else 'removals'} due: {due[power.id]}"
                else:
                    status = f"due: {due[power.id]}"
                kind = "due"
            elif units.get(power.id, 0) or adjustments.get(power.id):
                status, kind = "ready", "ready"
            rows.append((power.id, power.name, self.page.board.colours.get(power.id, "#888"), centres.get(power.id, 0),
                         units.get(power.id, 0), status, kind))
        if not self.stale("powers", rows):
            return
        body = _id("powers").querySelector("tbody")
        body.replaceChildren()
        for power_id, power_name, colour, centre_count, unit_count, status, kind in rows:
            row = document.createElement("tr")
            row.dataset.power = power_id
            name = document.createElement("td")
            swatch = document.createElement("span")
            swatch.className = "swatch"
            swatch.style.background = colour
            name.appendChild(swatch)
            name.appendChild(document.createTextNode(power_name))
            row.appendChild(name)
            for value in (centre_count, unit_count):
                cell = document.createElement("td")
                cell.textContent = str(value)
                row.appendChild(cell)
            cell = document.createElement("td")
            cell.textContent = status
            if kind:
                cell.className = kind
            row.appendChild(cell)
            body.appendChild(row)

    def position_text(self) -> None:
        """The shown position as text, power by power (units and centres), for screen readers and for
        anyone who would rather read it."""
        session = self.page.session
        assert session is not None
        variant = session.game.variant
        position = session.shown_position()
        lines = []
        for power in variant.powers.values():
            units = [f"{u.type} {variant.province_name(u.location)}" for u in position.units.values()
                     if u.power == power.id]
            units += [f"{d.unit.type} {variant.province_name(d.unit.location)} (dislodged)"
                      for d in position.dislodged if d.unit.power == power.id]
            centres = sorted(variant.province_name(p) for p, owner in position.centres.items() if owner == power.id)
            lines.append((power.id, f"{power.name}: units {', '.join(units) or 'none'}; "
                                    f"{len(centres)} centres: {', '.join(centres) or 'none'}."))
        if not self.stale("position", lines):
            return
        listing = _id("position-list")
        listing.replaceChildren()
        for power_id, text in lines:
            item = document.createElement("li")
            item.dataset.power = power_id
            item.textContent = text
            listing.appendChild(item)

    def results_list(self, entries: list[tuple[str, str]]) -> None:
        """The results as sentences, each focusable: focused (or pointed at), it picks out its symbols on
        the map (the listeners are on the list, wired once: see on_result_focus)."""
        if not self.stale("results-summary", entries):
            return
        # (one call to the page, not a few per line: a phase on a nine-power map has a hundred lines)
        js.window.adjutantPage.fillResults(_id("results-summary"), json.dumps(entries))

    def on_result_focus(self, event: Any) -> None:
        """A result in the list is focused or pointed at: pick out its symbols on the map."""
        item = event.target.closest("li[data-result]") if hasattr(event.target, "closest") else None
        item = _v(item)
        if self.page.board is not None:
            self.page.board.mark_result(str(item.dataset.result) if item is not None else "")

    def on_result_blur(self, event: Any) -> None:
        if self.page.board is not None:
            self.page.board.mark_result("")

    def orders(self) -> None:
        session = self.page.session
        assert session is not None
        game = session.game
        listing = _id("order-list")
        listing.replaceChildren()
        powers = game.variant.powers
        for power, text in session.past_orders():  # a past position: the orders given there
            item = document.createElement("li")
            item.dataset.power = power
            item.textContent = f"{powers[power].abbrev if power in powers else power}: {text}"
            listing.appendChild(item)
        for power, orders in sorted(game.all_orders().items()) if session.at_current else []:
            for order in orders:
                item = document.createElement("li")
                item.dataset.power = power
                item.textContent = f"{game.variant.powers[power].abbrev}: {order_label(game.variant, order)}"
                why = session.is_illegal(order)
                if why:
                    item.className = "illegal"
                    mark = document.createElement("strong")
                    mark.textContent = f" illegal, will hold: {why}"
                    item.appendChild(mark)
                listing.appendChild(item)
        panel = _id("click-order")
        panel.replaceChildren()
        self.page.actions = {k: v for k, v in self.page.actions.items() if k.startswith("nominate-")}
        prompt = document.createElement("p")
        prompt.id = "click-prompt"
        prompt.textContent = session.prompt()
        panel.appendChild(prompt)
        if session.note and session.note == prompt.textContent:  # the answer to a click is the prompt: said once
            prompt.className = "click-note"
            prompt.setAttribute("role", "status")
        elif session.note:
            note = document.createElement("p")
            note.id = "click-note"
            note.className = "click-note"
            note.setAttribute("role", "status")
            note.textContent = session.note
            panel.appendChild(note)
        if self.keyboard.by_keyboard and session.at_current and not session.readonly:
            keys = document.createElement("p")
            keys.id = "click-keys"
            keys.className = "hint"
            keys.textContent = self._keys_hint()
            panel.appendChild(keys)

        def button(label: str, handler: Any, name: str) -> None:
            element = document.createElement("button")
            element.type = "button"
            element.textContent = label
            element.dataset.action = name
            self.page.actions[name] = lambda: handler(None)
            panel.appendChild(element)

        kind = game.phase.kind
        if session.selected and kind == "movement" and session.at_current:
            for mode, label in session.unit_choices():  # only the orders the unit may be given
                if mode == "hold":
                    button(label, lambda e: self._hold(), mode)
                elif mode == "research":
                    button(label, lambda e: self._research(), mode)
                else:
                    button(label, lambda e, m=mode: self._mode(m), mode)
            offered = session.offered_move()  # the move the click that selected this unit could have meant
            if offered:
                button(offered, lambda e: self._take_offer(), "move-instead")
        if session.selected and kind == "retreat":
            button("Disband", lambda e: self.play.act_on(session.selected or ""), "disband")
        if session.selected and kind == "adjustment" and session.build_type is None:  # (not once the coast is asked)
            for unit_type, label in session.build_types():  # no fleet offered inland
                button(f"Build {label}", lambda e, t=unit_type: self._build(t), f"build-{unit_type}")
        for coast in self.play.coast_choices:
            label = game.variant.province_name(coast)
            button(label, lambda e, c=coast: self.play.act_on(c), f"coast-{coast}")
        if session.selected:
            button("Cancel", lambda e: self.keyboard.cancel(), "cancel")

    def _keys_hint(self) -> str:
        """What the keys do on the map now, said under the prompt once the keyboard is in use."""
        session = self.page.session
        assert session is not None
        if not session.selected:
            return "Keys: the arrow keys go to the nearest unit that way, Enter selects one."
        count = len(session.targets())
        if not count:
            return "Keys: Tab goes through the choices, Escape cancels."
        places = "1 highlighted place" if count == 1 else f"{count} highlighted places"
        return (f"Keys: the arrow keys go to the nearest of the {places} that way, Enter chooses, Tab goes to the "
                "choices, Escape cancels.")

    def _mode(self, mode: str) -> None:
        assert self.page.session is not None
        self.page.session.mode = mode
        self.page.session.target = None
        self.page.render()

    def _hold(self) -> None:
        """Hold: the selected unit clicked again in the move step (whatever step the player was in)."""
        session = self.page.session
        assert session is not None
        session.mode, session.target = "move", None
        self.play.act_on(session.selected or "")

    def _research(self) -> None:
        assert self.page.session is not None
        order = self.page.session.research()
        if order:
            self.play.enter(order, power=None)
        self.page.render()

    def _take_offer(self) -> None:
        assert self.page.session is not None
        order, self.play.coast_choices = self.page.session.take_offer()
        if order:
            self.play.enter(order, power=None)
        self.page.render()

    def _build(self, unit_type: str) -> None:
        assert self.page.session is not None
        order, self.play.coast_choices = self.page.session.build(unit_type)
        if order:
            self.play.enter(order, power=None)
        self.page.render()
