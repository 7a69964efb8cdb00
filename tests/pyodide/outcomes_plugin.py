"""A pytest plugin that prints the tests it collected and every test's outcome, each as one JSON line, so
that a run inside Pyodide can be checked test by test against what CPython collects
(tests/pyodide/test_engine_in_pyodide.py).

`--part=I/N` keeps one part of N of the tests collected (every Nth, from the Ith, in the order collected:
each part takes its share of every file), so that N processes, each running one part, run them all."""

from __future__ import annotations

import json

import pytest

MARKER = "ADJUTANT-OUTCOMES "
COLLECTED = "ADJUTANT-COLLECTED "
_outcomes: dict[str, str] = {}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--part", default="0/1", help="I/N: run only the Ith of N parts of the tests collected")


def part(value: str) -> tuple[int, int]:
    """The part `--part` names, as (index, count)."""
    index, count = (int(number) for number in value.split("/"))
    if not 0 <= index < count:
        raise pytest.UsageError(f"--part={value}: a part from 0/N to N-1/N")
    return index, count


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    index, count = part(config.getoption("part"))
    if count > 1:
        kept = items[index::count]
        chosen = set(kept)
        config.hook.pytest_deselected(items=[item for item in items if item not in chosen])
        items[:] = kept


def pytest_collection_finish(session: pytest.Session) -> None:
    print("\n" + COLLECTED + json.dumps([item.nodeid for item in session.items]), flush=True)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    # The call phase decides, unless setup or teardown failed or skipped the test.
    decides = report.when == "call" or report.outcome != "passed"
    if decides and (report.nodeid not in _outcomes or report.outcome != "passed"):
        _outcomes[report.nodeid] = report.outcome


def pytest_sessionfinish(session: pytest.Session) -> None:
    print("\n" + MARKER + json.dumps(_outcomes, sort_keys=True), flush=True)
