"""Group games: players send sealed orders codes, the game master adjudicates (no server).

This module is the pure part (standard library only); the encryption is the page's (web/group.js, Web
Crypto). The design, formats and threat model are in docs/group-play.md. In short:

* A **group link** carries the game master's public key (ECDH P-256, raw, 65 bytes) and the game
  without its pending orders: ``standard.grp~<key>~<game>`` (``<game>`` is :func:`adjutant.formats.link.encode_link`'s
  text without the variant's id), optionally ``~<power>`` naming whose view it opens. The game master's
  own link, ``standard.gm~<key>~<sealed private key>~<check>~<intake>~<game with its pending orders>``, is never
  shared.
* A **sealed orders code** is ``orders~`` and base64url of::

      header (10 bytes, in the clear) | ephemeral public key (65) | IV (12) | AES-GCM ciphertext + tag (16)

  The header is format (1) | game id (6: the start of SHA-256 of the game master's key) | phase number
  (2: how many phases the game has adjudicated) | power (1: its index in the variant). The additional
  data is the header and the phase digest (SHA-256 of the key and the public game at that phase), so a
  code opens only for that game, that power and that very phase. The plaintext is a sequence number (6
  bytes: milliseconds since 1970) and the power's orders (:func:`encode_orders`).

>>> from adjutant.game import Game
>>> g = Game.new("standard")
>>> data = encode_orders(g, "france", [g.parse("A Par - Bur", "france"), g.parse("F Bre - Mao", "france")])
>>> [format_order(o) for o in decode_orders(g, "france", data)]
['F bre - mao', 'A par - bur']
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from dataclasses import dataclass, field, replace

from ..adjudication.orders import Build, Order, Support, Waive, format_order
from ..errors import AdjutantError, GameFileError, OrderError
from ..formats import base64url
from ..formats.base64url import is_base64url
from ..formats.limits import read_json
from ..formats.link import MAX_LINK, check_named_variant, decode_link, encode_link, link_start, phase_slots, split_link
from ..game import LEGAL, Game
from ..legal import adjustment_candidates

CODE_PREFIX = "orders~"
PUBLIC_PREFIX = "grp~"
GM_PREFIX = "gm~"
FORMAT = 1
HEADER = 10
PUBLIC_KEY = 65
IV = 12
TAG = 16
SEQ = 6
#: a pasted text longer than this is refused before it is searched
MAX_PASTE = 2_000_000
#: nor may it hold more codes than this (a game's whole email thread holds some tens): each is read and
#: listed in the page
MAX_PASTE_CODES = 1000
#: a group link longer than this is refused before it is read (a game's link, a key and the intake)
MAX_GROUP_LINK = MAX_LINK + 20_000
#: nor may one code be longer than this (a power's orders fit in a few hundred characters)
MAX_CODE = 8000
#: bytes as base64url and back (:mod:`adjutant.formats.base64url`), by the names the group game's code uses
b64 = base64url.encode
unb64 = base64url.decode
#: every code in a pasted text: ``orders~`` not inside another word or link text, then base64url
CODE_PATTERN = re.compile(r"(?<![A-Za-z0-9_~-])" + re.escape(CODE_PREFIX) + r"([A-Za-z0-9_-]*)")
#: the most lines after a code's own that are read as the rest of it, wrapped by an email program
WRAPPED_LINES = 16
#: the most readings one paste opens with Web Crypto (each an ECDH key agreement and an AES-GCM attempt):
#: a thread of every power's codes, each wrapped over a few lines, needs some tens; fakes carrying a
#: phase's clear header (which anyone may copy) could otherwise ask for minutes of work
MAX_OPEN_ATTEMPTS = 200
#: how far (milliseconds) a code's sequence number, the sender's clock, may run ahead of the game master's:
#: a later one is refused, so no code can stand above every resend of its power for longer than this
CLOCK_SLACK = 15 * 60 * 1000


class CodeError(AdjutantError):
    """A sealed orders code that is refused; the message names why, :attr:`power` the power whose code it
    is when its clear header says so for this game ("" otherwise), and :attr:`earlier` whether it is only
    that the code is for an earlier phase of this game."""

    def __init__(self, message: str, power: str = "", earlier: bool = False) -> None:
        super().__init__(message)
        self.power = power
        self.earlier = earlier


# --- a link's check: a link cut or altered on the way, told before any passphrase ---------------------
#: the first byte of a link's check (:func:`link_check`)
CHECK_FORMAT = 0x63
#: a check holds its format, the length of the text it covers (4 bytes) and this many bytes of its SHA-256
CHECK_DIGEST = 8
CHECK_BYTES = 1 + 4 + CHECK_DIGEST
#: a check's length in a link (unpadded base64url)
CHECK_TEXT = -(-CHECK_BYTES * 4 // 3)
#: a public key's length in a link
KEY_TEXT = -(-PUBLIC_KEY * 4 // 3)
LINK_CUT = "the link was cut short on the way (an email or chat program may have shortened it): ask for it again"
LINK_DAMAGED = "the link was damaged on the way (it is not the link that was made): ask for it again"


def _check_digest(data: bytes) -> bytes:
    return hashlib.sha256(b"adjutant link check\0" + data).digest()[:CHECK_DIGEST]


def link_check(covered: str) -> str:
    """The check a link carries in the clear, ahead of the parts a cut reaches: base64url of its format,
    the length of the text it covers (the link's other parts) and the start of that text's SHA-256. A
    sealed part cut or altered on the way fails only its tag, which a wrong passphrase fails too; the
    check tells the two apart when the link is read, before any passphrase is asked. (No security: anyone
    may make one. The seals are what keep the secrets.)"""
    data = covered.encode("utf-8")
    return b64(bytes([CHECK_FORMAT]) + len(data).to_bytes(4, "big") + _check_digest(data))


def is_link_check(text: str) -> bool:
    """Whether a link's part is a check (base64url of :data:`CHECK_BYTES` bytes, its format first)."""
    if len(text) != CHECK_TEXT or not is_base64url(text):
        return False
    return unb64(text, "the link's check")[0] == CHECK_FORMAT


def verify_link_check(check: str, covered: str) -> None:
    """GameFileError naming what happened to a link whose parts (``covered``) are not those ``check``
    was made over: cut short (fewer characters) or damaged."""
    if not is_link_check(check):
        raise GameFileError("the link was damaged on the way (its check is malformed): ask for it again")
    raw = unb64(check, "the link's check")
    data = covered.encode("utf-8", "surrogatepass")  # (a lone surrogate, which no link is made with)
    size = int.from_bytes(raw[1:5], "big")
    if len(data) < size:
        raise GameFileError(LINK_CUT)
    if len(data) != size or _check_digest(data) != raw[5:]:
        raise GameFileError(LINK_DAMAGED)


def is_cut_start(parts: list[str]) -> bool:
    """Whether a link's parts (after its kind), fewer than any link of its kind is made with, are its
    start cut short on the way: its key whole, or cut as the only part, and no part but the last empty.
    (A link made before links had a check, cut, is cut short too.)"""
    key = parts[0]
    whole = len(key) == KEY_TEXT if len(parts) > 1 else len(key) < KEY_TEXT
    return whole and is_base64url(key) and all(parts[1:-1])


def is_check_start(text: str) -> bool:
    """Whether a link's last part is a check (:func:`link_check`) or its start, the rest of the link cut
    off: no more characters than a check, each a check's (its format's two characters ``Yw`` first)."""
    return len(text) <= CHECK_TEXT and "Yw".startswith(text[:2]) and is_base64url(text)


# --- the game's identity ---------------------------------------------------------------------------
def game_id(public_key: bytes) -> bytes:
    """The six bytes a code names its game by: the start of SHA-256 of the game master's public key."""
    return hashlib.sha256(b"adjutant group game\0" + public_key).digest()[:6]


def public_body(game: Game, *, position: bool = True) -> str:
    """The game as everyone may see it, without any pending orders: :func:`encode_link`'s text without
    the variant's id (without the current position it carries when not ``position``)."""
    if game.rules.keeps_secrets:
        raise AdjutantError(
            f"a {game.rules.title} game keeps secrets: it is shared as a sealed link, not a group link"
        )
    bare = game.copy()
    bare.clear_orders()  # the pending orders are all encode_link writes of the current phase
    return split_link(encode_link(bare, position=position))[1]


def phase_digest(game: Game, public_key: bytes) -> bytes:
    """SHA-256 of the key and the public game at its current phase: what the additional data binds. A
    game that keeps secrets has no public game here: its own group game gives its digest (Cluster's,
    :func:`adjutant.group_play.cluster_links.game_digest`), which the functions that bind one are handed."""
    body = public_body(game, position=False)  # (the same digest whichever link version carries the game)
    return hashlib.sha256(b"adjutant group phase\0" + public_key + body.encode("ascii")).digest()


# --- one power's orders, compactly -----------------------------------------------------------------
class _Digits:
    def __init__(self) -> None:
        self.pairs: list[tuple[int, int]] = []

    def put(self, value: int, radix: int) -> None:
        self.pairs.append((value, radix))

    def pack(self) -> int:
        n = 0
        for value, radix in reversed(self.pairs):
            n = n * radix + value
        return n


def _owner(order: Order) -> str:
    if isinstance(order, (Build, Waive)):
        return order.power
    unit = getattr(order, "unit", None)
    return unit.power if unit is not None else str(getattr(order, "power", ""))


def unit_slots(game: Game, power: str) -> list[tuple[str, list[Order]]]:
    """The slots of ``power``'s orders code this phase: each province of its units (a dislodged one's too)
    with that unit's candidate orders, in the link's fixed order (:func:`~adjutant.formats.link.phase_slots`)."""
    owners = {prov: u.power for prov, u in game.units.items()}
    owners.update({d.unit.province: d.unit.power for d in game.position.dislodged})
    return [(prov, cands) for prov, cands in phase_slots(game) if owners.get(prov) == power]


def _index(cands: list[Order], order: Order) -> int | None:
    """Where ``order`` is among the candidates; a support names its target's type, the candidates do not."""
    if order in cands:
        return cands.index(order)
    if isinstance(order, Support) and order.target_type is not None:
        bare = replace(order, target_type=None)
        if bare in cands:
            return cands.index(bare)
    return None


def encode_orders(game: Game, power: str, orders: list[Order]) -> bytes:
    """One power's orders for the current phase as bytes: a mixed-radix number of each order's index
    among the orders the position offers (as :mod:`adjutant.formats.link` packs a link), its length first
    (one byte), then any order outside those lists written out, one a line."""
    if power not in game.variant.powers:
        raise AdjutantError(f"{power!r} is not a power of {game.variant.name}")
    for order in orders:
        if _owner(order) != power:
            raise AdjutantError(f"{format_order(order)} is not an order of {game.variant.powers[power].name}")
    digits = _Digits()
    written: list[str] = []
    if game.phase.kind != "adjustment":
        by_prov = {o.unit.province: o for o in orders if hasattr(o, "unit")}
        slots = unit_slots(game, power)
        # what has no slot of the power's own units (Cluster: a nomination, an order for a host its
        # transferee commands) is written out, after the slots' own
        own = {prov for prov, _ in slots}
        rest = [format_order(o) for o in orders if getattr(getattr(o, "unit", None), "province", None) not in own]
        for prov, cands in slots:
            given = by_prov.get(prov)
            index = _index(cands, given) if given is not None else None
            if given is None:
                digits.put(0, len(cands) + 2)
            elif index is not None:
                digits.put(index + 1, len(cands) + 2)
            else:
                digits.put(len(cands) + 1, len(cands) + 2)
                written.append(format_order(given))
        written.extend(rest)
    else:
        cands = adjustment_candidates(game, power)
        if len(orders) > len(cands) or any(o not in cands for o in orders):
            digits.put(len(cands) + 1, len(cands) + 2)
            written.extend(format_order(o) for o in orders)
        else:
            digits.put(len(orders), len(cands) + 2)
            for order in orders:
                digits.put(cands.index(order), len(cands))
    number = digits.pack()
    packed = number.to_bytes((number.bit_length() + 7) // 8, "big")
    if len(packed) > 255:
        raise AdjutantError("too many orders for one code")
    return bytes([len(packed)]) + packed + "\n".join(written).encode("utf-8")


def decode_orders(game: Game, power: str, data: bytes) -> list[Order]:
    """The orders :func:`encode_orders` wrote, read against the same position; raises CodeError naming
    what is wrong (orders for another power's units, a damaged payload)."""
    if not data or len(data) < 1 + data[0]:
        raise CodeError("the code is damaged: its orders are cut short")
    number = int.from_bytes(data[1 : 1 + data[0]], "big")
    try:
        text = data[1 + data[0] :].decode("utf-8")
    except UnicodeDecodeError:
        raise CodeError("the code is damaged: its written-out orders are not text") from None
    written = text.split("\n") if text else []
    name = game.variant.powers[power].name

    def get(radix: int) -> int:
        nonlocal number
        value = number % radix
        number //= radix
        return value

    def parse(line: str) -> Order:
        try:
            order = game.parse(line, power)
        except OrderError as error:
            raise CodeError(f"the code's orders are not {name}'s: {line!r}: {error.reason}") from None
        if _owner(order) != power:
            raise CodeError(f"the code's orders are not {name}'s: {line!r}")
        return order

    out: list[Order] = []
    if game.phase.kind != "adjustment":
        for _prov, cands in unit_slots(game, power):
            k = get(len(cands) + 2)
            if k == 0:
                continue
            if k <= len(cands):
                out.append(cands[k - 1])
                continue
            if not written:
                raise CodeError("the code is damaged: an order written out is missing")
            out.append(parse(written.pop(0)))
        out.extend(parse(line) for line in written)  # the orders with no slot of the power's own units
        written = []
    else:
        cands = adjustment_candidates(game, power)
        k = get(len(cands) + 2)
        if k == len(cands) + 1:
            out.extend(parse(line) for line in written)
            written = []
        else:
            out.extend(cands[get(len(cands))] for _ in range(k))
    if number or written:
        raise CodeError("the code is damaged: it holds more than one power's orders")
    return out


# --- the code ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Header:
    """The code's clear header: which game, phase and power it is for."""

    game: bytes
    phase: int
    power: int

    def pack(self) -> bytes:
        return bytes([FORMAT]) + self.game + self.phase.to_bytes(2, "big") + bytes([self.power])

    @classmethod
    def unpack(cls, data: bytes) -> Header:
        if len(data) < HEADER:
            raise CodeError("the code is cut short")
        if data[0] != FORMAT:
            raise CodeError(f"the code has a format this Adjutant does not read ({data[0]})")
        return cls(data[1:7], int.from_bytes(data[7:9], "big"), data[9])


def header_for(game: Game, public_key: bytes, power: str) -> Header:
    return Header(game_id(public_key), len(game.history), list(game.variant.powers).index(power))


def additional_data(header: Header, game: Game, public_key: bytes, digest: bytes | None = None) -> bytes:
    """What AES-GCM authenticates besides the ciphertext: the header and the phase's digest (``digest``
    when given: a game that keeps secrets has its own, :func:`adjutant.group_play.cluster_links.phase_digest` of
    the public part, which a Cluster player's page takes from the link and the game master's makes from
    the game, :func:`adjutant.group_play.cluster_links.game_digest`)."""
    return header.pack() + (digest if digest is not None else phase_digest(game, public_key))


def plaintext(seq: int, payload: bytes) -> bytes:
    return seq.to_bytes(SEQ, "big") + payload


def find_codes(text: str) -> list[str]:
    """Every sealed orders code in a pasted text (an email thread, a chat log, links), in order, each
    once, as ``orders~…``."""
    if len(text) > MAX_PASTE:
        raise CodeError(f"the pasted text is too long ({len(text)} characters)")
    seen: dict[str, None] = {}
    for match in CODE_PATTERN.finditer(text):
        seen.setdefault(CODE_PREFIX + match.group(1), None)
    return list(seen)


def code_readings(text: str) -> list[tuple[str, ...]]:
    """Every sealed orders code in a pasted text, in order, each once, with the ways it can be read:
    first as it stands on its line, then joined with the next line, the next two, and so on, while each
    is base64url alone once its quoting ("> ") is taken off. An email program may wrap a long code over
    lines, and quote it in a reply; but a line of plain words after a whole code is base64url too, so
    no reading is sure: the caller opens them in turn, and the one that opens (AES-GCM authenticates
    it) is the code. CodeError if the text is longer than :data:`MAX_PASTE` or holds more than
    :data:`MAX_PASTE_CODES` codes; the reading takes time linear in the text's length."""
    if len(text) > MAX_PASTE:
        raise CodeError(f"the pasted text is too long ({len(text)} characters)")
    lines = text.splitlines()
    seen: dict[tuple[str, ...], None] = {}
    for number, line in enumerate(lines):
        ends = len(line.rstrip())  # (once per line: the rest of a line copied per code would be quadratic)
        for match in CODE_PATTERN.finditer(line):
            readings = [CODE_PREFIX + match.group(1)]
            if match.end() >= ends:  # the code ends its line: the rest may be on the next ones
                for after in lines[number + 1 : number + 1 + WRAPPED_LINES]:
                    rest = after.lstrip(" \t>").rstrip()  # less its quoting: "> ", "> > "
                    if not rest or not is_base64url(rest) or len(readings[-1]) + len(rest) > MAX_CODE:
                        break
                    readings.append(readings[-1] + rest)
            seen.setdefault(tuple(readings), None)
            if len(seen) > MAX_PASTE_CODES:
                raise CodeError(
                    f"the pasted text holds more than {MAX_PASTE_CODES} sealed orders codes: paste fewer at once "
                    "(each player's own message, say)"
                )
    return list(seen)


def reading_lines(readings: tuple[str, ...]) -> str:
    """A code's readings (:func:`code_readings`) as the lines they were read from (less their quoting), so
    that pasted again the code is read the same ways."""
    lines = [readings[0]]
    lines += [later[len(before) :] for before, later in zip(readings, readings[1:], strict=False)]
    return "\n".join(lines)


@dataclass(frozen=True)
class Sealed:
    """A code read up to its encryption: whose orders it says it holds, and the bytes to open."""

    code: str
    header: Header
    power: str
    data: bytes
    aad: bytes


def read_code(code: str, game: Game, public_key: bytes, digest: bytes | None = None) -> Sealed:
    """Check a code's clear part against the game in hand: the game, the phase, the power. Raises
    CodeError naming what is wrong; the code is then opened (web/group.js) with :attr:`Sealed.aad`
    (bound to ``digest`` when given: a game that keeps secrets, see :func:`phase_digest`)."""
    text = code.strip()
    if not text.startswith(CODE_PREFIX):
        raise CodeError("this is not a sealed orders code (it does not start with orders~)")
    text = text[len(CODE_PREFIX) :]
    if len(text) > MAX_CODE:
        raise CodeError(f"the code is too long ({len(text)} characters) to be one power's orders")
    if not is_base64url(text):
        raise CodeError("the code is damaged: it has characters that base64url does not use")
    if len(text) % 4 == 1:  # no base64url text has this length: a character was lost
        raise CodeError("the code is cut short or damaged")
    data = unb64(text, "the code")
    header = Header.unpack(data)
    if len(data) < HEADER + PUBLIC_KEY + IV + TAG + SEQ + 1:
        raise CodeError("the code is cut short")
    if header.game != game_id(public_key):
        raise CodeError("the code is for another game")
    powers = list(game.variant.powers)
    if header.power >= len(powers):
        raise CodeError("the code is damaged: it names no power of this game")
    power = powers[header.power]
    here = len(game.history)
    # the game master is told whose code it is, and what to do: the header names the power in the clear
    name = game.variant.powers[power].name
    if header.phase < here:
        then = game.history[header.phase].phase.title
        raise CodeError(
            f"{name}'s code is for an earlier phase ({then}; the game is at {game.phase.title}): ask {name} "
            "to open the latest players' link and send their orders again",
            power,
            earlier=True,
        )
    if header.phase > here:
        ahead = header.phase - here
        raise CodeError(
            f"{name}'s code is for a later phase ({ahead} phase{'s' if ahead != 1 else ''} after "
            f"{game.phase.title}, where the game is): is this your latest game master's link?",
            power,
        )
    return Sealed(CODE_PREFIX + text, header, power, data, additional_data(header, game, public_key, digest))


# --- the game master's intake ----------------------------------------------------------------------
@dataclass
class Received:
    """A power's orders as the game master has them this phase."""

    seq: int  # the code's sequence number (0: typed by the game master)
    source: str  # "code" or "typed"


@dataclass
class Intake:
    """What the game master has received this phase: per power, the latest code's sequence number;
    and every code that was refused, with why. Kept in the game master's link."""

    phase: int = 0
    received: dict[str, Received] = field(default_factory=dict)
    refused: list[tuple[str, str, bool]] = field(default_factory=list)  # (power, why, for an earlier phase)

    def for_phase(self, game: Game) -> Intake:
        """This intake, or a fresh one once the game has moved on."""
        return self if self.phase == len(game.history) else Intake(len(game.history))

    def refuse(self, reason: str, power: str = "", earlier: bool = False) -> None:
        """Note a refused code (shown in the table, by the power it names if it names one); ``earlier``: it
        was refused only for being of an earlier phase."""
        self.refused.append((power, reason, earlier))

    def accept(self, game: Game, sealed: Sealed, opened: bytes, now: int | None = None) -> str:
        """Take a code's opened plaintext into the game: the latest code for a power wins. An older code
        than the one in (a player's first code pasted after their second) changes nothing and is not an
        error: it says so (:data:`OLDER_CODE`). Raises CodeError (and changes nothing) for a damaged one,
        and for one dated more than :data:`CLOCK_SLACK` after ``now`` (milliseconds since 1970; this
        computer's clock if None); returns what was done."""
        if len(opened) < SEQ + 1:
            raise CodeError("the code is damaged: it holds no orders")
        seq = int.from_bytes(opened[:SEQ], "big")
        orders = decode_orders(game, sealed.power, opened[SEQ:])
        name = game.variant.powers[sealed.power].name
        clock = _now(now)
        if seq > clock + CLOCK_SLACK:
            # a code dated ahead would set aside every later resend of its power until that date
            ahead = -(-(seq - clock) // 60_000)
            raise CodeError(
                f"{name}'s code is dated {_when(seq)}, {_minutes(ahead)} after this computer's clock "
                f"({_when(clock)}): one of the two clocks is wrong. Ask {name} to check their device's date and "
                "time and send their orders again",
                sealed.power,
            )
        had = self.received.get(sealed.power)
        if had is not None and had.source == "code":
            if seq == had.seq:
                return f"{name}: this code is already in"
            if seq < had.seq:
                return f"{name}: {OLDER_CODE}"
        before = game.orders_of(sealed.power)
        game.clear_orders(sealed.power)
        for order in orders:
            # a game with secrets: what the rules refuse when it is given (Cluster's nominations,
            # transfers…) refuses the code; the player's view could not check it against the whole game
            check = game.check_order(order) if game.rules.keeps_secrets else LEGAL
            if check.verdict == "refused":
                game.clear_orders(sealed.power)
                for old in before:
                    game.add_order(old)
                raise CodeError(f"{name}: {format_order(order)}: {check.reason}")
            game.add_order(order)
        self.received[sealed.power] = Received(seq, "code")
        return f"{name}: {len(orders)} order{'s' if len(orders) != 1 else ''} in"

    def typed(self, power: str) -> None:
        """The game master typed this power's orders: they replace any code's (a later code wins again)."""
        had = self.received.get(power)
        self.received[power] = Received(had.seq if had else 0, "typed")

    def to_text(self) -> str:
        data = {"p": self.phase, "r": {p: [r.seq, r.source[0]] for p, r in self.received.items()}}
        return b64(json.dumps(data, separators=(",", ":")).encode("utf-8"))

    @classmethod
    def from_text(cls, text: str, game: Game, now: int | None = None) -> Intake:
        """The intake a game master's link holds; a received code dated more than :data:`CLOCK_SLACK` after
        ``now`` (which no code taken in is: an edited link) counts as dated then, so that a resend wins."""
        if not text:
            return cls(len(game.history))
        latest = _now(now) + CLOCK_SLACK
        try:
            data = read_json(unb64(text, "the game master's link"), "the game master's link")
            received = {
                str(p): Received(min(_count(v[0], 1 << (8 * SEQ)), latest), "code" if v[1] == "c" else "typed")
                for p, v in data["r"].items()
                if p in game.variant.powers
            }
            return cls(_count(data["p"], 1 << 16), received).for_phase(game)
        except (GameFileError, KeyError, TypeError, IndexError, AttributeError):
            raise GameFileError("the game master's link is damaged: its list of received orders is malformed") from None


#: what the intake says of a power's code older than the one it has (set aside, nothing changed)
OLDER_CODE = "an older code than the one in, set aside: the newer one stays"


def _now(now: int | None) -> int:
    """``now``, or this computer's clock, in milliseconds since 1970 (a code's sequence number's unit)."""
    return int(time.time() * 1000) if now is None else now


def _when(ms: int) -> str:
    return time.strftime("%d %b %Y %H:%M UTC", time.gmtime(min(ms // 1000, 253_402_300_799)))


def _minutes(count: int) -> str:
    if count < 120:
        return f"{count} minute{'s' if count != 1 else ''}"
    hours = count // 60
    return f"{hours} hours" if hours < 48 else f"{hours // 24} days"


def _count(value: object, bound: int) -> int:
    """``value`` if it is a whole number from 0 up to ``bound`` (excluded); TypeError if not."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < bound:
        raise TypeError(f"{value!r} is not a count below {bound}")
    return value


#: the quiet note of a power's row whose orders are in when a code of an earlier phase was pasted too
ASIDE_EARLIER = "; a code of an earlier phase was pasted too, and set aside"


def _orders_in(game: Game, intake: Intake, power: str) -> bool:
    """Whether ``power``'s orders for this phase are in: by code, or typed by the game master."""
    return bool(power) and (power in intake.received or bool(game.orders_of(power)))


def refusal_said(game: Game, intake: Intake, power: str, error: CodeError) -> tuple[str, str]:
    """What the game master's list says of a refused code naming ``power`` (after the code's short name),
    and its kind: "rejected", or "aside" when ``power``'s orders for this phase are in already, so that
    the code changed nothing and nothing more is asked of its player (the list and the power's row in
    :func:`status` then say the same).

    >>> game = Game.new("standard")
    >>> intake = Intake(0)
    >>> refusal_said(game, intake, "italy", CodeError("the code does not open", "italy"))
    ('rejected', 'refused: the code does not open')
    >>> intake.received["italy"] = Received(1, "code")
    >>> refusal_said(game, intake, "italy", CodeError("the code does not open", "italy"))
    ('aside', "refused, and Italy's orders in stay: the code does not open")
    """
    if not _orders_in(game, intake, power):
        return "rejected", f"refused: {error}"
    name, title = game.variant.powers[power].name, game.phase.title
    if error.earlier:
        in_now = f"{name}'s orders for {title} are in, nothing more is needed"
        return "aside", f"set aside, a code of an earlier phase: {in_now}"
    return "aside", f"refused, and {name}'s orders in stay: {error}"


def status(game: Game, intake: Intake) -> list[tuple[str, str, str]]:
    """The game master's table: per power (id, name, what is in) for this phase: whether its orders are
    in and when they were sent, and the last code for it that was refused, with why."""
    due = game.orders_due()
    rows = []
    for power in game.variant.powers.values():
        got = intake.received.get(power.id)
        if got is not None and got.source == "code":
            state = f"sealed orders in (sent {time.strftime('%d %b %H:%M UTC', time.gmtime(got.seq / 1000))})"
        elif got is not None or game.orders_of(power.id):
            state = "typed by the game master"
        elif power.id in due:
            state = "waiting"
        else:
            state = "nothing to order"
        refused = [(reason, earlier) for who, reason, earlier in intake.refused if who == power.id]
        if refused and _orders_in(game, intake, power.id):
            # a quiet note: this phase's orders are in, and the player need send nothing again
            reason, earlier = refused[-1]
            state += (ASIDE_EARLIER if earlier else f"; another code was refused and changed nothing ({reason})")
        elif refused:
            state += f"; refused: {refused[-1][0]}"
        rows.append((power.id, power.name, state))
    return rows


# --- links -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GroupLink:
    """A group link, read: the game master's key, the game, and (the game master's) the sealed private
    key and intake, or (a player's) the power it names."""

    public_key: bytes
    game: Game
    sealed_private: str = ""
    intake: str = ""
    power: str = ""

    @property
    def is_gm(self) -> bool:
        return bool(self.sealed_private)


def public_link(game: Game, public_key: bytes, power: str = "") -> str:
    """The link every player gets: the game master's key and the game without any pending orders."""
    tail = f"~{power}" if power else ""
    return f"{link_start(game.variant.id)}{PUBLIC_PREFIX}{b64(public_key)}~{public_body(game)}{tail}"


def gm_link(game: Game, public_key: bytes, sealed_private: str, intake: Intake) -> str:
    """The game master's own link: also the sealed private key, the link's check (:func:`link_check`, over
    the other parts: a sealed key altered on the way is refused when read, not told as a wrong
    passphrase), the intake and the pending orders."""
    key, body, intake_text = b64(public_key), split_link(encode_link(game))[1], intake.to_text()
    check = link_check(f"{key}~{sealed_private}~{intake_text}~{body}")
    return f"{link_start(game.variant.id)}{GM_PREFIX}{key}~{sealed_private}~{check}~{intake_text}~{body}"


def _check_run_on(parts: list[str]) -> bool:
    """Whether a game master's link of four parts is one with a check whose `~` between its sealed key and
    its check was lost: its sealed key ends with a check of the link's parts without it."""
    sealed, tail = parts[1][:-CHECK_TEXT], parts[1][-CHECK_TEXT:]
    if not sealed or not is_link_check(tail):
        return False
    try:
        verify_link_check(tail, "~".join([parts[0], sealed, *parts[2:]]))
    except GameFileError:
        return False
    return True


def is_group_link(fragment: str) -> bool:
    rest = split_link(fragment)[1]
    return rest.startswith((PUBLIC_PREFIX, GM_PREFIX))


def read_group_link(fragment: str) -> GroupLink:
    """A group link's key, game and parts; raises GameFileError naming what is wrong."""
    if len(fragment) > MAX_GROUP_LINK:
        raise GameFileError(f"the link is too long ({len(fragment)} characters) to be a game")
    named, rest = split_link(fragment)
    gm = rest.startswith(GM_PREFIX)
    if not (gm or rest.startswith(PUBLIC_PREFIX)):
        raise GameFileError("the link is not a group game")
    parts = rest[len(GM_PREFIX if gm else PUBLIC_PREFIX) :].split("~")
    if gm and len(parts) == 5:  # with its check (a link of four parts was made before links had one)
        check = parts.pop(2)
        verify_link_check(check, "~".join(parts))
    elif gm and len(parts) in (3, 4) and is_link_check(parts[2]):
        raise GameFileError(LINK_CUT)  # cut after its check (where a link without one has its intake)
    elif gm and len(parts) == 4 and (is_link_check(parts[1]) or _check_run_on(parts)):
        raise GameFileError(LINK_DAMAGED)  # its sealed key, or the `~` after it, lost
    elif gm and len(parts) < 4 and is_cut_start(parts):
        raise GameFileError(LINK_CUT)
    want = 4 if gm else 2
    if len(parts) not in (want, want + (0 if gm else 1)):
        raise GameFileError("the group link is damaged: it has the wrong number of parts")
    key = unb64(parts[0], "the group link")
    if len(key) != PUBLIC_KEY or key[0] != 4:
        raise GameFileError("the group link is damaged: its key is not a P-256 public key")
    body = parts[3] if gm else parts[1]
    game = decode_link(link_start(named) + body if named else body)
    check_named_variant(named, game.variant.id)
    if game.rules.keeps_secrets:
        raise GameFileError(f"the group link is damaged: a {game.rules.title} game is shared as a sealed link")
    if not gm:
        if game.all_orders():
            raise GameFileError("the group link is damaged: a public link holds no pending orders")
        power = parts[2] if len(parts) == 3 else ""
        if power and power not in game.variant.powers:
            raise GameFileError(f"the group link names {power!r}, not a power of {game.variant.name}")
        return GroupLink(key, game, power=power)
    if not parts[1] or not is_base64url(parts[1]):
        raise GameFileError("the group link is damaged: its sealed key is not base64url")
    Intake.from_text(parts[2], game)  # checked now: a damaged one is refused before the game is shown
    return GroupLink(key, game, sealed_private=parts[1], intake=parts[2])


def orders_due_text(game: Game) -> str:
    """Who has orders to give in a retreat or adjustment phase, for the message to players: in a movement
    phase every power with units has, and the message needs to say no more. "" when the game is over, and
    in a game that keeps secrets (Cluster): what is due there may hang on what the players do not see,
    and each player's own page says what is theirs."""
    variant = game.variant
    if game.over or game.phase.kind == "movement" or game.rules.keeps_secrets:
        return ""
    if game.phase.kind == "retreat":
        dislodged: dict[str, list[str]] = {}
        for d in game.position.dislodged:
            dislodged.setdefault(d.unit.power, []).append(f"{d.unit.type} {variant.province_name(d.unit.location)}")
        said = "; ".join(f"{variant.powers[p].name}: {', '.join(units)}" for p, units in dislodged.items())
        return f"To retreat or disband now: {said}." if said else ""
    changes = [
        f"{variant.powers[p].name} may build {d}" if d > 0 else f"{variant.powers[p].name} must remove {-d}"
        for p, d in game.adjustments().items()
        if d
    ]
    return f"Builds and removals now: {', '.join(changes)}." if changes else "No builds or removals are due now."


def results_message(game: Game, link: str, results: str) -> str:
    """The game master's message to the players after an adjudication: the results, who has orders to
    give in a retreat or adjustment phase (:func:`orders_due_text`), and the new link."""
    due = orders_due_text(game)
    send = ("If you have orders to give (above), send them with Adjutant." if due
            else "Send your orders for it with Adjutant.")
    return f"{results.rstrip()}\n\n{due + chr(10) if due else ''}The game now ({game.phase}): {link}\n{send}\n"


def power_order_texts(game: Game, power: str) -> list[str]:
    return [format_order(o) for o in game.orders_of(power)]


__all__ = [
    "CHECK_BYTES",
    "CODE_PREFIX",
    "CodeError",
    "GroupLink",
    "Header",
    "Intake",
    "LINK_CUT",
    "LINK_DAMAGED",
    "ASIDE_EARLIER",
    "OLDER_CODE",
    "Sealed",
    "additional_data",
    "code_readings",
    "decode_orders",
    "encode_orders",
    "find_codes",
    "game_id",
    "gm_link",
    "header_for",
    "is_group_link",
    "is_check_start",
    "is_cut_start",
    "is_link_check",
    "link_check",
    "orders_due_text",
    "phase_digest",
    "plaintext",
    "public_link",
    "read_code",
    "refusal_said",
    "read_group_link",
    "reading_lines",
    "results_message",
    "status",
    "unit_slots",
    "verify_link_check",
]

