"""The standard library build.py ships for the page: every module of Pyodide's python_stdlib.zip, as
bytecode compiled by that Pyodide, which imports it without its sources."""

from __future__ import annotations

import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import built_runtime
import pytest

import build

ROOT = Path(__file__).resolve().parents[2]

# Loads Pyodide with the given standard library and imports the modules named, printing where each came from.
IMPORT_SCRIPT = """
const [pyodideModule, stdlib, modules] = process.argv.slice(2);
const { loadPyodide } = await import(pyodideModule);
const pyodide = await loadPyodide({ stdLibURL: stdlib });
pyodide.globals.set("names", modules);
console.log(pyodide.runPython(`
import importlib, json
json.dumps({name: importlib.import_module(name).__spec__.origin for name in names.split(",")})
`));
"""

#: Modules the engine and the page import, and some the standard library itself imports at start-up.
MODULES = [
    "json",
    "re",
    "dataclasses",
    "zlib",
    "base64",
    "hashlib",
    "functools",
    "collections",
    "asyncio",
    "encodings.idna",
]


def test_the_compiled_stdlib_holds_every_module_as_bytecode_only(tmp_path: Path) -> None:
    if shutil.which("node") is None:
        pytest.fail("node is not installed: the Pyodide tests need Node.js and `npm ci`")
    target = built_runtime.compiled_stdlib()  # build.write_compiled_stdlib's, once per run
    assert target is not None
    source = ROOT / "node_modules" / "pyodide" / "python_stdlib.zip"
    with zipfile.ZipFile(source) as original, zipfile.ZipFile(target) as compiled:
        modules = {name for name in original.namelist() if name.endswith(".py")}
        names = set(compiled.namelist())
        assert not any(name.endswith(".py") for name in names)
        assert {name + "c" for name in modules} <= names
        assert len(names) == len(original.namelist())

    script = tmp_path / "imports.mjs"
    script.write_text(IMPORT_SCRIPT, encoding="utf-8")
    pyodide = (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").as_uri()
    done = subprocess.run(
        ["node", *build.NODE_FLAGS, str(script), pyodide, str(target), ",".join(MODULES)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    origins = json.loads(done.stdout.strip().splitlines()[-1])
    assert set(origins) == set(MODULES)
    # Built-in modules (zlib) have no file; the rest come from the bytecode in the zip.
    assert all(origin in ("built-in", None) or origin.endswith(".pyc") for origin in origins.values()), origins
    assert origins["json"] == "/lib/python314.zip/json/__init__.pyc"
