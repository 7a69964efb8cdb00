"""Cluster Diplomacy as played: a new game, nominations, and the game's secrets kept apart.

The game master's game (:func:`new_game`) holds every secret. What the rules report to everyone is its
*public* data (:func:`public_data`); the secrets are its *parts* (:func:`secret_parts`): the game master's
(everything, to restore the game exactly) and each power's own. :func:`join_parts` puts them together
again: with the game master's part, the game itself; with a power's, that power's view, for display only.
The rules themselves are in :mod:`adjutant.ancients`; the decisions in ``maps/cluster.md``.

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
>>> from adjutant.gamefile import dumps
>>> dumps(join_parts(public, [parts["gm"]])) == dumps(game)
True
>>> join_parts(public, [parts["france"]]).position.cluster.auras["bur"].level
3
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from . import gamefile
from .ancients import (
    GM,
    PUBLIC,
    Aura,
    ClusterState,
    Transferee,
    check_sites,
    country_of,
    distance,
    mattermission_targets,
    neighbours,
    place_sites,
)
from .errors import AdjutantError, GameFileError
from .game import Game, PhaseRecord, Position, Result
from .kinds import unit_type_of
from .orders import Nominate, Unit, format_order
from .phases import Dislodgement, Phase
from .variant import Variant, load_variant, province_of

VARIANT = "cluster"
#: the key of the game master's part in :func:`secret_parts`
GM_PART = GM
_UNIT = re.compile(r"^([AF]) ([a-z0-9]+(?:/[a-z]{2})?)$")


def new_game(seed: int | None = None, variant: str = VARIANT) -> Game:
    """A new game of Cluster Diplomacy; ``seed`` draws the Sites of the Ancients (a random one if None)
    and is kept in the game, secret."""
    game = Game.new(variant, seed=seed)
    if game.position.cluster is None:
        raise AdjutantError(f"{game.variant.name} is not a game of Cluster Diplomacy")
    return game


def _state(game: Game) -> ClusterState:
    if game.position.cluster is None:
        raise AdjutantError(f"{game.variant.name} has no Cluster state")
    return game.position.cluster


def pending_nominations(game: Game, power: str | None = None) -> list[Nominate]:
    """The nominations made this phase (of one power, or all), not yet adjudicated."""
    given = sorted(game.all_orders().items())
    return [o for p, os in given if power in (None, p) for o in os if isinstance(o, Nominate)]


def nominations_due(game: Game) -> dict[str, list[int]]:
    """Power -> the levels it may nominate now and has not: before the first movement phase is
    adjudicated, each level not yet named or left to a later build; later, a level left over while the
    power has a unit built last winter to give it to."""
    from .ancients import nominations_due as due

    if game.phase.kind != "movement" or game.over:
        return {}
    return due(game.variant, _state(game), pending_nominations(game))


def known_strengths(game: Game) -> dict[str, int]:
    """Unit strengths other than one that this game (or view) knows, by province."""
    return _state(game).strengths()


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
    assert p.cluster is not None
    return replace(p, cluster=_public_state(p.cluster))


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
    )


def for_players(game: Game) -> Game:
    """What may be sent to the players: a game master's game with secrets becomes its public view
    (:func:`public_view`); any other game is already public and is returned as it is."""
    state = game.position.cluster
    return public_view(game) if state is not None and state.view == GM else game


def public_data(game: Game) -> dict[str, Any]:
    """The game file of the public view: positions (revealed multiples marked), results as rule 7 reports
    them, research results, centres; no site, seed, hidden strength, nomination, knowledge or transfer.
    :func:`adjutant.gamefile.from_data` (or :func:`join_parts` with no parts) reads it back, for display."""
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
    view.position = replace(view.position, cluster=joined)
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


def _member(x: Any, names: Any) -> bool:
    """Whether ``x`` is one of ``names`` (a JSON value that is not text, say a list, is not)."""
    return isinstance(x, str) and x in names


def state_to_data(state: ClusterState) -> dict[str, Any]:
    """A view's Cluster state as JSON (never the sites or seed: only the game master's game has them,
    and its file keeps the seed)."""
    data: dict[str, Any] = {"game": state.game, "view": state.view, "started": state.started}
    if state.auras:
        data["auras"] = {p: [a.level, a.revealed] for p, a in state.auras.items()}
    if state.retreating:
        data["retreating"] = {p: [a.level, a.revealed] for p, a in state.retreating.items()}
    if state.research:
        data["research"] = [list(r) for r in state.research]
    if state.deferred:
        data["deferred"] = {p: list(ks) for p, ks in state.deferred.items()}
    if state.knowledge:
        data["knowledge"] = {p: list(ks) for p, ks in state.knowledge.items()}
    if state.found:
        data["found"] = {p: dict(f) for p, f in state.found.items()}
    if state.transferees:
        data["transferees"] = [
            [t.power, t.host, t.original, t.value, t.host_level, t.since, t.retreating] for t in state.transferees
        ]
    if state.fresh:
        data["fresh"] = {p: list(ps) for p, ps in state.fresh.items()}
    return data


def _int(x: Any, what: str) -> int:
    _check(type(x) is int and -100 < x < 100, f"{what} must be a small whole number")
    return int(x)


def _word(x: Any, what: str) -> str:
    _check(
        isinstance(x, str) and 0 < len(x) <= 40 and re.fullmatch(r"[a-z0-9_/,]+", x) is not None, f"{what} is malformed"
    )
    return str(x)


def _aura_map(x: Any, what: str) -> dict[str, Aura]:
    _check(isinstance(x, dict), f"{what} must be an object")
    out = {}
    for p, v in x.items():
        _check(isinstance(v, list) and len(v) == 2 and isinstance(v[1], bool), f"{what} is malformed")
        out[_word(p, what)] = Aura(_int(v[0], what), bool(v[1]))
    return out


def state_from_data(data: Any) -> ClusterState:
    _check(isinstance(data, dict), "the cluster section must be an object")
    try:
        game = _word(data.get("game"), "the game's id")
        view = _word(data.get("view"), "the view")
        _check(isinstance(data.get("started", False), bool), "'started' must be true or false")
        research = []
        for r in data.get("research", []):
            _check(isinstance(r, list) and len(r) == 3, "a research result is malformed")
            research.append(
                (str(Phase.parse(_word(r[0].lower(), "a phase"))), _word(r[1], "a province"), _int(r[2], "a level"))
            )
        transferees = []
        for t in data.get("transferees", []):
            _check(isinstance(t, list) and len(t) == 7 and isinstance(t[6], bool), "a transferee is malformed")
            original = None if t[2] is None else _word(t[2], "a province")
            transferees.append(
                Transferee(
                    _word(t[0], "a power"),
                    _word(t[1], "a province"),
                    original,
                    _int(t[3], "a value"),
                    _int(t[4], "a level"),
                    str(Phase.parse(_word(t[5].lower(), "a phase"))),
                    t[6],
                )
            )
        return ClusterState(
            game,
            None,
            auras=_aura_map(data.get("auras", {}), "auras"),
            retreating=_aura_map(data.get("retreating", {}), "retreating"),
            research=tuple(research),
            deferred={
                _word(p, "a power"): tuple(_int(k, "a level") for k in ks) for p, ks in data.get("deferred", {}).items()
            },
            knowledge={
                _word(p, "a power"): tuple(_word(k, "knowledge") for k in ks)
                for p, ks in data.get("knowledge", {}).items()
            },
            found={
                _word(p, "a power"): {_word(q, "a province"): _int(k, "a level") for q, k in f.items()}
                for p, f in data.get("found", {}).items()
            },
            transferees=tuple(transferees),
            fresh={
                _word(p, "a power"): tuple(_word(q, "a province") for q in ps)
                for p, ps in data.get("fresh", {}).items()
            },
            started=bool(data.get("started", False)),
            view=view,
        )
    except (AttributeError, TypeError, ValueError) as e:  # a list where an object belongs, and the like
        if isinstance(e, GameFileError):
            raise
        raise GameFileError(f"the cluster section is malformed ({str(e)[:100]})") from None


def view_to_data(game: Game) -> dict[str, Any]:
    """A view (public or a power's) as a game file: every position written out, since a view cannot be
    replayed (its hidden strengths are missing)."""
    state = _state(game)
    data: dict[str, Any] = {"format": gamefile.FORMAT, "version": 2, "variant": game.variant.id, "view": state.view}
    data.update(gamefile.position_data(game.position))
    data["cluster"] = state_to_data(state)
    data["history"] = [gamefile.record_data(r) for r in game.history]
    data["snapshots"] = [{**gamefile.position_data(p), "cluster": state_to_data(_state_of(p))} for p in game.snapshots]
    if game.winner:
        data["winner"] = game.winner
    if game.draw:
        data["draw"] = list(game.draw)
    return data


def _state_of(p: Position) -> ClusterState:
    assert p.cluster is not None
    return p.cluster


def view_from_data(data: Any) -> Game:
    """A view written by :func:`view_to_data`, for display: it is checked for form, not replayed."""
    _check(isinstance(data, dict), "a game file is a JSON object")
    _check(data.get("format") == gamefile.FORMAT, "this is not an Adjutant game file")
    _check(data.get("version") == 2, "a view of a game is a version 2 game file")
    try:
        variant = load_variant(str(data.get("variant")))
    except AdjutantError as e:
        raise GameFileError(f"the game's variant: {e}") from None
    _check(variant.cluster is not None, f"{variant.name} has no views: its game files hold the whole game")
    history_data = data.get("history", [])
    snapshots = data.get("snapshots", [])
    _check(isinstance(history_data, list) and isinstance(snapshots, list), "history and snapshots must be lists")
    _check(len(history_data) == len(snapshots), "a view needs one snapshot per history entry")
    _check(len(history_data) <= 2 * gamefile.MAX_PHASES, "the game is too long to read")
    position = _position(variant, data)
    state = _state_of(position)
    _check(state.view == data.get("view"), "the view does not match its cluster section")
    history = [_record(variant, rec) for rec in history_data]
    game = Game(variant, position, history, None, None, [_position(variant, s) for s in snapshots])
    if any(_state_of(p).game != state.game for p in game.snapshots):
        raise GameFileError("the snapshots are from another game")
    winner = data.get("winner")
    _check(winner is None or _member(winner, variant.powers), "the winner is not a power")
    game.winner = winner
    if data.get("draw") is not None:
        draw = data["draw"]
        _check(
            isinstance(draw, list) and bool(draw) and all(_member(p, variant.powers) for p in draw),
            "the draw is malformed",
        )
        game.draw = tuple(draw)
    return game


def _record(variant: Variant, rec: Any) -> PhaseRecord:
    _check(isinstance(rec, dict), "a history entry must be an object")
    try:
        phase = Phase.parse(str(rec.get("phase")))
        orders = rec.get("orders", {})
        _check(isinstance(orders, dict), "a history entry's orders must be an object")
        clean = {}
        for power, texts in orders.items():
            _check(
                power in variant.powers and isinstance(texts, list) and all(isinstance(t, str) for t in texts),
                "a history entry's orders are malformed",
            )
            clean[power] = [t[:200] for t in texts]
        results = rec.get("results", [])
        _check(isinstance(results, list), "a history entry's results must be a list")
        rs = [gamefile.result_from_data(r) for r in results]
    except (KeyError, TypeError, AttributeError) as e:
        raise GameFileError(f"a history entry is malformed ({str(e)[:100]})") from None
    except GameFileError:
        raise
    except AdjutantError as e:
        raise GameFileError(f"a history entry: {e}") from None
    for r in rs:
        _check(r.power in variant.powers, "a result names no power")
    return PhaseRecord(phase, clean, rs, bool(rec.get("skipped", False)))


def _unit(variant: Variant, power: str, text: Any) -> Unit:
    m = _UNIT.match(text) if isinstance(text, str) else None
    _check(m is not None and _member(power, variant.powers), f"{str(text)[:60]!r} is not a unit")
    assert m is not None
    _check(province_of(m.group(2)) in variant.provinces, f"{text!r} is not on the map")
    return Unit(power, unit_type_of(m.group(1)), m.group(2))


def _position(variant: Variant, data: Any) -> Position:
    _check(isinstance(data, dict), "a position must be an object")
    try:
        phase = Phase.parse(str(data.get("phase")))
    except AdjutantError as e:
        raise GameFileError(str(e)) from None
    units: dict[str, Unit] = {}
    _check(isinstance(data.get("units"), dict) and isinstance(data.get("centres"), dict), "a position is malformed")
    for power, texts in data["units"].items():
        _check(isinstance(texts, list), "units must be lists")
        for text in texts:
            u = _unit(variant, power, text)
            _check(u.province not in units, f"two units in {u.province}")
            units[u.province] = u
    centres = {}
    for power, provs in data["centres"].items():
        _check(power in variant.powers and isinstance(provs, list), "centres are malformed")
        for p in provs:
            _check(_member(p, variant.centres), f"{str(p)[:60]!r} is not a supply centre")
            centres[p] = power
    dislodged = []
    for d in data.get("dislodged", []):
        _check(isinstance(d, dict), "a dislodged unit is malformed")
        u = _unit(variant, d.get("power"), d.get("unit"))
        came = d.get("attacker_from")
        _check(came is None or _member(came, variant.provinces), "a dislodged unit's attacker is malformed")
        dislodged.append(Dislodgement(u, came, units.get(u.province, u)))
    contested = data.get("contested", [])
    _check(
        isinstance(contested, list) and all(_member(c, variant.provinces) for c in contested), "contested is malformed"
    )
    return Position(phase, units, centres, tuple(dislodged), frozenset(contested), state_from_data(data.get("cluster")))


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
    "place_sites",
    "public_data",
    "public_view",
    "secret_parts",
    "state_from_data",
    "state_to_data",
    "view_from_data",
    "view_to_data",
]
