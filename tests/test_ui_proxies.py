"""adjutant_ui.proxies: every proxy the page makes is counted until it is destroyed; a timer's destroys
itself after its call."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from adjutant_ui.proxies import Proxies


class FakeProxy:
    """What Pyodide's create_proxy returns, as far as Proxies uses it."""

    def __init__(self, handler: Callable[..., Any]) -> None:
        self.handler = handler
        self.destroyed = 0

    def __call__(self, *args: Any) -> Any:
        assert not self.destroyed, "a destroyed proxy was called"
        return self.handler(*args)

    def destroy(self) -> None:
        self.destroyed += 1


def test_a_proxy_is_counted_until_released_once() -> None:
    proxies = Proxies(FakeProxy)
    kept = proxies.make(lambda: "kept")
    dropped = proxies.make(lambda: "dropped")
    assert proxies.count == 2
    proxies.release(dropped)
    proxies.release(dropped)  # twice: destroyed once
    assert dropped.destroyed == 1 and kept.destroyed == 0 and proxies.count == 1
    assert kept() == "kept"


def test_a_timers_proxy_releases_itself_after_its_call_even_when_it_raises() -> None:
    proxies = Proxies(FakeProxy)
    calls: list[int] = []
    timer = proxies.once(lambda n: calls.append(n))
    assert proxies.count == 1
    timer(7)
    assert calls == [7] and timer.destroyed == 1 and proxies.count == 0

    def fail() -> None:
        raise ValueError("boom")

    failing = proxies.once(fail)
    with pytest.raises(ValueError, match="boom"):
        failing()
    assert failing.destroyed == 1 and proxies.count == 0
