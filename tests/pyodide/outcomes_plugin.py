"""A pytest plugin that prints every test's outcome as one JSON line, so that a run under CPython and a
run inside Pyodide can be compared test by test (tests/pyodide/test_engine_in_pyodide.py)."""

from __future__ import annotations

import json

import pytest

MARKER = "ADJUTANT-OUTCOMES "
_outcomes: dict[str, str] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    # The call phase decides, unless setup or teardown failed or skipped the test.
    decides = report.when == "call" or report.outcome != "passed"
    if decides and (report.nodeid not in _outcomes or report.outcome != "passed"):
        _outcomes[report.nodeid] = report.outcome


def pytest_sessionfinish(session: pytest.Session) -> None:
    print("\n" + MARKER + json.dumps(_outcomes, sort_keys=True), flush=True)
