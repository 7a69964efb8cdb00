"""The page's saving: which game this tab holds and where it is kept. One slot per game (the storage
model is :mod:`adjutant_ui.saves`), the autosave a fresh tab opens (written once the browser is idle after
a change, and always before another game replaces it), the snapshot of the position that the next start
paints first, the list of recent games, the address bar's history entries (Back and Forward open the game
before), and the game changed in another tab.

This is its own module, not part of :mod:`adjutant_ui.saves`, because saves.py is plain Python over a
small storage interface that CPython tests drive, while this is the page's side of it: localStorage,
sessionStorage, the address bar, the ``storage`` and ``hashchange`` events and the message box, which
only run in the browser. :class:`Saving` is given the page (:class:`adjutant_ui.page.Page`) and the group
game's controller, whose games it saves and opens.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterator
from typing import Any

import js
from adjutant import AdjutantError, load_variant
from adjutant.group_play import codes as group_codes
from pyodide.ffi import create_proxy, jsnull, to_js

from . import sealed
from .dom import by_id as _id
from .dom import js_value as _v
from .dom import mark as _mark
from .group import CODE_LINK, GroupController
from .page import Page
from .saves import RECENT_KEY, Saves, new_id, read_slot, slot_key
from .session import Session, position_snapshot, position_snapshot_steps

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


def storage_get(key: str) -> str | None:
    """Read localStorage; None when the key is not there or storage is disabled."""
    try:
        value = js.localStorage.getItem(key)
    except Exception:  # storage disabled (private mode, sandboxed iframe)
        return None
    return None if value is None or value is jsnull else str(value)


def storage_set(key: str, value: str) -> bool:
    """Write to localStorage; whether it was written (not when storage is full or disabled)."""
    try:
        js.localStorage.setItem(key, value)
    except Exception:  # noqa: BLE001 - full (QuotaExceededError) or disabled: the caller says so
        return False
    return True


def tab_get() -> str:
    """The id of the game this tab holds ("" for none)."""
    try:
        value = js.sessionStorage.getItem(TAB_KEY)
    except Exception:  # noqa: BLE001 - storage disabled
        return ""
    return "" if value is None or value is jsnull else str(value)


def _tab_set(value: str) -> None:
    with contextlib.suppress(Exception):
        js.sessionStorage.setItem(TAB_KEY, value)


def code_link(fragment: str) -> bool:
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
        return storage_get(key)

    def set(self, key: str, value: str) -> bool:
        return storage_set(key, value)


class Saving:
    """Which game this tab holds and where it is kept: its slot, the autosave, Recent games, the address
    bar's history entries, and another tab's change to it."""

    def __init__(self, page: Page, group: GroupController) -> None:
        self.page = page
        self.group = group
        # the storage (adjutant_ui.saves); the id of the game in hand and whether its slot holds it now;
        # the next address to be pushed as a new history entry (not replace the current one); and whether
        # the autosave must be left alone (it holds an unreadable save there was no room to copy)
        self.saves = Saves(_LocalStorage())
        self.game_id = ""
        self.saved = False
        self.push_next = False
        self.keep_autosave = False
        #: the game the list of recent games was last filled for (it lists the others)
        self.recent_for: str | None = None
        #: the links opened later counted (:meth:`_open_link`): one read while another was is not shown; the
        #: page root's data-links-opened says the count once the last is read
        self.opening = 0
        #: the save that waits for the browser to draw the change first (see :meth:`save_soon`): the
        #: game's link, with the session and the game id it is for
        self.pending_save: tuple[str, Session, str] | None = None
        #: the waiting save's snapshot for the next start, being made in idle moments once its link is
        #: stored (see :meth:`_snapshot_soon`); None when its link is not stored yet, or no save waits
        self._snapshot_steps: Iterator[None] | None = None
        self._save_proxy: Any = None
        #: the snapshot last written (see :meth:`save_snapshot`): the position and the drawing it was made
        #: from, and its text
        self._snapshot: tuple[Any, Any, str] | None = None

    def save_soon(self, link: str) -> None:
        """Autosave ``link`` (the game's slot, the autosave, the snapshot for the next start) as soon as
        the browser is idle, after it has drawn the change: a click's answer on screen does not wait for
        the storage writes. Nothing is lost: the save is written before any other game replaces this one
        (:meth:`save_now`), and when the page is hidden or left."""
        assert self.page.session is not None
        waiting = self.pending_save is not None and self._snapshot_steps is None
        self.pending_save = (link, self.page.session, self.game_id)
        self._snapshot_steps = None  # (a snapshot being made is an older save's: it stops)
        if waiting:
            return
        if self._save_proxy is None:
            save = create_proxy(lambda *_: self._save_idle())
            self._save_proxy = (save, create_proxy(lambda *_: js.setTimeout(save, 0)))
        save, after_frame = self._save_proxy
        if hasattr(js.window, "requestIdleCallback"):
            options = to_js({"timeout": 500}, dict_converter=js.Object.fromEntries)
            js.window.requestIdleCallback(save, options)
        else:  # (no idle callbacks: just after the next frame)
            js.window.requestAnimationFrame(after_frame)

    def save_now(self) -> None:
        """Write the save :meth:`save_soon` left waiting, if any (what is left of it: its snapshot, if
        its link is stored already)."""
        pending, steps = self.pending_save, self._snapshot_steps
        if pending is None:
            return
        if steps is not None:  # its link is stored: the rest of its snapshot is made now
            for _ in steps:
                pass
            return
        self.pending_save = None
        link, session, game_id = pending
        if session is not self.page.session or game_id != self.game_id:
            return  # (not reached: a game is replaced only after save_now)
        self.store(link)
        self.save_snapshot()

    def _save_idle(self) -> None:
        """The waiting save, the browser idle: its link stored (the game's slot, the autosave) in this
        moment, its snapshot for the next start made in idle moments after it (a nine-power position's
        units take more than 100 ms on a phone: docs/computer-players.md)."""
        pending = self.pending_save
        if pending is None or self._snapshot_steps is not None:
            return
        link, session, game_id = pending
        if session is not self.page.session or game_id != self.game_id:
            self.pending_save = None
            return
        self.store(link)
        self._snapshot_soon(pending)

    def save_snapshot_soon(self, link: str, session: Session) -> None:
        """``link`` (``session``'s, stored already) is saved: its snapshot for the next start follows in idle
        moments (not needed before a click)."""
        self.pending_save = (link, session, self.game_id)
        self._snapshot_soon(self.pending_save)

    def _snapshot_soon(self, pending: tuple[str, Session, str]) -> None:
        """The snapshot of ``pending`` (the waiting save, its link stored) made a few units at a time in idle
        moments (the page's ``when_idle``) and written, unless another save replaces it meanwhile; the save
        waits until then (:meth:`save_now` finishes it at once)."""
        drawing = self.page.board.drawing if self.page.board is not None else None
        position = pending[1].game.position
        if self._snapshot_kept(position, drawing):  # (an order given: the snapshot written is still right)
            self.pending_save = None
            return

        def steps() -> Iterator[None]:
            making = position_snapshot_steps(pending[1].game, drawing)
            while True:
                try:
                    next(making)
                except StopIteration as done:
                    snapshot = done.value
                    break
                yield
                if self.pending_save is not pending:  # another save replaced it, or dropped it
                    return
            self.pending_save, self._snapshot_steps = None, None
            text = json.dumps(snapshot, separators=(",", ":"))
            self._snapshot = (position, drawing, text) if storage_set(SNAPSHOT_KEY, text) else None

        self._snapshot_steps = steps()
        self.page.when_idle(self._snapshot_steps, lambda: None, "save")

    def remember(self, fragment: str, replace_hash: bool = True) -> None:
        """Make ``fragment`` the game's link: in the autosave and (unless told not to) the address bar."""
        assert self.page.session is not None
        self.page.last_link = fragment
        self.store(fragment)
        self.save_snapshot()
        if replace_hash:
            self.set_hash(fragment)
        self.fill_recent()

    def save_snapshot(self) -> None:
        """Write the current position beside the autosave, for the next start's first paint."""
        if self.page.session is None or self.page.embed:
            return
        drawing = self.page.board.drawing if self.page.board is not None else None
        position = self.page.session.game.position
        if self._snapshot_kept(position, drawing):
            return
        text = json.dumps(position_snapshot(self.page.session.game, drawing), separators=(",", ":"))
        self._snapshot = (position, drawing, text) if storage_set(SNAPSHOT_KEY, text) else None

    def _snapshot_kept(self, position: Any, drawing: Any) -> bool:
        """Whether the snapshot last written is of ``position`` drawn by ``drawing`` and still in the storage
        (another tab may have written its own since): an order given changes neither, and the snapshot is
        not made again (its units drawn, 2-5 ms of an idle moment)."""
        kept = self._snapshot
        return kept is not None and kept[0] is position and kept[1] is drawing and storage_get(SNAPSHOT_KEY) == kept[2]

    def keep_unreadable(self, saved: str, error: str) -> str:
        """Keep an autosave that cannot be read under another key; what to tell the user (the truth:
        a save too large for the storage left cannot be copied, so it stays where it is)."""
        if storage_set(UNREADABLE_KEY, saved):
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
        listener = self.page.on(button, "click", lambda event: self.download(text, filename, "text/plain"))
        self.page.message_proxies.append(listener)
        _id("message").insertBefore(button, _id("message-close"))

    def download(self, text: str, filename: str, kind: str) -> None:
        blob = js.Blob.new([text], js.Object.fromEntries(js.Array.of(js.Array.of("type", kind))))
        url = js.URL.createObjectURL(blob)
        link = document.createElement("a")
        link.href = url
        link.download = filename
        document.body.appendChild(link)
        link.click()
        link.remove()
        js.setTimeout(self.page.proxies.once(lambda: js.URL.revokeObjectURL(url)), 1000)

    def store(self, link: str, autosave: bool = True) -> None:
        """Save the game in hand: its own slot (listed under Recent games) and, unless told not to, the
        autosave a fresh tab opens."""
        session = self.page.session
        if session is None or self.page.embed:
            return
        game = session.game
        tag, phases = self.group.slot_tag(self.group.state)
        self.saved = self.saves.save(self.game_id, link, game.variant.id, str(game.phase), _now(), tag, phases,
                                     self.group.page_state())
        if autosave and not self.keep_autosave:
            storage_set(AUTOSAVE_KEY, link)
            storage_set(VARIANT_KEY, game.variant.id)
        _tab_set(self.game_id)

    def slot_for(self, fragment: str) -> str | None:
        """The saved game a link just read goes on in: the slot holding that link, else for a group
        link the slot of the same game and view at an earlier phase (Saves.find_group)."""
        return self.saves.find(fragment) or self.saves.find_group(*self.group.slot_tag(self.group.pending))

    def set_hash(self, fragment: str) -> None:
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
        if self.page.embed or self.page.session is None or self.saved:
            return True
        return bool(
            js.window.confirm(
                "The game in hand is not saved in this browser (its storage is full or disabled, or the game "
                "has no link yet): replacing it loses it unless you have downloaded it or copied its link. "
                "Replace it?"
            )
        )

    def replacing(self, game_id: str = "") -> None:
        """The next game shown replaces the one in hand: give it its slot and a new history entry."""
        self.save_now()
        self.game_id = game_id or new_id()
        self.saved = False
        self.push_next = True
        self.keep_autosave = False

    def fill_recent(self) -> None:
        select = _id("recent-select")
        if select is None or self.page.embed:
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
            self.page.message("Choose a game from the list of recent games first.")
            return
        if not self.may_replace():
            return
        asyncio.ensure_future(self._open_link(saved.link, game_id=game_id, push=True))

    def on_storage(self, event: Any) -> None:
        """Another tab wrote to storage: the list of recent games, or the game in hand itself."""
        key = "" if event.key is None or event.key is jsnull else str(event.key)
        if key == RECENT_KEY:
            self.fill_recent()
            return
        if key != slot_key(self.game_id) or event.newValue is None or event.newValue is jsnull:
            return
        saved = read_slot(self.game_id, str(event.newValue))
        if saved is None or saved.link == self.page.last_link:
            return
        if self.page.link is not None or (self.page.session is not None and sealed.has_secrets(self.page.session.game)
                                     and self.page.session.master is None):
            self.page.message("This game was changed in another tab. Reload this page to see it here.", "info")
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
                new_session, sealed_link = await self.page.read_link(link)
        except Exception as error:  # noqa: BLE001 - the other tab's save is unreadable: keep ours
            self.group.pending = None
            self.page.message(f"This game was changed in another tab, but that save could not be read: {error}")
            return
        self.pending_save = None  # (the other tab's save is the later one: it is not overwritten)
        slot = self.saves.load(self.game_id)
        await self.page.show(new_session, role="public" if sealed_link else "", link=sealed_link)
        self.group.restore_page(slot)
        self.page.last_link = link
        self.set_hash(link)
        self.page.message("This game was changed in another tab: showing its latest state.", "info")
        self.page.render()

    def on_hash_change(self, event: Any) -> None:
        fragment = str(js.location.hash).lstrip("#")
        if not fragment or fragment == self.page.last_link:
            return
        if code_link(fragment):
            if self.group.takes_codes():  # an orders code opened as a link in the game master's page
                asyncio.ensure_future(self.group.intake.open_codes(fragment))
            else:  # a player's own code, say: what it is for; the game in hand stays
                self.page.message(CODE_LINK, "info")
                self.page.changed(replace_hash=True)
            return
        # (Back and Forward come here too: the browser has already moved to that entry)
        if not self.may_replace():
            self.set_hash(self.page.last_link)
            return
        asyncio.ensure_future(self._open_link(fragment))

    async def _open_link(self, fragment: str, game_id: str = "", push: bool = False) -> None:
        before = self.page.in_hand()
        self.opening += 1
        mine = self.opening
        try:
            if self.group.claims(fragment):
                group_session = self.group.read(fragment)
                self.replacing(game_id or self.slot_for(fragment) or "")
                self.push_next = push
                slot = self.saves.load(self.game_id)
                await self.page.show(group_session)
                self.group.restore_page(slot)
                self.page.clear_message()
                old_link = self.group.old_link_note()
                if old_link:
                    self.page.message(old_link, "info")
                self.page.changed()
                self.page.render()
                self._focus_top()
                return
            _mark("linkOpening")
            new_session, link = await self.page.read_link(fragment)
            _mark("linkRead")
            if mine != self.opening:  # another link was opened while this one was read: that one is shown
                return
            self.replacing(game_id or self.saves.find(fragment) or "")
            self.push_next = push
            await self.page.show(new_session, role="public" if link else "", link=link)
            if link is not None:
                self.page.last_link = fragment
                self.store(fragment, autosave=False)
                self.set_hash(fragment)
                self.fill_recent()
                self.page.clear_message()
                self.page.render()
                self._focus_top()
                return
            self.page.clear_message()
            self.page.changed()
            self.page.render()
            self._focus_top()
        except Exception as error:  # noqa: BLE001 - whatever goes wrong, the game in hand stays
            if mine != self.opening:  # (a link opened later is the one that counts)
                return
            await self.page.put_back(before)
            self.page.message(f"The link could not be opened: {error}. Your game is unchanged.")
            self.page.changed(replace_hash=True)
        finally:  # the page says how many links it has read in this tab (the last one shown or refused)
            if mine == self.opening:
                document.documentElement.setAttribute("data-links-opened", str(mine))

    @staticmethod
    def _focus_top() -> None:
        """Another game opened in this tab: where the focus was lost with what was drawn before, it goes to
        the top of the page (the page's name), so that the next Tab goes on from there, not from where the
        removed control was (the browser's starting point can end at the page's foot)."""
        active = _v(document.activeElement)
        if active is None or active.isSameNode(document.body) or not bool(active.isConnected):
            _id("brand").focus()
