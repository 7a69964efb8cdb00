"""The sizes Adjutant reads, and the one safe way in for JSON and deflated bytes from outside.

Every game link, game file, sealed part and autosave is read through :func:`read_json` (and, when it is
deflated, :func:`inflate` first), so each is bounded the same way before any parsing: a size limit, and a
cheap scan of the bracket depth, since ``json.loads`` recurses once per level and a few thousand nested
arrays (a 51-character link once compressed) overflow the JavaScript stack under Pyodide — a fatal error,
not an exception.

>>> read_json('{"a": [1, {"b": "[[[["}]}', "the file")
{'a': [1, {'b': '[[[['}]}
>>> read_json("[" * 100 + "]" * 100, "the link")
Traceback (most recent call last):
...
adjutant.errors.GameFileError: the link is nested more than 16 levels deep: deeper than any game
"""

from __future__ import annotations

import json
import re
import unicodedata
import zlib
from typing import Any

from ..errors import GameFileError

#: the largest game file read, in bytes (the page's "Open file" uses the same figure): a legal game of
#: a thousand phases writes about 5.5 MB
MAX_FILE_BYTES = 8 * 1024 * 1024
#: the deepest nesting of arrays and objects allowed: the deepest real data, the game master's opened sealed
#: part (its game file's history holds results, objects in a list in an object), needs 7; this leaves room
MAX_DEPTH = 16

#: a JSON string, escapes included (unrolled, so long strings cost no backtracking)
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
#: the characters that set the direction of the text around them (embeddings, overrides, isolates, marks):
#: shown in the page, one could reorder the page's own words beside it ("refused" read as something else)
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_BIDI = re.compile(f"[{BIDI_CONTROLS}]")
#: a JSON escape of one (``\\u202e``)
_BIDI_ESCAPE = re.compile(r"\\u(?:" + "|".join(f"{ord(c):04x}" for c in BIDI_CONTROLS) + ")", re.IGNORECASE)


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether ``text`` (JSON) nests arrays and objects more than ``limit`` deep. Linear in the text and
    without recursion: the strings are cut out, then the innermost bracket pairs are taken away ``limit``
    times. A pair still left is deeper than ``limit``; brackets left unpaired (a file cut short) are
    invalid JSON, which ``json.loads`` reports itself, once their openers cannot nest it deeper than
    twice ``limit``."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    for _ in range(limit):
        if not brackets:
            return False
        brackets = brackets.replace("[]", "").replace("{}", "")
    if "[]" in brackets or "{}" in brackets:
        return True
    return brackets.count("[") + brackets.count("{") > limit


def read_json(text: str | bytes, what: str, max_bytes: int = MAX_FILE_BYTES) -> Any:
    """``text`` parsed as JSON, or :class:`GameFileError` saying what is wrong with ``what`` ("the
    link", "the file"…): too large, not UTF-8, nested deeper than a game needs, or not JSON."""
    if len(text) > max_bytes:
        unit = "bytes" if isinstance(text, bytes) else "characters"
        raise GameFileError(f"{what} is too large ({len(text):,} {unit}); Adjutant reads up to {max_bytes:,} bytes")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise GameFileError(f"{what} is not text (UTF-8)") from None
    if too_deep(text):
        raise GameFileError(f"{what} is nested more than {MAX_DEPTH} levels deep: deeper than any game")
    control = _BIDI.search(text) or (_BIDI_ESCAPE.search(text) if "\\u" in text else None)
    if control is not None:
        raise GameFileError(bidi_refused(what, control.group()))
    try:
        return json.loads(text)
    except RecursionError:  # (the scan above leaves none; kept so that no input escapes as one)
        raise GameFileError(f"{what} is nested too deeply to be a game") from None
    except ValueError as e:  # bad JSON, or a number longer than Python reads
        raise GameFileError(f"{what} is not a game: it is not valid JSON ({str(e)[:200]})") from None


def bidi_name(found: str) -> str:
    """A text-direction control (or its JSON escape) by its code point and name: "U+202E RIGHT-TO-LEFT
    OVERRIDE"."""
    char = found if len(found) == 1 else chr(int(found[2:], 16))
    return f"U+{ord(char):04X} {unicodedata.name(char)}"


def bidi_refused(what: str, found: str) -> str:
    """Why ``what`` is refused for holding the text-direction control ``found`` (or its JSON escape)."""
    name = bidi_name(found)
    return f"{what} holds a text-direction control ({name}), which no game has: it could reorder the page's text"


def bidi_control_in(text: str) -> str | None:
    """The first text-direction control in ``text`` (not JSON: no escapes are looked for), if any."""
    found = _BIDI.search(text)
    return found.group() if found is not None else None


def without_bidi_controls(text: str) -> str:
    """``text`` without its text-direction controls (:data:`BIDI_CONTROLS`): for text the page shows that
    did not come through :func:`read_json` (a file's name, orders as typed), so that it cannot reorder
    the page's words around it."""
    return _BIDI.sub("", text)


def inflate(data: bytes, what: str, max_bytes: int) -> bytes:
    """Raw deflate data inflated, never to more than ``max_bytes`` (the output is bounded while it is
    made, so a small bomb costs no memory): :class:`GameFileError` if it is damaged, cut short or too
    large."""
    inflater = zlib.decompressobj(-15)
    try:
        raw = inflater.decompress(data, max_bytes)
    except zlib.error:
        raise GameFileError(f"{what} is damaged: it does not inflate") from None
    if inflater.unconsumed_tail:
        raise GameFileError(f"{what} inflates to more than {max_bytes:,} bytes: too much to be a game")
    if not inflater.eof:
        raise GameFileError(f"{what} is cut short")
    if inflater.unused_data:
        raise GameFileError(f"{what} is damaged: it goes on after its end")
    return raw


__all__ = [
    "BIDI_CONTROLS",
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "bidi_control_in",
    "bidi_name",
    "bidi_refused",
    "inflate",
    "read_json",
    "too_deep",
    "without_bidi_controls",
]
