"""What the page shows and does, in plain Python (no `js`, no `pyscript`), so CPython tests can drive it.

A :class:`Session` holds the game, the phase being looked at, and the click-to-order state; the page
(:mod:`adjutant_ui.app`) turns clicks and keys into calls here and draws what comes back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from adjutant import AdjutantError, GameFileError, load_variant
from adjutant import codec as _codec
from adjutant import gamefile as _gamefile
from adjutant.cluster import for_players
from adjutant.game import Game, Position
from adjutant.orders import Build, Convoy, Disband, Move, Nominate, Order, Retreat, Support, Waive, parse_order
from adjutant.variant import province_of


# --- saving and sharing ---------------------------------------------------------------------------
def game_to_text(game: Game) -> str:
    """The game file (JSON text)."""
    return _gamefile.dumps(game)


def _refuse_unexpected(what: str, error: Exception) -> GameFileError:
    """A GameFileError for anything else a hostile or damaged link or file made the reader raise (a
    number too long to convert, a structure nested too deep, ...): the page shows it as a message and
    keeps the game in hand, instead of failing to start."""
    detail = str(error).split("\n")[0][:200] or type(error).__name__
    return GameFileError(f"{what} is damaged: {detail}")


def _read(what: str, reader: Callable[[str], Game], text: str) -> Game:
    """Run one of the engine's readers; anything it raises comes out as a GameFileError naming ``what``."""
    try:
        return reader(text)
    except GameFileError:
        raise
    except AdjutantError as error:
        raise GameFileError(str(error)) from None
    except Exception as error:  # noqa: BLE001 - whatever hostile input triggers becomes a clear message
        raise _refuse_unexpected(what, error) from None


def game_from_text(text: str) -> Game:
    """Read a game file; a bad one raises GameFileError (never anything else) and changes nothing."""
    return _read("the file", _gamefile.loads, text)


def encode_link(game: Game) -> str:
    """The URL fragment (without '#') that holds the game."""
    return _codec.encode_link(game)


def decode_link(fragment: str) -> Game:
    """The game in a URL fragment; a corrupt, truncated or hostile one raises GameFileError (never
    anything else)."""
    return _read("the link", _codec.decode_link, fragment.lstrip("#").strip())



def position_snapshot(game: Game, colours: dict[str, str] | None = None) -> dict[str, Any]:
    """The current position as plain data, for the page shell to paint before Python is ready
    (web/shell.js draws exactly this: no rules, no game logic)."""
    position = game.position
    return {
        "version": 1,
        "variant": game.variant.id,
        "phase": str(position.phase),
        "title": f"{position.phase.title} ({position.phase})",
        "units": [[u.power, u.type, u.location] for u in position.units.values()],
        "dislodged": [[d.unit.power, d.unit.type, d.unit.location] for d in position.dislodged],
        "centres": dict(sorted(position.centres.items())),
        "colours": dict(colours or {}),
    }


# --- what is drawn -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Shape:
    """One order as the map draws it."""

    kind: str  # hold, move, support, convoy, retreat, disband, build
    power: str
    at: str  # location of the ordered unit (or of the build)
    to: str = ""  # destination (move, retreat, supported/convoyed unit's destination)
    via: str = ""  # the supported or convoyed unit's location
    success: bool | None = None  # None: not adjudicated yet


def order_shape(order: Order, units: dict[str, Any], success: bool | None = None) -> Shape | None:
    """How ``order`` is drawn; None for an order with nothing to draw (Cluster's secret nomination)."""
    if isinstance(order, Nominate):
        return None
    if isinstance(order, (Build, Waive)):
        return Shape("build", order.power, getattr(order, "location", ""), success=success)
    power, at = order.unit.power, order.unit.location
    if isinstance(order, Move):
        return Shape("move", power, at, order.dest, success=success)
    if isinstance(order, Retreat):
        return Shape("retreat", power, at, order.dest, success=success)
    if isinstance(order, Support):
        supported = units.get(order.target)
        via = supported.location if supported is not None else order.target
        return Shape("support", power, at, order.dest or "", via, success)
    if isinstance(order, Convoy):
        army = units.get(order.target)
        via = army.location if army is not None else order.target
        return Shape("convoy", power, at, order.dest, via, success)
    if isinstance(order, Disband):
        return Shape("disband", power, at, success=success)
    return Shape("hold", power, at, success=success)


@dataclass
class Session:
    game: Game
    #: which position is shown: an index into the history, len(history) for the current phase
    view: int = 0
    selected: str | None = None  # location of the unit being ordered
    mode: str = "move"  # move, support, convoy
    target: str | None = None  # the supported / convoyed unit's location
    problems: list[Any] = field(default_factory=list)
    #: a view that may not be played (a game with secrets seen by a player or by anyone with the link)
    readonly: bool = False
    _legal: dict[tuple[int, str, str], list[Order]] = field(default_factory=dict, repr=False)

    @classmethod
    def new(cls, variant_id: str) -> Session:
        game = Game.new(load_variant(variant_id))
        return cls(game, view=0)

    def __post_init__(self) -> None:
        self.view = len(self.game.history)

    @property
    def at_current(self) -> bool:
        return self.view == len(self.game.history)

    def shown_position(self) -> Position:
        return self.game.position_at(self.view)

    def shown_phase_title(self) -> str:
        position = self.shown_position()
        return f"{position.phase.title} ({position.phase})"

    # --- history ---------------------------------------------------------------------------------
    def step(self, delta: int | None = None, to: int | None = None) -> None:
        last = len(self.game.history)
        self.view = max(0, min(last, to if to is not None else self.view + (delta or 0)))
        while 0 < self.view < last and self.game.history[self.view].silent:
            self.view += 1 if (delta or 0) > 0 or to == last else -1
        self.clear_selection()

    def shapes(self) -> list[Shape]:
        """The orders to draw: the current phase's as entered, or a past phase's with their results."""
        if self.at_current:
            units = self.game.units
            dislodged = self.game.dislodged_units()
            shapes = [order_shape(o, {**dislodged, **units}) for os in self.game.orders.values() for o in os]
            return [shape for shape in shapes if shape is not None]
        record = self.game.history[self.view]
        position = self.game.position_at(self.view)
        dislodged = {d.unit.province: d.unit for d in position.dislodged}
        outcome = {r.order: r.success for r in record.results if r.order}
        out = []
        for power, texts in record.orders.items():
            for text in texts:
                try:
                    order = parse_order(
                        text, self.game.variant, position.units, power=power,
                        phase=position.phase.kind, dislodged=dislodged,
                    )
                except AdjutantError:
                    continue
                shape = order_shape(order, {**dislodged, **position.units}, outcome.get(text))
                if shape is not None:
                    out.append(shape)
        return out

    def results_text(self, index: int | None = None) -> str:
        """Judge-style results of a history record (the last adjudicated one by default)."""
        history = self.game.history
        if not history:
            return "No phase adjudicated yet."
        if index is None:
            index = len(history) - 1
            while index > 0 and history[index].silent:
                index -= 1
        record = history[index]
        variant = self.game.variant
        lines = [f"Results for {record.phase.title} ({record.phase})", ""]
        by_power: dict[str, list[str]] = {}
        for r in record.results:
            power = variant.powers[r.power].name if r.power in variant.powers else r.power
            text = r.order or f"{r.unit}: no order"
            verdict = "" if r.success else "  (fails)"
            if r.reason:
                verdict = f"  ({'' if r.success else 'fails: '}{r.reason})"
            if r.dislodged:
                verdict += "  dislodged"
            by_power.setdefault(power, []).append(f"  {text}{verdict}")
        for power in sorted(by_power):
            lines.append(f"{power}:")
            lines.extend(by_power[power])
            lines.append("")
        return "\n".join(lines).rstrip() + "\n"

    def players_results_text(self, index: int | None = None) -> str:
        """The results as they go to the players: for a game master's game with secrets (Cluster), what
        rule 7 reports (research and transfer as stands, no hidden strength); otherwise :meth:`results_text`."""
        shown = for_players(self.game)
        if shown is self.game:
            return self.results_text(index)
        return Session(shown, readonly=True).results_text(index)

    # --- orders ------------------------------------------------------------------------------------
    def enter_orders(self, text: str, power: str | None = None) -> list[Any]:
        """Keep the orders in ``text``; returns the problems (for the inline errors)."""
        if power:
            self.problems = self.game.set_orders(power, text)
        else:
            self.problems = self.game.add_orders(text)
        return self.problems

    def clear_selection(self) -> None:
        self.selected = None
        self.mode = "move"
        self.target = None

    def orderable_units(self) -> dict[str, Any]:
        """Units that can be given an order by clicking in this phase, by location."""
        kind = self.game.phase.kind
        if not self.at_current or self.game.over or self.readonly:
            return {}
        if kind == "movement":
            return {u.location: u for u in self.game.units.values()}
        if kind == "retreat":
            return {d.unit.location: d.unit for d in self.game.position.dislodged}
        due = self.game.adjustments()
        return {u.location: u for u in self.game.units.values() if due.get(u.power, 0) < 0}

    def unit_at(self, province: str) -> Any:
        units = self.orderable_units()
        for location, unit in units.items():
            if province_of(location) == province:
                return unit
        return None

    def targets(self) -> list[str]:
        """Locations to highlight for the next click."""
        game = self.game
        variant = game.variant
        kind = game.phase.kind
        if not self.at_current or game.over or self.readonly:
            return []
        if kind == "adjustment" and self.selected is None:
            from adjutant.phases import build_places

            places: list[str] = []
            for power, delta in game.adjustments().items():
                if delta > 0:
                    builds = build_places(variant, power, game.units, game.position.centres)
                    places += [text.split()[1] for text in builds]
            return sorted(set(places))
        if self.selected is None:
            return []
        unit = self.unit_at(province_of(self.selected))
        if unit is None:
            return []
        if kind == "retreat":
            from adjutant.phases import retreat_options

            for d in game.position.dislodged:
                if d.unit.location == unit.location:
                    return retreat_options(variant, d, game.units, game.position.contested, game.phase.season)
            return []
        orders = self.legal_orders(unit.province)
        if self.mode == "move":
            moves = [o.dest for o in orders if isinstance(o, Move)]
            return sorted(set(moves) | set(self.run_targets(unit)))
        if self.mode == "support":
            supports = [o for o in orders if isinstance(o, Support)]
            if self.target is None:
                return sorted({self._location_of(o.target) for o in supports})
            target = province_of(self.target)
            return sorted({o.dest or target for o in supports if o.target == target})
        if self.mode == "convoy":
            convoys = [o for o in orders if isinstance(o, Convoy)]
            if self.target is None:
                return sorted({self._location_of(o.target) for o in convoys})
            target = province_of(self.target)
            return sorted({o.dest for o in convoys if o.target == target})
        if self.mode == "protect":
            fleets = [u for u in game.units.values() if u.type == "F" and self.run_targets(u, via=unit.province)]
            if self.target is None:
                return sorted(u.location for u in fleets)
            fleet = game.units.get(province_of(self.target))
            return self.run_targets(fleet, via=unit.province) if fleet is not None else []
        return []

    def _location_of(self, province: str) -> str:
        unit = self.game.units.get(province)
        return unit.location if unit is not None else province

    def legal_orders(self, province: str) -> list[Order]:
        """The engine's legal orders for the unit in ``province`` this phase (cached: the position does
        not change until the phase is adjudicated)."""
        key = (len(self.game.history), str(self.game.phase), province)
        cached = self._legal.get(key)
        if cached is None:
            from adjutant.legal import possible_orders

            if len(self._legal) > 200:
                self._legal.clear()
            cached = self._legal[key] = possible_orders(self.game, province)
        return cached

    def can_protect(self, unit: Any) -> bool:
        """Whether ``unit`` may be given a protect order (Coast-Running: an army in a coastal province)."""
        variant = self.game.variant
        return bool(
            variant.options.protect_order and unit.type == "A" and variant.provinces[unit.province].type == "coastal"
        )

    def run_targets(self, fleet: Any, via: str | None = None) -> list[str]:
        """Coast-Running: where ``fleet`` could run along coasts held by armies (any power's) that could
        protect it; the chain of coasts must be unbroken (consecutive provinces joined by a fleet edge).
        With ``via``, only runs whose chain can pass the army in that province. Empty in variants
        without the protect order. Which runs succeed is the adjudicator's business."""
        game = self.game
        variant = game.variant
        if not variant.options.protect_order or fleet is None or fleet.type != "F":
            return []
        if game.phase.kind != "movement":
            return []
        season = game.phase.season
        protectors = {
            u.province for u in game.units.values() if u.type == "A" and variant.provinces[u.province].type == "coastal"
        }

        def coastal_neighbours(location: str) -> set[str]:
            return {province_of(n) for n in variant.neighbours("F", location)}

        def places(province: str) -> list[str]:
            return [province] + [f"{province}/{c}" for c in getattr(variant.provinces[province], "coasts", ()) or ()]

        start = coastal_neighbours(fleet.location) & protectors
        chain, todo = set(start), list(start)
        while todo:
            here = todo.pop()
            for location in places(here):
                for nxt in coastal_neighbours(location):
                    if nxt in protectors and nxt not in chain and nxt != fleet.province:
                        chain.add(nxt)
                        todo.append(nxt)
        if via is not None and via not in chain:
            return []
        adjacent = {province_of(n) for n in variant.neighbours("F", fleet.location)}
        out: set[str] = set()
        for province in chain:
            for location in places(province):
                for dest in variant.neighbours("F", location):
                    dprov = province_of(dest)
                    if dprov in chain or dprov == fleet.province or dprov in adjacent:
                        continue
                    if variant.provinces[dprov].open_in(season):
                        out.add(dest)
        return sorted(out)

    def click(self, location: str) -> tuple[str | None, list[str]]:
        """A click on a province or coast. Returns (order text to enter or None, coasts to choose from
        when the click needs one)."""
        game = self.game
        province = province_of(location)
        kind = game.phase.kind
        if not self.at_current or game.over or self.readonly:
            return None, []
        targets = self.targets()
        if kind == "adjustment" and self.selected is None:
            matching = [t for t in targets if province_of(t) == province]
            unit = self.unit_at(province)
            if unit is not None:
                return f"{unit.type} {unit.location} disband", []
            if matching:
                self.selected = matching[0]
                return None, []
            return None, []
        if self.selected is None:
            if self.unit_at(province) is not None:
                self.selected = self.unit_at(province).location
            return None, []
        unit = self.unit_at(province_of(self.selected))
        if kind == "adjustment":  # a build place chosen: location is "A" or "F" via build()
            return None, []
        if province == province_of(self.selected) and self.mode == "move":
            verb = "hold" if kind == "movement" else "disband"
            order = f"{unit.type} {unit.location} {verb}"
            self.clear_selection()
            return order, []
        if self.mode in ("support", "convoy", "protect") and self.target is None:
            target = game.units.get(province)
            if target is not None and target.location in targets:
                self.target = target.location
            return None, []
        matching = [t for t in targets if province_of(t) == province]
        if location in targets:
            matching = [location]
        if not matching:
            return None, []
        if len(matching) > 1:
            return None, matching
        dest = matching[0]
        if self.mode == "support":
            supported = game.units[province_of(self.target or "")]
            if province_of(dest) == supported.province:
                order = f"{unit.type} {unit.location} S {supported.type} {supported.location}"
            else:
                order = f"{unit.type} {unit.location} S {supported.type} {supported.location} - {province_of(dest)}"
        elif self.mode == "convoy":
            army = game.units[province_of(self.target or "")]
            order = f"{unit.type} {unit.location} C {army.type} {army.location} - {dest}"
        elif self.mode == "protect":
            fleet = game.units[province_of(self.target or "")]
            order = f"{unit.type} {unit.location} P {fleet.type} {fleet.location} - {dest}"
        elif kind == "retreat":
            order = f"{unit.type} {unit.location} R {dest}"
        else:
            order = f"{unit.type} {unit.location} - {dest}"
        self.clear_selection()
        return order, []

    def research(self) -> str | None:
        """Cluster (rule 5.1): the research order for the selected unit (None where there is none)."""
        if self.selected is None or self.game.variant.cluster is None or self.game.phase.kind != "movement":
            return None
        unit = self.unit_at(province_of(self.selected))
        self.clear_selection()
        return f"{unit.type} {unit.location} RES" if unit is not None else None

    def build(self, unit_type: str) -> str | None:
        """The build order for the selected build place."""
        if self.selected is None:
            return None
        location = self.selected
        self.clear_selection()
        return f"Build {unit_type} {location}"

    def prompt(self) -> str:
        """One line telling the player what a click does now."""
        game = self.game
        if game.over:
            if game.winner:
                return f"{game.variant.powers[game.winner].name} has won."
            return "The game ended in a draw."
        if not self.at_current:
            return "Looking at a past phase: » returns to the current one."
        if self.readonly:
            return "Only the game master gives orders and adjudicates this game."
        kind = game.phase.kind
        if kind == "adjustment":
            if self.selected:
                return f"Build what in {game.variant.province_name(self.selected)}? Choose Army or Fleet."
            return "Click a highlighted centre to build, or a unit of a power that must remove one."
        if self.selected is None:
            return "Click a unit to order it." if kind == "movement" else "Click a dislodged unit to retreat it."
        unit = self.unit_at(province_of(self.selected))
        name = f"{unit.type} {game.variant.province_name(unit.location)}" if unit else self.selected
        if self.mode == "support":
            return f"{name} supports: click the unit to support" if self.target is None else (
                f"{name} supports {self.target}: click its destination (or the unit again to support it holding)")
        if self.mode == "convoy":
            return f"{name} convoys: click the army" if self.target is None else (
                f"{name} convoys {self.target}: click the destination")
        if self.mode == "protect":
            return f"{name} protects: click the fleet" if self.target is None else (
                f"{name} protects {self.target}: click where it runs")
        if kind == "retreat":
            return f"{name}: click where it retreats (highlighted), or the unit itself to disband."
        return f"{name}: click a highlighted place to move, the unit again to hold, or choose Support / Convoy."


def describe_problem(problem: Any) -> str:
    return str(problem)


__all__ = [
    "Session",
    "Shape",
    "decode_link",
    "encode_link",
    "game_from_text",
    "game_to_text",
    "order_shape",
    "position_snapshot",
]
