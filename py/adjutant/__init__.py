"""Adjutant: a Diplomacy adjudicator for the variants that only ever lived on paper.

The public API: load a variant, start or read a game, give orders, adjudicate, save or share.
"""

from .adjudication.orders import Unit, format_order, parse_order
from .adjudication.phases import Phase
from .errors import AdjutantError, GameFileError, OrderError, VariantError
from .formats.gamefile import dumps, loads
from .formats.link import decode_link, encode_link
from .game import Game, OrderCheck, OrderProblem, PhaseRecord, Position, Result
from .map.variant import Variant, available_variants, load_variant

__all__ = [
    "AdjutantError",
    "Game",
    "GameFileError",
    "OrderCheck",
    "OrderError",
    "OrderProblem",
    "Phase",
    "PhaseRecord",
    "Position",
    "Result",
    "Unit",
    "Variant",
    "VariantError",
    "available_variants",
    "decode_link",
    "dumps",
    "encode_link",
    "format_order",
    "load_variant",
    "loads",
    "parse_order",
]
