"""Build Adjutant's static site into dist/ and, with --serve, serve it on 127.0.0.1.

    python build.py                 # writes dist/
    python build.py --serve [--port N]

dist/ holds everything the page fetches, so no request leaves the site's origin:
- index.html (the game table) and embed.html (a read-only map of a game), the JS shell and CSS (web/);
- maps/<variant>.svg, drawn by the renderer (py/adjutant_maps) when it is present;
- app-<hash>/: files.bin, the variant data (maps/*.json) and PyScript's own package as bytecode, which
  the interpreter module (below) fetches as Pyodide starts and writes into Python's home; and modules.zip,
  the engine (py/adjutant) and the UI's modules (py/adjutant_ui) as bytecode compiled by the page's own
  Pyodide (run under Node), which only a Python started without the snapshot fetches and unpacks (the
  snapshot holds them all);
- variants.json: id and name of every variant, for the first paint before Python is ready;
- runtime/: Pyodide and PyScript copied from node_modules (pinned in package.json), only the files
  the page fetches; Pyodide's standard library (python_stdlib.zip, which loadPyodide fetches by that
  name) as bytecode compiled by the same Pyodide, so the page does not compile it at every start;
  python-snapshot.bin.gz, the memory of that Pyodide started with every module of the app imported,
  so the page neither starts the interpreter nor imports the app; adjutant-snapshot.js, the worker the page's shell
  starts to read that snapshot; and adjutant-pyodide.mjs, the interpreter module the page's PyScript
  config names (Pyodide's loadPyodide with its package list and the snapshot given, and the app's
  files written);
- manifest.webmanifest and icons/ (drawn here: SVG, and PNG written with zlib), so the site installs as an app;
- sw.js: the service worker (web/sw.js with the precache manifest filled in: every other file of the
  site and its SHA-256), so the site works offline after one visit (docs/offline.md).
"""

from __future__ import annotations

import argparse
import ast
import base64
import contextlib
import functools
import gzip
import hashlib
import http.server
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import xml.etree.ElementTree as ET
import zipfile
import zlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypedDict

ROOT = Path(__file__).resolve().parent
DIST = ROOT / "dist"

# The Pyodide files loadPyodide() fetches for the core interpreter (no packages are loaded). Its package
# list (pyodide-lock.json, 120 kB) is not shipped: the page loads no package, and PYODIDE_LOADER gives
# loadPyodide the list's header with no packages in it instead.
PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip"]
PYODIDE_LOCK = "pyodide-lock.json"
# The module the page's PyScript config names as its interpreter: Pyodide's own loadPyodide, given the
# package list (PyScript passes loadPyodide only where to find Pyodide, so loadPyodide would fetch the
# list) and, where the build made one, the memory snapshot of a started Python (SNAPSHOT_NAME), which
# replaces the interpreter's start-up (docs/performance-startup.md). Should the snapshot fail to load
# (no DecompressionStream, a download cut short), Python starts afresh without it. Its placeholders are
# filled in by the build (fill_in); it is written to runtime/pyodide/adjutant-pyodide.mjs.
PYODIDE_LOADER = ROOT / "web" / "pyodide-loader.mjs"
#: The worker that reads the snapshot for the page (a file of the site: the page's Content-Security-Policy
#: allows scripts from the site only), its placeholders filled in (fill_in). The shell starts it (web/shell.js,
#: SNAPSHOT_WORKER_PATH).
SNAPSHOT_WORKER = ROOT / "web" / "snapshot-worker.js"
SNAPSHOT_WORKER_NAME = "adjutant-snapshot.js"
#: The worker's path in the site, put into the shell (web/shell.js) in place of SHELL_SNAPSHOT_WORKER;
#: the shell starts no worker where the build made no snapshot.
SNAPSHOT_WORKER_PATH = "runtime/pyodide/" + SNAPSHOT_WORKER_NAME
SHELL_SNAPSHOT_WORKER = "/*SNAPSHOT_WORKER*/ null"
#: The same for Pyodide's WebAssembly module, which the shell fetches and compiles as the page loads.
SHELL_PYODIDE_WASM = "/*PYODIDE_WASM*/ null"
#: The same for the interpreter module (PYODIDE_LOADER), whose start() the shell calls once the map is in the page.
SHELL_PYODIDE_LOADER = "/*PYODIDE_LOADER*/ null"
SNAPSHOT_NAME = "python-snapshot.bin.gz"
#: The unpacked snapshot's Cache Storage cache is this and the first 16 hex digits of the gzip's SHA-256,
#: written by the page's first visit (with a service worker or without). The worker that writes it deletes
#: the copies of other builds; web/sw.js, which deletes every other "adjutant-" cache when its build takes
#: over, keeps the one its build's snapshot names, whether written before it was installed or after.
SNAPSHOT_CACHE_PREFIX = "adjutant-snapshot-"
#: Run once a snapshot is restored: the random module's generator (imported into the snapshot, seeded at
#: build time, so the same in every page) is seeded anew from the browser's random numbers.
SNAPSHOT_RESEED = "import sys\nif 'random' in sys.modules: sys.modules['random'].seed()"
# PyScript's entry module and its core chunk: the page's config turns every plugin off ("!name"), so
# nothing else is imported. tests/browser checks that the page fetches exactly these runtime files.
PYSCRIPT_FILES = ["core.js", "core-*.js", "error-*.js"]
PYTHON_PACKAGES = ["adjutant", "adjutant_ui"]
#: In the app's folder (write_app): the modules the snapshot holds, for a Python started without it.
APP_ARCHIVE = "modules.zip"
#: In the app's folder (write_app): the files written into Python's home at every start, one after the other.
APP_BUNDLE = "files.bin"
RUNTIME_MISSING = "node_modules/{} is missing: run `npm ci` (scripts/dev setup does) before building."


def runtime_files() -> dict[str, Path]:
    """Map each runtime file's path under dist/ to its source in node_modules."""
    files: dict[str, Path] = {}
    pyodide = ROOT / "node_modules" / "pyodide"
    pyscript = ROOT / "node_modules" / "@pyscript" / "core" / "dist"
    for name in PYODIDE_FILES:
        source = pyodide / name
        if not source.is_file():
            raise SystemExit(RUNTIME_MISSING.format(f"pyodide/{name}"))
        files[f"runtime/pyodide/{name}"] = source
    for pattern in PYSCRIPT_FILES:
        matches = sorted(pyscript.glob(pattern))
        if not matches:
            raise SystemExit(RUNTIME_MISSING.format(f"@pyscript/core/dist/{pattern}"))
        for source in matches:
            files[f"runtime/pyscript/{source.name}"] = source
    return files


def variant_index() -> list[dict[str, str]]:
    """Id and name of each playable variant (drafts left out), as the engine lists them."""
    sys.path.insert(0, str(ROOT / "py"))
    from adjutant import available_variants

    return [{"id": vid, "name": name} for vid, name in available_variants(ROOT / "maps")]


#: The Node scripts the build runs Pyodide with (each says what it does; scripts/node-errors.mjs, which
#: both import, makes a failure a few lines that say why).
COMPILE_SCRIPT = ROOT / "scripts" / "pyodide-compile.mjs"
SNAPSHOT_SCRIPT = ROOT / "scripts" / "pyodide-snapshot.mjs"
#: How the build (and the tests) start Node to run Pyodide: without V8's optimising tier for WebAssembly
#: (the reason: docs/performance.md, "Tests and CI time"). Every file the build writes is the same either way.
NODE_FLAGS = ["--no-wasm-tier-up"]


def run_in_pyodide(script: Path, *args: str) -> bool:
    """Run the Node script `script` (given the URL of Pyodide's module and `args`) with the page's own
    Pyodide. Returns False when Node is missing (or ADJUTANT_NO_BYTECODE=1), so nothing ran."""
    node = shutil.which("node")
    if node is None or os.environ.get("ADJUTANT_NO_BYTECODE") == "1":
        return False
    pyodide = (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").as_uri()
    try:
        subprocess.run([node, *NODE_FLAGS, str(script), pyodide, *args], check=True, capture_output=True, text=True)
    except subprocess.CalledProcessError as error:
        output = error.stdout + error.stderr
        raise SystemExit(f"build: running Python with Pyodide under Node failed:\n{output}") from None
    return True


def write_compiled_stdlib(target: Path) -> bool:
    """Write Pyodide's standard library (python_stdlib.zip, sources only) as `target` with every module
    compiled by the page's own Pyodide (same magic number), bytecode only: Pyodide then imports it
    without compiling, three quarters of its start-up work. Returns False (nothing written) without Node."""
    source = ROOT / "node_modules" / "pyodide" / "python_stdlib.zip"
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        with zipfile.ZipFile(source) as archive:
            archive.extractall(folder)
        if not run_in_pyodide(COMPILE_SCRIPT, str(folder), "legacy"):
            return False
        out = zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=9)
        with zipfile.ZipFile(source) as original, out:
            for entry in original.infolist():
                name = entry.filename
                if name.endswith(".py"):
                    name += "c"  # the module's bytecode in its place
                info = zipfile.ZipInfo(name, date_time=(2000, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                out.writestr(info, b"" if entry.is_dir() else (folder / name).read_bytes())
    return True




def write_snapshot(stdlib: Path, target: Path) -> bool:
    """Write `target`: the gzipped memory snapshot of the page's Pyodide started with the standard library
    `stdlib` (the one the site ships), every module of the app imported and every variant loaded
    (scripts/pyodide-snapshot.mjs). Returns
    False (nothing written: the page then starts Python without it) when Node is missing."""
    digest = hashlib.sha256(stdlib.read_bytes())
    with tempfile.TemporaryDirectory() as scratch:
        app = Path(scratch) / "app"
        copy_app(app)
        (app / "maps").mkdir()
        for path in sorted((ROOT / "maps").glob("*.json")):
            shutil.copyfile(path, app / "maps" / path.name)
        for path in sorted(path for path in app.rglob("*") if path.is_file()):
            digest.update(path.relative_to(app).as_posix().encode() + path.read_bytes())
        seed = str(int.from_bytes(digest.digest()[:4], "big"))
        raw = Path(scratch) / "snapshot.bin"
        modules = json.dumps(snapshot_imports())
        if not run_in_pyodide(SNAPSHOT_SCRIPT, str(stdlib), str(app), seed, modules, str(raw)):
            return False
        target.write_bytes(gzip.compress(raw.read_bytes(), compresslevel=9, mtime=0))
    return True


def compile_bytecode(folder: Path, named: str) -> bool:
    """Write __pycache__/*.pyc beside the modules under `folder`, compiled by Pyodide under Node, each
    module named as under the folder `named` (where the page has it: what its tracebacks show).
    Returns False (the page then compiles the sources itself, ~150 ms slower) when Node is missing."""
    if run_in_pyodide(COMPILE_SCRIPT, str(folder), "pycache", named):
        return True
    print("build: no Node, so no precompiled bytecode (the page still works, starting a little slower)")
    return False


def pyscript_sources() -> dict[str, str]:
    """PyScript's own Python package (pyscript/*.py), as the PyScript the page loads writes it into Python's
    home at every start (its sources, from the package's src/stdlib/pyscript.js, each checked to be the
    text in the core chunk the page loads); empty if it cannot be had or checked."""
    folder = ROOT / "node_modules" / "@pyscript" / "core"
    artifact = folder / "src" / "stdlib" / "pyscript.js"
    chunks = sorted((folder / "dist").glob("core-*.js"))
    if not artifact.is_file() or len(chunks) != 1:
        return {}
    text = artifact.read_text(encoding="utf-8")
    start = text.find("export default")
    if start < 0:
        return {}
    try:
        package = json.loads(text[start + len("export default") :].strip().removesuffix(";"))["pyscript"]
    except (ValueError, KeyError, TypeError):
        return {}
    if not isinstance(package, dict):
        return {}
    core = chunks[0].read_text(encoding="utf-8")
    sources = {f"pyscript/{name}": code for name, code in package.items() if isinstance(code, str)}
    if not all(json.dumps(code, ensure_ascii=False)[1:-1] in core for code in sources.values()):
        return {}
    return sources


def module_name(path: Path) -> str:
    """The name of the module in `path` (under py/): adjutant.formats.link, or adjutant for its __init__.py."""
    parts = path.relative_to(ROOT / "py").with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def app_modules() -> list[Path]:
    """The page's own Python: every module of PYTHON_PACKAGES and their sub-packages (adjutant.bots) but
    the command line's."""
    return [
        path
        for package in PYTHON_PACKAGES
        for path in sorted((ROOT / "py" / package).rglob("*.py"))
        if "__pycache__" not in path.parts and path.relative_to(ROOT / "py").as_posix() not in _NOT_IN_APP
    ]


#: the modules the page leaves out: the command line's
_NOT_IN_APP = ("adjutant/__main__.py", "adjutant/cli.py", "adjutant_ui/__main__.py", "adjutant_ui/cli.py")


def copy_app(into: Path) -> None:
    """Copy the page's own Python (app_modules) under `into`, laid out as in the repository (py/...)."""
    for path in app_modules():
        target = into / path.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)


def snapshot_imports() -> list[str]:
    """The modules the snapshot imports (scripts/pyodide-snapshot.mjs), in order: every module of the app, the engine
    and then the UI (with the standard library modules they import), and the standard library modules
    PyScript's own package imports (pyscript_sources; the package itself needs the page's PyScript) and
    pathlib, with which PyScript writes that package at every start."""
    names = [module_name(path) for path in app_modules()]
    theirs = ("js", "jsffi", "_pyscript", "polyscript", "pyscript", "pyodide")
    for code in pyscript_sources().values():
        for node in ast.walk(ast.parse(code)):
            if isinstance(node, ast.Import):
                names += sorted(alias.name for alias in node.names if alias.name.split(".")[0] not in theirs)
            elif isinstance(node, ast.ImportFrom) and not node.level and str(node.module).split(".")[0] not in theirs:
                names.append(str(node.module))
    return list(dict.fromkeys([*names, "pathlib"]))


class AppFiles(TypedDict):
    """The app's files in its folder (write_app), as the interpreter module is given them."""

    files: list[tuple[str, int]]  # name and size of each file written into Python's home at every start
    bundle: str  # those files' bytes, one after the other
    archive: str  # unpacked there only by a Python started without the snapshot


def write_app(folder: Path) -> AppFiles:
    """Write the page's own Python and the variants' data into `folder`, named as in the repository
    (py/..., maps/*.json), the modules as bytecode for the page's Python: in APP_BUNDLE, one after the
    other, the variants' data and PyScript's own package as bytecode (pyscript/__pycache__/*.pyc,
    unchecked: PyScript writes its sources beside them at every start, and Python then imports them
    without compiling); zipped as APP_ARCHIVE, every module of the app, which the snapshot holds, for a
    Python started without it. Returns the names and sizes, for the interpreter module."""
    folder.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as scratch:
        staging = Path(scratch)
        copy_app(staging)
        pyscript = pyscript_sources()
        for name, code in pyscript.items():
            (staging / name).parent.mkdir(parents=True, exist_ok=True)
            (staging / name).write_text(code, encoding="utf-8")
        compiled = compile_bytecode(staging, "/home/pyodide")
        files: list[tuple[str, Path]] = []
        archived: list[tuple[str, Path]] = []
        for path in app_modules():
            name = path.relative_to(ROOT).as_posix()
            source = staging / name
            if compiled:
                # Bytecode only, where the module would be (sourceless): half the archive to fetch and unpack.
                name = name.removesuffix(".py") + ".pyc"
                source = next(source.parent.glob(f"__pycache__/{source.stem}.*.pyc"))
            archived.append((name, source))
        if compiled:
            files += [
                (p.relative_to(staging).as_posix(), p) for p in sorted(staging.glob("pyscript/__pycache__/*.pyc"))
            ]
        files += [(path.relative_to(ROOT).as_posix(), path) for path in sorted((ROOT / "maps").glob("*.json"))]
        contents = [source.read_bytes() for _, source in files]
        (folder / APP_BUNDLE).write_bytes(b"".join(contents))
        with zipfile.ZipFile(folder / APP_ARCHIVE, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
            for name, source in archived:
                # A fixed timestamp keeps the archive identical from one build to the next.
                info = zipfile.ZipInfo(name, date_time=(2000, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, source.read_bytes())
    return {
        "files": [(name, len(content)) for (name, _), content in zip(files, contents, strict=True)],
        "bundle": APP_BUNDLE,
        "archive": APP_ARCHIVE,
    }


def write_maps(out_dir: Path, processes: int = 1) -> None:
    """Draw every variant's SVG with the renderer (`processes` boards at once), or a plain placeholder where
    there is none (or when ADJUTANT_PLACEHOLDER_MAPS=1, to work on the page without the renderer's
    dependencies)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    renderer = ROOT / "py" / "adjutant_maps" / "__init__.py"
    if renderer.is_file() and os.environ.get("ADJUTANT_PLACEHOLDER_MAPS") != "1":
        sys.path.insert(0, str(ROOT / "py"))
        from adjutant_maps import build_maps  # the only module that imports svgwrite

        build_maps(out_dir, processes=processes)
        return
    for entry in variant_index():
        (out_dir / f"{entry['id']}.svg").write_text(placeholder_svg(entry["name"]), encoding="utf-8")


def map_style_sources(maps: Path) -> str:
    """The page policy's sources for the maps' own stylesheets: the CSP hash of the text of each
    ``<style>`` of the SVGs in ``maps``, space-separated. The page puts a map into its document whole,
    and its policy allows no other inline style (docs/security.md)."""
    hashes = set()
    for path in sorted(maps.glob("*.svg")):
        for style in ET.parse(path).getroot().iter("{http://www.w3.org/2000/svg}style"):
            digest = hashlib.sha256((style.text or "").encode("utf-8")).digest()
            hashes.add(f"'sha256-{base64.b64encode(digest).decode('ascii')}'")
    return " ".join(sorted(hashes))


def placeholder_svg(title: str) -> str:
    """A blank board that says the drawing is not built yet (no renderer in this checkout)."""
    label = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 800" data-placeholder="true">'
        '<rect width="1000" height="800" fill="#dfe8ee"/>'
        f'<text x="500" y="400" text-anchor="middle" font-size="32" fill="#456">{label}</text>'
        '<text x="500" y="450" text-anchor="middle" font-size="20" fill="#456">'
        "map drawing not built (py/adjutant_maps is missing)</text></svg>\n"
    )


#: web/'s files the build fills in and writes elsewhere (sw.js: dist/sw.js; the others: runtime/pyodide/)
TEMPLATES = ("sw.js", PYODIDE_LOADER.name, SNAPSHOT_WORKER.name)


def fill_in(template: Path, **values: object) -> str:
    """The text of ``template`` (a file of web/) with each placeholder ``/*NAME*/ null`` (which keeps the
    file valid JavaScript) replaced by the JSON of ``values[NAME]``; each must occur exactly once."""
    text = template.read_text(encoding="utf-8")
    for name, value in values.items():
        placeholder = f"/*{name}*/ null"
        if text.count(placeholder) != 1:
            raise SystemExit(f"build: {template.relative_to(ROOT)} should hold {placeholder} once")
        text = text.replace(placeholder, json.dumps(value))
    return text


def content_hash(paths: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def build(dist: Path = DIST, map_processes: int | None = None) -> Path:
    """Write the whole site into `dist` (emptied first) and return it, its maps drawn by `map_processes`
    processes at once (default: one per core; 1 draws them in this process)."""
    if dist.exists():
        shutil.rmtree(dist)
    dist.mkdir(parents=True)
    # The maps are drawn (in processes of their own) while Pyodide under Node compiles the standard library
    # and the app and makes the snapshot: the two take about as long.
    with ThreadPoolExecutor(1) as drawing:
        maps = drawing.submit(write_maps, dist / "maps", map_processes or os.cpu_count() or 1)
        for rel, source in runtime_files().items():
            target = dist / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            if not (rel.endswith("/python_stdlib.zip") and write_compiled_stdlib(target)):
                shutil.copyfile(source, target)
        lock = json.loads((ROOT / "node_modules" / "pyodide" / PYODIDE_LOCK).read_text(encoding="utf-8"))
        header = {"info": lock["info"], "packages": {}}
        runtime = dist / "runtime" / "pyodide"
        snapshot = write_snapshot(runtime / "python_stdlib.zip", runtime / SNAPSHOT_NAME)
        named = None
        shutil.copytree(ROOT / "web", dist / "web", ignore=shutil.ignore_patterns(*TEMPLATES))
        if snapshot:
            packed = (runtime / SNAPSHOT_NAME).read_bytes()
            cache = SNAPSHOT_CACHE_PREFIX + hashlib.sha256(packed).hexdigest()[:16]
            worker = fill_in(SNAPSHOT_WORKER, FILE=SNAPSHOT_NAME, CACHE=cache, PREFIX=SNAPSHOT_CACHE_PREFIX)
            (runtime / SNAPSHOT_WORKER_NAME).write_text(worker, encoding="utf-8")
            named = {"size": len(gzip.decompress(packed))}
        # What the shell starts as the page loads: Pyodide's WebAssembly, and the snapshot's worker if any.
        shell = dist / "web" / "shell.js"
        started = {
            SHELL_PYODIDE_WASM: "runtime/pyodide/pyodide.asm.wasm",
            SHELL_PYODIDE_LOADER: "runtime/pyodide/adjutant-pyodide.mjs",
            SHELL_SNAPSHOT_WORKER: None,
        }
        if snapshot:
            started[SHELL_SNAPSHOT_WORKER] = SNAPSHOT_WORKER_PATH
        text = shell.read_text(encoding="utf-8")
        for placeholder, path in started.items():
            assert text.count(placeholder) == 1, f"web/shell.js has no {placeholder}"
            text = text.replace(placeholder, json.dumps(path))
        shell.write_text(text, encoding="utf-8")
        (dist / "variants.json").write_text(json.dumps(variant_index(), indent=1) + "\n", encoding="utf-8")
        # The app's folder is named after its content, so a new build's files never meet an old build's
        # in a cache.
        app = write_app(dist / "app")
        folder = f"app-{content_hash(sorted(path for path in (dist / 'app').rglob('*') if path.is_file()))}"
        (dist / "app").rename(dist / folder)
        app_files = {"folder": f"../../{folder}/", **app}
        loader = fill_in(PYODIDE_LOADER, LOCK=header, SNAPSHOT=named, RESEED=SNAPSHOT_RESEED, APP=app_files)
        (runtime / "adjutant-pyodide.mjs").write_text(loader, encoding="utf-8")
        maps.result()
    version = content_hash(sorted((dist / "web").iterdir()))
    html = (ROOT / "index.html").read_text(encoding="utf-8")
    html = html.replace("{{VERSION}}", version)
    html = html.replace("{{MAP_STYLES}}", map_style_sources(dist / "maps"))
    (dist / "index.html").write_text(html, encoding="utf-8")
    # The embed view is the same page, read-only: the CSS hides the controls for data-view="embed".
    embed = html.replace('<body data-view="play">', '<body data-view="embed">')
    embed = embed.replace('adjutant_ui.start("play")', 'adjutant_ui.start("embed")')
    (dist / "embed.html").write_text(embed, encoding="utf-8")
    write_app_manifest(dist)
    write_service_worker(dist)
    return dist


# The app's colours: the icon's field and mark, and the browser's bars around the installed app.
ICON_FIELD = (0x1D, 0x35, 0x57)
ICON_MARK = (0xF1, 0xC4, 0x53)


def css_colour(rgb: tuple[int, int, int]) -> str:
    return "#" + bytes(rgb).hex()


PNG_ICON_SIZES = (192, 512)


def star(size: int) -> list[tuple[float, float]]:
    """The icon's mark: a five-pointed star centred in a square of `size`, its ten corners in turn."""
    import math

    points = []
    for corner in range(10):
        radius = size * (0.36 if corner % 2 == 0 else 0.15)
        angle = math.pi * corner / 5 - math.pi / 2
        points.append((size / 2 + radius * math.cos(angle), size * 0.53 + radius * math.sin(angle)))
    return points


def icon_svg(size: int = 512) -> str:
    field = css_colour(ICON_FIELD)
    mark = css_colour(ICON_MARK)
    corners = " ".join(f"{x:.1f},{y:.1f}" for x, y in star(size))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}">'
        f'<rect width="{size}" height="{size}" fill="{field}"/><polygon points="{corners}" fill="{mark}"/></svg>\n'
    )


def icon_png(size: int) -> bytes:
    """The same icon as a PNG (8-bit RGB), for the platforms that install apps only with bitmap icons:
    each pixel is the mark's colour if its centre is inside the star (even-odd rule), else the field's."""
    corners = star(size)
    edges = list(zip(corners, corners[1:] + corners[:1], strict=True))
    rows = []
    for row in range(size):
        y = row + 0.5
        # Where this row crosses the star's edges: the pixels between pairs of crossings are inside.
        crossings = sorted(
            x1 + (y - y1) * (x2 - x1) / (y2 - y1) for (x1, y1), (x2, y2) in edges if (y1 > y) != (y2 > y)
        )
        line = bytearray(bytes(ICON_FIELD) * size)
        for start, end in zip(crossings[::2], crossings[1::2], strict=True):
            first, last = max(0, round(start)), min(size, round(end))
            line[3 * first : 3 * last] = bytes(ICON_MARK) * (last - first)
        rows.append(b"\0" + bytes(line))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + chunk(b"IEND", b"")
    )


def write_app_manifest(dist: Path) -> None:
    """The web app manifest and its icons: what a browser needs to offer installing the site as an app."""
    (dist / "icons").mkdir()
    (dist / "icons" / "icon.svg").write_text(icon_svg(), encoding="utf-8")
    icons = [{"src": "icons/icon.svg", "sizes": "any", "type": "image/svg+xml"}]
    for size in PNG_ICON_SIZES:
        (dist / "icons" / f"icon-{size}.png").write_bytes(icon_png(size))
        icons.append({"src": f"icons/icon-{size}.png", "sizes": f"{size}x{size}", "type": "image/png"})
    manifest = {
        "name": "Adjutant — Diplomacy adjudicator",
        "short_name": "Adjutant",
        "description": "A Diplomacy adjudicator and game table that works offline.",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": css_colour(ICON_FIELD),
        "icons": icons,
    }
    text = json.dumps(manifest, indent=1, ensure_ascii=False) + "\n"
    (dist / "manifest.webmanifest").write_text(text, encoding="utf-8")


def write_service_worker(dist: Path) -> None:
    """Write dist/sw.js: web/sw.js with the precache manifest of every other file now in `dist` (its path
    and the SHA-256 of its content) and the build's version, a hash of that manifest. Any change to any
    file is a new sw.js, so browsers fetch the new build as one whole (docs/offline.md)."""
    files = {
        path.relative_to(dist).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(dist.rglob("*"))
        if path.is_file() and path != dist / "sw.js"
    }
    listing = json.dumps(files, indent=1, sort_keys=True)
    version = hashlib.sha256(listing.encode()).hexdigest()[:16]
    worker = (ROOT / "web" / "sw.js").read_text(encoding="utf-8")
    worker = worker.replace("/*FILES*/ {}", listing).replace("/*VERSION*/", version)
    (dist / "sw.js").write_text(worker, encoding="utf-8")


class SiteServer(http.server.ThreadingHTTPServer):
    """A plain file server for a built site on 127.0.0.1 (``--serve``, the browser tests, the start-up
    benchmark): the media types the page's files need, requests logged only when ``verbose``."""

    verbose = False
    # A page's start asks for some 30 files at once and its service worker for every file of the site:
    # socketserver's backlog of 5 overflows, and the kernel then drops or defers connections.
    request_queue_size = 128

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A browser closing a connection while a file is sent (a page closed, or gone elsewhere) is no error.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
        ".svg": "image/svg+xml",
        ".json": "application/json",
        ".webmanifest": "application/manifest+json",
    }

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        if isinstance(self.server, SiteServer) and self.server.verbose:
            super().log_message(format, *args)


def site_server(root: Path, port: int = 0, verbose: bool = False) -> SiteServer:
    """A server of the folder ``root`` on 127.0.0.1 (``port`` 0: any free port), not yet serving."""
    server = SiteServer(("127.0.0.1", port), functools.partial(QuietHandler, directory=str(root)))
    server.verbose = verbose
    return server


@contextlib.contextmanager
def serving(root: Path) -> Iterator[str]:
    """Serve the folder ``root`` from a background thread while the block runs; gives its base URL."""
    server = site_server(root)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def serve(dist: Path, port: int, verbose: bool = False) -> None:
    with site_server(dist, port, verbose) as server:
        print(f"Serving Adjutant at http://127.0.0.1:{server.server_address[1]}/ (Ctrl+C stops)", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            server.serve_forever()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve", action="store_true", help="serve dist/ on 127.0.0.1 after building")
    parser.add_argument("--port", type=int, default=8000, help="port for --serve (default 8000)")
    parser.add_argument("--out", type=Path, default=DIST, help="output folder (default dist/)")
    parser.add_argument("--verbose", action="store_true", help="log every request while serving")
    args = parser.parse_args(argv)
    dist = build(args.out)
    print(f"Built {dist}")
    if args.serve:
        serve(dist, args.port, args.verbose)


if __name__ == "__main__":
    main()
