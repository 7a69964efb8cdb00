"""Games of the ``diplomacy`` package (PyPI) in its saved-game JSON (``to_saved_game_format``), read into
an Adjutant game with their history and written back, on the standard map. This module only reads and
writes the JSON: it never imports the package.

Reading sets the game up at the first phase's position (:mod:`adjutant.setup`), then gives each phase's
orders and adjudicates it, checking the position it leads to against the next phase the file holds. Where
the two engines decide differently (DATC 3.0, which Adjutant follows, and the package differ on a few
convoy readings, see docs/formats.md), reading stops before that phase, with its orders given, and says
what differs: a game's history is Adjutant's own adjudication, never positions copied in.

>>> from adjutant.game import Game
>>> game = Game.new("standard")
>>> _ = game.add_orders("England: F Lon - Nth; F Edi - Nwg")
>>> _ = game.adjudicate()
>>> saved = to_saved_game(game)
>>> [p["name"] for p in saved["phases"]], saved["phases"][0]["orders"]["ENGLAND"]
(['S1901M', 'F1901M'], ['F EDI - NWG', 'F LON - NTH'])
>>> imported = read_saved_game(saved)
>>> imported.stopped, imported.game.units["nth"].power
('', 'england')
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..adjudication.orders import Retreat, Unit
from ..adjudication.phases import Phase, adjustments_due, build_places
from ..errors import AdjutantError, GameFileError, SetupError
from ..game import Game, Position
from ..legal import possible_orders
from ..map.variant import Variant, load_variant, province_of
from ..setup import Placed, set_up
from .limits import MAX_FILE_BYTES, read_json

#: the one map both engines have
MAP = "standard"
#: the most phases read (as a game file reads)
MAX_PHASES = 3000
#: the most orders one power may give in one phase (more than any phase of the standard map holds)
MAX_ORDERS = 200


@dataclass
class Imported:
    """A saved game read: the Adjutant game, and if reading stopped early (the two engines decide a phase
    differently), why ("" when the whole game was read)."""

    game: Game
    stopped: str = ""
    #: the phases whose orders were read as the package reads them (an army ordered "via convoy", or
    #: convoyed by its own fleets, to a province it could reach overland, with no whole convoy route: the
    #: package moves it overland, DATC 3.0 keeps it where it is), each named with the orders read so
    read_as_the_package: list[str] = field(default_factory=list)


def loads_saved_game(text: str | bytes) -> Imported:
    """:func:`read_saved_game` of a saved game's JSON text (one game: the package writes one a line)."""
    return read_saved_game(read_json(text, "the saved game", MAX_FILE_BYTES))


def read_saved_game(data: Any) -> Imported:
    """An Adjutant game from the package's saved-game dict; raises :class:`GameFileError` naming what is
    wrong with a file that is not one (or is of another map)."""
    _expect(isinstance(data, dict), "a saved game of the diplomacy package is a JSON object")
    _expect(data.get("map", MAP) == MAP, f"the saved game is on the map {str(data.get('map'))[:40]!r}; "
            f"Adjutant reads the package's games on its {MAP!r} map only")
    phases = data.get("phases")
    _expect(isinstance(phases, list) and bool(phases), "the saved game has no phases")
    _expect(len(phases) <= MAX_PHASES,
            f"the saved game has {len(phases):,} phases; Adjutant reads up to {MAX_PHASES:,}")
    v = load_variant(MAP)
    for n, phase in enumerate(phases):
        _expect(isinstance(phase, dict) and isinstance(phase.get("name"), str) and isinstance(phase.get("state"), dict),
                f"phase {n + 1} of the saved game is not {{name, state, orders}}")
    game = _set_up(v, phases[0])
    imported = Imported(game)
    for n, phase in enumerate(phases):
        where = f"phase {n + 1} ({str(phase['name'])[:12]})"
        name = phase["name"]
        if name != str(game.phase):
            skipped = any(r.skipped and str(r.phase) == name for r in game.history)
            if skipped and not _orders(v, phase, where):
                continue  # (a phase the package kept with nothing to decide, which Adjutant skips)
            imported.stopped = (f"{where}: the saved game is at {name}, where Adjutant's adjudication is at "
                                f"{game.phase} (the phase before was decided differently)")
            return imported
        given = _orders(v, phase, where)
        _give(game, given, where)
        if n == len(phases) - 1:
            break
        differs = _adjudicate(game, phases[n + 1]["state"])
        if differs:
            game.undo()
            overland = _overland(game, given)
            if overland:
                game.clear_orders()
                _give(game, {p: [overland.get(t, t) for t in texts] for p, texts in given.items()}, where)
                if not _adjudicate(game, phases[n + 1]["state"]):
                    read = ", ".join(f"{a} as {b}" for a, b in overland.items())
                    imported.read_as_the_package.append(f"{name}: {read}")
                    continue
                game.undo()
                game.clear_orders()
                _give(game, given, where)
            imported.stopped = f"{where}: the package's adjudication differs from Adjutant's: {differs}"
            return imported
    return imported


def _give(game: Game, orders: dict[str, list[str]], where: str) -> None:
    for power, texts in orders.items():
        for text in texts:
            for problem in game.add_orders(_our_order(text), power):
                if not problem.kept:
                    raise GameFileError(f"{where}: {game.variant.powers[power].name}: {text[:40]!r}: {problem.message}")


def _adjudicate(game: Game, state: Any) -> str:
    """Adjudicate the phase; how the position it leads to differs from the package's next ``state``."""
    at = len(game.history)
    game.adjudicate()
    # (the units as the phase left them; the centres as they stand once the phases skipped are too)
    return _differences(game.variant, game.position_at(at + 1), game.position.centres, state)


def _overland(game: Game, given: dict[str, list[str]]) -> dict[str, str]:
    """The package's reading of the orders that it reads otherwise than DATC 3.0: each army's move to a
    province it could reach overland, ordered "via convoy" or convoyed by a fleet of its own power, as a
    move overland, and those fleets' convoy orders as holds (the package moves such an army overland when
    no whole route of convoying fleets exists; a game that goes as the package's once so read was read so)."""
    v = game.variant
    out: dict[str, str] = {}
    convoys = {}  # (army's place, destination) -> the convoy order of the fleet's power, and its text
    for power, texts in given.items():
        for text in texts:
            words = text.split()
            if len(words) == 7 and words[2] == "C":  # F NTH C A LON - NWY
                convoys[(words[4], words[6], power)] = text
    for power, texts in given.items():
        for text in texts:
            words = text.split()
            if not (len(words) >= 4 and words[0] == "A" and words[2] == "-"):
                continue
            if not v.can_move("A", words[1].lower(), words[3].lower()):
                continue
            own = convoys.get((words[1], words[3], power))
            if words[-1] == "VIA" or own is not None:
                out[text] = " ".join(words[:4])
                if own is not None:
                    out[own] = " ".join(own.split()[:2]) + " H"
    return out


def _expect(cond: bool, message: str) -> None:
    if not cond:
        raise GameFileError(message)


def _set_up(v: Variant, first: dict[str, Any]) -> Game:
    """The game at the position of the saved game's first phase."""
    state = first["state"]
    try:
        phase = Phase.parse(str(first["name"])[:12])
    except AdjutantError as e:
        raise GameFileError(f"the saved game's first phase: {e}") from None
    units, dislodged = _units(v, state.get("units", {}), "the first phase")
    owned = _by_power(v, state.get("centers", {}), "the first phase's centers")
    centres = {prov: power for power, provs in owned.items() for prov in provs}
    try:
        # (the package keeps no record of where a dislodged unit's attacker came from: any is open)
        return set_up(v, phase, units, {p.lower(): o for p, o in centres.items()},
                      [Placed(u.power, u.type, u.location, None) for u in dislodged])
    except SetupError as e:
        raise GameFileError(f"the saved game's first phase: {e}") from None


def _by_power(v: Variant, data: Any, what: str) -> dict[str, list[str]]:
    _expect(isinstance(data, dict), f"{what} are not an object of POWER: [...]")
    out = {}
    for name, items in data.items():
        power = str(name).lower()
        _expect(power in v.powers, f"{what}: {str(name)[:40]!r} is not a power of {v.name}")
        _expect(isinstance(items, list) and len(items) <= len(v.provinces) and all(isinstance(x, str) for x in items),
                f"{what} of {name} are not a list of texts")
        out[power] = [str(x)[:20] for x in items]
    return out


def _units(v: Variant, data: Any, where: str) -> tuple[list[Placed], list[Placed]]:
    """The units of a phase's state (``"A PAR"``; ``"*A MUN"`` dislodged), and the dislodged ones."""
    units: list[Placed] = []
    dislodged: list[Placed] = []
    for power, texts in _by_power(v, data, f"{where}'s units").items():
        for text in texts:
            kind, _, loc = text.lstrip("*").partition(" ")
            _expect(kind in ("A", "F") and bool(loc), f"{where}: {text!r} is not a unit (like 'A PAR' or 'F STP/SC')")
            placed = Placed(power, "A" if kind == "A" else "F", loc.lower())
            (dislodged if text.startswith("*") else units).append(placed)
    return units, dislodged


def _orders(v: Variant, phase: dict[str, Any], where: str) -> dict[str, list[str]]:
    orders = phase.get("orders") or {}
    _expect(isinstance(orders, dict), f"{where}: the orders are not an object of POWER: [orders]")
    out = {}
    for name, texts in orders.items():
        power = str(name).lower()
        _expect(power in v.powers, f"{where}: {str(name)[:40]!r} is not a power of {v.name}")
        texts = texts or []
        _expect(isinstance(texts, list) and len(texts) <= MAX_ORDERS and all(isinstance(t, str) for t in texts),
                f"{where}: the orders of {name} are not a list of orders")
        if texts:
            out[power] = [t[:80] for t in texts]
    return out


def _our_order(text: str) -> str:
    """The package's order as Adjutant reads it: ``F STP/SC B`` -> ``Build F STP/SC``, ``VIA`` -> ``via
    convoy``; the rest reads as written."""
    words = text.split()
    if len(words) == 3 and words[2] == "B":
        return f"Build {words[0]} {words[1]}"
    if words and words[-1] == "VIA":
        return " ".join(words[:-1]) + " via convoy"
    return text


def _differences(v: Variant, ours: Position, centres_now: dict[str, str], state: Any) -> str:
    """How the package's next state differs from Adjutant's next position ("" where they agree)."""
    if not isinstance(state, dict):
        return "the next phase has no state"
    units, dislodged = _units(v, state.get("units", {}), "the next phase")
    theirs = {_key(u) for u in units}
    mine = {_key(u) for u in ours.units.values()}
    gone_theirs = {_key(u) for u in dislodged}
    gone_mine = {_key(d.unit) for d in ours.dislodged}
    out = []
    if theirs != mine:
        out.append(f"units: the package has {_listed(theirs - mine)}, Adjutant {_listed(mine - theirs)}")
    if gone_theirs != gone_mine and _retreatable(ours) != gone_theirs:
        out.append(f"dislodged: the package has {_listed(gone_theirs)}, Adjutant {_listed(gone_mine)}")
    centres = {prov.lower(): p for p, provs in _by_power(v, state.get("centers", {}), "the centers").items()
               for prov in provs}
    if centres != centres_now:
        out.append("supply centres differ")
    return "; ".join(out)


def _retreatable(p: Position) -> set[tuple[str, str, str]]:
    """The dislodged units with somewhere to go (the package disbands the others at once)."""
    game = Game(load_variant(MAP), p)
    return {_key(d.unit) for d in p.dislodged
            if any(isinstance(o, Retreat) for o in possible_orders(game, d.unit.province))}


def _key(u: Unit | Placed) -> tuple[str, str, str]:
    return (u.power, str(u.type), u.location)


def _listed(units: set[tuple[str, str, str]]) -> str:
    return ", ".join(f"{p} {t} {loc}" for p, t, loc in sorted(units)) or "none"


# --- writing -------------------------------------------------------------------------------------------


def to_saved_game(game: Game) -> dict[str, Any]:
    """``game`` in the package's saved-game format: every phase Adjutant adjudicated (a phase it skipped
    has no entry), its state, orders and results in the package's words, then the current phase. Raises
    :class:`AdjutantError` for a variant the package does not have."""
    if game.variant.id != MAP:
        raise AdjutantError(f"the diplomacy package plays the standard map only, not {game.variant.name}")
    phases = []
    for n, record in enumerate(game.history):
        if record.skipped:
            continue
        before = game.position_at(n)
        orders = {p.upper(): [_package_order(t) for t in record.orders.get(p, [])] for p in game.variant.powers}
        results: dict[str, list[str]] = {}
        for r in record.results:
            if r.unit:
                results.setdefault(r.unit.upper(), []).extend(_package_result(r.reason, r.dislodged, r.success))
        phases.append(_phase(game, before, orders, results))
    current = {p.upper(): [_package_order(t) for t in game.written_orders().get(p, [])] for p in game.variant.powers}
    phases.append(_phase(game, game.position, current, {}))
    return {"id": "adjutant", "map": MAP, "rules": [], "phases": phases}


def dumps_saved_game(game: Game) -> str:
    """:func:`to_saved_game` as one line of JSON (as the package writes its saved games)."""
    return json.dumps(to_saved_game(game), separators=(",", ":")) + "\n"


def _phase(game: Game, p: Position, orders: dict[str, list[str]], results: dict[str, list[str]]) -> dict[str, Any]:
    return {"name": str(p.phase), "state": _state(game.variant, p), "orders": orders, "results": results,
            "messages": []}


def _state(v: Variant, p: Position) -> dict[str, Any]:
    powers = [pw.upper() for pw in v.powers]
    units: dict[str, list[str]] = {pw: [] for pw in powers}
    for u in sorted(p.units.values(), key=lambda u: u.location):
        units[u.power.upper()].append(f"{u.type} {u.location.upper()}")
    retreats: dict[str, dict[str, list[str]]] = {pw: {} for pw in powers}
    if p.dislodged:
        game = Game(v, p)
        for d in p.dislodged:
            text = f"{d.unit.type} {d.unit.location.upper()}"
            units[d.unit.power.upper()].append("*" + text)
            places = [o.dest.upper() for o in possible_orders(game, d.unit.province) if isinstance(o, Retreat)]
            retreats[d.unit.power.upper()][text] = places
    centers: dict[str, list[str]] = {pw: [] for pw in powers}
    for prov, owner in sorted(p.centres.items()):
        centers[owner.upper()].append(prov.upper())
    builds: dict[str, dict[str, Any]] = {pw: {"count": 0, "homes": []} for pw in powers}
    if p.phase.kind == "adjustment":
        for power, adj in adjustments_due(v, p.units, p.centres).items():
            homes = [province_of(b.split()[1]).upper() for b in build_places(v, power, p.units, p.centres)]
            builds[power.upper()] = {"count": adj.delta, "homes": sorted(set(homes)) if adj.delta > 0 else []}
    return {
        "timestamp": 0, "zobrist_hash": "0", "note": "", "name": str(p.phase), "units": units,
        "retreats": retreats, "centers": centers,
        "homes": {pw.upper(): [h.upper() for h in v.powers[pw].home_centres] for pw in v.powers},
        "influence": centers, "civil_disorder": dict.fromkeys(powers, 0), "builds": builds,
        "game_id": "adjutant", "map": MAP, "rules": [],
    }


def _package_order(text: str) -> str:
    """An Adjutant canonical order in the package's syntax (``Build F stp/sc`` -> ``F STP/SC B``)."""
    if text.startswith("Build "):
        return f"{text.removeprefix('Build ').upper()} B"
    if text == "Waive":
        return "WAIVE"
    if text.endswith(" via convoy"):
        return f"{text.removesuffix(' via convoy').upper()} VIA"
    return text.upper()


def _package_result(reason: str, dislodged: bool, success: bool) -> list[str]:
    """A result in the package's words, where one says it (an order that succeeded has none)."""
    out = []
    if reason.startswith("bounced"):
        out.append("bounce")
    elif reason.startswith("cut"):
        out.append("cut")
    elif not success and reason.startswith(("void", "illegal")):
        out.append("void")
    if dislodged:
        out.append("dislodged")
    return out


__all__ = ["Imported", "dumps_saved_game", "loads_saved_game", "read_saved_game", "to_saved_game"]
