"""The page's Cluster group games: the secrets a Cluster game keeps, on top of a group game.

A Cluster group game is a group game (:mod:`adjutant_ui.group`) whose links carry a public part and sealed
parts instead of the game (:mod:`adjutant.group_play.cluster_links`; design in docs/group-play.md). This module is
what the group controller calls for it:

* the game master starts it with the passphrase dialog (the game master's and one per power): the game
  master's passphrase seals the private key as in any group game, each power's seals that power's part;
* after every change the game master's page seals the parts again (:func:`reseal`): each power's part
  under its passphrase (web/seal.js), the whole game under a key made from the game master's private
  key (web/group.js sealPart);
* a player opens the players' link (the public view), unlocks their own part with their passphrase
  (:func:`unlock`) and drafts orders in that view; a code is bound to the link's public part; the
  player's drafts are kept in this browser under that power and public part, and put back only when the
  passphrase opens the part again (:meth:`GroupController.restore_draft`);
* the game master's link opens as the public view until the game master's passphrase unlocks the key,
  which opens the game (:func:`open_gm_part`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import js
from adjutant import AdjutantError, GameFileError
from adjutant.game import Game
from adjutant.group_play import cluster_links as cg
from adjutant.group_play import cluster_views
from adjutant.group_play import codes as group
from pyodide.ffi import jsnull, to_js

from . import sealed
from .dom import js_bytes
from .group_state import ClusterSide, GroupState
from .page import GroupControl
from .session import Session


def from_link(link: cg.ClusterLink) -> ClusterSide:
    return ClusterSide(link.variant, link.public_text, link.public, dict(link.seals), link.gm_part)


def fragment(state: GroupState) -> str:
    """The group game's own link as this page holds it (the last one sealed)."""
    side = state.cluster
    assert side is not None
    if state.is_gm:
        return cg.gm_link(side.variant, state.public_key, state.sealed_private, state.intake, side.public_text,
                          side.gm_part)
    return cg.players_link(side.variant, state.public_key, side.public_text, side.seals, state.power)


def players_link(state: GroupState) -> str:
    side = state.cluster
    assert side is not None
    return cg.players_link(side.variant, state.public_key, side.public_text, side.seals)


def code_digest(state: GroupState) -> bytes:
    """What a player's code binds: the digest of the public part the player's link holds."""
    side = state.cluster
    assert side is not None
    return cg.phase_digest(side.public, state.public_key)


class Cluster:
    """A Cluster group game as the group controller asks it (:class:`adjutant_ui.group_state.GroupKind`):
    its links carry a public part and sealed parts; a code binds the public part; the view is the public
    one until a passphrase opens a part; the game master's game is sealed again after every change."""

    chooses_power = False  # a Cluster player's passphrase says which power

    def __init__(self, ctrl: GroupControl) -> None:
        self.ctrl = ctrl

    @staticmethod
    def _side(state: GroupState) -> ClusterSide:
        side = state.cluster
        assert side is not None
        return side

    def opened(self, state: GroupState) -> bool:
        return self._side(state).opened

    def phase_tag(self, state: GroupState) -> int | str:
        return self._side(state).public_text

    def phase_digest(self, state: GroupState) -> bytes:
        return code_digest(state)

    def code_binding(self, state: GroupState) -> bytes | None:
        return code_digest(state)

    def intake_digest(self, state: GroupState) -> bytes:
        # (a Cluster game's codes are bound to its public part, not to a public game)
        return cg.game_digest(state.game, state.public_key)

    def keep_link(self, state: GroupState, replace_hash: bool) -> None:
        changed(self.ctrl, state, replace_hash)

    def players_link(self, state: GroupState) -> str:
        return players_link(state)

    def public_fragment(self, state: GroupState) -> str | None:
        try:
            return players_link(state)
        except AdjutantError:  # the players' parts are not all sealed yet (before unlocking)
            return None

    def when_sealed(self, state: GroupState, then: Callable[[], None]) -> None:
        asyncio.ensure_future(self._after_seal(state, then))

    @staticmethod
    async def _after_seal(state: GroupState, then: Callable[[], None]) -> None:
        await settled(state)
        then()

    async def open_game(self, state: GroupState, key: Any, phrase: str) -> str:
        if self._side(state).opened:
            return ""
        return await open_gm_part(self.ctrl, state, key, phrase)

    def role_text(self, state: GroupState) -> str:
        return role_text(state, state.game)

    def set_passphrases(self, state: GroupState, phrases: dict[str, str]) -> bool:
        asyncio.ensure_future(set_passphrases(self.ctrl, phrases))
        return True

    async def unlock(self, state: GroupState, phrase: str) -> bool:
        await unlock(self.ctrl, phrase)
        return True


async def derive_keys(phrases: dict[str, str]) -> dict[str, Any]:
    """One PBKDF2 key per power's passphrase (web/seal.js), all at once."""
    names = list(phrases)
    handles = await asyncio.gather(*(js.window.adjutantSeal.newKey(phrases[n]) for n in names))
    return dict(zip(names, handles, strict=True))


MAKING_KEYS = (
    "Making the game master's keys and the players' keys from the passphrases… The game shown takes no orders "
    "meanwhile: the new game replaces it in a few seconds."
)


# --- the game master ---------------------------------------------------------------------------------
async def start(ctrl: GroupControl, variant_id: str, phrases: dict[str, str]) -> None:
    """A new Cluster group game: the game master's key pair sealed under the game master's passphrase,
    a key per power's passphrase, the sites drawn; then the first links are sealed."""
    app = ctrl.app
    shown = app.session  # the game being started, once shown: what is said is said only while it is in hand
    try:
        with ctrl.busy(MAKING_KEYS):
            powers = {p: v for p, v in phrases.items() if p != sealed.GM}
            made, keys = await asyncio.gather(js.window.adjutantGroup.newGame(phrases[sealed.GM]),
                                              derive_keys(powers))
            game = cluster_views.new_game(int(js.window.adjutantSeal.randomSeed()), variant_id)
            state = GroupState(Session(game), js_bytes(made.publicKey), str(made.sealedPrivate), made.privateKey,
                               kind=Cluster(ctrl))
            state.intake = group.Intake(0)
            state.cluster = ClusterSide(game.variant.id, "", {}, passphrases=powers, keys=keys, opened=True)
            ctrl.pending = state
            await app.show(state.session, role=sealed.GM, passphrases={sealed.GM: phrases[sealed.GM], **powers})
            shown = state.session
        await reseal(ctrl, state)
    except Exception as error:  # noqa: BLE001 - say why; the game in hand stays
        if app.session is shown:
            app.message(f"The group game could not be started: {error}")
        return
    if app.session is not shown:
        return
    app.clear_message()
    app.render()
    ctrl.lead_to_players_link(
        "Cluster group game started. Send every player the players' link and their own passphrase "
        "(Passphrases…, under Secrets); they send you sealed orders codes, which you paste below. Keep your "
        "own link (the address bar) and your passphrase: they are the only way back to this game."
    )


def changed(ctrl: GroupControl, state: GroupState, replace_hash: bool) -> None:
    """The game master's game changed: seal it again (the address bar follows once sealed); any other
    view keeps the link it holds."""
    side = state.cluster
    assert side is not None
    if state.is_gm and side.opened:
        side.sealing = asyncio.ensure_future(_reseal_or_say(ctrl, state, replace_hash))
        return
    ctrl.app.saving.remember(fragment(state), replace_hash)


async def _reseal_or_say(ctrl: GroupControl, state: GroupState, replace_hash: bool) -> None:
    """Seal ``state``'s game, or say why it could not be, unless another game is in hand by then."""
    try:
        await reseal(ctrl, state, replace_hash)
    except Exception as error:  # noqa: BLE001 - say why; the game in hand stays
        if ctrl.state is state:
            ctrl.app.message(f"The link could not be sealed: {error}")


async def reseal(ctrl: GroupControl, state: GroupState, replace_hash: bool = True) -> None:
    """Seal the game master's game into the players' parts and the game master's part; the address bar
    and the autosave then hold the game master's link (never the game in the clear)."""
    side = state.cluster
    assert side is not None and state.is_gm
    if side.keys_task is not None:
        await side.keys_task
    side.seal_count += 1
    count, game = side.seal_count, state.game
    missing = sorted(set(game.variant.powers) - set(side.keys))
    if missing:
        raise AdjutantError(f"no passphrase for {', '.join(missing)}: set the passphrases again")
    public = cluster_views.public_data(game)
    text = cg.public_text(game)
    plain = sealed.plaintexts(game, {})
    seal = js.window.adjutantSeal.seal
    powers = list(game.variant.powers)
    blobs = await asyncio.gather(*(seal(side.keys[p], p, to_js(plain[p])) for p in powers))
    gm_part = await js.window.adjutantGroup.sealPart(
        state.private_key,
        to_js(cg.gm_header(state.public_key)),
        to_js(cg.gm_additional_data(state.public_key, public)),
        to_js(cg.gm_plaintext(game, side.passphrases)),
    )
    if count != side.seal_count or ctrl.state is not state:  # overtaken by a later change
        return
    side.public_text, side.public = text, public
    side.seals = {p: str(b) for p, b in zip(powers, blobs, strict=True)}
    side.gm_part = str(gm_part)
    ctrl.app.saving.remember(fragment(state), replace_hash)


async def settled(state: GroupState) -> None:
    """Wait for the latest reseal (before a link made from the parts is copied)."""
    side = state.cluster
    if side is not None and side.sealing is not None:
        await side.sealing


async def open_gm_part(ctrl: GroupControl, state: GroupState, key: Any, phrase: str) -> str:
    """The game master's key is unlocked: open the game master's part (refused unless only the game master
    could have sealed it, or it is an earlier Adjutant's beside that Adjutant's key) and show the game
    itself. Returns what to say beside "Unlocked" ("", or :data:`LEGACY_PART`)."""
    side = state.cluster
    assert side is not None
    form = cg.gm_part_format(side.gm_part, state.public_key)
    info = js.window.adjutantGroup.keyInfo(key)
    if form == cg.LEGACY_GM_PART_FORMAT and not info.legacy:
        # a key sealed by this Adjutant goes with a part only its holder can seal: one of the earlier
        # form, which anyone can seal to the public key, was put beside it by someone else
        raise GameFileError(FORGED_PART)
    ctrl.app.message("Opening the game (it is replayed from its orders)…", "info")
    data = to_js(group.unb64(side.gm_part, "the game master's part"))
    aad = to_js(cg.gm_additional_data(state.public_key, side.public, form))
    if form == cg.GM_PART_FORMAT:
        opened = await js.window.adjutantGroup.openPart(key, data, cg.GM_PART_HEADER, aad)
    else:
        opened = await js.window.adjutantGroup.openOrders(key, data, cg.GM_PART_HEADER, aad)
    if opened is None or opened is jsnull:
        raise GameFileError("the game master's part does not open: it was altered or is another game's")
    game, phrases = cg.read_gm_plaintext(js_bytes(opened), side.public)
    # an earlier Adjutant's link: from the next seal on, the key is sealed today's way and the part with it
    sealed_private = str(info.upgraded) if info.legacy else state.sealed_private
    new = replace(state, session=Session(game), private_key=key, sealed_private=sealed_private)
    new.intake = group.Intake.from_text(state.intake.to_text(), game)
    new.cluster = replace(side, passphrases=phrases, opened=True, keys={}, keys_task=None, sealing=None)
    new.cluster.keys_task = asyncio.ensure_future(_keys_into(new.cluster, phrases))
    ctrl.pending = new
    await ctrl.app.show(new.session, role=sealed.GM, passphrases={sealed.GM: phrase, **phrases})
    if not info.legacy:
        return ""
    new.cluster.sealing = asyncio.ensure_future(_reseal_or_say(ctrl, new, True))  # the link in today's form
    return LEGACY_PART


#: a game master's part of the earlier form beside a key sealed by this Adjutant
FORGED_PART = (
    "the game master's part is of the form an earlier Adjutant made, which anyone who has the players' link "
    "could make, yet the key beside it was sealed by this one: someone other than the game master put it "
    "in this link. Open the game master's link you kept yourself"
)
#: said once a game master's link of an earlier Adjutant is opened
LEGACY_PART = (
    "This game master's link was made by an earlier Adjutant, whose game master's part anyone with the "
    "players' link could have made: check that the game shown (its sites, passphrases and orders) is yours. "
    "Its next link is sealed so that only you can make it."
)


async def _keys_into(side: ClusterSide, phrases: dict[str, str]) -> None:
    side.keys.update(await derive_keys(phrases))


async def set_passphrases(ctrl: GroupControl, phrases: dict[str, str]) -> None:
    """The game master changed the players' passphrases: their parts are sealed under the new ones."""
    state = ctrl.state
    if state is None or state.cluster is None or not state.is_gm:
        return
    side = state.cluster
    powers = {p: v for p, v in phrases.items() if p in state.game.variant.powers}
    side.keys_task = None
    side.keys = await derive_keys(powers)
    side.passphrases = powers
    ctrl.app.sealing.passphrases = {**ctrl.app.sealing.passphrases, **powers}
    await reseal(ctrl, state)


# --- a player ----------------------------------------------------------------------------------------
async def unseal_any(phrase: str, parts: Any) -> Any:
    """The part of ``parts`` (a sealed link's, as web/seal.js's unsealAny takes them) that ``phrase`` opens,
    read each way it may have been meant (sealed.passphrase_readings): {name, plaintext, handle,
    passphrase: the reading that opened it}, or None."""
    for reading in sealed.passphrase_readings(phrase):
        opened = await js.window.adjutantSeal.unsealAny(reading, parts)
        if opened is not None and opened is not jsnull:
            opened.passphrase = reading
            return opened
    return None


async def unlock(ctrl: GroupControl, phrase: str) -> None:
    """The Secrets panel's passphrase: a player's opens their power's part; the game master's (on the
    game master's link) unlocks the key and the game."""
    state, app = ctrl.state, ctrl.app
    assert state is not None and state.cluster is not None
    if state.is_gm:
        await ctrl.intake.unlock(phrase)
        return
    side = state.cluster
    parts = to_js(side.seals, dict_converter=js.Object.fromEntries)
    try:
        opened = await unseal_any(phrase, parts)
        if opened is None:
            app.sealing.unlock_refused(f"{sealed.WRONG_PASSPHRASE.capitalize()}. Nothing has changed.")
            return
        name = str(opened.name)
        part = sealed.open_part(side.public, name, js_bytes(opened.plaintext))
        # (the session is the player's: the map offers their own units only, as in any group game)
        new = replace(state, session=Session(part.game, player=name), power=name)
        new.cluster = replace(side, opened=True)
        ctrl.pending = new
        await app.show(new.session, role=name, link=side.sealed_link())
    except Exception as error:  # noqa: BLE001 - a damaged part: say what, keep the game in hand
        app.message(f"The link's secrets could not be opened: {error}. Nothing has changed.")
        return
    ctrl.remember_power(name)
    # the orders and code this browser kept for this power at this phase (never before the passphrase),
    # whether kept before a reload or earlier in this page
    ctrl.restore_draft(new, "in this browser")
    app.sealing.unlock_done()
    power = part.game.variant.powers[name].name
    app.message(f"Unlocked the secrets of {power}: {_next_step(part.game, name)}"
                + (f" {part.warning}" if part.warning else ""), "info")
    app.changed()
    app.render()


def _next_step(game: Game, power: str) -> str:
    """What the player of ``power`` does in this phase, said once their part is open: nominations,
    research, transfer and mattermission are a movement phase's; a retreat or adjustment phase asks only for
    retreats or builds and removals, and a power with none to give is told it has nothing to order."""
    kind, send = game.phase.kind, "then send them sealed to the game master."
    if kind == "movement":
        return f"draft your orders (nominations, research, transfer and mattermission too), {send}"
    if kind == "retreat":
        if not any(d.unit.power == power for d in game.position.dislodged):
            return "none of your units is dislodged: you have nothing to order in this phase."
        return f"retreat or disband your dislodged units, {send}"
    delta = game.adjustments().get(power, 0)
    if delta > 0:
        return f"build your new units (or leave builds unused), {send}"
    if delta < 0:
        return f"choose the units you remove, {send}"
    return "you have no builds or removals in this phase: nothing to order."


def role_text(state: GroupState, game: Game) -> str:
    """The group panel's line for a Cluster player."""
    side = state.cluster
    assert side is not None
    if side.opened and state.power:
        return (f"You play {game.variant.powers[state.power].name}: your secrets are shown. Draft your orders "
                "(click the map or type them), then send them sealed to the game master.")
    return ("Enter the passphrase the game master sent you (Secrets, above) to see your own secrets and draft "
            "your orders.")


__all__ = ["Cluster", "ClusterSide", "from_link", "start", "unlock"]
