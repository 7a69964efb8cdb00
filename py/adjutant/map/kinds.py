"""The engine's closed sets of words, as types: a phase's kind, a season, a unit's type. Each is a ``Literal``,
so that mypy checks every place one is written or compared (a misspelt word is a type error, not a phase that
never comes).

>>> PHASE_KINDS, SEASONS, UNIT_TYPES
(('movement', 'retreat', 'adjustment'), ('spring', 'fall', 'winter'), ('A', 'F'))
>>> unit_type_of("F stp/sc".split()[0])
'F'
>>> unit_type_of("Army")
Traceback (most recent call last):
...
adjutant.errors.AdjutantError: 'Army' is not a unit type (A or F)
"""

from __future__ import annotations

from typing import Literal, get_args

from ..errors import AdjutantError

#: what is decided in a phase: units' moves, dislodged units' retreats, or winter's builds and removals
PhaseKind = Literal["movement", "retreat", "adjustment"]
#: the seasons of a game year (movement and retreats in spring and fall, adjustments in winter)
Season = Literal["spring", "fall", "winter"]
#: an army or a fleet
UnitType = Literal["A", "F"]

PHASE_KINDS: tuple[PhaseKind, ...] = get_args(PhaseKind)
SEASONS: tuple[Season, ...] = get_args(Season)
UNIT_TYPES: tuple[UnitType, ...] = get_args(UnitType)



def unit_type_of(letter: str) -> UnitType:
    """The unit type a letter names, in text already read as a unit's ("A par", "F stp/sc")."""
    if letter == "A":
        return "A"
    if letter == "F":
        return "F"
    raise AdjutantError(f"{letter[:20]!r} is not a unit type (A or F)")


__all__ = ["PHASE_KINDS", "SEASONS", "UNIT_TYPES", "PhaseKind", "Season", "UnitType", "unit_type_of"]
