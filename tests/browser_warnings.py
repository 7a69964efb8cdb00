"""The warnings the browser tests issue, in a module of the tests' own folder: pytest-xdist's controller
finds a worker's warning class again by its module's name, so the class must live in a module the
controller can import (tests/ is on its path; tests/browser/ is not, and "conftest" there is
tests/conftest.py)."""


class RendererCrashed(UserWarning):
    """Chromium's renderer process died while a page was starting Pyodide (seen on CI machines now and then,
    never reproduced on demand). The page is opened once more; the warning shows in pytest's summary and
    Chromium's log is kept in test-artifacts/, so the crash is reported, not hidden."""


class SharedPageRenewed(UserWarning):
    """The page the tests of a file share did not come back to the fresh state before a test (what differs
    is said): the test got a fresh context instead, which costs a page opening."""


class DeviceReplaced(UserWarning):
    """A shared device's page did not reach the fresh state a test asked for, and was replaced by a fresh
    context (the test goes on there): the tests stay right, only slower, and the summary says so."""
