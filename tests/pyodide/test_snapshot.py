"""The memory snapshot build.py ships for the page (runtime/pyodide/python-snapshot.bin.gz): Pyodide
restored from it, under Node, has every module of the app and the standard library modules the page uses
already imported, the page's document in them being the restoring page's own, plays games with the maps'
files where the page has them, draws fresh random numbers once seeded as the page's loader seeds it,
and the same inputs make the same snapshot."""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import built_runtime
import pytest

import build

ROOT = Path(__file__).resolve().parents[2]

# Restores Pyodide from the snapshot (gunzipped), with the repository's py/ and maps/ where the page
# unpacks the app's files (/home/pyodide, Python's working directory), and prints what the Python given
# reports (one JSON line).
RESTORE_SCRIPT = """
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
const [pyodideModule, stdlib, snapshot, repo, code] = process.argv.slice(2);
const { loadPyodide } = await import(pyodideModule);
globalThis.document = { title: "the restoring page's document" };
const pyodide = await loadPyodide({ stdLibURL: stdlib, _loadSnapshot: gunzipSync(readFileSync(snapshot)) });
for (const folder of ["py", "maps"]) {
  pyodide.FS.mkdirTree("/home/pyodide/" + folder);
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: repo + "/" + folder }, "/home/pyodide/" + folder);
}
console.log(pyodide.runPython(code));
"""

MODULES = """
import json, sys
json.dumps({
    "modules": sorted(sys.modules),
    "json": sys.modules["json"].__spec__.origin,
    "adjutant": sys.modules["adjutant"].__file__,
    "document": [sys.modules[name].document.title for name in ("adjutant_ui.app", "adjutant_ui.group")],
})
"""

# A random game of three variants, to the link it ends with: the same in CPython (here) and restored
# (the engine as the snapshot holds it: no import runs it anew).
# (Not Cluster: its seeded random game is not the same from one run to the next, in CPython too.)
GAME = """
import json, sys
assert "adjutant.randomgame" in sys.modules
from adjutant import encode_link
from adjutant.randomgame import random_game
json.dumps({variant: encode_link(list(random_game(variant, seed=7, years=2))[-1]) for variant in VARIANTS})
"""
VARIANTS = ("standard", "cline5", "loeb9")


RANDOM = """
import json, random
json.dumps([random.random()])
"""


@pytest.fixture(scope="module")
def shipped() -> tuple[Path, Path]:
    """The compiled standard library and the snapshot made with it, as build.py writes them (once per run:
    tests/built_runtime.py)."""
    if shutil.which("node") is None:
        pytest.fail("node is not installed: the Pyodide tests need Node.js and `npm ci`")
    stdlib, snapshot = built_runtime.compiled_stdlib(), built_runtime.snapshot()
    assert stdlib is not None and snapshot is not None
    return stdlib, snapshot


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, build.AppFiles]:
    """The app's folder as build.py writes it into the site, and its listing."""
    folder = tmp_path_factory.mktemp("site") / "app"
    return folder, build.write_app(folder)


def bundled(written: tuple[Path, build.AppFiles]) -> dict[str, bytes]:
    """The app's files in its bundle, by name, cut as the interpreter module cuts them."""
    folder, app = written
    data = (folder / app["bundle"]).read_bytes()
    files, at = {}, 0
    for name, size in app["files"]:
        files[name] = data[at : at + size]
        at += size
    assert at == len(data)
    return files


def restore(shipped: tuple[Path, Path], code: str, tmp_path: Path) -> object:
    stdlib, snapshot = shipped
    script = tmp_path / "restore.mjs"
    script.write_text(RESTORE_SCRIPT, encoding="utf-8")
    pyodide = (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").as_uri()
    done = subprocess.run(
        ["node", *build.NODE_FLAGS, str(script), pyodide, str(stdlib), str(snapshot), str(ROOT), code],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[done.stderr.find("PythonError") :][:3000]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_snapshot_holds_what_the_page_imports_before_it_draws(shipped: tuple[Path, Path], tmp_path: Path) -> None:
    found = restore(shipped, MODULES, tmp_path)
    assert isinstance(found, dict)
    modules = set(found["modules"])
    # the standard library modules the engine and the UI import at their top level
    assert {"json", "asyncio", "dataclasses", "zlib", "base64", "hashlib", "secrets", "math", "random"} <= modules
    # the engine, every module of it but the command line, and the UI, every module of it
    engine = {
        ".".join(path.relative_to(ROOT / "py").with_suffix("").parts).removesuffix(".__init__")
        for path in (ROOT / "py" / "adjutant").rglob("*.py")
    }
    assert engine - {"adjutant", "adjutant.__main__", "adjutant.cli"} <= modules
    assert {"adjutant.bots", "adjutant.bots.heuristic"} <= modules  # (a sub-package's modules too)
    assert not {"adjutant.cli", "adjutant.__main__"} & modules
    ui = {f"adjutant_ui.{path.stem}" for path in (ROOT / "py" / "adjutant_ui").glob("*.py")} - {"adjutant_ui.__init__"}
    assert ui <= modules
    # and the standard library that PyScript's own package imports, which the snapshot cannot hold itself
    assert {"inspect", "html", "pathlib"} <= modules
    # and of PyScript's package only the stand-in that defers its import (the next test)
    assert {name for name in modules if name.split(".")[0] in ("pyscript", "polyscript", "_pyscript")} == {"pyscript"}
    # the UI's modules took the page's document at import: restored, it is the restoring page's
    assert found["document"] == ["the restoring page's document"] * 2
    # each where the page has it: the standard library in the zip it ships, the app where it unpacks it
    assert found["json"].startswith("/lib/python3")
    assert found["adjutant"] == "/home/pyodide/py/adjutant/__init__.py"


# PyScript imports its package before each script it runs; restored from the snapshot, that import is a
# lookup, and the package is imported when a name of it is asked for (here it is not there to be found).
PYSCRIPT_DEFERRED = """
import json, sys
import pyscript as _pyscript
ran = sorted(name for name in sys.modules if name.startswith("pyscript."))
try:
    _pyscript.display
    asked = "found"
except ModuleNotFoundError as error:
    asked = str(error)
json.dumps({"ran": ran, "asked": asked, "left": "pyscript" in sys.modules})
"""


def test_pyscripts_package_is_imported_only_when_a_name_of_it_is_asked_for(
    shipped: tuple[Path, Path], tmp_path: Path
) -> None:
    found = restore(shipped, PYSCRIPT_DEFERRED, tmp_path)
    assert found == {"ran": [], "asked": "No module named 'pyscript'", "left": False}


# Every variant is loaded in the snapshot: the restored Python loads each with building a variant (or
# reading its file) made to fail.
VARIANTS_LOADED = """
import json
import adjutant.map.variant as variant
def refuse(*args, **kwargs):
    raise AssertionError("built at start")
variant.build_variant = variant._read_merged = refuse
every = variant.available_variants(drafts=True)
json.dumps({variant_id: variant.load_variant(variant_id).name for variant_id, _ in every})
"""


def test_every_variant_is_loaded_in_the_snapshot(shipped: tuple[Path, Path], tmp_path: Path) -> None:
    from adjutant.map.variant import available_variants, load_variant

    found = restore(shipped, VARIANTS_LOADED, tmp_path)
    assert found == {variant_id: load_variant(variant_id).name for variant_id, _ in available_variants(drafts=True)}
    assert len(found) >= 6


def test_the_page_is_given_the_modules_only_for_a_start_without_the_snapshot(
    shipped: tuple[Path, Path], written: tuple[Path, build.AppFiles], tmp_path: Path
) -> None:
    found = restore(shipped, MODULES, tmp_path)
    assert isinstance(found, dict)
    restored = set(found["modules"])
    folder, app = written
    files = bundled(written)
    shipped_modules = {build.module_name(path) for path in build.app_modules()}
    as_files = {build.module_name(ROOT / name.removesuffix(".pyc")) for name in files if name.startswith("py/")}
    with zipfile.ZipFile(folder / app["archive"]) as archive:
        archived = {build.module_name(ROOT / name.removesuffix(".pyc")) for name in archive.namelist()}
    # Python restored from the snapshot has imported every module of the app: none is written as a file,
    # and all are in the archive, which only a Python started without the snapshot reads
    assert as_files == shipped_modules - restored == set()
    assert archived == shipped_modules
    assert {"adjutant_ui.app", "adjutant_ui.board", "adjutant.adjudication.resolver"} <= archived
    # PyScript's own package, which the snapshot cannot hold, as bytecode for every module of it
    cached = {name.split("/")[-1].split(".")[0] for name in files if name.startswith("pyscript/__pycache__/")}
    assert cached == {name.removeprefix("pyscript/").removesuffix(".py") for name in build.pyscript_sources()}
    assert "web" in cached
    # the variants' data, each file whole
    for path in (ROOT / "maps").glob("*.json"):
        assert files[f"maps/{path.name}"] == path.read_bytes()
    assert len(files) == len(app["files"])  # no name twice


def test_the_restored_python_imports_and_plays_the_engine(shipped: tuple[Path, Path], tmp_path: Path) -> None:
    from adjutant import encode_link
    from adjutant.randomgame import random_game

    played = restore(shipped, GAME.replace("VARIANTS", repr(VARIANTS)), tmp_path)
    assert played == {variant: encode_link(list(random_game(variant, seed=7, years=2))[-1]) for variant in VARIANTS}


def test_the_random_module_is_the_same_in_every_restore_until_the_loader_seeds_it(
    shipped: tuple[Path, Path], tmp_path: Path
) -> None:
    first, second = restore(shipped, RANDOM, tmp_path), restore(shipped, RANDOM, tmp_path)
    assert first == second  # the generator as seeded at build time: why the page's loader seeds it
    seeded = [restore(shipped, build.SNAPSHOT_RESEED + "\n" + RANDOM, tmp_path) for _ in range(2)]
    assert seeded[0] != seeded[1]


def test_the_same_inputs_make_the_same_snapshot(shipped: tuple[Path, Path], tmp_path: Path) -> None:
    stdlib, snapshot = shipped
    again = tmp_path / "again.bin.gz"
    assert build.write_snapshot(stdlib, again)
    assert again.read_bytes() == snapshot.read_bytes()
    # and it is the page's Pyodide's whole memory, behind the snapshot's header
    assert len(gzip.decompress(snapshot.read_bytes())) > 16 * 2**20


# Writes PyScript's package as PyScript does at every start, with the build's bytecode beside it, and
# asks Python's own loader for each module's code with compiling from the source made to fail.
PYSCRIPT_SCRIPT = """
import { readFileSync } from "node:fs";
const [pyodideModule, folder, listing] = process.argv.slice(2);
const { loadPyodide } = await import(pyodideModule);
const pyodide = await loadPyodide();
const { sources, files } = JSON.parse(readFileSync(listing, "utf-8"));
pyodide.FS.mkdirTree("/home/pyodide/pyscript/__pycache__");
for (const [name, code] of Object.entries(sources)) pyodide.FS.writeFile("/home/pyodide/" + name, code);
for (const name of files) pyodide.FS.writeFile("/home/pyodide/" + name, readFileSync(folder + "/" + name));
console.log(pyodide.runPython(`
import importlib.machinery, json, pathlib
def refuse(*args, **kwargs):
    raise AssertionError("compiled from the source")
importlib.machinery.SourceFileLoader.source_to_code = refuse
found = {}
for path in sorted(pathlib.Path("/home/pyodide/pyscript").glob("*.py")):
    code = importlib.machinery.SourceFileLoader("pyscript." + path.stem, str(path)).get_code("pyscript." + path.stem)
    found[path.name] = code.co_filename
json.dumps(found)
`));
"""


def test_pyscripts_package_is_imported_from_the_builds_bytecode(
    written: tuple[Path, build.AppFiles], tmp_path: Path
) -> None:
    sources = build.pyscript_sources()
    assert len(sources) >= 10  # the pinned PyScript's package, read and checked against its core chunk
    folder = tmp_path / "app"  # the package's bytecode, cut from the bundle as the page cuts it
    cached = []
    for name, content in bundled(written).items():
        if name.startswith("pyscript/"):
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(content)
            cached.append(name)
    listing = tmp_path / "listing.json"
    listing.write_text(json.dumps({"sources": sources, "files": cached}), encoding="utf-8")
    script = tmp_path / "pyscript.mjs"
    script.write_text(PYSCRIPT_SCRIPT, encoding="utf-8")
    pyodide = (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").as_uri()
    done = subprocess.run(
        ["node", *build.NODE_FLAGS, str(script), pyodide, str(folder), str(listing)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    # every module's code came from the bytecode, named where the page has the module
    assert found == {name.removeprefix("pyscript/"): f"/home/pyodide/{name}" for name in sources}
