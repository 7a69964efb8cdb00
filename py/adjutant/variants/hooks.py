"""The named hooks through which a variant adds rules of its own, and the classic rules, whose every hook
is the plain path (it adds nothing).

A variant with rules of its own subclasses :class:`VariantRules` in the module that holds those rules
(Cluster Diplomacy's: :mod:`adjutant.variants.cluster`) and is listed in :mod:`adjutant.variants.registry`. The game
(:mod:`adjutant.game`), its file (:mod:`adjutant.formats.gamefile`), its link (:mod:`adjutant.formats.link`) and the
orders offered (:mod:`adjutant.legal`) call the hooks and never ask which variant answers. What the variant adds
to a position is its :class:`VariantState`, kept in the position and opaque to everything but its rules.

>>> from adjutant import load_variant
>>> classic = VariantRules()
>>> classic.start(load_variant("standard"), seed=1) is None
True
>>> classic.nominations_refused(load_variant("standard"), None)
'there are no multiple units in Standard Diplomacy'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..adjudication.hooks import AdjudicationHooks
from ..adjudication.orders import Disband, Order, Retreat, Unit, UnitOrder, VariantPowerOrder
from ..adjudication.phases import AdjustmentResult, Phase, RetreatResult
from ..adjudication.resolver import MovementOutcome
from ..errors import OrderError
from ..map.variant import Variant


@dataclass(frozen=True)
class VariantState:
    """What a variant's rules add to a position (``Position.variant_state``); each variant with a state
    subclasses it. The classic rules add nothing (the position holds None)."""


class Objection(NamedTuple):
    """What a variant's rules say against an order as it is given."""

    reason: str
    #: True: the order cannot be given at all; False: it is taken, and is adjudicated as illegal (it holds)
    refused: bool


class VariantMovement(NamedTuple):
    """A movement phase adjudicated by a variant's own rules (:meth:`VariantRules.adjudicate_movement`)."""

    outcome: MovementOutcome
    state: VariantState | None
    #: the orders that counted, one per unit (some given may not: a host follows one power's orders)
    orders: list[UnitOrder]


class VariantRules(AdjudicationHooks):
    """The classic rules: every hook leaves the plain adjudication as it is. A variant's subclass overrides
    the hooks its rules need: those of the game here, each handed the position's :class:`VariantState`
    (None in a game whose variant adds none), and those of legality and the resolver
    (:class:`~adjutant.adjudication.hooks.AdjudicationHooks`)."""

    #: the rules' name in messages
    title = "classic"
    #: the key of the variant's state in a game file (None: the variant adds none, and has no views)
    file_key: str | None = None
    #: whether a game's setup is hidden (Cluster's sites), so that it cannot be replayed from its orders
    #: alone: its link then holds its game file
    hidden_setup: bool = False
    #: whether a game keeps secrets from its players (Cluster's sites, multiples and transfers): it is
    #: never shared in the clear, so its group game is the variant's own, and a sealed orders code, drafted
    #: in a player's view, is checked again against the game master's game as its orders are taken in
    keeps_secrets: bool = False

    def applies_to(self, variant: Variant) -> bool:
        """Whether these are ``variant``'s rules (the classic rules are every other variant's)."""
        return False

    # --- the start ------------------------------------------------------------------------------------
    def start(self, variant: Variant, seed: int | None) -> VariantState | None:
        """The state of a new game; ``seed`` draws a hidden setup (a random one if None)."""
        return None

    # --- orders ---------------------------------------------------------------------------------------
    def orderable(
        self,
        state: VariantState | None,
        power: str,
        kind: str,
        units: Mapping[str, Unit],
        dislodged: Mapping[str, Unit],
    ) -> tuple[Mapping[str, Unit], Mapping[str, Unit]]:
        """The units (and the dislodged ones) as ``power`` may order them in a phase of ``kind``."""
        return units, dislodged

    def nominations_refused(self, variant: Variant, state: VariantState | None) -> str:
        """Why no nomination (:class:`~adjutant.variants.cluster_orders.Nominate`, an order of the variant's own
        kind given by a power) can be made in the game ("" if they can)."""
        return f"there are no multiple units in {variant.name}"

    def nomination(
        self,
        variant: Variant,
        state: VariantState | None,
        phase: Phase,
        units: Mapping[str, Unit],
        power: str,
        level: int,
        location: str | None,
    ) -> VariantPowerOrder:
        """The nomination of ``power``'s ``level`` times force unit, the unit in ``location`` (None: a later
        build), as :meth:`adjutant.game.Game.nominate` gives it; raises
        :class:`~adjutant.errors.OrderError` saying why none can be made now."""
        raise OrderError(self.nominations_refused(variant, state))

    def nomination_problem(
        self,
        variant: Variant,
        state: VariantState | None,
        units: Mapping[str, Unit],
        order: VariantPowerOrder,
        pending: Iterable[VariantPowerOrder],
    ) -> str:
        """Why ``order`` cannot be made now ("" if it can), beside the power's other ``pending`` ones."""
        return self.nominations_refused(variant, state)

    def unit_order_problem(self, variant: Variant, state: VariantState | None, order: UnitOrder) -> Objection | None:
        """What the variant's rules say against a movement order before the classic check (None: nothing)."""
        return None

    def unit_candidates(
        self, variant: Variant, state: VariantState, units: Mapping[str, Unit], unit: Unit
    ) -> list[Order]:
        """The orders of the variant's own a unit could give, after the classic ones (:mod:`adjutant.legal`)."""
        return []

    def candidates_for_others(self, state: VariantState | None, units: Mapping[str, Unit], prov: str) -> list[Order]:
        """The orders another power than its owner may give for the unit in ``prov``."""
        return []

    def random_orders(
        self,
        variant: Variant,
        state: VariantState | None,
        units: Mapping[str, Unit],
        legal: Callable[[str], list[UnitOrder]],
        rng: random.Random,
    ) -> list[Order]:
        """The variant's own orders drawn at random in a movement phase, beside one order per unit (for
        the random games of :mod:`adjutant.randomgame`); ``legal(prov)`` is the legal orders of the unit
        in ``prov``."""
        return []

    # --- adjudication ---------------------------------------------------------------------------------
    def view_of(self, state: VariantState | None) -> str | None:
        """Whose view of the game, for display only, the state is (None: the whole game, adjudicated)."""
        return None

    def adjudicates_movement(self, state: VariantState | None) -> bool:
        """Whether the variant adjudicates a movement phase itself (:meth:`adjudicate_movement`)."""
        return False

    def adjudicate_movement(
        self,
        variant: Variant,
        phase: Phase,
        units: Mapping[str, Unit],
        state: VariantState | None,
        given: Sequence[UnitOrder],
        nominations: Sequence[VariantPowerOrder],
    ) -> VariantMovement:
        """A movement phase by the variant's own rules, around the resolver."""
        raise NotImplementedError(f"{type(self).__name__} leaves movement to the classic rules")

    def retreat_orders(
        self, state: VariantState | None, dislodged: Mapping[str, Unit], given: list[Retreat | Disband]
    ) -> list[Retreat | Disband]:
        """The retreat orders that count, of those given."""
        return given

    def after_retreats(
        self, variant: Variant, state: VariantState | None, units: dict[str, Unit], results: list[RetreatResult]
    ) -> tuple[dict[str, Unit], VariantState | None, list[RetreatResult]]:
        """The units and state after a retreat phase, and what else happened in it."""
        return units, state, []

    def after_adjustments(
        self, state: VariantState | None, before: Mapping[str, Unit], after: dict[str, Unit]
    ) -> tuple[dict[str, Unit], VariantState | None, list[AdjustmentResult]]:
        """The units and state after an adjustment phase (the units ``before`` and ``after`` it), and what
        else happened in it."""
        return after, state, []

    def adjustments_skipped(self, state: VariantState | None) -> VariantState | None:
        """The state after an adjustment phase skipped (nothing to decide in it)."""
        return state

    # --- a position set up (adjutant.setup) -----------------------------------------------------------------
    #: the settings the variant adds to the set-up notation (``--strengths`` …), in the order written
    setup_keys: tuple[str, ...] = ()

    def set_up_state(
        self,
        variant: Variant,
        state: VariantState | None,
        phase: Phase,
        units: Mapping[str, Unit],
        dislodged: Mapping[str, Unit],
        settings: Mapping[str, str],
    ) -> tuple[VariantState | None, list[str]]:
        """The state of a game set up at ``phase`` with ``units`` (and ``dislodged`` units, by province):
        ``state`` (as :meth:`start` drew it) with the variant's own ``settings`` (texts by key of
        :attr:`setup_keys`) applied; and every problem they have."""
        return state, []

    def setup_settings(
        self, variant: Variant, state: VariantState | None, units: Mapping[str, Unit], dislodged: Mapping[str, Unit]
    ) -> dict[str, str]:
        """The variant's own settings of a position with ``units`` (and ``dislodged`` units, by province)
        in the notation (:meth:`set_up_state` reads them back), by key; none where there is nothing to say."""
        return {}

    # --- the game file ------------------------------------------------------------------------------------
    def file_section(self, state: VariantState | None) -> Any:
        """What the file of a whole game keeps of its state, under :attr:`file_key`."""
        return None

    def state_from_file(self, variant: Variant, section: Any) -> VariantState | None:
        """The state at the start of a game read from its file's section (:meth:`file_section`); raises
        :class:`~adjutant.errors.GameFileError` saying what is wrong."""
        return None

    def state_to_data(self, state: VariantState | None) -> Any:
        """A view's state as JSON, written with each of its positions."""
        return None

    def state_from_data(self, variant: Variant, data: Any) -> VariantState | None:
        """A view's state read back (:meth:`state_to_data`); raises :class:`~adjutant.errors.GameFileError`."""
        return None

    def game_id(self, state: VariantState | None) -> str | None:
        """The id that tells one game's views and parts from another's (None: the variant keeps none)."""
        return None


#: the rules of every variant without rules of its own
CLASSIC = VariantRules()


__all__ = ["CLASSIC", "Objection", "VariantMovement", "VariantRules", "VariantState"]
