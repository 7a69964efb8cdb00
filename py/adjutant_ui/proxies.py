"""The JavaScript proxies of the page's Python callables, and when each is destroyed.

A Python function handed to JavaScript (an event listener, a timer) lives in a Pyodide proxy that holds it
until the proxy is destroyed. :class:`Proxies` makes them all and counts those alive, so that none made
for one action or one render is kept for ever: a listener for the page's lifetime is kept, one for an
element that goes away is released with it (:meth:`release`), a timer's releases itself after its call
(:meth:`once`). The count is the page's debug hook (``window.adjutantApp()``), read by the browser tests.

No ``js`` or ``pyodide`` here: the page passes Pyodide's ``create_proxy``, the tests a stand-in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Proxies:
    def __init__(self, create: Callable[[Callable[..., Any]], Any]) -> None:
        self._create = create
        self._live: list[Any] = []

    @property
    def count(self) -> int:
        """How many proxies made here are alive (not yet released)."""
        return len(self._live)

    def make(self, handler: Callable[..., Any]) -> Any:
        """A proxy of ``handler``, alive until :meth:`release`."""
        proxy = self._create(handler)
        self._live.append(proxy)
        return proxy

    def release(self, proxy: Any) -> None:
        """Destroy ``proxy`` (made here); releasing one twice does nothing."""
        for index, live in enumerate(self._live):
            if live is proxy:
                del self._live[index]
                proxy.destroy()
                return

    def once(self, handler: Callable[..., Any]) -> Any:
        """A proxy of ``handler`` that releases itself after its first call (for a timer)."""
        made: list[Any] = []

        def call(*args: Any) -> Any:
            try:
                return handler(*args)
            finally:
                self.release(made[0])

        made.append(self.make(call))
        return made[0]
