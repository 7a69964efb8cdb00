"""The game file (versioned JSON, schema in ``game.schema.json`` beside this module) and its reading.

Reading replays every phase's orders from the variant's start (or from the starting position the file of
a game set up from any position gives, ``"start"``) and checks the result against the
position written in the file, so a file that was edited or damaged is refused rather than half-read. A
variant's own state (Cluster's) is written and read by its rules' hooks (:mod:`adjutant.variants.hooks`);
a view of a game, which cannot be replayed (Cluster's public view, a power's), is written with every
position (:func:`view_to_data`) and read back for display only.

>>> from adjutant.game import Game
>>> g = Game.new("standard")
>>> _ = g.add_orders("F Lon - Nth")
>>> _ = g.adjudicate()
>>> again = loads(dumps(g))
>>> str(again.phase), again.units["nth"].power, dumps(again) == dumps(g)
('F1901M', 'england', True)
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

from ..adjudication.orders import POWER_ORDERS, Unit
from ..adjudication.phases import Dislodgement, Phase
from ..errors import AdjutantError, GameFileError
from ..game import Game, PhaseRecord, Position, Result
from ..map.kinds import unit_type_of
from ..map.variant import Variant, load_variant, province_of
from ..seats import seats_from_data, seats_to_data
from ..setup import restart, start_data, start_from_data, start_of
from ..variants.registry import file_sections, rules_for
from .limits import MAX_FILE_BYTES, read_json

FORMAT = "adjutant-game"
#: version 2 adds a variant's own section (Cluster's "cluster", :attr:`VariantRules.file_key
#: <adjutant.variants.hooks.VariantRules.file_key>`), the views of a game and the computer seats
#: ("computer", :mod:`adjutant.seats`); a game without them is still written as version 1, which every
#: earlier reader reads. Version 3 adds the starting position of a game set up from any position
#: (``"start"``, :mod:`adjutant.setup`), written only by such a game
VERSION = 3
#: refuse anything larger before parsing it (the page's "Open file" refuses the same)
MAX_BYTES = MAX_FILE_BYTES
#: and games longer than this (about two hundred game years): reading replays every phase
MAX_PHASES = 1000
#: what :func:`most_orders` counts, by the kind of phase, as the message refusing too many orders says it
_COUNTED = {
    "movement": "one for each unit, and each power's nominations",
    "retreat": "one for each dislodged unit",
    "adjustment": "one for each unit, a build in each province for each power, a waive for each supply centre held",
}
_UNIT = re.compile(r"^([AF]) ([a-z0-9]+(?:/[a-z]{2})?)$")


def to_data(game: Game) -> dict[str, Any]:
    rules, state = game.rules, game.position.variant_state
    if rules.view_of(state) is not None:
        return view_to_data(game)
    data = position_data(game.position)
    section = rules.file_section(state)
    version = 1 if section is None and not game.computer else 2
    data.update({"format": FORMAT, "version": version, "variant": game.variant.id})
    data = {k: data[k] for k in ("format", "version", "variant", *data) if k in data}
    start = start_of(game)
    if start is not None:
        data["version"] = 3
        data["start"] = position_data(start) | start_data(game, start)
    if section is not None and rules.file_key is not None:
        data[rules.file_key] = section
    if game.computer:
        data["computer"] = seats_to_data(game.computer)
    orders = game.written_orders()
    if orders:
        data["orders"] = orders
    data["history"] = [record_data(r) for r in game.history]
    if game.winner:
        data["winner"] = game.winner
    if game.draw:
        data["draw"] = list(game.draw)
    return data


def position_data(p: Position) -> dict[str, Any]:
    """A position's phase, units, centres, dislodged units and stand-offs as the game file writes them."""
    units: dict[str, list[str]] = {}
    for u in sorted(p.units.values(), key=lambda u: (u.power, u.location)):
        units.setdefault(u.power, []).append(f"{u.type} {u.location}")
    centres: dict[str, list[str]] = {}
    for prov, owner in sorted(p.centres.items()):
        centres.setdefault(owner, []).append(prov)
    data: dict[str, Any] = {"phase": str(p.phase), "units": units, "centres": centres}
    if p.dislodged:
        data["dislodged"] = [
            {"power": d.unit.power, "unit": f"{d.unit.type} {d.unit.location}", "attacker_from": d.attacker_from}
            for d in p.dislodged
        ]
    if p.contested:
        data["contested"] = sorted(p.contested)
    return data


def record_data(r: PhaseRecord) -> dict[str, Any]:
    d: dict[str, Any] = {"phase": str(r.phase)}
    if r.skipped:
        d["skipped"] = True
        if r.results:  # units disbanded for want of a place to retreat, reported as the judges do
            d["results"] = [x.to_data() for x in r.results]
        return d
    d["orders"] = r.orders
    d["results"] = [x.to_data() for x in r.results]
    return d


def dumps(game: Game, indent: int | None = 1) -> str:
    """The game file's text."""
    return json.dumps(to_data(game), indent=indent, ensure_ascii=False, sort_keys=False) + "\n"


def loads(text: str | bytes) -> Game:
    """Read a game file; raises :class:`GameFileError` saying what is wrong."""
    data = read_json(text, "the file", MAX_BYTES)
    return from_data(data)


def _expect(cond: bool, message: str) -> None:
    if not cond:
        raise GameFileError(message)


def _str_list(value: Any, what: str) -> list[str]:
    _expect(isinstance(value, list) and all(isinstance(x, str) for x in value), f"{what} must be a list of strings")
    return list(value)


def from_data(data: Any) -> Game:
    """Build a game from decoded JSON, by replaying its history; refuses what does not add up."""
    _expect(isinstance(data, dict), "a game file is a JSON object")
    _expect(data.get("format") == FORMAT, f'this is not an Adjutant game file (no "format": "{FORMAT}")')
    version = data.get("version")
    _expect(type(version) is int, "the game file has no version number")
    _expect(version <= VERSION, f"this game file is version {version}; this Adjutant reads up to version {VERSION}")
    variant_id = data.get("variant")
    _expect(isinstance(variant_id, str), "the game file names no variant")
    if "view" in data:
        return view_from_data(data)
    try:
        game = Game.new(variant_id)
    except AdjutantError as e:
        raise GameFileError(f"the game's variant: {e}") from None
    if "start" in data:
        try:
            game = start_from_data(game.variant, data["start"])
        except AdjutantError as e:
            raise GameFileError(f"the starting position: {e}") from None
    rules = game.rules
    for key, other in file_sections().items():
        if key != rules.file_key:
            _expect(data.get(key) is None, f"{game.variant.name} has no {other.title} state, yet the file gives one")
    if rules.file_key is not None:
        start = rules.state_from_file(game.variant, data.get(rules.file_key))
        if "start" in data:  # the set-up's strengths, sites and knowledge on the game's own id and seed
            try:
                start = restart(game, data["start"], start)
            except AdjutantError as e:
                raise GameFileError(f"the starting position: {e}") from None
        game.position = replace(game.position, variant_state=start)
    if data.get("computer") is not None:
        game.computer = seats_from_data(data["computer"], game.variant.powers, "the game file")
    history = data.get("history", [])
    _expect(isinstance(history, list), "history must be a list")
    played = sum(1 for rec in history if not (isinstance(rec, dict) and rec.get("skipped") is True))
    _expect(played <= MAX_PHASES, f"the game has {played} phases; Adjutant reads games of up to {MAX_PHASES}")
    for n, rec in enumerate(history):
        _expect(isinstance(rec, dict), f"history entry {n + 1} must be an object")
        phase_text = rec.get("phase")
        _expect(isinstance(phase_text, str), f"history entry {n + 1} has no phase")
        try:
            phase = Phase.parse(phase_text)
        except AdjutantError as e:
            raise GameFileError(f"history entry {n + 1}: {e}") from None
        if _skipped(rec):
            # skipped phases are added by the adjudication of the phase before
            done = game.history[n] if n < len(game.history) else None
            _expect(
                done is not None and done.skipped and done.phase == phase,
                f"history entry {n + 1} says {phase_text} was skipped, but it has something to decide",
            )
            continue
        _expect(n == len(game.history), f"history entry {n + 1} ({phase_text}) should have been skipped")
        if phase != game.phase:
            raise GameFileError(f"history entry {n + 1} is {phase_text}, but the game is at {game.phase} there")
        _expect(not game.over, f"history entry {n + 1} ({phase_text}) comes after the end of the game")
        _give(game, rec.get("orders", {}), f"history entry {n + 1} ({phase_text})")
        try:
            game.adjudicate()
        except AdjutantError as e:
            raise GameFileError(f"history entry {n + 1} ({phase_text}): {e}") from None
    _expect(len(game.history) == len(history), "the history does not match the phases the game went through")
    phase_text = data.get("phase")
    _expect(isinstance(phase_text, str), "the game file has no current phase")
    _expect(
        phase_text == str(game.phase),
        f"the file says the game is at {phase_text}, but its history leads to {game.phase}",
    )
    written = to_data(game)
    for key in ("units", "centres"):
        _expect(data.get(key) == written[key], f"the {key} in the file do not match what its history leads to")
    draw = data.get("draw")
    if draw is not None:
        try:
            game.declare_draw(_str_list(draw, "draw"))
        except AdjutantError as e:
            raise GameFileError(f"draw: {e}") from None
    _expect(data.get("winner") == game.winner, "the winner in the file does not match the centres")
    if not game.over:
        _give(game, data.get("orders", {}), "the current orders")
    return game


def most_orders(game: Game) -> int:
    """The most orders the current phase of ``game`` can hold, all powers together, once each unit's later
    order has replaced its earlier one (a game keeps no more, so writes no more): in a movement phase one
    per unit (a move, support, convoy or hold) and each power's nominations of its multiple units
    (Cluster's); in a retreat phase one per dislodged unit; in an adjustment phase one per unit (a disband),
    one per province for each power (a build: a later build in a province replaces the earlier) and one per
    supply centre held (a waive: a game keeps no more, since a power has fewer builds than centres).
    Reading a file parses every order it gives: a file repeating one order a million times within the size
    limit is refused by this count, before any is parsed."""
    p, variant = game.position, game.variant
    if p.phase.kind == "movement":
        return len(p.units) + len(variant.powers) * len(variant.multiples)
    if p.phase.kind == "retreat":
        return len(p.dislodged)
    return len(p.units) + len(variant.powers) * len(variant.provinces) + len(p.centres)


def _give(game: Game, orders: Any, where: str) -> None:
    _expect(isinstance(orders, dict), f"{where}: orders must be an object of power: [orders]")
    given = sum(len(texts) for texts in orders.values() if isinstance(texts, list))
    most = most_orders(game)
    _expect(
        given <= most,
        f"{where}: {given:,} orders are given, more than the {most:,} that can count in {game.phase.title}"
        f" ({_COUNTED[game.phase.kind]})",
    )
    for power, texts in orders.items():
        _expect(power in game.variant.powers, f"{where}: {power!r} is not a power of {game.variant.name}")
        for text in _str_list(texts, f"{where}: orders of {power}"):
            try:
                order = game.parse(text, power)
            except AdjutantError as e:
                raise GameFileError(f"{where}: {e}") from None
            if isinstance(order, POWER_ORDERS) and order.power != power:
                raise GameFileError(f"{where}: {text!r} is not an order of {power}")
            game.add_order(order)


def _list(data: dict[str, Any], key: str, what: str) -> list[Any]:
    """``data[key]`` if it is a list, [] if it is missing; GameFileError naming ``what`` if it is anything else."""
    value = data.get(key, [])
    _expect(isinstance(value, list), f"{what} must be a list")
    return list(value)


def _skipped(rec: dict[str, Any]) -> bool:
    """Whether a history entry says its phase was skipped (true or false, or left out)."""
    skipped = rec.get("skipped", False)
    _expect(isinstance(skipped, bool), "a history entry's 'skipped' must be true or false")
    return skipped is True


def _member(x: Any, names: Any) -> bool:
    """Whether ``x`` is one of ``names`` (a JSON value that is not text, say a list, is not)."""
    return isinstance(x, str) and x in names


def view_to_data(game: Game) -> dict[str, Any]:
    """A view of a game (Cluster's public view or a power's: :meth:`VariantRules.view_of
    <adjutant.variants.hooks.VariantRules.view_of>`) as a game file: every position written out with the
    variant's state, since a view cannot be replayed (its hidden strengths are missing)."""
    rules, state = game.rules, game.position.variant_state
    key = rules.file_key
    if key is None:
        raise GameFileError(f"{game.variant.name} has no views: its game files hold the whole game")
    view = rules.view_of(state)
    data: dict[str, Any] = {"format": FORMAT, "version": 2, "variant": game.variant.id, "view": view}
    data.update(position_data(game.position))
    if game.computer:
        data["computer"] = seats_to_data(game.computer)
    data[key] = rules.state_to_data(state)
    data["history"] = [record_data(r) for r in game.history]
    data["snapshots"] = [{**position_data(p), key: rules.state_to_data(p.variant_state)} for p in game.snapshots]
    if game.winner:
        data["winner"] = game.winner
    if game.draw:
        data["draw"] = list(game.draw)
    return data


def view_from_data(data: Any) -> Game:
    """A view written by :func:`view_to_data`, for display: it is checked for form, not replayed."""
    _expect(isinstance(data, dict), "a game file is a JSON object")
    _expect(data.get("format") == FORMAT, "this is not an Adjutant game file")
    _expect(type(data.get("version")) is int and data.get("version") == 2, "a view of a game is a version 2 game file")
    try:
        variant = load_variant(str(data.get("variant")))
    except AdjutantError as e:
        raise GameFileError(f"the game's variant: {e}") from None
    rules = rules_for(variant)
    key = rules.file_key
    _expect(key is not None, f"{variant.name} has no views: its game files hold the whole game")
    history_data = data.get("history", [])
    snapshots = data.get("snapshots", [])
    _expect(isinstance(history_data, list) and isinstance(snapshots, list), "history and snapshots must be lists")
    _expect(len(history_data) == len(snapshots), "a view needs one snapshot per history entry")
    _expect(len(history_data) <= 2 * MAX_PHASES, "the game is too long to read")
    position = _view_position(variant, data)
    state = position.variant_state
    _expect(rules.view_of(state) == data.get("view"), f"the view does not match its {key} section")
    history = [_view_record(variant, rec) for rec in history_data]
    game = Game(variant, position, history, None, None, [_view_position(variant, s) for s in snapshots])
    if data.get("computer") is not None:
        game.computer = seats_from_data(data["computer"], variant.powers, "the game file")
    if any(rules.game_id(p.variant_state) != rules.game_id(state) for p in game.snapshots):
        raise GameFileError("the snapshots are from another game")
    winner = data.get("winner")
    _expect(winner is None or _member(winner, variant.powers), "the winner is not a power")
    game.winner = winner
    if data.get("draw") is not None:
        draw = data["draw"]
        _expect(
            isinstance(draw, list) and bool(draw) and all(_member(p, variant.powers) for p in draw),
            "the draw is malformed",
        )
        game.draw = tuple(draw)
    return game


def _view_record(variant: Variant, rec: Any) -> PhaseRecord:
    _expect(isinstance(rec, dict), "a history entry must be an object")
    try:
        phase = Phase.parse(str(rec.get("phase")))
        orders = rec.get("orders", {})
        _expect(isinstance(orders, dict), "a history entry's orders must be an object")
        clean = {}
        for power, texts in orders.items():
            _expect(
                power in variant.powers and isinstance(texts, list) and all(isinstance(t, str) for t in texts),
                "a history entry's orders are malformed",
            )
            clean[power] = [t[:200] for t in texts]
        rs = [result_from_data(r) for r in _list(rec, "results", "a history entry's results")]
    except (KeyError, TypeError, AttributeError) as e:
        raise GameFileError(f"a history entry is malformed ({str(e)[:100]})") from None
    except GameFileError:
        raise
    except AdjutantError as e:
        raise GameFileError(f"a history entry: {e}") from None
    for r in rs:
        _expect(r.power in variant.powers, "a result names no power")
    return PhaseRecord(phase, clean, rs, _skipped(rec))


def _view_unit(variant: Variant, power: str, text: Any) -> Unit:
    m = _UNIT.match(text) if isinstance(text, str) else None
    _expect(m is not None and _member(power, variant.powers), f"{str(text)[:60]!r} is not a unit")
    assert m is not None
    _expect(province_of(m.group(2)) in variant.provinces, f"{text!r} is not on the map")
    return Unit(power, unit_type_of(m.group(1)), m.group(2))


def _view_position(variant: Variant, data: Any) -> Position:
    _expect(isinstance(data, dict), "a position must be an object")
    try:
        phase = Phase.parse(str(data.get("phase")))
    except AdjutantError as e:
        raise GameFileError(str(e)) from None
    units: dict[str, Unit] = {}
    _expect(isinstance(data.get("units"), dict) and isinstance(data.get("centres"), dict), "a position is malformed")
    for power, texts in data["units"].items():
        _expect(isinstance(texts, list), "units must be lists")
        for text in texts:
            u = _view_unit(variant, power, text)
            _expect(u.province not in units, f"two units in {u.province}")
            units[u.province] = u
    centres = {}
    for power, provs in data["centres"].items():
        _expect(power in variant.powers and isinstance(provs, list), "centres are malformed")
        for p in provs:
            _expect(_member(p, variant.centres), f"{str(p)[:60]!r} is not a supply centre")
            centres[p] = power
    dislodged = []
    for d in _list(data, "dislodged", "a position's dislodged units"):
        _expect(isinstance(d, dict), "a dislodged unit is malformed")
        u = _view_unit(variant, d.get("power"), d.get("unit"))
        came = d.get("attacker_from")
        _expect(came is None or _member(came, variant.provinces), "a dislodged unit's attacker is malformed")
        dislodged.append(Dislodgement(u, came, units.get(u.province, u)))
    contested = _list(data, "contested", "a position's stand-offs")
    _expect(all(_member(c, variant.provinces) for c in contested), "contested is malformed")
    rules = rules_for(variant)
    state = rules.state_from_data(variant, data.get(rules.file_key)) if rules.file_key is not None else None
    return Position(phase, units, centres, tuple(dislodged), frozenset(contested), state)


def result_from_data(d: Any) -> Result:
    """A result as the game file writes it; GameFileError naming the field of the wrong type."""
    _expect(isinstance(d, dict), "a result must be an object")
    texts = [d.get("power"), d.get("order"), d.get("unit"), d.get("reason", "")]
    _expect(all(isinstance(t, str) for t in texts), "a result's power, order, unit and reason must be text")
    flags = [d.get("success"), d.get("dislodged", False)]
    _expect(all(isinstance(f, bool) for f in flags), "a result's success and dislodged must be true or false")
    return Result(texts[0], texts[1], texts[2], flags[0], texts[3], flags[1])
