"""Cluster Diplomacy as a group game: the links' parts that keep its secrets (see docs/group-play.md).

A Cluster group game is a group game (:mod:`adjutant.group_play.codes`: the game master's ECDH key, sealed orders
codes, the intake) whose game cannot go into a link in the clear. Its links hold instead:

* the **public part**: what rule 7 reports to everyone (:func:`adjutant.group_play.cluster_views.public_data`), written
  by :func:`public_text` compactly (:func:`pack_compact`: the public orders and outcomes of each phase,
  each next public position made from them);
* in the **players' link**, one **sealed part per power** (that power's own secrets, sealed by
  web/seal.js under the passphrase the game master gave that player, bound to the public part as the
  sealed links of :mod:`adjutant_ui.sealed` are);
* in the **game master's link**, the **game master's part**: the whole game (with its pending orders)
  and the players' passphrases, sealed by web/group.js under a key made from the game master's private
  key (so the page seals it again after every change without asking for a passphrase, and only the game
  master can make or open one: :data:`GM_PART_FORMAT`).

Links::

    cluster.grp~<key>~<public>~<check>~<power part>.<power part>…[~<power>]
    cluster.gm~<key>~<sealed private key>~<intake>~<public>~<check>~<game master's part>

The power parts are in the order of the variant's powers, joined by ``.`` (base64url has none). The check
(:func:`adjutant.group_play.codes.link_check`, over the parts around it but the trailing power) makes a link cut
short or altered on the way refused when read, rather than read and its every passphrase then refused;
links made without one (one part fewer) are read as before. A code's
additional data binds the digest of the public part's *data* (:func:`phase_digest`), which a player
computes from the link and the game master from the game.

>>> from adjutant.group_play import cluster_views
>>> game = cluster_views.new_game(seed=7)
>>> text = public_text(game)
>>> read_public(text) == cluster_views.public_data(game)
True
>>> phase_digest(read_public(text), b"k") == game_digest(game, b"k")
True
"""

from __future__ import annotations

import hashlib
import json
import re
import zlib
from dataclasses import dataclass, replace
from typing import Any

from ..adjudication.orders import Order, Unit, format_order
from ..adjudication.phases import Phase
from ..errors import AdjutantError, GameFileError
from ..formats.base64url import is_base64url
from ..formats.limits import bidi_control_in, bidi_refused, inflate, read_json
from ..formats.link import MAX_PHASES, check_named_variant, link_start, split_link
from ..game import Game
from ..legal import Candidates, retreat_candidates
from ..map.variant import Variant, load_variant, province_of
from ..seats import seats_from_data
from ..variants import cluster as cluster_rules
from . import cluster_views
from . import codes as group
from .codes import (
    CHECK_TEXT,
    GM_PREFIX,
    LINK_CUT,
    LINK_DAMAGED,
    PUBLIC_KEY,
    PUBLIC_PREFIX,
    Intake,
    b64,
    game_id,
    is_check_start,
    is_cut_start,
    is_link_check,
    link_check,
    unb64,
    verify_link_check,
)

#: a Cluster group link longer than this is refused before it is read
MAX_CLUSTER_LINK = 1_000_000
#: nor may its public part or the game master's part inflate to more than this
MAX_INFLATED = 8_000_000
#: the fewest bytes a power's sealed part (web/seal.js) holds: format (1), iterations (4), salt (16), IV (12)
#: and AES-GCM's tag (16). A shorter one is a link cut short: refused when the link is read, for the page
#: tries a passphrase on every part at once and a part that is no seal at all fails every passphrase.
MIN_SEAL_BYTES = 1 + 4 + 16 + 12 + 16
#: the clear header of the game master's sealed part: its format, then the game's id. Format 0x82 is sealed
#: by AES-GCM under a key derived from the game master's private key (web/group.js sealPart), so only the
#: game master can make one; format 0x81 (an earlier Adjutant's) was sealed *to* the public key, which
#: anyone can do, and is opened only beside a sealed key of that earlier form (docs/security.md)
GM_PART_FORMAT = 0x82
LEGACY_GM_PART_FORMAT = 0x81
GM_PART_HEADER = 7


def is_cluster_variant(variant_id: object) -> bool:
    """Whether ``variant_id`` names a game with Cluster's secrets (so its group links are this module's); a
    value that is not text (from a part's JSON) names none."""
    if not isinstance(variant_id, str) or not variant_id:
        return False
    try:
        return load_variant(variant_id).cluster is not None
    except AdjutantError:
        return False


def is_cluster_group_link(fragment: str) -> bool:
    named, rest = split_link(fragment)
    return rest.startswith((PUBLIC_PREFIX, GM_PREFIX)) and is_cluster_variant(named)


# --- the public part ---------------------------------------------------------------------------------
def canonical_json(data: Any) -> bytes:
    """``data`` as the links write JSON: sorted keys, no spaces, ASCII only (one text for one value)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def raw_deflate(data: bytes) -> bytes:
    """``data`` compressed as the links' parts hold it: raw deflate at level 9."""
    return zlib.compress(data, 9)[2:-4]  # raw deflate: no zlib header or checksum


def public_text(game: Game) -> str:
    """The public part of the game master's game: base64url of raw deflate of its public data, its
    history packed (:func:`pack_public`)."""
    public = cluster_views.public_data(game)
    compact = pack_compact(public)
    if compact is not None:
        return b64(raw_deflate(compact))
    return b64(raw_deflate(canonical_json(pack_public(public))))


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
    return out if canonical_json(unpack_public(out)) == canonical_json(public) else public


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
        history.append(_history_record(phase, bool(skipped), results))
    out = {k: v for k, v in data.items() if k != "packed_history"}
    out["history"] = history
    return out


# --- the public part's compact form --------------------------------------------------------------------
# The public data is written as its first position, then per phase its public results (each unit's order
# as its index among the orders the public position offers it, its outcome as a few bits, its reason as
# a template with the units it names), and per next position only what the public results do not already
# say (:func:`_predict` applies them: successful moves move, dislodged units wait to retreat, retreats,
# builds and removals happen, centres change hands after the fall, research results are added). Whatever
# would not come back exactly from this is written out as it is (a result list, a position), so the data
# read back is always the data written.

#: the first byte of the inflated compact public part (an older public part inflates to JSON: ``{``)
PUBLIC_FORMAT = 2
#: a compact public part inflates to at most this many bytes
MAX_COMPACT = 2_000_000
#: reading one costs at most this much work (:meth:`_Board.spend`), which a hostile part reaches in about 3 s of
#: CPython: three hundred phases of random play take about 440,000
MAX_WORK = 1_000_000
#: a reason's template is at most this long (a reason reads it once per use: a long one would multiply)
MAX_TEMPLATE = 300
_MENTION = re.compile(r"\b([AF]) ([a-z][a-z0-9]*(?:/[a-z]{2})?)\b")
_KNOWN_CLUSTER = {"game", "view", "started", "auras", "retreating", "research"}
_KNOWN_POSITION = {"phase", "units", "centres", "dislodged", "contested", "cluster"}
_TOP = ("format", "version", "variant", "view", "winner", "draw", "computer")


def _damaged(detail: str) -> GameFileError:
    return GameFileError(f"the link's public part is damaged: {detail}")


class CompactReader:
    """Bytes read as unsigned varints and strings, each bounded by what is left."""

    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def int(self, limit: int = 1 << 32) -> int:
        value = shift = 0
        while True:
            if self.at >= len(self.data) or shift > 35:
                raise _damaged("it is cut short")
            byte = self.data[self.at]
            self.at += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                break
        if value >= limit:
            raise _damaged("a number in it is out of range")
        return value

    def text(self) -> str:
        size = self.int(len(self.data) - self.at + 1)
        raw = self.data[self.at : self.at + size]
        self.at += size
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise _damaged("it is not text where text belongs") from None
        control = bidi_control_in(text)  # (its texts reach the page as written: results' orders and reasons)
        if control is not None:
            raise GameFileError(bidi_refused("the link's public part", control))
        return text


def put_varint(out: bytearray, value: int) -> None:
    """Append ``value`` (not negative) to ``out`` as an unsigned varint: 7 bits a byte, least significant
    first, the high bit set on every byte but the last (:meth:`CompactReader.int` reads it back)."""
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)


def put_text(out: bytearray, text: str) -> None:
    """Append ``text`` to ``out`` as its UTF-8 length (a varint) and bytes (:meth:`CompactReader.text`)."""
    raw = text.encode("utf-8")
    put_varint(out, len(raw))
    out += raw


class _Board:
    """The variant's places, numbered (for the units a result or reason names)."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        locs = sorted({loc for p in variant.provinces for loc in variant.locations(p)})
        self.units = [f"{t} {loc}" for loc in locs for t in "AF"]
        self.index = {u: i for i, u in enumerate(self.units)}
        self.names = {p: variant.provinces[p].name for p in variant.provinces}
        self.work = 0

    def spend(self, work: int) -> None:
        """Count work done reading (a position's facts, one each; a unit's candidate orders, a hundred),
        so that a hostile part costs seconds at most, never a hang."""
        self.work += work
        if self.work > MAX_WORK:
            raise _damaged("it holds more than a game could")


def _atoms(pos: dict[str, Any]) -> set[tuple[Any, ...]] | None:
    """A position of the public data as a set of facts, or None if it has what the facts do not say."""
    cl = pos.get("cluster")
    if not (set(pos) <= _KNOWN_POSITION and isinstance(cl, dict) and set(cl) <= _KNOWN_CLUSTER):
        return None
    try:
        out: set[tuple[Any, ...]] = {("p", pos["phase"]), ("g", cl["game"]), ("v", cl["view"]), ("s", cl["started"])}
        out |= {("u", p, u) for p, us in pos["units"].items() for u in us}
        out |= {("c", p, c) for p, cs in pos["centres"].items() for c in cs}
        out |= {("d", i, d["power"], d["unit"], d["attacker_from"]) for i, d in enumerate(pos.get("dislodged", []))}
        out |= {("k", k) for k in pos.get("contested", [])}
        out |= {("a", p, a[0], a[1]) for p, a in cl.get("auras", {}).items()}
        out |= {("r", p, a[0], a[1]) for p, a in cl.get("retreating", {}).items()}
        out |= {("q", i, *r) for i, r in enumerate(cl.get("research", []))}
    except (KeyError, TypeError, IndexError, AttributeError):
        return None
    return out


def _position(atoms: set[tuple[Any, ...]]) -> dict[str, Any]:
    """The position :func:`_atoms` took apart (GameFileError if the facts do not make one)."""
    one: dict[str, list[Any]] = {}
    for a in atoms:
        if not (isinstance(a, tuple) and a and isinstance(a[0], str)):
            raise _damaged("a fact of a position is malformed")
        one.setdefault(a[0], []).append(a)
    for key in "pgvs":
        if len(one.get(key, [])) != 1 or len(one[key][0]) != 2:
            raise _damaged("a position does not say its phase and game")
    units: dict[str, list[str]] = {}
    for _, p, u in sorted(one.get("u", []), key=lambda a: (str(a[1]), str(a[2]).partition(" ")[2])):
        units.setdefault(p, []).append(u)
    centres: dict[str, list[str]] = {}
    for _, p, c in sorted(one.get("c", []), key=lambda a: (str(a[2]), str(a[1]))):
        centres.setdefault(p, []).append(c)
    pos: dict[str, Any] = {"phase": one["p"][0][1], "units": units, "centres": centres}
    if one.get("d"):
        pos["dislodged"] = [{"power": p, "unit": u, "attacker_from": f} for _, _, p, u, f in sorted(one["d"])]
    if one.get("k"):
        pos["contested"] = sorted(a[1] for a in one["k"])
    cl: dict[str, Any] = {"game": one["g"][0][1], "view": one["v"][0][1], "started": one["s"][0][1]}
    if one.get("a"):
        cl["auras"] = {p: [lv, rv] for _, p, lv, rv in sorted(one["a"], key=lambda a: str(a[1]))}
    if one.get("r"):
        cl["retreating"] = {p: [lv, rv] for _, p, lv, rv in sorted(one["r"], key=lambda a: str(a[1]))}
    if one.get("q"):
        cl["research"] = [[ph, p, lv] for _, _, ph, p, lv in sorted(one["q"])]
    pos["cluster"] = cl
    return pos


def _units_of(board: _Board, pos: dict[str, Any], dislodged: bool) -> dict[str, Unit]:
    """The units of a position (or its dislodged units) by province."""
    out: dict[str, Unit] = {}
    pairs = (
        [(d["power"], d["unit"]) for d in pos.get("dislodged", [])]
        if dislodged
        else [(p, u) for p, us in pos["units"].items() for u in us]
    )
    for power, text in pairs:
        if text not in board.index:
            raise _damaged(f"{str(text)[:40]!r} is not a unit on the map")
        kind, loc = text.split(" ")
        out[province_of(loc)] = Unit(power, kind, loc)
    return out


class _Phase:
    """The orders one public position offers each unit (movement, retreat), computed as asked."""

    def __init__(self, board: _Board, pos: dict[str, Any]) -> None:
        self.board = board
        phase = Phase.parse(str(pos["phase"]))
        self.kind, self.season = phase.kind, phase.season
        self.units = _units_of(board, pos, self.kind == "retreat")
        self.slots = [f"{u.type} {u.location}" for _, u in sorted(self.units.items())]
        self.owner = {f"{u.type} {u.location}": u.power for u in self.units.values()}
        self._cands: dict[str, list[str]] = {}
        self._moves = Candidates(board.variant, self.units, phase.season) if self.kind == "movement" else None

    def candidates(self, unit: str) -> list[str]:
        if unit not in self.board.index:
            return []
        if unit not in self._cands:
            self.board.spend(100)
            u = self.units.get(province_of(unit.split(" ")[1]))
            if u is None or self.kind == "adjustment":
                orders: list[Order] = []
            elif self._moves is not None:
                orders = self._moves.of(u.province)
            else:
                orders = retreat_candidates(self.board.variant, u)
            self._cands[unit] = [format_order(o) for o in orders]
        return self._cands[unit]


def _template(board: _Board, r: dict[str, Any]) -> tuple[str, list[int]] | None:
    """A result's reason as a template (the units it names as ``\\x00``, its own province's name as
    ``\\x01``) and the units it names; None if that would not give the reason back."""
    reason = r.get("reason", "")
    unit = r.get("unit")
    if not isinstance(reason, str) or "\x00" in reason or "\x01" in reason or not isinstance(unit, str):
        return None
    named: list[int] = []

    def mention(m: re.Match[str]) -> str:
        if m.group(0) not in board.index:
            return m.group(0)
        named.append(board.index[m.group(0)])
        return "\x00"

    text = _MENTION.sub(mention, reason)
    own = board.names.get(province_of(unit.partition(" ")[2]))
    if own:
        text = text.replace(own, "\x01")
    return (text, named) if len(text) <= MAX_TEMPLATE and len(named) < 64 else None


def _untemplate(board: _Board, text: str, named: list[int], unit: str) -> str:
    parts = text.split("\x00")
    if len(parts) != len(named) + 1:
        raise _damaged("a reason names the wrong number of units")
    own = board.names.get(province_of(unit.partition(" ")[2]), "")
    out = parts[0]
    for index, part in zip(named, parts[1:], strict=True):
        out += board.units[index] + part
    return out.replace("\x01", own)


def _encode_results(board: _Board, pos: dict[str, Any], record: dict[str, Any], templates: dict[str, int]) -> bytes:
    phase = _Phase(board, pos)
    out = bytearray()
    skipped = bool(record.get("skipped"))
    results = record.get("results", [])
    put_varint(out, int(skipped))
    put_varint(out, len(results))
    slot = 0
    for r in results:
        unit, order, power = r.get("unit"), r.get("order"), r.get("power")
        if not (isinstance(unit, str) and isinstance(order, str) and isinstance(power, str)):
            raise ValueError("not a result")
        if slot < len(phase.slots) and phase.slots[slot] == unit:
            put_varint(out, 0)
        elif unit in board.index:
            put_varint(out, 1 + board.index[unit])
        else:
            put_varint(out, 1 + len(board.units))
            put_text(out, unit)
        slot = phase.slots.index(unit) + 1 if unit in phase.slots else slot
        cands = phase.candidates(unit)
        put_varint(out, cands.index(order) + 1 if order in cands else 0)
        if order not in cands:
            put_text(out, order)
        shape = _template(board, r)
        code = 0 if not r.get("reason") else 1 if shape is None else 2 + templates.setdefault(shape[0], len(templates))
        own = phase.owner.get(unit) == power
        flags = int(bool(r.get("success"))) | int(bool(r.get("dislodged"))) << 1 | int(not own) << 2
        put_varint(out, flags | code << 3)
        if not own:
            put_text(out, power)
        if code == 1:
            put_text(out, str(r["reason"]))
        elif code >= 2 and shape is not None:
            put_varint(out, len(shape[1]))
            for index in shape[1]:
                put_varint(out, index)
    return bytes(out)


def _decode_results(board: _Board, pos: dict[str, Any], data: CompactReader, templates: list[str]) -> dict[str, Any]:
    phase = _Phase(board, pos)
    skipped = data.int(2)
    results = []
    slot = 0
    for _ in range(data.int(4 * len(board.units) + 1)):
        code = data.int(len(board.units) + 2)
        if code == 0:
            if slot >= len(phase.slots):
                raise _damaged("a result names a unit the position does not have")
            unit = phase.slots[slot]
        else:
            unit = board.units[code - 1] if code <= len(board.units) else data.text()
        slot = phase.slots.index(unit) + 1 if unit in phase.slots else slot
        cands = phase.candidates(unit)
        k = data.int(len(cands) + 1)
        order = cands[k - 1] if k else data.text()
        flags = data.int(8 * (len(templates) + 2))
        power = data.text() if flags & 4 else phase.owner.get(unit)
        if power is None:
            raise _damaged("a result names a unit the position does not have")
        result: dict[str, Any] = {"power": power, "order": order, "unit": unit, "success": bool(flags & 1)}
        reason = flags >> 3
        if reason == 1:
            result["reason"] = data.text()
        elif reason >= 2:
            named = [data.int(len(board.units)) for _ in range(data.int(64))]
            result["reason"] = _untemplate(board, templates[reason - 2], named, unit)
        if flags & 2:
            result["dislodged"] = True
        results.append(result)
    return _history_record(pos["phase"], bool(skipped), results)


def _history_record(phase: Any, skipped: bool, results: list[dict[str, Any]]) -> dict[str, Any]:
    """A phase of the public history as the game file writes it: its results, and each power's orders
    read from them (a skipped phase lists only what it disbanded)."""
    record: dict[str, Any] = {"phase": phase}
    if skipped:
        record["skipped"] = True
        if results:
            record["results"] = results
        return record
    orders: dict[str, list[str]] = {}
    for r in results:
        if r["order"]:
            orders.setdefault(str(r["power"]), []).append(r["order"])
    record["orders"] = dict(sorted(orders.items()))
    record["results"] = results
    return record


_RESEARCH = re.compile(r"research: (?:a level-(\d) Site|no Site)")


def _predict(board: _Board, atoms: set[tuple[Any, ...]], record: dict[str, Any]) -> set[tuple[Any, ...]]:
    """The facts of the position after ``record``, as far as its public results tell them (a move that
    bounced leaves the province it aimed at contested until the retreats are over, unless another move
    entered it)."""
    out = set(atoms)
    phase = Phase.parse(str(record.get("phase")))
    out = {a for a in out if a[0] != "p"} | {("p", str(phase.next()))}
    auras = {a[1]: a for a in out if a[0] == "a"}
    retreating = {a[1]: a for a in out if a[0] == "r"}
    research = sum(1 for a in out if a[0] == "q")
    if phase.kind == "retreat" or record.get("skipped"):
        out = {a for a in out if a[0] not in ("d", "r")}
    out = {a for a in out if a[0] != "k"}
    if phase.kind == "movement":  # the game has started once a movement phase is played
        out = {a for a in out if a[0] != "s"} | {("s", True)}
    bounced, entered = set(), set()
    dislodged = 0
    for r in record.get("results", []):
        unit, power, order = r["unit"], r["power"], r["order"].split(" ")
        prov = province_of(unit.partition(" ")[2])
        reason = r.get("reason", "")
        if phase.kind == "movement" and not record.get("skipped"):
            if r.get("dislodged"):
                by = reason.rpartition("dislodged by ")[2].split(" ")
                came = province_of(by[1]) if len(by) == 2 else None
                out.discard(("u", power, unit))
                out.add(("d", dislodged, power, unit, came))
                dislodged += 1
                if prov in auras:
                    out.discard(auras[prov])
                    out.add(("r", *auras[prov][1:]))
            elif r.get("success") and len(order) == 4 and order[2] == "-":
                out.discard(("u", power, unit))
                out.add(("u", power, f"{order[0]} {order[3]}"))
                if prov in auras:
                    out.discard(auras[prov])
                    out.add(("a", province_of(order[3]), *auras[prov][2:]))
            elif reason.startswith("destroyed"):
                out.discard(("u", power, unit))
            if reason.startswith(("bounced", "may not dislodge")) and len(order) == 4 and order[2] == "-":
                bounced.add(province_of(order[3]))
            elif r.get("success") and len(order) == 4 and order[2] == "-":
                entered.add(province_of(order[3]))
            found = _RESEARCH.match(reason)
            if found:
                out.add(("q", research, str(phase), prov, int(found.group(1) or 0)))
                research += 1
        elif phase.kind == "retreat":
            if r.get("success") and len(order) == 4 and order[2] in ("R", "-"):
                out.add(("u", power, f"{order[0]} {order[3]}"))
                if prov in retreating:
                    out.add(("a", province_of(order[3]), *retreating[prov][2:]))
        elif r.get("success") and order[0] == "Build" and len(order) == 3:
            out.add(("u", power, f"{order[1]} {order[2]}"))
        elif r.get("success"):
            out.discard(("u", power, unit))
            if prov in auras:
                out.discard(auras[prov])
    out |= {("k", prov) for prov in bounced - entered}
    if phase.season == "fall" and phase.kind == "retreat":
        held = {province_of(str(a[2]).partition(" ")[2]): a[1] for a in out if a[0] == "u"}
        for a in [a for a in out if a[0] == "c" and a[2] in held and held[a[2]] != a[1]]:
            out.discard(a)
            out.add(("c", held[a[2]], a[2]))
        for prov in set(held) & set(board.variant.centres) - {a[2] for a in out if a[0] == "c"}:
            out.add(("c", held[prov], prov))
    return out


def _first_atoms(variant: str) -> set[tuple[Any, ...]]:
    start = cluster_views.public_data(cluster_views.new_game(seed=0, variant=variant))
    atoms = _atoms({k: v for k, v in start.items() if k in _KNOWN_POSITION})
    assert atoms is not None
    return {a for a in atoms if a[0] != "g"}  # (each game has its own id)


def _fact(a: Any) -> tuple[Any, ...]:
    if not (isinstance(a, list) and 0 < len(a) <= 6 and all(x is None or isinstance(x, (str, int)) for x in a)):
        raise _damaged("a fact of a position is malformed")
    return tuple(a)


def pack_compact(public: dict[str, Any]) -> bytes | None:
    """The public data in its compact form (inflated bytes), or None if it is not a public view's data."""
    history, snapshots = public.get("history"), public.get("snapshots")
    if not (isinstance(history, list) and isinstance(snapshots, list) and len(history) == len(snapshots)):
        return None
    try:
        board = _Board(load_variant(str(public.get("variant"))))
        final = {k: v for k, v in public.items() if k in _KNOWN_POSITION}
        positions = [*snapshots, final]
        facts = [_atoms(p) for p in positions]
        expected = _first_atoms(board.variant.id)
        body = bytearray()
        templates: dict[str, int] = {}
        header: dict[str, Any] = {"top": {k: public[k] for k in _TOP if k in public}, "n": len(history)}
        written: dict[str, Any] = {}
        records: dict[str, Any] = {}
        deltas: list[Any] = []
        for n, (pos, atoms) in enumerate(zip(positions, facts, strict=True)):
            if atoms is None or _position(atoms) != pos:
                written[str(n)] = pos
                atoms = _atoms(pos) or set()
            else:
                gone, new = sorted(expected - atoms, key=repr), sorted(atoms - expected, key=repr)
                deltas.append([n, [list(a) for a in gone], [list(a) for a in new]] if gone or new else None)
            if n == len(history):
                break
            record = history[n]
            mine = dict(templates)
            try:
                chunk = _encode_results(board, pos, record, mine)
                back = _decode_results(board, pos, CompactReader(chunk), sorted(mine, key=mine.__getitem__))
            except (AdjutantError, ValueError, KeyError, TypeError, IndexError):
                back = None
            if back == record:
                templates = mine
                body.append(0)
                body += chunk
            else:
                body.append(1)
                records[str(n)] = record
            expected = _predict(board, _atoms(pos) or set(), record) if isinstance(record, dict) else set()
        header["t"] = sorted(templates, key=templates.__getitem__)
        header["d"] = [d for d in deltas if d is not None]
        if written:
            header["w"] = written
        if records:
            header["x"] = records
    except (AdjutantError, ValueError, KeyError, TypeError, AttributeError):
        return None
    head = canonical_json(header)
    out = bytearray([PUBLIC_FORMAT])
    put_varint(out, len(head))
    return bytes(out + head + body)


def unpack_compact(raw: bytes) -> dict[str, Any]:
    """The public data :func:`pack_compact` packed; GameFileError naming what is wrong."""
    data = CompactReader(raw)
    if data.int(256) != PUBLIC_FORMAT:
        raise _damaged("it is not in a format this Adjutant reads")
    size = data.int()
    if size > len(raw) - data.at:
        raise _damaged("it is cut short")
    header = read_json(raw[data.at : data.at + size], "the link's public part", MAX_COMPACT)
    data.at += size
    if not isinstance(header, dict) or not isinstance(header.get("top"), dict):
        raise _damaged("its header is malformed")
    top, n, templates = header["top"], header.get("n"), header.get("t", [])
    written, records, deltas = header.get("w", {}), header.get("x", {}), header.get("d", [])
    if not (type(n) is int and 0 <= n <= 2 * MAX_PHASES and isinstance(templates, list)
            and all(isinstance(t, str) and len(t) <= MAX_TEMPLATE for t in templates) and isinstance(written, dict)
            and isinstance(records, dict) and isinstance(deltas, list) and set(top) <= set(_TOP)):
        raise _damaged("its header is malformed")
    changes: dict[int, Any] = {}
    for d in deltas:
        if not (isinstance(d, list) and len(d) == 3 and type(d[0]) is int and isinstance(d[1], list)
                and isinstance(d[2], list)):
            raise _damaged("a change of position is malformed")
        changes[d[0]] = ({_fact(a) for a in d[1]}, {_fact(a) for a in d[2]})
    try:
        if not is_cluster_variant(top.get("variant")):
            raise _damaged("it is not a Cluster game")
        board = _Board(load_variant(str(top.get("variant"))))
        expected = _first_atoms(board.variant.id)
        history, positions = [], []
        for n_at in range(n + 1):
            if str(n_at) in written:
                pos = written[str(n_at)]
                atoms = _atoms(pos) if isinstance(pos, dict) else None
                if atoms is None:
                    raise _damaged("a position written out is malformed")
            else:
                gone, new = changes.get(n_at, (set(), set()))
                atoms = (expected - gone) | new
                pos = _position(atoms)
            board.spend(len(atoms))
            positions.append(pos)
            if n_at == n:
                break
            kind = data.int(2)
            if kind == 0:
                record = _decode_results(board, pos, data, templates)
            else:
                literal = records.get(str(n_at))
                if not (isinstance(literal, dict) and isinstance(literal.get("results", []), list)
                        and all(isinstance(r, dict) and isinstance(r.get("unit"), str)
                                and isinstance(r.get("power"), str) and isinstance(r.get("order"), str)
                                for r in literal.get("results", []))):
                    raise _damaged("a phase written out is malformed")
                record = literal
            history.append(record)
            expected = _predict(board, atoms, record)
    except GameFileError:
        raise
    except (AdjutantError, ValueError, KeyError, TypeError, IndexError, AttributeError) as error:
        raise _damaged(str(error)[:200] or type(error).__name__) from None
    if data.at != len(raw):
        raise _damaged("it holds more than the game")
    return {**top, **positions[-1], "history": history, "snapshots": positions[:-1]}


def read_public(text: str) -> dict[str, Any]:
    """The public data a link's public part holds; GameFileError naming what is wrong. (Whether it is a
    game is checked when it is joined: :func:`adjutant.group_play.cluster_views.join_parts`.)"""
    raw = inflate(unb64(text, "the link's public part"), "the link's public part", MAX_INFLATED)
    if raw[:1] != b"{":
        if len(raw) > MAX_COMPACT:
            raise GameFileError(f"the link's public part is too large ({len(raw):,} bytes) to be a game")
        return unpack_compact(raw)
    data = read_json(raw, "the link's public part", MAX_INFLATED)
    if not isinstance(data, dict):
        raise GameFileError("the link's public part is not a game")
    return unpack_public(data)


def phase_digest(public: Any, public_key: bytes) -> bytes:
    """What a code's additional data binds besides its header (as :func:`adjutant.group_play.codes.phase_digest`
    for other variants): SHA-256 of the key and the public data, in one canonical JSON form."""
    return hashlib.sha256(b"adjutant group phase\0" + public_key + canonical_json(public)).digest()


def game_digest(game: Game, public_key: bytes) -> bytes:
    """:func:`phase_digest` of the game master's game."""
    return phase_digest(cluster_views.public_data(game), public_key)


# --- the game master's part ----------------------------------------------------------------------------
def gm_header(public_key: bytes, form: int = GM_PART_FORMAT) -> bytes:
    return bytes([form]) + game_id(public_key)


def gm_additional_data(public_key: bytes, public: Any, form: int = GM_PART_FORMAT) -> bytes:
    """The game master's part binds the public part it was sealed beside (and its header, ``form`` first)."""
    return gm_header(public_key, form) + hashlib.sha256(b"adjutant cluster gm part\0" + canonical_json(public)).digest()


def gm_part_format(part: str, public_key: bytes) -> int:
    """The format of a link's game master's part (:data:`GM_PART_FORMAT` or :data:`LEGACY_GM_PART_FORMAT`);
    GameFileError if it is neither, is cut short, or names another game."""
    data = unb64(part, "the game master's part")
    if len(data) < GM_PART_HEADER + 12 + 16:
        raise GameFileError("the game master's part is cut short")
    if data[0] not in (GM_PART_FORMAT, LEGACY_GM_PART_FORMAT):
        raise GameFileError(f"the game master's part has a format this Adjutant does not read ({data[0]})")
    if data[1:GM_PART_HEADER] != game_id(public_key):
        raise GameFileError("the game master's part is another game's: it is not this link's key's")
    return data[0]


def encode_orders_by_phase(game: Game) -> bytes:
    """Every phase's orders (the adjudicated ones, then the pending ones) compactly, for the game master's
    part: per phase played (skipped ones aside) and per power in the variant's order, two bytes of length
    then :func:`adjutant.group_play.codes.encode_orders`' payload (each unit's order as its index among the orders
    the position offers; nominations, research, transfer, mattermission and orders for commanded hosts
    written out). Made from the game's own positions (:attr:`Game.snapshots`), with no replay."""
    out = bytearray()
    played = [(rec, pos) for rec, pos in zip(game.history, game.snapshots, strict=True) if not rec.skipped]
    for record, position in played:
        out += _phase_bytes(game, record.phase, position, record.orders)
    if not game.over:
        for power in game.variant.powers:
            _put(out, group.encode_orders(game, power, list(game.orders_of(power))))
    return bytes(out)


#: a phase's bytes, by the game, phase and orders (an adjudicated phase is the same at every reseal)
_PHASES: dict[tuple[str, str, str], bytes] = {}


def _phase_bytes(game: Game, phase: object, position: Any, orders: dict[str, list[str]]) -> bytes:
    state = cluster_rules.cluster_state(position.variant_state)
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
    game = cluster_views.new_game(seed, variant)
    state = cluster_rules.cluster_state(game.position.variant_state)
    assert state is not None
    game.position = replace(game.position, variant_state=replace(state, game=game_id))
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
    state = cluster_rules.cluster_state(game.position.variant_state)
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
    return raw_deflate(canonical_json(content))


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
    _check_before_replay(content, public)
    game = decode_orders_by_phase(str(variant), content["game"], seed, phases, unb64(content["orders"], what), draw)
    if isinstance(public, dict) and public.get("computer") is not None:  # (the seats are public: the part binds them)
        game.computer = seats_from_data(public["computer"], game.variant.powers, "the link's public part")
    state = cluster_rules.cluster_state(game.position.variant_state)
    if state is None or state.view != cluster_views.GM_PART:
        raise GameFileError(f"{what} does not hold a Cluster game master's game")
    if canonical_json(cluster_views.public_data(game)) != canonical_json(public):
        raise GameFileError(f"{what} is not the game of the link's public part")
    return game, {k: v for k, v in phrases.items() if k in game.variant.powers}


def _check_before_replay(content: dict[str, Any], public: Any) -> None:
    """What an opened game master's part says of its game that the public part says too (the variant, the
    game's id, how many phases were played, the draw), compared before the part's phases are replayed: a
    part that is not this public part's game is refused at once, not after replaying up to a thousand
    phases (seconds). GameFileError if any differs."""
    public = public if isinstance(public, dict) else {}
    history, cluster = public.get("history"), public.get("cluster")
    played = None
    if isinstance(history, list):
        played = sum(1 for r in history if not (isinstance(r, dict) and r.get("skipped")))
    said = (content.get("variant"), content.get("game"), content.get("phases"), content.get("draw") or [])
    shown = (public.get("variant"), cluster.get("game") if isinstance(cluster, dict) else None, played,
             public.get("draw") or [])
    if said != shown:
        raise GameFileError("the game master's part is not the game of the link's public part")


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
    """:func:`adjutant.group_play.cluster_views.join_parts`, whatever goes wrong said as a GameFileError."""
    try:
        return cluster_views.join_parts(public, parts)
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
    head, joined = f"{b64(public_key)}~{public}", ".".join(seals[p] for p in powers)
    check = link_check(f"{head}~{joined}")
    return f"{link_start(variant)}{PUBLIC_PREFIX}{head}~{check}~{joined}{tail}"


def gm_link(variant: str, public_key: bytes, sealed_private: str, intake: Intake, public: str, gm_part: str) -> str:
    """The game master's own link: the public part and the whole game, sealed under the game master's key."""
    head = f"{b64(public_key)}~{sealed_private}~{intake.to_text()}~{public}"
    return f"{link_start(variant)}{GM_PREFIX}{head}~{link_check(f'{head}~{gm_part}')}~{gm_part}"


def _check_then_seal(part: str) -> bool:
    """Whether a link's part is its check and its first seal run together (the `~` between them lost)."""
    return len(part) > CHECK_TEXT and is_link_check(part[:CHECK_TEXT])


def _checked_parts(parts: list[str], gm: bool) -> list[str]:
    """A link's parts without its check, once the check says they are the parts it was made with
    (GameFileError if they are cut short or damaged). A link without a check (made before links had
    one) has one part fewer: the game master's five; a players' link three, or four with the power,
    its third part then its power parts (joined by ``.``) where a check has no ``.``."""
    if gm:
        if len(parts) == 5 and is_base64url(parts[4]) and len(parts[4]) * 3 // 4 < MIN_SEAL_BYTES:
            raise GameFileError(LINK_CUT)  # cut in or just after its check, or in its last part: no seal is so short
        if len(parts) < 5 and is_cut_start(parts):
            raise GameFileError(LINK_CUT)
        if len(parts) == 5 and _check_then_seal(parts[4]):
            raise GameFileError(LINK_DAMAGED)  # no seal starts as a check does
        if len(parts) != 6:
            return parts
        check, rest = parts[4], parts[:4] + parts[5:]
        covered = rest
    else:
        if len(parts) == 3 and is_check_start(parts[2]) or len(parts) < 3 and is_cut_start(parts):
            raise GameFileError(LINK_CUT)  # cut in its key, public part or check, or just after the check
        if len(parts) in (3, 4) and _check_then_seal(parts[2]):
            raise GameFileError(LINK_DAMAGED)  # no seal starts as a check does
        if len(parts) not in (4, 5) or "." in parts[2]:
            return parts
        check, rest = parts[2], parts[:2] + parts[3:]
        covered = rest[:3]
    verify_link_check(check, "~".join(covered))
    return rest


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
    parts = _checked_parts(rest[len(GM_PREFIX if gm else PUBLIC_PREFIX) :].split("~"), gm)
    if len(parts) not in ((5,) if gm else (3, 4)):
        raise GameFileError("the group link is damaged: it has the wrong number of parts")
    key = unb64(parts[0], "the group link")
    if len(key) != PUBLIC_KEY or key[0] != 4:
        raise GameFileError("the group link is damaged: its key is not a P-256 public key")
    text = parts[3] if gm else parts[1]
    public = read_public(text)
    check_named_variant(named, public.get("variant"))
    game = join(public, {})  # a public part that is not a Cluster public view is refused here
    if game.all_orders():
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
        what = f"sealed part of {variant.powers[power].name}"
        _b64_part(seal, what)
        if len(unb64(seal, what)) < MIN_SEAL_BYTES:
            raise GameFileError(f"the group link is cut short or damaged: its {what} is too short to be a seal")
    power = parts[3] if len(parts) == 4 else ""
    if power and power not in variant.powers:
        raise GameFileError(f"the group link names {power!r}, not a power of {variant.name}")
    return ClusterLink(variant.id, key, text, public, dict(zip(variant.powers, seals, strict=True)), power=power)


__all__ = [
    "ClusterLink",
    "CompactReader",
    "canonical_json",
    "game_digest",
    "gm_additional_data",
    "gm_header",
    "gm_part_format",
    "gm_link",
    "gm_plaintext",
    "is_cluster_group_link",
    "is_cluster_variant",
    "join",
    "pack_compact",
    "put_text",
    "put_varint",
    "phase_digest",
    "players_link",
    "public_text",
    "raw_deflate",
    "read_gm_plaintext",
    "read_link",
    "read_public",
    "unpack_compact",
]
