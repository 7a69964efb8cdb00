"""The engine inside real Pyodide (the npm package, under Node) gives the same results as under CPython.

The engine's own test files (the DATC suite among them) run under pytest in both interpreters; every
test must end the same way in both. Pyodide gets this virtualenv's pure-Python pytest through
tests/pyodide/run_python.mjs. Test files that import anything but the standard library, pytest and
the engine (hypothesis, the renderer's libraries, the reference judge, subprocesses) stay on CPython.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

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


def outcomes(output: str) -> dict[str, str]:
    for line in reversed(output.splitlines()):
        if line.startswith(MARKER):
            result: dict[str, str] = json.loads(line[len(MARKER) :])
            return result
    raise AssertionError(f"the run printed no outcomes:\n{output[-3000:]}")


def run_cpython(files: list[str]) -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests" / "pyodide"), str(ROOT / "py")])}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *pytest_args(files)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900,
    )
    return done.stdout + done.stderr


def run_pyodide(code: str) -> subprocess.CompletedProcess[str]:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed: the Pyodide tests need Node.js and `npm ci`")
    if not (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").is_file():
        pytest.fail("node_modules/pyodide is missing: run `npm ci` (scripts/dev setup does)")
    env = {**os.environ, "ADJUTANT_PYODIDE_SITE": sysconfig.get_paths()["purelib"]}
    return subprocess.run(
        [node, str(RUNNER), "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800
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


def test_engine_tests_end_the_same_in_pyodide_as_in_cpython() -> None:
    files = engine_test_files()
    assert files, "no engine test files found under tests/"
    code = (
        "import sys, pytest\n"
        "sys.path.insert(0, 'tests/pyodide')\n"
        f"sys.exit(pytest.main({pytest_args(files)!r}))\n"
    )
    in_pyodide = run_pyodide(code)
    pyodide_outcomes = outcomes(in_pyodide.stdout + in_pyodide.stderr)
    cpython_outcomes = outcomes(run_cpython(files))
    assert cpython_outcomes, "CPython ran no engine test"
    differ = {
        test: (cpython_outcomes.get(test), pyodide_outcomes.get(test))
        for test in cpython_outcomes.keys() | pyodide_outcomes.keys()
        if cpython_outcomes.get(test) != pyodide_outcomes.get(test)
    }
    assert differ == {}, "tests that end differently (CPython, Pyodide):\n" + "\n".join(
        f"{test}: {pair}" for test, pair in sorted(differ.items())
    )
    # the DATC suite is among them, whole, and passes inside Pyodide
    datc = {t: o for t, o in pyodide_outcomes.items() if t.startswith("tests/test_datc.py::test_datc[")}
    assert len(datc) >= 165 and set(datc.values()) == {"passed"}
