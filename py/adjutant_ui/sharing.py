"""Files and links of the game in hand: Copy link (a game with secrets: its sealed link), Copy results, the
embedding code, Download, and a game file opened or dropped on the page, which replaces the game in hand
only once it is read (a file that fails leaves the game as it was, and says why)."""

from __future__ import annotations

import asyncio
from typing import Any

import js
from adjutant.formats.limits import MAX_FILE_BYTES
from pyodide.ffi import jsnull

from . import sealed
from .dom import by_id as _id
from .dom import page_address
from .group import GroupController
from .page import Page
from .saving import Saving
from .sealed import GM
from .sealing import Sealing
from .session import Session, game_from_text, game_to_text


class Sharing:
    """The page's buttons that copy, embed, download and open games (wired by App)."""

    def __init__(self, page: Page, group: GroupController, saving: Saving, sealing: Sealing) -> None:
        self.page = page
        self.group = group
        self.saving = saving
        self.sealing = sealing

    def share_url(self, page: str = "") -> str:
        base = page_address()
        if page:  # resolved as a browser does: a query holding "/" must not change the folder
            base = str(js.URL.new(page, base).href).split("#")[0]
        return base + "#" + self.page.last_link

    def on_copy_link(self, event: Any) -> None:
        session = self.page.session
        secret = (session is not None and sealed.has_secrets(session.game) and self.group.state is None
                  and session.master is None)
        if session is not None and secret and self.page.role in (GM, ""):
            if not self.sealing.sealable():
                self.sealing.open_passphrases("change")
                return
            asyncio.ensure_future(self._copy_sealed_link())
            return
        self.page.changed()
        self.page.copy(self.share_url(), "Link")

    async def _copy_sealed_link(self) -> None:
        session = self.page.session
        try:
            fragment = await self.sealing.reseal()
        except Exception as error:  # noqa: BLE001 - say why, keep the game
            if self.page.session is session:
                self.page.message(f"The link could not be sealed: {error}")
            return
        if fragment is not None and self.page.session is session:  # (or another game is in hand, with its own link)
            self.page.copy(self.share_url(), "Link")

    def on_copy_results(self, event: Any) -> None:
        session = self.page.session
        if session is None:
            return
        # what goes to the players: a game master copies the results as rule 7 reports them
        index = session.shown_record()
        text = session.players_results_text(index) if index is not None else session.shown_results_text()
        self.page.copy(text, "Results")

    def on_embed(self, event: Any) -> None:
        self.page.changed()
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
        session = self.page.session
        assert session is not None
        text = game_to_text(session.kept)
        self.saving.download(text, f"adjutant-{session.game.variant.id}-{session.game.phase}.json", "application/json")

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
            self.page.message(
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
            self.page.message(f"{name} could not be opened: {error}. Your game is unchanged.")
            return
        if not self.saving.may_replace():
            return
        before = self.page.in_hand()
        self.saving.replacing()
        try:
            await self.page.show(shown, role=GM if secret else "")
            self.page.clear_message()
            if secret:  # the game master's own file: no link until passphrases seal it
                self.page.last_link = ""
            self.page.changed()
            self.page.render()
        except Exception as error:  # noqa: BLE001 - whatever goes wrong, the game in hand stays
            await self.page.put_back(before)
            self.page.message(f"{name} could not be opened: {error}. Your game is unchanged.")
            self.page.changed(replace_hash=True)
            return
        if secret:
            self.sealing.open_passphrases("change")
