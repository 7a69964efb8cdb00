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
import zlib
from typing import Any

from .errors import GameFileError

#: the largest game file read, in bytes (the page's "Open file" uses the same figure): a legal game of
#: a thousand phases writes about 5.5 MB
MAX_FILE_BYTES = 8 * 1024 * 1024
#: the deepest nesting of arrays and objects a game file, link, sealed link or part needs (a sealed link
#: holds a view, whose snapshots hold a Cluster state, whose "found" holds objects: 7 levels) with room
MAX_DEPTH = 16

#: a JSON string, escapes included (unrolled, so long strings cost no backtracking)
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


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
    try:
        return json.loads(text)
    except RecursionError:  # (the scan above leaves none; kept so that no input escapes as one)
        raise GameFileError(f"{what} is nested too deeply to be a game") from None
    except ValueError as e:  # bad JSON, or a number longer than Python reads
        raise GameFileError(f"{what} is not a game: it is not valid JSON ({str(e)[:200]})") from None


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


__all__ = ["MAX_DEPTH", "MAX_FILE_BYTES", "inflate", "too_deep", "read_json"]
