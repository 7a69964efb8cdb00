"""The URL form of a game: compact, for the fragment of a shared link.

A link holds the variant and the orders of every phase; the positions and results are found again by
replaying them. It also carries the position they lead to (version 3), which a reader can show at once,
before the replay, and which the replay must reach. Each unit's order is written as its index among the
orders the position offers it (:mod:`adjutant.legal`), all indices packed into one mixed-radix number; an
order outside that list is kept as text. The whole is deflated and written in base64url, after the
variant's id and a dot (``standard.``): readable, and read by the page, which paints that variant's map
while Python starts (base64url has no dot, so the two parts cannot be confused). A link without the id is
read as well.

>>> from adjutant.game import Game
>>> g = Game.new("standard")
>>> _ = g.add_orders("F Lon - Nth; A Par - Bur")
>>> _ = g.adjudicate()
>>> link = encode_link(g)
>>> link.split(".")[0]
'standard'
>>> from adjutant.formats.gamefile import dumps
>>> dumps(decode_link(link)) == dumps(g)
True
"""

from __future__ import annotations

import dataclasses
import json
import re
import weakref
import zlib
from collections.abc import Callable, Generator, Iterator
from typing import Any

from ..adjudication.orders import Build, Disband, Order, Unit, Waive, format_order
from ..errors import AdjutantError, GameFileError
from ..game import Game, PhaseRecord, Position
from ..legal import Candidates, adjustment_candidates, retreat_candidates
from ..map.variant import Variant, load_variant
from ..seats import seats_from_data, seats_to_data
from ..setup import Placed, set_up, start_from_data, start_of
from ..steps import run_to_end
from . import base64url
from .gamefile import from_data, position_data, to_data
from .limits import inflate, read_json

LINK_VERSION = 1
#: the version of a link that adds the starting position of a game set up from any position (``"p"``,
#: :mod:`adjutant.setup`), written only by such a game before its first adjudication (then, as every game's,
#: version 3); a new game's link is version 1, which every earlier reader reads, and an earlier reader
#: refuses a later version by its number
START_LINK_VERSION = 2
#: a link longer than this is refused before it is decoded
MAX_LINK = 400_000
#: nor may it inflate to more than this
MAX_INFLATED = 4_000_000
#: nor hold more adjudicated phases than this (about two hundred game years): replaying them takes time
MAX_PHASES = 1000


#: the version of a link that also carries the position its history leads to (``"q"``, :func:`position_code`),
#: so that a reader can show it at once and replay the history after it: written by every game with an
#: adjudicated phase (but a hidden setup's, whose link is its game file); version 1 and 2 links still open
POSITION_LINK_VERSION = 3


class LinkTable:
    """A variant's numbering of what a carried position names: its powers, provinces, supply centres and
    places (provinces and coasts a unit may stand on), each in sorted order."""

    __slots__ = (
        "centres",
        "place_index",
        "places",
        "power_index",
        "powers",
        "province_index",
        "provinces",
        "unit_codes",
    )

    def __init__(self, v: Variant) -> None:
        self.powers = sorted(v.powers)
        self.provinces = sorted(v.provinces)
        self.centres = [p for p in self.provinces if v.provinces[p].centre]
        self.places = [loc for p in self.provinces for loc in v.locations(p)]
        self.power_index = {p: i for i, p in enumerate(self.powers)}
        self.province_index = {p: i for i, p in enumerate(self.provinces)}
        self.place_index = {p: i for i, p in enumerate(self.places)}
        #: how many codes :meth:`unit_code` gives
        self.unit_codes = len(self.places) * 2 * len(self.powers)

    def unit_code(self, unit: Unit) -> int:
        """A unit as one integer: its place, its type (fleet or army) and its power."""
        return (self.place_index[unit.location] * 2 + (unit.type == "F")) * len(self.powers) + self.power_index[
            unit.power
        ]

    def unit(self, code: int) -> Placed:
        """The unit a code (below :attr:`unit_codes`) names."""
        rest, power = divmod(code, len(self.powers))
        place, fleet = divmod(rest, 2)
        return Placed(self.powers[power], "F" if fleet else "A", self.places[place])


#: by variant id, the variant and its :class:`LinkTable`
_TABLES: dict[str, tuple[Variant, LinkTable]] = {}


def link_table(v: Variant) -> LinkTable:
    """Variant ``v``'s :class:`LinkTable`, made once per variant and kept."""
    made = _TABLES.get(v.id)
    if made is None or made[0] is not v:
        made = _TABLES[v.id] = (v, LinkTable(v))
    return made[1]


def position_code(game: Game) -> list[Any] | None:
    """The current position of ``game`` as a link carries it: ``[phase, units, dislodged, stand-offs,
    digits]``, the three counts, and one number in base64url of mixed-radix digits, least significant
    first: each unit as :meth:`LinkTable.unit_code` (ascending), each supply centre's owner (its power's
    index plus 1, 0 for none), each dislodged unit's code and the province its attacker came from (index
    plus 1, 0 for a convoyed attack), each stand-off's province (ascending). None for a position a link
    does not carry: one with a variant's own state in it (Cluster's)."""
    p = game.position
    if p.variant_state is not None:
        return None
    t = link_table(game.variant)
    digits = Digits()
    try:
        for code in sorted(t.unit_code(u) for u in p.units.values()):
            digits.put(code, t.unit_codes)
        for c in t.centres:
            digits.put(t.power_index[p.centres[c]] + 1 if c in p.centres else 0, len(t.powers) + 1)
        for d in sorted(p.dislodged, key=lambda d: d.unit.province):
            came = d.attacker_from
            digits.put(t.unit_code(d.unit), t.unit_codes)
            digits.put(0 if came is None else t.province_index[came] + 1, len(t.provinces) + 1)
        for prov in sorted(t.province_index[c] for c in p.contested):
            digits.put(prov, len(t.provinces))
    except KeyError:  # (a place the map does not number: not carried)
        return None
    number = digits.pack()
    packed = base64url.encode(number.to_bytes((number.bit_length() + 7) // 8, "big"))
    return [str(p.phase), len(p.units), len(p.dislodged), len(p.contested), packed]


def _carried(v: Variant, code: Any) -> Game:
    """The game at the position a link carries (``"q"``: :func:`position_code`), checked as hostile input:
    the sizes bounded by the map's (before any arithmetic), every number in range, no unit twice; a
    :class:`GameFileError` names what is wrong."""
    if not (
        isinstance(code, list)
        and len(code) == 5
        and isinstance(code[0], str)
        and len(code[0]) <= 12
        and all(type(n) is int for n in code[1:4])
        and isinstance(code[4], str)
    ):
        raise GameFileError("the link's position is damaged: it is not [phase, units, dislodged, stand-offs, digits]")
    t = link_table(v)
    units, gone, contested = code[1:4]
    if not (0 <= units <= len(t.provinces) and 0 <= gone <= len(t.provinces) and 0 <= contested <= len(t.provinces)):
        raise GameFileError(
            f"the link's position is damaged: it counts more units, dislodged units or stand-offs than the "
            f"{len(t.provinces)} provinces of {v.name} hold"
        )
    radices = (
        [t.unit_codes] * units
        + [len(t.powers) + 1] * len(t.centres)
        + [t.unit_codes, len(t.provinces) + 1] * gone
        + [len(t.provinces)] * contested
    )
    bits = sum(r.bit_length() for r in radices)
    if len(code[4]) * 6 > bits + 8:
        raise GameFileError("the link's position is damaged: its digits are longer than its units can need")
    digits = Digits(int.from_bytes(base64url.decode(code[4], "the link's position"), "big"))
    codes = [digits.get(t.unit_codes) for _ in range(units)]
    if any(a >= b for a, b in zip(codes, codes[1:], strict=False)):
        raise GameFileError("the link's position is damaged: its units are not in order, or one is there twice")
    owners = [digits.get(len(t.powers) + 1) for _ in t.centres]
    dislodged = []
    for _ in range(gone):
        unit, came = t.unit(digits.get(t.unit_codes)), digits.get(len(t.provinces) + 1)
        dislodged.append(dataclasses.replace(unit, attacker_from=t.provinces[came - 1] if came else None))
    standoffs = [digits.get(len(t.provinces)) for _ in range(contested)]
    if digits.number != 0:
        raise GameFileError("the link's position is damaged: it holds more than its units")
    if any(a >= b for a, b in zip(standoffs, standoffs[1:], strict=False)):
        raise GameFileError("the link's position is damaged: its stand-offs are not in order")
    placed = [t.unit(c) for c in codes]
    centres = {prov: t.powers[k - 1] for prov, k in zip(t.centres, owners, strict=True) if k}
    try:
        return set_up(v, code[0], placed, centres, dislodged, [t.provinces[k] for k in standoffs])
    except AdjutantError as e:
        raise GameFileError(f"the link's position is damaged: {e}") from None


#: the readable start of a link: the variant's id and a dot
_NAMED = re.compile(r"([a-z0-9_]{1,40})\.")


def split_link(fragment: str) -> tuple[str | None, str]:
    """A link's fragment (with or without its ``#``) as the variant its readable start names, if it has
    one, and the rest: ``"loeb9.Q1ZK…"`` -> ``("loeb9", "Q1ZK…")``."""
    text = fragment.strip()
    for prefix in ("#", "g="):
        if text.startswith(prefix):
            text = text[len(prefix) :]
    named = _NAMED.match(text)
    if named is None:
        return None, text
    return named.group(1), text[named.end() :]


def link_start(variant: object) -> str:
    """The readable start of a link to a game of ``variant`` (an id), or "" if it is not an id."""
    return f"{variant}." if isinstance(variant, str) and _NAMED.fullmatch(f"{variant}.") else ""


def check_named_variant(named: str | None, variant: object) -> None:
    """Refuse a link whose readable start names another variant than the game it holds."""
    if named is not None and variant != named:
        raise GameFileError(f"the link is damaged: it says it holds a game of {named!r}, but holds another")


class Digits:
    """Mixed-radix digits, least significant first."""

    def __init__(self, number: int = 0) -> None:
        self.pairs: list[tuple[int, int]] = []
        self.number = number
        #: the product of the radices read since :meth:`restart`, and the number their digits make
        self.taken, self.read = 1, 0

    def restart(self) -> None:
        self.taken, self.read = 1, 0

    def put(self, value: int, radix: int) -> None:
        self.pairs.append((value, radix))

    def get(self, radix: int) -> int:
        self.number, value = divmod(self.number, radix)
        self.read += value * self.taken
        self.taken *= radix
        return value

    def take(self, radices: list[int]) -> Digits:
        """The next digits for ``radices``, split off in one division (so a phase costs one pass over a
        long number, not one per unit)."""
        product = 1
        for radix in radices:
            product *= radix
        if product == 1:  # (no digits, or none but 1s: nothing to split off the long number)
            return Digits(0)
        self.number, chunk = divmod(self.number, product)
        self.read += chunk * self.taken
        self.taken *= product
        return Digits(chunk)

    def pack(self) -> int:
        n = 0
        for value, radix in reversed(self.pairs):
            n = n * radix + value
        return n


def phase_slots(game: Game) -> list[tuple[str, list[Order]]]:
    """``(key, candidates)`` for each unit (movement, retreat) of the current phase, in a fixed order."""
    kind = game.phase.kind
    if kind == "movement":
        c = Candidates(game.variant, game.units, game.phase.season)
        return [(prov, c.of(prov)) for prov in sorted(game.units)]
    if kind == "retreat":
        return [
            (d.unit.province, retreat_candidates(game.variant, d.unit))
            for d in sorted(game.position.dislodged, key=lambda d: d.unit.province)
        ]
    return []


def _counted_slots(game: Game) -> list[tuple[str, int, Callable[[str, int], Order]]]:
    """What :func:`phase_slots` gives, as ``(key, number of candidates, the candidate at an index of
    the key's)``: a decoder reads one order per unit, so it makes that one and counts the others."""
    if game.phase.kind == "movement":
        c = Candidates(game.variant, game.units, game.phase.season)
        return [(prov, c.count(prov), c.nth) for prov in sorted(game.units)]
    return [(prov, len(cands), _indexer(cands)) for prov, cands in phase_slots(game)]


def _indexer(cands: list[Order]) -> Callable[[str, int], Order]:
    return lambda _, k: cands[k]


class _Movement:
    """What encoding a movement phase's orders found, kept for the last position a link was made in: each
    order given in the current phase makes the link again in the same position, and its adjudication
    encodes the same orders once more (as the new history record's part). Its units' candidates (counted;
    listed for the units given orders), the orders read from their text, and each order's place among
    its unit's candidates."""

    __slots__ = ("candidates", "listed", "made_from", "parsed", "places")

    def __init__(self, game: Game, made_from: tuple[Any, ...]) -> None:
        self.made_from = made_from
        self.candidates = Candidates(game.variant, game.units, game.phase.season)
        self.listed: dict[str, list[Order]] = {}
        self.parsed: dict[tuple[str, str], Order] = {}
        self.places: dict[tuple[str, Order], int] = {}

    def parse(self, game: Game, text: str, power: str) -> Order:
        found = self.parsed.get((power, text))
        if found is None:
            found = self.parsed[power, text] = game.parse(text, power)
        return found

    def place(self, prov: str, order: Order) -> int:
        """``order``'s index among the candidates of the unit in ``prov``; -1 if it is not one of them."""
        found = self.places.get((prov, order))
        if found is None:
            cands = self.listed.get(prov)
            if cands is None:
                cands = self.listed[prov] = self.candidates.of(prov)
            found = self.places[prov, order] = cands.index(order) if order in cands else -1
        return found


#: the :class:`_Movement` of the last two positions links were made in, the latest first: the phase just
#: adjudicated (its record) and the one that follows it (its current orders) are both encoded in its link
_LAST_MOVEMENT: list[_Movement] = []


def _made_from(game: Game) -> tuple[Any, ...]:
    """What a :class:`_Movement` of ``game``'s current position is made from."""
    return (game.variant, game.phase.kind, game.phase.season, tuple(game.units.items()))


def encoding_kept(game: Game) -> bool:
    """Whether the encoding of ``game``'s current position (its units' candidates) is kept, so that the next
    link made of it does not work it out again."""
    made_from = _made_from(game)
    return any(m.made_from == made_from for m in _LAST_MOVEMENT)


def _movement(game: Game) -> _Movement:
    """The :class:`_Movement` of ``game``'s current position (a movement phase's)."""
    made_from = _made_from(game)
    found = next((m for m in _LAST_MOVEMENT if m.made_from == made_from), None)
    if found is None:
        found = _Movement(game, made_from)
    _LAST_MOVEMENT[:] = [found, *(m for m in _LAST_MOVEMENT if m is not found)][:2]
    return found


def link_steps(game: Game) -> Iterator[None]:
    """The work :func:`encode_link` does for ``game``'s current movement phase (each unit's count of
    candidates, and each order's place among its unit's), a unit at a time, kept for the links made next
    in this position: this phase's while it is played, and once it is adjudicated, the link of the next,
    which holds it as a record. A page runs it in slices (the computer players' thinking) so that the link
    made after adjudicating takes no long task.

    >>> game = Game.new("standard")
    >>> _ = game.add_orders("A Par - Bur")
    >>> sum(1 for _ in link_steps(game))
    23
    >>> _ = game.adjudicate()
    >>> decode_link(encode_link(game)).history[0].orders["france"]
    ['A par - bur']
    """
    if game.rules.hidden_setup or game.phase.kind != "movement" or game.over:
        return
    kept = _movement(game)
    for prov in sorted(game.units):
        kept.candidates.count(prov)
        yield
    for power, texts in game.written_orders().items():
        for text in texts:
            order = kept.parse(game, text, power)
            kept.place(order.unit.province, order)  # type: ignore[union-attr]  # (a movement phase's: a unit's)
            yield


def encode_phase(game: Game, orders: dict[str, list[str]], digits: Digits, extra: list[Any], n: int) -> None:
    """Write the ``orders`` (by power, as written) of ``game``'s phase, the link's phase ``n``, into its
    ``digits``: each order as its index among its unit's (or its power's) candidate orders; one that is no
    candidate written out in ``extra``, with ``n`` and its power."""
    if game.phase.kind == "movement":
        _encode_movement(game, orders, digits, extra, n)
        return
    given: dict[str, list[Order]] = {}
    for power, texts in orders.items():
        given[power] = [game.parse(t, power) for t in texts]
    if game.phase.kind == "retreat":
        by_prov = {o.unit.province: (p, o) for p, os in given.items() for o in os}  # type: ignore[union-attr]
        for prov, cands in phase_slots(game):
            if prov not in by_prov:
                digits.put(0, len(cands) + 2)
                continue
            power, o = by_prov[prov]
            if o in cands:
                digits.put(cands.index(o) + 1, len(cands) + 2)
            else:
                digits.put(len(cands) + 1, len(cands) + 2)
                extra.append([n, power, format_order(o)])
        return
    for power in sorted(game.variant.powers):
        cands = adjustment_candidates(game, power)
        mine = given.get(power, [])
        if len(mine) > len(cands) or any(o not in cands for o in mine):
            digits.put(len(cands) + 1, len(cands) + 2)
            extra.append([n, power, [format_order(o) for o in mine]])
            continue
        digits.put(len(mine), len(cands) + 2)
        for o in mine:
            digits.put(cands.index(o), len(cands))


def _encode_movement(game: Game, orders: dict[str, list[str]], digits: Digits, extra: list[Any], n: int) -> None:
    """A movement phase's part of :func:`encode_phase`: for each unit in province order, 0 for no order,
    its order's index among its candidates plus 1, or (the order written out) the count plus 1."""
    kept = _movement(game)
    by_prov = {}
    for power, texts in orders.items():
        for text in texts:
            o = kept.parse(game, text, power)
            by_prov[o.unit.province] = (power, o)  # type: ignore[union-attr]
    c = kept.candidates
    for prov in sorted(game.units):
        count = c.count(prov)
        if prov not in by_prov:
            digits.put(0, count + 2)
            continue
        power, o = by_prov[prov]
        k = kept.place(prov, o)
        if k >= 0:
            digits.put(k + 1, count + 2)
        else:
            digits.put(count + 1, count + 2)
            extra.append([n, power, format_order(o)])


def _decode_phase(game: Game, digits: Digits, extra: dict[tuple[int, str], list[Any]], n: int) -> None:
    v = game.variant
    if game.phase.kind != "adjustment":
        owners = {prov: u.power for prov, u in game.units.items()}
        owners.update({d.unit.province: d.unit.power for d in game.position.dislodged})
        slots = _counted_slots(game)
        mine = digits.take([count + 2 for _, count, _ in slots])
        for prov, count, nth in slots:
            k = mine.get(count + 2)
            if k == 0:
                continue
            if k <= count:
                game.add_order(nth(prov, k - 1))
                continue
            texts = extra.get((n, owners[prov]), [])
            if not texts or not isinstance(texts[0], str):
                raise GameFileError("the link is damaged: an order written out is missing")
            game.add_order(game.parse(texts.pop(0), owners[prov]))
        return
    for power in sorted(v.powers):
        cands = adjustment_candidates(game, power)
        k = digits.get(len(cands) + 2)
        if k == len(cands) + 1:
            texts = extra.get((n, power), [])
            if not texts or not isinstance(texts[0], list) or not all(isinstance(t, str) for t in texts[0]):
                raise GameFileError("the link is damaged: adjustments written out are missing")
            for t in texts.pop(0):
                _add_checked(game, game.parse(t, power), power)
            continue
        mine = digits.take([len(cands)] * k)
        for _ in range(k):
            game.add_order(cands[mine.get(len(cands))])


def _add_checked(game: Game, order: Order, power: str) -> None:
    if isinstance(order, (Build, Waive)) and order.power != power:
        raise GameFileError("the link is damaged: an order belongs to another power")
    if isinstance(order, Disband) and order.unit.power != power:
        raise GameFileError("the link is damaged: an order belongs to another power")
    game.add_order(order)


def _places(game: Game) -> int:
    """How many places (provinces, and each coast of one) the game's map has."""
    v = game.variant
    return sum(len(v.locations(p)) + 1 for p in v.provinces)


def _bits_per_phase(game: Game) -> int:
    """The most bits one phase's orders can take in the packed number, from the size of the map alone
    (a bound on what a link may hold, checked before any arithmetic): a unit's candidates are fewer than
    ``3 L**2 + 16`` for ``L`` places (hold, moves, supports and convoys between places); an adjustment
    writes, per power, a count and at most one index among ``3 L`` builds and removals per place."""
    places = _places(game)
    movement = places * (3 * places * places + 18).bit_length()
    adjustment = (len(game.variant.powers) + 4 * places) * (3 * places + 2).bit_length()
    return max(movement, adjustment)


class _Segment:
    """One adjudicated phase's part of a link: its digits packed into one number (``radix`` is the product
    of their radices, so the next phase's part goes above it), and its orders written out as text."""

    __slots__ = ("extra", "number", "orders", "position", "radix", "record")

    def __init__(self, record: PhaseRecord, position: Position, number: int, radix: int, extra: list[Any]) -> None:
        key = id(record)
        self.record = weakref.ref(record, lambda _: SEGMENTS.pop(key, None))
        #: what the part was made from: the record's orders (a copy) and the position they were given in
        self.orders = {power: list(texts) for power, texts in record.orders.items()}
        self.position = position
        self.number, self.radix, self.extra = number, radix, extra


#: each adjudicated phase's part of a link, by the id of its history record, for as long as the record
#: lives: a game's link is then re-made from its parts and the current phase's orders alone, so that an
#: action costs the same in year 100 as in year 1 (replaying a long game and finding every phase's
#: candidate orders again took seconds)
SEGMENTS: dict[int, _Segment] = {}


def _segment(game: Game, record: PhaseRecord, position: Position) -> _Segment:
    """The part of a link for `record`, an adjudicated phase of `game` that started at `position`."""
    cached = SEGMENTS.get(id(record))
    if (
        cached is not None
        and cached.record() is record
        and cached.position is position
        and cached.orders == record.orders
    ):
        return cached
    digits = Digits()
    extra: list[Any] = []
    encode_phase(Game(game.variant, position), record.orders, digits, extra, 0)
    radix = 1
    for _, r in digits.pairs:
        radix *= r
    segment = _Segment(record, position, digits.pack(), radix, extra)
    SEGMENTS[id(record)] = segment
    return segment


class _Parts:
    """While a link is decoded, each adjudicated phase's part of it, kept for :func:`encode_link` as it
    would make it: a game opened from a link is then changed without its whole history encoded again."""

    def __init__(self, payload: dict[str, Any]) -> None:
        #: the orders written out, by phase, as :class:`_Segment` keeps them
        self.written: dict[Any, list[Any]] = {}
        for item in payload.get("x", []):
            if isinstance(item, list) and len(item) == 3:
                self.written.setdefault(item[0], []).append([0, item[1], item[2]])
        self.index = 0
        self.position: Position | None = None

    def start(self, game: Game, digits: Digits) -> None:
        self.index, self.position = len(game.history), game.position
        digits.restart()

    def keep(self, game: Game, digits: Digits, n: int) -> None:
        record, position = game.history[self.index], self.position
        assert position is not None
        SEGMENTS[id(record)] = _Segment(record, position, digits.read, digits.taken, self.written.get(n, []))


class _Joined:
    """A game's history parts as last put together for its link: the parts, and the number, the product
    of radices and the orders written out that they make."""

    __slots__ = ("extra", "game", "number", "radix", "segments")

    def __init__(self, game: Game, segments: list[_Segment], number: int, radix: int, extra: list[Any]) -> None:
        key = id(game)
        self.game = weakref.ref(game, lambda _: _JOINED.pop(key, None))
        self.segments, self.number, self.radix, self.extra = segments, number, radix, extra


#: by the id of a game, for as long as it lives: its parts last put together (a long game's number is
#: tens of thousands of bits: putting every part together again at each order would grow with the game)
_JOINED: dict[int, _Joined] = {}


def _joined(game: Game, segments: list[_Segment]) -> tuple[int, int, list[Any]]:
    """The number, the product of radices and the orders written out of ``segments`` (a game's adjudicated
    phases' parts, first phase first) put together: only the parts after those last put together for the
    same game are added."""
    kept = _JOINED.get(id(game))
    done = len(kept.segments) if kept is not None and kept.game() is game else -1
    if kept is None or done < 0 or done > len(segments) or kept.segments != segments[:done]:
        kept, done = _Joined(game, [], 0, 1, []), 0
    number, radix, extra = kept.number, kept.radix, list(kept.extra)
    for n, segment in enumerate(segments[done:], start=done):
        number += segment.number * radix
        radix *= segment.radix
        extra += [[n, *item[1:]] for item in segment.extra]
    if done < len(segments):
        kept = _Joined(game, list(segments), number, radix, extra)
    _JOINED[id(game)] = kept
    return number, radix, extra


def encode_link(game: Game, *, position: bool = True) -> str:
    """The fragment text that :func:`decode_link` turns back into the same game; without ``position``,
    one that does not carry the current position (the link version before it, which a group game's phase
    digest is made from, so that codes sealed against that version still open)."""
    if game.rules.hidden_setup:
        # a game with a hidden setup (Cluster's sites) cannot be replayed from its orders alone: the link
        # holds its game file (the page seals the secrets before sharing; see adjutant.group_play.cluster_views)
        text = json.dumps({"a": LINK_VERSION, "v": game.variant.id, "f": to_data(game)}, separators=(",", ":"))
        return link_start(game.variant.id) + base64url.encode(zlib.compress(text.encode("utf-8"), 9)[2:-4])
    # Each adjudicated phase's orders are written against the position it started in (the game keeps
    # it), so no phase is replayed; the phases' digits are least significant first, as decoding reads them.
    segments = [
        _segment(game, record, game.position_at(index))
        for index, record in enumerate(game.history)
        if not record.skipped
    ]
    number, radix, extra = _joined(game, segments)
    extra = list(extra)
    n = len(segments)
    pending = game.written_orders() if not game.over else {}
    digits = Digits()
    current: list[Any] = []
    encode_phase(game, pending, digits, current, n)
    number += digits.pack() * radix
    extra += current
    payload: dict[str, Any] = {"a": LINK_VERSION, "v": game.variant.id, "n": n}
    start = start_of(game)
    if start is not None:
        payload["a"], payload["p"] = START_LINK_VERSION, position_data(start)
    if number:
        payload["c"] = base64url.encode(number.to_bytes((number.bit_length() + 7) // 8, "big"))
    if extra:
        payload["x"] = extra
    if n and position:
        carried = position_code(game)
        if carried is not None:
            payload["a"], payload["q"] = POSITION_LINK_VERSION, carried
    if game.draw:
        payload["d"] = list(game.draw)
    if game.computer:  # the computer seats: {power: {"level": ..., "seed": ...}}, as the game file has them
        payload["s"] = seats_to_data(game.computer)
    raw = json.dumps(payload, separators=(",", ":")).encode("utf-8")
    # raw deflate: no header or checksum
    return link_start(game.variant.id) + base64url.encode(zlib.compress(raw, 9)[2:-4])


def decode_link(text: str) -> Game:
    """The game in a link's fragment (with or without a leading ``#``, with or without the variant's id);
    raises :class:`GameFileError` naming what is wrong, and never anything else."""
    return run_to_end(decoding(text))


def decoding(text: str, carried: Callable[[Game], None] | None = None) -> Generator[int, None, Game]:
    """:func:`decode_link` one phase at a time: yields the number of phases replayed so far after each, and
    returns the game (``StopIteration.value``), so that a caller can pause between phases (the page lets
    the browser draw and answer input while a long game's link is replayed). A link that carries its
    current position (version 3) has it read and checked first, given to ``carried`` (a game at that
    position, with no history: to be shown, not played), and 0 yielded, before the history is replayed;
    a history that does not lead to that position is refused at its end.

    >>> g = Game.new("standard")
    >>> _ = g.add_orders("A Par - Bur")
    >>> _ = g.adjudicate()
    >>> steps = decoding(encode_link(g), lambda shown: print("shown:", shown.units["bur"]))
    >>> next(steps)
    shown: A bur
    0
    >>> next(steps)
    1
    >>> try:
    ...     next(steps)
    ... except StopIteration as done:
    ...     print(done.value.phase, done.value.units["bur"])
    F1901M A bur
    """
    named, text = split_link(text)
    if named is not None:
        try:
            load_variant(named)
        except AdjutantError as e:  # said before the rest, which cannot be read without its variant
            raise GameFileError(f"the link is for a variant Adjutant does not have: {e}") from None
    if not text:
        raise GameFileError("the link holds no game")
    if len(text) > MAX_LINK:
        raise GameFileError(f"the link is too long ({len(text)} characters) to be a game")
    payload = read_json(inflate(base64url.decode(text, "the link"), "the link", MAX_INFLATED), "the link")
    if isinstance(payload, dict):  # (what is not a game at all is said so below)
        check_named_variant(named, payload.get("v"))
    try:
        return (yield from _from_payload(payload, carried))
    except GameFileError:
        raise
    except (AdjutantError, KeyError, IndexError, TypeError, ValueError) as e:
        raise GameFileError(f"the link is damaged: {e}") from None


def _from_payload(payload: Any, shown: Callable[[Game], None] | None = None) -> Generator[int, None, Game]:
    if not isinstance(payload, dict) or "a" not in payload:
        raise GameFileError("the link's contents are not a game")
    version = payload["a"]
    if not isinstance(version, int) or version > POSITION_LINK_VERSION:
        raise GameFileError(
            f"this link was made by a newer Adjutant (link version {version}); this one reads up to "
            f"{POSITION_LINK_VERSION}"
        )
    variant = payload.get("v")
    if not isinstance(variant, str):
        raise GameFileError("the link names no variant")
    if "f" in payload:
        return from_data(payload["f"])
    try:
        game = Game.new(variant)
    except AdjutantError as e:
        raise GameFileError(f"the link's variant: {e}") from None
    if "p" in payload:
        try:
            game = start_from_data(game.variant, payload["p"])
        except AdjutantError as e:
            raise GameFileError(f"the link's starting position: {e}") from None
    records = payload.get("n")
    if not isinstance(records, int) or records < 0:
        raise GameFileError("the link is damaged: bad phase count")
    if records > MAX_PHASES:
        raise GameFileError(f"the link holds {records} phases; Adjutant reads games of up to {MAX_PHASES}")
    packed = payload.get("c", "")
    per_phase = _bits_per_phase(game)
    if not isinstance(packed, str) or len(packed) * 6 > (records + 1) * per_phase + 8:
        raise GameFileError(f"the link is damaged: its orders are longer than {records} phases can need")
    number = int.from_bytes(base64url.decode(packed, "the link"), "big")
    digits = Digits(number)
    extra: dict[tuple[int, str], list[Any]] = {}
    written = payload.get("x", [])
    if not isinstance(written, list) or len(written) > (records + 1) * _places(game):
        raise GameFileError(f"the link is damaged: it writes out more orders than {records} phases can hold")
    for item in written:
        if not (isinstance(item, list) and len(item) == 3 and isinstance(item[0], int) and isinstance(item[1], str)):
            raise GameFileError("the link is damaged: a written-out order is malformed")
        extra.setdefault((item[0], item[1]), []).append(item[2])
    if "q" in payload:
        position = _carried(game.variant, payload["q"])
        if shown is not None:
            shown(position)
        yield 0
    parts = _Parts(payload)
    for n in range(records):
        if game.over:
            raise GameFileError("the link is damaged: it goes on after the end of the game")
        if digits.number.bit_length() > (records + 1 - n) * per_phase:
            raise GameFileError(f"the link is damaged: its orders are longer than {records} phases can need")
        parts.start(game, digits)
        _decode_phase(game, digits, extra, n)
        game.adjudicate()
        parts.keep(game, digits, n)
        yield n + 1
    if not game.over:
        _decode_phase(game, digits, extra, records)
    if digits.number != 0 or any(extra.values()):
        raise GameFileError("the link is damaged: it holds more than a game")
    if "q" in payload and position_code(game) != payload["q"]:
        raise GameFileError(
            "the link is damaged: the position it carries is not the one its orders lead to (it was changed "
            "after it was made)"
        )
    if "d" in payload:
        game.declare_draw(payload["d"])
    if "s" in payload:
        game.computer = seats_from_data(payload["s"], game.variant.powers, "the link")
    return game
