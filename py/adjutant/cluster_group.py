"""Cluster Diplomacy as a group game: the links' parts that keep its secrets (see docs/group-play.md).

A Cluster group game is a group game (:mod:`adjutant.group`: the game master's ECDH key, sealed orders
codes, the intake) whose game cannot go into a link in the clear. Its links hold instead:

* the **public part**: what rule 7 reports to everyone (:func:`adjutant.cluster.public_data`), written
  by :func:`public_text`;
* in the **players' link**, one **sealed part per power** (that power's own secrets, sealed by
  web/seal.js under the passphrase the game master gave that player, bound to the public part as the
  sealed links of :mod:`adjutant_ui.sealed` are);
* in the **game master's link**, the **game master's part**: the whole game (with its pending orders)
  and the players' passphrases, sealed by web/group.js to the game master's own public key (so the page
  seals it again after every change without asking for a passphrase, and only the game master's private
  key opens it).

Links::

    cluster.grp~<key>~<public>~<power part>.<power part>…[~<power>]
    cluster.gm~<key>~<sealed private key>~<intake>~<public>~<game master's part>

The power parts are in the order of the variant's powers, joined by ``.`` (base64url has none). A code's
additional data binds the digest of the public part's *data* (:func:`phase_digest`), which a player
computes from the link and the game master from the game.

>>> from adjutant import cluster
>>> game = cluster.new_game(seed=7)
>>> text = public_text(game)
>>> read_public(text) == cluster.public_data(game)
True
>>> phase_digest(read_public(text), b"k") == game_digest(game, b"k")
True
"""

from __future__ import annotations

import hashlib
import json
import zlib
from dataclasses import dataclass, replace
from typing import Any

from . import cluster, group
from .codec import MAX_PHASES, check_named_variant, link_start, split_link
from .errors import AdjutantError, GameFileError
from .game import Game
from .group import GM_PREFIX, PUBLIC_KEY, PUBLIC_PREFIX, Intake, b64, game_id, unb64
from .limits import inflate, read_json
from .orders import Order
from .variant import load_variant

#: a Cluster group link longer than this is refused before it is read
MAX_CLUSTER_LINK = 1_000_000
#: nor may its public part or the game master's part inflate to more than this
MAX_INFLATED = 8_000_000
#: the clear header of the game master's sealed part: its format, then the game's id
GM_PART_FORMAT = 0x81
GM_PART_HEADER = 7


def is_cluster_variant(variant_id: str | None) -> bool:
    """Whether ``variant_id`` names a game with Cluster's secrets (so its group links are this module's)."""
    if not variant_id:
        return False
    try:
        return load_variant(variant_id).cluster is not None
    except AdjutantError:
        return False


def is_cluster_group_link(fragment: str) -> bool:
    named, rest = split_link(fragment)
    return rest.startswith((PUBLIC_PREFIX, GM_PREFIX)) and is_cluster_variant(named)


# --- the public part ---------------------------------------------------------------------------------
def _canonical(data: Any) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def _deflate(data: bytes) -> bytes:
    return zlib.compress(data, 9)[2:-4]  # raw deflate: no zlib header or checksum


def public_text(game: Game) -> str:
    """The public part of the game master's game: base64url of raw deflate of its public data, its
    history packed (:func:`pack_public`)."""
    return b64(_deflate(_canonical(pack_public(cluster.public_data(game)))))


def _unit_of(order: Any) -> str:
    """The unit a public result names, from its order ("A par - bur", "Build A stp": "A par", "A stp")."""
    words = order.split() if isinstance(order, str) else []
    return " ".join(words[1:3] if words[:1] == ["Build"] else words[:2])


def pack_public(public: dict[str, Any]) -> dict[str, Any]:
    """The public data with its history written compactly: per record ``[phase, skipped, results]``, each
    result ``[order, success + 2 * dislodged, reason, power]`` (its unit, the order's first two words,
    and the record's orders, the results' orders by power, are left out: :func:`unpack_public` makes them
    again). Data this would not give back exactly is returned as it is."""
    history = public.get("history")
    if not isinstance(history, list):
        return public
    packed = []
    for record in history:
        rows = []
        for r in record.get("results", []):
            flags = int(bool(r.get("success"))) + 2 * int(bool(r.get("dislodged")))
            row = [r.get("order"), flags, r.get("reason", ""), r.get("power")]
            rows.append(row if r.get("unit") == _unit_of(r.get("order")) else [*row, r.get("unit")])
        packed.append([record.get("phase"), int(bool(record.get("skipped"))), rows])
    out = {k: v for k, v in public.items() if k != "history"}
    out["packed_history"] = packed
    return out if _canonical(unpack_public(out)) == _canonical(public) else public


def unpack_public(data: dict[str, Any]) -> dict[str, Any]:
    """The public data :func:`pack_public` packed (data not packed is returned as it is); GameFileError
    if the packed history is malformed."""
    packed = data.get("packed_history")
    if packed is None:
        return data
    if not isinstance(packed, list):
        raise GameFileError("the link's public part is damaged: its history is malformed")
    history = []
    for item in packed:
        if not (isinstance(item, list) and len(item) == 3 and isinstance(item[2], list)):
            raise GameFileError("the link's public part is damaged: a phase of its history is malformed")
        phase, skipped, rows = item
        results = []
        for row in rows:
            if not (isinstance(row, list) and len(row) in (4, 5) and type(row[1]) is int and isinstance(row[0], str)):
                raise GameFileError("the link's public part is damaged: a result is malformed")
            order, flags, reason, power = row[:4]
            unit = row[4] if len(row) == 5 else _unit_of(order)
            result: dict[str, Any] = {"power": power, "order": order, "unit": unit, "success": bool(flags & 1)}
            if reason:
                result["reason"] = reason
            if flags & 2:
                result["dislodged"] = True
            results.append(result)
        record: dict[str, Any] = {"phase": phase}
        if skipped:
            record["skipped"] = True
            if results:
                record["results"] = results
        else:
            orders: dict[str, list[str]] = {}
            for r in results:
                if r["order"]:
                    orders.setdefault(str(r["power"]), []).append(r["order"])
            record["orders"] = dict(sorted(orders.items()))
            record["results"] = results
        history.append(record)
    out = {k: v for k, v in data.items() if k != "packed_history"}
    out["history"] = history
    return out


def read_public(text: str) -> dict[str, Any]:
    """The public data a link's public part holds; GameFileError naming what is wrong. (Whether it is a
    game is checked when it is joined: :func:`adjutant.cluster.join_parts`.)"""
    data = read_json(inflate(unb64(text, "the link's public part"), "the link's public part", MAX_INFLATED),
                     "the link's public part", MAX_INFLATED)
    if not isinstance(data, dict):
        raise GameFileError("the link's public part is not a game")
    return unpack_public(data)


def phase_digest(public: Any, public_key: bytes) -> bytes:
    """What a code's additional data binds besides its header (as :func:`adjutant.group.phase_digest`
    for other variants): SHA-256 of the key and the public data, in one canonical JSON form."""
    return hashlib.sha256(b"adjutant group phase\0" + public_key + _canonical(public)).digest()


def game_digest(game: Game, public_key: bytes) -> bytes:
    """:func:`phase_digest` of the game master's game."""
    return phase_digest(cluster.public_data(game), public_key)


# --- the game master's part ----------------------------------------------------------------------------
def gm_header(public_key: bytes) -> bytes:
    return bytes([GM_PART_FORMAT]) + game_id(public_key)


def gm_additional_data(public_key: bytes, public: Any) -> bytes:
    """The game master's part binds the public part it was sealed beside."""
    return gm_header(public_key) + hashlib.sha256(b"adjutant cluster gm part\0" + _canonical(public)).digest()


def encode_orders_by_phase(game: Game) -> bytes:
    """Every phase's orders (the adjudicated ones, then the pending ones) compactly, for the game master's
    part: per phase played (skipped ones aside) and per power in the variant's order, two bytes of length
    then :func:`adjutant.group.encode_orders`' payload (each unit's order as its index among the orders
    the position offers; nominations, research, transfer, mattermission and orders for commanded hosts
    written out). Made from the game's own positions (:attr:`Game.snapshots`), with no replay."""
    out = bytearray()
    played = [(rec, pos) for rec, pos in zip(game.history, game.snapshots, strict=True) if not rec.skipped]
    for record, position in played:
        out += _phase_bytes(game, record.phase, position, record.orders)
    if not game.over:
        for power in game.variant.powers:
            _put(out, group.encode_orders(game, power, list(game.orders.get(power, []))))
    return bytes(out)


#: a phase's bytes, by the game, phase and orders (an adjudicated phase is the same at every reseal)
_PHASES: dict[tuple[str, str, str], bytes] = {}


def _phase_bytes(game: Game, phase: object, position: Any, orders: dict[str, list[str]]) -> bytes:
    state = position.cluster
    key = (state.game if state is not None else "", str(phase), json.dumps(orders, sort_keys=True))
    cached = _PHASES.get(key)
    if cached is None:
        out = bytearray()
        at = Game(game.variant, position)
        for power in game.variant.powers:
            _put(out, group.encode_orders(at, power, [at.parse(text, power) for text in orders.get(power, [])]))
        if len(_PHASES) > 4000:
            _PHASES.clear()
        cached = _PHASES[key] = bytes(out)
    return cached


def _put(out: bytearray, payload: bytes) -> None:
    if len(payload) > 0xFFFF:
        raise AdjutantError("too many orders for one power in one phase")
    out += len(payload).to_bytes(2, "big") + payload


def decode_orders_by_phase(variant: str, game_id: str, seed: int, phases: int, data: bytes,
                           draw: Any = None) -> Game:
    """The game :func:`encode_orders_by_phase` wrote, replayed from its seed: ``phases`` phases played,
    then the pending orders. GameFileError naming what is wrong."""
    game = cluster.new_game(seed, variant)
    state = game.position.cluster
    assert state is not None
    game.position = replace(game.position, cluster=replace(state, game=game_id))
    powers = list(game.variant.powers)
    at = 0

    def take(power: str) -> list[Order]:
        nonlocal at
        if at + 2 > len(data):
            raise GameFileError("the game master's part is damaged: its orders are cut short")
        size = int.from_bytes(data[at : at + 2], "big")
        payload = data[at + 2 : at + 2 + size]
        at += 2 + size
        if len(payload) != size:
            raise GameFileError("the game master's part is damaged: its orders are cut short")
        return group.decode_orders(game, power, payload)

    try:
        for _ in range(phases):
            if game.over:
                raise GameFileError("the game master's part is damaged: it goes on after the end of the game")
            for power in powers:
                for order in take(power):
                    game.add_order(order)
            game.adjudicate()
        if not game.over:
            for power in powers:
                for order in take(power):
                    game.add_order(order)
        if draw is not None:
            game.declare_draw(list(draw))
    except GameFileError:
        raise
    except (AdjutantError, ValueError, TypeError, KeyError, IndexError) as error:
        raise GameFileError(f"the game master's part is damaged: {error}") from None
    if at != len(data):
        raise GameFileError("the game master's part is damaged: it holds more than the game")
    return game


def gm_plaintext(game: Game, passphrases: dict[str, str]) -> bytes:
    """The bytes sealed as the game master's part: the game (its seed and every phase's orders, compactly:
    :func:`encode_orders_by_phase`) and the players' passphrases."""
    state = game.position.cluster
    assert state is not None and state.seed is not None
    phrases = {p: v for p, v in passphrases.items() if p in game.variant.powers}
    content = {
        "variant": game.variant.id,
        "game": state.game,
        "seed": state.seed,
        "phases": sum(1 for r in game.history if not r.skipped),
        "orders": b64(encode_orders_by_phase(game)),
        "passphrases": phrases,
    }
    if game.draw:
        content["draw"] = list(game.draw)
    return _deflate(_canonical(content))


def read_gm_plaintext(data: bytes, public: Any) -> tuple[Game, dict[str, str]]:
    """The game and passphrases of an opened game master's part; GameFileError if it is damaged or is
    not the game of this public part."""
    what = "the game master's part"
    content = read_json(inflate(bytes(data), what, MAX_INFLATED), what, MAX_INFLATED)
    if not isinstance(content, dict):
        raise GameFileError(f"{what} is damaged: it holds no game")
    phrases = content.get("passphrases", {})
    if not isinstance(phrases, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in phrases.items()):
        raise GameFileError(f"{what} is damaged: its passphrases are malformed")
    seed, phases, variant = content.get("seed"), content.get("phases"), content.get("variant")
    if not (type(seed) is int and type(phases) is int and 0 <= phases <= MAX_PHASES and is_cluster_variant(variant)
            and isinstance(content.get("game"), str) and isinstance(content.get("orders"), str)):
        raise GameFileError(f"{what} is damaged: it does not say which game it holds")
    draw = content.get("draw")
    if draw is not None and not (isinstance(draw, list) and all(isinstance(p, str) for p in draw)):
        raise GameFileError(f"{what} is damaged: its draw is malformed")
    game = decode_orders_by_phase(str(variant), content["game"], seed, phases, unb64(content["orders"], what), draw)
    state = game.position.cluster
    if state is None or state.view != cluster.GM_PART:
        raise GameFileError(f"{what} does not hold a Cluster game master's game")
    if _canonical(cluster.public_data(game)) != _canonical(public):
        raise GameFileError(f"{what} is not the game of the link's public part")
    return game, {k: v for k, v in phrases.items() if k in game.variant.powers}


# --- links ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ClusterLink:
    """A Cluster group link, read: the key, the public part (its text and data), the power parts
    (players' link) or the sealed private key, intake and game master's part (game master's link)."""

    variant: str
    public_key: bytes
    public_text: str
    public: dict[str, Any]
    seals: dict[str, str]
    power: str = ""
    sealed_private: str = ""
    intake: str = ""
    gm_part: str = ""

    @property
    def is_gm(self) -> bool:
        return bool(self.sealed_private)

    def public_game(self) -> Game:
        """The public view (display only)."""
        return join(self.public, {})


def join(public: Any, parts: dict[str, Any]) -> Game:
    """:func:`adjutant.cluster.join_parts`, whatever goes wrong said as a GameFileError."""
    try:
        return cluster.join_parts(public, parts)
    except GameFileError:
        raise
    except AdjutantError as error:
        raise GameFileError(str(error)) from None
    except Exception as error:  # noqa: BLE001 - a hostile public part becomes a clear message
        detail = str(error).split("\n")[0][:200] or type(error).__name__
        raise GameFileError(f"the link's game is damaged: {detail}") from None


def players_link(variant: str, public_key: bytes, public: str, seals: dict[str, str], power: str = "") -> str:
    """The link every player gets: the public part and every power's sealed part."""
    powers = list(load_variant(variant).powers)
    missing = [p for p in powers if not seals.get(p)]
    if missing:
        raise AdjutantError(f"no sealed part for {', '.join(missing)}")
    tail = f"~{power}" if power else ""
    joined = ".".join(seals[p] for p in powers)
    return f"{link_start(variant)}{PUBLIC_PREFIX}{b64(public_key)}~{public}~{joined}{tail}"


def gm_link(variant: str, public_key: bytes, sealed_private: str, intake: Intake, public: str, gm_part: str) -> str:
    """The game master's own link: the public part and the whole game, sealed to the game master's key."""
    return (
        f"{link_start(variant)}{GM_PREFIX}{b64(public_key)}~{sealed_private}~{intake.to_text()}~{public}~{gm_part}"
    )


def _b64_part(text: str, what: str) -> str:
    if not text:
        raise GameFileError(f"the group link is damaged: {what} is empty")
    unb64(text, f"the group link's {what}")
    return text


def read_link(fragment: str) -> ClusterLink:
    """A Cluster group link's parts; raises GameFileError naming what is wrong (never anything else).
    The public part is joined to check it is a game; the sealed parts are checked when opened."""
    if len(fragment) > MAX_CLUSTER_LINK:
        raise GameFileError(f"the link is too long ({len(fragment)} characters) to be a game")
    named, rest = split_link(fragment)
    if not is_cluster_variant(named):
        raise GameFileError("the link is not a Cluster group game")
    assert named is not None
    variant = load_variant(named)
    gm = rest.startswith(GM_PREFIX)
    parts = rest[len(GM_PREFIX if gm else PUBLIC_PREFIX) :].split("~")
    if len(parts) not in ((5,) if gm else (3, 4)):
        raise GameFileError("the group link is damaged: it has the wrong number of parts")
    key = unb64(parts[0], "the group link")
    if len(key) != PUBLIC_KEY or key[0] != 4:
        raise GameFileError("the group link is damaged: its key is not a P-256 public key")
    text = parts[3] if gm else parts[1]
    public = read_public(text)
    check_named_variant(named, public.get("variant"))
    game = join(public, {})  # a public part that is not a Cluster public view is refused here
    if game.orders:
        raise GameFileError("the group link is damaged: a public part holds no pending orders")
    if gm:
        _b64_part(parts[1], "sealed key")
        Intake.from_text(parts[2], game)
        return ClusterLink(
            variant.id, key, text, public, {}, sealed_private=parts[1], intake=parts[2],
            gm_part=_b64_part(parts[4], "game master's part"),
        )
    seals = parts[2].split(".")
    if len(seals) != len(variant.powers):
        raise GameFileError(
            f"the group link is damaged: it has {len(seals)} sealed parts for {len(variant.powers)} powers"
        )
    for power, seal in zip(variant.powers, seals, strict=True):
        _b64_part(seal, f"sealed part of {variant.powers[power].name}")
    power = parts[3] if len(parts) == 4 else ""
    if power and power not in variant.powers:
        raise GameFileError(f"the group link names {power!r}, not a power of {variant.name}")
    return ClusterLink(variant.id, key, text, public, dict(zip(variant.powers, seals, strict=True)), power=power)


__all__ = [
    "ClusterLink",
    "game_digest",
    "gm_additional_data",
    "gm_header",
    "gm_link",
    "gm_plaintext",
    "is_cluster_group_link",
    "is_cluster_variant",
    "join",
    "phase_digest",
    "players_link",
    "public_text",
    "read_gm_plaintext",
    "read_link",
    "read_public",
]
