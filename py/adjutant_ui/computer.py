"""Computer players as the page uses them, in plain Python (no `js`), so CPython tests can drive it.

The engine's bots (:mod:`adjutant.bots`) choose the orders; the game records which powers the computer
plays (``Game.computer``: a seat's level and seed, kept in its link and file). This module says what the
page shows of them (the levels' names, who plays what), which powers the computer is to order now, and
thinks for them in slices: :func:`think` runs the engine's :class:`~adjutant.bots.Thinker` a slice at a
time and awaits the ``pause`` it is given between slices, where the page hands the browser its turn
(input, painting), so no task of the page's main thread runs long (docs/computer-players.md).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterable
from typing import NamedTuple

from adjutant import AdjutantError
from adjutant.adjudication.orders import POWER_ORDERS, Order
from adjutant.bots import DEFAULT_LEVEL, LEVELS, Thinker
from adjutant.game import Game

#: each level's name on the page, and what it means for a newcomer
LEVEL_NAMES = {"random": "Easy", "heuristic": "Normal", "search": "Strong"}
LEVEL_HINTS = {
    "random": "random legal orders: a first game, to learn the map",
    "heuristic": "plays like the classic DumbBot: takes centres, defends its own",
    "search": "tries its options against likely replies with the adjudicator: thinks longer",
}
#: how long one slice of thinking runs, in ms: with the page's own work around it, a task well under
#: the 100 ms after which the browser counts it a long task (and input waits)
SLICE_MS = 25.0


def level_name(level: str) -> str:
    """A level as the page names it (``Normal``); an unknown one by its id."""
    return LEVEL_NAMES.get(level, level)


def level_choices() -> list[tuple[str, str]]:
    """(level, label) for the page's level selectors, easiest first: ``("heuristic", "Normal: plays like …")``."""
    return [(level, f"{level_name(level)}: {LEVEL_HINTS[level]}" if level in LEVEL_HINTS else level)
            for level in LEVELS]


def names(game: Game, powers: Iterable[str]) -> str:
    """Powers' names as a sentence lists them: ``Austria, England and France``."""
    return joined(game.variant.powers[p].name for p in powers if p in game.variant.powers)


def joined(items: Iterable[str]) -> str:
    """Items as a sentence lists them: ``Fall 1901 retreat and Winter 1901 adjustments``."""
    said = list(items)
    if len(said) < 2:
        return "".join(said)
    return ", ".join(said[:-1]) + " and " + said[-1]


def seated(game: Game) -> dict[str, str]:
    """The powers the computer plays, with their level, in the variant's order of powers."""
    return {p: game.computer[p].level for p in game.variant.powers if p in game.computer}


def people(game: Game) -> list[str]:
    """The powers people play (every power the computer does not)."""
    return [p for p in game.variant.powers if p not in game.computer]


def to_order(game: Game, powers: Iterable[str]) -> list[str]:
    """Those of ``powers`` the computer is to order in this phase: in a movement or retreat phase, those
    with a unit still without an order (:func:`give` orders those units only, so an order a person gave a
    computer player's unit stays); in an adjustment phase, those with builds or removals due that have
    given none."""
    if game.over:
        return []
    due = game.orders_due()
    whole = game.phase.kind == "adjustment"
    return [p for p in powers if p in due and not (whole and game.orders_of(p))]


def plays_alone(game: Game) -> bool:
    """Whether the computer plays the current phase by itself, as soon as it is reached: a retreat or
    adjustment phase in which the computer's powers have something to order and the people's powers
    nothing (only the computer's units dislodged; no person's power building or removing). A movement
    phase waits for Adjudicate, even with nothing of the people's left on the board: it is the game's
    turn, and a game the computer plays alone is watched one movement at a time."""
    if game.over or game.phase.kind == "movement" or not game.computer:
        return False
    return not to_order(game, people(game)) and bool(to_order(game, seated(game)))


def summary(game: Game) -> str:
    """What the Computer players panel says of the game: who the computer plays, and who people play."""
    seats = seated(game)
    if not seats:
        return "Every power is played by a person. Hand a power to the computer below, or let it give orders for you."
    levels = sorted({level_name(level) for level in seats.values()})
    level = f" ({', '.join(levels)})"
    humans = people(game)
    if not humans:
        return f"The computer plays every power{level}: press Adjudicate to watch."
    return (f"The computer plays {names(game, seats)}{level}; people play {names(game, humans)}. Give "
            "your orders and press Adjudicate: the computer gives its orders then.")


def played_note(game: Game) -> str:
    """For the message to players after an adjudication: which powers the computer played in the phase just
    adjudicated (those it plays that gave orders there), "" if none. A phase the rules skipped (a retreat
    phase with nobody dislodged) is not the one adjudicated."""
    record = next((r for r in reversed(game.history) if not r.skipped), None)
    if record is None or not game.computer:
        return ""
    played = [p for p in seated(game) if record.orders.get(p)] or list(seated(game))
    return f"The computer played {names(game, played)} in {record.phase.title}."


def with_note(message: str, game: Game) -> str:
    """The message to players with :func:`played_note` put in before its last paragraph (the new link), if
    the computer played any power."""
    note = played_note(game)
    if not note:
        return message
    head, sep, link = message.rstrip("\n").rpartition("\n\n")
    return f"{head}\n\n{note}\n\n{link}\n" if sep else f"{message.rstrip()}\n\n{note}\n"


def thinkers(game: Game, powers: Iterable[str], level: str | None = None, seed: int = 0) -> list[Thinker]:
    """The thinking that orders ``powers``: the computer's own seats each at its level with its seed for
    the phase (the orders :func:`adjutant.bots.computer_orders` gives, so a shared game replays), the
    others (a sandbox's powers the computer is asked to fill) at ``level`` with ``seed``."""
    wanted = list(powers)
    seats = [p for p in wanted if p in game.computer]
    rest = [p for p in wanted if p not in game.computer]
    out = [Thinker.for_seats(game, seats)] if seats else []
    if rest:
        out.append(Thinker(game, rest, level or DEFAULT_LEVEL, seed))
    return out


class Progress(NamedTuple):
    """How far thinking has got: a fraction (0 to 1), and every power being thought for."""

    done: float
    powers: tuple[str, ...]


async def think(
    game: Game,
    todo: list[Thinker],
    pause: Callable[[], Awaitable[object]],
    report: Callable[[Progress], None] = lambda progress: None,
    stopped: Callable[[], bool] = lambda: False,
) -> dict[str, list[Order]] | None:
    """The orders of every power of ``todo``, thought in slices of :data:`SLICE_MS`, ``pause`` awaited
    after each (and ``report`` told the progress); None if ``stopped()`` said so at a pause. The game is
    not changed: the caller gives the orders (:func:`give`).

    >>> import asyncio
    >>> game = Game.new("standard")
    >>> async def pause() -> None: pass
    >>> orders = asyncio.run(think(game, thinkers(game, ["england"], "random", seed=1), pause))
    >>> sorted(orders) == ["england"] and len(orders["england"]) == 3
    True
    """
    everyone = tuple(p for thinker in todo for p in thinker.powers)
    total = len(everyone) or 1
    finished = 0
    out: dict[str, list[Order]] = {}
    for thinker in todo:
        share = len(thinker.powers)
        while True:
            over = thinker.step(ms=SLICE_MS)
            report(Progress((finished + share * thinker.progress) / total, everyone))
            if over:
                break
            await pause()
            if stopped():
                return None
        out.update(thinker.orders())
        finished += share
    return out


async def in_slices(steps: Iterable[object], pause: Callable[[], Awaitable[object]]) -> int:
    """Run ``steps`` through, :data:`SLICE_MS` at a time, awaiting ``pause`` between two slices; how many
    pauses were awaited. For work around the thinking that comes in steps (the next link's,
    :func:`adjutant.formats.link.link_steps`).

    >>> import asyncio
    >>> async def pause() -> None: pass
    >>> asyncio.run(in_slices(iter(range(3)), pause))
    0
    """
    pauses = 0
    start = time.perf_counter()
    for _ in steps:
        if (time.perf_counter() - start) * 1000 >= SLICE_MS:
            await pause()
            pauses += 1
            start = time.perf_counter()
    return pauses


def _untouched(order: Order, kinds: set[type], ordered: set[str]) -> bool:
    """Whether ``order`` gives what nobody has ordered yet: a power's order of a kind its power has not
    given (``kinds``), or a unit's order for a province not in ``ordered``."""
    return type(order) not in kinds if isinstance(order, POWER_ORDERS) else order.unit.province not in ordered


def give(game: Game, orders: dict[str, list[Order]]) -> list[str]:
    """Give the computer's orders where nothing is ordered yet (:func:`to_order`): a unit's order where the
    unit has none, a power's order (a build, a nomination) where the power gave none of its kind, and an
    adjustment phase's only to a power that gave none. Returns the powers given orders."""
    adjusting = game.phase.kind == "adjustment"
    ordered = {o.unit.province for os in game.all_orders().values() for o in os if not isinstance(o, POWER_ORDERS)}
    given = []
    for power, mine in orders.items():
        own = game.orders_of(power)
        if adjusting and own:
            continue
        kinds = {type(o) for o in own}
        fresh = [o for o in mine if _untouched(o, kinds, ordered)]
        for order in fresh:
            game.add_order(order)
        if fresh:
            given.append(power)
    return given


def check_level(level: str) -> str:
    """``level`` if it is one of the engine's, else an AdjutantError naming the levels."""
    if level not in LEVELS:
        raise AdjutantError(f"{level!r} is not a computer player's level: {', '.join(LEVELS)}")
    return level
