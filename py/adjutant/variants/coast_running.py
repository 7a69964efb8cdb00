"""Coast-Running's rules (maps/coast_running.md): a fleet may run along a chain of coasts whose armies
protect it (the "P" order), the 1971 reading of a disrupted route (a carried move fails if any unit ordered
to carry it is dislodged), and "a convoyed attack may not affect the convoying fleets" (nor a run its
protecting armies). Each is a hook of :class:`~adjutant.adjudication.hooks.AdjudicationHooks`, which the
parser, legality and the resolver ask; the variant's data says which of the rules it plays by
(``"options"``: ``protect_order``, ``any_carrier_disrupts``, ``backup_rule``), and the run searches are the
map's (:mod:`adjutant.map.routes`).

>>> from adjutant import load_variant
>>> from adjutant.adjudication.orders import Move, Unit
>>> v = load_variant("coast_running")
>>> rules = CoastRunning()
>>> rules.applies_to(v), rules.applies_to(load_variant("standard"))
(True, False)
>>> rules.carried_move(v, Move(Unit("turkey", "F", "ank"), "aeg"), "spring")
Move(unit=Unit(power='turkey', type='F', location='ank'), dest='aeg', via_convoy=True)
>>> rules.may_carry(v, Unit("italy", "A", "ven")), rules.may_carry(v, Unit("austria", "A", "vie"))
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

from ..adjudication.hooks import CarrierFates
from ..adjudication.orders import Move, Protect, Unit, UnitOrder
from ..map.kinds import Season, UnitType
from ..map.options import RuleOptions
from ..map.routes import is_run, run_destinations, run_ends
from ..map.variant import Variant
from .hooks import VariantRules

#: the options of a variant that plays none of Coast-Running's rules
_CLASSIC = RuleOptions()


class CoastRunning(VariantRules):
    """The hooks of a variant whose options name one of Coast-Running's rules; each hook plays the rule
    its option names, and the classic rule where it names none."""

    title = "Coast-Running"

    def applies_to(self, variant: Variant) -> bool:
        return variant.options != _CLASSIC

    # --- runs and protect orders ----------------------------------------------------------------------
    def carried_move(self, variant: Variant, move: Move, season: Season) -> Move | None:
        """A fleet's move to a place it cannot reach directly is a run (:func:`~adjutant.map.routes.is_run`):
        legal if armies protect an unbroken chain of coast to it, and with no coast named the chain must
        reach only one (both checked with the orders, by the resolver: :meth:`carried_fleet`)."""
        if variant.options.protect_order and is_run(variant, move.unit.location, move.dest):
            return Move(move.unit, move.dest, True)
        return None

    def may_carry(self, variant: Variant, unit: Unit) -> bool:
        """An army in a coastal province may protect a fleet's run."""
        return variant.options.protect_order and unit.type == "A" and variant.provinces[unit.province].type == "coastal"

    def _guards(self, variant: Variant, units: Mapping[str, Unit]) -> list[str]:
        """The provinces of the armies (any power's) that could protect a run."""
        return sorted(u.province for u in units.values() if self.may_carry(variant, u))

    def carried_moves(self, variant: Variant, units: Mapping[str, Unit], prov: str, season: Season) -> list[Move]:
        """The runs the fleet in ``prov`` could be ordered, as moves, one for each place
        :func:`~adjutant.map.routes.run_destinations` gives with every army on a coast protecting it
        (whether the armies do is known with their orders); none for an army, or in a variant without runs."""
        u = units.get(prov)
        if u is None or u.type != "F" or not variant.options.protect_order:
            return []
        return [Move(u, end) for end in run_destinations(variant, u.location, self._guards(variant, units), season)]

    def carrier_orders(self, variant: Variant, units: Mapping[str, Unit], prov: str, season: Season) -> list[Protect]:
        """The protect orders the army in ``prov`` could give, one for each fleet (any power's) and place it
        could run to along a chain of coasts through this army's province (with every army on a coast
        protecting it); none for a fleet, or in a variant without the order."""
        u = units.get(prov)
        if u is None or not self.may_carry(variant, u):
            return []
        guards = self._guards(variant, units)
        return [
            Protect(u, f.province, end)
            for f in sorted(units.values(), key=lambda f: f.province)
            if f.type == "F"
            for end in run_destinations(variant, f.location, guards, season, via=prov)
        ]

    def order_problem(self, variant: Variant, order: UnitOrder, season: Season) -> str:
        if isinstance(order, Protect) and not self.may_carry(variant, order.unit):
            return "only armies on a coast can protect"
        return super().order_problem(variant, order, season)

    def carries(self, carrier: UnitOrder, move: Move, carried: bool) -> bool:
        """A protection is for a fleet's run; a fleet's move to a place it can reach directly is an ordinary
        move, not a run (:func:`~adjutant.map.routes.is_run`): nothing to protect."""
        if isinstance(carrier, Protect):
            return move.unit.type == "F" and carried
        return super().carries(carrier, move, carried)

    def carried_fleet(self, variant: Variant, move: Move, carriers: Collection[str]) -> tuple[Move | None, str]:
        """A run with no chain of protecting armies is illegal. A run with no coast named to a province
        with coasts goes to the one coast its chain reaches (as an ordinary move goes to the only coast it
        could, DATC 4.B, 6.B.2); if it reaches both, it is illegal."""
        ends = set(run_ends(variant, move.unit.location, carriers))
        named = "/" in move.dest or not variant.provinces[move.dest].coasts
        reached = [d for d in ([move.dest] if named else variant.fleet_locations(move.dest)) if d in ends]
        to = variant.province_name(move.dest)
        if not reached:
            where = variant.province_name(move.unit.location)
            return None, f"no unbroken chain of protecting armies runs from {where} to {to}"
        if len(reached) > 1:
            return None, f"say which coast of {to} the run goes to ({', '.join(reached)})"
        return (move if named else Move(move.unit, reached[0], True)), ""

    def carried_path(
        self, variant: Variant, season: Season, move: Move, carriers: Mapping[str, int], holds: Callable[[int], bool]
    ) -> bool:
        """The 1971 reading of an ambiguous route: every unit ordered to carry must survive. A run has its
        path if it ends where it goes along the coasts of the armies whose protection holds (each step
        along a shared coastline, so a run cannot cross a province between two of its coasts)."""
        # (every carrier is resolved, not only until one fails: the order decisions are resolved in)
        if variant.options.any_carrier_disrupts and not all([holds(c) for c in carriers.values()]):
            return False
        if move.unit.type == "F":
            return move.dest in run_ends(variant, move.unit.location, carriers, lambda p: holds(carriers[p]))
        return super().carried_path(variant, season, move, carriers, holds)

    def path_name(self, unit_type: UnitType) -> str:
        return "protected coast" if unit_type == "F" else super().path_name(unit_type)

    def carried_name(self, carrier: UnitOrder) -> str:
        return "the protected fleet" if isinstance(carrier, Protect) else super().carried_name(carrier)

    # --- the backup rule ------------------------------------------------------------------------------
    def voided_moves(
        self, variant: Variant, carried: Mapping[int, Sequence[str]], fates: CarrierFates
    ) -> frozenset[int]:
        """"A convoyed attack may not affect the convoying fleets" (and a run may not affect its protecting
        armies), in a variant whose backup rule is Coast-Running's: a carried move whose attack would change
        the outcome of an attack on any unit carrying it does not take place.

        The rule is decided for all carried moves at once, so that no move's fate hangs on the names of the
        provinces: in each round every carried move not yet void is tried against the same position (the
        moves voided in the rounds before), and those that would affect a carrier are voided together;
        rounds go on until one voids nothing."""
        if variant.options.backup_rule != "coast_running":
            return frozenset()
        watched = sorted({p for provinces in carried.values() for p in provinces})
        voided: frozenset[int] = frozenset()
        while True:
            baseline = fates(voided, watched)
            newly = {
                i
                for i, carriers in carried.items()
                if i not in voided and any(baseline[p] != fate for p, fate in fates(voided | {i}, carriers).items())
            }
            if not newly:
                return voided
            voided |= newly
