"""PyScript's own Python package (`pyscript`), imported the first time a name of it is asked for.

Before each script it runs, PyScript writes its package into Python's home and imports it
(`import pyscript as _pyscript`): fifteen modules executed at every start of the page, though the page's
Python never uses them (the UI drives the page through `js` and `pyodide.ffi`). The start-up snapshot
(build.py) holds, as ``sys.modules["pyscript"]``, the stand-in :func:`defer` puts there: PyScript's
import is then a lookup, and the real package is imported when a name of it is first asked for
(``from pyscript import display``, ``pyscript.window``, ``import pyscript.web``), by then written.
A module that only the package's own import puts in ``sys.modules`` (``pyscript.js_modules.<name>``,
from PyScript's ``js_modules`` setting, which the page does not use) is not found if it is the first
thing imported: a name of the package must be asked for first.
"""

from __future__ import annotations

import importlib
import sys
import types


class _ImportedOnFirstUse(types.ModuleType):
    """Stands for a package until a name of it is asked for, then imports the package and answers
    from it. Code that took the stand-in keeps working: each missing name is looked up in the package."""

    def __getattr__(self, name: str) -> object:
        if sys.modules.get(self.__name__) is self:
            del sys.modules[self.__name__]
        return getattr(importlib.import_module(self.__name__), name)


def defer(name: str = "pyscript") -> None:
    """Make the import of the package `name` a lookup until a name of it is asked for (nothing is
    changed if it is imported already)."""
    if name not in sys.modules:
        sys.modules[name] = _ImportedOnFirstUse(name)
