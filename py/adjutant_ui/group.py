"""The page's group games: the controller of the group game in hand (see docs/group-play.md); the game
master's intake of codes is :mod:`adjutant_ui.group_intake`, a player's sending :mod:`adjutant_ui.group_sending`.

The engine's part (order payloads, codes' headers, links, the intake) is :mod:`adjutant.group_play.codes`; the
encryption is web/group.js (Web Crypto). This module wires them to the page: the "Group game" panel
of index.html, the dialog that starts a group game, and the hooks :class:`adjutant_ui.app.App` calls
(``on_show``, ``changed``, ``render``, ``player_power``, ``typed``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Iterator
from typing import Any

import js
from adjutant import AdjutantError, load_variant
from adjutant.formats.limits import without_bidi_controls
from adjutant.game import Game
from adjutant.group_play import cluster_links as cg
from adjutant.group_play import codes as group
from pyodide.ffi import jsnull, to_js

from . import cluster_group, computer, saves, sealed
from .dom import js_bytes, page_address
from .group_intake import CodeIntake
from .group_sending import OrderSending
from .group_state import GroupState
from .page import GroupControl, GroupPage
from .session import Session

document = js.document
MAKING_KEYS = (
    "Making the new group game's keys from the passphrase… The game shown takes no orders meanwhile: the new "
    "game replaces it in a few seconds."
)
INSECURE = (
    "Sealed orders need a secure page: this page was not opened over https:// (or on this computer), so "
    "the browser gives it no cryptography. Open Adjutant from its https:// address to play a group game."
)


#: what a new group game's key-making makes inert: the table (map, orders, panels) and the controls that
#: would open another game meanwhile
BUSY_PARTS = ("main.table", "header .new-game", "header .file-actions")


def _id(name: str) -> Any:
    return document.getElementById(name)


@contextlib.contextmanager
def marked_busy(selectors: tuple[str, ...]) -> Iterator[None]:
    """The parts of the page ``selectors`` name are marked busy (``aria-busy``) meanwhile, but take input
    as before (what they would do then is the page's to refuse)."""
    found = (document.querySelector(selector) for selector in selectors)
    parts = [part for part in found if part is not None and part is not jsnull]
    for part in parts:
        part.setAttribute("aria-busy", "true")
    try:
        yield
    finally:
        for part in parts:
            part.removeAttribute("aria-busy")


@contextlib.contextmanager
def inert(selectors: tuple[str, ...]) -> Iterator[None]:
    """The parts of the page ``selectors`` name take no input meanwhile (inert: no click, tap, focus or
    typing reaches them) and are marked busy (``aria-busy``; dimmed by web/app.css if it lasts). The focus
    that was in them comes back after, if nothing else took it. A part already inert is left to whoever
    made it so (a new group game's keys, while the map of the new game loads)."""
    found = (document.querySelector(selector) for selector in selectors)
    parts = [part for part in found if part is not None and part is not jsnull and not part.inert]
    active = document.activeElement
    for part in parts:
        part.inert = True
        part.setAttribute("aria-busy", "true")
    try:
        yield
    finally:
        for part in parts:
            part.inert = False
            part.removeAttribute("aria-busy")
        focus = document.activeElement
        lost = focus is None or focus is jsnull or focus == document.body
        if lost and active is not None and active is not jsnull and bool(active.isConnected):
            active.focus(to_js({"preventScroll": True}, dict_converter=js.Object.fromEntries))


def _power_key(public_key: bytes) -> str:
    """Where this browser remembers which power its player plays in a group game."""
    return "adjutant.group.power." + group.b64(group.game_id(public_key))


def _remembered_power(public_key: bytes) -> str:
    try:
        value = js.localStorage.getItem(_power_key(public_key))
    except Exception:  # noqa: BLE001 - storage disabled: the player chooses again
        return ""
    return "" if value is None or value is jsnull else str(value)


def _remember_power(public_key: bytes, power: str) -> None:
    with contextlib.suppress(Exception):  # storage disabled: the player chooses again next time
        js.localStorage.setItem(_power_key(public_key), power)


#: the longest players' link this browser keeps as the latest phase it opened of a game
MAX_LATEST_LINK = 20_000


def _latest_key(public_key: bytes) -> str:
    """Where this browser keeps the latest phase of a group game it opened as a player."""
    return "adjutant.group.latest." + group.b64(group.game_id(public_key))


def _later_phase_seen(public_key: bytes, game: Game, fragment: str) -> tuple[str, str]:
    """A later phase of this group game that this browser already opened as a player, as (its title, its
    players' link), or ("", "") when this link is the latest seen (it is then kept as the latest). So a
    player who opens an old link (an earlier email) is told, before sending orders the game master would
    refuse. What storage holds is checked (another players' link of the same game) before it is offered."""
    here = len(game.history)
    try:
        data = json.loads(str(js.localStorage.getItem(_latest_key(public_key)) or "null"))
    except Exception:  # noqa: BLE001 - storage disabled, or damaged: nothing is known of later phases
        data = None
    if isinstance(data, dict):
        seen, title, link = data.get("n"), data.get("title"), data.get("link")
        if (
            isinstance(seen, int) and isinstance(title, str) and isinstance(link, str) and seen > here
            and len(link) <= MAX_LATEST_LINK and len(title) <= 100 and group.is_group_link(link)
        ):
            try:
                later = group.read_group_link(link)
            except AdjutantError:
                later = None
            if later is not None and not later.is_gm and later.public_key == public_key:
                return title, link
    with contextlib.suppress(Exception):  # storage full or disabled: nothing is kept
        entry = {"n": here, "title": game.phase.title, "link": fragment}
        js.localStorage.setItem(_latest_key(public_key), json.dumps(entry, separators=(",", ":")))
    return "", ""


def _nothing_due(game: Game, power: str) -> bool:
    """Whether the position asks no order of ``power`` in this phase: no unit in a movement phase, none
    dislodged in a retreat phase, no build or removal due in an adjustment phase."""
    kind = game.phase.kind
    if kind == "movement":
        return not any(unit.power == power for unit in game.units.values())
    if kind == "retreat":
        return not any(d.unit.power == power for d in game.position.dislodged)
    return not game.adjustments().get(power, 0)


def nothing_to_order(game: Game, power: str) -> bool:
    """Whether ``power`` has nothing due (:func:`_nothing_due`) and has given no order. Never in a game
    that keeps secrets (Cluster), where what a power may order hangs on more than the position."""
    return not game.rules.keeps_secrets and not game.orders_of(power) and _nothing_due(game, power)


def _what_to_do(game: Game, power: str) -> str:
    """What the player of ``power`` does in this phase, said under the power they chose: a retreat or
    adjustment phase asks nothing of most powers, and says so rather than "give your orders"."""
    name = game.variant.powers[power].name
    send = "then press Send my orders."
    kind = game.phase.kind
    if game.over:
        return "The game is over."
    if _nothing_due(game, power):
        if kind == "retreat":
            return f"None of {name}'s units is dislodged: {name} has nothing to order in this phase."
        if kind == "adjustment":
            return f"{name} has no builds or removals in this phase: nothing to order."
        return f"{name} has no units: nothing to order."
    if kind == "retreat":
        return ("Retreat or disband your dislodged units on the map (click or tap one, then where it goes) or type "
                f"the orders under Orders, {send}")
    if kind == "adjustment":
        if game.adjustments().get(power, 0) > 0:
            return ("Build on the map (click or tap one of your highlighted home centres) or type the builds under "
                    f"Orders, {send}")
        return f"Choose your removals on the map (click or tap a unit) or type them under Orders, {send}"
    return f"Give your orders on the map (click or tap a unit, then where it goes) or type them under Orders, {send}"


def _left_without_orders(game: Game, power: str, count: int) -> str:
    """What ``count`` things of ``power``'s left without an order come to in this phase: units that hold,
    dislodged units disbanded, builds unused, removals the rules choose."""
    s = "s" if count != 1 else ""
    if game.phase.kind == "movement":
        return f"{count} unit{s} left to hold"
    if game.phase.kind == "retreat":
        return f"{count} unit{s} left to disband"
    if game.adjustments().get(power, 0) > 0:
        return f"{count} build{s} unused"
    return f"{count} removal{s} left to the rules"


#: what the game master's panel says under Open codes until the passphrase unlocks the game
LOCKED_CODES = "Unlock the game with the game master's passphrase (above) to open codes."
#: what the game master's page says beside Adjudicate and Message to players while the game is locked:
#: a late code opens only before its phase is adjudicated
LOCKED_ADJUDICATE = (
    "Unlock the game with the game master's passphrase (Group game) to adjudicate: the codes players sent "
    "are opened first."
)
LOCKED_MESSAGE = "Unlock the game with the game master's passphrase (above) to make the message to players."
#: said in place of a player's code once their orders changed after it was sealed
STALE_CODE = (
    "Your orders have changed since your code was sealed: it holds the orders before, so it is no longer "
    "shown. Press Send my orders to seal the orders now given, and send that code."
)

#: what a page that is not the game master's says of an orders code opened as a link
CODE_LINK = (
    "That link is a sealed orders code, for the game master: send it to them to paste under Group game "
    "(or to open as a link in their own page). The game shown is unchanged."
)


def choosing() -> None:
    """A new game's dialog is opening: the map of the game in hand (perhaps of another variant than the one
    chosen) is not shown behind it (web/app.css) until the dialog closes (see ``App._wire``)."""
    document.documentElement.dataset.choosing = ""


def _bring_to(element_id: str) -> None:
    """The control ``element_id`` brought to the middle of the screen with the keyboard's focus on it."""
    element = _id(element_id)
    element.scrollIntoView(to_js({"block": "center"}, dict_converter=js.Object.fromEntries))
    element.focus(to_js({"preventScroll": True}, dict_converter=js.Object.fromEntries))


class Classic:
    """A Classic group game as the group controller asks it (:class:`adjutant_ui.group_state.GroupKind`):
    its links carry the game itself (the players' link the public game, the game master's the pending
    orders and the sealed key); a code binds the phase; a player chooses the power they play."""

    chooses_power = True

    def __init__(self, ctrl: GroupControl) -> None:
        self.ctrl = ctrl

    def opened(self, state: GroupState) -> bool:
        return True

    def phase_tag(self, state: GroupState) -> int | str:
        return len(state.game.history)

    def phase_digest(self, state: GroupState) -> bytes:
        return group.phase_digest(state.game, state.public_key)

    def code_binding(self, state: GroupState) -> bytes | None:
        return None

    def intake_digest(self, state: GroupState) -> bytes:
        return group.phase_digest(state.game, state.public_key)

    def keep_link(self, state: GroupState, replace_hash: bool) -> None:
        if state.is_gm:
            fragment = group.gm_link(state.game, state.public_key, state.sealed_private, state.intake)
        else:  # a player's drafts stay in this browser: the link is the game's public one
            fragment = group.public_link(state.game, state.public_key, state.power)
        self.ctrl.app.saving.remember(fragment, replace_hash)

    def players_link(self, state: GroupState) -> str:
        return group.public_link(state.game, state.public_key)

    def public_fragment(self, state: GroupState) -> str | None:
        return self.players_link(state)

    def when_sealed(self, state: GroupState, then: Callable[[], None]) -> None:
        then()  # (its links are made from the game itself, at once)

    async def open_game(self, state: GroupState, key: Any, phrase: str) -> str:
        return ""  # (the key is all a Classic game master's link seals)

    def role_text(self, state: GroupState) -> str:
        if not state.power:
            return "You are a player in this group game. Choose the power you play to give and send your orders."
        return f"You play {state.game.variant.powers[state.power].name}. {_what_to_do(state.game, state.power)}"

    def set_passphrases(self, state: GroupState, phrases: dict[str, str]) -> bool:
        return False

    async def unlock(self, state: GroupState, phrase: str) -> bool:
        return False


class GroupController:
    def __init__(self, app: GroupPage) -> None:
        self.app = app
        self.state: GroupState | None = None
        self.pending: GroupState | None = None
        self.wired = False
        #: an orders code the page was opened with, taken in once the game master unlocks
        self.queued = ""
        #: the game master's key unlocked and codes taken in; a player's orders sealed and sent
        self.intake = CodeIntake(self)
        self.sending = OrderSending(self)

    # --- hooks the app calls ----------------------------------------------------------------------
    @staticmethod
    def claims(fragment: str) -> bool:
        return group.is_group_link(fragment)

    @staticmethod
    def slot_tag(state: GroupState | None) -> tuple[str, int]:
        """What a group game's save is found by (``saves.Saves.find_group``): the game and whose view of
        it (the game master's or a player's), and its number of phases; ("", 0) for any other game."""
        if state is None:
            return "", 0
        view = "gm" if state.is_gm else "player"
        return f"{group.b64(group.game_id(state.public_key))}.{view}", len(state.game.history)

    def read(self, fragment: str) -> Session:
        """The session of a group link (checked); it becomes the group game when the app shows it."""
        if cg.is_cluster_group_link(fragment):
            return self._read_cluster(fragment)
        link = group.read_group_link(fragment)
        power = link.power
        if not link.is_gm and not power:  # the players' link: this browser's player played this power
            remembered = _remembered_power(link.public_key)
            power = remembered if remembered in link.game.variant.powers else ""
        session = Session(link.game, readonly=not link.is_gm and not power, player="" if link.is_gm else power)
        state = GroupState(session, link.public_key, link.sealed_private, power=power, kind=Classic(self))
        if link.is_gm:
            state.intake = group.Intake.from_text(link.intake, link.game)
        else:
            state.later = _later_phase_seen(link.public_key, link.game, fragment)
            state.typed = ""  # the box holds no other game's text; a draft kept puts back its own
            if power:
                self.restore_draft(state, "from before the reload")
        self.pending = state
        return session

    # --- a player's drafts, kept in this browser (saves.Draft) ------------------------------------
    def _draft_place(self, state: GroupState) -> tuple[str, str] | None:
        """The game and phase a player's draft is kept under; None where none is kept (the game
        master's view, no power chosen, a Cluster player's view before their passphrase opened it).
        A Cluster game's phase is the digest of the link's public part, the one its codes bind."""
        if state.is_gm or not state.power or not state.kind.opened(state):
            return None
        # the phase's digest, worked out once per phase
        at = state.kind.phase_tag(state)
        if state.draft_place is None or state.draft_place[0] != at:
            phase = state.kind.phase_digest(state)
            state.draft_place = (at, (group.b64(group.game_id(state.public_key)), group.b64(phase[:12])))
        return state.draft_place[1]

    def restore_draft(self, state: GroupState, since: str) -> None:
        """Put back the orders and the code kept for the player's power at this phase, if any."""
        place = self._draft_place(state)
        if place is None:
            return
        draft = saves.read_draft(self.app.saving.saves.storage, place[0], state.power, place[1])
        if draft is None or draft.empty:
            return
        if draft.orders and not state.game.over:
            state.game.add_orders("\n".join(draft.orders), state.power)  # (one not taken is dropped)
        state.code, state.code_note, state.typed = draft.code, draft.note, draft.typed
        state.code_orders = tuple(sorted(draft.sealed if draft.sealed is not None else draft.orders))
        what = "orders and the sealed code you were shown" if draft.code else "orders"
        state.kept = f"Your {what} for {state.game.phase.title} were kept {since}."

    def keep_draft(self, state: GroupState) -> None:
        """Keep the player's orders and last code for a reload (nothing is kept if storage is full or off)."""
        place = self._draft_place(state)
        if place is None:
            return
        orders = tuple(group.power_order_texts(state.game, state.power))
        # the box's text is this game's once it has been drawn (until then it may be another game's)
        typed = str(_id("orders-text").value) if state.typed is None else state.typed
        draft = saves.Draft(place[1], orders, state.code, state.code_note, typed,
                            state.code_orders if state.code else None)
        saves.write_draft(self.app.saving.saves.storage, place[0], state.power, draft)

    def _read_cluster(self, fragment: str) -> Session:
        """A Cluster group link opens as the public view, read only, until a passphrase opens a part."""
        link = cg.read_link(fragment)
        game = link.public_game()
        session = Session(game, readonly=True)
        state = GroupState(session, link.public_key, link.sealed_private, power=link.power,
                           kind=cluster_group.Cluster(self))
        state.cluster = cluster_group.from_link(link)
        if link.is_gm:
            state.intake = group.Intake.from_text(link.intake, game)
        self.pending = state
        return session

    def secret_role(self) -> str:
        """The app's role for the view shown: "public" for a Cluster group game's view before a part is
        opened (the Secrets panel then offers the passphrase), else ""."""
        state = self.state
        return "public" if state is not None and not state.kind.opened(state) else ""

    def page_state(self) -> dict[str, Any] | None:
        """What the game master's page says of this phase's codes beyond the link (the list of the codes
        last opened, the refusals on the powers' rows), for the game's slot (:class:`saves.CodesNotes`);
        None for any other view."""
        state = self.state
        if state is None or not state.is_gm:
            return None
        phase = len(state.game.history)
        intake = state.intake.for_phase(state.game)
        log = tuple(state.log) if state.log_at == phase else ()
        return saves.CodesNotes(phase, log, tuple(intake.refused)).to_data()

    def restore_page(self, saved: saves.Saved | None) -> None:
        """Put back what the game master's page said of this phase's codes before a reload (kept in the
        game's slot ``saved`` by :meth:`page_state`), if it is of the phase in hand."""
        state = self.state
        if state is None or not state.is_gm or saved is None:
            return
        notes = saves.CodesNotes.from_data(saved.page, len(state.game.history))
        if notes is None:
            return
        state.intake = state.intake.for_phase(state.game)
        powers = state.game.variant.powers
        state.intake.refused = [(p, why, earlier) for p, why, earlier in notes.refused if not p or p in powers]
        if notes.log:
            state.log, state.log_at = list(notes.log), notes.phase

    def keep_unlocked(self, held: GroupState | None) -> None:
        """The game just read (pending) is the game master's game ``held`` as another tab saved it: it
        stays unlocked if ``held`` was (the same game's key, which this page opened already)."""
        state = self.pending
        if state is not None and held is not None and state.is_gm and held.public_key == state.public_key:
            state.private_key = held.private_key

    def remember_power(self, power: str) -> None:
        state = self.state
        if state is not None:
            _remember_power(state.public_key, power)

    def on_show(self, session: Session) -> None:
        self.state = self.pending if self.pending is not None and self.pending.session is session else None
        self.pending = None
        kind = js.document.getElementById("game-kind")
        if kind is not None and kind is not jsnull:  # (not in an embedded map) the Players box: the game shown
            kind.value = "group" if self.state is not None else "sandbox"
        # a sealed code belongs to the game and phase it was made in: another game or phase starts without
        if self.wired:
            _id("orders-code").value = ""
            _id("orders-code-box").hidden = True
            for name in ("group-status", "send-status", "codes-status", "message-status", "link-status"):
                self.say(name, "")

    def old_link_note(self) -> str:
        """For a player's old link (this browser opened a later phase of the game): what the message at
        the top of the page says, seen wherever the player looks first (the Group game panel, with the
        link to the latest phase, may be far down); "" otherwise."""
        state = self.state
        if state is None or state.is_gm or not state.later[0]:
            return ""
        return (f"This link is an old one: it shows {state.game.phase.title}, and this browser has opened this "
                f"game at {state.later[0]}. Orders sent from here will be refused. The Group game panel has a "
                "link to the latest phase.")

    def orders_column(self) -> dict[str, tuple[str, str]] | None:
        """For a group game's master, what the Powers table's Orders column says of each power, with its
        class: whether its orders are in ("in", with what is left without an order: units that hold, builds
        unused...) or not ("not in"), as the intake table has it; None for any other game or view, whose
        column says what is due."""
        state = self.state
        if state is None or not state.is_gm or state.game.over:
            return None
        if not state.kind.opened(state):  # (Cluster's public view: nothing is known yet)
            return None
        game = state.game
        due = game.orders_due()
        intake = state.intake.for_phase(game)
        column = {}
        for power in game.variant.powers:
            if power in intake.received or game.orders_of(power):
                left = due.get(power, 0)
                column[power] = (f"in; {_left_without_orders(game, power, left)}" if left else "in", "ready")
            elif power in due:
                column[power] = ("not in", "due")
            else:
                column[power] = ("—", "")
        return column

    def locked(self) -> bool:
        """Whether the game in hand is a group game's master's, not yet unlocked with the passphrase: it is
        not to be adjudicated (nor undone, nor a draw declared) or messaged until it can open codes."""
        state = self.state
        return state is not None and state.is_gm and state.private_key is None

    def takes_codes(self) -> bool:
        """Whether the game in hand is the game master's group game (the one orders codes go to)."""
        return self.state is not None and self.state.is_gm

    def codes_typed(self, text: str) -> list[str]:
        """What to say of each line of typed orders that holds a sealed orders code (none: no such line).
        A code is not an order: the line names it (shortened, so no long unbroken text stretches a
        phone's page) and says where it goes instead, for the game master, a player or anyone else."""
        state = self.state
        if state is not None and state.is_gm:
            where = "paste it into the box of codes under Group game and press Open codes"
        elif state is not None:
            where = "it is what Send my orders gives you to send to your game master, whose page opens it"
        else:
            where = "it is opened on its group game's game master's page, in the box of codes"
        said = []
        for number, line in enumerate(text.splitlines(), 1):
            match = group.CODE_PATTERN.search(line)
            if match:
                short = group.CODE_PREFIX + match.group(1)[:8] + "…"
                said.append(f"line {number}: {short} is a sealed orders code, not an order: {where}.")
        return said

    def player_power(self) -> str | None:
        state = self.state
        return state.power or None if state is not None and not state.is_gm else None

    def typed(self, power: str | None) -> None:
        state = self.state
        if state is not None and state.is_gm and power:
            state.intake = state.intake.for_phase(state.game)
            state.intake.typed(power)

    def changed(self, replace_hash: bool) -> bool:
        """Put the group game's own link in the address bar and the autosave; False if not a group game."""
        state = self.state
        if state is None:
            return False
        if state.is_gm and state.kind.opened(state):
            state.intake = state.intake.for_phase(state.game)
        self.keep_draft(state)  # (a player's, once the view is their own; none is the game master's)
        state.kind.keep_link(state, replace_hash)
        return True

    # --- starting a group game --------------------------------------------------------------------
    def wire(self) -> None:
        if self.wired:
            return
        self.wired = True
        app = self.app
        app.on(_id("group-form"), "submit", self.on_start)
        app.on(_id("group-cancel"), "click", lambda e: _id("group-dialog").close())
        app.on(_id("group-generate"), "click", lambda e: self._generate())
        app.on(_id("group-power"), "change", self.sending.on_power)
        app.on(_id("send-orders"), "click", self.sending.on_send)
        app.on(_id("orders-text"), "input", self.sending.on_typing)
        app.on(_id("copy-code"), "click", lambda e: self.sending.copy_code(link=False))
        app.on(_id("copy-code-link"), "click", lambda e: self.sending.copy_code(link=True))
        app.on(_id("share-code"), "click", lambda e: self._share(str(_id("orders-code").value), "send-status"))
        app.on(_id("gm-unlock-form"), "submit", self.intake.on_unlock)
        app.on(_id("open-codes"), "click", self.intake.on_open_codes)
        app.on(_id("copy-public-link"), "click", self.on_copy_public)
        app.on(_id("share-public-link"), "click", self.on_share_public)
        app.on(_id("message-players"), "click", self.on_message)
        app.on(_id("share-message"), "click", self.on_share_message)
        app.on(_id("group-jump"), "click", self.on_jump)
        app.on(_id("more-tools"), "click", self.on_more_tools)
        app.on(_id("group-to-orders"), "click", lambda e: self._to_orders())
        app.on(_id("group-to-adjudicate"), "click", lambda e: self._to_adjudicate())
        # a readonly field's text is selected at once, ready for the phone's own copy menu
        for name in ("orders-code", "players-link", "players-message"):
            app.on(_id(name), "focus", lambda e: e.target.select())
        # Share where the browser has it (phones, mostly): the system's sheet to a mail or chat app
        shareable = hasattr(js.navigator, "share")
        for name in ("share-code", "share-public-link", "share-message"):
            _id(name).hidden = not shareable

    # --- saying what happened, where the user looks -----------------------------------------------
    @staticmethod
    def say(status: str, text: str, kind: str = "info") -> None:
        """Write ``text`` in one of the group panels' status lines, each a live region next to the controls
        it speaks of: ``group-status`` (starting, unlocking), ``link-status``, ``codes-status``,
        ``message-status`` (the game master's) and ``send-status`` (the player's)."""
        line = _id(status)
        line.textContent = without_bidi_controls(text)  # (it may quote a code or orders as pasted)
        line.className = f"group-status {kind}"

    def players_url(self) -> str:
        state = self.state
        if state is None:
            return ""
        fragment = self.public_fragment()
        if fragment is None:  # a Cluster game master's link not yet unlocked: its players' parts are sealed
            return ""
        return f"{page_address()}#{fragment}"

    def _share(self, text: str, status: str) -> None:
        if text:
            asyncio.ensure_future(self._share_text(text, status))

    async def _share_text(self, text: str, status: str) -> None:
        try:
            await js.navigator.share(to_js({"text": text}, dict_converter=js.Object.fromEntries))
        except Exception as error:  # noqa: BLE001 - cancelled, or no app to share to: the text stays to copy
            if "AbortError" not in str(error):
                self.say(status, "Sharing did not work here: copy the text instead.", "error")

    async def copy_text(self, text: str, status: str, done: str, field_id: str = "") -> None:
        try:  # writeText's promise is refused when the page lacks focus or permission
            await js.navigator.clipboard.writeText(text)
            self.say(status, done)
        except Exception:  # noqa: BLE001 - no clipboard: the text is in its field, selected, to copy by hand
            if field_id:
                _id(field_id).focus()
                _id(field_id).select()
            self.say(status, "This browser did not let the page copy: the text is selected, copy it yourself.",
                      "error")

    def on_share_message(self, event: Any) -> None:
        self._share(str(_id("players-message").value), "message-status")

    @staticmethod
    def message_due(state: GroupState) -> bool:
        """Whether the game master's next step is the message to players: a phase was adjudicated, its
        message not yet made here, and no code for the new phase has come in."""
        history = len(state.game.history)
        return bool(history) and state.messaged != history and not state.intake.for_phase(state.game).received

    @staticmethod
    def on_more_tools(event: Any) -> None:
        """A player's page: the folded game master's and sandbox controls (new game, files) shown, or folded
        again."""
        opened = not bool(document.body.classList.contains("tools-open"))
        document.body.classList.toggle("tools-open", opened)
        _id("more-tools").setAttribute("aria-expanded", "true" if opened else "false")

    def on_jump(self, event: Any) -> None:
        """The phone's shortcut past the map to the group game's next step."""
        state = self.state
        if state is None:
            return
        if state.is_gm:
            target = "gm-passphrase" if state.private_key is None else "codes-text"
            if target == "codes-text" and self.message_due(state):
                target = "message-players"
        elif not state.kind.opened(state):
            target = "unlock-passphrase"  # a Cluster player's passphrase says which power, under Secrets
        elif state.later[0]:
            target = "group-later-link"
        elif state.power and not state.game.orders_of(state.power):
            self._to_orders()  # no order given yet: that is the next step, before sending
            return
        else:
            target = "send-orders" if state.power else "group-power"
        _bring_to(target)

    def to_message(self) -> bool:
        """The game master adjudicated from the keyboard: the focus goes to Message to players, the next
        step, brought on screen (from Adjudicate it is a dozen Tab presses on, through the panels between).
        False, and nothing moved, where this is not a group game's master or no message is due."""
        state = self.state
        if state is None or not state.is_gm or not self.message_due(state):
            return False
        _bring_to("message-players")
        return True

    @staticmethod
    def _to_orders() -> None:
        """A player's way from the Group game panel (or the phone's shortcut) to giving orders: the map
        and the Orders panel brought into view, the keyboard's focus on its list of orders given (the map
        and the text box are a Tab away), rather than some twenty Tab presses round the page's header.
        Where the map is above the panel (a phone), the view starts at the map, the panel's prompt under
        it: orders are given there by taps. Beside it, the view starts at the panel."""
        board, panel = js.document.querySelector(".board"), _id("orders-panel")
        stacked = board.getBoundingClientRect().bottom <= panel.getBoundingClientRect().top
        (board if stacked else panel).scrollIntoView(to_js({"block": "start"}, dict_converter=js.Object.fromEntries))
        _id("order-list").focus(to_js({"preventScroll": True}, dict_converter=js.Object.fromEntries))

    @staticmethod
    def _to_adjudicate() -> None:
        """The game master's way from the codes just opened to Adjudicate (under Orders, above the Group
        game panel): brought into view and focused, rather than some forty Shift+Tab presses back through
        the Secrets panel's nominations."""
        _bring_to("adjudicate")

    @contextlib.contextmanager
    def busy(self, text: str) -> Iterator[None]:
        """While the keys of a new group game are made (PBKDF2: seconds on a phone), the game shown is the
        one it replaces: it takes no orders meanwhile (they would go to a game about to be put away). The
        table and the new-game and file controls are inert (no click, tap, focus or typing reaches them),
        marked busy (dimmed; ``aria-busy``), and ``text`` says why in the page's message (an alert)."""
        self.app.message(text, "info")
        with inert(BUSY_PARTS):
            yield

    def secure(self) -> bool:
        return bool(js.window.adjutantGroup.available())

    def refused_insecure(self, status: str = "") -> bool:
        """Whether the page cannot seal (it was not opened over https://): if so, said in the page's message
        and in the panel's status line ``status``, if one is named."""
        if self.secure():
            return False
        if status:
            self.say(status, INSECURE, "error")
        self.app.message(INSECURE)
        return True

    def start_new(self, variant_id: str) -> None:
        """The dialog for a new group game: the game master's passphrase."""
        if self.refused_insecure():
            return
        _id("group-dialog").dataset.variant = variant_id
        _id("group-errors").replaceChildren()
        self._generate()
        self.app.computer.group_dialog(variant_id)
        choosing()
        _id("group-dialog").showModal()

    def _generate(self) -> None:
        _id("group-passphrase").value = sealed.generate_passphrase()

    def on_start(self, event: Any) -> None:
        event.preventDefault()
        phrase = str(_id("group-passphrase").value).strip()
        problems = sealed.passphrase_problems({"gm": phrase}, {"gm": "The game master's passphrase"})
        if self.app.list_problems("group-errors", problems):
            return
        _id("group-dialog").close()
        asyncio.ensure_future(self._start(str(_id("group-dialog").dataset.variant), phrase))

    async def _start(self, variant_id: str, phrase: str) -> None:
        app = self.app
        try:
            with self.busy(MAKING_KEYS):
                game = Game.new(load_variant(variant_id))
                group.public_body(game)  # a Cluster game is refused here, before any key is made
                app.computer.seat_group_game(game)
                made = await js.window.adjutantGroup.newGame(phrase)
                session = Session(game)
                self.pending = GroupState(session, js_bytes(made.publicKey), str(made.sealedPrivate), made.privateKey,
                                          kind=Classic(self))
                self.pending.intake = group.Intake(0)
                app.saving.replacing()
                await app.show(session)
        except Exception as error:  # noqa: BLE001 - say why; the game in hand stays
            app.message(f"The group game could not be started: {error}")
            return
        started = (
            "Group game started. Send the players' link to every player; they send you sealed orders "
            "codes, which you paste here. Keep your own link (the address bar) and your passphrase: they "
            "are the only way back to this game."
        )
        app.clear_message()
        app.changed()
        app.render()
        self.lead_to_players_link(started)

    def adjudicated(self, done: str) -> None:
        """The game master adjudicated the phase ``done`` (its title): the Group game panel's status says
        the next step (the words of the game's start would be stale by now)."""
        state = self.state
        if state is None or not state.is_gm:
            return
        game = state.game
        then = "" if game.over else f"; then paste the codes they send for {game.phase.title}"
        state.said = "adjudicated"
        self.say("group-status", f"{done} adjudicated. Next: Message to players (below) makes the results and "
                                  f"the new players' link, to send to every player{then}.")

    def undone(self) -> None:
        """The game master undid the last adjudication: the status line says the phase is to be adjudicated again."""
        state = self.state
        if state is not None and state.is_gm:
            state.said = ""
            self.say("group-status", f"Adjudication undone: {state.game.phase.title} is to be adjudicated "
                                      "again, its orders as they were.")

    def lead_to_players_link(self, started: str) -> None:
        """A new group game: ``started`` said in the Group game panel, its players' link brought on screen
        and its Copy button focused (the first thing the game master does)."""
        if self.state is not None:
            self.state.said, self.state.said_log = "started", self.state.log
        self.say("group-status", started)
        field = _id("players-link")
        field.scrollIntoView(to_js({"block": "center"}, dict_converter=js.Object.fromEntries))
        _id("copy-public-link").focus(to_js({"preventScroll": True}, dict_converter=js.Object.fromEntries))

    def on_share_public(self, event: Any) -> None:
        if self.state is not None:
            self.state.linked = len(self.state.game.history)
        self._share(self.players_url(), "link-status")

    def on_copy_public(self, event: Any) -> None:
        state = self.state
        if state is None:
            return
        state.linked = len(state.game.history)
        state.kind.when_sealed(state, self._copy_public_link)

    def _copy_public_link(self) -> None:
        url = self.players_url()
        if url:
            done = "Players' link copied: send it to every player."
            asyncio.ensure_future(self.copy_text(url, "link-status", done, "players-link"))

    def on_message(self, event: Any) -> None:
        state = self.state
        if state is None or not state.game.history or self.locked():
            return
        state.kind.when_sealed(state, lambda: self._show_message(state, state.kind.players_link(state)))

    def _show_message(self, state: GroupState, fragment: str) -> None:
        link = f"{page_address()}#{fragment}"
        state.message = group.results_message(state.game, link, state.session.players_results_text())
        state.message = computer.with_note(state.message, state.game)
        state.messaged = len(state.game.history)
        _id("players-message").value = state.message
        self.app.render()
        done = "Message to players copied: paste it into your email or chat to all the players."
        asyncio.ensure_future(self.copy_text(state.message, "message-status", done, "players-message"))

    def public_fragment(self) -> str | None:
        """The players' link of the group game in hand (for the embed code), or None."""
        state = self.state
        return state.kind.public_fragment(state) if state is not None else None
