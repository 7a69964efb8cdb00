"""What the page shows and does, in plain Python (no `js`, no `pyscript`), so CPython tests can drive it.

A :class:`Session` holds the game, the phase being looked at, and the click-to-order state; the page
(:mod:`adjutant_ui.app`) turns clicks and keys into calls here and draws what comes back.
"""

from __future__ import annotations

import contextlib
import gc
import random
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Collection, Generator, Iterator
from dataclasses import dataclass, field
from typing import Any

from adjutant import AdjutantError, GameFileError, load_variant
from adjutant.adjudication.orders import (
    POWER_ORDERS,
    Build,
    Convoy,
    Disband,
    Move,
    Order,
    Protect,
    Support,
    format_order,
    order_power,
)
from adjutant.formats import gamefile as _gamefile
from adjutant.formats import link as _codec
from adjutant.formats.report import place_labels
from adjutant.game import Game, OrderProblem, PhaseRecord, Position
from adjutant.group_play.cluster_views import for_players, players_view
from adjutant.map.variant import Variant, province_of
from adjutant.pictures import scene as _scene
from adjutant.pictures.drawing import Drawing
from adjutant.pictures.scene import PhaseMarks, Shape, order_shape
from adjutant.randomgame import random_orders
from adjutant.steps import run_to_end
from adjutant.variants.cluster import GM, cluster_state
from adjutant.variants.cluster_orders import Mattermit, Nominate, Research, Transfer

from .adjustments import (
    adjustments_given,
    all_given,
    build_texts,
    builds_in,
    named,
    not_yours,
    player_prompt,
    still_due,
    withdraw,
)
from .results_report import result_sentences, results_text
from .sealed import SealedLink, decode_sealed_link, is_sealed_link, public_game


# --- saving and sharing ---------------------------------------------------------------------------
def game_to_text(game: Game) -> str:
    """The game file (JSON text)."""
    return _gamefile.dumps(game)


def _refuse_unexpected(what: str, error: Exception) -> GameFileError:
    """A GameFileError for anything else a hostile or damaged link or file made the reader raise (a
    number too long to convert, a structure nested too deep, ...): the page shows it as a message and
    keeps the game in hand, instead of failing to start."""
    detail = str(error).split("\n")[0][:200] or type(error).__name__
    return GameFileError(f"{what} is damaged: {detail}")


@contextlib.contextmanager
def _as_game_file_error(what: str) -> Iterator[None]:
    """Whatever the engine's readers raise inside comes out as a GameFileError naming ``what``."""
    try:
        yield
    except GameFileError:
        raise
    except AdjutantError as error:
        raise GameFileError(str(error)) from None
    except Exception as error:  # noqa: BLE001 - whatever hostile input triggers becomes a clear message
        raise _refuse_unexpected(what, error) from None


def _read(what: str, reader: Callable[[str], Game], text: str) -> Game:
    """Run one of the engine's readers; anything it raises comes out as a GameFileError naming ``what``."""
    with _as_game_file_error(what):
        return reader(text)


def game_from_text(text: str) -> Game:
    """Read a game file; a bad one raises GameFileError (never anything else) and changes nothing."""
    return _read("the file", _gamefile.loads, text)


def encode_link(game: Game) -> str:
    """The URL fragment (without '#') that holds the game."""
    return _codec.encode_link(game)


def decode_link(fragment: str) -> Game:
    """The game in a URL fragment; a corrupt, truncated or hostile one raises GameFileError (never
    anything else)."""
    enabled = gc.isenabled()
    gc.disable()  # for speed: decoding makes many objects, all kept, and the collector would scan them
    try:
        return _read("the link", _codec.decode_link, fragment.lstrip("#").strip())
    finally:
        if enabled:
            gc.enable()


def decoding(fragment: str, carried: Callable[[Game], None] | None = None) -> Generator[int, None, Game]:
    """:func:`decode_link` one phase at a time (:func:`adjutant.formats.link.decoding`): yields after each phase
    replayed (and 0 once the position a link carries is read, given to ``carried``), returns the game;
    raises only GameFileError. The page pauses between the phases of a long game's link, so that the
    browser draws and answers input meanwhile."""
    enabled = gc.isenabled()
    gc.disable()  # (as decode_link does, from one phase to the next)
    try:
        with _as_game_file_error("the link"):
            return (yield from _codec.decoding(fragment.lstrip("#").strip(), carried))
    finally:
        if enabled:
            gc.enable()


#: the longest stretch, in seconds, a link's replay runs before the page gets its turn (a long task is one
#: over 50 ms; each turn costs the replay a few milliseconds more)
SLICE_S = 0.04


def reading(
    fragment: str, carried: Callable[[Session], None] | None = None
) -> Generator[int, None, tuple[Session, SealedLink | None]]:
    """The one reader of a link's fragment, one phase at a time: yields after each phase replayed and
    returns the session that shows the game (:meth:`Session.of`: a Cluster game against the computer as
    its people see it), with the sealed link for a game with secrets (its public view, read only; None
    for an ordinary game). A link that carries its current position has it given to ``carried`` first,
    as a read-only session to be shown while the history is replayed (the replay must reach it: it is
    not the game until then). Raises only GameFileError, and replaces nothing: the caller keeps what it
    had until the session is returned."""
    if is_sealed_link(fragment):
        link = decode_sealed_link(fragment)
        return Session(public_game(link), readonly=True), link
    shown = None if carried is None else lambda game: carried(Session(game, readonly=True))
    game = yield from decoding(fragment, shown)
    return Session.of(game), None


async def read_link(
    fragment: str,
    pause: Callable[[], Awaitable[None]] | None = None,
    slice_s: float = SLICE_S,
    shown: Callable[[Session], Awaitable[None]] | None = None,
) -> tuple[Session, SealedLink | None]:
    """:func:`reading` run to its end: ``pause`` (the page's turn: drawing, input) awaited whenever the
    replay has run ``slice_s`` seconds since the last, or with no ``pause`` in one go; ``shown`` awaited
    with the position the link carries (a read-only session) before its history is replayed.

    >>> import asyncio
    >>> from adjutant import Game
    >>> game = Game.new("standard")
    >>> _ = game.add_orders("A Par - Bur")
    >>> _ = game.adjudicate()
    >>> session, sealed = asyncio.run(read_link(encode_link(game)))
    >>> str(session.game.units["bur"]), sealed
    ('A bur', None)
    >>> async def show(carried: Session) -> None:
    ...     print("shown first:", carried.game.units["bur"], carried.readonly)
    >>> session, _ = asyncio.run(read_link(encode_link(game), shown=show))
    shown first: A bur True
    """
    carried: list[Session] = []
    steps = reading(fragment, carried.append if shown is not None else None)
    due = time.perf_counter() + slice_s
    while True:
        try:
            next(steps)
        except StopIteration as done:
            read: tuple[Session, SealedLink | None] = done.value
            return read
        if carried and shown is not None:
            await shown(carried.pop())
            due = time.perf_counter() + slice_s
        elif pause is not None and time.perf_counter() >= due:
            await pause()
            due = time.perf_counter() + slice_s


def position_snapshot(game: Game, drawing: Drawing | None = None) -> dict[str, Any]:
    """The current position as plain data, for the page shell to paint before Python is ready: its
    units as ``drawing`` draws them (as data, :meth:`adjutant.pictures.drawing.Drawing.units_data`), the owner of
    each centre and the powers' colours (web/shell.js draws exactly this: no rules, no game logic)."""
    return run_to_end(position_snapshot_steps(game, drawing))


def position_snapshot_steps(game: Game, drawing: Drawing | None = None) -> Generator[None, None, dict[str, Any]]:
    """:func:`position_snapshot` a few units at a time, a yield between two (the page makes it in idle
    moments of its own: on a phone a nine-power position's units take more than 100 ms); returns it."""
    position = game.position
    units = (yield from drawing.units_data_steps(position)) if drawing is not None else []
    return {
        "version": 2,
        "variant": game.variant.id,
        "phase": str(position.phase),
        "title": f"{position.phase.title} ({position.phase})",
        "units": units,
        "centres": dict(sorted(position.centres.items())),
        "colours": dict(drawing.colours) if drawing is not None else {},
    }


# --- what is drawn (adjutant.pictures.scene: the one account of a phase every picture draws) -----------------
def order_label(variant: Any, order: Order) -> str:
    """An order as the page lists it: ``A Par - Bur``, ``F Stp/sc S A Mos - Fin``."""
    return place_labels(variant, format_order(order))


@dataclass
class Session:
    game: Game
    #: which position is shown: an index into the history, len(history) for the current phase
    view: int = 0
    selected: str | None = None  # location of the unit being ordered
    mode: str = "move"  # move, support, convoy, protect; in Cluster also transfer, transfer-out, mattermit
    target: str | None = None  # the supported / convoyed unit's location
    problems: list[Any] = field(default_factory=list)
    #: a view that may not be played (a game with secrets seen by a player or by anyone with the link)
    readonly: bool = False
    #: the power a group game's player plays: the map offers only its units and build places ("" any power's)
    player: str = ""
    #: why the last click did nothing ("" when it did something)
    note: str = ""
    #: the unit type of a build waiting for its coast to be chosen
    build_type: str | None = None
    #: the move the last click could also have meant, as (unit's location, province): in the move step, a
    #: click on another of the power's units selects it, and when it stands where the unit selected before
    #: could move, that move is offered (:meth:`offered_move`), so a touch screen can give "A Vie - Bud"
    #: while A Bud leaves
    offer: tuple[str, str] | None = None
    #: the unit whose build or removal the last click withdrew ("A Bohemia"; "" if it withdrew none): the
    #: game's orders changed though the click gave no order
    withdrawn: str = ""
    #: the province of a move taken from :attr:`offer`, while its coast is chosen (a click there moves
    #: into it, though one of the power's own units stands there)
    into: str | None = None
    #: what the last text entry replaced: (earlier order, the order now given), as the list shows them
    replaced: list[tuple[str, str]] = field(default_factory=list)
    #: the lines of the last text entry that were not taken (they stay in the box to be corrected)
    refused: list[str] = field(default_factory=list)
    _legal: dict[str, list[Order]] = field(default_factory=dict, repr=False)
    #: the position the legal orders in :attr:`_legal` are for
    _legal_at: Position | None = field(default=None, repr=False)
    #: the last history record drawn with its results, and its shapes (a render asks several times)
    _drawn: tuple[Any, list[Shape]] | None = field(default=None, repr=False)
    #: the last record :meth:`adjudicate` made, and the orders it was adjudicated with
    _given: tuple[PhaseRecord, dict[str, tuple[Order, ...]]] | None = field(default=None, repr=False)
    #: the results sentences and text last made, by name, with what they were made from (see :meth:`_reported`)
    _reports: dict[str, tuple[tuple[Any, ...], Any]] = field(default_factory=dict, repr=False)
    #: how many times each of them was made ("entries", "text"), as functools' cache_info counts misses
    reports_made: Counter[str] = field(default_factory=Counter, repr=False)
    #: the game itself, every secret in it, when :attr:`game` is the view of it that the people at this
    #: screen may see (a Cluster game against the computer: the view of the powers people play; they give
    #: their orders in it, the computer's powers are ordered and the phase adjudicated in this one)
    master: Game | None = None

    @classmethod
    def new(cls, variant_id: str) -> Session:
        game = Game.new(load_variant(variant_id))
        return cls(game, view=0)

    @classmethod
    def of(cls, game: Game) -> Session:
        """The session that shows ``game``: a Cluster game master's game that the computer plays in is
        shown as its players see it (:meth:`seen`); any other game as it is.

        >>> from adjutant.group_play.cluster_views import new_game
        >>> game = new_game(seed=7)
        >>> for power in game.variant.powers:
        ...     if power != "france":
        ...         game.set_computer(power, "random", 1)
        >>> session = Session.of(game)
        >>> session.master is game, session.game.position.variant_state.view, session.viewers
        (True, 'france', ('france',))
        """
        state = cluster_state(game.position.variant_state)
        if state is not None and state.view == GM and game.computer:
            return cls.seen(game)
        return cls(game)

    @classmethod
    def seen(cls, master: Game) -> Session:
        """``master`` (a Cluster game master's game) as the people playing the powers the computer does not
        may see it together, history included (docs/computer-players.md, "Cluster")."""
        session = cls(master, master=master)
        session._see()
        return session

    @property
    def viewers(self) -> tuple[str, ...]:
        """The powers whose view is shown (people's, in a Cluster game against the computer); () if the
        game is shown as it is."""
        master = self.master
        return () if master is None else tuple(p for p in master.variant.powers if p not in master.computer)

    @property
    def kept(self) -> Game:
        """The game the link, the file and the computer's thinking are made of: the game itself, with the
        orders people have given in the view shown of it."""
        return self.game if self.master is None else self._hand_in(self.master)

    def _hand_in(self, master: Game) -> Game:
        """``master`` with the orders of the people's powers as they stand in the view."""
        if not master.over:
            for power in self.viewers:
                master.clear_orders(power)
                for order in self.game.orders_of(power):
                    master.add_order(order)
        return master

    def reseen(self) -> None:
        """Show the master's view for the people's powers again (after it changed), at its current phase."""
        if self.master is not None:
            self._hand_in(self.master)
            self._see()

    def _see(self) -> None:
        """Show the master's view for the people's powers (the game changed), at its current phase."""
        assert self.master is not None
        viewers = self.viewers
        self.game = players_view(self.master, viewers)
        for power in viewers:  # (their nominations are in the view already: they are its secrets)
            for order in self.master.orders_of(power):
                if not isinstance(order, Nominate):
                    self.game.add_order(order)
        self.player = viewers[0] if len(viewers) == 1 else ""
        self.view = len(self.game.history)
        self._legal, self._legal_at, self._drawn = {}, None, None
        self.clear_selection()

    def undo(self) -> None:
        """Take back the last adjudication (of the game itself, in a game seen by its players)."""
        self.kept.undo()
        if self.master is not None:
            self._see()

    def declare_draw(self, powers: Collection[str]) -> None:
        """Declare a draw between ``powers`` (in the game itself, and in the view shown of it)."""
        self.kept.declare_draw(powers)
        if self.master is not None:
            self._see()

    def __post_init__(self) -> None:
        self.view = len(self.game.history)

    @property
    def at_current(self) -> bool:
        return self.view == len(self.game.history)

    def shown_position(self) -> Position:
        return self.game.position_at(self.view)

    def shown_phase_title(self) -> str:
        position = self.shown_position()
        return f"{position.phase.title} ({position.phase})"

    # --- history ---------------------------------------------------------------------------------
    def step(self, delta: int | None = None, to: int | None = None) -> None:
        last = len(self.game.history)
        self.view = max(0, min(last, to if to is not None else self.view + (delta or 0)))
        while 0 < self.view < last and self.game.history[self.view].silent:
            self.view += 1 if (delta or 0) > 0 or to == last else -1
        self.clear_selection()

    def past_orders(self) -> list[tuple[str, str]]:
        """The orders given at the shown position when it is a past one, as its record keeps them:
        (power, order as the page lists it), by power; none at the current position (its orders are the
        game's own, still being given)."""
        if self.at_current:
            return []
        record = self.game.history[self.view]
        return [(power, place_labels(self.game.variant, text))
                for power, texts in sorted(record.orders.items()) for text in texts]

    def shapes(self) -> list[Shape]:
        """The orders to draw: the current phase's as entered; none for a past position (the orders
        given there are drawn, with their results, on the position they made: the next step)."""
        return _scene.current_shapes(self.game, self.is_illegal) if self.at_current else []

    def _record_shapes(self, index: int) -> list[Shape]:
        """History record ``index``'s orders, drawn with their results."""
        record = self.game.history[index]
        if self._drawn is None or self._drawn[0] is not record:
            given = self._given[1] if self._given is not None and self._given[0] is record else None
            self._drawn = (record, _scene.record_shapes(self.game, index, given))
        return list(self._drawn[1])

    def adjudicate(self) -> list[PhaseRecord]:
        """Adjudicate the current phase (:meth:`adjutant.game.Game.adjudicate`), keeping the orders given for
        the drawing of their results (so the record's orders need not be read again from their text). In a
        game seen by its players (:attr:`master`), their orders given in the view go to the game itself
        first, and the view is made again from its new phase."""
        kept = self.kept
        given = kept.all_orders()
        records = kept.adjudicate()
        if records:
            self._given = (records[0], given)
        if self.master is not None:
            self._see()
        return records

    # --- a phase's results, drawn on the position they made (the current one or a past one) ----------
    def results_record(self) -> int | None:
        """The history record whose results are drawn on the shown position: the last one before it
        that was adjudicated (not skipped); None on the game's first position."""
        return _scene.results_record(self.game, self.view)

    def last_results(self) -> list[Shape]:
        """The orders of the phase that made the shown position, with their results (the "last
        phase's orders" overlay of webDiplomacy and Backstabbr), for the current and past positions."""
        index = self.results_record()
        return self._record_shapes(index) if index is not None else []

    def changed_centres(self) -> dict[str, str]:
        """Supply centres whose owner changed since the position before the last adjudicated phase:
        province -> the earlier owner ("" for a neutral centre)."""
        return _scene.changed_centres(self.game, self.view)

    def retreat_choices(self) -> dict[str, list[str]]:
        """In a retreat phase (being played or looked back at), where each dislodged unit (by
        location) may retreat."""
        return _scene.retreat_choices(self.game, self.view)

    def phase_marks(self, power: str | None = None) -> PhaseMarks:
        """What the phase that made the shown position did besides its orders' arrows: stand-offs,
        units dislodged, and (in an adjustment position) the builds and removals due and where each
        power may build (only ``power``'s build places when a power is chosen)."""
        index = self.results_record()
        return _scene.phase_marks(self.game, self.view, power, self._record_shapes(index) if index is not None else [])

    def results_summary(self) -> list[str]:
        """The results drawn on the map, as sentences (for screen readers and for anyone who prefers
        to read): which phase, moves, bounces, cut supports, dislodgements, centres, adjustments."""
        return [text for text, _ in self.results_entries()]

    def _reported(self, name: str, make: Callable[[], Any]) -> Any:
        """What ``make`` returns for the shown phase, made again only when what it is made from changed:
        the game, the phase shown, the positions and the records' results it reads. A render asks for the
        results sentences and text at every click, and an order given changes neither (making them again,
        every order's text written out, cost a click at 100 game years some 2 ms in the page)."""
        game, view = self.game, self.view
        index, shown = self.results_record(), self.shown_record()
        records = tuple(game.history[i] for i in (index, shown) if i is not None)
        objects = (game, view, len(game.history), game.position_at(view),
                   game.position_at(index) if index is not None else None, *records)
        made_from = (objects, [list(record.results) for record in records])
        kept = self._reports.get(name)
        if (kept is not None and len(kept[0][0]) == len(objects)
                and all(a is b for a, b in zip(kept[0][0], objects, strict=True)) and kept[0][1] == made_from[1]):
            return kept[1]
        value = make()
        self._reports[name] = (made_from, value)
        self.reports_made[name] += 1
        return value

    def results_entries(self) -> list[tuple[str, str]]:
        """:meth:`results_summary`'s sentences, each with the key of the symbols that draw it on the map
        (the board's ``data-result``: ``order:<location>``, ``standoff:<province>``,
        ``dislodged:<location>``, ``centre:<province>``, ``adjust:<power>``); "" for the heading."""
        return list(self._reported("entries", self._results_entries))

    def _results_entries(self) -> list[tuple[str, str]]:
        index = self.results_record()
        return result_sentences(
            self.game.variant, self.game.history[index] if index is not None else None, self.last_results(),
            self.phase_marks(), self.retreat_choices(), self.changed_centres(), self.shown_position().centres)

    def results_text(self, index: int | None = None) -> str:
        """Judge-style results of a history record (the last adjudicated one by default)."""
        return results_text(self.game, index)

    def shown_record(self) -> int | None:
        """The history record whose results text goes with the shown position: the last one before it
        with something to report (a skipped retreat phase that disbanded units has); None on the first
        position."""
        index = self.view - 1
        while index > 0 and self.game.history[index].silent:
            index -= 1
        return index if index >= 0 else None

    def shown_results_text(self) -> str:
        """The results text of the phase that made the shown position (the one drawn on the map)."""
        text: str = self._reported("text", self._shown_results_text)
        return text

    def _shown_results_text(self) -> str:
        index = self.shown_record()
        if index is None:
            return "No phase adjudicated yet." if self.at_current else "The game's first position."
        return self.results_text(index)

    def players_results_text(self, index: int | None = None) -> str:
        """The results as they go to the players: for a game master's game with secrets (Cluster), what
        rule 7 reports (research and transfer as stands, no hidden strength); otherwise :meth:`results_text`."""
        shown = for_players(self.game)
        if shown is self.game:
            return self.results_text(index)
        return Session(shown, readonly=True).results_text(index)

    # --- orders ------------------------------------------------------------------------------------
    def enter_orders(self, text: str, power: str | None = None, keep_illegal: bool = False) -> list[Any]:
        """Take the orders in ``text`` (all for ``power`` if given), each replacing only the earlier
        order for its unit; returns the problems (for the inline errors). An illegal order is refused
        with the parser's reason, unless ``keep_illegal``: then it is kept and will hold. Afterwards
        :attr:`replaced` lists the orders replaced and :attr:`refused` the lines not taken."""
        game = self.game
        before = {p: list(os) for p, os in game.all_orders().items()}
        problems = game.add_orders(text, power)
        out: list[Any] = []
        for problem in problems:
            order = self._quiet_parse(problem.text, power) if problem.kept else None
            if problem.kept and order is not None and not keep_illegal:
                self._take_back(order, before)
                problem = OrderProblem(problem.line, problem.text, f"{problem.message} (not taken)", False)
            out.append(problem)
        self.refused = [p.text for p in out if not p.kept and p.text]
        self.replaced = []
        variant = game.variant
        for power_id, earlier in before.items():
            now = game.orders_of(power_id)
            for old in earlier:
                if any(o is old for o in now) or isinstance(old, POWER_ORDERS):
                    continue
                new = next((o for o in now if not isinstance(o, POWER_ORDERS)
                            and o.unit.province == old.unit.province), None)
                if new is not None and new != old:  # the same order given again replaces nothing
                    self.replaced.append((order_label(variant, old), order_label(variant, new)))
        self.problems = out
        return out

    def _quiet_parse(self, text: str, power: str | None) -> Order | None:
        try:
            return self.game.parse(text, power)
        except AdjutantError:
            return None

    def _take_back(self, order: Order, before: dict[str, list[Order]]) -> None:
        """Drop ``order`` (just given) and give back the order its unit had before."""
        game = self.game
        power = order_power(order)
        mine = [o for o in game.orders_of(power) if o != order]
        if not isinstance(order, POWER_ORDERS):
            earlier = next((o for o in before.get(power, []) if not isinstance(o, POWER_ORDERS)
                            and o.unit.province == order.unit.province), None)
            if earlier is not None:
                mine.append(earlier)
        game.clear_orders(power)
        for kept in mine:
            game.add_order(kept)

    def is_illegal(self, order: Order) -> str:
        """The reason ``order``, given in the current phase, is illegal (it will hold), as the rules judge
        it in this position; "" if it is not. Worked out from the game, so an order kept anyway is marked
        however it came back: a reload, a link, a file, a group player's restored draft."""
        check = self.game.check_order(order)
        return check.reason if check.verdict == "illegal" else ""

    def unordered(self, but: Collection[str] = ()) -> list[str]:
        """What adjudicating now would leave without an order: units (holding, or disbanded in a
        retreat), and powers' builds or removals not used, but those of the powers ``but`` names (the
        computer gives theirs). Empty when everything is ordered."""
        game = self.game
        if not self.at_current or game.over:
            return []
        variant = game.variant
        kind = game.phase.kind
        given = {o.unit.province for os in game.all_orders().values() for o in os if not isinstance(o, POWER_ORDERS)}

        def name(unit: Any) -> str:
            power = variant.powers[unit.power].name if unit.power in variant.powers else unit.power
            return f"{power}: {unit.type} {variant.province_name(unit.location)}"

        if kind == "movement":
            return [name(u) + " (will hold)" for u in game.units.values()
                    if u.province not in given and u.power not in but]
        if kind == "retreat":
            return [name(d.unit) + " (will be disbanded)" for d in game.position.dislodged
                    if d.unit.province not in given and d.unit.power not in but]
        out = []
        for power, left in game.orders_due().items():
            if power in but:
                continue
            delta = game.adjustments().get(power, 0)
            what = "build" if delta > 0 else "removal"
            out.append(f"{variant.powers[power].name}: {left} {what}{'s' if left > 1 else ''} not ordered"
                       + (" (will be waived)" if delta > 0 else " (units will be removed by the rules)"))
        return out

    def beyond_due(self) -> list[str]:
        """Winter: the builds or removals given beyond those due, which adjudicating will not count (the
        first given count, as the judges ignore the rest), one line per power. A click gives no more than
        are due; typed orders may."""
        game = self.game
        if not self.at_current or game.over or game.phase.kind != "adjustment":
            return []
        return [f"{game.variant.powers[power].name}: {said}" for power in sorted(game.adjustments())
                if (said := self.beyond_due_of(power))]

    def beyond_due_of(self, power: str) -> str:
        """What :meth:`beyond_due` says of ``power`` ("3 removals given, 2 due (the last given, A Budapest,
        will not count)"), "" when it gave no more than are due."""
        game = self.game
        if game.over or game.phase.kind != "adjustment":
            return ""
        delta = game.adjustments().get(power, 0)
        given = adjustments_given(self.game, power)
        if not delta or len(given) <= abs(delta):
            return ""
        what = "builds" if delta > 0 else "removals"
        extra = ", ".join(named(self.game.variant, o) for o in given[abs(delta):])
        return f"{len(given)} {what} given, {abs(delta)} due (the last given, {extra}, will not count)"

    def clear_selection(self) -> None:
        """Leave the order under way: no unit selected, and no note left about it."""
        self.note = ""
        self.selected = None
        self.mode = "move"
        self.target = None
        self.build_type = None
        self.offer = None
        self.into = None

    def orderable_units(self) -> dict[str, Any]:
        """Units that can be given an order by clicking in this phase, by location."""
        kind = self.game.phase.kind
        if not self.at_current or self.game.over or self.readonly:
            return {}
        if kind == "movement":
            units = {u.location: u for u in self.game.units.values()}
        elif kind == "retreat":
            units = {d.unit.location: d.unit for d in self.game.position.dislodged}
        else:
            due = self.game.adjustments()
            units = {u.location: u for u in self.game.units.values() if due.get(u.power, 0) < 0}
        return {at: u for at, u in units.items() if u.power == self.player} if self.player else units

    def _adjusting(self) -> dict[str, int]:
        """The builds (positive) or removals (negative) due of the powers ordered here: the player's only."""
        due = self.game.adjustments()
        return {p: d for p, d in due.items() if p == self.player} if self.player else due

    def unit_at(self, province: str) -> Any:
        units = self.orderable_units()
        for location, unit in units.items():
            if province_of(location) == province:
                return unit
        return None

    def targets(self) -> list[str]:
        """Locations to highlight for the next click."""
        game = self.game
        variant = game.variant
        kind = game.phase.kind
        if not self.at_current or game.over or self.readonly:
            return []
        if kind == "adjustment" and self.selected is None:
            places: list[str] = []
            for power, delta in self._adjusting().items():
                given = adjustments_given(game, power)
                if delta > 0 and len(given) < delta:
                    places += [text.split()[1] for text in build_texts(game, power)]
                # a build given is highlighted too: a click there withdraws it
                places += [o.location for o in given if isinstance(o, Build)]
            return sorted(set(places))
        if self.selected is None:
            return []
        unit = self.unit_at(province_of(self.selected))
        if unit is None:
            return []
        if kind == "retreat":
            from adjutant.adjudication.phases import retreat_options

            for d in game.position.dislodged:
                if d.unit.location == unit.location:
                    return retreat_options(variant, d, game.units, game.position.contested, game.phase.season)
            return []
        orders = self.legal_orders(unit.province)
        if self.mode == "move":
            return sorted({o.dest for o in orders if isinstance(o, Move)})  # (runs among them, in Coast-Running)
        if self.mode == "support":
            supports = [o for o in orders if isinstance(o, Support)]
            if self.target is None:
                return sorted({self._location_of(o.target) for o in supports})
            target = province_of(self.target)
            return sorted({o.dest or target for o in supports if o.target == target})
        if self.mode == "convoy":
            convoys = [o for o in orders if isinstance(o, Convoy)]
            if self.target is None:
                return sorted({self._location_of(o.target) for o in convoys})
            target = province_of(self.target)
            return sorted({o.dest for o in convoys if o.target == target})
        if self.mode == "protect":
            if self.target is None:
                return sorted(u.location for u in self._runs_protected_by(unit))
            fleet = game.units.get(province_of(self.target))
            return self.run_targets(fleet, via=unit.province) if fleet is not None else []
        if self.mode == "transfer":
            return sorted({self._location_of(o.target) for o in self._own(unit, Transfer)})
        if self.mode == "transfer-out":
            return sorted({self._location_of(o.target) for o in self._transfers_out(unit)})
        if self.mode == "mattermit":
            return sorted({o.dest for o in self._own(unit, Mattermit)})
        return []

    def _own(self, unit: Any, kind: type) -> list[Any]:
        """The orders of ``kind`` among ``unit``'s legal orders that its own power gives."""
        return [o for o in self.legal_orders(unit.province) if type(o) is kind and order_power(o) == unit.power]

    def _transfers_out(self, unit: Any) -> list[Transfer]:
        """Cluster 5.2, moving out: the transfers among ``unit``'s legal orders that another power gives (the
        power whose transferee it hosts, for the host it commands)."""
        return [o for o in self.legal_orders(unit.province) if isinstance(o, Transfer) and order_power(o) != unit.power]

    def _aura_owner(self, unit: Any) -> str:
        """The name of the power whose aura ``unit`` hosts and may transfer out ("" if none may)."""
        out = self._transfers_out(unit)
        return self.game.variant.powers[order_power(out[0])].name if out else ""

    #: the Cluster orders offered by click, with the button's label (rules 5.1-5.3)
    CLUSTER_ORDERS = (("research", Research, "Research"), ("transfer", Transfer, "Transfer"),
                      ("mattermit", Mattermit, "Mattermission"))

    def cluster_choices(self) -> list[tuple[str, str]]:
        """Cluster: which of Research, Transfer and Mattermission the engine's legal orders hold for the
        selected unit (as (mode, label)), then the transfer out of it that the power whose aura it hosts
        may order ("Transfer out (France)"); none elsewhere, or with no unit selected."""
        game = self.game
        if self.selected is None or game.variant.cluster is None or game.phase.kind != "movement":
            return []
        unit = self.unit_at(province_of(self.selected))
        if unit is None:
            return []
        out = [(mode, label) for mode, kind, label in self.CLUSTER_ORDERS if self._own(unit, kind)]
        owner = self._aura_owner(unit)
        return out + [("transfer-out", f"Transfer out ({owner})")] if owner else out

    def nomination_choices(self, power: str, level: int) -> list[tuple[str, str]]:
        """Cluster (rule 2): the units ``power`` may name its ``level`` times force unit now, as (location,
        "A Paris"), by the engine's nomination rules (after the first movement phase, only units it has
        just built)."""
        game = self.game
        variant, state, units = game.variant, game.position.variant_state, game.units
        mine = sorted((u for u in units.values() if u.power == power), key=lambda u: u.location)
        return [(u.location, f"{u.type} {variant.province_name(u.location)}") for u in mine
                if not game.rules.nomination_problem(variant, state, units, Nominate(power, level, u.location), [])]

    def unit_choices(self) -> list[tuple[str, str]]:
        """The orders offered for the selected unit in a movement phase, as (action, label): Hold, then
        Support, Convoy and Protect only when the unit has one to give (from the engine's legal orders;
        Protect from the runs the adjudicator allows), then Cluster's (:meth:`cluster_choices`)."""
        if self.selected is None or self.game.phase.kind != "movement":
            return []
        unit = self.unit_at(province_of(self.selected))
        if unit is None:
            return []
        mine = [o for o in self.legal_orders(unit.province) if order_power(o) == unit.power]
        out = [("hold", "Hold")]
        if any(isinstance(o, Support) for o in mine):
            out.append(("support", "Support"))
        if any(isinstance(o, Convoy) for o in mine):
            out.append(("convoy", "Convoy"))
        if self.can_protect(unit) and self._runs_protected_by(unit):
            out.append(("protect", "Protect"))
        return out + self.cluster_choices()

    def _runs_protected_by(self, army: Any) -> list[Any]:
        """Coast-Running: the fleets whose runs could pass ``army``'s province (its legal protect orders')."""
        fleets = {o.target for o in self._protects(army)}
        return [u for u in self.game.units.values() if u.province in fleets]

    def _protects(self, army: Any) -> list[Protect]:
        """Coast-Running: ``army``'s protect orders among its legal orders."""
        return [o for o in self.legal_orders(army.province) if isinstance(o, Protect)]

    def _location_of(self, province: str) -> str:
        unit = self.game.units.get(province)
        return unit.location if unit is not None else province

    def legal_orders(self, province: str) -> list[Order]:
        """The engine's legal orders for the unit in ``province`` this phase (cached: the position does
        not change until the phase is adjudicated or undone: the cache is for one position object)."""
        if self._legal_at is not self.game.position:
            self._legal, self._legal_at = {}, self.game.position
        cached = self._legal.get(province)
        if cached is None:
            from adjutant.legal import possible_orders

            cached = self._legal[province] = possible_orders(self.game, province)
        return cached

    def can_protect(self, unit: Any) -> bool:
        """Whether ``unit`` may be given a protect order (Coast-Running: an army in a coastal province)."""
        return self.game.rules.may_carry(self.game.variant, unit)

    def run_targets(self, fleet: Any, via: str | None = None) -> list[str]:
        """Coast-Running: where ``fleet`` could run along coasts held by armies (any power's) that could
        protect it, from the engine's legal orders (:func:`adjutant.legal.runs`). With ``via``, only runs
        whose chain can pass the army in that province (that army's protect orders for the fleet). Empty in
        variants without the protect order. Which runs succeed is the adjudicator's business."""
        if fleet is None or fleet.type != "F" or self.game.phase.kind != "movement":
            return []
        if via is not None:
            army = self.game.units.get(via)
            if army is None:
                return []
            return sorted({o.dest for o in self._protects(army) if o.target == fleet.province})
        from adjutant.legal import runs

        return sorted(o.dest for o in runs(self.game, fleet.province))

    def click(self, location: str) -> tuple[str | None, list[str]]:
        """A click on a province or coast. Returns (order text to enter or None, coasts to choose from
        when the click needs one); a click that does nothing says why in :attr:`note`."""
        game = self.game
        variant = game.variant
        province = province_of(location)
        kind = game.phase.kind
        self.note = ""
        self.withdrawn = ""
        if not self.at_current or game.over or self.readonly:
            self.note = self.prompt()
            return None, []
        here = variant.province_name(province) if province in variant.provinces else location
        targets = self.targets()
        if kind == "adjustment":
            return self._adjustment_click(location, targets)
        if self.selected is None:
            unit = self.unit_at(province)
            if unit is not None:
                self.selected = unit.location
            elif other := not_yours(self.game, self.player, province):
                self.note = other
            elif kind == "movement":
                self.note = f"There is no unit in {here} to order."
            else:
                self.note = f"There is no dislodged unit in {here}: only dislodged units retreat now."
            return None, []
        unit = self.unit_at(province_of(self.selected))
        if unit is None:  # the selected place holds no unit this phase can order: start afresh
            self.clear_selection()
            return self.click(location)
        name = f"{unit.type} {variant.province_name(unit.location)}"
        if province == province_of(self.selected) and self.mode == "move":
            verb = "hold" if kind == "movement" else "disband"
            order = f"{unit.type} {unit.location} {verb}"
            self.clear_selection()
            return order, []
        other = self.unit_at(province)
        own = other is not None and other.power == unit.power
        # another of the same power's units, where it is not a highlighted choice (in the move step, even
        # where it is): the player means to order that one now, whatever step this order was at
        another = f"click another {variant.powers[unit.power].adjective} unit" if unit.power in variant.powers \
            else "click another of its power's units"
        if self.mode == "move" and own and province != self.into:
            could_move = any(province_of(t) == province for t in targets)
            self._select(other)
            self.offer = (unit.location, province) if could_move else None
            return None, []
        if self.mode in ("support", "convoy", "protect") and self.target is None:
            target = game.units.get(province)
            if target is not None and target.location in targets:
                self.target = target.location
            elif own:
                return self._select(other)
            elif target is None:
                self.note = f"There is no unit in {here} for {name} to {self.mode}."
            else:
                self.note = (f"{name} cannot {self.mode} the unit in {here}: choose a highlighted unit, {another}, "
                             "or Cancel.")
            return None, []
        matching = [t for t in targets if province_of(t) == province]
        if location in targets:
            matching = [location]
        if not matching and own:
            return self._select(other)
        if not matching:
            self.note = f"{name} cannot {self._verb(kind)} {here}: choose a highlighted place, {another}, or Cancel."
            return None, []
        if len(matching) > 1:
            return None, matching
        dest = matching[0]
        if self.mode == "support":
            supported = game.units[province_of(self.target or "")]
            if province_of(dest) == supported.province:
                order = f"{unit.type} {unit.location} S {supported.type} {supported.location}"
            else:
                order = f"{unit.type} {unit.location} S {supported.type} {supported.location} - {province_of(dest)}"
        elif self.mode == "convoy":
            army = game.units[province_of(self.target or "")]
            order = f"{unit.type} {unit.location} C {army.type} {army.location} - {dest}"
        elif self.mode == "protect":
            fleet = game.units[province_of(self.target or "")]
            order = f"{unit.type} {unit.location} P {fleet.type} {fleet.location} - {dest}"
        elif self.mode == "transfer":
            order = format_order(next(o for o in self._own(unit, Transfer) if o.target == province_of(dest)))
        elif self.mode == "transfer-out":  # the order of the power whose aura it is: named, as a header names it
            out = next(o for o in self._transfers_out(unit) if o.target == province_of(dest))
            order = f"{variant.powers[order_power(out)].name}: {format_order(out)}"
        elif self.mode == "mattermit":
            order = format_order(next(o for o in self._own(unit, Mattermit) if o.dest == dest))
        elif kind == "retreat":
            order = f"{unit.type} {unit.location} R {dest}"
        else:
            order = f"{unit.type} {unit.location} - {dest}"
        self.clear_selection()
        return order, []

    def _verb(self, kind: str) -> str:
        """What the selected unit was to do with the place clicked, for the note of a click that does
        nothing ("move to", "support A Paris into", ...)."""
        if kind == "retreat":
            return "retreat to"
        other = self.game.units.get(province_of(self.target)) if self.target else None
        whom = f"{other.type} {self.game.variant.province_name(other.location)}" if other else "a unit"
        verbs = {"move": "move to", "support": f"support {whom} into", "convoy": f"convoy {whom} to",
                 "protect": f"protect {whom} running to", "transfer": "transfer to the unit in",
                 "transfer-out": "transfer out to the unit in", "mattermit": "be mattermitted to"}
        return verbs.get(self.mode, "go to")

    def offered_move(self) -> str:
        """The label of the move :attr:`offer` holds while the unit its click selected is still in the move
        step ("Move A Vienna to Budapest instead"), else ""."""
        if self.offer is None or self.mode != "move" or self.target is not None or not self.at_current:
            return ""
        source, province = self.offer
        unit = self.unit_at(province_of(source))
        if unit is None or self.selected is None or province_of(self.selected) != province:
            return ""
        variant = self.game.variant
        return f"Move {unit.type} {variant.province_name(unit.location)} to {variant.province_name(province)} instead"

    def take_offer(self) -> tuple[str | None, list[str]]:
        """Give the move :meth:`offered_move` names: its unit selected again and moved into the province
        (the coasts to choose from, as :meth:`click` returns them, when it has several)."""
        if not self.offered_move():
            return None, []
        source, province = self.offer or ("", "")
        self.clear_selection()
        self.selected, self.into = source, province
        return self.click(province)

    def _select(self, unit: Any) -> tuple[str | None, list[str]]:
        """Leave the order under way (nothing was given yet) and select ``unit`` instead."""
        self.clear_selection()
        self.selected = unit.location
        return None, []

    def _adjustment_click(self, location: str, targets: list[str]) -> tuple[str | None, list[str]]:
        variant = self.game.variant
        province = province_of(location)
        here = variant.province_name(province) if province in variant.provinces else location
        if self.selected is not None and self.build_type is not None and location in self._builds(self.build_type):
            order = f"Build {self.build_type} {location}"
            self.clear_selection()
            return order, []
        given = self._given_at(province)
        if (isinstance(given, Build) and given.type == "F" and "/" in location and location != given.location
                and f"F {location}" in build_texts(self.game, given.power)):
            # a fleet built on one coast, a click on the other: the fleet is built there instead
            self.clear_selection()
            withdraw(self.game, given)
            return f"Build F {location}", []
        if given is not None:  # a build or removal given here: this click takes it back
            self.clear_selection()
            withdraw(self.game, given)
            self.withdrawn = named(self.game.variant, given)
            done = (f"The build of {self.withdrawn} is withdrawn" if isinstance(given, Build)
                    else f"{self.withdrawn} is kept")
            still = still_due(self.game, order_power(given))
            self.note = f"{done}: {still}" if still else f"{done}."
            return None, []
        unit = self.unit_at(province)
        if unit is not None:
            self.clear_selection()
            if full := all_given(self.game, unit.power):
                self.note = full
                return None, []
            return f"{unit.type} {unit.location} disband", []
        matching = [t for t in targets if province_of(t) == province]
        if matching:
            self.clear_selection()
            self.selected = province
            return None, []
        other = not_yours(self.game, self.player, province)
        used = next((note for p, d in self._adjusting().items()
                     if d > 0 and (note := all_given(self.game, p)) and builds_in(self.game, p, province)), "")
        if other:
            self.note = other
        elif used:
            self.note = used
        elif self.player:
            name = variant.powers[self.player].name
            delta = self.game.adjustments().get(self.player, 0)
            if delta > 0:
                self.note = (f"{name} cannot build in {here}: you build in {name}'s own empty home centres "
                             "(highlighted).")
            elif province in self.game.units:
                self.note = f"The unit in {here} is not to be removed: {name} has no removals due."
            else:
                self.note = f"Nothing can be built in {here}: {name} has no builds due."
        elif province in self.game.units:
            self.note = f"The unit in {here} is not to be removed: its power has no removals due."
        else:
            self.note = f"Nothing can be built in {here} now: builds go in a power's own empty home centres."
        return None, []

    def _given_at(self, province: str) -> Order | None:
        """The build or removal given in ``province`` by a power ordered here (the player's only), if any."""
        for power in self._adjusting():
            for order in adjustments_given(self.game, power):
                at = order.location if isinstance(order, Build) else order.unit.location if isinstance(
                    order, Disband) else ""
                if at and province_of(at) == province:
                    return order
        return None

    def _builds(self, unit_type: str) -> list[str]:
        """Where a ``unit_type`` could be built now in the selected province (one place per coast)."""
        if self.selected is None:
            return []
        province = province_of(self.selected)
        places: list[str] = []
        for power, delta in self._adjusting().items():
            if delta > 0:
                for text in build_texts(self.game, power):
                    kind, where = text.split()
                    if kind == unit_type and province_of(where) == province:
                        places.append(where)
        return sorted(set(places))

    def research(self) -> str | None:
        """Cluster (rule 5.1): the research order for the selected unit, when the engine's legal orders
        hold one (None otherwise)."""
        if ("research", "Research") not in self.cluster_choices():
            return None
        unit = self.unit_at(province_of(self.selected or ""))
        self.clear_selection()
        return format_order(self._own(unit, Research)[0])

    def build_types(self) -> list[tuple[str, str]]:
        """The kinds of unit that can be built in the selected build place, as (type, label): a fleet only
        on a coast, so an inland centre offers an Army alone."""
        return [(kind, label) for kind, label in (("A", "Army"), ("F", "Fleet")) if self._builds(kind)]

    def build(self, unit_type: str) -> tuple[str | None, list[str]]:
        """The build order for the selected build place, or (None, its coasts) when a fleet there needs
        one chosen (the next click on a coast gives the order)."""
        if self.selected is None:
            return None, []
        places = self._builds(unit_type)
        name = self.game.variant.province_name(province_of(self.selected))
        if not places:
            self.note = f"{'An army' if unit_type == 'A' else 'A fleet'} cannot be built in {name}."
            return None, []
        if len(places) > 1:
            self.build_type = unit_type
            return None, places
        self.clear_selection()
        return f"Build {unit_type} {places[0]}", []

    def prompt(self) -> str:
        """One line telling the player what a click does now."""
        game = self.game
        if game.over:
            if game.winner:
                return f"{game.variant.powers[game.winner].name} has won."
            return "The game ended in a draw."
        if not self.at_current:
            return "Looking at a past phase: » returns to the current one."
        if self.readonly:
            return "Only the game master gives orders and adjudicates this game."
        kind = game.phase.kind
        if kind == "adjustment":
            if self.selected and self.build_type:
                return f"Build a fleet in {game.variant.province_name(self.selected)}: on which coast?"
            if self.selected:
                where = game.variant.province_name(self.selected)
                kinds = " or ".join(label for _kind, label in self.build_types())
                if kinds == "Army":
                    return f"Build an army in {where} (a fleet is built only on a coast): choose Build Army."
                return f"Build what in {where}? Choose {kinds}."
            if self.player:
                return player_prompt(self.game, self.player)
            if any(adjustments_given(self.game, power) for power in self._adjusting()):
                return ("Click or tap a highlighted centre to build, or a unit of a power that must remove one; a "
                        "build or removal given, to withdraw it.")
            return "Click or tap a highlighted centre to build, or a unit of a power that must remove one."
        if self.selected is None:
            whose = "one of your units" if self.player else "a unit"
            if kind == "movement":
                return f"Click or tap {whose} to order it."
            if not self.player:
                return "Click or tap a dislodged unit to retreat it."
            if not any(d.unit.power == self.player for d in game.position.dislodged):
                name = game.variant.powers[self.player].name
                return f"None of {name}'s units is dislodged: {name} has nothing to order in this phase."
            return "Click or tap one of your dislodged units to retreat it (or disband it)."
        unit = self.unit_at(province_of(self.selected))
        name = f"{unit.type} {game.variant.province_name(unit.location)}" if unit else self.selected
        other = game.units.get(province_of(self.target)) if self.target else None
        whom = f"{other.type} {game.variant.province_name(other.location)}" if other else ""
        if self.mode == "support":
            return f"{name} supports: click the unit to support" if not whom else (
                f"{name} supports {whom}: click its destination (or the unit again to support it holding)")
        if self.mode == "convoy":
            return f"{name} convoys: click the army" if not whom else (
                f"{name} convoys {whom}: click the destination")
        if self.mode == "protect":
            return f"{name} protects: click the fleet" if not whom else (
                f"{name} protects {whom}: click where it runs")
        if self.mode == "transfer":
            return f"{name} transfers its aura: click the unit it takes over (highlighted)"
        if self.mode == "transfer-out" and unit is not None:
            return (f"{self._aura_owner(unit)}'s aura, hosted by {name}, transfers out: click the unit it takes "
                    "over (highlighted)")
        if self.mode == "mattermit":
            return f"{name} is mattermitted: click where it is sent (highlighted)"
        if kind == "retreat":
            return f"{name}: click where it retreats (highlighted), or the unit itself to disband."
        if not self.targets():
            more = ", or choose an order below" if len(self.unit_choices()) > 1 else ""
            return f"{name} cannot move: click it again to hold{more}."
        return f"{name}: click a highlighted place to move, the unit again to hold, or choose an order below."


def describe_problem(problem: Any) -> str:
    return str(problem)



def rehearsal(variant: Variant, phases: int = 3) -> Iterator[Session]:
    """A throwaway game of ``variant`` played from its start, ``phases`` phases, as the page plays one:
    seeded random orders for everything typed in, then adjudicated and put in a link. Yields the session
    after each of those two steps (the page draws it: :meth:`adjutant_ui.app.App.rehearse`)."""
    session = Session(Game.new(variant, seed=0), view=0)
    rng = random.Random(0)
    for _ in range(phases):
        by_power: dict[str, list[str]] = {}
        for order in random_orders(session.game, rng):
            by_power.setdefault(order_power(order), []).append(format_order(order))
        for power, lines in by_power.items():  # each power's as its player types them
            session.enter_orders("\n".join(lines), power)
        yield session
        session.adjudicate()
        session.step(to=len(session.game.history))
        encode_link(session.game)
        yield session

__all__ = [
    "Session",
    "Shape",
    "decode_link",
    "decoding",
    "encode_link",
    "game_from_text",
    "game_to_text",
    "order_shape",
    "position_snapshot",
    "read_link",
    "reading",
    "rehearsal",
]
