"""A player's part of a group game: the power they play, their orders sealed into a code for the game
master (Web Crypto, web/group.js), and that code shown to copy or share. The drafts kept for a reload are
the controller's (:class:`adjutant_ui.group.GroupController`), which the player's typing and sending update."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import js
from adjutant.game import Game
from adjutant.group_play import codes as group
from pyodide.ffi import to_js

from .dom import by_id as _id
from .dom import page_address
from .group_state import GroupState
from .page import GroupControl

#: what a player is told before they have chosen their power: where the chooser is, by its label
CHOOSE_POWER = 'Choose the power you play first ("Which power do you play?", in the Group game panel).'


def sealed_orders(game: Game, power: str) -> tuple[str, ...]:
    """``power``'s orders as a code seals them: their texts, in an order that does not hang on the order
    they were given in."""
    return tuple(sorted(group.power_order_texts(game, power)))


def code_stale(state: GroupState) -> bool:
    """Whether the player's code shown no longer holds their orders: an order was given, changed or taken
    back since it was sealed. Sending it would give the game master the orders before."""
    return bool(state.code) and sealed_orders(state.game, state.power) != state.code_orders


def show_code(state: GroupState) -> None:
    """The player's sealed code shown under Send my orders, with what it seals and how to change it."""
    _id("orders-code").value = state.code
    _id("orders-code-box").hidden = False
    _id("orders-code-note").textContent = state.code_note
    _id("orders-code-resend").textContent = (
        "To change your orders, change them above and press Send my orders again: the latest code counts."
    )


class OrderSending:
    """A player's view of the group game in hand: choosing the power, typing, sending and copying the code."""

    def __init__(self, ctrl: GroupControl) -> None:
        self.ctrl = ctrl

    def on_power(self, event: Any) -> None:
        state = self.ctrl.state
        if state is None or state.is_gm or not state.kind.chooses_power:
            return
        power = str(_id("group-power").value)
        state.power = power if power in state.game.variant.powers else ""
        self.ctrl.remember_power(state.power)
        state.session.readonly = not state.power
        state.session.player = state.power
        state.session.clear_selection()
        state.game.clear_orders()
        state.code = state.code_note = state.kept = ""
        _id("orders-code").value = ""
        _id("orders-code-box").hidden = True
        self.ctrl.say("send-status", "")
        if state.power:  # this power's drafts, if this browser played it at this phase before
            self.ctrl.restore_draft(state, "from before")
        self.ctrl.app.changed()
        self.ctrl.app.render()

    def on_typing(self, event: Any) -> None:
        """A player's text in the orders box, not yet entered, is kept with their drafts as it is typed."""
        state = self.ctrl.state
        if state is not None and not state.is_gm and state.typed is None:
            self.ctrl.keep_draft(state)

    def on_send(self, event: Any) -> None:
        asyncio.ensure_future(self._send())

    async def _send(self) -> None:
        ctrl = self.ctrl
        state, app = ctrl.state, ctrl.app
        if state is None or not state.power:
            ctrl.say("send-status", CHOOSE_POWER, "error")
            app.message("Say which power you play first.")
            return
        if not state.kind.opened(state):
            app.message("Enter your passphrase first (Secrets): your orders are drafted in your own view.")
            return
        if ctrl.refused_insecure("send-status"):
            return
        if str(_id("orders-text").value).strip():  # orders typed but not entered: enter them first
            _id("orders-form").requestSubmit()
            if str(_id("orders-text").value).strip():
                ctrl.say(
                    "send-status",
                    "Not sent: some orders in the orders box were not understood (see the messages under "
                    "it). Correct or delete them, then send again.",
                    "error",
                )
                return
        game = state.game
        try:
            payload = group.encode_orders(game, state.power, list(game.orders_of(state.power)))
            header = group.header_for(game, state.public_key, state.power)
            aad = group.additional_data(header, game, state.public_key, state.kind.code_binding(state))
            plain = group.plaintext(int(time.time() * 1000), payload)
            seal = js.window.adjutantGroup.sealOrders
            body = await seal(to_js(state.public_key), to_js(header.pack()), to_js(aad), to_js(plain))
        except Exception as error:  # noqa: BLE001 - say why; the orders stay
            ctrl.say("send-status", f"The orders could not be sealed: {error}", "error")
            app.message(f"The orders could not be sealed: {error}")
            return
        code = group.CODE_PREFIX + str(body)
        state.code_orders = sealed_orders(game, state.power)
        count = len(game.orders_of(state.power))
        name = game.variant.powers[state.power].name
        # a second code looks like the first: say it is another, to send (the game master keeps the latest)
        again = " This is a new code: send it too, and it replaces the one before." if state.code else ""
        later_title = state.later[0]
        old = (f" This link is an old one: this browser has opened this game at {later_title}, and the game "
               "master will refuse this code unless they took that phase back." if later_title else "")
        state.code, state.code_note = code, (
            f"Sealed {count} order{'s' if count != 1 else ''} for {name}, {game.phase.title}.{again}{old} Now "
            "send this code to your game master by email or chat: copy it and paste it into your message."
        )
        ctrl.keep_draft(state)
        show_code(state)
        ctrl.say("send-status", "")
        _id("copy-code").focus()
        _id("orders-code-box").scrollIntoView(to_js({"block": "nearest"}, dict_converter=js.Object.fromEntries))

    def copy_code(self, link: bool) -> None:
        code = str(_id("orders-code").value)
        state = self.ctrl.state
        if not code or state is None:
            return
        done = "Copied. Paste it into your email or chat message to the game master."
        if link:
            url = f"{page_address()}#{state.game.variant.id}.{code}"
            asyncio.ensure_future(self.ctrl.copy_text(url, "send-status", "Link copied. " + done[8:]))
        else:
            asyncio.ensure_future(self.ctrl.copy_text(code, "send-status", done, "orders-code"))
