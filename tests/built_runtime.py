"""The page's Python runtime as build.py makes it, made once per test run: the standard library compiled by
Pyodide (`compiled_stdlib`) and the memory snapshot taken with it (`snapshot`). Each costs Pyodide under
Node 30-40 s of CPU, and the site's build (tests/browser/conftest.py), tests/pyodide/test_compiled_stdlib.py
and tests/pyodide/test_snapshot.py all need them.

In a parallel run (pytest-xdist) the first worker to need one makes it in the folder the workers share
(tests/shared_folder.py) while holding its lock; the others wait, then read it. Each file is named after
what it is made from (`inputs`), so a shared folder kept from run to run (ADJUTANT_TESTS_SHARED) never
serves one made from other sources. Callers read the files and never change them."""

from __future__ import annotations

import fcntl
import hashlib
import tempfile
from collections.abc import Callable
from functools import cache
from pathlib import Path

from shared_folder import shared_folder

import build

#: build.py's own writers (tests/browser/conftest.py puts these files in their place for the site's build)
WRITE_COMPILED_STDLIB = build.write_compiled_stdlib
WRITE_SNAPSHOT = build.write_snapshot


def inputs(*paths: Path) -> str:
    """A digest of the files at `paths` (of every file under a folder), their names and contents."""
    digest = hashlib.sha256()
    for root in paths:
        for path in sorted([root] if root.is_file() else (p for p in root.rglob("*") if p.is_file())):
            if "__pycache__" not in path.parts:
                name = path.relative_to(root.parent).as_posix()
                digest.update(name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def compiled_stdlib() -> Path | None:
    """Pyodide's standard library compiled, as `build.write_compiled_stdlib` writes it (None where that
    writes nothing: without Node)."""
    pyodide = build.ROOT / "node_modules" / "pyodide"
    key = inputs(pyodide / "python_stdlib.zip", pyodide / "package.json", build.COMPILE_SCRIPT)
    return _made_once(f"python_stdlib-{key}.zip", WRITE_COMPILED_STDLIB)


def snapshot() -> Path | None:
    """The memory snapshot `build.write_snapshot` takes with `compiled_stdlib()` (None without Node)."""
    stdlib = compiled_stdlib()
    if stdlib is None:
        return None
    root = build.ROOT
    key = inputs(stdlib, root / "build.py", build.SNAPSHOT_SCRIPT, root / "py", root / "maps")
    return _made_once(f"snapshot-{key}.bin.gz", lambda target: WRITE_SNAPSHOT(stdlib, target))


@cache
def _folder() -> Path:
    shared = shared_folder()
    folder = shared / "runtime" if shared is not None else Path(tempfile.mkdtemp(prefix="adjutant-runtime-"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _made_once(name: str, make: Callable[[Path], bool]) -> Path | None:
    """The file `name` of the runtime folder, made by `make` (which says whether it could) if it is not;
    None if it could not."""
    kept = _folder() / name
    with (_folder() / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not kept.exists():
            part = kept.with_name(name + ".part")
            if not make(part):
                return None
            part.replace(kept)
    return kept
