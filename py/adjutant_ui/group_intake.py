"""The game master's part of a group game: unlocking the game's key with the passphrase, and taking in
the players' sealed orders codes (each opened with Web Crypto, web/group.js, checked by
:mod:`adjutant.group_play.codes`, and either taken or refused with why)."""

from __future__ import annotations

import asyncio
from typing import Any

import js
from adjutant import AdjutantError
from adjutant.group_play import codes as group
from pyodide.ffi import jsnull, to_js

from . import sealed
from .dom import by_id as _id
from .dom import js_bytes
from .group_state import GroupState
from .page import GroupControl


class _NotTried(Exception):
    """A code left unopened: the paste's Web Crypto attempts (:data:`adjutant.group_play.codes.MAX_OPEN_ATTEMPTS`) are
    spent."""


#: what the list says of each code not tried
NOT_TRIED = "this paste held more codes than one paste opens; it is left in the box to open next"


class CodeIntake:
    """The game master's view of the group game in hand: the key unlocked, the codes pasted taken in."""

    def __init__(self, ctrl: GroupControl) -> None:
        self.ctrl = ctrl

    def on_unlock(self, event: Any) -> None:
        event.preventDefault()
        phrase = str(_id("gm-passphrase").value)
        if phrase:
            asyncio.ensure_future(self.unlock(phrase))

    async def unlock(self, phrase: str) -> None:
        ctrl = self.ctrl
        state, app = ctrl.state, ctrl.app
        if state is None or not state.is_gm:
            return
        if ctrl.refused_insecure():
            return
        key = None
        for reading in sealed.passphrase_readings(phrase):
            try:
                key = await js.window.adjutantGroup.unlock(to_js(state.public_key), state.sealed_private, reading)
            except Exception as error:  # noqa: BLE001 - a damaged sealed key: say so, keep the game
                app.message(f"The game master's key could not be opened: {error}")
                return
            if key is not None and key is not jsnull:
                phrase = reading
                break
        if key is None or key is jsnull:
            wrong = "That passphrase does not open this game's key. Nothing has changed."
            ctrl.say("group-status", wrong, "error")
            app.message(wrong, beside=True)
            _id("gm-passphrase").focus()
            _id("gm-passphrase").select()  # typing again replaces it
            return
        shown = state.kind.opened(state)  # (else the key opens the game itself, which is then shown)
        try:
            note = await state.kind.open_game(state, key, phrase)
        except Exception as error:  # noqa: BLE001 - a damaged part: say so, keep the game
            app.message(f"The game master's part could not be opened: {error}. Nothing has changed.")
            return
        if not shown:
            state = ctrl.state
            assert state is not None
        state.private_key = key
        _id("gm-passphrase").value = ""
        _id("unlock-passphrase").value = ""
        unlocked = "Unlocked: paste the players' sealed orders codes." + (f" {note}" if note else "")
        app.message(unlocked, "info", beside=True)  # where the Secrets form was used; the Group game panel says it too
        app.render()
        ctrl.say("group-status", unlocked)
        state.said, state.said_log = "unlocked", state.log
        _id("codes-text").focus()
        if ctrl.queued:
            queued, ctrl.queued = ctrl.queued, ""
            await self.open_codes(queued)

    def on_open_codes(self, event: Any) -> None:
        asyncio.ensure_future(self.open_codes(str(_id("codes-text").value)))

    async def open_codes(self, text: str) -> None:
        """Take every code in ``text`` into the game: each is opened, checked and either taken (the
        latest for a power wins) or refused with why; a refused code changes nothing."""
        state, app = self.ctrl.state, self.ctrl.app
        if state is None or not state.is_gm:
            return
        if state.private_key is None:
            self.ctrl.say("codes-status", "Unlock with the game master's passphrase first.", "error")
            app.message("Unlock with the game master's passphrase first.")
            return
        log: list[tuple[str, str]] = []
        try:
            codes = group.code_readings(text)
        except AdjutantError as error:
            codes, log = [], [("rejected", str(error))]
        if not codes and not log:
            log.append(("rejected", "no sealed orders code (orders~…) in the pasted text"))
        if not codes:  # the pasted text stays in the box, to look at again
            state.log, state.log_at = [], len(state.game.history)
            app.render()
            self.ctrl.say("codes-status", f"Nothing opened: {log[0][1]}.", "error")
            return
        game = state.game
        state.intake = state.intake.for_phase(game)
        digest = state.kind.intake_digest(state)  # once per paste
        tries, untried = [group.MAX_OPEN_ATTEMPTS], []
        for number, readings in enumerate(codes):
            if number and number % 25 == 0:  # the page stays live, and says how far it is
                self.ctrl.say("codes-status", f"Opening codes: {number} of {len(codes)}…")
                await asyncio.sleep(0)
            # named by its end: every code of a game and phase begins alike (its clear header)
            short = f"{group.CODE_PREFIX}…{readings[0][-8:]}"
            power = ""
            try:
                read, opened = await self._open_code(state, readings, digest, tries)
                power, short = read.power, f"{group.CODE_PREFIX}…{read.code[-8:]}"
                had = state.intake.received.get(read.power)
                said = state.intake.accept(game, read, opened)
                # the same code again, or an older one, changes nothing: neither is counted as taken in
                same = had is not None and state.intake.received.get(read.power) is had
                kind = "older" if same and said.endswith(group.OLDER_CODE) else "same" if same else "kept"
                log.append((kind, f"{short} {said}"))
            except _NotTried:
                untried.append(readings)
                log.append(("untried", f"{short} not tried: {NOT_TRIED}"))
            except group.CodeError as error:
                who = power or error.power
                state.intake.refuse(str(error), who, error.earlier)
                kind, said = group.refusal_said(game, state.intake, who, error)
                log.append((kind, f"{short} {said}"))
            except AdjutantError as error:
                state.intake.refuse(str(error), power)
                log.append(("rejected", f"{short} refused: {error}"))
        state.log, state.log_at = log, len(game.history)
        # the codes not tried stay in the box, for Open codes again
        _id("codes-text").value = "\n".join(group.reading_lines(r) for r in untried)
        app.changed()
        app.render()
        self._say_codes(log)

    def _say_codes(self, log: list[tuple[str, str]]) -> None:
        """The line under Open codes: how many of the codes just opened were taken in, changed nothing (the
        same again, older, or refused while their power's orders are in: set aside), were refused, or were
        not tried (left in the box: a paste opens at most :data:`adjutant.group_play.codes.MAX_OPEN_ATTEMPTS`)."""
        kinds = ("kept", "same", "older", "aside", "untried")
        counts = {kind: sum(k == kind for k, _ in log) for kind in kinds}
        taken, repeated, older, aside, untried = counts.values()
        again = (f", {repeated} already in" if repeated else "") + (f", {older} older, set aside" if older else "")
        again += f", {aside} set aside (those powers' orders are in)" if aside else ""
        refused = len(log) - sum(counts.values())
        rest = (f" {untried} not tried (one paste opens at most {group.MAX_OPEN_ATTEMPTS} readings): they are "
                "left in the box; press Open codes again." if untried else "")
        self.ctrl.say(
            "codes-status",
            f"{taken} code{'s' if taken != 1 else ''} taken in{again}, {refused} refused: see the list and the "
            f"table.{rest}",
            "error" if refused or untried else "info",
        )

    async def _open_code(
        self, state: GroupState, readings: tuple[str, ...], digest: bytes, tries: list[int]
    ) -> tuple[group.Sealed, bytes]:
        """The first of a code's readings (:func:`adjutant.group_play.codes.code_readings`) that opens with the game
        master's key, and what it holds. If none opens, the first reading's refusal: the code as it
        stands on its line. Each reading opened with Web Crypto spends one of ``tries`` (the paste's);
        _NotTried when they are spent before any reading opened."""
        refusal: group.CodeError | None = None
        for code in readings:
            try:
                read = group.read_code(code, state.game, state.public_key, digest)
            except group.CodeError as error:
                refusal = refusal or error
                continue
            if tries[0] <= 0:
                raise _NotTried
            tries[0] -= 1
            opened = await js.window.adjutantGroup.openOrders(
                state.private_key, to_js(read.data), group.HEADER, to_js(read.aad)
            )
            if opened is not None and opened is not jsnull:
                return read, js_bytes(opened)
            refusal = refusal or group.CodeError(
                "the code does not open: it was altered or damaged on the way, or sealed for another version "
                "of this phase",
                read.power,
            )
        assert refusal is not None  # a code has one reading at least
        raise refusal
