"""The engine's docstring examples are tests too: every module of ``adjutant`` runs its own."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import adjutant
import pytest

MODULES = sorted(m.name for m in pkgutil.walk_packages(adjutant.__path__, "adjutant.") if m.name != "adjutant.__main__")


def test_every_engine_module_is_listed() -> None:
    listed = set(MODULES)
    assert {"adjutant.game", "adjutant.formats.report"} <= listed
    assert {"adjutant.adjudication.resolver", "adjutant.group_play.cluster_views"} <= listed
    assert {"adjutant.bots", "adjutant.bots.search"} <= set(MODULES)  # (a sub-package's modules too)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    failed, _attempted = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert failed == 0, f"{failed} docstring example(s) in {name} failed (see the output above)"
