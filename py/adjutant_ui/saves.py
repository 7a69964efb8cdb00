"""Where the page keeps games: one storage slot per game, and the list of recent games.

Plain Python over a small storage interface (the page passes ``localStorage``; the tests a dict), so
CPython tests drive it. Each game the page holds has an id (random, made when the game comes into the
page: a new game, an opened link, file or recent game) and its own slot ``adjutant.game.<id>`` holding
its link and what the list shows (variant, phase, date). Two tabs with different games write different
slots; a tab that sees its own game's slot change (the ``storage`` event) knows another tab played it.
Slots are never removed by the page: a game is lost only if the user clears the browser's storage. When
a write fails (storage full or disabled), :meth:`Saves.save` says so, and the page then asks before
replacing the game in hand.

A player of a group game also keeps a draft here (:class:`Draft`): the orders they entered and the
last sealed orders code they were shown, for one game, phase and power, so that a reload or a closed
tab loses nothing they typed. It lives only in this browser: never in a link, a file or the game's slot.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Any, Protocol

from adjutant.formats.limits import without_bidi_controls

SLOT_PREFIX = "adjutant.game."
#: the ids of the games saved, most recent first
RECENT_KEY = "adjutant.recent"
#: how many the "Recent games" list shows (every slot is kept all the same)
SHOWN = 20
#: a group game player's drafts: ``adjutant.group.draft.<game>.<power>`` (one key per game and power,
#: holding the drafts of the last KEPT_PHASES phases written, each with the phase it is for)
DRAFT_PREFIX = "adjutant.group.draft."
#: how many phases' drafts are kept per game and power: the latest written first, so that orders given in
#: an old link (an earlier email opened again) never replace the current phase's
KEPT_PHASES = 3
#: drafts larger than this are not read (a power's orders and one code are a few kilobytes)
MAX_DRAFT = 256 * 1024
#: the most of the orders box's text (typed, not yet entered) a draft keeps
MAX_TYPED = 20_000
#: a slot or the list larger than this is not read (nothing the page writes comes near it)
MAX_READ = 8 * 1024 * 1024


class Storage(Protocol):
    def get(self, key: str) -> str | None: ...

    def set(self, key: str, value: str) -> bool: ...


class DictStorage:
    """A storage in memory (for tests), optionally with a quota in characters, as a browser has."""

    def __init__(self, quota: int | None = None) -> None:
        self.data: dict[str, str] = {}
        self.quota = quota

    def get(self, key: str) -> str | None:
        return self.data.get(key)

    def set(self, key: str, value: str) -> bool:
        used = sum(len(k) + len(v) for k, v in self.data.items() if k != key)
        if self.quota is not None and used + len(key) + len(value) > self.quota:
            return False
        self.data[key] = value
        return True


@dataclass(frozen=True)
class Saved:
    """One saved game as the list shows it."""

    id: str
    link: str
    variant: str
    phase: str
    date: str
    #: a group game's slot: which game and whose view (:meth:`Saves.find_group`), and its number of phases
    group: str = ""
    phases: int = 0
    #: what the page shows of the game beyond its link, put back when it is opened again (a group game
    #: master's list of the codes last opened and the refusals noted on the powers' rows): plain data
    #: whose reader checks it (``GroupController.restore_page``); None if the slot holds none
    page: Any = None

    def label(self, variant_name: str) -> str:
        """The list's line for the game ("Loeb9, S1901M (2026-11-24 17:01)"); the phase and date are read
        back from storage, so text-direction controls in them are taken out."""
        kind = ""
        if self.group:
            kind = ", group game as game master" if self.group.endswith(".gm") else ", group game as a player"
        return without_bidi_controls(f"{variant_name}{kind}, {self.phase} ({self.date})")


def slot_key(game_id: str) -> str:
    return SLOT_PREFIX + game_id


def new_id() -> str:
    return secrets.token_hex(6)


def _read(text: str | None) -> Any:
    if not text or len(text) > MAX_READ:
        return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def read_slot(game_id: str, text: str | None) -> Saved | None:
    """A slot's contents, or None if it is missing or damaged."""
    data = _read(text)
    if not isinstance(data, dict):
        return None
    fields = [data.get(k) for k in ("link", "variant", "phase", "date")]
    texts = [f for f in fields if isinstance(f, str)]
    if len(texts) != len(fields):
        return None
    link, variant, phase, date = texts
    tag, phases = data.get("group"), data.get("n")
    if isinstance(tag, str) and len(tag) <= 80 and type(phases) is int and phases >= 0:
        return Saved(game_id, link, variant, phase, date, tag, phases, data.get("page"))
    return Saved(game_id, link, variant, phase, date)


class Saves:
    """The saved games in ``storage``."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    def ids(self) -> list[str]:
        data = _read(self.storage.get(RECENT_KEY))
        if not isinstance(data, list):
            return []
        return [x for x in data if isinstance(x, str) and 0 < len(x) <= 40 and x.isalnum()]

    def load(self, game_id: str) -> Saved | None:
        return read_slot(game_id, self.storage.get(slot_key(game_id)))

    def recent(self, but: str = "") -> list[Saved]:
        """The saved games, most recent first (not ``but``, the game in hand), at most :data:`SHOWN`."""
        out = []
        for game_id in self.ids():
            saved = self.load(game_id) if game_id != but else None
            if saved is not None:
                out.append(saved)
            if len(out) == SHOWN:
                break
        return out

    def find(self, link: str) -> str | None:
        """The id of the saved game whose slot holds ``link``, if one does."""
        for game_id in self.ids():
            saved = self.load(game_id)
            if saved is not None and saved.link == link:
                return game_id
        return None

    def find_group(self, tag: str, phases: int) -> str | None:
        """The id of the saved group game ``tag`` (a game and whose view of it: see
        ``GroupController.slot_tag``) at ``phases`` phases or fewer, if one is kept: a later phase's link
        of the same game goes on in the same slot, so "Recent games" lists a group game once, at its
        latest phase, not once for every phase's link. An older link (an earlier email) has a slot of
        its own, and the later one stays."""
        if not tag:
            return None
        for game_id in self.ids():
            saved = self.load(game_id)
            if saved is not None and saved.group == tag and saved.phases <= phases:
                return game_id
        return None

    def save(self, game_id: str, link: str, variant: str, phase: str, date: str, group: str = "",
             phases: int = 0, page: Any = None) -> bool:
        """Write the game's slot and put it first in the list; whether both were written. A group game's
        slot also holds its tag and number of phases (:meth:`find_group`) and what its page shows beyond
        the link (``page``: plain data, :attr:`Saved.page`)."""
        fields: dict[str, Any] = {"link": link, "variant": variant, "phase": phase, "date": date}
        if group:
            fields.update({"group": group, "n": phases} | ({"page": page} if page is not None else {}))
        slot = json.dumps(fields, separators=(",", ":"))
        if not self.storage.set(slot_key(game_id), slot):
            return False
        ids = [game_id, *(x for x in self.ids() if x != game_id)]
        return self.storage.set(RECENT_KEY, json.dumps(ids))


#: the most entries of a group game master's list of codes (and of refusals) a slot keeps for the page
MAX_NOTES = 200
#: the longest line of that list kept (a refusal quotes at most a few hundred characters)
MAX_NOTE = 2000
#: the kinds of line the list has (adjutant_ui.group: a code taken in, the same again, an older one, one
#: set aside beside orders in, one refused, one not tried)
NOTE_KINDS = ("kept", "same", "older", "aside", "rejected", "untried")


@dataclass(frozen=True)
class CodesNotes:
    """What a group game master's page says of the codes of a phase beyond its link: the list of the codes
    last opened, (kind, line), and every refusal noted on the powers' rows, (power, why, for an earlier
    phase). Kept in the game's slot (:attr:`Saved.page`), so that a reload shows them again."""

    phase: int
    log: tuple[tuple[str, str], ...] = ()
    refused: tuple[tuple[str, str, bool], ...] = ()

    def to_data(self) -> dict[str, Any]:
        """>>> CodesNotes(1, (("kept", "France: 2 orders in"),)).to_data()
        {'codes': {'n': 1, 'log': [['kept', 'France: 2 orders in']], 'refused': []}}
        """
        log, refused = [list(e) for e in self.log], [list(e) for e in self.refused]
        return {"codes": {"n": self.phase, "log": log, "refused": refused}}

    @classmethod
    def from_data(cls, data: Any, phase: int) -> CodesNotes | None:
        """The notes a slot's page data holds for ``phase`` (phases adjudicated); None if it holds none for
        it, or they are damaged. Read from storage, they are data: their text is shown as text, without
        text-direction controls, and a line of a kind the list has not, or too long, is not taken."""
        codes = data.get("codes") if isinstance(data, dict) else None
        if not isinstance(codes, dict) or codes.get("n") != phase or type(phase) is not int:
            return None
        log, refused = codes.get("log"), codes.get("refused")
        if not isinstance(log, list) or not isinstance(refused, list):
            return None

        def text(value: Any) -> str | None:
            return without_bidi_controls(value) if isinstance(value, str) and len(value) <= MAX_NOTE else None

        lines = [(e[0], text(e[1])) for e in log[:MAX_NOTES] if isinstance(e, list) and len(e) == 2]
        notes = [(text(e[0]), text(e[1]), e[2]) for e in refused[-MAX_NOTES:] if isinstance(e, list) and len(e) == 3]
        return cls(
            phase,
            tuple((k, t) for k, t in lines if k in NOTE_KINDS and t is not None),
            tuple((p, w, b) for p, w, b in notes if p is not None and w is not None and isinstance(b, bool)),
        )


@dataclass(frozen=True)
class Draft:
    """A group game player's work in this browser for one phase: the orders entered (their text) and the
    last sealed orders code shown, with the note that went with it, and the text in the orders box not yet
    entered (a phone that drops the page loses no line being typed)."""

    phase: str  # what identifies the phase (the group game's phase digest)
    orders: tuple[str, ...] = ()
    code: str = ""
    note: str = ""
    typed: str = ""
    #: the orders the code seals (None: not kept with the draft, taken to be :attr:`orders`)
    sealed: tuple[str, ...] | None = None

    @property
    def empty(self) -> bool:
        return not self.orders and not self.code and not self.typed


def draft_key(game: str, power: str) -> str:
    return f"{DRAFT_PREFIX}{game}.{power}"


def _drafts(storage: Storage, game: str, power: str) -> list[dict[str, Any]]:
    """The drafts kept for ``power`` in ``game``, the latest written first (a single draft, not in a list,
    is read as the only one)."""
    text = storage.get(draft_key(game, power))
    data = _read(text) if text is not None and len(text) <= MAX_DRAFT else None
    entries = data if isinstance(data, list) else [data]
    return [entry for entry in entries[:KEPT_PHASES] if isinstance(entry, dict)]


def read_draft(storage: Storage, game: str, power: str, phase: str) -> Draft | None:
    """The draft kept for ``power`` in ``game`` at ``phase``; None if there is none or it is damaged."""
    data = next((entry for entry in _drafts(storage, game, power) if entry.get("phase") == phase), None)
    if data is None:
        return None
    orders, code, note, typed = data.get("orders"), data.get("code"), data.get("note"), data.get("typed", "")
    if not isinstance(orders, list) or not all(isinstance(o, str) for o in orders):
        return None
    if not isinstance(code, str) or not isinstance(note, str) or not isinstance(typed, str):
        return None
    sealed = data.get("sealed")
    if not isinstance(sealed, list) or not all(isinstance(o, str) for o in sealed):
        sealed = None
    return Draft(phase, tuple(orders), code, note, typed[:MAX_TYPED], None if sealed is None else tuple(sealed))


def write_draft(storage: Storage, game: str, power: str, draft: Draft) -> bool:
    """Keep ``draft`` (replacing the one kept for its phase; the other phases' latest are kept, up to
    KEPT_PHASES in all); whether it was written. An empty draft is written only over one of the same phase
    (orders all taken back): viewing a phase with nothing typed writes nothing."""
    kept = _drafts(storage, game, power)
    others = [entry for entry in kept if entry.get("phase") != draft.phase]
    if draft.empty and len(others) == len(kept):
        return True
    data: dict[str, Any] = {"phase": draft.phase, "orders": list(draft.orders), "code": draft.code,
                            "note": draft.note, "typed": draft.typed[:MAX_TYPED]}
    if draft.sealed is not None:
        data["sealed"] = list(draft.sealed)
    drafts = [data, *others][:KEPT_PHASES]
    return storage.set(draft_key(game, power), json.dumps(drafts, separators=(",", ":")))


__all__ = [
    "CodesNotes",
    "DRAFT_PREFIX",
    "KEPT_PHASES",
    "RECENT_KEY",
    "SLOT_PREFIX",
    "DictStorage",
    "Draft",
    "Saved",
    "Saves",
    "draft_key",
    "new_id",
    "read_draft",
    "read_slot",
    "slot_key",
    "write_draft",
]
