"""Work done in steps: a generator that yields between two steps (so that a caller, the page, can let the
browser draw and answer input meanwhile) and returns its result, and the one way to run it to its end."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, TypeVar

T = TypeVar("T")


def run_to_end(steps: Generator[Any, None, T]) -> T:
    """The result of ``steps``, run without a pause (what it yields is ignored).

    >>> def counting():
    ...     yield 1
    ...     yield 2
    ...     return "done"
    >>> run_to_end(counting())
    'done'
    """
    while True:
        try:
            next(steps)
        except StopIteration as done:
            result: T = done.value
            return result
