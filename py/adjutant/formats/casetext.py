"""One phase as a DATC-style case text: the ``CASE … PRESTATE … ORDERS … POSTSTATE … END`` form that jDip
and godip read their test cases in, for reporting an adjudication ("Report this adjudication") and for
reading such a case back, as a game set up at the case's position with its orders given.

::

    VARIANT_ALL standard
    CASE Adjutant standard F1905M
    PRESTATE_SETPHASE Fall 1905, Movement
    PRESTATE_SUPPLYCENTER_OWNERS
    England: lon
    PRESTATE
    England: F nth
    ORDERS
    England: F nth - nwy
    POSTSTATE
    England: F nwy
    END

A retreat phase adds ``PRESTATE_DISLODGED`` (the dislodged units) and ``PRESTATE_RESULTS`` (``SUCCESS:``
and the move that dislodged each, so that its retreat options are right; none for a convoyed attack), and
``PRESTATE_STANDOFFS`` (Adjutant's own: the provinces of a stand-off). A movement phase's dislodged units
are in ``POSTSTATE_DISLODGED``. Places are written by their ids (``F stp/nc``), orders in Adjutant's
canonical form; lines starting with ``#`` are comments.

>>> from adjutant.setup import set_up_text
>>> game = set_up_text("standard", "F1905M", "England: F Nth; Russia: F Nwy", "England: lon")
>>> _ = game.add_orders("England: F Nth - Nwy")
>>> _ = game.adjudicate()
>>> text = case_text(game, 0)
>>> print(text.split("ORDERS")[1].strip())
England: F nth - nwy
POSTSTATE
England: F nth
Russia: F nwy
END
>>> [case.name for case in read_cases(text)], check_case(read_cases(text)[0])
(['Adjutant standard F1905M'], [])
"""

from __future__ import annotations

from dataclasses import dataclass

from ..adjudication.orders import Move, Unit, find_power, parse_order
from ..adjudication.phases import Phase
from ..errors import AdjutantError, SetupError
from ..game import Game, Position
from ..map.variant import Variant, load_variant
from ..setup import Placed, set_up

#: the longest case text read (a whole file of cases)
MAX_TEXT = 2_000_000
#: the most cases one text may hold
MAX_CASES = 2_000
_KIND_WORDS = {"movement": "Movement", "retreat": "Retreat", "adjustment": "Adjustment"}
_SECTIONS = (
    "PRESTATE_SUPPLYCENTER_OWNERS",
    "PRESTATE_DISLODGED",
    "PRESTATE_RESULTS",
    "PRESTATE_STANDOFFS",
    "PRESTATE",
    "ORDERS",
    "POSTSTATE_DISLODGED",
    "POSTSTATE",
)


def case_text(game: Game, index: int, name: str = "") -> str:
    """History record ``index`` of ``game`` (a phase adjudicated) as a case: the position it started
    in, its orders, and the position they led to."""
    if not 0 <= index < len(game.history) or game.history[index].skipped:
        raise AdjutantError(f"phase {index + 1} of the history was not adjudicated: there is no case to report")
    record, before, after = game.history[index], game.position_at(index), game.position_at(index + 1)
    v = game.variant
    lines = [f"VARIANT_ALL {v.id}", f"CASE {name or f'Adjutant {v.id} {record.phase}'}"]
    phase = record.phase
    lines.append(f"PRESTATE_SETPHASE {phase.season.title()} {phase.year}, {_KIND_WORDS[phase.kind]}")
    lines.append("PRESTATE_SUPPLYCENTER_OWNERS")
    lines += [f"{v.powers[owner].name}: {prov}" for prov, owner in sorted(before.centres.items())]
    lines += _state(v, "PRESTATE", before)
    if before.dislodged:
        lines.append("PRESTATE_RESULTS")
        for d in sorted(before.dislodged, key=lambda d: d.unit.location):
            if d.attacker_from is not None:
                a = d.attacker
                lines.append(f"SUCCESS: {v.powers[a.power].name}: {a.type} {d.attacker_from} - {d.unit.province}")
    if before.contested:
        lines += ["PRESTATE_STANDOFFS", ", ".join(sorted(before.contested))]
    lines.append("ORDERS")
    for power in v.powers:
        lines += [f"{v.powers[power].name}: {text}" for text in record.orders.get(power, [])]
    lines += _state(v, "POSTSTATE", after)
    lines.append("END")
    return "\n".join(lines) + "\n"


def phase_index(game: Game, phase: str) -> int:
    """The index in ``game``'s history of the adjudicated phase named ``phase`` (``S1903M``)."""
    wanted = Phase.parse(phase)
    for n, record in enumerate(game.history):
        if record.phase == wanted and not record.skipped:
            return n
    raise AdjutantError(f"the game has no adjudicated {wanted.title} ({wanted})")


def _state(v: Variant, section: str, p: Position) -> list[str]:
    """A position's units under ``section`` (PRESTATE, POSTSTATE), and its dislodged units under the
    section's ``_DISLODGED``."""
    lines = [section, *_unit_lines(v, p.units.values())]
    if p.dislodged:
        lines += [f"{section}_DISLODGED", *_unit_lines(v, [d.unit for d in p.dislodged])]
    return lines


def _unit_lines(v: Variant, units: object) -> list[str]:
    listed: list[Unit] = sorted(units, key=lambda u: (list(v.powers).index(u.power), u.location))  # type: ignore[call-overload]
    return [f"{v.powers[u.power].name}: {u.type} {u.location}" for u in listed]


@dataclass
class Case:
    """A case read: its name, the game set up at its position with its orders given, and the position the
    case expects (None where it does not say: a case without POSTSTATE_DISLODGED expects none)."""

    name: str
    game: Game
    units: dict[str, Unit] | None
    dislodged: dict[str, Unit]
    #: the order lines that could not be given, with why (a case may test an order that is refused)
    refused: list[str]


def read_cases(text: str, variant: Variant | str | None = None) -> list[Case]:
    """Every case in a DATC-style text (``variant``, or the text's ``VARIANT_ALL``, else Standard).
    Raises :class:`AdjutantError` naming the case and line of what cannot be read."""
    if len(text) > MAX_TEXT:
        raise AdjutantError(f"the case text is {len(text):,} characters long; Adjutant reads up to {MAX_TEXT:,}")
    v = load_variant(variant) if isinstance(variant, str) else variant
    cases: list[Case] = []
    block: list[tuple[int, str]] | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        head = line.split(None, 1)
        if head[0] == "VARIANT_ALL" and block is None:
            if variant is None:  # (a variant given by the caller is the one read)
                v = _variant(line, number)
            continue
        if head[0] == "CASE":
            if block is not None:
                raise AdjutantError(f"line {number}: a CASE begins before the one above it ENDs")
            block = [(number, line)]
            continue
        if block is None:
            raise AdjutantError(f"line {number}: {line[:40]!r} is outside any CASE … END")
        if head[0] == "END":
            cases.append(_case(v or load_variant("standard"), block))
            if len(cases) > MAX_CASES:
                raise AdjutantError(f"the text holds more than {MAX_CASES:,} cases")
            block = None
            continue
        block.append((number, line))
    if block is not None:
        raise AdjutantError(f"line {block[0][0]}: the CASE has no END")
    return cases


def _variant(line: str, number: int) -> Variant:
    name = line.split(None, 1)[1].strip() if " " in line else ""
    known = {"standard": "standard", "standard diplomacy": "standard"}
    try:
        return load_variant(known.get(name.lower(), name.lower()))
    except AdjutantError as e:
        raise AdjutantError(f"line {number}: VARIANT_ALL: {e}") from None


def _case(v: Variant, block: list[tuple[int, str]]) -> Case:
    start, head = block[0]
    name = head.split(None, 1)[1].strip() if " " in head else f"line {start}"
    phase: Phase | None = None
    sections: dict[str, list[tuple[int, str]]] = {}
    current: str | None = None
    for number, line in block[1:]:
        word = line.split(None, 1)[0]
        if word == "PRESTATE_SETPHASE":
            phase = _phase(line, number, name)
        elif word == "POSTSTATE_SAME":
            sections["POSTSTATE_SAME"] = []
            current = None
        elif word in _SECTIONS:
            current = word
            sections.setdefault(word, [])
        elif current is None:
            raise AdjutantError(f"case {name}, line {number}: {line[:40]!r} is in no section")
        else:
            sections[current].append((number, line))
    if phase is None:
        raise AdjutantError(f"case {name}: no PRESTATE_SETPHASE (like 'PRESTATE_SETPHASE Spring 1901, Movement')")
    units = [_placed(v, n, line, name) for n, line in sections.get("PRESTATE", [])]
    gone = [_placed(v, n, line, name) for n, line in sections.get("PRESTATE_DISLODGED", [])]
    came = _attackers(v, sections.get("PRESTATE_RESULTS", []), name)
    gone = [Placed(g.power, g.type, g.location, came.get(g.location.partition("/")[0])) for g in gone]
    centres: dict[str, str] = {}
    for number, line in sections.get("PRESTATE_SUPPLYCENTER_OWNERS", []):
        power, prov = _owner(v, number, line, name)
        centres[prov] = power
    standoffs = [s.strip() for _, line in sections.get("PRESTATE_STANDOFFS", []) for s in line.split(",") if s.strip()]
    try:
        game = set_up(v, phase, units, centres, gone, standoffs)
    except SetupError as e:
        raise AdjutantError(f"case {name}: {e}") from None
    refused = []
    for number, line in sections.get("ORDERS", []):
        for problem in game.add_orders(line):
            if not problem.kept:
                refused.append(f"line {number}: {problem.text}: {problem.message}")
    expected: dict[str, Unit] | None = None
    if "POSTSTATE" in sections:
        expected = {}
        for n, line in sections["POSTSTATE"]:
            p = _placed(v, n, line, name)
            expected[p.location.partition("/")[0]] = Unit(p.power, p.type, p.location)
    elif "POSTSTATE_SAME" in sections:
        expected = dict(game.units)
    dislodged = {}
    for n, line in sections.get("POSTSTATE_DISLODGED", []):
        p = _placed(v, n, line, name)
        dislodged[p.location.partition("/")[0]] = Unit(p.power, p.type, p.location)
    return Case(name, game, expected, dislodged, refused)


def _phase(line: str, number: int, name: str) -> Phase:
    words = line.replace(",", " ").split()[1:]
    seasons = {"spring": "S", "fall": "F", "autumn": "F", "winter": "W"}
    kinds = {"movement": "M", "retreat": "R", "retreats": "R", "adjustment": "A", "adjustments": "A", "build": "A"}
    if len(words) == 3 and words[0].lower() in seasons and words[1].isdigit() and words[2].lower() in kinds:
        try:
            return Phase.parse(f"{seasons[words[0].lower()]}{words[1]}{kinds[words[2].lower()]}")
        except AdjutantError as e:
            raise AdjutantError(f"case {name}, line {number}: {e}") from None
    raise AdjutantError(f"case {name}, line {number}: {line[:60]!r} is not a phase (like 'Fall 1905, Movement')")


def _power_of(v: Variant, number: int, line: str, name: str) -> tuple[str, str]:
    who, colon, rest = line.partition(":")
    power = find_power(v, who.strip()) if colon else None
    if power is None:
        raise AdjutantError(f"case {name}, line {number}: {line[:40]!r} names no power of {v.name}")
    return power.id, rest.strip()


def _placed(v: Variant, number: int, line: str, name: str) -> Placed:
    """``"England: F nth"`` (or ``F North Sea``, ``F stp/nc``, ``F Spain(sc)``) as a unit of a set-up."""
    power, rest = _power_of(v, number, line, name)
    kind, _, where = rest.partition(" ")
    place, _, coast = where.strip().replace("(", "/").replace(")", "").partition("/")
    prov = v.lookup(place.strip())
    if kind.upper() not in ("A", "F") or prov is None:
        raise AdjutantError(f"case {name}, line {number}: {rest[:40]!r} is not a unit of {v.name} (like 'F nth')")
    return Placed(power, "A" if kind.upper() == "A" else "F", f"{prov}/{coast.strip().lower()}" if coast else prov)


def _owner(v: Variant, number: int, line: str, name: str) -> tuple[str, str]:
    """``"England: lon"`` (or jDip's ``England: F London``) as (power, province)."""
    power, rest = _power_of(v, number, line, name)
    words = rest.split(None, 1)
    if len(words) == 2 and words[0].upper() in ("A", "F"):
        rest = words[1]
    prov = v.lookup(rest.replace("(", "/").partition("/")[0].strip())
    if prov is None:
        raise AdjutantError(f"case {name}, line {number}: {rest[:40]!r} is not a province of {v.name}")
    return power, prov


def _attackers(v: Variant, lines: list[tuple[int, str]], name: str) -> dict[str, str]:
    """From ``PRESTATE_RESULTS``: where each successful move came from, by the province it entered."""
    out = {}
    for number, line in lines:
        verdict, _, rest = line.partition(":")
        if verdict.strip().upper() != "SUCCESS":
            continue
        power, order_text = _power_of(v, number, rest.strip(), name)
        units = {}
        try:
            placed = _placed(v, number, f"{v.powers[power].name}: {' '.join(order_text.split()[:2])}", name)
            units[placed.location.partition("/")[0]] = Unit(power, placed.type, placed.location)
            order = parse_order(order_text, v, units, power=power)
        except AdjutantError as e:
            raise AdjutantError(f"case {name}, line {number}: {e}") from None
        if isinstance(order, Move) and not order.via_convoy:
            out[order.dest.partition("/")[0]] = order.unit.province
    return out


def check_case(case: Case) -> list[str]:
    """The differences between what ``case`` expects and what Adjutant decides (empty: it passes)."""
    game = case.game.copy()
    at = len(game.history)
    game.adjudicate()
    after: Position = game.position_at(at + 1)
    problems = []
    if case.units is not None and after.units != case.units:
        problems += _differences("POSTSTATE", case.units, after.units)
    got = {d.unit.province: d.unit for d in after.dislodged}
    if got != case.dislodged:
        problems += _differences("POSTSTATE_DISLODGED", case.dislodged, got)
    return problems


def _differences(section: str, want: dict[str, Unit], got: dict[str, Unit]) -> list[str]:
    missing = sorted(f"{u.power}: {u}" for p, u in want.items() if got.get(p) != u)
    extra = sorted(f"{u.power}: {u}" for p, u in got.items() if want.get(p) != u)
    out = [f"{section}: expected {m}, which is not there" for m in missing]
    return out + [f"{section}: {x} is there, not expected" for x in extra]


__all__ = ["Case", "case_text", "check_case", "phase_index", "read_cases"]
