"""What the tests of hostile input share: the fuzz tests' settings, random JSON for hypothesis, and a link
made from a payload (raw deflate, base64url) or read back to it, as a hostile link is forged."""

from __future__ import annotations

import base64
import json
import zlib
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

#: each fuzz test runs the same examples every time (no example database, derandomised): CI stays stable
FUZZ = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def link_of(payload: bytes | str) -> str:
    raw = payload.encode() if isinstance(payload, str) else payload
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)[2:-4]).decode().rstrip("=")


def payload_of(link: str) -> Any:
    text = link.split(".", 1)[1] if "." in link else link
    raw = zlib.decompressobj(-15).decompress(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))
    return json.loads(raw)

#: any JSON value, small: what a hostile payload puts where the game's data belongs
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12)
    | st.sampled_from(["france", "A par", "F lon", "S1901M", "par", "cluster", "standard", "gm", "x" * 300]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
