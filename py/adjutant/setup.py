"""Setting up any position: a game that starts from a given phase, units and supply-centre owners.

A game master bringing a game already under way, a player trying out a position, a rules example: each
is a :class:`~adjutant.game.Game` whose first position is given rather than the variant's start. The
position is checked and every problem is named (an army at sea, a fleet inland or on no coast, two units
in one province, a centre owner that is not a power, a year before the variant's first); nothing is
fixed silently. The text notation is what ``adjutant setup`` takes and ``adjutant show`` prints::

    --phase F1905M
    --units "England: F Nth, A Lon; France: A Par"
    --centres "England: lon, edi, lvp; France: par"
    --dislodged "Germany: A Mun from Boh"   (a retreat phase: the unit, and where its attacker came from)
    --standoffs "Boh, Tyr"                  (a retreat phase: provinces of a stand-off)

>>> game = set_up_text("standard", phase="F1905M", units="England: F Nth, A Lon; France: A Par",
...                    centres="England: lon, edi; France: par, bre")
>>> str(game.phase), game.units["nth"], game.centre_counts()["france"]
('F1905M', Unit(power='england', type='F', location='nth'), 2)
>>> print(setup_text(game.position, game.variant))
--phase F1905M
--units "England: A Lon, F Nth; France: A Par"
--centres "England: edi, lon; France: bre, par"
>>> set_up_text("standard", phase="S1899M", units="England: A Nth, F Mun", centres="")
Traceback (most recent call last):
...
adjutant.errors.SetupError: the position has 3 problems: S1899M is before Standard Diplomacy's first \
year, 1901; England: A Nth: an army cannot stand at sea (North Sea); England: F Mun: a fleet cannot stand \
inland (Munich)
"""

from __future__ import annotations

import dataclasses
import re
import shlex
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .adjudication.orders import Unit, find_power
from .adjudication.phases import Dislodgement, Phase
from .errors import AdjutantError, SetupError
from .game import Game, Position
from .map.kinds import UnitType
from .map.variant import Variant, load_variant, province_of
from .variants.hooks import VariantState
from .variants.registry import RULEBOOK, rules_for

#: the latest year a position may be set in (a game file reads phases of up to five digits)
LAST_YEAR = 99_999
#: the longest text of one setting read (``--units`` …): far more than any map's units need
MAX_TEXT = 20_000
#: the settings of the notation, in the order they are written
KEYS = ("phase", "units", "centres", "dislodged", "standoffs")
_COASTS = {"nc": "nc", "sc": "sc", "ec": "ec", "wc": "wc", "north": "nc", "south": "sc", "east": "ec", "west": "wc"}
_PLACE = re.compile(r"^\s*([^/()]+?)\s*(?:(?:/|\()\s*([A-Za-z]+)(?:\s+coast)?\s*\)?)?\s*$")
_UNIT = re.compile(r"^\s*([AF]|army|fleet)\s+(.+?)\s*$", re.IGNORECASE)
_DISLODGED = re.compile(r"^(.+?)\s+(?:from\s+(.+?)|by\s+convoy)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Placed:
    """A unit as a set-up gives it: its power, type and place, and for a dislodged unit where its attacker
    came from (``""``: the unit is not dislodged; None: dislodged by a convoyed or coast-run attack)."""

    power: str
    type: UnitType
    location: str
    attacker_from: str | None = ""


def set_up(
    variant: Variant | str,
    phase: Phase | str,
    units: Iterable[Placed],
    centres: Mapping[str, str],
    dislodged: Iterable[Placed] = (),
    standoffs: Iterable[str] = (),
    seed: int | None = None,
    settings: Mapping[str, str] | None = None,
) -> Game:
    """A game starting from the position given: ``units`` on the board, ``centres`` (province -> owner),
    and in a retreat phase the ``dislodged`` units and the ``standoffs``; ``settings``, the variant's own
    (Cluster's ``strengths``, ``deferred``, ``knowledge`` and ``sites``, as the notation writes them).
    Raises :class:`SetupError` naming every problem. ``seed`` draws a variant's hidden setup (Cluster's
    sites, where ``settings`` give none), as :meth:`Game.new <adjutant.game.Game.new>` does.

    >>> g = set_up("standard", "W1901A", [Placed("russia", "F", "stp/sc")], {"stp": "russia", "mos": "russia"})
    >>> g.adjustments()
    {'russia': 1}
    """
    v = load_variant(variant) if isinstance(variant, str) else variant
    position, problems = _checked(v, phase, units, centres, dislodged, standoffs)
    state, more = _variant_state(v, position, rules_for(v).start(v, seed), settings or {})
    if problems or more:
        raise SetupError(problems + more)
    return Game(v, dataclasses.replace(position, variant_state=state))


def _drawn_state(v: Variant) -> VariantState | None:
    """The variant's state of a new game drawn with seed 0 (kept: a draft is checked at every change)."""
    made = _DRAWN.get(v.id)
    if made is None or made[0] is not v:
        made = _DRAWN[v.id] = (v, rules_for(v).start(v, 0))
    return made[1]


#: by variant id, the variant and its state drawn with seed 0
_DRAWN: dict[str, tuple[Variant, VariantState | None]] = {}


def _variant_state(
    v: Variant, position: Position, state: VariantState | None, settings: Mapping[str, str]
) -> tuple[VariantState | None, list[str]]:
    """``state`` with the variant's own ``settings`` applied for ``position``, and their problems (a
    setting the variant has not among them)."""
    rules = rules_for(v)
    problems = [f"--{key}: {v.name} has no such setting" for key in settings if key not in rules.setup_keys]
    gone = {d.unit.province: d.unit for d in position.dislodged}
    state, more = rules.set_up_state(v, state, position.phase, position.units, gone, settings)
    return state, problems + more


def _checked(
    v: Variant,
    phase: Phase | str,
    units: Iterable[Placed],
    centres: Mapping[str, str],
    dislodged: Iterable[Placed],
    standoffs: Iterable[str],
) -> tuple[Position, list[str]]:
    """The position given, and its problems: what :func:`set_up` raises, and :meth:`Draft.position`
    draws (without what has a problem: a unit that cannot stand there, a centre owner that is not a
    power; of two units in one province, the first; an unreadable phase as the variant's first)."""
    problems: list[str] = []
    try:
        ph = Phase.parse(phase) if isinstance(phase, str) else phase
    except AdjutantError as e:
        problems.append(str(e))
        ph = Phase(v.first_year, "spring", "movement")
    if ph.year < v.first_year:
        problems.append(f"{ph} is before {v.name}'s first year, {v.first_year}")
    if ph.year > LAST_YEAR:
        problems.append(f"{ph} is after the year {LAST_YEAR:,}")
    board: dict[str, Unit] = {}
    for u in units:
        unit = _unit(v, u, problems)
        if unit is None:
            continue
        there = board.get(unit.province)
        if there is not None:
            problems.append(f"two units in {v.provinces[unit.province].name}: {_who(v, there)} and {_who(v, unit)}")
            continue
        board[unit.province] = unit
    owners: dict[str, str] = {}
    for prov, owner in centres.items():
        p = v.provinces.get(prov)
        if p is None:
            problems.append(f"{prov!r} is not a province of {v.name}")
        elif not p.centre:
            problems.append(f"{p.name} is not a supply centre")
        elif owner not in v.powers:
            problems.append(f"the owner of {p.name}, {owner!r}, is not a power of {v.name}")
        else:
            owners[prov] = owner
    gone = _dislodgements(v, ph, board, dislodged, problems)
    contested = _standoffs(v, ph, board, standoffs, problems)
    return Position(ph, board, owners, gone, contested), problems


def _who(v: Variant, unit: Unit) -> str:
    return f"{v.powers[unit.power].adjective} {unit.type} {unit.location}"


def _unit(v: Variant, u: Placed, problems: list[str]) -> Unit | None:
    """The unit ``u`` places, or None with its problem added to ``problems``."""
    if u.power not in v.powers:
        problems.append(f"{u.power!r} is not a power of {v.name}")
        return None
    what = f"{v.powers[u.power].name}: {u.type} {_label(u.location)}"
    prov, _, coast = u.location.partition("/")
    p = v.provinces.get(prov)
    if p is None:
        problems.append(f"{what}: {prov!r} is not a province of {v.name}")
        return None
    if p.type == "impassable":
        problems.append(f"{what}: no unit can stand in {p.name}")
    elif u.type == "A" and p.is_sea:
        problems.append(f"{what}: an army cannot stand at sea ({p.name})")
    elif u.type == "A" and coast:
        problems.append(f"{what}: an army stands in {p.name}, not on one of its coasts")
    elif u.type == "F" and p.type == "land":
        problems.append(f"{what}: a fleet cannot stand inland ({p.name})")
    elif u.type == "F" and p.coasts and not coast:
        coasts = " or ".join(f"{prov}/{c}" for c in p.coasts)
        problems.append(f"{what}: a fleet in {p.name} stands on one of its coasts: name it ({coasts})")
    elif u.type == "F" and coast and coast not in p.coasts:
        has = f"its coasts are {', '.join(p.coasts)}" if p.coasts else "it has no separate coasts"
        problems.append(f"{what}: {p.name} has no coast {coast!r} ({has})")
    elif not v.can_stand(u.type, u.location):
        problems.append(f"{what}: a {'fleet' if u.type == 'F' else 'army'} cannot stand in {p.name}")
    else:
        return Unit(u.power, u.type, u.location)
    return None


def _dislodgements(
    v: Variant, ph: Phase, board: Mapping[str, Unit], dislodged: Iterable[Placed], problems: list[str]
) -> tuple[Dislodgement, ...]:
    """The dislodged units given, checked: each stands where it may, beside the unit that dislodged it
    (another power's, now in its province), whose attack came from a neighbouring province."""
    out: dict[str, Dislodgement] = {}
    given = list(dislodged)
    if given and ph.kind != "retreat":
        problems.append(f"units are dislodged only in a retreat phase, not in {ph.title}")
        return ()
    for d in given:
        unit = _unit(v, d, problems)
        if unit is None:
            continue
        name = v.provinces[unit.province].name
        who = f"the dislodged {_who(v, unit)}"
        if unit.province in out:
            problems.append(f"two units dislodged from {name}")
            continue
        attacker = board.get(unit.province)
        came = d.attacker_from
        if attacker is None:
            problems.append(f"{who}: no unit stands in {name}, so none dislodged it")
            continue
        if attacker.power == unit.power:
            problems.append(f"{who}: the unit in {name} is {v.powers[unit.power].adjective} too: a power never "
                            "dislodges its own unit")
            continue
        if came is not None:
            if came not in v.provinces:
                problems.append(f"{who}: its attacker came from {came!r}, not a province of {v.name}")
                continue
            if not v.touches(came, unit.province, attacker.type):
                problems.append(f"{who}: the {_who(v, attacker)} could not have come from {v.provinces[came].name} "
                                "(write 'by convoy' for a convoyed attack)")
                continue
        # (the attacker as it stands now: where a convoyed one came from is not part of a position)
        out[unit.province] = Dislodgement(unit, came, attacker)
    if ph.kind == "retreat" and not given:
        problems.append(f"{ph} is a retreat phase, but no unit is dislodged: give the dislodged units, or set up "
                        "the movement or adjustment phase")
    return tuple(out[p] for p in sorted(out))


def _standoffs(
    v: Variant, ph: Phase, board: Mapping[str, Unit], standoffs: Iterable[str], problems: list[str]
) -> frozenset[str]:
    """The provinces of a stand-off (no retreat there), checked: a retreat phase's. (A stand-off may be
    in a province a unit holds, as the adjudication records it: no retreat goes there either.)"""
    out: set[str] = set()
    for prov in standoffs:
        p = v.provinces.get(prov)
        if p is None:
            problems.append(f"stand-off: {prov!r} is not a province of {v.name}")
        elif ph.kind != "retreat":
            problems.append(f"stand-off in {p.name}: a stand-off matters only in a retreat phase, not in {ph.title}")
        else:
            out.add(prov)
    return frozenset(out)


# --- the text notation -------------------------------------------------------------------------------


def _label(location: str) -> str:
    """A place as players write it: ``"stp/nc"`` -> ``"Stp/nc"``."""
    return location[:1].upper() + location[1:]


def setup_text(p: Position, variant: Variant) -> str:
    """The position in the notation :func:`set_up_text` and :func:`read_setup_text` read (one setting a
    line, each as a command line's option)."""
    return Draft.of(p, variant).text()


def _place_key(u: Unit) -> tuple[str, str]:
    return (u.location, u.type)


def _quoted(text: str) -> str:
    return f'"{text}"'


def set_up_text(
    variant: Variant | str,
    phase: str,
    units: str,
    centres: str,
    dislodged: str = "",
    standoffs: str = "",
    seed: int | None = None,
    settings: Mapping[str, str] | None = None,
) -> Game:
    """:func:`set_up` from the text notation (``units="England: F Nth, A Lon; France: A Par"``,
    ``centres="England: lon, edi"``, ``dislodged="Germany: A Mun from Boh"``, ``standoffs="Boh"``, and
    the variant's own ``settings``); raises :class:`SetupError` naming every problem, those of reading the
    text among them."""
    v = load_variant(variant) if isinstance(variant, str) else variant
    for key, text in (settings or {}).items():
        if len(text) > MAX_TEXT:
            raise SetupError([f"--{key} is {len(text):,} characters long, more than any position needs"])
    placed, owners, gone, off, problems = _read_text(v, units, centres, dislodged, standoffs)
    try:
        game = set_up(v, phase.strip(), placed, owners, gone, off, seed, settings)
    except SetupError as e:
        raise SetupError(problems + list(e.problems)) from None
    if problems:
        raise SetupError(problems)
    return game


def _read_text(
    v: Variant, units: str, centres: str, dislodged: str, standoffs: str
) -> tuple[list[Placed], dict[str, str], list[Placed], list[str], list[str]]:
    """The units, centre owners, dislodged units and stand-offs the texts give, and the problems of
    reading them (what is not a unit, a province or a power: it is left out)."""
    problems: list[str] = []
    for key, text in (("units", units), ("centres", centres), ("dislodged", dislodged), ("standoffs", standoffs)):
        if len(text) > MAX_TEXT:
            raise SetupError([f"--{key} is {len(text):,} characters long, more than any position needs"])
    placed = [u for power, item in _items(v, units, "units", problems) if (u := _read_unit(v, power, item, problems))]
    owners: dict[str, str] = {}
    for power, item in _items(v, centres, "centres", problems):
        prov = _province(v, item, problems, "centres")
        if prov is None:
            continue
        if prov in owners and owners[prov] != power:
            problems.append(f"{v.provinces[prov].name} is given two owners, {v.powers[owners[prov]].name} and "
                            f"{v.powers[power].name}")
        owners[prov] = power
    gone = []
    for power, item in _items(v, dislodged, "dislodged", problems):
        m = _DISLODGED.match(item)
        if m is None:
            problems.append(f"dislodged: {item!r} should say where its attacker came from ('A Mun from Boh', "
                            "or 'A Mun by convoy')")
            continue
        came: str | None = None
        if m.group(2) is not None:
            came = _province(v, m.group(2), problems, "dislodged")
            if came is None:
                continue
        u = _read_unit(v, power, m.group(1), problems)
        if u is not None:
            gone.append(Placed(u.power, u.type, u.location, came))
    off = [p for item in _split(standoffs, ",") if (p := _province(v, item, problems, "standoffs")) is not None]
    return placed, owners, gone, off, problems


def _split(text: str, sep: str) -> list[str]:
    return [part.strip() for part in text.split(sep) if part.strip()]


def _items(v: Variant, text: str, key: str, problems: list[str]) -> list[tuple[str, str]]:
    """``"England: F Nth, A Lon; France: A Par"`` as (power id, item) pairs."""
    out = []
    for group in _split(text, ";"):
        name, colon, rest = group.partition(":")
        power = find_power(v, name.strip()) if colon else None
        if power is None:
            what = f"{name.strip()!r} is not a power of {v.name}" if colon else "it names no power"
            problems.append(f"--{key}: {group[:60]!r}: {what} (write 'England: …')")
            continue
        out += [(power.id, item) for item in _split(rest, ",")]
    return out


def _province(v: Variant, text: str, problems: list[str], key: str) -> str | None:
    prov = v.lookup(text.strip())
    if prov is None:
        problems.append(f"--{key}: {text.strip()[:40]!r} is not a province of {v.name}")
    return prov


def _read_unit(v: Variant, power: str, text: str, problems: list[str]) -> Placed | None:
    """``"F Stp/nc"`` (or ``"F St Petersburg (north coast)"``) of ``power``; None, with the problem added."""
    name = v.powers[power].name
    m = _UNIT.match(text)
    place = _PLACE.match(m.group(2)) if m else None
    if m is None or place is None:
        problems.append(f"{name}: {text.strip()[:40]!r} is not a unit (like 'A Lon' or 'F Stp/nc')")
        return None
    prov = v.lookup(place.group(1))
    if prov is None:
        problems.append(f"{name}: {text.strip()[:40]}: {place.group(1)[:40]!r} is not a province of {v.name}")
        return None
    coast_word = place.group(2)
    location = prov
    if coast_word is not None:
        coast = _COASTS.get(coast_word.lower(), coast_word.lower())
        location = f"{prov}/{coast}"
    kind: UnitType = "A" if m.group(1)[0].upper() == "A" else "F"
    return Placed(power, kind, location)


def read_setup_text(variant: Variant | str, text: str, seed: int | None = None) -> Game:
    """The game a text in the notation sets up: ``--phase …`` and the other settings, wherever they stand
    in the text (``adjutant show``'s output is read whole). A text naming another variant
    (``adjutant setup loeb9 …``) is refused."""
    v = load_variant(variant) if isinstance(variant, str) else variant
    settings = _settings_for(v, text)
    return set_up_text(v, settings["phase"], settings.get("units", ""), settings.get("centres", ""),
                       settings.get("dislodged", ""), settings.get("standoffs", ""), seed, _own_settings(settings))


def _own_settings(settings: Mapping[str, str]) -> dict[str, str]:
    """The settings of a variant's own among ``settings`` (those beyond the notation's :data:`KEYS`)."""
    return {k: t for k, t in settings.items() if k not in KEYS}


def _settings_for(v: Variant, text: str) -> dict[str, str]:
    """The settings of ``text``, refused if it names another variant than ``v`` or gives no phase."""
    settings = read_settings(text)
    named = settings.pop("variant", None)
    if named is not None and named != v.id:
        raise SetupError([f"the text sets up a game of {named!r}, not of {v.id!r}"])
    if "phase" not in settings:
        raise SetupError(["the text gives no --phase (like --phase F1905M)"])
    return settings


#: every setting the notation knows: its own, and those of each variant's rules (Cluster's strengths …)
ALL_KEYS = KEYS + tuple(k for rules in RULEBOOK for k in rules.setup_keys if k not in KEYS)
_SETTING = re.compile(rf"--({'|'.join(ALL_KEYS)})[ =]+(\"[^\"]*\"|'[^']*'|\S+)")
_VARIANT = re.compile(r"\badjutant\s+setup\s+([a-z0-9_]+)\b")


def read_settings(text: str) -> dict[str, str]:
    """The settings a text gives (the last of each, as a command line reads them), and the variant it
    names after ``adjutant setup``, if any."""
    if len(text) > MAX_TEXT * 6:
        raise SetupError([f"the text is {len(text):,} characters long, more than any position needs"])
    out: dict[str, str] = {}
    for m in _SETTING.finditer(text):
        value = m.group(2)
        try:
            out[m.group(1)] = shlex.split(value)[0] if value[:1] in "\"'" else value
        except (ValueError, IndexError):
            raise SetupError([f"--{m.group(1)}: {value[:40]!r} is not closed"]) from None
    named = _VARIANT.search(text)
    if named is not None:
        out["variant"] = named.group(1)
    return out


# --- a position being set up, one change at a time ----------------------------------------------------


@dataclass
class Draft:
    """A position being set up one change at a time (the page's map), or read whole from the notation
    (:meth:`read`). What it holds may have problems, named by :meth:`problems` as :func:`set_up` names
    them; a change that would bring a problem of its own (an army put at sea) is refused, with that
    problem. :meth:`text` writes the notation, :meth:`game` starts the game.

    >>> d = Draft.empty("standard", "F1905M")
    >>> d.place("england", "F", "nth"), d.place("russia", "F", "stp"), d.own("lon", "england")
    (None, 'Russia: F Stp: a fleet in St Petersburg stands on one of its coasts: name it (stp/nc or stp/sc)', None)
    >>> print(d.text())
    --phase F1905M
    --units "England: F Nth"
    --centres "England: lon"
    >>> d.phase = "F1905R"
    >>> d.problems()[0].split(":")[0]
    'F1905R is a retreat phase, but no unit is dislodged'
    """

    variant: Variant
    phase: str
    units: list[Placed] = field(default_factory=list)
    #: province -> owner
    centres: dict[str, str] = field(default_factory=dict)
    dislodged: list[Placed] = field(default_factory=list)
    standoffs: list[str] = field(default_factory=list)
    #: the variant's own settings, as the notation writes them (Cluster's strengths, sites …), by key
    settings: dict[str, str] = field(default_factory=dict)

    @classmethod
    def empty(cls, variant: Variant | str, phase: str | None = None) -> Draft:
        """No unit and no owner, at ``phase`` (the variant's first)."""
        v = load_variant(variant) if isinstance(variant, str) else variant
        return cls(v, phase or str(Phase(v.first_year, "spring", "movement")))

    @classmethod
    def of(cls, p: Position, variant: Variant) -> Draft:
        """The draft of a position (to change and start from)."""
        return cls(
            variant,
            str(p.phase),
            [Placed(u.power, u.type, u.location) for u in sorted(p.units.values(), key=_place_key)],
            dict(sorted(p.centres.items())),
            [Placed(d.unit.power, d.unit.type, d.unit.location, d.attacker_from)
             for d in sorted(p.dislodged, key=lambda d: d.unit.location)],
            sorted(p.contested),
            rules_for(variant).setup_settings(variant, p.variant_state, p.units,
                                              {d.unit.province: d.unit for d in p.dislodged}),
        )

    @classmethod
    def read(cls, variant: Variant | str, text: str) -> Draft:
        """The draft a text in the notation gives; raises :class:`SetupError` naming what cannot be read
        (what can be read but has a problem, an army at sea, is kept: :meth:`problems` names it)."""
        v = load_variant(variant) if isinstance(variant, str) else variant
        settings = _settings_for(v, text)
        placed, owners, gone, off, problems = _read_text(
            v, settings.get("units", ""), settings.get("centres", ""), settings.get("dislodged", ""),
            settings.get("standoffs", ""))
        if problems:
            raise SetupError(problems)
        return cls(v, settings["phase"].strip(), placed, owners, gone, off, _own_settings(settings))

    def text(self) -> str:
        """The draft in the notation (:func:`read_setup_text` reads it)."""
        variant = self.variant

        def by_power(items: Iterable[tuple[str, str]]) -> str:
            grouped: dict[str, list[str]] = {}
            for power, text in items:
                grouped.setdefault(power, []).append(text)
            named = (pw for pw in variant.powers if pw in grouped)
            return "; ".join(f"{variant.powers[pw].name}: {', '.join(grouped[pw])}" for pw in named)

        units = by_power((u.power, f"{u.type} {_label(u.location)}")
                         for u in sorted(self.units, key=lambda u: (u.location, u.type)))
        centres = by_power((owner, prov) for prov, owner in sorted(self.centres.items()))
        lines = [f"--phase {self.phase}", f"--units {_quoted(units)}", f"--centres {_quoted(centres)}"]
        if self.dislodged:
            gone = by_power(
                (d.power, f"{d.type} {_label(d.location)} " +
                 (f"from {_label(d.attacker_from)}" if d.attacker_from is not None else "by convoy"))
                for d in sorted(self.dislodged, key=lambda d: d.location)
            )
            lines.append(f"--dislodged {_quoted(gone)}")
        if self.standoffs:
            lines.append(f"--standoffs {_quoted(', '.join(_label(c) for c in sorted(self.standoffs)))}")
        rules = rules_for(variant)
        extra = [k for k in self.settings if k not in rules.setup_keys]  # (named as problems; kept in the text)
        lines += [f"--{key} {_quoted(self.settings[key])}" for key in (*rules.setup_keys, *extra)
                  if self.settings.get(key)]
        return "\n".join(lines)

    def checked(self) -> tuple[Position, list[str]]:
        """:meth:`position` and :meth:`problems` at once (the page draws one and lists the other)."""
        v = self.variant
        position, problems = _checked(v, self.phase, self.units, self.centres, self.dislodged, self.standoffs)
        state, more = _variant_state(v, position, _drawn_state(v), self.settings)
        return dataclasses.replace(position, variant_state=state), problems + more

    def problems(self) -> list[str]:
        """Every problem of the position, as :func:`set_up` names them (none: it can start)."""
        return self.checked()[1]

    def position(self) -> Position:
        """The position as far as it has no problem (what a unit with a problem is left out of), to draw;
        its variant state (Cluster's) has the sites given, else those of seed 0 (a game draws its own)."""
        return self.checked()[0]

    def game(self, seed: int | None = None) -> Game:
        """The game starting from the draft; raises :class:`SetupError` naming every problem."""
        return set_up(self.variant, self.phase, self.units, self.centres, self.dislodged, self.standoffs, seed,
                      self.settings)

    def unit_at(self, province: str) -> Placed | None:
        """The unit standing in ``province`` (the first, if the text gave two)."""
        return next((u for u in self.units if province_of(u.location) == province), None)

    def dislodged_at(self, province: str) -> Placed | None:
        return next((u for u in self.dislodged if province_of(u.location) == province), None)

    def _refused(self, changed: Draft) -> str | None:
        """The first problem ``changed`` has that this draft has not (the change is refused with it)."""
        before = set(self.problems())
        return next((p for p in changed.problems() if p not in before), None)

    def place(self, power: str, unit_type: UnitType, location: str) -> str | None:
        """Put a unit at ``location`` in place of any there; returns the problem it would bring (and is
        not put there), else None."""
        prov = province_of(location)
        others = [u for u in self.units if province_of(u.location) != prov]
        changed = dataclasses.replace(self, units=[*others, Placed(power, unit_type, location)])
        problem = self._refused(changed)
        if problem is None:
            self.units = changed.units
        return problem

    def remove(self, province: str) -> None:
        """Take away the units in ``province``."""
        self.units = [u for u in self.units if province_of(u.location) != province]

    def place_dislodged(self, power: str, unit_type: UnitType, location: str, attacker_from: str | None) -> str | None:
        """Put a dislodged unit at ``location`` (its attacker came from ``attacker_from``; None: by
        convoy) in place of any dislodged there; returns the problem it would bring, else None."""
        prov = province_of(location)
        changed = dataclasses.replace(self, dislodged=[u for u in self.dislodged if province_of(u.location) != prov]
                                      + [Placed(power, unit_type, location, attacker_from)])
        problem = self._refused(changed)
        if problem is None:
            self.dislodged = changed.dislodged
        return problem

    def remove_dislodged(self, province: str) -> None:
        self.dislodged = [u for u in self.dislodged if province_of(u.location) != province]

    def own(self, province: str, power: str | None) -> str | None:
        """Give the centre in ``province`` to ``power`` (None: to no one); returns the problem, else None."""
        p = self.variant.provinces.get(province)
        if p is None or not p.centre:
            return f"{p.name if p is not None else repr(province)} is not a supply centre"
        if power is not None and power not in self.variant.powers:
            return f"{power!r} is not a power of {self.variant.name}"
        if power is None:
            self.centres.pop(province, None)
        else:
            self.centres[province] = power
        return None

    def set_settings(self, settings: Mapping[str, str]) -> str | None:
        """Take the variant's own ``settings`` in place of the draft's; returns the problem they would bring
        (and they are not taken), else None."""
        changed = dataclasses.replace(self, settings=dict(settings))
        problem = self._refused(changed)
        if problem is None:
            self.settings = changed.settings
        return problem

    def toggle_standoff(self, province: str) -> None:
        """Mark a stand-off in ``province``, or take it away."""
        if province in self.standoffs:
            self.standoffs.remove(province)
        else:
            self.standoffs.append(province)


# --- the starting position of a game, in its file and link --------------------------------------------


def start_of(game: Game) -> Position | None:
    """The position ``game`` was set up in, or None if it started at its variant's start (a Cluster game's
    first position with its sites alone, as drawn, is that start)."""
    first = game.position_at(0)
    v = game.variant
    units, centres = _variant_start(v)
    own = rules_for(v).setup_settings(v, first.variant_state, first.units, {})
    if (
        first.phase == Phase(v.first_year, "spring", "movement")
        and first.units == units
        and first.centres == centres
        and not first.dislodged
        and not first.contested
        and set(own) <= {"sites"}
    ):
        return None
    return first


def _variant_start(v: Variant) -> tuple[dict[str, Unit], dict[str, str]]:
    """The units and centre owners of ``v``'s start."""
    made = _STARTS.get(v.id)
    if made is None or made[0] is not v:
        game = Game.new(v, seed=0)
        made = _STARTS[v.id] = (v, game.units, game.position.centres)
    return made[1], made[2]


#: by variant id, the variant and its start's units and centres (a game file written asks each time)
_STARTS: dict[str, tuple[Variant, dict[str, Unit], dict[str, str]]] = {}

_START_KEYS = frozenset({"phase", "units", "centres", "dislodged", "contested", "settings"})
_UNIT_TEXT = re.compile(r"^([AF]) ([a-z0-9]{1,12}(?:/[a-z]{2})?)$")


def start_from_data(variant: Variant, data: Any, seed: int | None = None) -> Game:
    """A game set up from a starting position as the game file writes it (``"start"``: phase, units and
    centres by power, dislodged units and stand-offs as in the file's position). Refuses what is not one,
    of any size or shape, with a :class:`SetupError` naming the first thing wrong or every problem of
    the position."""
    if not isinstance(data, dict):
        raise SetupError(["the starting position is not an object"])
    extra = sorted(str(k)[:20] for k in data if k not in _START_KEYS)
    if extra:
        raise SetupError([f"the starting position has {', '.join(map(repr, extra[:3]))}, which no position has"])
    phase = data.get("phase")
    if not isinstance(phase, str) or len(phase) > 8:
        raise SetupError(["the starting position has no phase"])
    places = len(variant.provinces)
    units = [
        Placed(power, *_unit_text(text))
        for power, text in _by_power(variant, data.get("units", {}), "units", places)
    ]
    centres = {prov: power for power, prov in _by_power(variant, data.get("centres", {}), "centres", places)}
    gone_data = data.get("dislodged", [])
    if not isinstance(gone_data, list) or len(gone_data) > places:
        raise SetupError(["the starting position's dislodged units are not a list of units"])
    gone = []
    for d in gone_data:
        if not (isinstance(d, dict) and set(d) == {"power", "unit", "attacker_from"} and isinstance(d["power"], str)
                and (d["attacker_from"] is None or isinstance(d["attacker_from"], str))):
            raise SetupError(["a dislodged unit of the starting position is not {power, unit, attacker_from}"])
        gone.append(Placed(d["power"][:40], *_unit_text(d["unit"]), d["attacker_from"][:40]
                           if d["attacker_from"] is not None else None))
    own = data.get("settings", {})
    if not (isinstance(own, dict) and len(own) <= len(ALL_KEYS)
            and all(isinstance(k, str) and isinstance(t, str) and len(t) <= MAX_TEXT for k, t in own.items())):
        raise SetupError(["the starting position's settings are not an object of texts"])
    standoffs = data.get("contested", [])
    if not (isinstance(standoffs, list) and len(standoffs) <= places and all(isinstance(c, str) for c in standoffs)):
        raise SetupError(["the starting position's stand-offs are not a list of provinces"])
    return set_up(variant, phase, units, centres, gone, [c[:40] for c in standoffs], seed, own)


def start_data(game: Game, start: Position) -> dict[str, Any]:
    """What the game file adds to the position data of ``start`` (``game``'s set-up position): the
    variant's own settings of it (Cluster's sites among them: they were set up, not drawn from the seed
    the game's own section keeps)."""
    v = game.variant
    own = rules_for(v).setup_settings(v, start.variant_state, start.units,
                                      {d.unit.province: d.unit for d in start.dislodged})
    return {"settings": own} if own else {}


def restart(game: Game, data: Any, state: VariantState | None) -> VariantState | None:
    """The state of a set-up ``game``'s start, from the game file's section (``state``: its id and sites)
    and the starting position's settings in ``data`` (:func:`start_data`), as they were checked."""
    own = data.get("settings", {}) if isinstance(data, dict) else {}
    first = game.position_at(0)
    made, problems = _variant_state(game.variant, first, state, own)
    if problems:
        raise SetupError(problems)
    return made


def _unit_text(text: Any) -> tuple[UnitType, str]:
    m = _UNIT_TEXT.match(text) if isinstance(text, str) else None
    if m is None:
        raise SetupError([f"{str(text)[:40]!r} in the starting position is not a unit (like 'F stp/nc')"])
    kind: UnitType = "A" if m.group(1) == "A" else "F"
    return kind, m.group(2)


def _by_power(variant: Variant, data: Any, key: str, most: int) -> list[tuple[str, str]]:
    """``{power: [text, …]}`` as (power, text) pairs, refused unless it is one, of at most ``most`` texts."""
    if not isinstance(data, dict) or len(data) > len(variant.powers):
        raise SetupError([f"the starting position's {key} are not an object of power: [{key}]"])
    out = []
    for power, texts in data.items():
        if power not in variant.powers:
            raise SetupError([f"the starting position's {key}: {str(power)[:40]!r} is not a power of {variant.name}"])
        if not (isinstance(texts, list) and all(isinstance(t, str) for t in texts)):
            raise SetupError([f"the starting position's {key} of {power} are not a list of texts"])
        out += [(power, t) for t in texts]
        if len(out) > most:
            raise SetupError([f"the starting position has more {key} than {variant.name} has provinces"])
    return out


__all__ = [
    "KEYS",
    "Draft",
    "Placed",
    "read_settings",
    "read_setup_text",
    "set_up",
    "set_up_text",
    "setup_text",
    "restart",
    "start_data",
    "start_from_data",
    "start_of",
]
