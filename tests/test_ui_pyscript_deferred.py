"""The stand-in that defers the import of PyScript's package to its first use (adjutant_ui.pyscript_deferred),
on a package of the test's own: importing it runs none of it; the first name asked for imports it, and
every way of asking (from-import, attribute, submodule import, the stand-in kept) gets the real one."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from adjutant_ui.pyscript_deferred import defer

PACKAGE = "deferred_for_test"


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    folder = tmp_path / PACKAGE
    folder.mkdir()
    (folder / "__init__.py").write_text("from .tools import shout\nVALUE = 42\n", encoding="utf-8")
    (folder / "tools.py").write_text("def shout():\n    return 'loud'\n", encoding="utf-8")
    (folder / "extra.py").write_text("NAME = 'extra'\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield PACKAGE
    for name in [name for name in sys.modules if name.split(".")[0] == PACKAGE]:
        del sys.modules[name]


def test_importing_the_deferred_package_runs_none_of_it(package: str) -> None:
    defer(package)
    stand_in = importlib.import_module(package)
    assert stand_in is sys.modules[package]
    assert f"{package}.tools" not in sys.modules  # its __init__ has not run
    assert stand_in.__name__ == package and f"{package}.tools" not in sys.modules


def test_the_first_name_asked_for_imports_the_package(package: str) -> None:
    defer(package)
    stand_in = sys.modules[package]
    found: dict[str, object] = {}
    exec(f"from {package} import VALUE, shout", found)
    assert found["VALUE"] == 42
    assert callable(found["shout"]) and found["shout"]() == "loud"
    real = sys.modules[package]
    assert real is not stand_in and real.__file__ is not None and real.__file__.endswith("__init__.py")
    # the stand-in, kept by whoever imported it first, answers from the package
    assert stand_in.VALUE == 42
    assert stand_in.shout is real.shout


def test_a_submodule_imported_first_imports_the_package_too(package: str) -> None:
    defer(package)
    extra = importlib.import_module(f"{package}.extra")
    assert extra.NAME == "extra"
    real = sys.modules[package]
    assert real.VALUE == 42 and real.__path__
    found: dict[str, object] = {}
    exec(f"import {package}.extra as again", found)
    assert found["again"] is extra


def test_a_package_imported_already_is_left_as_it_is(package: str) -> None:
    real = importlib.import_module(package)
    defer(package)
    assert sys.modules[package] is real


def test_a_package_that_is_not_there_says_so_at_first_use(monkeypatch: pytest.MonkeyPatch) -> None:
    name = "deferred_but_missing"
    monkeypatch.delitem(sys.modules, name, raising=False)
    defer(name)
    stand_in = importlib.import_module(name)  # a lookup: nothing is looked for yet
    with pytest.raises(ModuleNotFoundError, match=name):
        _ = stand_in.anything
    assert name not in sys.modules
