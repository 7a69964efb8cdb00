"""Orders: their types, the parser for what players and judges write, and the canonical form.

The parser is forgiving of form and strict on meaning: any case, ids, names or aliases, ``-``/``->``/``to``,
coasts as ``stp/nc``, ``StP(nc)``, ``stp nc`` or ``(north coast)``.

>>> from adjutant import load_variant
>>> v = load_variant("standard")
>>> units = {"lon": Unit("england", "F", "lon")}
>>> order = parse_order("England: Fleet London -> North Sea", v, units)
>>> order
Move(unit=Unit(power='england', type='F', location='lon'), dest='nth', via_convoy=False)
>>> format_order(order)
'F lon - nth'
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from ..errors import OrderError
from ..map.kinds import PhaseKind, UnitType
from ..map.variant import Power, Variant, normalize_name, province_of

UNIT_NAMES = {"A": "army", "F": "fleet"}


@dataclass(frozen=True, slots=True)
class Unit:
    power: str
    type: UnitType
    location: str
    province: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # province_of, written out: a unit is made for every move that succeeds
        object.__setattr__(self, "province", self.location.partition("/")[0])

    def __str__(self) -> str:
        return f"{self.type} {self.location}"


@dataclass(frozen=True, slots=True)
class Hold:
    unit: Unit


@dataclass(frozen=True, slots=True)
class Move:
    unit: Unit
    dest: str
    via_convoy: bool = False


@dataclass(frozen=True, slots=True)
class Support:
    """Support to hold (``dest is None``) or to move, of the unit in province ``target``. A coast named
    in ``dest`` must match the supported move's."""

    unit: Unit
    target: str
    dest: str | None = None
    target_type: UnitType | None = None


@dataclass(frozen=True, slots=True)
class Convoy:
    unit: Unit
    target: str
    dest: str


@dataclass(frozen=True, slots=True)
class Protect:
    """Coast-Running: an army protects the fleet in ``target`` running its coast to ``dest``."""

    unit: Unit
    target: str
    dest: str


@dataclass(frozen=True, slots=True)
class VariantOrder:
    """An order of a kind only some variants take (the kinds a variant's data names,
    :attr:`~adjutant.map.variant.Variant.order_kinds`). Its class is the variant's, in the variant's module,
    with its grammar (:class:`UnitOrderKind`, :class:`PowerOrderKind`, listed with :func:`add_order_kind`):
    the order writes, describes and checks itself, so that the parser, the canonical form and legality
    read every such kind alike, as python-chess's board reads a variant's moves."""

    #: the kind's name among a variant's :attr:`~adjutant.map.variant.Variant.order_kinds`
    KIND: ClassVar[str] = ""
    #: what a message calls an order of the kind ("there is no research in Standard Diplomacy")
    NOUN: ClassVar[str] = ""
    #: the kind of phase the order is given in
    PHASE: ClassVar[PhaseKind] = "movement"

    def text(self) -> str:
        """The canonical text, which :func:`parse_order` reads back to the same order."""
        raise NotImplementedError

    def long_form(self, variant: Variant) -> str:
        """The judge-style long form (:func:`describe`)."""
        raise NotImplementedError

    def problem(self, variant: Variant) -> str:
        """Why ``variant``'s data makes the order impossible, once its kind is taken ("" if nothing does)."""
        return ""


@dataclass(frozen=True, slots=True)
class VariantUnitOrder(VariantOrder):
    """An order of a variant's own kind to a unit (Cluster's Research, Transfer, Mattermission)."""

    unit: Unit
    #: whether the unit stands as it would holding: the order is legal wherever a hold is
    STANDS: ClassVar[bool] = False

    def drawn(self) -> tuple[str, str, str]:
        """How the order is drawn (:func:`adjutant.pictures.scene.order_shape`): the shape's kind, where
        it goes ("" if nowhere) and the province of the unit it serves ("" if none)."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class VariantPowerOrder(VariantOrder):
    """An order of a variant's own kind given by a power rather than to a unit (Cluster's nomination)."""

    power: str

    def slot(self) -> object:
        """What the order decides: a later order of the power for the same slot replaces it."""
        return self

    def record_key(self) -> str:
        """Where the order goes among its power's orders in a phase's record, after the unit orders."""
        return self.text()


def long_unit(variant: Variant, unit: Unit) -> str:
    """A unit as the long form of its order starts: ``Fleet London``."""
    return f"{UNIT_NAMES[unit.type].title()} {variant.province_name(unit.location)}"


@dataclass(frozen=True, slots=True)
class Retreat:
    unit: Unit
    dest: str


@dataclass(frozen=True, slots=True)
class Disband:
    """A retreat-phase disband, or an adjustment-phase removal."""

    unit: Unit


@dataclass(frozen=True, slots=True)
class Build:
    power: str
    type: UnitType
    location: str


@dataclass(frozen=True, slots=True)
class Waive:
    power: str


UnitOrder = Hold | Move | Support | Convoy | Protect | VariantUnitOrder | Retreat | Disband
Order = UnitOrder | Build | Waive | VariantPowerOrder
#: orders given by a power rather than to a unit
POWER_ORDERS = (Build, Waive, VariantPowerOrder)
#: the classes of the orders given by a power: Build, Waive and those of the variants' kinds, added as they
#: are listed (:func:`add_order_kind`); for ``type(order) in POWER_ORDER_TYPES``, quicker than ``isinstance``
POWER_ORDER_TYPES: set[type] = {Build, Waive}

#: the orders that carry another unit's move: a convoy, and Coast-Running's protection of a run
CARRIERS = (Convoy, Protect)

MOVEMENT_ORDERS = (Hold, Move, Support, Convoy, Protect)
RETREAT_ORDERS = (Retreat, Disband)
ADJUSTMENT_ORDERS = (Build, Disband, Waive)


def order_power(order: Order) -> str:
    return order.power if isinstance(order, POWER_ORDERS) else order.unit.power


def format_order(order: Order) -> str:
    """The canonical text of an order, which :func:`parse_order` reads back to the same order."""
    # moves and supports first: they are most of the orders of a phase, each written out once
    if isinstance(order, Move):
        u = order.unit
        return f"{u.type} {u.location} - {order.dest}{' via convoy' if order.via_convoy else ''}"
    if isinstance(order, Support):
        u = order.unit
        t = f"{order.target_type} " if order.target_type else ""
        return f"{u.type} {u.location} S {t}{order.target}{f' - {order.dest}' if order.dest else ''}"
    if isinstance(order, Build):
        return f"Build {order.type} {order.location}"
    if isinstance(order, Waive):
        return "Waive"
    if isinstance(order, VariantOrder):
        return order.text()
    unit = f"{order.unit.type} {order.unit.location}"
    if isinstance(order, Hold):
        return f"{unit} H"
    if isinstance(order, Convoy):
        return f"{unit} C A {order.target} - {order.dest}"
    if isinstance(order, Protect):
        return f"{unit} P F {order.target} - {order.dest}"
    if isinstance(order, Retreat):
        return f"{unit} R {order.dest}"
    return f"{unit} D"


# --- the parser -----------------------------------------------------------------------------------

#: the words of the orders, each by its token (those of the variants' own kinds added as they are listed)
_KEYWORDS = {
    "hold": "H",
    "holds": "H",
    "h": "H",
    "stand": "H",
    "stands": "H",
    "support": "S",
    "supports": "S",
    "s": "S",
    "convoy": "C",
    "convoys": "C",
    "c": "C",
    "protect": "P",
    "protects": "P",
    "p": "P",
    "-": "-",
    "->": "-",
    "=>": "-",
    "to": "-",
    "move": "-",
    "moves": "-",
    "m": "-",
    "retreat": "R",
    "retreats": "R",
    "r": "R",
    "disband": "D",
    "disbands": "D",
    "d": "D",
    "build": "B",
    "builds": "B",
    "b": "B",
    "remove": "X",
    "removes": "X",
    "waive": "W",
    "waives": "W",
    "via": "VIA",
    "by": "VIA",
}
_UNIT_WORDS: dict[str, UnitType] = {"a": "A", "army": "A", "f": "F", "fleet": "F"}
_COAST_WORDS = {
    "nc": "nc",
    "sc": "sc",
    "ec": "ec",
    "wc": "wc",
    "north": "nc",
    "south": "sc",
    "east": "ec",
    "west": "wc",
    "n": "nc",
    "s": "sc",
    "e": "ec",
    "w": "wc",
}
_PHASES = ("movement", "retreat", "adjustment")


def _tokens(text: str, variant: Variant) -> list[str]:
    s = text.lower()
    for dash in ("\u2013", "\u2014", "\u2212"):
        s = s.replace(dash, "-")
    # keep hyphenated names (Mid-Atlantic) whole before dashes become move tokens
    for name in _hyphenated_names(variant):
        s = s.replace(name, name.replace("-", " "))
    s = re.sub(r"->|=>|-|/|\(|\)|,|:|\.", lambda m: {"(": " ", ")": " ", ".": " "}.get(m.group(), f" {m.group()} "), s)
    return s.split()


def _hyphenated_names(variant: Variant) -> list[str]:
    """The variant's province names and aliases holding a hyphen, in lower case, longest first."""
    names = _HYPHENATED.get(variant)
    if names is None:
        names = sorted((n.lower() for p in variant.provinces.values() for n in (p.name, *p.aliases) if "-" in n),
                       key=len, reverse=True)
        _HYPHENATED[variant] = names
    return names


#: by variant, :func:`_hyphenated_names` (read for every order parsed; a variant's map never changes)
_HYPHENATED: weakref.WeakKeyDictionary[Variant, list[str]] = weakref.WeakKeyDictionary()


class OrderReader:
    """The words of one order as the parser reads them, from the start: what a variant's order kind reads
    the rest of its order with (:class:`UnitOrderKind`, :class:`PowerOrderKind`)."""

    def __init__(self, tokens: list[str], text: str, variant: Variant) -> None:
        self.t = tokens
        self.i = 0
        self.text = text
        self.v = variant

    def peek(self, k: int = 0) -> str | None:
        """The word ``k`` words on (None past the end)."""
        return self.t[self.i + k] if self.i + k < len(self.t) else None

    def advance(self) -> None:
        """Go on to the next word."""
        self.i += 1

    def error(self, message: str) -> OrderError:
        """An error saying ``message`` of the order read."""
        return OrderError(message, self.text)

    def keyword(self) -> str | None:
        tok = self.peek()
        return _KEYWORDS.get(tok) if tok is not None else None

    def unit_type(self) -> UnitType | None:
        """The unit type named here (read), or None if none is."""
        tok = self.peek()
        if tok in _UNIT_WORDS and not self._starts_place_longer():
            self.i += 1
            return _UNIT_WORDS[tok]
        return None

    def _starts_place_longer(self) -> bool:
        # "a" is never a province here, but guard against aliases made of unit words
        return False

    def place(self, what: str) -> str:
        """A province (and optional coast) starting here; returns ``prov`` or ``prov/coast``."""
        best: tuple[int, str] | None = None
        for n in range(min(5, len(self.t) - self.i), 0, -1):
            words = self.t[self.i : self.i + n]
            if any(w in ("-", "->", "/", ":", ",") for w in words):
                continue
            pid = self.v.lookup(" ".join(words))
            if pid is not None:
                best = (n, pid)
                break
        if best is None:
            tok = self.peek()
            if tok is None:
                raise self.error(f"{what} is missing")
            nearest = [f"{self.v.provinces[p].name} ({p})" for p in self.v.nearest_names(tok)]
            hint = f": did you mean {', '.join(nearest[:-1])} or {nearest[-1]}?" if len(nearest) > 1 else (
                f": did you mean {nearest[0]}?" if nearest else "")
            raise self.error(f"{tok!r} is not a province of {self.v.name}{hint}")
        self.i += best[0]
        pid = best[1]
        coast = self._coast(pid)
        return f"{pid}/{coast}" if coast else pid

    def _coast(self, pid: str) -> str | None:
        coasts = self.v.provinces[pid].coasts
        j = self.i
        if self.peek() == "/":
            j += 1
        tok = self.t[j] if j < len(self.t) else None
        if tok is None or tok not in _COAST_WORDS:
            if j != self.i:
                raise self.error(f"a coast of {self.v.provinces[pid].name} must follow '/'")
            return None
        coast = _COAST_WORDS[tok]
        # single letters only count right after '/', so "S" stays "supports"
        if len(tok) == 1 and j == self.i:
            return None
        j += 1
        if j < len(self.t) and self.t[j] == "coast":
            j += 1
        if not coasts:
            if j - self.i > 1 or tok in ("nc", "sc", "ec", "wc"):
                raise self.error(f"{self.v.provinces[pid].name} has no separate coasts")
            return None
        if coast not in coasts:
            raise self.error(f"{self.v.provinces[pid].name} has no {coast} coast (it has {', '.join(coasts)})")
        self.i = j
        return coast

    def expect_end(self) -> None:
        """Raise an error if any word is left."""
        if self.peek() is not None:
            raise self.error(f"unexpected {' '.join(self.t[self.i :])!r} at the end")

    def own_unit(self, units: Mapping[str, Unit], utype: str | None, loc: str, power: str | None) -> Unit:
        """The unit in ``loc`` (of type ``utype`` and ``power``'s, if given) on the board ``units``, in a
        movement phase; raises an error saying there is none."""
        return _find_unit(units, None, "movement", utype, loc, power, self)


def _power_prefix(tokens: list[str], variant: Variant) -> tuple[Power | None, list[str]]:
    if ":" in tokens:
        k = tokens.index(":")
        name = " ".join(tokens[:k])
        power = find_power(variant, name)
        if power is None:
            raise OrderError(f"{name!r} is not a power of {variant.name}")
        return power, tokens[k + 1 :]
    if tokens:
        for n in (2, 1):
            # a power's name is one or two words, never a move's dash ("Norway - Sweden")
            power = None if "-" in tokens[:n] else find_power(variant, " ".join(tokens[:n]))
            if power is not None and len(tokens) > n and not _follows_a_place(tokens[n:]):
                return power, tokens[n:]
    return None, tokens


#: words that come after a unit's place, never after a power's name: ``Norway - Sweden`` (Loeb9, where
#: Norway is a power and a province) moves the unit in Norway
#: (and the tokens of the variants' unit order kinds, added as they are listed)
_AFTER_A_PLACE = {"H", "-", "S", "C", "P", "R", "VIA"}


def _follows_a_place(rest: list[str]) -> bool:
    """Whether ``rest``, the words after a name that may be a power's, read as the rest of a unit's order:
    an order word that follows a unit's place, or a disband with nothing after it (``Norway D``)."""
    head = _KEYWORDS.get(rest[0])
    return head in _AFTER_A_PLACE or (head == "D" and len(rest) == 1)


def find_power(variant: Variant, name: str) -> Power | None:
    """A power by id, name, adjective or abbreviation, in any case."""
    names = _POWER_NAMES.get(variant)
    if names is None:
        names = {}
        for p in variant.powers.values():  # (where two powers share a name, the first listed has it)
            for key in (normalize_name(p.id), normalize_name(p.name), normalize_name(p.adjective), p.abbrev.lower()):
                names.setdefault(key, p)
        _POWER_NAMES[variant] = names
    return names.get(normalize_name(name))


#: by variant, its powers by every name :func:`find_power` knows them by: the parser asks for each
#: order (whether its first words name a power), and a variant's powers never change
_POWER_NAMES: weakref.WeakKeyDictionary[Variant, dict[str, Power]] = weakref.WeakKeyDictionary()


def parse_order(
    text: str,
    variant: Variant,
    units: Mapping[str, Unit],
    *,
    power: str | None = None,
    phase: PhaseKind = "movement",
    dislodged: Mapping[str, Unit] | None = None,
    default_power: str | None = None,
) -> Order:
    """Read one order. ``units`` maps province ids to the units on the board; in a retreat phase
    ``dislodged`` maps them to the dislodged units, which are the ones ordered. ``power`` says whose
    order this must be; ``default_power`` is whose it is when the text names no power (a header line).

    Raises :class:`OrderError` quoting the order and saying what is wrong.
    """
    if phase not in _PHASES:
        raise ValueError(f"unknown phase kind {phase!r}")
    text = text.strip()
    tokens = _tokens(text, variant)
    if not tokens:
        raise OrderError("empty order", text)
    try:
        prefix, tokens = _power_prefix(tokens, variant)
    except OrderError as e:
        raise OrderError(e.reason, text) from None
    if prefix is not None:
        if power is not None and prefix.id != power:
            raise OrderError(f"this order is for {prefix.name}, not {variant.powers[power].name}", text)
        power = prefix.id
    elif power is None:
        power = default_power
    named = " ".join(tokens)
    if prefix is None and find_power(variant, named) is not None and variant.lookup(named) is None:
        raise OrderError(f"{text!r} is a power's name: its orders go after it (e.g. 'England: F Lon - Nth')", text)
    r = OrderReader(tokens, text, variant)
    head = r.keyword()
    if head == "W":
        r.i += 1
        r.expect_end()
        if power is None:
            raise r.error("say which power waives its build (e.g. 'England: waive')")
        return _check_phase(Waive(power), phase, r)
    power_kind = _POWER_KINDS.get(head) if head is not None else None
    if power_kind is not None:
        r.i += 1
        return _check_phase(power_kind.read(r, power, units), phase, r)
    if head in ("B", "X", "D") and r.peek(1) is not None:
        r.i += 1
        utype = r.unit_type()
        loc = r.place("the place")
        r.expect_end()
        if head == "B":
            return _build(utype, loc, power, phase, r)
        return _check_phase(Disband(_find_unit(units, dislodged, phase, utype, loc, power, r)), phase, r)
    utype = r.unit_type()
    loc = r.place("the unit's place")
    kw = r.keyword()
    if kw == "B":
        r.i += 1
        r.expect_end()
        return _build(utype, loc, power, phase, r)
    if kw == "X":
        r.i += 1
        r.expect_end()
        return _check_phase(Disband(_find_unit(units, dislodged, phase, utype, loc, power, r)), phase, r)
    names = {
        "S": "support",
        "C": "convoy",
        "P": "protect",
        "H": "hold",
        "-": "move",
        "R": "retreat",
    }
    unit_kind = _UNIT_KINDS.get(kw) if kw is not None else None
    if kw in names and (phase == "adjustment" or (phase == "retreat" and kw not in ("-", "R"))):
        raise r.error(f"a {names[kw]} order cannot be given in a{'n' if phase == 'adjustment' else ''} {phase} phase")
    if unit_kind is not None and phase != unit_kind.order.PHASE:
        a = "an" if phase == "adjustment" else "a"
        raise r.error(f"a {unit_kind.order.NOUN} order cannot be given in {a} {phase} phase")
    unit = _find_unit(units, dislodged, phase, utype, loc, power, r)
    order: Order
    if kw is None and r.peek() is None:
        order = Hold(unit) if phase == "movement" else Disband(unit)
        if phase != "movement":
            raise r.error("say where the unit retreats, or that it disbands")
    elif kw == "H":
        r.i += 1
        r.expect_end()
        order = Hold(unit)
    elif unit_kind is not None:
        r.i += 1
        order = unit_kind.read(r, unit, units)
    elif kw == "D":
        r.i += 1
        r.expect_end()
        order = Disband(unit)
    elif kw in ("-", "R"):
        r.i += 1
        dest = r.place("the destination")
        via = False
        while r.keyword() == "-":  # a route written out: A Lon - Nth - Bel
            r.i += 1
            dest = r.place("the destination")
            via = True
        if r.keyword() == "VIA" or (r.keyword() == "C" and r.peek(1) is None):
            r.i += 1
            if r.keyword() == "C":
                r.i += 1
            via = True
        r.expect_end()
        if phase == "retreat" or kw == "R":
            if via:
                raise r.error("a retreat cannot be convoyed")
            order = Retreat(unit, dest)
        else:
            order = Move(unit, dest, via)
    elif kw == "S":
        r.i += 1
        ttype = r.unit_type()
        target = r.place("the supported unit")
        dest = None
        if r.keyword() == "-":
            r.i += 1
            dest = r.place("the supported move's destination")
        elif r.keyword() == "H":
            r.i += 1
        r.expect_end()
        order = Support(unit, province_of(target), dest, ttype)
    elif kw == "C":
        r.i += 1
        ttype = r.unit_type()
        if ttype == "F":
            raise r.error("only armies can be convoyed")
        target = r.place("the convoyed army")
        if r.keyword() != "-":
            raise r.error("say where the convoyed army goes (e.g. 'F Nth C A Lon - Nwy')")
        r.i += 1
        dest = r.place("the convoy's destination")
        r.expect_end()
        order = Convoy(unit, province_of(target), province_of(dest))
    elif kw == "P":
        r.i += 1
        ttype = r.unit_type()
        if ttype == "A":
            raise r.error("only fleets can be protected")
        target = r.place("the protected fleet")
        if r.keyword() != "-":
            raise r.error("say where the protected fleet goes (e.g. 'A Tun P F Ion - Wes')")
        r.i += 1
        dest = r.place("the fleet's destination")
        r.expect_end()
        order = Protect(unit, province_of(target), dest)
    else:
        tok = r.peek()
        raise r.error(f"{tok!r} is not an order (use H, -, S, C, R, D, Build, Remove or Waive)")
    return _check_phase(order, phase, r)


@dataclass(frozen=True)
class UnitOrderKind:
    """The grammar of a variant's own kind of order to a unit: the words that name it after the unit
    (``A Par RES``), and what reads the rest of the order (the reader just past the word, the unit ordered
    and the board)."""

    order: type[VariantUnitOrder]
    #: the token its words stand for, and the words, in lower case
    token: str
    words: tuple[str, ...]
    read: Callable[[OrderReader, Unit, Mapping[str, Unit]], VariantUnitOrder]


@dataclass(frozen=True)
class PowerOrderKind:
    """The grammar of a variant's own kind of order given by a power: the words that start it
    (``Nominate 3 Par``), and what reads the rest of the order (the reader just past the word, whose order
    it is if known, and the board)."""

    order: type[VariantPowerOrder]
    token: str
    words: tuple[str, ...]
    read: Callable[[OrderReader, str | None, Mapping[str, Unit]], VariantPowerOrder]


#: the variants' own kinds of order, by token: every one the parser reads, taken only where a variant's
#: data names its kind (:func:`kind_refused`), so a map said to have a kind takes it
_UNIT_KINDS: dict[str, UnitOrderKind] = {}
_POWER_KINDS: dict[str, PowerOrderKind] = {}


def add_order_kind(kind: UnitOrderKind | PowerOrderKind) -> None:
    """Have the parser read orders of a variant's own ``kind`` (called by the variant's module as it is
    imported, which importing any part of ``adjutant`` does: the variants' registry imports them)."""
    if isinstance(kind, UnitOrderKind):
        _UNIT_KINDS[kind.token] = kind
        _AFTER_A_PLACE.add(kind.token)
    else:
        _POWER_KINDS[kind.token] = kind
        POWER_ORDER_TYPES.add(kind.order)
    _KEYWORDS.update(dict.fromkeys(kind.words, kind.token))


def kind_refused(variant: Variant, order: Order) -> str:
    """Why ``variant`` takes no order of ``order``'s kind ("" if it does: a classic order, or one of a kind
    its data names)."""
    if isinstance(order, VariantOrder):
        kind, noun = order.KIND, order.NOUN
    elif isinstance(order, Protect):
        kind, noun = "protect", "protect order"
    else:
        return ""
    return f"there is no {noun} in {variant.name}" if kind not in variant.order_kinds else ""


def _check_phase(order: Order, phase: PhaseKind, r: OrderReader) -> Order:
    allowed = {"movement": MOVEMENT_ORDERS, "retreat": RETREAT_ORDERS, "adjustment": ADJUSTMENT_ORDERS}[phase]
    if isinstance(order, VariantOrder):
        if phase != order.PHASE:
            raise r.error(f"a {order.NOUN} order cannot be given in a {phase} phase")
    elif not isinstance(order, allowed):
        name = {
            Hold: "hold",
            Move: "move",
            Support: "support",
            Convoy: "convoy",
            Protect: "protect",
            Retreat: "retreat",
            Disband: "disband",
            Build: "build",
            Waive: "waive",
        }[type(order)]
        raise r.error(f"a {name} order cannot be given in a {phase} phase")
    refused = kind_refused(r.v, order)
    if refused:
        raise r.error(refused)
    problem = order.problem(r.v) if isinstance(order, VariantOrder) else ""
    if problem:
        raise r.error(problem)
    return order


def _build(utype: UnitType | None, loc: str, power: str | None, phase: PhaseKind, r: OrderReader) -> Order:
    if phase != "adjustment":
        raise r.error(f"a build order cannot be given in a {phase} phase")
    if utype is None:
        raise r.error("say whether to build an army or a fleet")
    if power is None:
        # the power whose home centre or extra build site it is (Cline's Arkangel: Russia's, no centre)
        where = province_of(loc)
        owner = next((p for p in r.v.powers.values() if where in p.home_centres
                      or any(s.province == where for s in p.build_sites)), None)
        if owner is None:
            raise r.error("say which power builds (e.g. 'England: Build F Lon')")
        power = owner.id
    return Build(power, utype, loc)


def _find_unit(
    units: Mapping[str, Unit],
    dislodged: Mapping[str, Unit] | None,
    phase: PhaseKind,
    utype: str | None,
    loc: str,
    power: str | None,
    r: OrderReader,
) -> Unit:
    board = dislodged if phase == "retreat" and dislodged is not None else units
    prov = province_of(loc)
    unit = board.get(prov)
    v = r.v
    if unit is None or (power is not None and unit.power != power) or (utype is not None and unit.type != utype):
        who = v.powers[power].adjective + " " if power is not None and power in v.powers else ""
        what = UNIT_NAMES[utype] if utype else "unit"
        where = v.provinces[prov].name
        extra = " dislodged" if phase == "retreat" and dislodged is not None else ""
        raise r.error(f"there is no{extra} {who}{what} in {where}")
    if "/" in loc and loc != unit.location:
        raise r.error(f"the fleet is at {unit.location}, not {loc}")
    return unit


#: a power's name as a header line or a line's prefix writes it: a letter, then letters, spaces, dots,
#: apostrophes and dashes
_NAME = re.compile(r"[A-Za-z][A-Za-z .'-]*")


def split_orders(text: str, variant: Variant | None = None) -> list[tuple[int, str, str | None]]:
    """Cut a paste into ``(line number, order text, power named by a header line)`` triples.

    Orders are separated by new lines or ``;``. A header line names the power of the orders below it:
    a name with a colon (``England:``), or, given the ``variant``, a power's name alone (``England``).
    A power's name alone is a header even where a province has the same name (Loeb9's Norway, the Cline
    maps' Persia, ``ENG`` for England and the English Channel): read as an order it would only say
    that unit holds, which a unit without orders does anyway; ``A Nwy H`` orders the hold.
    """
    out = []
    header: str | None = None
    for n, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        # the name a line starts with, and what follows it: one greedy pattern, so that a long run of
        # spaces is read in one pass (a name's pattern followed by "\s*" could share the spaces out in
        # quadratically many ways before failing)
        start = _NAME.match(line)
        name = start.group().rstrip() if start else ""
        after = line[start.end() :].lstrip() if start else line
        if start and (after == ":" or (not after and variant is not None and find_power(variant, name) is not None)):
            header = name
            continue
        # "France: A Par - Bur; A Mar - Spa": the prefix names the power of the whole line
        line_power = name if start and after.startswith(":") else header
        for part in line.split(";"):
            if part.strip():
                out.append((n, part.strip(), line_power))
    return out


def parse_orders(
    text: str,
    variant: Variant,
    units: Mapping[str, Unit],
    *,
    power: str | None = None,
    phase: PhaseKind = "movement",
    dislodged: Mapping[str, Unit] | None = None,
) -> tuple[list[Order], list[OrderError]]:
    """Read a paste of orders. Returns the orders read and one error per line that could not be read."""
    orders: list[Order] = []
    errors: list[OrderError] = []
    for line, part, header in split_orders(text, variant):
        default = None
        try:
            if header is not None:
                hp = find_power(variant, header)
                if hp is None:
                    raise OrderError(f"{header!r} is not a power of {variant.name}", header)
                if power is not None and hp.id != power:
                    raise OrderError(f"these orders are for {hp.name}", part)
                default = hp.id
            orders.append(
                parse_order(part, variant, units, power=power, phase=phase, dislodged=dislodged, default_power=default)
            )
        except OrderError as e:
            e.line = line  # type: ignore[attr-defined]
            errors.append(e)
    return orders, errors


def describe(order: Order, variant: Variant, units: Iterable[Unit] = ()) -> str:
    """The judge-style long form: ``Fleet London -> North Sea.``"""
    del units
    name = variant.province_name
    if isinstance(order, Build):
        return f"Build {UNIT_NAMES[order.type]} {name(order.location)}."
    if isinstance(order, Waive):
        return "Waive."
    if isinstance(order, VariantOrder):
        return order.long_form(variant)
    u = long_unit(variant, order.unit)
    if isinstance(order, Hold):
        return f"{u} HOLD."
    if isinstance(order, Move):
        return f"{u} -> {name(order.dest)}" + (" via convoy." if order.via_convoy else ".")
    if isinstance(order, Support):
        t = f"{UNIT_NAMES[order.target_type]} " if order.target_type else ""
        tail = f" -> {name(order.dest)}" if order.dest else ""
        return f"{u} SUPPORT {t}{name(order.target)}{tail}."
    if isinstance(order, Convoy):
        return f"{u} CONVOY army {name(order.target)} -> {name(order.dest)}."
    if isinstance(order, Protect):
        return f"{u} PROTECT fleet {name(order.target)} -> {name(order.dest)}."
    if isinstance(order, Retreat):
        return f"{u} RETREAT {name(order.dest)}."
    return f"{u} DISBAND."
