"""The Group game panel, drawn at each render of a group game: the frame every view shares (the role's
controls, the phone's shortcut), the game master's panel (the players' link, the codes in, the message to
players) and a player's (the power played, the orders sent and their sealed code). What the panel does is
:class:`adjutant_ui.group.GroupController`'s; this only draws it."""

from __future__ import annotations

import js
from adjutant.game import Game
from adjutant.group_play import codes as group

from .dom import by_id as _id
from .group import (
    LOCKED_ADJUDICATE,
    LOCKED_CODES,
    LOCKED_MESSAGE,
    STALE_CODE,
    GroupController,
    nothing_to_order,
)
from .group_sending import CHOOSE_POWER, code_stale, show_code
from .group_state import GroupState

document = js.document


class GroupPanel:
    """Draws the group game in hand (none: the panel hidden) as its controller holds it."""

    def __init__(self, ctrl: GroupController) -> None:
        self.ctrl = ctrl

    def render(self) -> None:
        """Draw the Group game panel and the parts of the page a group game changes: the frame every view
        shares, then the game master's panel or the player's."""
        self.ctrl.wire()
        state = self.ctrl.state
        self._render_frame(state)
        if state is None:
            return
        _id("group-gm").hidden = not state.is_gm
        _id("group-player").hidden = state.is_gm
        if state.is_gm:
            self._render_gm(state)
        else:
            self._render_player(state)

    def _render_frame(self, state: GroupState | None) -> None:
        """What a group game changes of the page around the panel: the panel shown, the role's controls
        (a player's page folds the game master's and sandbox controls away) and the phone's shortcut."""
        _id("group").hidden = state is None
        # the game master's own link holds the pending orders and the sealed key: never for the players
        _id("copy-link").textContent = "Copy my own link" if state is not None and state.is_gm else "Copy link"
        _id("group-insecure").hidden = state is None or self.ctrl.secure()
        player = state is not None and not state.is_gm
        _id("group-send").hidden = not player
        if player:
            document.body.dataset.role = "player"
        else:
            document.body.removeAttribute("data-role")
        _id("more-tools").hidden = not player
        _id("adjudicate-locked").hidden = not self.ctrl.locked()
        # a player never adjudicates: those buttons are the game master's only
        for name in ("adjudicate", "undo", "declare-draw"):
            _id(name).hidden = player
        jump = _id("group-jump")
        jump.hidden = state is None
        # shown on a wide screen too while a player has not chosen their power, or (Cluster) not entered
        # the passphrase that says it (web/app.css)
        first = state is not None and not state.is_gm and (not state.power or not state.kind.opened(state))
        jump.classList.toggle("first-step", first)

    # --- drawing the game master's panel ----------------------------------------------------------
    def _render_gm(self, state: GroupState) -> None:
        game = state.game
        locked = state.private_key is None
        _id("group-role").textContent = (
            "You are the game master: send the players' link to every player; paste the sealed orders "
            "codes they send you, then adjudicate."
            + (" First unlock this game with your passphrase." if locked else "")
        )
        _id("group-jump").textContent = (
            "Group game: unlock with your passphrase"
            if locked
            else "Group game: message to players"
            if self.ctrl.message_due(state)
            else "Group game: players' link and codes"
        )
        # the message shown is this phase's until its players send codes (they have the link), and a
        # status line only while it is true
        received = bool(state.intake.for_phase(game).received)
        _id("players-message").hidden = state.messaged != len(game.history) or received
        if (state.said in ("started", "unlocked") and state.log is not state.said_log) or (
            state.said == "adjudicated" and not self.ctrl.message_due(state)
        ):
            state.said = ""
            self.ctrl.say("group-status", "")
        self._render_locked(game, locked)
        _id("players-link").value = self.ctrl.players_url()
        self._intake_table()
        self._render_codes_log(state)
        _id("message-players").disabled = not game.history or locked
        if (state.messaged != len(game.history) or received) and not locked:  # (of a message put away)
            self.ctrl.say("message-status", "")
        if state.linked != len(game.history):  # and of the players' link copied
            self.ctrl.say("link-status", "")
        _id("group-later").hidden = True  # (a player's old link only)
        # the game master adjudicates and types orders for any power; the players' link is public

    def _render_locked(self, game: Game, locked: bool) -> None:
        """The game master's controls while the game is locked (or not): the unlock form shown, and said
        under each greyed button, which says nothing itself of why: a locked game master opens no code,
        and so neither adjudicates (or undoes, or declares a draw) nor messages the players."""
        _id("gm-unlock-form").hidden = not locked
        _id("open-codes").disabled = locked
        for status, text in (("codes-status", LOCKED_CODES), ("message-status", LOCKED_MESSAGE)):
            if locked:
                self.ctrl.say(status, text)
            elif str(_id(status).textContent) == text:
                self.ctrl.say(status, "")
        for name in ("adjudicate", "undo", "declare-draw"):
            _id(name).disabled = bool(_id(name).disabled) or locked
        _id("adjudicate-locked").textContent = LOCKED_ADJUDICATE
        _id("group-to-adjudicate").disabled = locked or game.over

    def _render_codes_log(self, state: GroupState) -> None:
        """The list of what the codes last opened said, while it is of the phase in hand."""
        if state.log_at not in (-1, len(state.game.history)):  # what the last codes opened said is of another phase
            state.log, state.log_at = [], -1
            self.ctrl.say("codes-status", "")
        log = _id("codes-log")
        log.replaceChildren()
        for kind, text in state.log:
            item = document.createElement("li")
            item.className = kind
            item.textContent = text
            log.appendChild(item)

    # --- drawing a player's panel -----------------------------------------------------------------
    def _render_player(self, state: GroupState) -> None:
        game = state.game
        self._render_power_chooser(state)
        _id("group-role").textContent = state.kind.role_text(state)
        jump = _id("group-jump")
        jump.textContent = (
            "Group game: choose your power"
            if not state.power
            else "Group game: send your orders"
            if game.orders_of(state.power)
            else "Group game: give your orders"
        )
        opened = state.kind.opened(state)
        _id("group-to-orders").hidden = not (state.power and opened) or game.over
        if self._render_later(state):
            jump.textContent = "Group game: this link is an old one"
        if not opened:
            jump.textContent = "Group game: enter your passphrase"
        idle = bool(state.power) and nothing_to_order(game, state.power)
        _id("send-orders").disabled = not state.power or game.over or idle or not opened
        _id("send-summary").textContent = self._send_summary(state, idle)
        self._render_code(state)
        # a player orders only their own power, and never adjudicates
        _id("orders-power").value = state.power
        _id("orders-power").disabled = True
        _id("adjudicate").disabled = True
        _id("undo").disabled = True
        _id("declare-draw").disabled = True

    @staticmethod
    def _render_power_chooser(state: GroupState) -> None:
        """The chooser of the power played (Classic's; a Cluster player's passphrase says which power)."""
        variant = state.game.variant
        select = _id("group-power")
        select.hidden = not state.kind.chooses_power
        for label in select.labels:
            label.hidden = select.hidden
        if select.options.length != len(variant.powers) + 1:
            select.replaceChildren()
            for value, text in [("", "choose your power…")] + [(p.id, p.name) for p in variant.powers.values()]:
                option = document.createElement("option")
                option.value = value
                option.textContent = text
                select.appendChild(option)
        select.value = state.power

    @staticmethod
    def _render_later(state: GroupState) -> bool:
        """The warning of an old link (this browser opened a later phase of the game); whether it is shown."""
        later_title, later_link = state.later
        later = _id("group-later")
        # its link followed, the warning goes: the focus goes to the panel's next control, not the page's top
        lose_focus = not later_title and not later.hidden and bool(later.contains(js.document.activeElement))
        later.hidden = not later_title
        if lose_focus:
            _id("group-power").focus()
        if later_title:  # an old link: said first, before any order is given for a phase that is over
            _id("group-later-text").textContent = (
                f"This link is an old one: it shows {state.game.phase.title}, and this browser has opened this game "
                f"at {later_title}. Orders sent from here will be refused, unless the game master took that "
                "phase back. Open the latest link the game master sent:"
            )
            _id("group-later-link").href = "#" + later_link
            _id("group-later-link").textContent = f"Open {later_title}"
        return bool(later_title)

    @staticmethod
    def _send_summary(state: GroupState, idle: bool) -> str:
        """What the line above Send my orders says (and the map's prompt, before the player can order)."""
        game = state.game
        if not state.kind.opened(state):
            _id("click-prompt").textContent = "Enter your passphrase (under Secrets) to give your orders."
            return "Enter your passphrase under Secrets first: it opens your power's view and orders."
        if not state.power:
            _id("click-prompt").textContent = "Choose the power you play (Group game) to give orders."
            return CHOOSE_POWER
        name = game.variant.powers[state.power].name
        if game.over:
            return "The game is over."
        if idle:
            return f"{name} has nothing to order in this phase: there is nothing to send."
        mine = len(game.orders_of(state.power))
        due = game.orders_due().get(state.power, 0)
        delta = game.adjustments().get(state.power, 0) if game.phase.kind == "adjustment" else 0
        if delta > 0:
            waiting = f", {due} build{'s' if due != 1 else ''} not used (waived)." if due else "."
        elif delta < 0:
            waiting = (f", {due} removal{'s' if due != 1 else ''} not given (the rules choose)." if due
                       else ".")
        elif game.phase.kind == "retreat":  # a dislodged unit given no retreat is disbanded
            waiting = f", {due} dislodged units without orders (they are disbanded)." if due > 1 else ""
            waiting = waiting or (", 1 dislodged unit without orders (it is disbanded)." if due else ".")
        else:
            waiting = f", {due} units without orders (they hold)." if due > 1 else ""
            waiting = waiting or (", 1 unit without orders (it holds)." if due else ".")
        beyond = state.session.beyond_due_of(state.power)  # (the player can take the extra back)
        if beyond:
            waiting = f"; {beyond}."
        return (
            f"{name}: {mine} order{'s' if mine != 1 else ''} given{waiting} Sending seals them into a code "
            "only the game master can open."
        )

    def _render_code(self, state: GroupState) -> None:
        """The player's orders box and sealed code: a draft's text put back, what was kept said once, and
        a code that no longer holds the orders given taken away (or offered again once it does)."""
        if state.typed is not None:  # the box now holds this game's text (a draft's, or none)
            _id("orders-text").value = state.typed
            state.typed = None
        if state.kept:  # said once, where the player sends (the orders themselves are in the list)
            if state.code:
                show_code(state)
            self.ctrl.say("send-status", state.kept)
            state.kept = ""
        shown, stale = not _id("orders-code-box").hidden, code_stale(state)
        if stale and shown:  # a code that does not hold the orders given is not offered to copy
            _id("orders-code-box").hidden = True
            self.ctrl.say("send-status", STALE_CODE, "error")
        elif state.code and not shown and not stale and _id("send-status").textContent == STALE_CODE:
            show_code(state)  # the orders given are those the code seals
            self.ctrl.say("send-status", "")

    def _intake_table(self) -> None:
        state = self.ctrl.state
        assert state is not None
        state.intake = state.intake.for_phase(state.game)
        body = _id("intake").querySelector("tbody")
        body.replaceChildren()
        rows = group.status(state.game, state.intake)
        for power, name, status in rows:
            row = document.createElement("tr")
            row.dataset.power = power
            # one truth per row: in (a code refused beside orders in is a quiet note after it), or not
            row.className = "in" if status.startswith("sealed") else "refused" if "; refused:" in status else ""
            heading = document.createElement("th")
            heading.scope = "row"
            heading.textContent = name
            cell = document.createElement("td")
            said, _, note = status.partition("; ")
            cell.textContent = said if row.className == "in" else status
            if note and row.className == "in":
                quiet = document.createElement("span")
                quiet.className = "intake-note"
                quiet.textContent = f"; {note}"
                cell.appendChild(quiet)
            row.append(heading, cell)
            body.appendChild(row)
        sealed_in = sum(status.startswith("sealed") for _, _, status in rows)
        _id("intake-caption").textContent = (
            f"Orders for {state.game.phase.title}: sealed codes in from {sealed_in} of {len(rows)} powers"
        )
