"""Cluster Diplomacy as played: a new game, nominations, and the game's secrets kept apart.

The game master's game (:func:`new_game`) holds every secret. What the rules report to everyone is its
*public* data (:func:`public_data`); the secrets are its *parts* (:func:`secret_parts`): the game master's
(everything, to restore the game exactly) and each power's own. :func:`join_parts` puts them together
again: with the game master's part, the game itself; with a power's, that power's view, for display only.
The rules themselves are in :mod:`adjutant.variants.cluster`; the decisions in ``maps/cluster.md``.

>>> game = new_game(seed=1901)
>>> game.nominate("france", 3, "par")
>>> game.nominate("france", 2, None)
>>> _ = game.add_orders("France: A Par - Bur")
>>> _ = game.adjudicate()
>>> public = public_data(game)
>>> "par" in str(public["cluster"]), "1901" in str(public["cluster"])
(False, False)
>>> parts = secret_parts(game)
>>> sorted(parts)[:3]
['austria', 'england', 'france']
>>> from adjutant.formats.gamefile import dumps
>>> dumps(join_parts(public, [parts["gm"]])) == dumps(game)
True
>>> join_parts(public, [parts["france"]]).position.variant_state.auras["bur"].level
3
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from ..adjudication.orders import format_order
from ..errors import AdjutantError, GameFileError
from ..formats import gamefile
from ..formats.gamefile import view_from_data, view_to_data
from ..game import Game, PhaseRecord, Position, Result
from ..variants import cluster as cluster_rules
from ..variants.cluster import (
    GM,
    PUBLIC,
    ClusterState,
    check_sites,
    cluster_state,
    country_of,
    distance,
    mattermission_targets,
    neighbours,
    place_sites,
    state_from_data,
    state_to_data,
)
from ..variants.cluster_orders import Nominate

VARIANT = "cluster"
#: the key of the game master's part in :func:`secret_parts`
GM_PART = GM


def new_game(seed: int | None = None, variant: str = VARIANT) -> Game:
    """A new game of Cluster Diplomacy; ``seed`` draws the Sites of the Ancients (a random one if None)
    and is kept in the game, secret."""
    game = Game.new(variant, seed=seed)
    if cluster_state(game.position.variant_state) is None:
        raise AdjutantError(f"{game.variant.name} is not a game of Cluster Diplomacy")
    return game


def _state(game: Game) -> ClusterState:
    state = cluster_state(game.position.variant_state)
    if state is None:
        raise AdjutantError(f"{game.variant.name} has no Cluster state")
    return state


def pending_nominations(game: Game, power: str | None = None) -> list[Nominate]:
    """The nominations made this phase (of one power, or all), not yet adjudicated."""
    given = sorted(game.all_orders().items())
    return [o for p, os in given if power in (None, p) for o in os if isinstance(o, Nominate)]


def nominations_due(game: Game) -> dict[str, list[int]]:
    """Power -> the levels it may nominate now and has not: before the first movement phase is
    adjudicated, each level not yet named or left to a later build; later, a level left over while the
    power has a unit built last winter to give it to."""
    if game.phase.kind != "movement" or game.over:
        return {}
    return cluster_rules.nominations_due(game.variant, _state(game), pending_nominations(game))


def known_strengths(game: Game) -> dict[str, int]:
    """Unit strengths other than one that this game (or view) knows, by province."""
    return _state(game).strengths()


def picture_marks(game: Game, view: int | None = None) -> tuple[dict[str, int], dict[str, str]]:
    """What a picture of position ``view`` (an index into the history; None: the current position) of
    this game or view may draw of the game's secrets: the Sites of the Ancients (province -> level), in the
    game master's game only, and the units' strengths other than one that the game or view knows
    (province -> "3", "2": every one in the game master's, a power's own and the revealed ones in its
    view, the revealed ones in public). Nothing for a game without Cluster's state."""
    position = game.position if view is None else game.position_at(view)
    state = cluster_state(position.variant_state)
    if state is None:
        return {}, {}
    sites = {str(p): int(level) for p, level in state.sites.items()} if state.view == GM else {}
    return sites, {str(p): str(level) for p, level in state.strengths().items()}


# --- the views ------------------------------------------------------------------------------------

_SECRET_REASONS = ("transfer", "illegal: its aura is away")


def _public_result(r: Result) -> Result:
    """Rule 7: Research and Transfer are reported as stands (research results to all), Mattermission as a
    move; what only the game master knows is left out."""
    words = r.order.split()
    order = r.order
    reason, success = r.reason, r.success
    cut = reason.find("dislodged by ")
    tail = reason[cut:] if cut >= 0 else ""
    if len(words) >= 3 and words[2] in ("TRA", "RES"):
        order = f"{words[0]} {words[1]} H"
    elif len(words) >= 4 and words[2] == "MAT":
        order = f"{words[0]} {words[1]} - {words[3]}"
    if reason.startswith(_SECRET_REASONS):
        order = f"{words[0]} {words[1]} H" if len(words) >= 2 else order
        reason, success = tail, not r.dislodged
    elif reason.startswith("mattermission fails"):
        reason = "the mattermission fails" + (f", {tail}" if tail else "")
    elif reason.startswith("destroyed: ") and "aura" in reason:
        reason = "destroyed"
    return r._replace(order=order, reason=reason, success=success)


def _public_state(state: ClusterState) -> ClusterState:
    return ClusterState(
        state.game,
        None,
        auras={p: a for p, a in state.auras.items() if a.revealed},
        retreating={p: a for p, a in state.retreating.items() if a.revealed},
        research=state.research,
        started=state.started,
        view=PUBLIC,
    )


def _public_position(p: Position) -> Position:
    state = cluster_state(p.variant_state)
    assert state is not None
    return replace(p, variant_state=_public_state(state))


def public_view(game: Game) -> Game:
    """The game as every player sees it (rule 7), for display only."""
    if _state(game).view != GM:
        raise AdjutantError("only the game master's game has a public view to make")
    history = []
    for record in game.history:
        results = [_public_result(r) for r in record.results]
        orders: dict[str, list[str]] = {}
        for r in results:
            if r.order:
                orders.setdefault(r.power, []).append(r.order)
        history.append(PhaseRecord(record.phase, dict(sorted(orders.items())), results, record.skipped))
    return Game(
        game.variant,
        _public_position(game.position),
        history,
        game.winner,
        game.draw,
        [_public_position(p) for p in game.snapshots],
        computer=dict(game.computer),
    )


def for_players(game: Game) -> Game:
    """What may be sent to the players: a game master's game with secrets becomes its public view
    (:func:`public_view`); any other game is already public and is returned as it is."""
    state = cluster_state(game.position.variant_state)
    return public_view(game) if state is not None and state.view == GM else game


def players_view(game: Game, powers: Iterable[str]) -> Game:
    """What players of ``powers`` see of a game master's ``game``, together: its public view, history
    included, with those powers' own secrets (none: the public view). For display and for those powers'
    orders (one screen shared by the people playing them: a Cluster game against the computer).

    >>> game = new_game(seed=1901)
    >>> view = players_view(game, ["france", "italy"])
    >>> view.position.variant_state.view, len(view.history)
    ('france,italy', 0)
    """
    parts = secret_parts(game)
    return join_parts(public_data(game), [parts[p] for p in powers])


def public_data(game: Game) -> dict[str, Any]:
    """The game file of the public view: positions (revealed multiples marked), results as rule 7 reports
    them, research results, centres; no site, seed, hidden strength, nomination, knowledge or transfer.
    :func:`adjutant.formats.gamefile.from_data` (or :func:`join_parts` with no parts) reads it back, for display."""
    return view_to_data(public_view(game))


def _power_secrets(game: Game, power: str) -> dict[str, Any]:
    state = _state(game)
    units = game.units
    dislodged = game.dislodged_units()
    own = ClusterState(
        state.game,
        None,
        auras={p: a for p, a in state.auras.items() if p in units and units[p].power == power},
        retreating={p: a for p, a in state.retreating.items() if p in dislodged and dislodged[p].power == power},
        deferred={power: state.deferred[power]} if power in state.deferred else {},
        knowledge={power: state.knowledge[power]} if power in state.knowledge else {},
        found={power: state.found[power]} if power in state.found else {},
        transferees=tuple(t for t in state.transferees if t.power == power),
        fresh={power: state.fresh[power]} if power in state.fresh else {},
        started=state.started,
        view=power,
    )
    data = state_to_data(own)
    nominations = [format_order(n) for n in pending_nominations(game, power)]
    if nominations:
        data["nominations"] = nominations
    return data


def secret_parts(game: Game) -> dict[str, dict[str, Any]]:
    """The secrets, by holder: ``"gm"`` restores the whole game (:func:`join_parts`); each power's holds
    only that power's own (its multiple units, nominations, knowledge, sites found, transfers)."""
    state = _state(game)
    if state.view != GM:
        raise AdjutantError("only the game master's game has secrets to part")
    stamp = {"game": state.game, "phase": str(game.phase), "records": len(game.history)}
    parts = {power: {**stamp, "holder": power, "secrets": _power_secrets(game, power)} for power in game.variant.powers}
    parts[GM_PART] = {**stamp, "holder": GM_PART, "game_file": gamefile.to_data(game)}
    return dict(sorted(parts.items()))


def join_parts(public: Any, parts: Mapping[str, Any] | Iterable[Any] = ()) -> Game:
    """The game from its public data and secret parts: with the game master's part, the game itself
    (exactly); with powers' parts, the public view with those powers' own secrets (for display only); with
    none, the public view. ``parts`` is a list of parts or a mapping of holder -> part. Raises
    :class:`GameFileError` on a part of another game or phase, or anything malformed."""
    view = view_from_data(public)
    state = _state(view)
    if state.view != PUBLIC:
        raise GameFileError("the public part is not a public view")
    items: list[tuple[str | None, Any]] = (
        list(parts.items()) if isinstance(parts, Mapping) else [(None, p) for p in parts]
    )
    holders = []
    for key, part in items:
        _check(isinstance(part, dict), "a secret part must be an object")
        holder = part.get("holder")
        _check(isinstance(holder, str) and key in (None, holder), f"the part named {key!r} is not that holder's")
        _check(part.get("game") == state.game, f"the {holder} part is from another game")
        _check(
            part.get("phase") == str(view.phase) and part.get("records") == len(view.history),
            f"the {holder} part is from {part.get('phase')}, not from this game's {view.phase}",
        )
        holders.append((holder, part))
    gm = [part for holder, part in holders if holder == GM_PART]
    if gm:
        game = gamefile.from_data(gm[0].get("game_file"))
        if _state(game).view != GM:
            raise GameFileError("the game master's part does not hold the game")
        mine = json.dumps(public_data(game), sort_keys=True)
        if mine != json.dumps(public, sort_keys=True):
            raise GameFileError("the game master's part is not this public game's")
        return game
    for holder, part in holders:
        _check(holder in view.variant.powers, f"{holder!r} is not a power of {view.variant.name}")
        view = _overlay(view, holder, part.get("secrets"))
    return view


def _overlay(view: Game, power: str, secrets: Any) -> Game:
    _check(isinstance(secrets, dict), f"the {power} part holds no secrets")
    own = state_from_data(secrets)
    _check(own.view == power, f"the {power} part holds another power's secrets")
    state = _state(view)
    for prov, _ in own.auras.items():
        _check(prov in view.units and view.units[prov].power == power, f"the {power} part names a unit not its own")
    joined = replace(
        state,
        auras=dict(sorted({**state.auras, **own.auras}.items())),
        retreating=dict(sorted({**state.retreating, **own.retreating}.items())),
        deferred={**state.deferred, **own.deferred},
        knowledge={**state.knowledge, **own.knowledge},
        found={**state.found, **own.found},
        transferees=state.transferees + own.transferees,
        fresh={**state.fresh, **own.fresh},
        view=power if state.view == PUBLIC else f"{state.view},{power}",
    )
    view.position = replace(view.position, variant_state=joined)
    for text in secrets.get("nominations", []):
        _check(isinstance(text, str), "a nomination must be text")
        try:
            order = view.parse(text, power)
        except AdjutantError as e:
            raise GameFileError(f"the {power} part: {e}") from None
        view.add_order(order)
    return view


# --- the views' file form -----------------------------------------------------------------------------


def _check(cond: bool, message: str) -> None:
    if not cond:
        raise GameFileError(message)


__all__ = [
    "GM_PART",
    "ClusterState",
    "check_sites",
    "country_of",
    "distance",
    "for_players",
    "join_parts",
    "known_strengths",
    "mattermission_targets",
    "neighbours",
    "new_game",
    "nominations_due",
    "pending_nominations",
    "picture_marks",
    "place_sites",
    "players_view",
    "public_data",
    "public_view",
    "secret_parts",
]
