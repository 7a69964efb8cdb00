"""The paths of a JSON value's nodes, for the tests that alter a file or link one node at a time."""

from __future__ import annotations

from typing import Any


def json_paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every node's path in ``value``, the root's ``()`` first: keys of objects, indexes of lists.

    >>> json_paths({"a": [1, 2]})
    [(), ('a',), ('a', 0), ('a', 1)]
    """
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out += json_paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += json_paths(item, (*path, index))
    return out
