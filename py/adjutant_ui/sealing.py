"""Games with secrets (Cluster) at the page: the passphrase dialog, sealing the game master's game into
its link, unlocking a link's secrets with a passphrase, and the game master's nominations.

The game master's passphrases and the keys made from them (Web Crypto handles from web/seal.js) are kept
here, in this page's memory only; who is looking (``role``) and the sealed link shown are the page's
(:class:`adjutant_ui.page.Page`). :class:`Sealing` is given the page and the parts it goes through: the
group game's controller (a Cluster group game seals and unlocks through adjutant_ui.cluster_group), the
set-up panel (a position set up becomes a game with secrets) and the saving (where a sealed link goes).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import js
from adjutant import AdjutantError, load_variant
from adjutant.group_play import cluster_views
from pyodide.ffi import jsnull, to_js

from . import cluster_group, sealed
from .dom import by_id as _id
from .dom import js_value as _v
from .group import GroupController, choosing
from .page import Page
from .saving import SNAPSHOT_KEY, Saving, storage_set
from .sealed import GM, public_game
from .session import Session, position_snapshot
from .setup import SetupPanel

document = js.document


class Sealing:
    """The passphrases, keys and seals of the game with secrets in hand, and the Secrets form that unlocks
    a link's parts."""

    def __init__(self, page: Page, group: GroupController, setup: SetupPanel, saving: Saving) -> None:
        self.page = page
        self.group = group
        self.setup = setup
        self.saving = saving
        #: the Secrets form asked for again once a power's secrets are open
        self.unlocking_again = False
        #: the game master's passphrases and keys (Web Crypto handles), in this page's memory only; the
        #: keys still being made from them
        self.passphrases: dict[str, str] = {}
        self.keys: dict[str, Any] = {}
        self.keys_task: Any = None
        #: the seals made so far (a seal overtaken by a later one is not saved)
        self.seal_count = 0
        #: what the passphrase dialog is open for, and the variant: "new:cluster", "change:cluster"...
        self.passphrase_purpose = ""

    def open_passphrases(self, purpose: str, variant_id: str = "") -> None:
        """The passphrase dialog: for a new game with secrets (``purpose`` "new"), or to see or change
        the passphrases of the game in hand (the game master's)."""
        session = self.page.session
        variant = load_variant(variant_id) if variant_id else session.game.variant if session else None
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
        self.rate(entry)  # (as it is typed: the one listener on #passphrase-fields, wired in _wire)
        return holder

    @staticmethod
    def rate(entry: Any) -> None:
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
            self.rate(entry)

    def on_copy_passphrases(self, event: Any) -> None:
        purpose, _, variant_id = self.passphrase_purpose.partition(":")
        names = sealed.part_names(load_variant(variant_id))
        lines = [f"{names.get(part, part)}: {phrase}" for part, phrase in self._passphrase_entries().items()]
        self.page.copy("\n".join(lines), "Passphrases")

    def on_passphrases(self, event: Any) -> None:
        event.preventDefault()
        purpose, _, variant_id = self.passphrase_purpose.partition(":")
        phrases = self._passphrase_entries()
        problems = sealed.passphrase_problems(phrases, sealed.part_names(load_variant(variant_id)))
        if self.page.list_problems("passphrase-errors", problems):
            return
        _id("passphrase-dialog").close()
        if purpose == "group":  # a Cluster group game (py/adjutant_ui/cluster_group.py)
            asyncio.ensure_future(cluster_group.start(self.group, variant_id, phrases))
        elif (state := self.group.state) is None or not state.kind.set_passphrases(state, phrases):
            asyncio.ensure_future(self._use_passphrases(purpose, variant_id, phrases))

    async def _use_passphrases(self, purpose: str, variant_id: str, phrases: dict[str, str]) -> None:
        waiting = "Making the keys from the passphrases…"
        self.page.message(waiting, "info")
        shown = self.page.session  # the game sealed: a failure is said only while it is in hand
        try:
            if purpose in ("new", "setup"):
                # The new game is shown at once and takes orders while its keys are made (PBKDF2, seconds
                # on a phone): each change is sealed into the link once they are ready (reseal waits).
                seed = int(js.window.adjutantSeal.randomSeed())
                game = self.setup.take_game() if purpose == "setup" else cluster_views.new_game(seed, variant_id)
                self.saving.replacing()
                await self.page.show(Session(game), role=GM, passphrases=phrases)
                shown = self.page.session
                self.keys_task = asyncio.ensure_future(self._add_keys(phrases))
                waiting = ("New game: give its orders now. Making its keys from the passphrases (its link "
                           "follows once they are ready)…")
                self.page.message(waiting, "info")
                self.page.render()
            else:
                keys = await self._derive_keys(phrases)
                session = self.page.session
                if session is not None and sealed.has_secrets(session.game) and self.page.role == GM:
                    self.keys, self.passphrases = keys, dict(phrases)
            await self.reseal()
        except Exception as error:  # noqa: BLE001 - say why; the game in hand stays
            if self.page.session is shown:
                self.page.message(f"The game could not be sealed: {error}")
            return
        self.page.clear_message(only=waiting)  # a message given meanwhile (a refused nomination) stays
        self.page.render()

    async def _derive_keys(self, phrases: dict[str, str]) -> dict[str, Any]:
        """One key per part (PBKDF2 in web/seal.js, each with a fresh salt), all at once."""
        names = list(phrases)
        handles = await asyncio.gather(*(js.window.adjutantSeal.newKey(phrases[n]) for n in names))
        return dict(zip(names, handles, strict=True))

    async def reseal(self, replace_hash: bool = True) -> str | None:
        """Seal the game master's game into a link: the address bar, the autosave and "Copy link" hold it
        (never the game in the clear). Returns the link's fragment, or None when another game was put in
        hand while the keys were made (that game is sealed, or not, by its own changes)."""
        session = self.page.session
        assert session is not None and self.page.role == GM
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
            if self.page.session is not session:
                return None
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
        if count == self.seal_count and self.page.session is session:  # not overtaken by a later change
            self.page.link, self.page.last_link = link, fragment
            self.saving.store(fragment)
            board = self.page.board
            snapshot = position_snapshot(public_game(link), board.drawing if board is not None else None)
            storage_set(SNAPSHOT_KEY, json.dumps(snapshot, separators=(",", ":")))
            if replace_hash:
                self.saving.set_hash(fragment)
            self.saving.fill_recent()
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
        self.fold_unlock(False)
        _id("unlock-passphrase").focus()

    @staticmethod
    def fold_unlock(folded: bool) -> None:
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
        self.page.message(text, beside=True)
        entry = _id("unlock-passphrase")
        entry.focus()
        entry.select()

    def unlock_done(self) -> None:
        """The Secrets form's passphrase opened its part: the field emptied, no refusal left beside it, and
        the form folded away (the focus, if it was in the form, goes to the button that opens it again)."""
        _id("unlock-passphrase").value = ""
        _id("unlock-status").textContent = ""
        self.unlocking_again = False
        if self.page.session is None or self.page.role not in self.page.session.game.variant.powers:
            return
        was_in_form = bool(_id("unlock-form").contains(document.activeElement))
        self.fold_unlock(True)
        if was_in_form:
            _id("unlock-another").focus(to_js({"preventScroll": True}, dict_converter=js.Object.fromEntries))

    async def _unlock(self, phrase: str) -> None:
        state = self.group.state
        if state is not None and await state.kind.unlock(state, phrase):
            return
        link = self.page.link
        if link is None:
            self.page.message("This game has no sealed secrets to open.")
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
                await self.page.show(Session(part.game), role=GM, link=link, keys={GM: opened.handle},
                                     passphrases=phrases)
                others = {p: v for p, v in part.passphrases.items() if p != GM}
                self.keys_task = asyncio.ensure_future(self._add_keys(others))
                shown = "the game master's view: every secret, and the game can be adjudicated"
            else:
                await self.page.show(Session(part.game, readonly=True), role=name, link=link)
                power = part.game.variant.powers.get(name)
                shown = f"the secrets of {power.name if power else name}"
        except Exception as error:  # noqa: BLE001 - a damaged part: say what, keep the game in hand
            self.page.message(f"The link's secrets could not be opened: {error}. Nothing has changed.")
            return
        finally:
            button.disabled = False
        self.unlock_done()
        self.page.message(f"Unlocked {shown}." + (f" {part.warning}" if part.warning else ""), "info")
        self.page.render()

    async def _add_keys(self, phrases: dict[str, str]) -> None:
        keys = self.keys  # (the game's own: another game shown meanwhile has its own)
        keys.update(await self._derive_keys(phrases))

    def sealable(self) -> bool:
        """Whether the game master's keys are in hand, or being made, to seal the game in hand."""
        return bool(self.keys) or self.keys_task is not None

    def on_nominate(self, power: str) -> None:
        session = self.page.session
        if session is None:
            return
        try:
            for select in _id("nominations").querySelectorAll(f'select[data-power="{power}"]'):
                if str(select.value) != "-":  # "choose…": this level is left for now
                    location = str(select.value) or None
                    session.game.nominate(power, int(select.dataset.level), location)
        except AdjutantError as error:
            self.page.message(str(error))
        self.page.changed()
        self.page.render()
        # the form of the button pressed is drawn again or gone: the keyboard goes on to the next form, or
        # after the last to what follows it, not back to the top of the page
        active = _v(document.activeElement)
        if active is None or active.isSameNode(document.body):
            following = _v(document.querySelector("#nominations select"))
            (following if following is not None else _id("secret-list")).focus()
