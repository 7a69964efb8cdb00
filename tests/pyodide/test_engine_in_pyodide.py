"""The engine inside real Pyodide (the npm package, under Node) gives the same results as under CPython.

The engine's own test files (the DATC suite among them) run under pytest inside Pyodide, and every test
CPython collects from them must pass there (the suite runs the same files under CPython, where they pass
too: a test skipped or failing in either fails the run). Pyodide gets this virtualenv's pure-Python pytest
through tests/pyodide/run_python.mjs. Test files that import anything but the standard library, pytest
and the engine (hypothesis, the renderer's libraries, the reference judge, subprocesses) stay on CPython.

The files run in PARTS parts, each a test of its own, which a parallel run hands to different workers
(tests/conftest.py, SPREAD): each part takes every PARTS-th test collected, so a share of every file.
"""

from __future__ import annotations

import ast
import functools
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

import pytest

import build

ROOT = Path(__file__).resolve().parents[2]
RUNNER = ROOT / "tests" / "pyodide" / "run_python.mjs"
NOT_ENGINE = {"browser", "pyodide"}
# What a test file may import to run inside Pyodide: the standard library (less what cannot work there:
# starting processes, or importing packages found at run time), pytest, the engine, the tests' helpers.
PYODIDE_IMPORTS = (set(sys.stdlib_module_names) - {"subprocess", "multiprocessing", "importlib"}) | {
    "pytest",
    "adjutant",
    "case_runner",
    "conftest",
    "tests",
}
MARKER = "ADJUTANT-OUTCOMES "
COLLECTED = "ADJUTANT-COLLECTED "
#: How many Pyodide processes run the engine's tests, one after another on one worker or side by side on
#: two; each starts Pyodide and collects every file again (docs/performance.md, "Tests and CI time").
PARTS = 2


def imported_modules(path: Path) -> set[str]:
    """The top-level names of the modules a Python file imports (anywhere in it)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def engine_test_files() -> list[str]:
    """The engine's test files (relative to the repository) that can run inside Pyodide."""
    files = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        parts = path.relative_to(ROOT / "tests").parts
        if parts[0] in NOT_ENGINE or imported_modules(path) - PYODIDE_IMPORTS:
            continue
        files.append(path.relative_to(ROOT).as_posix())
    return files


def pytest_args(files: list[str]) -> list[str]:
    # (without pytest-xdist: with it loaded, pytest-rerunfailures opens a socket, which Pyodide has not)
    return ["-q", "-p", "no:hypothesispytest", "-p", "no:xdist", "-p", "outcomes_plugin", "--rootdir", ".", *files]


def printed(output: str, marker: str) -> Any:
    """What outcomes_plugin printed after `marker` (the last such line)."""
    for line in reversed(output.splitlines()):
        if line.startswith(marker):
            return json.loads(line[len(marker) :])
    raise AssertionError(f"the run printed no {marker.strip()} line:\n{output[-3000:]}")


@functools.cache
def cpython_collected(files: tuple[str, ...]) -> list[str]:
    """The tests CPython collects from `files`, in the order it would run them (the order the parts
    are cut from)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests" / "pyodide"), str(ROOT / "py")])}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", *pytest_args(list(files))],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    collected: list[str] = printed(done.stdout, COLLECTED)
    return collected


def run_pyodide(code: str) -> subprocess.CompletedProcess[str]:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed: the Pyodide tests need Node.js and `npm ci`")
    if not (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").is_file():
        pytest.fail("node_modules/pyodide is missing: run `npm ci` (scripts/dev setup does)")
    env = {**os.environ, "ADJUTANT_PYODIDE_SITE": sysconfig.get_paths()["purelib"]}
    return subprocess.run(
        [node, *build.NODE_FLAGS, str(RUNNER), "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )


def test_pyodide_runs_python_314_with_the_repository_mounted() -> None:
    done = run_pyodide("import sys, adjutant; print(sys.platform, sys.version_info[:2], adjutant.__file__)")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == "emscripten"
    assert done.stdout.strip().endswith("/repo/py/adjutant/__init__.py")


def test_a_python_failure_is_a_failed_run() -> None:
    done = run_pyodide("raise ValueError('seen')")
    assert done.returncode == 1
    assert "ValueError: seen" in done.stderr


def test_the_engine_tests_are_found_with_the_whole_datc_suite() -> None:
    collected = cpython_collected(tuple(engine_test_files()))
    datc = [test for test in collected if test.startswith("tests/test_datc.py::test_datc[")]
    assert len(datc) >= 165
    assert len(collected) > 1000


@pytest.mark.parametrize("part", range(PARTS), ids=lambda part: f"part{part + 1}of{PARTS}")
def test_the_engine_tests_pass_in_pyodide(part: int) -> None:
    files = engine_test_files()
    expected = cpython_collected(tuple(files))[part::PARTS]
    assert expected, "CPython collects no engine test"
    code = (
        "import sys, pytest\n"
        "sys.path.insert(0, 'tests/pyodide')\n"
        f"sys.exit(pytest.main({[*pytest_args(files), f'--part={part}/{PARTS}']!r}))\n"
    )
    done = run_pyodide(code)
    output = done.stdout + done.stderr
    collected, outcomes = set(printed(output, COLLECTED)), printed(output, MARKER)
    assert collected == set(expected), (
        f"collected by CPython only: {sorted(set(expected) - collected)[:20]}\n"
        f"collected by Pyodide only: {sorted(collected - set(expected))[:20]}"
    )
    not_passed = {test: outcome for test, outcome in outcomes.items() if outcome != "passed"}
    assert not_passed == {}, "tests that do not pass in Pyodide:\n" + "\n".join(
        f"{test}: {outcome}" for test, outcome in sorted(not_passed.items())
    ) + "\n" + output[-3000:]
    assert set(outcomes) == collected, f"collected but not run: {sorted(collected - set(outcomes))[:20]}"
    assert done.returncode == 0, output[-3000:]
