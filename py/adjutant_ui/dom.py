"""The few DOM helpers every part of the page uses: an element by its id, JavaScript's null as None, an
element's attribute, a performance mark.
"""

from __future__ import annotations

import contextlib
from typing import Any

import js
from pyodide.ffi import jsnull


def by_id(name: str) -> Any:
    """The element of the page with id ``name`` (null if there is none)."""
    return js.document.getElementById(name)


def page_address() -> str:
    """The page's address without its fragment: what a link to a game is made on."""
    return str(js.location.href).split("#")[0]


def js_bytes(value: Any) -> bytes:
    """A JavaScript byte array (a Uint8Array, an ArrayBuffer) as Python bytes."""
    return bytes(value.to_py())


def js_value(value: Any) -> Any:
    """JavaScript's null as None."""
    return None if value is None or value is jsnull else value


def attr_of(element: Any, name: str) -> str | None:
    """``element``'s attribute ``name``; None when it has none (or is not an element)."""
    value = element.getAttribute(name) if hasattr(element, "getAttribute") else None
    return None if value is None or value is jsnull else str(value)


def mark(name: str) -> None:
    """A performance mark, ``adjutant:`` and ``name``, for the benchmarks (benchmarks/startup.py --profile)
    and the browser tests."""
    with contextlib.suppress(Exception):
        js.performance.mark("adjutant:" + name)
