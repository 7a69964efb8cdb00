"""Base64url without padding (RFC 4648 section 5): how links, group codes and sealed parts write bytes.

>>> encode(b"\\xfb\\xff")
'-_8'
>>> decode("-_8", "the code")
b'\\xfb\\xff'
>>> decode("-_8=", "the code")
Traceback (most recent call last):
...
adjutant.errors.GameFileError: the code is damaged: it has characters that base64url does not use
"""

from __future__ import annotations

import base64
import binascii
import re

from ..errors import GameFileError

#: the alphabet's characters: what a base64url text may hold, and nothing else
ALPHABET = re.compile(r"[A-Za-z0-9_-]*")


def encode(data: bytes) -> str:
    """``data`` as unpadded base64url."""
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def is_base64url(text: str) -> bool:
    """Whether ``text`` holds only the alphabet's characters (its length is not checked)."""
    return ALPHABET.fullmatch(text) is not None


def decode(text: str, what: str) -> bytes:
    """The bytes unpadded base64url ``text`` holds; ``what`` names it in the error (a
    :class:`~adjutant.errors.GameFileError`) when a character is not base64url's or the text has a length
    no base64url text has."""
    if not is_base64url(text):
        raise GameFileError(f"{what} is damaged: it has characters that base64url does not use")
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise GameFileError(f"{what} is damaged: it is not base64url") from None
