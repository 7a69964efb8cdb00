"""Games with secrets (Cluster): the sealed link, passphrases, and the engine's public and secret parts.

Plain Python (no `js`), so CPython tests drive it. The encryption itself is web/seal.js (Web Crypto):
this module makes the bytes each part's seal holds and reads them back, and reads and writes the link.

A sealed link's fragment (version 3, written now) is the variant's id, a dot, then::

    s=3~<public part>~<check>~<game master's seal>.<first power's seal>.<second power's seal>…

The public part is a Cluster group game's (:func:`adjutant.group_play.cluster_links.public_text`: the public data,
compactly); the seals follow the parts' order (:func:`part_names`), a part not sealed left empty. The check
(:func:`adjutant.group_play.codes.link_check` over ``<public part>~<seals>``) makes a link cut short or altered on the
way refused when it is read, rather than opened and its every passphrase then refused (a seal cut but still
long enough to be one only fails its tag, as a wrong passphrase does). Version 2 (still read) is the same
without the check: ``s=2~<public part>~<seals>``. Version 1
(still read: :func:`decode_sealed_link`) is ``s=`` and then base64url(raw deflate(JSON)) of
``{"version": 1, "public": <the engine's public_data>, "sealed": {"gm": <seal>, "<power>": <seal>}}``; a
version 1 link has no ``~`` (base64url has none), which tells the two apart.

Each seal (web/seal.js) holds the byte :data:`COMPACT`, the first :data:`BOUND` bytes of the SHA-256 of
the public data
(:func:`public_digest`: the public part travels in the clear, so the seal binds it, and a part opens only
beside the public part it was sealed with), a byte naming its holder (its place in :func:`part_names`),
then the part: a power's own secrets as raw deflate(JSON) of
the engine's secret part without what the public part says (:func:`_restore`); the game master's a Cluster
group game's game master's part (:func:`adjutant.group_play.cluster_links.gm_plaintext`: the seed, the game's id and
every phase's orders, replayed when opened, and the players' passphrases, so the game master can seal the
players' parts again after reopening the link, and tell a player who lost theirs). Version 1 links' seals
hold raw deflate(JSON) of ``{"part": <the engine's secret part>, "public_sha256": <hex digest>}`` (the
game master's part the whole game file, with ``"passphrases"``); both forms open. Design and threats:
docs/security.md; lengths: docs/group-play.md.
"""

from __future__ import annotations

import hashlib
import json
import math
import secrets
import zlib
from dataclasses import dataclass
from typing import Any

from adjutant import AdjutantError, GameFileError
from adjutant.formats import base64url
from adjutant.formats.limits import inflate, read_json
from adjutant.formats.link import check_named_variant, link_start, split_link
from adjutant.game import Game
from adjutant.group_play import cluster_links as cg
from adjutant.group_play import cluster_views
from adjutant.group_play.codes import LINK_CUT, LINK_DAMAGED, is_check_start, link_check, verify_link_check
from adjutant.map.variant import Variant, load_variant
from adjutant.setup import start_of
from adjutant.variants.cluster import cluster_state

SEALED_PREFIX = "s="
SEALED_VERSION = 3
#: the first byte of a part in the compact form; a part in the JSON form is raw deflate, whose first byte never has
#: bits 1 and 2 both set (block type 3 is reserved), so no JSON part starts with it
COMPACT = 0x87
#: a compact part binds the public part by this many bytes of its SHA-256 (128 bits: forging a public part
#: with the same ones is a second preimage, 2**128 tries)
BOUND = 16
#: the game master's part is named so (the engine's name for it); each player's part by its power's id
GM = cluster_views.GM_PART
#: a sealed link longer than this is refused before it is decoded
MAX_LINK = 1_000_000
#: nor may it, or any part once opened, inflate to more than this
MAX_INFLATED = 8_000_000
#: a passphrase shorter than this is refused (the generated ones are 19 characters)
MIN_PASSPHRASE = 8
#: letters and digits no one mistakes for another when reading a passphrase aloud or copying it
PASSPHRASE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
WRONG_PASSPHRASE = "that passphrase opens none of this game's secrets"


def has_secrets(game: Game) -> bool:
    """Whether the game keeps secrets from its players (so it is shared only as a sealed link)."""
    return variant_has_secrets(game.variant)


def variant_has_secrets(variant: Variant) -> bool:
    return variant.cluster is not None


# --- the engine's parts ------------------------------------------------------------------------------
def join_parts(public: dict[str, Any], parts: dict[str, dict[str, Any]]) -> Game:
    """The game as the holder of ``parts`` sees it; the public view with none. Whatever the engine
    raises on a damaged part comes out as a GameFileError."""
    return cg.join(public, parts)


def _state(game: Game) -> Any:
    """The position's Cluster state (the engine's ``ClusterState``), or None."""
    return cluster_state(game.position.variant_state)


def sites_of(game: Game) -> dict[str, int]:
    """The Sites of the Ancients the page draws (province -> level): all of them in the game master's
    game, none in a player's or the public view (research results are listed, not drawn)."""
    return cluster_views.picture_marks(game)[0]


def strengths_of(game: Game) -> dict[str, str]:
    """The strengths the view knows of the units on the board (province -> "3", "2", ...): every one in
    the game master's game, a power's own and the revealed ones in its view, the revealed ones in public."""
    return cluster_views.picture_marks(game)[1]


def nominations_due(game: Game) -> dict[str, list[int]]:
    """Rule 2: for each power, the levels (3, 2) it may still nominate a unit for now."""
    if _state(game) is None:
        return {}
    return cluster_views.nominations_due(game)


def secret_lines(game: Game, role: str, sites: dict[str, int]) -> list[str]:
    """What the view shows beyond the map, one line each: the sites (the game master's), multiple units,
    what each power knows and has found (the game master's all, a power's its own), and the research
    results reported to all. ``role``: ``"gm"``, a power, or powers joined by commas (played at one screen)."""
    state = _state(game)
    if state is None:
        return []
    variant = game.variant
    holders = set(role.split(","))

    def name(power: str) -> str:
        return variant.powers[power].name if power in variant.powers else power

    lines = []
    for level in sorted(set(sites.values()), reverse=True):
        names = sorted(variant.province_name(p) for p, lv in sites.items() if lv == level)
        lines.append(f"Sites of the Ancients, level {level}: {', '.join(names)}")
    for province, mark in sorted(strengths_of(game).items()):
        unit = game.units.get(province)
        if unit is None:
            continue
        revealed = " (reported)" if getattr(state.auras.get(province), "revealed", False) else ""
        lines.append(f"{name(unit.power)}: {unit.type} {variant.province_name(unit.location)} is {mark}×{revealed}")
    for power, levels in sorted(state.deferred.items()):
        if holders & {GM, power}:
            left = " and ".join(f"{k}×" for k in levels)
            lines.append(f"{name(power)}: its {left} left to a later build")
    for power, known in sorted(state.knowledge.items()):
        if holders & {GM, power} and known:
            lines.append(f"{name(power)} knows {' and '.join(sorted(known))}")
    for power, places in sorted(state.found.items()):
        if holders & {GM, power} and places:
            found = ", ".join(
                f"{variant.province_name(p)} ({f'level {lv}' if lv else 'no site'})" for p, lv in sorted(places.items())
            )
            lines.append(f"{name(power)} has searched: {found}")
    for phase, province, level in state.research:
        found = f"a level {level} site" if level else "no site"
        lines.append(f"Research ({phase}) in {variant.province_name(province)}: {found}")
    return lines


# --- passphrases -------------------------------------------------------------------------------------
def generate_passphrase() -> str:
    """Sixteen random characters in four groups (about 79 bits), e.g. ``k7dm-q2xa-9tfr-hn3w``."""
    chars = "".join(secrets.choice(PASSPHRASE_ALPHABET) for _ in range(16))
    return "-".join(chars[i : i + 4] for i in range(0, 16, 4))


def passphrase_readings(phrase: str) -> list[str]:
    """The passphrases to try for ``phrase`` as entered, in order, each once: as entered; without the
    spaces around it that a copy from a message or a note often brings; and, where its letters and digits
    are a generated passphrase's (sixteen of PASSPHRASE_ALPHABET), in that passphrase's form (lower case, a
    dash between groups of four), however they were grouped or cased. As entered comes first, so a
    passphrase set with spaces or capitals of its own still opens."""
    readings = [phrase, phrase.strip()]
    chars = "".join(phrase.split()).replace("-", "").lower()
    if len(chars) == 16 and all(c in PASSPHRASE_ALPHABET for c in chars):
        readings.append("-".join(chars[i : i + 4] for i in range(0, 16, 4)))
    return list(dict.fromkeys(reading for reading in readings if reading))


def passphrase_problems(passphrases: dict[str, str], names: dict[str, str]) -> list[str]:
    """What is wrong with the passphrases for the parts ``names`` (part -> its name in messages):
    each must be given, long enough, and different from every other one (a passphrase opens one part)."""
    problems = []
    seen: dict[str, str] = {}
    for part, name in names.items():
        phrase = passphrases.get(part, "")
        if not phrase:
            problems.append(f"{name}: no passphrase")
        elif len(phrase) < MIN_PASSPHRASE:
            problems.append(f"{name}: a passphrase needs at least {MIN_PASSPHRASE} characters")
        elif phrase in seen:
            problems.append(f"{name}: the same passphrase as {seen[phrase]}")
        elif part == GM and gm_passphrase_problem(phrase):
            problems.append(f"{name}: {gm_passphrase_problem(phrase)}")
        else:
            seen[phrase] = name
    return problems


def part_names(variant: Variant) -> dict[str, str]:
    """Each sealed part's id and how the page names it: the game master's first, then each power's."""
    return {GM: "Game master", **{p.id: p.name for p in variant.powers.values()}}


# --- what each seal holds ----------------------------------------------------------------------------
def _deflate(data: Any) -> bytes:
    raw = json.dumps(data, separators=(",", ":"), sort_keys=True).encode("utf-8")
    return zlib.compress(raw, 9)[2:-4]  # raw deflate: no zlib header or checksum


def _inflate(data: bytes, what: str) -> Any:
    return read_json(inflate(data, what, MAX_INFLATED), what, MAX_INFLATED)


def plaintexts(game: Game, passphrases: dict[str, str]) -> dict[str, bytes]:
    """The bytes to seal for each part (web/seal.js encrypts them), each in the compact form (see the
    module's text): every power's own secrets, and the game master's game with the players'
    passphrases. A part the compact form would not give back exactly is written in the JSON form."""
    parts = cluster_views.secret_parts(game)
    public = cluster_views.public_data(game)
    digest = public_digest(public)
    holders = list(part_names(game.variant))
    out = {}
    for name, part in parts.items():
        head = bytes([COMPACT]) + bytes.fromhex(digest)[:BOUND] + bytes([holders.index(name)])
        # (the compact form replays from the variant's start: a game set up elsewhere is written whole)
        if name == GM and _state(game).seed is not None and start_of(game) is None:
            out[name] = head + cg.gm_plaintext(game, passphrases)
            continue
        secrets_ = part.get("secrets", {})
        own = {k: v for k, v in secrets_.items() if k not in _RESTORED}
        if name != GM and _restore(public, name, own) == part:
            out[name] = head + _deflate(own)
            continue
        content: dict[str, Any] = {"part": part}
        if name == GM:
            content["passphrases"] = {p: v for p, v in passphrases.items() if p != GM}
        content["public_sha256"] = digest
        out[name] = _deflate(content)
    return out


#: what a power's compact part leaves out, as the public part says it (:func:`_restore`)
_RESTORED = ("game", "view", "started")


def _restore(public: dict[str, Any], name: str, own: Any) -> dict[str, Any]:
    """A power's part (:func:`adjutant.group_play.cluster_views.secret_parts`) from its compact form: its own secrets,
    and the game's id, phase, records and start as the public part it is bound to says them."""
    state = public.get("cluster")
    state = state if isinstance(state, dict) else {}
    history = public.get("history")
    game = state.get("game")
    stamp = {"game": game, "phase": public.get("phase"), "records": len(history) if isinstance(history, list) else 0}
    secrets_ = {**own, "game": game, "view": name, "started": state.get("started")} if isinstance(own, dict) else own
    return {**stamp, "holder": name, "secrets": secrets_}


@dataclass(frozen=True)
class Opened:
    """One opened part: the game as its holder sees it, and (the game master's) the passphrases."""

    name: str
    game: Game
    passphrases: dict[str, str]
    #: what the page must say beside "Unlocked…" ("" for a part of today's links: see check_binding)
    warning: str = ""


def open_part(public: dict[str, Any], name: str, plaintext: bytes) -> Opened:
    """Read an opened seal; a damaged one raises GameFileError."""
    what = "the game master's part" if name == GM else f"the part of {name}"
    plaintext = bytes(plaintext)
    if plaintext[:1] == bytes([COMPACT]):
        at = 1 + BOUND
        if len(plaintext) <= at:
            raise GameFileError(f"{what} is damaged: it is cut short")
        if plaintext[1:at].hex() != public_digest(public)[: 2 * BOUND]:
            raise GameFileError(f"{PUBLIC_CHANGED} ({what} does not match it)")
        variant = public.get("variant")
        if not (isinstance(variant, str) and cg.is_cluster_variant(variant)):
            raise GameFileError("the link's public part is not a game with secrets")
        holders = list(part_names(load_variant(variant)))
        if not (plaintext[at] < len(holders) and holders[plaintext[at]] == name):
            raise GameFileError(f"the part named {name!r} is not that holder's")
        if name == GM:
            return _open_compact_gm(public, plaintext[at + 1 :])
        part = _restore(public, name, _inflate(plaintext[at + 1 :], what))
        return Opened(name, join_parts(public, {name: part}), {})
    content = _inflate(plaintext, what)
    if not isinstance(content, dict) or not isinstance(content.get("part"), dict):
        raise GameFileError(f"{what} is damaged: it holds no secrets")
    phrases = content.get("passphrases", {}) if name == GM else {}
    if not isinstance(phrases, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in phrases.items()):
        raise GameFileError(f"{what} is damaged: its passphrases are malformed")
    game = join_parts(public, {name: content["part"]})
    warning = check_binding(public, content, what)
    return Opened(name, game, dict(phrases), warning)


def _open_compact_gm(public: dict[str, Any], data: bytes) -> Opened:
    """The game master's game in the compact form, replayed (which
    :func:`adjutant.group_play.cluster_links.read_gm_plaintext` checks gives this public part)."""
    try:
        game, phrases = cg.read_gm_plaintext(data, public)
    except GameFileError:
        raise
    except Exception as error:  # noqa: BLE001 - a damaged part becomes a clear message
        detail = str(error).split("\n")[0][:200] or type(error).__name__
        raise GameFileError(f"the game master's part is damaged: {detail}") from None
    return Opened(GM, game, phrases)


# --- the public part's binding ----------------------------------------------------------------------
PUBLIC_CHANGED = (
    "the link's public part was changed after it was sealed: the positions and results it shows are not "
    "the game master's. Ask the game master for the link again"
)
UNBOUND_WARNING = (
    "This link was sealed before Adjutant bound the public part to the sealed ones: the positions and "
    "results shown could have been edited by whoever passed the link on. The game master's next link is "
    "bound."
)


def public_digest(public: Any) -> str:
    """The hex SHA-256 of a sealed link's public part, in one canonical JSON form (sorted keys, no
    spaces, ASCII), so the same data always gives the same digest however the link wrote it."""
    text = json.dumps(public, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def check_binding(public: Any, content: dict[str, Any], what: str) -> str:
    """Refuse an opened part sealed with another public part than ``public`` (GameFileError). A part with
    no digest was sealed before the binding existed (sealed link version 1): it opens, and the warning
    returned says the public part is not vouched for (a forger cannot strip the digest from a newer part:
    it is inside the authenticated ciphertext). "" when the part is bound and matches."""
    digest = content.get("public_sha256")
    if digest is None:
        return UNBOUND_WARNING
    if not isinstance(digest, str) or digest != public_digest(public):
        raise GameFileError(f"{PUBLIC_CHANGED} ({what} does not match it)")
    return ""


# --- passphrase strength -----------------------------------------------------------------------------
#: the game master's passphrase opens every secret: its estimated strength must reach this many bits
MIN_GM_BITS = 60
#: below this an estimate is called weak (and between the two, fair)
FAIR_BITS = 45


def passphrase_strength(phrase: str) -> tuple[int, str]:
    """A rough estimate of how hard ``phrase`` is to guess: ``(bits, "weak" | "fair" | "strong")``. The
    characters' classes give the alphabet a guesser must try; the length counts at most one and a half
    times the distinct characters, so repeats ("passwordpassword", "aaaa…") add little. A generated
    passphrase rates strong."""
    pool = 0
    pool += 26 if any(c.islower() and c.isascii() for c in phrase) else 0
    pool += 26 if any(c.isupper() and c.isascii() for c in phrase) else 0
    pool += 10 if any(c.isdigit() and c.isascii() for c in phrase) else 0
    pool += 33 if any(c.isascii() and not c.isalnum() for c in phrase) else 0
    pool += 100 if any(not c.isascii() for c in phrase) else 0
    length = min(len(phrase), 1.5 * len(set(phrase)))
    bits = int(length * math.log2(pool)) if pool else 0
    label = "strong" if bits >= MIN_GM_BITS else "fair" if bits >= FAIR_BITS else "weak"
    return bits, label


def gm_passphrase_problem(phrase: str) -> str:
    """Why ``phrase`` will not do for the game master's part ("" if it will)."""
    bits = passphrase_strength(phrase)[0]
    if bits >= MIN_GM_BITS:
        return ""
    return (
        f"too easy to guess (about {bits} bits); the game master's passphrase opens every secret: "
        f"use at least {MIN_GM_BITS} bits (Generate makes one)"
    )


# --- the link ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SealedLink:
    """A sealed link, decoded: the public data in the clear and each part's seal; ``public_text`` is the
    public part as a version 2 or 3 link writes it ("" for a version 1 link, whose seals hold that version's
    parts and so stay in it)."""

    public: dict[str, Any]
    sealed: dict[str, str]
    public_text: str = ""

    def fragment(self) -> str:
        if self.public_text:
            return _encode_compact(self.public, self.public_text, self.sealed)
        return encode_sealed_link(self.public, self.sealed)


def sealed_link(game: Game, seals: dict[str, str]) -> SealedLink:
    """The link of the game master's ``game`` with its parts' ``seals`` (web/seal.js made them from
    :func:`plaintexts`), in the current version."""
    return SealedLink(cluster_views.public_data(game), dict(seals), cg.public_text(game))


def is_sealed_link(fragment: str) -> bool:
    return split_link(fragment)[1].startswith(SEALED_PREFIX)


def encode_sealed_link(public: dict[str, Any], sealed: dict[str, str]) -> str:
    """The version 1 fragment (without '#') for a game's public data and its parts' seals: the variant's
    id and a dot, as an ordinary link starts (:mod:`adjutant.formats.link`), then ``s=`` and the rest."""
    payload = {"version": 1, "public": public, "sealed": sealed}
    seal = base64url.encode(_deflate(payload))
    return link_start(public.get("variant")) + SEALED_PREFIX + seal


def _encode_compact(public: dict[str, Any], text: str, sealed: dict[str, str]) -> str:
    variant = public.get("variant")
    names = part_names(load_variant(str(variant)))
    unknown = sorted(set(sealed) - set(names))
    if unknown:
        raise AdjutantError(f"no sealed part {unknown[0]!r} in a game of {variant}")
    seals = ".".join(sealed.get(name, "") for name in names)
    check = link_check(f"{text}~{seals}")
    return f"{link_start(variant)}{SEALED_PREFIX}{SEALED_VERSION}~{text}~{check}~{seals}"


def decode_sealed_link(fragment: str) -> SealedLink:
    """A sealed link's public data and seals; a damaged, truncated or hostile link raises GameFileError
    naming what is wrong (never anything else). The public data is checked by :func:`public_game`."""
    named, text = split_link(fragment)
    if not text.startswith(SEALED_PREFIX):
        raise GameFileError("the link is not a sealed game")
    text = text[len(SEALED_PREFIX) :]
    if not text:
        raise GameFileError("the link holds no game")
    if len(text) > MAX_LINK:
        raise GameFileError(f"the link is too long ({len(text)} characters) to be a game")
    if "~" in text:
        return _decode_compact(named, text)
    data = base64url.decode(text, "the link")
    payload = _inflate(data, "the link")
    if not isinstance(payload, dict) or "version" not in payload:
        raise GameFileError("the link's contents are not a sealed game")
    version = payload["version"]
    if not isinstance(version, int) or isinstance(version, bool):
        raise GameFileError("the link is damaged: its version is not a number")
    if version > 1:
        _newer(version)
    public, sealed = payload.get("public"), payload.get("sealed")
    if not isinstance(public, dict):
        raise GameFileError("the link is damaged: it has no public part")
    check_named_variant(named, public.get("variant"))
    if not isinstance(sealed, dict) or not sealed:
        raise GameFileError("the link is damaged: it has no sealed parts")
    for name, seal in sealed.items():
        if not (isinstance(name, str) and 0 < len(name) <= 40 and name.replace("_", "").isalnum() and name.isascii()):
            raise GameFileError("the link is damaged: a sealed part has a malformed name")
        _check_seal(name, seal)
    return SealedLink(public, dict(sealed))


def _newer(version: int) -> None:
    raise GameFileError(
        f"this link was made by a newer Adjutant (sealed link version {version}); "
        f"this one reads up to {SEALED_VERSION}"
    )


def _check_seal(name: str, seal: object) -> None:
    """A seal's form, checked when the link is opened: a link cut short in a seal is refused here, with
    the game in hand kept, rather than opening and then refusing every passphrase (web/seal.js tries them
    on every part at once, and a part that is no seal at all fails them all)."""
    if not isinstance(seal, str) or not seal or not base64url.is_base64url(seal):
        raise GameFileError(f"the link is damaged: the sealed part {name!r} is not base64url")
    # unpadded base64url: 4 characters carry 3 bytes, and a last group of 1 character carries none
    if len(seal) % 4 == 1 or len(seal) * 3 // 4 < cg.MIN_SEAL_BYTES:
        raise GameFileError(f"the link is cut short or damaged: the sealed part {name!r} is too short to be a seal")


def _decode_compact(named: str | None, text: str) -> SealedLink:
    """A version 2 or 3 link's fields (``text`` is what follows ``s=``)."""
    fields = text.split("~")
    version = fields[0]
    if not (version.isascii() and version.isdigit() and len(version) <= 6):
        raise GameFileError("the link is damaged: its version is not a number")
    if int(version) > SEALED_VERSION:
        _newer(int(version))
    if int(version) == 3 and len(fields) == 3 and not is_check_start(fields[2]):
        raise GameFileError(LINK_DAMAGED)  # its check, or the `~` after it, lost: a cut leaves part of a check
    if int(version) == 3 and len(fields) < 4:
        raise GameFileError(LINK_CUT)  # cut in its public part or check: it has all four when made
    if int(version) == 3 and len(fields) == 4:
        verify_link_check(fields[2], f"{fields[1]}~{fields[3]}")
        del fields[2]
    elif int(version) != 2 or len(fields) != 3:
        raise GameFileError("the link is damaged: it has the wrong number of parts")
    if not cg.is_cluster_variant(named):
        raise GameFileError("the link is damaged: it does not name a game with secrets")
    assert named is not None
    public = cg.read_public(fields[1])
    check_named_variant(named, public.get("variant"))
    names = list(part_names(load_variant(named)))
    seals = fields[2].split(".")
    if len(seals) != len(names):
        raise GameFileError(f"the link is damaged: it has {len(seals)} sealed parts for {len(names)} holders")
    sealed = {name: seal for name, seal in zip(names, seals, strict=True) if seal}
    if not sealed:
        raise GameFileError("the link is damaged: it has no sealed parts")
    for name, seal in sealed.items():
        _check_seal(name, seal)
    return SealedLink(public, sealed, fields[1])


def public_game(link: SealedLink) -> Game:
    """The game as everyone sees it (display only), checking that the link's parts are this game's."""
    game = join_parts(link.public, {})
    unknown = sorted(set(link.sealed) - set(part_names(game.variant)))
    if unknown:
        raise GameFileError(f"the link is damaged: it has a sealed part for {unknown[0]!r}, not a part of this game")
    return game


__all__ = [
    "GM",
    "WRONG_PASSPHRASE",
    "Opened",
    "SealedLink",
    "decode_sealed_link",
    "encode_sealed_link",
    "generate_passphrase",
    "has_secrets",
    "is_sealed_link",
    "open_part",
    "part_names",
    "passphrase_problems",
    "passphrase_strength",
    "public_digest",
    "plaintexts",
    "public_game",
    "sealed_link",
]
