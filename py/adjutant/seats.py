"""Computer seats: which powers of a game the computer plays, at which level, with which seed.

A seat is part of the game (its file and its link carry it), so a shared game goes on being played the
same way: a seat's orders for a phase are drawn from the seat's seed and the phase alone
(:func:`phase_seed`), never from a clock.

>>> seat = Seat("heuristic", 7)
>>> seats_from_data(seats_to_data({"turkey": seat}), ["turkey", "italy"], "the file")
{'turkey': Seat(level='heuristic', seed=7)}
>>> phase_seed(seat, "S1901M", "turkey") == phase_seed(seat, "S1901M", "turkey")
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import GameFileError

#: the computer players' levels, weakest first (:mod:`adjutant.bots` says how each decides)
LEVELS = ("random", "heuristic", "search")
DEFAULT_LEVEL = "heuristic"
#: seeds are whole numbers from 0 to this (a link or file giving a larger one is refused)
MAX_SEED = 2**32 - 1


@dataclass(frozen=True)
class Seat:
    """A power played by the computer: its level (one of :data:`LEVELS`) and its seed."""

    level: str = DEFAULT_LEVEL
    seed: int = 0


def seat_problem(level: object, seed: object) -> str:
    """What is wrong with a seat of ``level`` and ``seed`` ("" when nothing is)."""
    if not isinstance(level, str) or level not in LEVELS:
        shown = repr(level)[:40]
        return f"{shown} is not a computer player's level (the levels are {', '.join(LEVELS)})"
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        shown = repr(seed)[:40]
        return f"{shown} is not a computer player's seed (a whole number from 0 to {MAX_SEED})"
    return ""


def phase_seed(seat: Seat, phase: str, power: str) -> int:
    """The seed of ``power``'s orders in ``phase`` (its text, ``S1901M``): from the seat's seed and the
    phase alone, the same in every Python (no salted ``hash``)."""
    digest = hashlib.sha256(f"{seat.seed}:{phase}:{power}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def seats_to_data(seats: Mapping[str, Seat]) -> dict[str, dict[str, Any]]:
    """The seats as the game file writes them: ``{power: {"level": ..., "seed": ...}}``, powers sorted."""
    return {power: {"level": s.level, "seed": s.seed} for power, s in sorted(seats.items())}


def seats_from_data(data: Any, powers: Collection[str], where: str) -> dict[str, Seat]:
    """The seats :func:`seats_to_data` wrote; raises :class:`GameFileError` naming what is wrong."""
    if not isinstance(data, dict):
        raise GameFileError(f"{where}: the computer seats must be an object of power: seat")
    seats: dict[str, Seat] = {}
    for power, seat in data.items():
        if power not in powers:
            raise GameFileError(f"{where}: a computer seat names {str(power)[:40]!r}, which is not a power of the game")
        if not isinstance(seat, dict) or set(seat) - {"level", "seed"}:
            raise GameFileError(f"{where}: the computer seat of {power} must be an object of level and seed")
        level, seed = seat.get("level", DEFAULT_LEVEL), seat.get("seed", 0)
        problem = seat_problem(level, seed)
        if problem:
            raise GameFileError(f"{where}: the computer seat of {power}: {problem}")
        seats[power] = Seat(level, seed)
    return dict(sorted(seats.items()))
