"""The page's "Set up a position" panel: a game started from any position written in the notation
``adjutant setup`` takes (adjutant.setup), filled from the phase shown by "Start a new game from here";
and "Report this adjudication", the phase shown as a DATC-style case text (adjutant.casetext).

What the player types is data: problems are listed as text, and a position refused leaves the game in
hand as it is."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import js
from adjutant import AdjutantError, load_variant
from adjutant.casetext import case_text
from adjutant.errors import SetupError
from adjutant.setup import read_settings, read_setup_text, setup_text

from . import sealed
from .session import Session

if TYPE_CHECKING:
    from .app import App


def _el(name: str) -> Any:
    return js.document.getElementById(name)


class SetupPanel:
    """The panel's buttons, wired once the page's Python is ready (:meth:`wire`)."""

    def __init__(self, app: App) -> None:
        self.app = app

    def wire(self) -> None:
        for name, handler in (
            ("setup-from-here", self.on_from_here),
            ("setup-start", self.on_start),
            ("report-case", self.on_report),
        ):
            self.app.on(_el(name), "click", handler)
            _el(name).disabled = False

    def on_from_here(self, event: Any = None) -> None:
        """Fill the position from the phase shown, to change and start from."""
        session = self.app.session
        if session is None:
            return
        game = session.game
        position = game.position_at(session.view)
        _el("setup-text").value = f"adjutant setup {game.variant.id}\n" + setup_text(position, game.variant)
        self._problems([])
        _el("setup-text").focus()

    def on_start(self, event: Any = None) -> None:
        text = str(_el("setup-text").value)
        try:
            variant_id = read_settings(text).get("variant") or str(_el("variant-select").value)
            variant = load_variant(variant_id)
            if sealed.variant_has_secrets(variant):
                raise SetupError([f"{variant.name} keeps secrets: set its position up with adjutant setup on the "
                                  "command line, and open the file"])
            game = read_setup_text(variant, text)
        except SetupError as e:
            self._problems(list(e.problems))
            return
        except AdjutantError as e:
            self._problems([str(e)])
            return
        if not self.app.may_replace():
            return
        self._problems([])
        asyncio.ensure_future(self._start(Session(game)))

    async def _start(self, session: Session) -> None:
        app = self.app
        app.replacing()
        await app.show(session)
        app.clear_message()
        app.changed()
        app.render()

    def _problems(self, problems: list[str]) -> None:
        listed = _el("setup-problems")
        listed.replaceChildren()
        for problem in problems:
            item = js.document.createElement("li")
            item.textContent = problem
            listed.appendChild(item)

    def on_report(self, event: Any = None) -> None:
        """The phase whose results are shown, as a case text to copy."""
        session = self.app.session
        box = _el("case-text")
        if session is None:
            return
        index = session.shown_record()
        if index is None or session.game.history[index].skipped:
            box.hidden = True
            self.app.message("No phase is adjudicated here yet: step to a phase after one to report it.", "info")
            return
        if self.app.role and self.app.role != sealed.GM and session.game.rules.keeps_secrets:
            self.app.message("Only the game master reports an adjudication of a game with secrets.", "info")
            return
        text = case_text(session.game, index)
        box.value = text
        box.hidden = False
        self.app.copy(text, "The case")
