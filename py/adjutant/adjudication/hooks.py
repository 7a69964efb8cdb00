"""The hooks through which a variant changes how orders are checked and a movement phase is adjudicated,
and the classic rules (the DATC's) as their base implementation.

Legality (:mod:`.legality`) and the resolver (:mod:`.resolver`) ask :func:`rules_of` for the variant's
hooks and never ask which variant it is. The hooks of each variant with rules of its own are a subclass
of :class:`AdjudicationHooks` in the variant's module (``adjutant.variants``: Coast-Running's runs and
protect orders, Cluster's multiple units), and the variants' registry, which sits above this layer, says
which hooks a variant has (:func:`look_up_rules_with`, called once as the registry is imported).

>>> from adjutant import load_variant
>>> from adjutant.adjudication.orders import Move, Unit
>>> type(rules_of(load_variant("standard"))).__name__, type(rules_of(load_variant("coast_running"))).__name__
('VariantRules', 'CoastRunning')
>>> STANDARD.carried_move(load_variant("standard"), Move(Unit("england", "F", "nth"), "lon"), "spring") is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Protocol

from ..map.kinds import Season, UnitType
from ..map.routes import convoy_chain
from ..map.variant import Variant, province_of
from .orders import CARRIERS, Convoy, Move, Protect, Unit, UnitOrder

#: where the attack that dislodges each watched unit comes from (None: it is not dislodged), by province,
#: in a trial of the phase in which the moves given do not take place (:meth:`AdjudicationHooks.voided_moves`)
CarrierFates = Callable[[frozenset[int], Sequence[str]], Mapping[str, str | None]]


class Deciding(Protocol):
    """What a backup rule may read and decide of a movement phase being resolved (the resolver's)."""

    orders: list[UnitOrder]

    def settle(self, i: int, value: bool) -> None:
        """Decide order ``i``'s decision."""

    def implied_convoys(self, carriers: Iterable[int]) -> list[int]:
        """The moves these carriers carry that were not ordered by convoy and could go over land."""

    def go_overland(self, moves: Iterable[int]) -> None:
        """Send these moves over land, and start again."""


class Supports(Protocol):
    """What a variant's rule for the supports of units of strength other than one may ask of the phase
    being resolved (the resolver's): each order by its index, as the resolver numbers them."""

    #: each unit's own strength, and its province
    k: list[int]
    prov: list[str]
    #: the supports given to each order (those that match it)
    supports_of: dict[int, list[int]]

    def attack_strength(self, i: int) -> int:
        """Move ``i``'s attack strength (DATC 5.B)."""

    def cutters(self, i: int) -> list[int]:
        """The moves that would cut support ``i`` if they are valid attacks."""

    def cuts(self, j: int) -> bool:
        """Whether move ``j`` is an attack real enough to cut a support."""

    def dislodged(self, prov: str) -> bool:
        """Whether the unit in ``prov`` is dislodged."""


class SupportRule(Protocol):
    """A variant's rule for the supports of units of strength other than one, in one phase."""

    def strength(self, s: int) -> int:
        """What support ``s`` adds to the order it supports."""

    def given(self, s: int) -> bool:
        """Whether support ``s`` is given (its decision)."""


class _ClassicSupports:
    """The classic rule for a support by a unit of any strength: cut or dislodged, it gives nothing, else
    its unit's strength."""

    def __init__(self, phase: Supports, given: Callable[[int], bool]) -> None:
        self.phase, self.decided = phase, given

    def strength(self, s: int) -> int:
        return self.phase.k[s] if self.decided(s) else 0

    def given(self, s: int) -> bool:
        phase = self.phase
        return not any(phase.cuts(j) for j in phase.cutters(s)) and not phase.dislodged(phase.prov[s])


class AdjudicationHooks:
    """The classic rules: each hook as the DATC has it. A variant's subclass overrides the hooks its rules
    change; each is handed what it needs and nothing of the resolver's inner state."""

    # --- legality (a movement order, from the map and the season) -----------------------------------
    def carried_move(self, variant: Variant, move: Move, season: Season) -> Move | None:
        """A fleet's move to a place (a real one, its coast named or not) it cannot reach by itself, as a
        move that other units carry (``via_convoy``), checked with the orders by the resolver; None: it is
        illegal. Fleets are carried by no one in the classic rules."""
        return None

    def order_problem(self, variant: Variant, order: UnitOrder, season: Season) -> str:
        """Why an order of a kind the classic rules do not have is illegal ("" if it is legal; the kinds the
        variant takes at all are its data's, :attr:`~adjutant.map.variant.Variant.order_kinds`)."""
        return ""

    def may_carry(self, variant: Variant, unit: Unit) -> bool:
        """Whether ``unit`` may carry a fleet's move (none may in the classic rules)."""
        return False

    # --- the orders offered (adjutant.legal) ----------------------------------------------------------
    def carried_moves(self, variant: Variant, units: Mapping[str, Unit], prov: str, season: Season) -> list[Move]:
        """The moves the unit in ``prov`` could make only carried by others' orders (not convoys: the
        classic rules offer those by the seas), as offered to a player; none in the classic rules."""
        return []

    def carrier_orders(self, variant: Variant, units: Mapping[str, Unit], prov: str, season: Season) -> list[Protect]:
        """The orders the unit in ``prov`` could give to carry another's move (:meth:`carried_moves`), as
        offered to a player; none in the classic rules."""
        return []

    # --- the resolver ---------------------------------------------------------------------------------
    def carries(self, carrier: UnitOrder, move: Move, carried: bool) -> bool:
        """Whether carrying order ``carrier`` (a convoy or another of :data:`~.orders.CARRIERS`) is for
        ``move``, which goes to the same province, ``carried`` telling whether it goes carried: a convoy
        carries an army."""
        return isinstance(carrier, Convoy) and move.unit.type == "A"

    def carried_fleet(self, variant: Variant, move: Move, carriers: Collection[str]) -> tuple[Move | None, str]:
        """A carried fleet's move as it goes, with the units in ``carriers`` (provinces) carrying it (a coast
        filled in), or None and why no such move can be made."""
        return None, "only armies can be convoyed"

    def carried_path(
        self, variant: Variant, season: Season, move: Move, carriers: Mapping[str, int], holds: Callable[[int], bool]
    ) -> bool:
        """Whether a carried move has its path: here, a chain of convoying fleets that hold (``carriers``:
        each carrier's order by its province; ``holds(c)``: whether carrier ``c`` holds, asked lazily
        because the resolver answers it by resolving decisions)."""
        if move.unit.type != "A":
            return False
        return convoy_chain(
            variant, season, move.unit.province, province_of(move.dest), carriers, lambda s: holds(carriers[s])
        )

    def standing_strength(self, order: UnitOrder, strength: int) -> int:
        """The strength a unit of ``strength`` given ``order``, of a kind the classic rules do not have,
        stands with (without its supports): its own."""
        return strength

    def support_rule(self, phase: Supports, given: Callable[[int], bool]) -> SupportRule:
        """The rule for the supports of units of strength other than one in ``phase`` (asked only where
        there are such units; ``given(s)``: support ``s``'s decision, resolved): as for any other."""
        return _ClassicSupports(phase, given)

    def path_name(self, unit_type: UnitType) -> str:
        """What a carried move's path is called in its result ("no convoy path")."""
        return "convoy"

    def carried_name(self, carrier: UnitOrder) -> str:
        """What the unit a carrying order serves is called in its result ("the convoyed army")."""
        return "the convoyed army"

    def voided_moves(
        self, variant: Variant, carried: Mapping[int, Sequence[str]], fates: CarrierFates
    ) -> frozenset[int]:
        """The carried moves (by order, with their carriers' provinces) that do not take place at all
        (the unit holds, with no effect anywhere), worked out before the phase is resolved with
        ``fates``; none in the classic rules."""
        return frozenset()

    def backup(self, resolver: Deciding, cycle: Sequence[int]) -> None:
        """The backup rule for a cycle of decisions with two or no consistent answers: the DATC's
        preferred Szykman rule. Circular movement succeeds; in a convoy paradox, an army whose convoy was
        only implied (it could go over land) goes over land, and otherwise every carrier in the cycle fails
        (so the carried units hold and have no effect)."""
        carriers = [i for i in cycle if isinstance(resolver.orders[i], CARRIERS)]
        implied = resolver.implied_convoys(carriers)
        if implied:
            resolver.go_overland(implied)
        if not carriers:
            for i in cycle:
                resolver.settle(i, isinstance(resolver.orders[i], Move))
            return
        for i in carriers:
            resolver.settle(i, False)


#: the classic rules' hooks
STANDARD = AdjudicationHooks()


def _classic(variant: Variant) -> AdjudicationHooks:
    return STANDARD


_lookup: list[Callable[[Variant], AdjudicationHooks]] = [_classic]


def rules_of(variant: Variant) -> AdjudicationHooks:
    """The hooks ``variant`` is adjudicated by, as the variants' registry names them."""
    return _lookup[0](variant)


def look_up_rules_with(lookup: Callable[[Variant], AdjudicationHooks]) -> None:
    """Have :func:`rules_of` ask ``lookup`` (the variants' registry, which this layer cannot import)."""
    _lookup[0] = lookup


__all__ = [
    "STANDARD",
    "AdjudicationHooks",
    "CarrierFates",
    "Deciding",
    "SupportRule",
    "Supports",
    "look_up_rules_with",
    "rules_of",
]
