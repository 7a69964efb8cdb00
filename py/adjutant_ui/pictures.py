"""Pictures of the board in the page: "Download the board" for the phase shown, as SVG or PNG (drawn in
the browser, offline: web/page.js rasterises the SVG on a canvas), shared through the share sheet where
the browser has one. The picture is :func:`adjutant.pictures.drawing.board_svg` of what the board shows
(:func:`page_scene`, which the board itself draws), over the map as the site serves it.

A game with secrets: the picture is the players' (no site, no strength not yet revealed) unless the game
master asks for theirs, whose title says it holds the secrets; a player's view draws no strengths at all
(the power's own are its secret).
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace
from typing import Any

import js
from adjutant.group_play import cluster_views
from adjutant.pictures.drawing import Drawing, board_svg, picture_lines, picture_title
from adjutant.pictures.scene import Scene

from . import sealed
from .session import Session

#: the picture sizes offered: the width in pixels of a PNG (0: the SVG), by the choice's value
SIZES = {"png-1600": 1600, "png-3200": 3200, "svg": 0}


def page_scene(session: Session, show_results: bool, chosen: str | None = None) -> Scene:
    """What the page's board draws for ``session``'s shown phase: its orders, the results of the phase that
    made it if ``show_results`` (the adjustments' build places of ``chosen``, a power, if given), and what
    the viewer may see of a game's secrets (the strengths only at the current phase)."""
    game = session.game
    secret = sealed.has_secrets(game)
    return Scene(
        session.shown_position(),
        session.shapes(),
        session.last_results() if show_results else [],
        session.changed_centres() if show_results else {},
        session.retreat_choices(),
        session.phase_marks(chosen) if show_results else None,
        sealed.sites_of(game) if secret else {},
        sealed.strengths_of(game) if secret and session.at_current else {},
    )


def game_masters(game: Any) -> bool:
    """Whether ``game`` is a game master's game with secrets (the only view that knows the sites)."""
    return sealed.has_secrets(game) and cluster_views.picture_marks(game)[0] != {}


def picture(session: Session, drawing: Drawing, map_svg: str, text: bool = True, secrets: bool = False,
            name: str = "", view: int | None = None) -> str:
    """The SVG picture of phase ``view`` (None: the one ``session`` shows), over ``map_svg``: its orders and
    the results of the phase that made it, written below too if ``text``. A game master's game with
    secrets is drawn as the players see it unless ``secrets`` (then its title says so); a player's view
    with no strength."""
    game = session.game
    view = session.view if view is None else view
    gm = game_masters(game)
    if gm and not secrets:
        game = cluster_views.for_players(game)
    shown = session
    if game is not session.game or view != session.view:
        shown = Session(game, readonly=True)
        shown.step(to=view)
    drawn = page_scene(shown, True)
    if sealed.has_secrets(game):
        sites, strengths = cluster_views.picture_marks(game, view) if gm else ({}, {})
        drawn = replace(drawn, sites=sites, strengths=strengths)
    return board_svg(map_svg, drawing, drawn, picture_title(game, view, name, gm and secrets),
                     picture_lines(game, view) if text else [])


def file_name(session: Session, kind: str, view: int | None = None) -> str:
    """The picture's file name: the variant, the phase (``view``; None: the one shown), the kind ("svg", "png")."""
    phase = str(session.game.position_at(session.view if view is None else view).phase)
    return re.sub(r"[^A-Za-z0-9_.-]", "-", f"adjutant-{session.game.variant.id}-{phase}.{kind}")


class Pictures:
    """The "Download the board" dialog of ``app`` (adjutant_ui.app.App)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.busy = False
        #: the phase the dialog makes a picture of (None: the one shown)
        self.view: int | None = None

    def install(self) -> None:
        """Listen to the dialog's buttons (once, when the page starts)."""
        app = self.app
        app.on(_id("picture-open"), "click", self.on_open)
        # a group game's message to players: the picture of the new position, to send beside it
        app.on(_id("message-picture"), "click", lambda e: self.on_open(current=True))
        app.on(_id("picture-download"), "click", lambda e: asyncio.ensure_future(self.deliver(share=False)))
        app.on(_id("picture-share"), "click", lambda e: asyncio.ensure_future(self.deliver(share=True)))

    def on_open(self, event: Any = None, current: bool = False) -> None:
        """Open the dialog for the phase shown (``current``: the game's current phase)."""
        session = self.app.session
        if session is None or self.app.board is None:
            return
        game = session.game
        self.view = len(game.history) if current else None
        position = game.position_at(self.view if self.view is not None else session.view)
        _id("picture-secrets-label").hidden = not game_masters(game)
        _id("picture-secrets").checked = False
        _id("picture-share").hidden = not bool(js.window.adjutantPage.canShareFiles())
        _id("picture-of").textContent = f"{game.variant.name}, {position.phase.title} ({position.phase})"
        _id("picture-status").textContent = ""
        _id("picture-dialog").showModal()

    def choice(self) -> str:
        chosen = js.document.querySelector('input[name="picture-format"]:checked')
        value = str(getattr(chosen, "value", "") or "png-1600")
        return value if value in SIZES else "png-1600"

    async def deliver(self, share: bool) -> None:
        """Make the chosen picture and download it (or hand it to the share sheet)."""
        session, board = self.app.session, self.app.board
        if session is None or board is None or self.busy:
            return
        self.busy = True
        status = _id("picture-status")
        try:
            map_svg = str(js.window.adjutantShell.mapText or "")
            text = picture(session, board.drawing, map_svg, bool(_id("picture-text").checked),
                           bool(_id("picture-secrets").checked), view=self.view)
            width = SIZES[self.choice()]
            kind = "png" if width else "svg"
            status.textContent = "Drawing the picture…"
            page = js.window.adjutantPage
            blob = await page.rasterise(text, width) if width else page.svgBlob(text)
            name = file_name(session, kind, self.view)
            if share:
                await page.shareFile(blob, name, str(_id("picture-of").textContent))
                status.textContent = "Shared."
            else:
                page.saveBlob(blob, name)
                status.textContent = f"Downloaded {name}."
            js.document.documentElement.dataset.pictureMade = name
        except Exception as error:  # noqa: BLE001 - said in the dialog: a picture failed, nothing is lost
            js.console.warn(f"Adjutant could not make a picture of the board: {error!r}")
            message = str(getattr(error, "message", "") or error)
            status.textContent = "Cancelled." if "AbortError" in message or "abort" in message.lower() else \
                f"The picture could not be made: {message}"
        finally:
            self.busy = False


def _id(name: str) -> Any:
    return js.document.getElementById(name)
