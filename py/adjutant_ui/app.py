"""The page: wires the DOM of index.html / embed.html to a :class:`~adjutant_ui.session.Session`.

Every text that comes from a game (names, orders, results, messages) goes into the page through
``textContent`` or form values, never as markup.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import math
from collections.abc import Callable, Generator, Iterator
from typing import Any

import js
from adjutant import available_variants
from adjutant.formats.limits import without_bidi_controls
from adjutant.formats.link import link_steps
from adjutant.steps import run_to_end
from pyodide.ffi import create_proxy, jsnull, to_js

from . import sealed
from .board import Board, show_drawn
from .computer_page import ComputerPlayers
from .dom import by_id as _id
from .dom import js_value as _v
from .dom import mark as _mark
from .group import CODE_LINK, GroupController, inert
from .group_panel import GroupPanel
from .keyboard import MapKeys
from .page import InHand
from .panels import Panels
from .pictures import Pictures, page_scene
from .play import Play
from .proxies import Proxies
from .saves import new_id
from .saving import AUTOSAVE_KEY, VARIANT_KEY, Saving
from .saving import code_link as _code_link
from .saving import storage_get as _storage_get
from .saving import tab_get as _tab_get
from .sealed import GM, SealedLink
from .sealing import Sealing
from .session import (
    Session,
    encode_link,
    read_link,
    rehearsal,
)
from .setup import SetupPanel
from .sharing import Sharing

document = js.document


#: what the status line says while a link's carried position is shown and its history replayed
CHECKING_HISTORY = "The link's position is shown; its history is being checked before it can be played…"


async def _page_turn() -> None:
    """Let the browser draw and answer input: Pyodide's event loop runs the next step in a task of its own
    (a message), not a microtask."""
    await asyncio.sleep(0)


def _draw_board(board: Board, session: Session, show_results: bool, chosen: str | None) -> dict[str, int]:
    """Draw ``session``'s shown position and orders on ``board``, with the last phase's results if
    ``show_results`` (the marks of the adjustments due for ``chosen``, a power, if given); returns the
    Sites of the Ancients drawn (a game with secrets). What is drawn is what a picture of the board shows
    (adjutant_ui.pictures.page_scene)."""
    return run_to_end(_board_steps(board, session, show_results, chosen))


def _board_steps(board: Board, session: Session, show_results: bool,
                 chosen: str | None) -> Generator[None, None, dict[str, int]]:
    """:func:`_draw_board` a step at a time (:meth:`Board.steps`: the board is put in the page at the last)."""
    drawn = page_scene(session, show_results, chosen)
    yield
    yield from board.steps(drawn.position, drawn.orders, session.selected, session.targets(),
                           set(session.orderable_units()), drawn.sites, drawn.strengths, drawn.results,
                           drawn.changed, drawn.retreats, drawn.marks)
    return drawn.sites


class App:
    """The page: its plumbing (listeners, the message box), its start-up and the game shown, and the parts
    it wires together, each given what it needs of the page (adjutant_ui.page): the saving, the map's
    keyboard, the order entry, the games with secrets, the group game, the computer players, the set-up
    panel, the panels beside the map and the board's pictures."""

    def __init__(self, view: str) -> None:
        self.view = view
        self.embed = view == "embed"
        self.session: Session | None = None
        self.board: Board | None = None
        #: "Download the board" (adjutant_ui.pictures)
        self.pictures = Pictures(self)
        #: every proxy of a Python callable handed to JavaScript (adjutant_ui.proxies)
        self.proxies = Proxies(create_proxy)
        #: the proxies of the buttons offered in the message box, released when the message changes
        self.message_proxies: list[Any] = []
        #: what each button drawn at a render does, by its data-action: one listener on each panel reads
        #: it, so that no event proxy is made per render
        self.actions: dict[str, Any] = {}
        self.last_link = ""
        # A game with secrets (Cluster): who is looking ("" for an ordinary game; "public", "gm" or a
        # power's id) and the sealed link it came from; its passphrases and keys are the sealing's.
        self.role = ""
        self.link: SealedLink | None = None
        #: a group game (players send sealed orders codes): py/adjutant_ui/group.py
        self.group = GroupController(self)
        #: the Group game panel, drawn: py/adjutant_ui/group_panel.py
        self.group_panel = GroupPanel(self.group)
        #: computer players: py/adjutant_ui/computer_page.py
        self.computer = ComputerPlayers(self)
        #: "Set up a position" and "Report this adjudication": py/adjutant_ui/setup.py
        self.setup = SetupPanel(self)
        #: the game's slot, the autosave, Recent games, history entries, other tabs: py/adjutant_ui/saving.py
        self.saving = Saving(self, self.group)
        #: passphrases, sealing, unlocking: py/adjutant_ui/sealing.py
        self.sealing = Sealing(self, self.group, self.setup, self.saving)
        #: orders typed or clicked, adjudication, undo, draws, new games: py/adjutant_ui/play.py
        self.play = Play(self, self.group, self.computer, self.setup, self.saving, self.sealing)
        #: the map from the keyboard, and its clicks: py/adjutant_ui/keyboard.py
        self.keyboard = MapKeys(self, self.group, self.play)
        #: Copy link, Copy results, embedding, Download, game files opened: py/adjutant_ui/sharing.py
        self.sharing = Sharing(self, self.group, self.saving, self.sealing)
        #: the panels beside the map: py/adjutant_ui/panels.py
        self.panels = Panels(self, self.group, self.sealing, self.play, self.keyboard)

    # --- plumbing ------------------------------------------------------------------------------------
    def on(self, element: Any, event: str, handler: Any) -> Any:
        """Listen to ``event`` on ``element`` for the page's lifetime; the listener's proxy."""
        if element is None:
            return None
        proxy = self.proxies.make(handler)
        element.addEventListener(event, proxy)
        return proxy

    def on_zoom(self, event: Any = None) -> None:
        """Show the board at twice the size, scrolling inside its frame (the nine-power maps' labels
        are small at the page's width)."""
        board = _id("map")
        zoomed = not board.classList.contains("zoomed")
        board.classList.toggle("zoomed", zoomed)
        button = _id("map-zoom")
        button.setAttribute("aria-pressed", "true" if zoomed else "false")
        button.textContent = "Smaller map" if zoomed else "Larger map"

    def post_height(self) -> None:
        """The embed view tells the page holding it how tall its content is (the snippet from "Embed
        code" sizes the frame to it). Only a number is sent. The height is the body's own (app.css keeps its
        children's margins inside it), not the document's scroll height, which is never less than the
        frame's: the frame shrinks to its content as well as grows."""
        with contextlib.suppress(Exception):  # not in a frame, or the parent is gone
            if js.window.parent is not js.window:
                height = math.ceil(float(document.body.getBoundingClientRect().height))
                data = to_js({"adjutantHeight": height}, dict_converter=js.Object.fromEntries)
                js.window.parent.postMessage(data, "*")

    def message(self, text: str, kind: str = "error", beside: bool = False) -> None:
        """Show ``text`` at the top of the page; ``beside``: the control that gave it says it beside
        itself too, so the page is not scrolled away from it. Text-direction controls are taken out: a
        message may quote what came from outside (a file's name, orders as typed), and one could
        reorder the message's own words."""
        box = _id("message")
        for action in box.querySelectorAll(".message-action"):
            action.remove()
        for proxy in self.message_proxies:
            self.proxies.release(proxy)
        self.message_proxies = []
        _id("message-text").textContent = without_bidi_controls(text)
        box.className = f"message {kind}"
        box.hidden = False
        # given by a control far down the page (a phone's Secrets panel, say): the message at the top is
        # brought on screen, or the press would seem to do nothing (an embed never scrolls its host page)
        if not self.embed and not beside and float(box.getBoundingClientRect().bottom) < 0:
            box.scrollIntoView()

    def clear_message(self, only: str = "") -> None:
        """Hide the message; with ``only``, only while it still says that (a later one stays)."""
        if only and str(_id("message-text").textContent) != without_bidi_controls(only):
            return
        _id("message").hidden = True

    def list_problems(self, list_id: str, problems: list[str]) -> bool:
        """Show ``problems`` (as text) in the list ``list_id``, replacing what it showed; whether there are any."""
        errors = _id(list_id)
        errors.replaceChildren()
        for problem in problems:
            item = document.createElement("li")
            item.className = "rejected"
            item.textContent = problem
            errors.appendChild(item)
        return bool(problems)

    def copy(self, text: str, what: str) -> None:
        asyncio.ensure_future(self._copy(text, what))

    async def _copy(self, text: str, what: str) -> None:
        try:  # writeText's promise is refused when the page lacks focus or permission
            await js.navigator.clipboard.writeText(text)
            self.message(f"{what} copied to the clipboard.", "info")
        except Exception:  # noqa: BLE001 - no clipboard: show the text to copy by hand
            self.message(f"Copy this {what.lower()}: {text}", "info")

    # --- start ---------------------------------------------------------------------------------------
    async def start(self) -> None:
        _mark("pyStart")
        if not self.embed:
            self._fill_variants()
        game_session = None
        from_link = False
        bad_link = False
        problems: list[str] = []
        fragment = str(js.location.hash).lstrip("#")
        link: SealedLink | None = None
        if fragment and _code_link(fragment):
            # an orders code opened as a link: it goes to the game master's game (the autosave)
            self.group.queued = fragment
            fragment = ""
        if fragment:
            try:
                if self.group.claims(fragment):
                    game_session = self.group.read(fragment)
                else:
                    game_session, link = await self.read_link(fragment)
                from_link = True
                self.saving.game_id = self.saving.slot_for(fragment) or new_id()
            except Exception as error:  # noqa: BLE001 - no link may stop the page from starting
                bad_link = True
                problems.append(f"The link could not be opened: {error}.")
        unreadable = ""
        if game_session is None and not self.embed:
            # this tab's own game if it is reloaded, else the game saved last in any tab
            mine = self.saving.saves.load(_tab_get()) if _tab_get() else None
            saved = mine.link if mine is not None else _storage_get(AUTOSAVE_KEY)
            if saved:
                try:
                    if self.group.claims(saved):
                        game_session = self.group.read(saved)
                    else:
                        game_session, link = await self.read_link(saved)
                    self.last_link = saved
                    self.saving.game_id = mine.id if mine is not None else self.saving.saves.find(saved) or new_id()
                except Exception as error:  # noqa: BLE001 - nor may a damaged autosave
                    unreadable = saved
                    problems.append(self.saving.keep_unreadable(saved, str(error)))
        if bad_link:  # what is shown instead: the game saved last, if one was read, else a new game
            problems[0] += f" Showing {'your last game' if game_session is not None else 'a new game'} instead."
        if not self.saving.game_id:
            self.saving.game_id = new_id()
        if game_session is None:
            try:
                game_session = Session.new(_storage_get(VARIANT_KEY) or "standard")
            except Exception:  # noqa: BLE001 - an unknown or damaged variant name in storage
                game_session = Session.new("standard")
        if problems:
            self.message(" ".join(problems))
        if unreadable:
            self.saving.offer_download(unreadable, "adjutant-unreadable-autosave.txt", "Download the unreadable save")
        _mark("sessionReady")
        # the page gets its turn between the start's steps (the board made, the position drawn, the side
        # panels filled, the game saved), so that no one of them holds it long (docs/performance-startup.md)
        await _page_turn()
        slot = self.saving.saves.load(self.saving.game_id)  # (read before this start writes it again)
        await self.show(game_session, role="public" if link else "", link=link)
        self.group.restore_page(slot)
        if link is not None:
            self.last_link = fragment if from_link else self.last_link
        _mark("boardReady")
        await _page_turn()
        self.draw_board()
        js.window.adjutantShell.positionDrawn()
        await _page_turn()
        self._wire()
        for element in document.querySelectorAll("button, select, textarea, input"):
            if element.id not in ("hist-first", "hist-prev", "hist-next", "hist-last"):
                element.disabled = False
        self.render()
        _mark("drawn")
        if self.embed:
            js.window.adjutantShell.pythonReady()
            return
        await _page_turn()
        self._start_saved(game_session, from_link, bad_link, fragment, link, problems)
        # the game read and the page's own objects, long-lived too, left out of the collector's passes
        # (see run: what the start leaves as garbage in cycles is kept, a few objects)
        gc.freeze()
        js.window.adjutantShell.pythonReady()
        self.rehearse()

    def _start_saved(self, game_session: Session, from_link: bool, bad_link: bool, fragment: str,
                     link: SealedLink | None, problems: list[str]) -> None:
        """The start's saving, once the game is drawn: a new game or the autosave's in its slot and the
        autosave, a link's game listed under Recent games; and what the start has to say."""
        if self.group.state is not None:
            self.changed()
        elif not from_link:
            if not sealed.has_secrets(game_session.game) or game_session.master is not None:
                # a new game is saved at once; a link replaces the autosave only once played
                self.last_link = self.last_link or encode_link(game_session.kept)
                self.saving.store(self.last_link)
                self.saving.save_snapshot_soon(self.last_link, game_session)
            elif self.last_link:
                self.saving.store(self.last_link)
            if bad_link:  # the address bar holds the game shown, not the bad link
                js.history.replaceState(None, "", "#" + self.last_link)
        else:  # listed under Recent games at once, though not yet the autosave
            self.saving.store(fragment if link is not None else encode_link(game_session.game), autosave=False)
        self.saving.fill_recent()
        old_link = self.group.old_link_note()
        if old_link and not problems:
            self.message(old_link, "info")
        if self.group.queued and not self.group.takes_codes():  # an orders code with no game master's game here
            self.group.queued = ""
            self.message(CODE_LINK, "info")
            if self.last_link:
                js.history.replaceState(None, "", "#" + self.last_link)

    # --- the game shown (its saving is adjutant_ui.saving) ------------------------------------------
    def in_hand(self) -> InHand:
        """What the page shows now, to be put back (:meth:`put_back`) if opening another game fails."""
        sealing, saving = self.sealing, self.saving
        return InHand(self.session, self.role, self.link, sealing.keys, sealing.passphrases, sealing.keys_task,
                      self.group.state, self.last_link, (saving.game_id, saving.saved, saving.keep_autosave))

    async def put_back(self, before: InHand) -> None:
        """After a failed opening: the game that was in hand, shown again as it was (if another had been
        shown meanwhile), with its save's slot; the failed game's save waiting to be written is dropped."""
        self.saving.game_id, self.saving.saved, self.saving.keep_autosave = before.slot
        self.saving.push_next = False
        if before.session is None or self.session is before.session:
            return
        self.saving.pending_save = None
        self.group.pending = before.group
        await self.show(before.session, role=before.role, link=before.link, keys=before.keys,
                        passphrases=before.passphrases)
        self.sealing.keys_task, self.last_link = before.keys_task, before.last_link
        self.render()

    def _fill_variants(self) -> None:
        select = _id("variant-select")
        select.replaceChildren()
        for variant_id, name in available_variants():
            option = document.createElement("option")
            option.value = variant_id
            option.textContent = name
            select.appendChild(option)

    async def read_link(self, fragment: str) -> tuple[Session, SealedLink | None]:
        """The game in a link's fragment (:func:`adjutant_ui.session.read_link`, the one reader of links), its
        replay given the page's turn (drawing, input) every ``SLICE_S`` seconds: at the start, and for a
        link opened later (a changed address, a pasted link, another tab's save). While a game is in hand
        its table takes no input meanwhile, so that nothing is given to a game about to be replaced."""
        if self.session is not None:
            with inert(("main.table",)):
                return await read_link(fragment, _page_turn)
        # at the start, the position a link carries is drawn before its history is replayed; the table
        # stays inert until the replay has reached that position (a link whose replay does not is refused)
        checked = "refused"
        try:
            with inert(("main.table",)):
                read = await read_link(fragment, _page_turn, shown=self._show_carried)
            checked = "checked"
            return read
        finally:
            if document.documentElement.hasAttribute("data-position-carried"):
                document.documentElement.dataset.positionCarried = checked
                _id("boot-text").textContent = "Starting…"

    async def _show_carried(self, carried: Session) -> None:
        """Draw the position a link carries (at the start, while its history is replayed), not yet to be
        played, and say so."""
        await self.show(carried)
        self.draw_board()
        _id("boot-text").textContent = CHECKING_HISTORY
        document.documentElement.dataset.positionCarried = "checking"
        js.window.adjutantShell.positionDrawn()
        await _page_turn()

    async def show(self, new_session: Session, role: str = "", link: SealedLink | None = None,
                   keys: dict[str, Any] | None = None, passphrases: dict[str, str] | None = None) -> None:
        """Make ``new_session`` the shown game (loading its map if the variant changed); for a game with
        secrets, ``role`` says whose view it is, with the sealed link it came from and the game master's
        keys and passphrases."""
        self.saving.save_now()  # (the game in hand's last change, before anything replaces it)
        variant = new_session.game.variant
        # the game in hand (none at the start), being replaced, takes no order while the map loads
        with inert(("main.table",) if self.session is not None else ()):
            svg = await js.window.adjutantShell.loadMap(variant.id)
        self.session = new_session
        self.keyboard.map_focus = None  # (the map's Tab stop is the new game's first unit, as on a fresh page)
        self.setup.on_show()
        self.group.on_show(new_session)
        self.computer.on_show(new_session)
        self.board = Board(svg, variant)
        self.role, self.link = role or self.group.secret_role(), link
        self.sealing.keys, self.sealing.passphrases = dict(keys or {}), dict(passphrases or {})
        self.sealing.keys_task = None
        _id("unlock-status").textContent = ""  # (a refusal said of the game replaced)
        if not self.embed:
            select = _id("variant-select")
            if not any(str(option.value) == variant.id for option in select.options):
                # a draft variant (opened from a link or file) is not in the list of new games
                option = document.createElement("option")
                option.value = variant.id
                option.textContent = variant.name
                select.appendChild(option)
            select.value = variant.id
            powers = _id("orders-power")
            powers.replaceChildren()
            option = document.createElement("option")
            option.value = ""
            option.textContent = "all powers"
            powers.appendChild(option)
            for power in variant.powers.values():
                option = document.createElement("option")
                option.value = power.id
                option.textContent = power.name
                powers.appendChild(option)
            _id("orders-errors").replaceChildren()

    # --- events --------------------------------------------------------------------------------------
    def _wire(self) -> None:
        self.on(_id("map"), "click", self.keyboard.on_map_click)
        self.on(_id("hist-first"), "click", lambda e: self.play.step(to=0))
        self.on(_id("hist-prev"), "click", lambda e: self.play.step(delta=-1))
        self.on(_id("hist-next"), "click", lambda e: self.play.step(delta=1))
        self.on(_id("hist-last"), "click", lambda e: self.play.step(to=10**9))
        self.on(_id("message-close"), "click", lambda e: self.clear_message())
        self.on(js.window, "hashchange", self.saving.on_hash_change)
        self.on(js.window, "storage", self.saving.on_storage)
        # a save waiting for the next idle moment is written before the page goes (reload, tab closed)
        self.on(js.window, "pagehide", lambda e: self.saving.save_now())
        self.on(document, "visibilitychange", lambda e: self.saving.save_now())
        self.on(document, "keydown", self.keyboard.on_key)
        self.on(_id("map"), "focusin", self.keyboard.on_map_focus)
        if self.embed:
            self.on(js.window, "resize", lambda e: self.post_height())
            self.on(_id("embed-results"), "toggle", lambda e: self.post_height())
            return
        self.on(_id("new-game"), "click", self.play.on_new_game)
        for dialog in ("group-dialog", "passphrase-dialog", "computer-dialog"):  # (see group.choosing)
            self.on(_id(dialog), "close", lambda e: document.documentElement.removeAttribute("data-choosing"))
        self.setup.wire()
        self.on(_id("recent-open"), "click", self.saving.on_open_recent)
        self.on(_id("orders-form"), "submit", self.play.on_orders)
        self.on(_id("orders-clear"), "click", self.play.on_clear_orders)
        self.on(_id("adjudicate"), "click", self.play.on_adjudicate)
        self.on(_id("adjudicate-anyway"), "click", self.play.on_adjudicate_anyway)
        self.on(_id("adjudicate-back"), "click", self.play.on_adjudicate_back)
        self.on(_id("click-order"), "click", self.on_action)
        self.on(_id("nominations"), "click", self.on_action)
        self.on(_id("undo"), "click", self.play.on_undo)
        self.on(_id("declare-draw"), "click", self.play.on_draw)
        self.on(_id("copy-link"), "click", self.sharing.on_copy_link)
        self.on(_id("copy-results"), "click", self.sharing.on_copy_results)
        self.on(_id("download"), "click", self.sharing.on_download)
        self.on(_id("upload"), "change", self.sharing.on_upload)
        self.on(_id("copy-embed"), "click", self.sharing.on_embed)
        self.on(_id("map-zoom"), "click", self.on_zoom)
        self.pictures.install()
        self.on(_id("show-results"), "change", lambda e: self.render())
        for event in ("focusin", "mouseover"):
            self.on(_id("results-summary"), event, self.panels.on_result_focus)
        for event in ("focusout", "mouseleave"):
            self.on(_id("results-summary"), event, self.panels.on_result_blur)
        self.on(_id("orders-power"), "change", self.keyboard.on_orders_power)
        self.on(_id("unlock-form"), "submit", self.sealing.on_unlock)
        self.on(_id("unlock-another"), "click", self.sealing.on_unlock_another)
        self.on(_id("show-passphrases"), "click", lambda e: self.sealing.open_passphrases("change"))
        self.on(_id("passphrase-form"), "submit", self.sealing.on_passphrases)
        self.on(_id("passphrase-fields"), "input", lambda e: self.sealing.rate(e.target))
        self.on(_id("passphrase-generate"), "click", self.sealing.on_generate_passphrases)
        self.on(_id("passphrase-copy"), "click", self.sealing.on_copy_passphrases)
        self.on(_id("passphrase-cancel"), "click", lambda e: _id("passphrase-dialog").close())
        # on the document, not the body: a file dropped below a short page must open here too
        # (web/shell.js stops the browser from navigating to a dropped file)
        self.on(document, "drop", self.sharing.on_drop)

    def on_action(self, event: Any) -> None:
        """A click on a button drawn at a render (their handlers are in :attr:`actions`)."""
        button = event.target.closest("button[data-action]") if hasattr(event.target, "closest") else None
        if button is None or button is jsnull:
            return
        handler = self.actions.get(str(button.dataset.action))
        if handler is None:
            return
        was = self.session.selected if self.session is not None else None
        choice = _v(button.closest("#click-order")) is not None
        handler()
        # pressed from the keyboard (a click with no pointer has detail 0): the buttons were drawn again,
        # so the focus goes where the next key is meant for, as after Enter on the map
        if choice and event.detail == 0:
            self.keyboard.focus_after_action(was)

    # --- the game changed: its link (its save is adjutant_ui.saving) ---------------------------------
    def changed(self, replace_hash: bool = True) -> None:
        """Autosave and put the game in the URL fragment."""
        session = self.session
        if session is None or self.embed:
            return
        if self.group.changed(replace_hash):
            return
        if sealed.has_secrets(session.game) and session.master is None:
            # never the game in the clear in the address bar or the autosave: the sealed link, made by
            # the game master (whose keys seal it); any other view keeps the link it came from
            if self.role == GM and self.sealing.sealable():
                asyncio.ensure_future(self._reseal_or_say(session, replace_hash))
            elif replace_hash:
                self.saving.set_hash(self.last_link)
            return
        link = encode_link(session.kept)
        self.last_link = link
        if replace_hash:
            self.saving.set_hash(link)
        self.saving.save_soon(link)
        if self.saving.recent_for != self.saving.game_id:  # another game is in hand: the one before it is listed now
            self.saving.fill_recent()

    async def _reseal_or_say(self, session: Session, replace_hash: bool) -> None:
        """Seal ``session``'s game, or say why it could not be; a game put in hand meanwhile is sealed, or
        not, by its own changes, and a failure is not said over it."""
        if self.session is not session:
            return
        try:
            await self.sealing.reseal(replace_hash)
        except Exception as error:  # noqa: BLE001 - say why; the game in hand stays
            if self.session is session:
                self.message(f"The link could not be sealed: {error}")

    # --- drawing -------------------------------------------------------------------------------------
    def rehearse(self) -> None:
        """Once the page is idle after start-up, play a throwaway game of the shown variant off the page,
        one step per idle moment: its orders read, drawn, adjudicated, put in a link and drawn again, for
        three phases. The player's first clicks then run code the browser has already compiled fully: a
        WebAssembly or JavaScript function runs faster once it has run a while (docs/performance.md, "Page
        actions"). The page's root gets ``data-rehearsed`` when it is over."""
        if self.session is None or self.board is None:
            return
        variant, svg = self.session.game.variant, self.board.svg

        def steps() -> Iterator[None]:
            board = Board(svg.cloneNode(True), variant)  # a copy of the map, never in the page
            yield
            for session in rehearsal(variant):  # its steps and each drawing in idle moments of their own
                yield
                _draw_board(board, session, True, None)
                yield
            # the throwaway game's links took the place of the game in hand's kept encoding (the link
            # module keeps the last two positions'): made again in one idle step (an idle step each unit
            # could wait 2 s for the browser to be idle), so that the first order given does not pay
            # for it (at 1 game year it cost that click more than the rest of it)
            if self.session is not None:
                for _ in link_steps(self.session.kept):
                    pass

        self.when_idle(steps(), lambda: document.documentElement.setAttribute("data-rehearsed", ""))

    def when_idle(self, steps: Iterator[None], done: Callable[[], None], what: str = "rehearsal") -> None:
        """Run ``steps`` one at a time, each when the browser is idle (or after 2 s without an idle moment;
        where the browser has no idle callbacks, after a pause), until done or until one fails (said in the
        console as the idle ``what``'s); then call ``done``."""

        def step(*_: Any) -> None:
            try:
                next(steps)
            except StopIteration:
                done()
                return
            except Exception as error:  # noqa: BLE001 - a rehearsal or a snapshot: said in the console
                js.console.error(f"Adjutant's idle {what} stopped: {error!r}")
                done()
                return
            self.when_idle(steps, done, what)

        if hasattr(js.window, "requestIdleCallback"):
            options = to_js({"timeout": 2000}, dict_converter=js.Object.fromEntries)
            js.window.requestIdleCallback(self.proxies.once(step), options)
        else:
            js.setTimeout(self.proxies.once(step), 200)

    def draw_board(self) -> dict[str, int]:
        """Draw the board of the phase shown (as :meth:`render` does first); the Sites of the Ancients drawn."""
        session, board = self.session, self.board
        if session is None or board is None:
            return {}
        return _draw_board(board, session, *self._board_view())

    def board_steps(self) -> Iterator[None]:
        """:meth:`draw_board` a step at a time (the board is put in the page at the last step)."""
        assert self.session is not None and self.board is not None
        yield from _board_steps(self.board, self.session, *self._board_view())

    def orders_panel(self) -> None:
        """The orders given and the buttons of click entry, filled again (the keyboard's step changed)."""
        self.panels.orders()

    def _board_view(self) -> tuple[bool, str | None]:
        """Whether the board shows the last phase's results, and the power whose build places it marks."""
        show_results = self.embed or bool(_id("show-results").checked)
        chosen = None if self.embed else (str(_id("orders-power").value) or self.group.player_power())
        return show_results, chosen

    #: how many renders were begun (:meth:`render_steps` stops if another began meanwhile)
    _renders = 0

    def render(self) -> None:
        """Draw the page for the phase shown: the board, then the panels beside it."""
        for _ in self.render_steps():
            pass

    def render_steps(self) -> Iterator[None]:
        """:meth:`render` a step at a time, for the tasks of its own each takes after an adjudication
        (`Play.adjudicate_in_parts`): the board, the phase and the powers, the results and the orders,
        the position and the secrets, the rest. A render begun meanwhile (a click) wins: these steps stop."""
        App._renders += 1
        mine = App._renders
        session = self.session
        board = self.board
        if session is None or board is None:
            return
        if self.setup.draft is not None:  # the map shows the position being set up (py/adjutant_ui/setup.py)
            self.setup.render()
            return
        game = session.game
        position = session.shown_position()
        show_results = self.embed or bool(_id("show-results").checked)
        sites = self.draw_board()
        if not self.embed:
            self.keyboard.rove()
        yield
        if App._renders != mine:
            return
        _id("phase-label").textContent = session.shown_phase_title()
        last = len(game.history)
        _id("hist-first").disabled = session.view == 0
        _id("hist-prev").disabled = session.view == 0
        _id("hist-next").disabled = session.view >= last
        _id("hist-last").disabled = session.view >= last
        document.documentElement.dataset.phase = str(position.phase)
        self.panels.powers()
        if self.embed:
            _id("embed-results-text").textContent = session.shown_results_text()
            self.post_height()
            return
        yield
        if App._renders != mine:
            return
        entries = session.results_entries() if show_results else []
        _id("results-key").hidden = not entries
        # the key to the variant's own marks: each item shown where the map draws its mark
        _id("map-legend").hidden = not show_drawn(_id("map-legend"), board.svg)
        _id("results-of").textContent = entries[0][0] if entries else ""
        self.panels.results_list(entries[1:])
        yield
        if App._renders != mine:
            return
        self.panels.orders()
        yield
        if App._renders != mine:
            return
        self.panels.position_text()
        self.panels.secrets(sites)
        yield
        if App._renders != mine:
            return
        text = session.shown_results_text()
        if self.panels.stale("results", text):
            _id("results").textContent = text
        _id("copy-results").textContent = "Copy results for the players" if self.role == GM else "Copy results"
        readonly = session.readonly
        _id("undo").disabled = readonly or not game.history
        _id("adjudicate").disabled = readonly or game.over or not session.at_current
        _id("declare-draw").disabled = readonly or game.over
        for name in ("orders-text", "orders-apply", "orders-clear", "orders-power", "orders-keep", "download"):
            _id(name).disabled = readonly
        _id("adjudicate-warning").hidden = not (self.play.warning_open and session.at_current and not readonly)
        over = _id("game-over")
        if game.winner:
            winner = game.variant.powers[game.winner].name
            over.textContent = f"{winner} wins with {game.centre_counts()[game.winner]} centres!"
            over.hidden = False
        elif game.draw:
            names = ", ".join(game.variant.powers[p].name for p in game.draw)
            over.textContent = f"Draw declared between {names}."
            over.hidden = False
        else:
            over.hidden = True
        self.group_panel.render()
        yield
        if App._renders != mine:
            return
        self.computer.render()



def run(view: str) -> None:
    # Every object Python holds as the page starts (the modules and the variants, from the memory snapshot)
    # lives as long as the page: frozen, the cycle collector never walks them again. Walked, a full pass
    # over them took 110-330 ms in Pyodide (docs/computer-players.md), a long task wherever it fell.
    gc.freeze()
    app = App(view)

    async def main() -> None:
        try:
            await app.start()
        except Exception as error:  # show why instead of "Loading" for ever
            js.window.adjutantShell.fatal(f"Adjutant could not start: {error}")
            raise

    # the debug hook the browser tests read: ready, and how many proxies the page holds alive
    js.window.adjutantApp = create_proxy(lambda: json.dumps({"ready": True, "proxies": app.proxies.count}))
    asyncio.ensure_future(main())
