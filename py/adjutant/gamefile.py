"""The game file (versioned JSON, schema in ``game.schema.json`` beside this module) and its reading.

Reading replays every phase's orders from the variant's start and checks the result against the
position written in the file, so a file that was edited or damaged is refused rather than half-read.

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
from dataclasses import replace
from typing import Any

from . import ancients
from .errors import AdjutantError, GameFileError
from .game import Game, PhaseRecord, Position, Result
from .limits import MAX_FILE_BYTES, read_json
from .orders import POWER_ORDERS
from .phases import Phase

FORMAT = "adjutant-game"
#: version 2 adds the "cluster" section (and the views of :mod:`adjutant.cluster`); a game without it is
#: still written as version 1, which every earlier reader reads
VERSION = 2
#: refuse anything larger before parsing it (the page's "Open file" refuses the same)
MAX_BYTES = MAX_FILE_BYTES
#: and games longer than this (about two hundred game years): reading replays every phase
MAX_PHASES = 1000


def to_data(game: Game) -> dict[str, Any]:
    cluster = game.position.cluster
    if cluster is not None and cluster.view != ancients.GM:
        from .cluster import view_to_data

        return view_to_data(game)
    data = position_data(game.position)
    data.update({"format": FORMAT, "version": 1 if cluster is None else 2, "variant": game.variant.id})
    data = {k: data[k] for k in ("format", "version", "variant", *data) if k in data}
    if cluster is not None:
        data["cluster"] = {"game": cluster.game, "seed": cluster.seed}
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
    _expect(isinstance(version, int), "the game file has no version number")
    _expect(version <= VERSION, f"this game file is version {version}; this Adjutant reads up to version {VERSION}")
    variant_id = data.get("variant")
    _expect(isinstance(variant_id, str), "the game file names no variant")
    if "view" in data:
        from .cluster import view_from_data

        return view_from_data(data)
    cluster = data.get("cluster")
    try:
        game = Game.new(variant_id)
    except AdjutantError as e:
        raise GameFileError(f"the game's variant: {e}") from None
    state = game.position.cluster
    if state is not None:
        _expect(
            isinstance(cluster, dict)
            and isinstance(cluster.get("game"), str)
            and type(cluster.get("seed")) is int
            and 0 <= cluster["seed"] < 2**63,
            f'a game of {game.variant.name} needs its "cluster" section: {{"game": id, "seed": number}}',
        )
        try:
            start = ancients.start(game.variant, cluster["seed"], cluster["game"])
        except AdjutantError as e:
            raise GameFileError(f"the game's sites: {e}") from None
        game.position = replace(game.position, cluster=start)
    else:
        _expect(cluster is None, f"{game.variant.name} has no Cluster state, yet the file gives one")
    history = data.get("history", [])
    _expect(isinstance(history, list), "history must be a list")
    played = sum(1 for rec in history if not (isinstance(rec, dict) and rec.get("skipped")))
    _expect(played <= MAX_PHASES, f"the game has {played} phases; Adjutant reads games of up to {MAX_PHASES}")
    for n, rec in enumerate(history):
        _expect(isinstance(rec, dict), f"history entry {n + 1} must be an object")
        phase_text = rec.get("phase")
        _expect(isinstance(phase_text, str), f"history entry {n + 1} has no phase")
        try:
            phase = Phase.parse(phase_text)
        except AdjutantError as e:
            raise GameFileError(f"history entry {n + 1}: {e}") from None
        if rec.get("skipped"):
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


def _give(game: Game, orders: Any, where: str) -> None:
    _expect(isinstance(orders, dict), f"{where}: orders must be an object of power: [orders]")
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


def result_from_data(d: dict[str, Any]) -> Result:
    return Result(
        str(d["power"]),
        str(d["order"]),
        str(d["unit"]),
        bool(d["success"]),
        str(d.get("reason", "")),
        bool(d.get("dislodged", False)),
    )
