"""Cluster Diplomacy's own kinds of order: Research, Transfer, Mattermission (rule 5) and the nomination of
a multiple unit (rule 2), each with its grammar, canonical text and long form. Listed with the parser as
this module is imported (:func:`~adjutant.adjudication.orders.add_order_kind`), they are read wherever a
variant's data names their kinds (Cluster's ``"cluster"`` section does); their rules are
:mod:`adjutant.variants.cluster`'s.

>>> from adjutant import Game, format_order
>>> from adjutant.adjudication.orders import describe, parse_order
>>> game = Game.new("cluster", seed=1)
>>> order = parse_order("France: Nominate 3 Paris", game.variant, game.units)
>>> order, format_order(order)
(Nominate(power='france', level=3, location='par'), 'Nominate 3 par')
>>> describe(parse_order("A Par research", game.variant, game.units), game.variant)
'Army Paris RESEARCH.'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from ..adjudication.orders import (
    UNIT_NAMES,
    OrderReader,
    PowerOrderKind,
    Unit,
    UnitOrderKind,
    VariantPowerOrder,
    VariantUnitOrder,
    add_order_kind,
    long_unit,
)
from ..map.kinds import UnitType
from ..map.variant import Variant, province_of


@dataclass(frozen=True, slots=True)
class Research(VariantUnitOrder):
    """Cluster Diplomacy: the unit stands, one weaker, and learns the site it stands on."""

    KIND: ClassVar[str] = "research"
    NOUN: ClassVar[str] = "research"
    STANDS: ClassVar[bool] = True

    def text(self) -> str:
        return f"{self.unit} RES"

    def long_form(self, variant: Variant) -> str:
        return f"{long_unit(variant, self.unit)} RESEARCH."

    def drawn(self) -> tuple[str, str, str]:
        return "research", "", ""


@dataclass(frozen=True, slots=True)
class Transfer(VariantUnitOrder):
    """Cluster Diplomacy (5.2): the unit's aura takes over the unit in ``target``; the unit stands."""

    KIND: ClassVar[str] = "transfer"
    NOUN: ClassVar[str] = "transfer"

    target: str
    target_type: UnitType

    def text(self) -> str:
        return f"{self.unit} TRA {self.target_type} {self.target}"

    def long_form(self, variant: Variant) -> str:
        host = f"{UNIT_NAMES[self.target_type]} {variant.province_name(self.target)}"
        return f"{long_unit(variant, self.unit)} TRANSFER to {host}."

    def drawn(self) -> tuple[str, str, str]:
        return "transfer", "", self.target


@dataclass(frozen=True, slots=True)
class Mattermit(VariantUnitOrder):
    """Cluster Diplomacy (5.3): the unit is sent from its Site of the Ancients to ``dest``."""

    KIND: ClassVar[str] = "mattermission"
    NOUN: ClassVar[str] = "mattermission"

    dest: str

    def text(self) -> str:
        return f"{self.unit} MAT {self.dest}"

    def long_form(self, variant: Variant) -> str:
        return f"{long_unit(variant, self.unit)} MATTERMIT to {variant.province_name(self.dest)}."

    def drawn(self) -> tuple[str, str, str]:
        return "mattermit", self.dest, ""


@dataclass(frozen=True, slots=True)
class Nominate(VariantPowerOrder):
    """Cluster Diplomacy (rule 2): which unit of the power is its ``level`` times force unit, or None to
    leave it to a later build. Secret; given in a movement phase."""

    KIND: ClassVar[str] = "nomination"
    NOUN: ClassVar[str] = "nomination"

    level: int
    location: str | None = None

    def text(self) -> str:
        return f"Nominate {self.level} " + (self.location or "later")

    def long_form(self, variant: Variant) -> str:
        where = variant.province_name(self.location) if self.location else "a later build"
        return f"Nominate {self.level} times force: {where}."

    def problem(self, variant: Variant) -> str:
        if self.level in variant.multiples:
            return ""
        levels = " or ".join(str(k) for k in variant.multiples)
        return f"there is no {self.level} times force unit to nominate (only {levels})"

    def slot(self) -> object:
        """A power names one unit for each level."""
        return self.level

    def record_key(self) -> str:
        """Strongest first."""
        return str(9 - self.level)


def _research(r: OrderReader, unit: Unit, units: Mapping[str, Unit]) -> Research:
    """``A Par RES``."""
    r.expect_end()
    return Research(unit)


def _transfer(r: OrderReader, unit: Unit, units: Mapping[str, Unit]) -> Transfer:
    """``F Lon TRA F Edi``: the unit taken over is named by its place (and type, if given)."""
    ttype = r.unit_type()
    target = r.place("the unit taken over")
    r.expect_end()
    host = units.get(province_of(target))
    if host is None or (ttype is not None and host.type != ttype):
        what = UNIT_NAMES[ttype] if ttype else "unit"
        raise r.error(f"there is no {what} in {r.v.province_name(target)} to take over")
    return Transfer(unit, host.province, host.type)


def _mattermit(r: OrderReader, unit: Unit, units: Mapping[str, Unit]) -> Mattermit:
    """``F Lon MAT Nth``."""
    dest = r.place("where the unit is mattermitted")
    r.expect_end()
    return Mattermit(unit, dest)


def _nominate(r: OrderReader, power: str | None, units: Mapping[str, Unit]) -> Nominate:
    """``Nominate 3 A par`` / ``Nominate 2 later`` (rule 2)."""
    level_text = r.peek()
    # ASCII digits only, and few (int() reads "²" and other Unicode digits, and refuses 5,000 of them)
    if level_text is None or re.fullmatch(r"[0-9]{1,3}", level_text.rstrip("x")) is None:
        raise r.error("say which multiple is nominated (e.g. 'Nominate 3 A Par' or 'Nominate 2 later')")
    level = int(level_text.rstrip("x"))
    r.advance()
    location: str | None = None
    if r.peek() in ("later", "defer", "deferred", "none"):
        r.advance()
    else:
        utype = r.unit_type()
        loc = r.place("the nominated unit")
        unit = r.own_unit(units, utype, loc, power)
        power = unit.power
        location = unit.location
    r.expect_end()
    if power is None:
        raise r.error("say which power nominates (e.g. 'France: Nominate 2 later')")
    return Nominate(power, level, location)


#: Cluster's kinds of order as the parser reads them
KINDS = (
    UnitOrderKind(Research, "RES", ("res", "research", "researches"), _research),
    UnitOrderKind(Transfer, "TRA", ("tra", "transfer", "transfers"), _transfer),
    UnitOrderKind(Mattermit, "MAT", ("mat", "mattermit", "mattermits"), _mattermit),
    PowerOrderKind(Nominate, "NOM", ("nominate", "nominates"), _nominate),
)
for _kind in KINDS:
    add_order_kind(_kind)


__all__ = ["KINDS", "Mattermit", "Nominate", "Research", "Transfer"]
