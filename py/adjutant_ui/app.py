"""The page: wires the DOM of index.html / embed.html to a :class:`~adjutant_ui.session.Session`.

Every text that comes from a game (names, orders, results, messages) goes into the page through
``textContent`` or form values, never as markup.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, NamedTuple

import js
from adjutant import AdjutantError, available_variants, load_variant
from adjutant.formats.limits import MAX_FILE_BYTES, without_bidi_controls
from adjutant.formats.link import link_steps
from adjutant.group_play import cluster_views
from adjutant.group_play import codes as group_codes
from pyodide.ffi import create_proxy, jsnull, to_js

from . import cluster_group, compass, computer, sealed
from .board import Board, show_drawn
from .computer_page import ComputerPlayers
from .group import CODE_LINK, GroupController, GroupState, choosing, inert
from .pictures import Pictures, page_scene
from .proxies import Proxies
from .saves import RECENT_KEY, Saves, new_id, read_slot, slot_key
from .sealed import GM, SealedLink, public_game
from .session import (
    Session,
    encode_link,
    game_from_text,
    game_to_text,
    order_label,
    position_snapshot,
    read_link,
    rehearsal,
)
from .setup import SetupPanel

AUTOSAVE_KEY = "adjutant.autosave"
#: the autosaved game's position as plain data, painted by web/shell.js before Python is ready
SNAPSHOT_KEY = "adjutant.snapshot"
VARIANT_KEY = "adjutant.variant"
#: an autosave this Adjutant could not read (damaged, or written by a newer one) is kept here rather
#: than lost when the new game it starts instead is autosaved
UNREADABLE_KEY = "adjutant.autosave.unreadable"
#: sessionStorage (one per tab): the id of the game this tab holds, so that a reload reopens it
TAB_KEY = "adjutant.tab-game"
document = js.document


async def _page_turn() -> None:
    """Let the browser draw and answer input: Pyodide's event loop runs the next step in a task of its own
    (a message), not a microtask."""
    await asyncio.sleep(0)


def _id(name: str) -> Any:
    return document.getElementById(name)


def _mark(name: str) -> None:
    """A performance mark for the start-up benchmark (benchmarks/startup.py --profile)."""
    with contextlib.suppress(Exception):
        js.performance.mark("adjutant:" + name)


def _attr_of(element: Any, name: str) -> str | None:
    value = element.getAttribute(name) if hasattr(element, "getAttribute") else None
    return None if value is None or value is jsnull else str(value)


def _v(value: Any) -> Any:
    """JavaScript's null as None."""
    return None if value is None or value is jsnull else value


def _storage_get(key: str) -> str | None:
    try:
        value = js.localStorage.getItem(key)
    except Exception:  # storage disabled (private mode, sandboxed iframe)
        return None
    return None if value is None or value is jsnull else str(value)


def _storage_set(key: str, value: str) -> bool:
    """Write to localStorage; whether it was written (not when storage is full or disabled)."""
    try:
        js.localStorage.setItem(key, value)
    except Exception:  # noqa: BLE001 - full (QuotaExceededError) or disabled: the caller says so
        return False
    return True


def _tab_get() -> str:
    try:
        value = js.sessionStorage.getItem(TAB_KEY)
    except Exception:  # noqa: BLE001 - storage disabled
        return ""
    return "" if value is None or value is jsnull else str(value)


def _tab_set(value: str) -> None:
    with contextlib.suppress(Exception):
        js.sessionStorage.setItem(TAB_KEY, value)


def _code_link(fragment: str) -> bool:
    """Whether a link opened is sealed orders codes (for the game master's game) rather than a game. Never
    raises: a fragment longer than any paste of codes is taken for a game link, whose guarded read refuses
    it by its size, so that no link, however long, stops the page."""
    return len(fragment) <= group_codes.MAX_PASTE and bool(group_codes.find_codes(fragment))


def _now() -> str:
    """The local date and time, as the list of recent games shows it."""
    d = js.Date.new()
    return f"{d.getFullYear()}-{d.getMonth() + 1:02d}-{d.getDate():02d} {d.getHours():02d}:{d.getMinutes():02d}"


class _LocalStorage:
    """localStorage as adjutant_ui.saves reads and writes it."""

    def get(self, key: str) -> str | None:
        return _storage_get(key)

    def set(self, key: str, value: str) -> bool:
        return _storage_set(key, value)


def _draw_board(board: Board, session: Session, show_results: bool, chosen: str | None) -> dict[str, int]:
    """Draw ``session``'s shown position and orders on ``board``, with the last phase's results if
    ``show_results`` (the marks of the adjustments due for ``chosen``, a power, if given); returns the
    Sites of the Ancients drawn (a game with secrets). What is drawn is what a picture of the board shows
    (adjutant_ui.pictures.page_scene)."""
    drawn = page_scene(session, show_results, chosen)
    board.draw(drawn.position, drawn.orders, session.selected, session.targets(), set(session.orderable_units()),
               drawn.sites, drawn.strengths, drawn.results, drawn.changed, drawn.retreats, drawn.marks)
    return drawn.sites


class InHand(NamedTuple):
    """The game in hand as the page shows it (:meth:`App.in_hand`), to be put back if opening another
    game fails."""

    session: Session | None
    role: str
    link: SealedLink | None
    keys: dict[str, Any]
    passphrases: dict[str, str]
    keys_task: Any
    group: GroupState | None
    last_link: str
    #: the save's slot: (game id, saved, keep the autosave)
    slot: tuple[str, bool, bool]


class App:
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
        #: the "units without orders" warning is open (Adjudicate was pressed with something unordered)
        self.warning_open = False
        self.coast_choices: list[str] = []
        #: the map's button that takes Tab (its location: see :meth:`rove`), and whether the last step of
        #: click entry came from the keyboard (the order panel then says which keys do what)
        self.map_focus: str | None = None
        self.by_keyboard = False
        self.last_link = ""
        #: the links opened later counted (:meth:`_open_link`): one read while another was is not shown
        self.opening = 0
        # A game with secrets (Cluster): who is looking ("" for an ordinary game; "public", "gm" or a
        # power's id), the sealed link it came from, and the game master's passphrases and keys (Web
        # Crypto handles from web/seal.js, in this page's memory only).
        self.role = ""
        self.unlocking_again = False  # the Secrets form asked for again once a power's secrets are open
        self.link: SealedLink | None = None
        self.passphrases: dict[str, str] = {}
        self.keys: dict[str, Any] = {}
        self.keys_task: Any = None
        self.seal_count = 0
        self.passphrase_purpose = ""
        #: a group game (players send sealed orders codes): py/adjutant_ui/group.py
        self.group = GroupController(self)
        #: computer players: py/adjutant_ui/computer_page.py
        self.computer = ComputerPlayers(self)
        #: "Set up a position" and "Report this adjudication": py/adjutant_ui/setup.py
        self.setup = SetupPanel(self)

        # Saving (adjutant_ui.saves): the id of the game in hand and whether its slot holds it now; the
        # next address to be pushed as a new history entry (not replace the current one); and whether
        # the autosave must be left alone (it holds an unreadable save there was no room to copy).
        self.saves = Saves(_LocalStorage())
        self.game_id = ""
        self.saved = False
        self.push_next = False
        self.keep_autosave = False
        #: the save that waits for the browser to draw the change first (see :meth:`_save_soon`): the
        #: game's link, with the session and the game id it is for
        self.pending_save: tuple[str, Session, str] | None = None
        self._save_proxy: Any = None
        #: the game the list of recent games was last filled for (it lists the others)
        self.recent_for: str | None = None
        #: what each side panel was last filled with (see :meth:`_stale`)
        self.shown: dict[str, Any] = {}

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
                self.game_id = self._slot_for(fragment) or new_id()
            except Exception as error:  # noqa: BLE001 - no link may stop the page from starting
                bad_link = True
                problems.append(f"The link could not be opened: {error}.")
        unreadable = ""
        if game_session is None and not self.embed:
            # this tab's own game if it is reloaded, else the game saved last in any tab
            mine = self.saves.load(_tab_get()) if _tab_get() else None
            saved = mine.link if mine is not None else _storage_get(AUTOSAVE_KEY)
            if saved:
                try:
                    if self.group.claims(saved):
                        game_session = self.group.read(saved)
                    else:
                        game_session, link = await self.read_link(saved)
                    self.last_link = saved
                    self.game_id = mine.id if mine is not None else self.saves.find(saved) or new_id()
                except Exception as error:  # noqa: BLE001 - nor may a damaged autosave
                    unreadable = saved
                    problems.append(self._keep_unreadable(saved, str(error)))
        if bad_link:  # what is shown instead: the game saved last, if one was read, else a new game
            problems[0] += f" Showing {'your last game' if game_session is not None else 'a new game'} instead."
        if not self.game_id:
            self.game_id = new_id()
        if game_session is None:
            try:
                game_session = Session.new(_storage_get(VARIANT_KEY) or "standard")
            except Exception:  # noqa: BLE001 - an unknown or damaged variant name in storage
                game_session = Session.new("standard")
        if problems:
            self.message(" ".join(problems))
        if unreadable:
            self.offer_download(unreadable, "adjutant-unreadable-autosave.txt", "Download the unreadable save")
        _mark("sessionReady")
        # the page gets its turn between the start's steps (the board made, the position drawn, the side
        # panels filled, the game saved), so that no one of them holds it long (docs/performance-startup.md)
        await _page_turn()
        slot = self.saves.load(self.game_id)  # (read before this start writes it again)
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
                self._store(self.last_link)
                self.save_snapshot()
            elif self.last_link:
                self._store(self.last_link)
            if bad_link:  # the address bar holds the game shown, not the bad link
                js.history.replaceState(None, "", "#" + self.last_link)
        else:  # listed under Recent games at once, though not yet the autosave
            self._store(fragment if link is not None else encode_link(game_session.game), autosave=False)
        self._fill_recent()
        old_link = self.group.old_link_note()
        if old_link and not problems:
            self.message(old_link, "info")
        if self.group.queued and not self.group.takes_codes():  # an orders code with no game master's game here
            self.group.queued = ""
            self.message(CODE_LINK, "info")
            if self.last_link:
                js.history.replaceState(None, "", "#" + self.last_link)

    # --- saving: one slot per game, recent games, history entries, other tabs ---------------------
    def _keep_unreadable(self, saved: str, error: str) -> str:
        """Keep an autosave that cannot be read under another key; what to tell the user (the truth:
        a save too large for the storage left cannot be copied, so it stays where it is)."""
        if _storage_set(UNREADABLE_KEY, saved):
            return (
                f"The autosaved game could not be read ({error}); starting a new game. "
                f"The unreadable save is kept in this browser's storage as {UNREADABLE_KEY}, "
                "and can be downloaded."
            )
        self.keep_autosave = True  # the only copy: the new game must not overwrite it
        return (
            f"The autosaved game could not be read ({error}); starting a new game. This browser's storage "
            f"has no room for a copy of it ({len(saved):,} characters), so it is left where it was, and the "
            "new game is saved beside it. Download it to keep it."
        )

    def offer_download(self, text: str, filename: str, label: str) -> None:
        """A button in the message box that downloads ``text`` as ``filename``."""
        button = document.createElement("button")
        button.type = "button"
        button.className = "message-action"
        button.textContent = label
        listener = self.on(button, "click", lambda event: self._download(text, filename, "text/plain"))
        self.message_proxies.append(listener)
        _id("message").insertBefore(button, _id("message-close"))

    def _download(self, text: str, filename: str, kind: str) -> None:
        blob = js.Blob.new([text], js.Object.fromEntries(js.Array.of(js.Array.of("type", kind))))
        url = js.URL.createObjectURL(blob)
        link = document.createElement("a")
        link.href = url
        link.download = filename
        document.body.appendChild(link)
        link.click()
        link.remove()
        js.setTimeout(self.proxies.once(lambda: js.URL.revokeObjectURL(url)), 1000)

    def _store(self, link: str, autosave: bool = True) -> None:
        """Save the game in hand: its own slot (listed under Recent games) and, unless told not to, the
        autosave a fresh tab opens."""
        session = self.session
        if session is None or self.embed:
            return
        game = session.game
        tag, phases = self.group.slot_tag(self.group.state)
        self.saved = self.saves.save(self.game_id, link, game.variant.id, str(game.phase), _now(), tag, phases,
                                     self.group.page_state())
        if autosave and not self.keep_autosave:
            _storage_set(AUTOSAVE_KEY, link)
            _storage_set(VARIANT_KEY, game.variant.id)
        _tab_set(self.game_id)

    def _slot_for(self, fragment: str) -> str | None:
        """The saved game a link just read goes on in: the slot holding that link, else for a group
        link the slot of the same game and view at an earlier phase (Saves.find_group)."""
        return self.saves.find(fragment) or self.saves.find_group(*self.group.slot_tag(self.group.pending))

    def _set_hash(self, fragment: str) -> None:
        """Put ``fragment`` in the address bar: a new history entry when a game has just replaced
        another (so Back returns to it), else in place of the current entry."""
        here = str(js.location.pathname) + str(js.location.search) + ("#" + fragment if fragment else "")
        if self.push_next:
            self.push_next = False
            js.history.pushState(None, "", here)
        else:
            js.history.replaceState(None, "", here)

    def may_replace(self) -> bool:
        """Whether the game in hand may be replaced: at once when it is saved (it stays under Recent
        games), else only if the user says so."""
        self.save_now()
        if self.embed or self.session is None or self.saved:
            return True
        return bool(
            js.window.confirm(
                "The game in hand is not saved in this browser (its storage is full or disabled, or the game "
                "has no link yet): replacing it loses it unless you have downloaded it or copied its link. "
                "Replace it?"
            )
        )

    def in_hand(self) -> InHand:
        """What the page shows now, to be put back (:meth:`put_back`) if opening another game fails."""
        return InHand(self.session, self.role, self.link, self.keys, self.passphrases, self.keys_task,
                      self.group.state, self.last_link, (self.game_id, self.saved, self.keep_autosave))

    async def put_back(self, before: InHand) -> None:
        """After a failed opening: the game that was in hand, shown again as it was (if another had been
        shown meanwhile), with its save's slot; the failed game's save waiting to be written is dropped."""
        self.game_id, self.saved, self.keep_autosave = before.slot
        self.push_next = False
        if before.session is None or self.session is before.session:
            return
        self.pending_save = None
        self.group.pending = before.group
        await self.show(before.session, role=before.role, link=before.link, keys=before.keys,
                        passphrases=before.passphrases)
        self.keys_task, self.last_link = before.keys_task, before.last_link
        self.render()

    def replacing(self, game_id: str = "") -> None:
        """The next game shown replaces the one in hand: give it its slot and a new history entry."""
        self.save_now()
        self.game_id = game_id or new_id()
        self.saved = False
        self.push_next = True
        self.keep_autosave = False

    def _fill_recent(self) -> None:
        select = _id("recent-select")
        if select is None or self.embed:
            return
        self.recent_for = self.game_id
        select.replaceChildren()
        first = document.createElement("option")
        first.value = ""
        games = self.saves.recent(but=self.game_id)
        # the game in hand is not listed: the empty list says "other", so it is not read as unsaved
        first.textContent = "choose a game…" if games else "no other game yet"
        select.appendChild(first)
        for saved in games:
            option = document.createElement("option")
            option.value = saved.id
            try:
                name = load_variant(saved.variant).name
            except AdjutantError:
                name = saved.variant
            option.textContent = saved.label(name)
            select.appendChild(option)

    def on_open_recent(self, event: Any) -> None:
        game_id = str(_id("recent-select").value)
        saved = self.saves.load(game_id) if game_id else None
        if saved is None:
            self.message("Choose a game from the list of recent games first.")
            return
        if not self.may_replace():
            return
        asyncio.ensure_future(self._open_link(saved.link, game_id=game_id, push=True))

    def on_storage(self, event: Any) -> None:
        """Another tab wrote to storage: the list of recent games, or the game in hand itself."""
        key = "" if event.key is None or event.key is jsnull else str(event.key)
        if key == RECENT_KEY:
            self._fill_recent()
            return
        if key != slot_key(self.game_id) or event.newValue is None or event.newValue is jsnull:
            return
        saved = read_slot(self.game_id, str(event.newValue))
        if saved is None or saved.link == self.last_link:
            return
        if self.link is not None or (self.session is not None and sealed.has_secrets(self.session.game)
                                     and self.session.master is None):
            self.message("This game was changed in another tab. Reload this page to see it here.", "info")
            return
        asyncio.ensure_future(self._refresh(saved.link))

    async def _refresh(self, link: str) -> None:
        sealed_link = None
        try:
            if self.group.claims(link):  # a group game: the other tab took in a code, say
                held = self.group.state
                new_session = self.group.read(link)
                self.group.keep_unlocked(held)
            else:
                new_session, sealed_link = await self.read_link(link)
        except Exception as error:  # noqa: BLE001 - the other tab's save is unreadable: keep ours
            self.group.pending = None
            self.message(f"This game was changed in another tab, but that save could not be read: {error}")
            return
        self.pending_save = None  # (the other tab's save is the later one: it is not overwritten)
        slot = self.saves.load(self.game_id)
        await self.show(new_session, role="public" if sealed_link else "", link=sealed_link)
        self.group.restore_page(slot)
        self.last_link = link
        self._set_hash(link)
        self.message("This game was changed in another tab: showing its latest state.", "info")
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
        with inert(("main.table",) if self.session is not None else ()):
            return await read_link(fragment, _page_turn)

    async def show(self, new_session: Session, role: str = "", link: SealedLink | None = None,
                   keys: dict[str, Any] | None = None, passphrases: dict[str, str] | None = None) -> None:
        """Make ``new_session`` the shown game (loading its map if the variant changed); for a game with
        secrets, ``role`` says whose view it is, with the sealed link it came from and the game master's
        keys and passphrases."""
        self.save_now()  # (the game in hand's last change, before anything replaces it)
        variant = new_session.game.variant
        # the game in hand (none at the start), being replaced, takes no order while the map loads
        with inert(("main.table",) if self.session is not None else ()):
            svg = await js.window.adjutantShell.loadMap(variant.id)
        self.session = new_session
        self.setup.on_show()
        self.group.on_show(new_session)
        self.computer.on_show(new_session)
        self.board = Board(svg, variant)
        self.role, self.link = role or self.group.secret_role(), link
        self.keys, self.passphrases = dict(keys or {}), dict(passphrases or {})
        self.keys_task = None
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
        self.on(_id("map"), "click", self.on_map_click)
        self.on(_id("hist-first"), "click", lambda e: self.step(to=0))
        self.on(_id("hist-prev"), "click", lambda e: self.step(delta=-1))
        self.on(_id("hist-next"), "click", lambda e: self.step(delta=1))
        self.on(_id("hist-last"), "click", lambda e: self.step(to=10**9))
        self.on(_id("message-close"), "click", lambda e: self.clear_message())
        self.on(js.window, "hashchange", self.on_hash_change)
        self.on(js.window, "storage", self.on_storage)
        # a save waiting for the next idle moment is written before the page goes (reload, tab closed)
        self.on(js.window, "pagehide", lambda e: self.save_now())
        self.on(document, "visibilitychange", lambda e: self.save_now())
        self.on(document, "keydown", self.on_key)
        self.on(_id("map"), "focusin", self.on_map_focus)
        if self.embed:
            self.on(js.window, "resize", lambda e: self.post_height())
            self.on(_id("embed-results"), "toggle", lambda e: self.post_height())
            return
        self.on(_id("new-game"), "click", self.on_new_game)
        for dialog in ("group-dialog", "passphrase-dialog", "computer-dialog"):  # (see group.choosing)
            self.on(_id(dialog), "close", lambda e: document.documentElement.removeAttribute("data-choosing"))
        self.setup.wire()
        self.on(_id("recent-open"), "click", self.on_open_recent)
        self.on(_id("orders-form"), "submit", self.on_orders)
        self.on(_id("orders-clear"), "click", self.on_clear_orders)
        self.on(_id("adjudicate"), "click", self.on_adjudicate)
        self.on(_id("adjudicate-anyway"), "click", self.on_adjudicate_anyway)
        self.on(_id("adjudicate-back"), "click", self.on_adjudicate_back)
        self.on(_id("click-order"), "click", self.on_action)
        self.on(_id("nominations"), "click", self.on_action)
        self.on(_id("undo"), "click", self.on_undo)
        self.on(_id("declare-draw"), "click", self.on_draw)
        self.on(_id("copy-link"), "click", self.on_copy_link)
        self.on(_id("copy-results"), "click", self.on_copy_results)
        self.on(_id("download"), "click", self.on_download)
        self.on(_id("upload"), "change", self.on_upload)
        self.on(_id("copy-embed"), "click", self.on_embed)
        self.on(_id("map-zoom"), "click", self.on_zoom)
        self.pictures.install()
        self.on(_id("show-results"), "change", lambda e: self.render())
        for event in ("focusin", "mouseover"):
            self.on(_id("results-summary"), event, self.on_result_focus)
        for event in ("focusout", "mouseleave"):
            self.on(_id("results-summary"), event, self.on_result_blur)
        self.on(_id("orders-power"), "change", self.on_orders_power)
        self.on(_id("unlock-form"), "submit", self.on_unlock)
        self.on(_id("unlock-another"), "click", self.on_unlock_another)
        self.on(_id("show-passphrases"), "click", lambda e: self.open_passphrases("change"))
        self.on(_id("passphrase-form"), "submit", self.on_passphrases)
        self.on(_id("passphrase-fields"), "input", lambda e: self._rate(e.target))
        self.on(_id("passphrase-generate"), "click", self.on_generate_passphrases)
        self.on(_id("passphrase-copy"), "click", self.on_copy_passphrases)
        self.on(_id("passphrase-cancel"), "click", lambda e: _id("passphrase-dialog").close())
        # on the document, not the body: a file dropped below a short page must open here too
        # (web/shell.js stops the browser from navigating to a dropped file)
        self.on(document, "drop", self.on_drop)

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
            self.focus_after_action(was)

    # --- the map from the keyboard -------------------------------------------------------------------
    # The map's buttons are one Tab stop, after the map itself (a roving tabindex, as in a toolbar or a
    # grid): an arrow key goes to the nearest of its buttons that way on the map (adjutant_ui.compass),
    # Home and End to the first and last in list order, and Enter or Space presses one. With no
    # unit selected its buttons are the units that can be ordered (and the highlighted places, when a
    # phase has any: builds); with a unit selected, the places highlighted for it, then the unit itself
    # (Enter on it holds). Selecting a unit puts the focus on its first highlighted place; Tab then goes to
    # its choices (Hold, Support, ..., Cancel) and Shift+Tab from the first choice back to the map; Escape
    # cancels, back to the unit.
    # docs/game-table.md (keyboard) has the design; tests/browser/test_order_entry.py the key presses.

    def _roving(self) -> Any:
        """[the map's button that takes Tab or null, the map's buttons in list order (Home, End)], made in
        one JS call (web/page.js mapStops; a call per unit and attribute would cost milliseconds a render)."""
        session = self.session
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
        elif self.session is not None and self.session.selected:
            self.focus_stop(None)
        else:
            self.focus_stop(was)

    def on_key(self, event: Any) -> None:
        if event.key == "Escape":
            self.cancel(refocus=True)
            return
        if self.embed or self.session is None:
            return
        target = event.target
        inside = hasattr(target, "closest") and _v(target.closest("#map")) is not None
        location = Board.location_of(target) if inside and _attr_of(target, "tabindex") is not None else None
        if location is None:
            if event.key == "Tab" and event.shiftKey and self.session.selected and self._first_choice(target):
                event.preventDefault()  # from the selected unit's first choice back to its place on the map
                self.by_keyboard = True
                self.focus_stop(self.map_focus)
            return
        self.by_keyboard = True
        if event.key in ("Enter", " "):
            # the same as a click on it
            event.preventDefault()
            was = self.session.selected
            self.map_focus = location
            self.act_on(location)
            self.focus_after_action(was or location)
            return
        if event.key == "Tab" and not event.shiftKey and self.session.selected:
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
                board = self.board
                points = [board.anchor(key) if board is not None and key else None for key in keys]
                there = compass.nearest_towards(points, keys.index(location) if location in keys else -1, event.key)
            if there is not None:
                self.focus_stop(keys[there])

    def on_orders_power(self, event: Any) -> None:
        """A power chosen for the orders: its build places are ringed, and the map's Tab stop goes to its
        first unit."""
        self.map_focus = None
        self.render()

    def on_map_focus(self, event: Any) -> None:
        """A unit or a place on the map reached from the keyboard: the order panel says which keys do what."""
        target = event.target
        if self.by_keyboard or not bool(target.matches(":focus-visible")) or Board.location_of(target) is None:
            return
        self.by_keyboard = True
        if self.session is not None and not self.embed:
            self._orders_panel()

    @staticmethod
    def _first_choice(element: Any) -> bool:
        first = _v(document.querySelector("#click-order button"))
        return first is not None and bool(first.isSameNode(element))

    def cancel(self, refocus: bool = False) -> None:
        """Leave the order under way. From the keyboard (``refocus``), the focus goes back to the unit
        when it was on the map or on the unit's choices."""
        if self.session is None:
            return
        was = self.session.selected
        active = _v(document.activeElement)
        on_order = active is None or active.isSameNode(document.body) or any(
            _v(active.closest(selector)) is not None for selector in ("#map", "#click-order"))
        self.session.clear_selection()
        self.coast_choices = []
        self.render()
        if refocus and was and on_order:
            self.focus_stop(was)

    def step(self, delta: int | None = None, to: int | None = None) -> None:
        assert self.session is not None
        self.session.step(delta=delta, to=to)
        self.render()
        if document.activeElement.disabled:  # « or » at the history's end: the focus stays in the history bar
            for name in ("hist-prev", "hist-next"):
                if not _id(name).disabled:
                    _id(name).focus()
                    break

    def on_map_click(self, event: Any) -> None:
        session = self.session
        if session is None or self.embed:
            return
        location = Board.location_of(event.target)
        if location is None:
            return
        self.by_keyboard = event.detail == 0  # (Enter on a focused place is handled by on_key)
        self.act_on(location)

    def act_on(self, location: str) -> None:
        session = self.session
        assert session is not None
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
            self.changed()
        self.render()

    def enter(self, text: str, power: str | None) -> None:
        assert self.session is not None
        self.warning_open = False
        player = self.group.player_power()
        # a player's click adds to their own orders, for no other power
        problems = self.session.enter_orders(text, player if power is None and player else power)
        self.show_problems(problems)
        self.changed()

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
        for old, new in self.session.replaced if self.session is not None else []:
            item = document.createElement("li")
            item.className = "replaced"
            item.textContent = f"replaced {old} by {new}"
            errors.appendChild(item)

    def on_orders(self, event: Any) -> None:
        event.preventDefault()
        if self.session is None:
            return
        text = str(_id("orders-text").value)
        # a sealed code is not an order: nothing is entered, the text stays, and each code's line says where
        # it goes instead (a code typed here would otherwise be parsed as a power's or a province's name)
        if self.list_problems("orders-errors", self.group.codes_typed(text)):
            return
        power = str(_id("orders-power").value) or self.group.player_power()
        # orders are for the current phase: show it, not the past one being looked at
        self.session.step(to=len(self.session.game.history))
        self.warning_open = False
        try:
            problems = self.session.enter_orders(text, power, keep_illegal=bool(_id("orders-keep").checked))
        except AdjutantError as error:
            self.message(str(error))
            return
        self.show_problems(problems)
        self.group.typed(power)
        # what was taken leaves the box; the lines refused stay, to be corrected
        _id("orders-text").value = "\n".join(self.session.refused)
        self.changed()
        self.render()

    def on_clear_orders(self, event: Any) -> None:
        assert self.session is not None
        power = str(_id("orders-power").value) or None
        self.session.step(to=len(self.session.game.history))
        self.session.game.clear_orders(power)
        self.changed()
        self.render()

    def on_adjudicate(self, event: Any) -> None:
        """Adjudicate, or first list what has no order (units that will hold, builds unused) and what will
        not count (builds or removals beyond those due), and let the player go on or go back."""
        session = self.session
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
        self.changed()
        self.render()
        return by_keyboard and self.group.to_message()

    async def adjudicate_in_parts(self, by_keyboard: bool, pause: Callable[[], Awaitable[object]]) -> bool:
        """:meth:`adjudicate` once the computer has given its orders: the phase adjudicated, the link and
        the save made, and the page drawn, each in a task of its own (``pause`` gives the browser its turn
        between them), so that none holds the page's main thread long on a phone (docs/computer-players.md)."""
        if not self._adjudicate_phase():
            return False
        await pause()
        session = self.session
        if session is not None:  # the new phase's part of its link, in slices: changed() then makes it at once
            await computer.in_slices(link_steps(session.kept), pause)
        self.changed()
        await pause()
        self.draw_board()  # (the largest part of drawing the new phase: the rest of the page in the next task)
        await pause()
        self.render()  # (the board is drawn: nothing of it is drawn again)
        return by_keyboard and self.group.to_message()

    def _adjudicate_phase(self) -> bool:
        """The game's part of :meth:`adjudicate`: the phase adjudicated and the page's state moved on to the
        next (not yet drawn); False, with the message said, if it was not."""
        session = self.session
        assert session is not None
        if self.group.locked():  # (locked while the computer thought: a code being taken in, say)
            return False
        done = session.game.phase.title
        try:
            session.adjudicate()
        except AdjutantError as error:
            self.message(str(error))
            return False
        session.step(to=len(session.game.history))
        self.group.adjudicated(done)
        self.clear_message()
        self._orders_box_for_new_phase()
        return True

    @staticmethod
    def _orders_box_for_new_phase() -> None:
        """Another phase is in hand: the orders box and what it said of the last entry (a refused line left
        to correct) were of the phase before, and go."""
        _id("orders-text").value = ""
        _id("orders-errors").replaceChildren()

    def on_undo(self, event: Any) -> None:
        session = self.session
        assert session is not None
        if self.group.locked():
            return
        try:
            session.undo()
        except AdjutantError as error:
            self.message(str(error))
            return
        self._orders_box_for_new_phase()
        session.step(to=len(session.game.history))
        self.group.undone()
        self.changed()
        self.render()

    def on_draw(self, event: Any) -> None:
        session = self.session
        game = session.kept if session else None
        if session is None or game is None or self.group.locked():
            return
        survivors = [p for p, n in game.centre_counts().items() if n > 0]
        names = ", ".join(game.variant.powers[p].name for p in survivors)
        if not js.window.confirm(f"Declare a draw between {names}?"):
            return
        session.declare_draw(survivors)
        self.changed()
        self.render()

    def on_new_game(self, event: Any) -> None:
        variant_id = str(_id("variant-select").value)
        try:
            secret = sealed.variant_has_secrets(load_variant(variant_id))
        except AdjutantError as error:
            self.message(str(error))
            return
        if not self.may_replace():
            return
        if str(_id("game-kind").value) == "computer":  # the powers played here, and the computer's level
            self.computer.start_new(variant_id)
            if bool(_id("computer-dialog").open):  # (not for a variant it refuses, with a message instead)
                choosing()
            return
        if secret:  # the game master sets the passphrases first; the game starts when they are set
            group_game = str(_id("game-kind").value) == "group"
            self.open_passphrases("group" if group_game else "new", variant_id)
            return
        if str(_id("game-kind").value) == "group":
            self.group.start_new(variant_id)
            return
        asyncio.ensure_future(self._new_game(variant_id))

    async def _new_game(self, variant_id: str) -> None:
        try:
            new_session = Session.new(variant_id)
        except AdjutantError as error:
            self.message(str(error))
            return
        self.replacing()
        await self.show(new_session)
        self.clear_message()  # it spoke of the game replaced
        self.changed()
        self.render()

    def on_hash_change(self, event: Any) -> None:
        fragment = str(js.location.hash).lstrip("#")
        if not fragment or fragment == self.last_link:
            return
        if _code_link(fragment):
            if self.group.takes_codes():  # an orders code opened as a link in the game master's page
                asyncio.ensure_future(self.group.open_codes(fragment))
            else:  # a player's own code, say: what it is for; the game in hand stays
                self.message(CODE_LINK, "info")
                self.changed(replace_hash=True)
            return
        # (Back and Forward come here too: the browser has already moved to that entry)
        if not self.may_replace():
            self._set_hash(self.last_link)
            return
        asyncio.ensure_future(self._open_link(fragment))

    async def _open_link(self, fragment: str, game_id: str = "", push: bool = False) -> None:
        before = self.in_hand()
        self.opening += 1
        mine = self.opening
        try:
            if self.group.claims(fragment):
                group_session = self.group.read(fragment)
                self.replacing(game_id or self._slot_for(fragment) or "")
                self.push_next = push
                slot = self.saves.load(self.game_id)
                await self.show(group_session)
                self.group.restore_page(slot)
                self.clear_message()
                old_link = self.group.old_link_note()
                if old_link:
                    self.message(old_link, "info")
                self.changed()
                self.render()
                self._focus_top()
                return
            _mark("linkOpening")
            new_session, link = await self.read_link(fragment)
            _mark("linkRead")
            if mine != self.opening:  # another link was opened while this one was read: that one is shown
                return
            self.replacing(game_id or self.saves.find(fragment) or "")
            self.push_next = push
            await self.show(new_session, role="public" if link else "", link=link)
            if link is not None:
                self.last_link = fragment
                self._store(fragment, autosave=False)
                self._set_hash(fragment)
                self._fill_recent()
                self.clear_message()
                self.render()
                self._focus_top()
                return
            self.clear_message()
            self.changed()
            self.render()
            self._focus_top()
        except Exception as error:  # noqa: BLE001 - whatever goes wrong, the game in hand stays
            if mine != self.opening:  # (a link opened later is the one that counts)
                return
            await self.put_back(before)
            self.message(f"The link could not be opened: {error}. Your game is unchanged.")
            self.changed(replace_hash=True)

    @staticmethod
    def _focus_top() -> None:
        """Another game opened in this tab: where the focus was lost with what was drawn before, it goes to
        the top of the page (the page's name), so that the next Tab goes on from there, not from where the
        removed control was (the browser's starting point can end at the page's foot)."""
        active = _v(document.activeElement)
        if active is None or active.isSameNode(document.body) or not bool(active.isConnected):
            _id("brand").focus()

    # --- files and links --------------------------------------------------------------------------
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
            if self.role == GM and self.sealable():
                asyncio.ensure_future(self._reseal_or_say(replace_hash))
            elif replace_hash:
                self._set_hash(self.last_link)
            return
        link = encode_link(session.kept)
        self.last_link = link
        if replace_hash:
            self._set_hash(link)
        self._save_soon(link)
        if self.recent_for != self.game_id:  # another game is in hand: the one before it is listed now
            self._fill_recent()

    def _save_soon(self, link: str) -> None:
        """Autosave ``link`` (the game's slot, the autosave, the snapshot for the next start) as soon as
        the browser is idle, after it has drawn the change: a click's answer on screen does not wait for
        the storage writes. Nothing is lost: the save is written before any other game replaces this one
        (:meth:`save_now`), and when the page is hidden or left."""
        assert self.session is not None
        waiting = self.pending_save is not None
        self.pending_save = (link, self.session, self.game_id)
        if waiting:
            return
        if self._save_proxy is None:
            save = create_proxy(lambda *_: self.save_now())
            self._save_proxy = (save, create_proxy(lambda *_: js.setTimeout(save, 0)))
        save, after_frame = self._save_proxy
        if hasattr(js.window, "requestIdleCallback"):
            options = to_js({"timeout": 500}, dict_converter=js.Object.fromEntries)
            js.window.requestIdleCallback(save, options)
        else:  # (no idle callbacks: just after the next frame)
            js.window.requestAnimationFrame(after_frame)

    def save_now(self) -> None:
        """Write the save :meth:`_save_soon` left waiting, if any."""
        pending, self.pending_save = self.pending_save, None
        if pending is None:
            return
        link, session, game_id = pending
        if session is not self.session or game_id != self.game_id:
            return  # (not reached: a game is replaced only after save_now)
        self._store(link)
        self.save_snapshot()

    def remember(self, fragment: str, replace_hash: bool = True) -> None:
        """Make ``fragment`` the game's link: in the autosave and (unless told not to) the address bar."""
        assert self.session is not None
        self.last_link = fragment
        self._store(fragment)
        self.save_snapshot()
        if replace_hash:
            self._set_hash(fragment)
        self._fill_recent()

    def save_snapshot(self) -> None:
        """Write the current position beside the autosave, for the next start's first paint."""
        if self.session is None or self.embed:
            return
        drawing = self.board.drawing if self.board is not None else None
        _storage_set(SNAPSHOT_KEY, json.dumps(position_snapshot(self.session.game, drawing), separators=(",", ":")))

    def share_url(self, page: str = "") -> str:
        base = str(js.location.href).split("#")[0]
        if page:  # resolved as a browser does: a query holding "/" must not change the folder
            base = str(js.URL.new(page, base).href).split("#")[0]
        return base + "#" + self.last_link

    def copy(self, text: str, what: str) -> None:
        asyncio.ensure_future(self._copy(text, what))

    async def _copy(self, text: str, what: str) -> None:
        try:  # writeText's promise is refused when the page lacks focus or permission
            await js.navigator.clipboard.writeText(text)
            self.message(f"{what} copied to the clipboard.", "info")
        except Exception:  # noqa: BLE001 - no clipboard: show the text to copy by hand
            self.message(f"Copy this {what.lower()}: {text}", "info")

    def on_copy_link(self, event: Any) -> None:
        session = self.session
        secret = (session is not None and sealed.has_secrets(session.game) and self.group.state is None
                  and session.master is None)
        if session is not None and secret and self.role in (GM, ""):
            if not self.sealable():
                self.open_passphrases("change")
                return
            asyncio.ensure_future(self._copy_sealed_link())
            return
        self.changed()
        self.copy(self.share_url(), "Link")

    async def _reseal_or_say(self, replace_hash: bool) -> None:
        try:
            await self.reseal(replace_hash)
        except Exception as error:  # noqa: BLE001 - say why; the game in hand stays
            self.message(f"The link could not be sealed: {error}")

    async def _copy_sealed_link(self) -> None:
        try:
            await self.reseal()
        except Exception as error:  # noqa: BLE001 - say why, keep the game
            self.message(f"The link could not be sealed: {error}")
            return
        await self._copy(self.share_url(), "Link")

    def on_copy_results(self, event: Any) -> None:
        session = self.session
        if session is None:
            return
        # what goes to the players: a game master copies the results as rule 7 reports them
        index = session.shown_record()
        text = session.players_results_text(index) if index is not None else session.shown_results_text()
        self.copy(text, "Results")

    def on_embed(self, event: Any) -> None:
        self.changed()
        url = self.share_url("embed.html")
        public = self.group.public_fragment()
        if public is not None:  # a group game is embedded as its players see it
            url = url.split("#")[0] + "#" + public
        # the frame says its content's height (post_height); the snippet's script sizes the frame to it
        name = f"adjutant-{abs(hash(url)) % 10**8}"
        code = (f'<iframe id="{name}" src="{url}" width="800" height="620" '
                f'style="border:0;width:100%;max-width:800px" loading="lazy" title="Diplomacy game"></iframe>'
                f'<script>addEventListener("message",function(e){{var f=document.getElementById("{name}");'
                f'if(f&&e.source===f.contentWindow&&e.data&&e.data.adjutantHeight>0)'
                f'f.style.height=Math.min(e.data.adjutantHeight,5000)+"px"}})</script>')
        _id("embed-code").value = code
        _id("embed-dialog").showModal()

    def on_download(self, event: Any) -> None:
        session = self.session
        assert session is not None
        text = game_to_text(session.kept)
        self._download(text, f"adjutant-{session.game.variant.id}-{session.game.phase}.json", "application/json")

    def on_upload(self, event: Any) -> None:
        files = event.target.files
        if files is None or files is jsnull or files.length == 0:
            return
        asyncio.ensure_future(self._open_file(files.item(0)))
        event.target.value = ""

    def on_drop(self, event: Any) -> None:
        event.preventDefault()
        transfer = event.dataTransfer
        files = None if transfer is None or transfer is jsnull else transfer.files
        if files is not None and files is not jsnull and files.length:
            asyncio.ensure_future(self._open_file(files.item(0)))

    async def _open_file(self, file: Any) -> None:
        name = str(file.name)
        if file.size > MAX_FILE_BYTES:
            self.message(
                f"{name} is too large to be a game file ({int(file.size):,} bytes; Adjutant reads up to "
                f"{MAX_FILE_BYTES:,}). Your game is unchanged."
            )
            return
        try:
            text = str(await file.text())
            game = game_from_text(text)
            shown = Session.of(game)  # (a Cluster game against the computer: as its players see it)
            secret = sealed.has_secrets(game) and shown.master is None
        except Exception as error:  # noqa: BLE001 - whatever goes wrong, the game in hand stays
            self.message(f"{name} could not be opened: {error}. Your game is unchanged.")
            return
        if not self.may_replace():
            return
        before = self.in_hand()
        self.replacing()
        try:
            await self.show(shown, role=GM if secret else "")
            self.clear_message()
            if secret:  # the game master's own file: no link until passphrases seal it
                self.last_link = ""
            self.changed()
            self.render()
        except Exception as error:  # noqa: BLE001 - whatever goes wrong, the game in hand stays
            await self.put_back(before)
            self.message(f"{name} could not be opened: {error}. Your game is unchanged.")
            self.changed(replace_hash=True)
            return
        if secret:
            self.open_passphrases("change")

    # --- games with secrets: passphrases, sealing, unlocking -----------------------------------------
    def open_passphrases(self, purpose: str, variant_id: str = "") -> None:
        """The passphrase dialog: for a new game with secrets (``purpose`` "new"), or to see or change
        the passphrases of the game in hand (the game master's)."""
        variant = load_variant(variant_id) if variant_id else self.session.game.variant if self.session else None
        if variant is None:
            return
        self.passphrase_purpose = purpose + ":" + variant.id
        fields = _id("passphrase-fields")
        fields.replaceChildren()
        for part, name in sealed.part_names(variant).items():
            label = document.createElement("label")
            label.htmlFor = f"passphrase-{part}"
            label.textContent = name
            entry = document.createElement("input")
            entry.id = f"passphrase-{part}"
            entry.type = "text"
            entry.autocomplete = "off"
            entry.spellcheck = False
            entry.dataset.part = part
            entry.value = self.passphrases.get(part, "") if purpose not in ("new", "group", "setup") else ""
            fields.append(label, self._rated(entry))
        _id("passphrase-errors").replaceChildren()
        starts = purpose in ("new", "group", "setup")  # ("setup": a position set up, py/adjutant_ui/setup.py)
        _id("passphrase-ok").textContent = "Start the game" if starts else "Use these passphrases"
        if starts:
            choosing()
        _id("passphrase-dialog").showModal()

    def _rated(self, entry: Any) -> Any:
        """The passphrase entry with its strength shown below it, updated as it is typed."""
        holder = document.createElement("div")
        strength = document.createElement("small")
        strength.id = f"{entry.id}-strength"
        strength.className = "hint passphrase-strength"
        strength.setAttribute("aria-live", "polite")
        entry.setAttribute("aria-describedby", strength.id)
        holder.append(entry, strength)
        self._rate(entry)  # (as it is typed: the one listener on #passphrase-fields, wired in _wire)
        return holder

    @staticmethod
    def _rate(entry: Any) -> None:
        strength = entry.nextElementSibling  # (see _rated)
        phrase = str(entry.value).strip()
        if strength is None or strength is jsnull:
            return
        if not phrase:
            strength.textContent = ""
            return
        bits, label = sealed.passphrase_strength(phrase)
        gm_short = entry.dataset.part == GM and label != "strong"
        need = f"; the game master's needs {sealed.MIN_GM_BITS}" if gm_short else ""
        strength.textContent = f"Strength: {label} (about {bits} bits{need})"
        strength.dataset.strength = label

    def _passphrase_entries(self) -> dict[str, str]:
        return {str(e.dataset.part): str(e.value).strip() for e in _id("passphrase-fields").querySelectorAll("input")}

    def on_generate_passphrases(self, event: Any) -> None:
        for entry in _id("passphrase-fields").querySelectorAll("input"):
            entry.value = sealed.generate_passphrase()
            self._rate(entry)

    def on_copy_passphrases(self, event: Any) -> None:
        purpose, _, variant_id = self.passphrase_purpose.partition(":")
        names = sealed.part_names(load_variant(variant_id))
        lines = [f"{names.get(part, part)}: {phrase}" for part, phrase in self._passphrase_entries().items()]
        self.copy("\n".join(lines), "Passphrases")

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

    def on_passphrases(self, event: Any) -> None:
        event.preventDefault()
        purpose, _, variant_id = self.passphrase_purpose.partition(":")
        phrases = self._passphrase_entries()
        problems = sealed.passphrase_problems(phrases, sealed.part_names(load_variant(variant_id)))
        if self.list_problems("passphrase-errors", problems):
            return
        _id("passphrase-dialog").close()
        if purpose == "group":  # a Cluster group game (py/adjutant_ui/cluster_group.py)
            asyncio.ensure_future(cluster_group.start(self.group, variant_id, phrases))
        elif self.group.state is not None and self.group.state.cluster is not None:
            asyncio.ensure_future(cluster_group.set_passphrases(self.group, phrases))
        else:
            asyncio.ensure_future(self._use_passphrases(purpose, variant_id, phrases))

    async def _use_passphrases(self, purpose: str, variant_id: str, phrases: dict[str, str]) -> None:
        waiting = "Making the keys from the passphrases…"
        self.message(waiting, "info")
        try:
            if purpose in ("new", "setup"):
                # The new game is shown at once and takes orders while its keys are made (PBKDF2, seconds
                # on a phone): each change is sealed into the link once they are ready (reseal waits).
                seed = int(js.window.adjutantSeal.randomSeed())
                game = self.setup.take_game() if purpose == "setup" else cluster_views.new_game(seed, variant_id)
                self.replacing()
                await self.show(Session(game), role=GM, passphrases=phrases)
                self.keys_task = asyncio.ensure_future(self._add_keys(phrases))
                waiting = ("New game: give its orders now. Making its keys from the passphrases (its link "
                           "follows once they are ready)…")
                self.message(waiting, "info")
                self.render()
            else:
                keys = await self._derive_keys(phrases)
                if self.session is not None and sealed.has_secrets(self.session.game) and self.role == GM:
                    self.keys, self.passphrases = keys, dict(phrases)
            await self.reseal()
        except Exception as error:  # noqa: BLE001 - say why; the game in hand stays
            self.message(f"The game could not be sealed: {error}")
            return
        self.clear_message(only=waiting)  # a message given meanwhile (a refused nomination) stays
        self.render()

    async def _derive_keys(self, phrases: dict[str, str]) -> dict[str, Any]:
        """One key per part (PBKDF2 in web/seal.js, each with a fresh salt), all at once."""
        names = list(phrases)
        handles = await asyncio.gather(*(js.window.adjutantSeal.newKey(phrases[n]) for n in names))
        return dict(zip(names, handles, strict=True))

    async def reseal(self, replace_hash: bool = True) -> str:
        """Seal the game master's game into a link: the address bar, the autosave and "Copy link" hold it
        (never the game in the clear). Returns the link's fragment."""
        session = self.session
        assert session is not None and self.role == GM
        self.seal_count += 1
        count, game = self.seal_count, session.game
        parts = sealed.plaintexts(game, self.passphrases)
        if self.keys_task is not None and not self.keys_task.done():
            # Just unlocked: the players' keys are still being derived (most of a second). The game
            # master's seal is saved first, so that a tab closed meanwhile loses nothing; the link with
            # every part follows.
            if GM in self.keys:
                await self._seal_and_save(count, session, {GM: parts[GM]}, False)
            await self.keys_task
        missing = sorted(set(parts) - set(self.keys))
        if missing:
            raise AdjutantError(f"no passphrase for {', '.join(missing)}: set the passphrases again")
        return await self._seal_and_save(count, session, parts, replace_hash)

    async def _seal_and_save(self, count: int, session: Session, parts: dict[str, bytes], replace_hash: bool) -> str:
        seal = js.window.adjutantSeal.seal
        game = session.game
        blobs = await asyncio.gather(*(seal(self.keys[name], name, to_js(data)) for name, data in parts.items()))
        link = sealed.sealed_link(game, {name: str(blob) for name, blob in zip(parts, blobs, strict=True)})
        fragment = link.fragment()
        if count == self.seal_count and self.session is session:  # not overtaken by a later change
            self.link, self.last_link = link, fragment
            self._store(fragment)
            snapshot = position_snapshot(public_game(link), self.board.drawing if self.board is not None else None)
            _storage_set(SNAPSHOT_KEY, json.dumps(snapshot, separators=(",", ":")))
            if replace_hash:
                self._set_hash(fragment)
            self._fill_recent()
        return fragment

    def on_unlock(self, event: Any) -> None:
        event.preventDefault()
        entry = _id("unlock-passphrase")
        phrase = str(entry.value)
        if phrase:
            asyncio.ensure_future(self._unlock(phrase))

    def on_unlock_another(self, event: Any) -> None:
        """The folded Secrets form opened again, for another passphrase; the field takes the focus."""
        self.unlocking_again = True
        self._fold_unlock(False)
        _id("unlock-passphrase").focus()

    @staticmethod
    def _fold_unlock(folded: bool) -> None:
        """The Secrets form's passphrase field, or in its place (``folded``) "Another passphrase…"."""
        _id("unlock-form").hidden = folded
        _id("unlock-again").hidden = not folded

    def unlock_refused(self, text: str) -> None:
        """The Secrets form's passphrase opened nothing: said beside the form (a phone's Secrets panel is
        far below the message at the top, and the page is not scrolled away from the field), the field
        focused with the passphrase selected, so typing again replaces it."""
        line = _id("unlock-status")
        line.textContent = text
        line.className = "group-status error"
        self.message(text, beside=True)
        entry = _id("unlock-passphrase")
        entry.focus()
        entry.select()

    def unlock_done(self) -> None:
        """The Secrets form's passphrase opened its part: the field emptied, no refusal left beside it, and
        the form folded away (the focus, if it was in the form, goes to the button that opens it again)."""
        _id("unlock-passphrase").value = ""
        _id("unlock-status").textContent = ""
        self.unlocking_again = False
        if self.session is None or self.role not in self.session.game.variant.powers:
            return
        was_in_form = bool(_id("unlock-form").contains(document.activeElement))
        self._fold_unlock(True)
        if was_in_form:
            _id("unlock-another").focus(to_js({"preventScroll": True}, dict_converter=js.Object.fromEntries))

    async def _unlock(self, phrase: str) -> None:
        if self.group.state is not None and self.group.state.cluster is not None:
            await cluster_group.unlock(self.group, phrase)
            return
        link = self.link
        if link is None:
            self.message("This game has no sealed secrets to open.")
            return
        button = _id("unlock")
        button.disabled = True
        try:
            parts = to_js(link.sealed, dict_converter=js.Object.fromEntries)
            opened = await cluster_group.unseal_any(phrase, parts)
            if opened is None:
                self.unlock_refused(f"{sealed.WRONG_PASSPHRASE.capitalize()}. Nothing has changed.")
                return
            phrase = str(opened.passphrase)
            name = str(opened.name)
            part = sealed.open_part(link.public, name, bytes(opened.plaintext.to_py()))
            if name == GM:
                phrases = {GM: phrase, **part.passphrases}
                await self.show(Session(part.game), role=GM, link=link, keys={GM: opened.handle}, passphrases=phrases)
                others = {p: v for p, v in part.passphrases.items() if p != GM}
                self.keys_task = asyncio.ensure_future(self._add_keys(others))
                shown = "the game master's view: every secret, and the game can be adjudicated"
            else:
                await self.show(Session(part.game, readonly=True), role=name, link=link)
                power = part.game.variant.powers.get(name)
                shown = f"the secrets of {power.name if power else name}"
        except Exception as error:  # noqa: BLE001 - a damaged part: say what, keep the game in hand
            self.message(f"The link's secrets could not be opened: {error}. Nothing has changed.")
            return
        finally:
            button.disabled = False
        self.unlock_done()
        self.message(f"Unlocked {shown}." + (f" {part.warning}" if part.warning else ""), "info")
        self.render()

    async def _add_keys(self, phrases: dict[str, str]) -> None:
        keys = self.keys  # (the game's own: another game shown meanwhile has its own)
        keys.update(await self._derive_keys(phrases))

    def sealable(self) -> bool:
        """Whether the game master's keys are in hand, or being made, to seal the game in hand."""
        return bool(self.keys) or self.keys_task is not None

    def on_nominate(self, power: str) -> None:
        session = self.session
        if session is None:
            return
        try:
            for select in _id("nominations").querySelectorAll(f'select[data-power="{power}"]'):
                if str(select.value) != "-":  # "choose…": this level is left for now
                    location = str(select.value) or None
                    session.game.nominate(power, int(select.dataset.level), location)
        except AdjutantError as error:
            self.message(str(error))
        self.changed()
        self.render()
        # the form of the button pressed is drawn again or gone: the keyboard goes on to the next form, or
        # after the last to what follows it, not back to the top of the page
        active = _v(document.activeElement)
        if active is None or active.isSameNode(document.body):
            following = _v(document.querySelector("#nominations select"))
            (following if following is not None else _id("secret-list")).focus()

    # --- drawing -------------------------------------------------------------------------------------
    def _stale(self, panel: str, data: Any) -> bool:
        """Whether ``panel`` shows other ``data`` than these (then they are taken as shown): a render fills
        again only the panels whose data changed (an order entered changes the order list, not the
        position or the last phase's results), so the browser lays out only those again."""
        if self.shown.get(panel) == data:
            return False
        self.shown[panel] = data
        return True

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

        self._when_idle(steps(), lambda: document.documentElement.setAttribute("data-rehearsed", ""))

    def _when_idle(self, steps: Iterator[None], done: Callable[[], None]) -> None:
        """Run ``steps`` one at a time, each when the browser is idle (or after 2 s without an idle moment;
        where the browser has no idle callbacks, after a pause), until done or until one fails; then call
        ``done``."""

        def step(*_: Any) -> None:
            try:
                next(steps)
            except StopIteration:
                done()
                return
            except Exception as error:  # noqa: BLE001 - a mere rehearsal: said in the console, nothing lost
                js.console.error(f"Adjutant's idle rehearsal stopped: {error!r}")
                done()
                return
            self._when_idle(steps, done)

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
        show_results = self.embed or bool(_id("show-results").checked)
        chosen = None if self.embed else (str(_id("orders-power").value) or self.group.player_power())
        return _draw_board(board, session, show_results, chosen)

    def render(self) -> None:
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
            self.rove()
        _id("phase-label").textContent = session.shown_phase_title()
        last = len(game.history)
        _id("hist-first").disabled = session.view == 0
        _id("hist-prev").disabled = session.view == 0
        _id("hist-next").disabled = session.view >= last
        _id("hist-last").disabled = session.view >= last
        document.documentElement.dataset.phase = str(position.phase)
        self._powers()
        if self.embed:
            _id("embed-results-text").textContent = session.shown_results_text()
            self.post_height()
            return
        entries = session.results_entries() if show_results else []
        _id("results-key").hidden = not entries
        # the key to the variant's own marks: each item shown where the map draws its mark
        _id("map-legend").hidden = not show_drawn(_id("map-legend"), board.svg)
        _id("results-of").textContent = entries[0][0] if entries else ""
        self._results_list(entries[1:])
        self._orders_panel()
        self._position_text()
        self._secrets_panel(sites)
        text = session.shown_results_text()
        if self._stale("results", text):
            _id("results").textContent = text
        _id("copy-results").textContent = "Copy results for the players" if self.role == GM else "Copy results"
        readonly = session.readonly
        _id("undo").disabled = readonly or not game.history
        _id("adjudicate").disabled = readonly or game.over or not session.at_current
        _id("declare-draw").disabled = readonly or game.over
        for name in ("orders-text", "orders-apply", "orders-clear", "orders-power", "orders-keep", "download"):
            _id(name).disabled = readonly
        _id("adjudicate-warning").hidden = not (self.warning_open and session.at_current and not readonly)
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
        self.group.render()
        self.computer.render()

    def _secrets_panel(self, sites: dict[str, int]) -> None:
        """Who is looking at a game with secrets, the passphrase entry, and what the viewer may know."""
        session = self.session
        assert session is not None
        game = session.game
        secret = sealed.has_secrets(game)
        _id("secrets").hidden = not secret
        _id("download-note").hidden = not (secret and self.role == GM)
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
        elif self.role == GM:
            role = "Game master: every secret of this game is shown, and only you adjudicate it."
        elif self.role in variant.powers:
            role = f"{variant.powers[self.role].name}'s secrets are shown (the game master adjudicates)."
        else:
            role = "Public view: only what the rules report. Enter your passphrase to see your secrets."
        _id("secrets-role").textContent = role
        # once a power's secrets are open the passphrase field folds away behind "Another passphrase…"
        # (a player has one passphrase; one person holding several, or the game master's, asks for it)
        self._fold_unlock(self.role in variant.powers and not self.unlocking_again)
        if self.role == GM or session.master is not None:  # every secret it shows is in hand: no passphrase
            _id("unlock-form").hidden = True
        _id("show-passphrases").hidden = self.role != GM

        def item(text: str) -> None:
            entry = document.createElement("li")
            entry.textContent = text
            listing.appendChild(entry)

        for line in sealed.secret_lines(game, ",".join(viewers) or self.role, sites):
            item(line)
        player = self.group.player_power()
        if not (session.at_current and not game.over):
            return
        if session.master is not None:
            self._nominations_form(viewers)
        elif self.role == GM or (player and self.role == player):
            self._nominations_form((player,) if player else ())

    def _nominations_form(self, only: tuple[str, ...] = ()) -> None:
        """Rule 2: for each power with a nomination due (or only those of ``only``: the powers played at
        this screen), which unit is its 3× or 2× (or a later build)."""
        session = self.session
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
            self.actions[f"nominate-{power}"] = lambda p=power: self.on_nominate(p)
            box.appendChild(button)
            holder.appendChild(box)

    def _powers(self) -> None:
        session = self.session
        assert session is not None and self.board is not None
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
            rows.append((power.id, power.name, self.board.colours.get(power.id, "#888"), centres.get(power.id, 0),
                         units.get(power.id, 0), status, kind))
        if not self._stale("powers", rows):
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

    def _position_text(self) -> None:
        """The shown position as text, power by power (units and centres), for screen readers and for
        anyone who would rather read it."""
        session = self.session
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
        if not self._stale("position", lines):
            return
        listing = _id("position-list")
        listing.replaceChildren()
        for power_id, text in lines:
            item = document.createElement("li")
            item.dataset.power = power_id
            item.textContent = text
            listing.appendChild(item)

    def _results_list(self, entries: list[tuple[str, str]]) -> None:
        """The results as sentences, each focusable: focused (or pointed at), it picks out its symbols on
        the map (the listeners are on the list, wired once: see on_result_focus)."""
        if not self._stale("results-summary", entries):
            return
        listing = _id("results-summary")
        listing.replaceChildren()
        for text, key in entries:
            item = document.createElement("li")
            item.textContent = text
            if key:
                item.dataset.result = key
                item.tabIndex = 0
            listing.appendChild(item)

    def on_result_focus(self, event: Any) -> None:
        """A result in the list is focused or pointed at: pick out its symbols on the map."""
        item = event.target.closest("li[data-result]") if hasattr(event.target, "closest") else None
        item = _v(item)
        if self.board is not None:
            self.board.mark_result(str(item.dataset.result) if item is not None else "")

    def on_result_blur(self, event: Any) -> None:
        if self.board is not None:
            self.board.mark_result("")

    def _orders_panel(self) -> None:
        session = self.session
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
        self.actions = {k: v for k, v in self.actions.items() if k.startswith("nominate-")}
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
        if self.by_keyboard and session.at_current and not session.readonly:
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
            self.actions[name] = lambda: handler(None)
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
            button("Disband", lambda e: self.act_on(session.selected or ""), "disband")
        if session.selected and kind == "adjustment" and session.build_type is None:  # (not once the coast is asked)
            for unit_type, label in session.build_types():  # no fleet offered inland
                button(f"Build {label}", lambda e, t=unit_type: self._build(t), f"build-{unit_type}")
        for coast in self.coast_choices:
            label = game.variant.province_name(coast)
            button(label, lambda e, c=coast: self.act_on(c), f"coast-{coast}")
        if session.selected:
            button("Cancel", lambda e: self.cancel(), "cancel")

    def _keys_hint(self) -> str:
        """What the keys do on the map now, said under the prompt once the keyboard is in use."""
        session = self.session
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
        assert self.session is not None
        self.session.mode = mode
        self.session.target = None
        self.render()

    def _hold(self) -> None:
        """Hold: the selected unit clicked again in the move step (whatever step the player was in)."""
        session = self.session
        assert session is not None
        session.mode, session.target = "move", None
        self.act_on(session.selected or "")

    def _research(self) -> None:
        assert self.session is not None
        order = self.session.research()
        if order:
            self.enter(order, power=None)
        self.render()

    def _take_offer(self) -> None:
        assert self.session is not None
        order, self.coast_choices = self.session.take_offer()
        if order:
            self.enter(order, power=None)
        self.render()

    def _build(self, unit_type: str) -> None:
        assert self.session is not None
        order, self.coast_choices = self.session.build(unit_type)
        if order:
            self.enter(order, power=None)
        self.render()


def run(view: str) -> None:
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
