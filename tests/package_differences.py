"""Where DATC 3.0 (which Adjutant follows) and the `diplomacy` package (PyPI, 1.1.2) read orders differently:
each difference with its reason, a predicate that finds the orders the package reads its own way, those
orders rewritten to the package's reading, and a small position that shows it. The differential test
(``test_differential.py``) adjudicates a phase with such orders rewritten; the package's saved games
(``test_savedgame.py``) name the differences a game's phases hold."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from adjutant.adjudication.orders import Convoy, Hold, Move, UnitOrder
from adjutant.map.routes import is_convoy_sea
from adjutant.map.variant import Variant, province_of


def _convoy_chain(v: Variant, orders: list[UnitOrder], move: Move) -> bool:
    """Whether fleets ordered to convoy exactly this move (any power) join its start to its end."""
    src, dst = move.unit.province, province_of(move.dest)
    fleets = {
        o.unit.province
        for o in orders
        if isinstance(o, Convoy) and o.target == src and o.dest == dst and is_convoy_sea(v, o.unit.province, "")
    }
    todo = [s for s in fleets if v.touches(s, src, "F")]
    seen = set(todo)
    while todo:
        s = todo.pop()
        if v.touches(s, dst, "F"):
            return True
        for n in fleets - seen:
            if v.can_move("F", s, n):
                seen.add(n)
                todo.append(n)
    return False


def _overland_without_chain(v: Variant, orders: list[UnitOrder], explicit: bool) -> list[Move]:
    """Army moves to a province adjacent by land, ordered 'via convoy' (``explicit``) or else convoyed by a
    fleet of the army's own power, with no chain of fleets ordered to convoy them: the package moves them
    overland."""
    out = []
    for o in orders:
        if not isinstance(o, Move) or o.unit.type != "A":
            continue
        if not v.can_move("A", o.unit.location, province_of(o.dest)):
            continue
        own_convoy = any(
            isinstance(c, Convoy)
            and c.unit.power == o.unit.power
            and c.target == o.unit.province
            and c.dest == province_of(o.dest)
            for c in orders
        )
        intended = o.via_convoy if explicit else (own_convoy and not o.via_convoy)
        if intended and not _convoy_chain(v, orders, o):
            out.append(o)
    return out


def _read_overland(v: Variant, orders: list[UnitOrder], moves: list[Move]) -> list[UnitOrder]:
    """The orders as the package reads them: those moves go overland (no 'via convoy', and the convoy
    orders their own power gave them hold, so that no convoy is intended)."""
    out: list[UnitOrder] = []
    for o in orders:
        m = next((m for m in moves if m.unit == o.unit), None)
        if m is not None:
            out.append(Move(m.unit, m.dest, False))
            continue
        if isinstance(o, Convoy) and any(
            m.unit.power == o.unit.power and m.unit.province == o.target and province_of(m.dest) == o.dest
            for m in moves
        ):
            out.append(Hold(o.unit))
            continue
        out.append(o)
    return out


@dataclass(frozen=True)
class Difference:
    id: str
    datc: str
    reason: str
    #: the moves the package reads differently (empty: the difference is not present in these orders)
    find: Callable[[Variant, list[UnitOrder]], list[Move]]
    #: the orders rewritten to the package's reading
    rewrite: Callable[[Variant, list[UnitOrder], list[Move]], list[UnitOrder]]
    #: a small position showing the difference: units ("england: A wal"), orders (package notation),
    #: and the units after the phase per Adjutant and per the package
    units: tuple[str, ...]
    orders: tuple[str, ...]
    adjutant_after: frozenset[str]
    package_after: frozenset[str]


DIFFERENCES: tuple[Difference, ...] = (
    Difference(
        "implied-convoy-without-route",
        "4.A.3 (2023 rules), 6.G.20",
        "An army ordered to an adjacent province is moving by convoy when a fleet of its own power is "
        "ordered to convoy it from a place on a convoy route (DATC 3.0's preferred 2023 rule); if the "
        "fleets ordered to convoy it do not form a whole route, the convoy fails and the army stays. "
        "The package assumes a convoy only when a whole route of convoying fleets exists; otherwise the "
        "army moves overland. Found in random games: English A wal - yor convoyed by English F iri and "
        "French F eng, with English F nth supporting instead of convoying.",
        lambda v, orders: _overland_without_chain(v, orders, explicit=False),
        _read_overland,
        ("england: A wal", "england: F eng"),
        ("A WAL - YOR", "F ENG C A WAL - YOR"),
        frozenset({"england: A wal", "england: F eng"}),
        frozenset({"england: A yor", "england: F eng"}),
    ),
    Difference(
        "explicit-convoy-without-route",
        "6.G.8, 6.G.20",
        "An army ordered 'via convoy' to an adjacent province moves by convoy or not at all (6.G.20); "
        "with no convoying fleets it does not move (6.G.8: A bel - hol via convoy fails). The package drops "
        "'via' when no route of convoying fleets exists and moves the army overland. (Random legal orders "
        "only say 'via convoy' for places not adjacent, so the predicate guards against a future change.)",
        lambda v, orders: _overland_without_chain(v, orders, explicit=True),
        _read_overland,
        ("france: A bel", "england: F nth", "england: A hol"),
        ("A BEL - HOL VIA", "F NTH - HEL", "A HOL - KIE"),
        frozenset({"france: A bel", "england: F hel", "england: A kie"}),
        frozenset({"france: A hol", "england: F hel", "england: A kie"}),
    ),
)
