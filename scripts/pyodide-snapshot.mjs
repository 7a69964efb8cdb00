// Starts the page's Pyodide with the page's standard library (`stdlib`), imports the modules named in
// `modules` (snapshot_imports: every module of the app, and the standard library PyScript's package
// imports), puts the stand-in for PyScript's package that defers its import to its first use
// (adjutant_ui.pyscript_deferred), loads every variant (the engine keeps each loaded variant: the page
// then builds none at start), and records Pyodide's memory. The app's modules and the variants' data
// (`app`: its py/ and maps/*.json) are put where the page writes them (/home/pyodide/py and maps), so
// the modules in the snapshot have the paths, and the variants the folder, that the page's own have.
// The hash seed is given (`seed`, from the build's inputs), and the random numbers and the clock are the
// same at every build, so the same inputs make the same snapshot; the page seeds the random module anew
// (SNAPSHOT_RESEED).
import "./node-errors.mjs";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
const [pyodideModule, stdlib, app, seed, modules, out] = process.argv.slice(2);
let state = BigInt(seed) | 1n;
globalThis.crypto.getRandomValues = (view) => {
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  for (let i = 0; i < bytes.length; i++) {
    state = (state * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
    bytes[i] = Number(state >> 56n);
  }
  return view;
};
// 1 January 2000, a millisecond a reading (file times, the time modules read at import)
let tick = 0;
Date.now = () => 946684800000 + tick++;
performance.now = () => tick++;
const { loadPyodide } = await import(pyodideModule);
const pyodide = await loadPyodide({
  _makeSnapshot: true,
  _sysExecutable: "./this.program",  // as in the page
  stdLibURL: stdlib,
  env: { PYTHONHASHSEED: seed },
});
// The app's files are copied in (not mounted: the host's file times and numbers would be recorded).
const copy = (from, to) => {
  pyodide.FS.mkdirTree(to);
  for (const entry of readdirSync(from, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (entry.isDirectory()) copy(from + "/" + entry.name, to + "/" + entry.name);
    else pyodide.FS.writeFile(to + "/" + entry.name, readFileSync(from + "/" + entry.name));
  }
};
copy(app + "/py", "/home/pyodide/py");
copy(app + "/maps", "/home/pyodide/maps");
pyodide.globals.set("seed", Number(seed));
pyodide.globals.set("modules", modules);
// The UI's modules take the page's document as they are imported (js.document). Pyodide keeps a
// JavaScript value in the snapshot as the path it was reached by from the global object, and the
// restored Python follows that path in the page, to the page's own document; here a stand-in gives
// the path something to reach. Any other JavaScript value taken at import would fail the snapshot.
globalThis.document = {};
pyodide.runPython(`
import importlib, json, sys

sys.dont_write_bytecode = True
sys.path.insert(0, "/home/pyodide/py")
for name in json.loads(modules):
    importlib.import_module(name)
importlib.import_module("adjutant_ui.pyscript_deferred").defer()
from adjutant.map.variant import available_variants, load_variant
for variant_id, _name in available_variants(drafts=True):
    load_variant(variant_id)
del available_variants, load_variant
sys.path.remove("/home/pyodide/py")
for path in [path for path in sys.path_importer_cache if path.startswith("/home/pyodide")]:
    del sys.path_importer_cache[path]
importlib.invalidate_caches()
sys.dont_write_bytecode = False
if "random" in sys.modules:
    sys.modules["random"].seed(seed)
del importlib, json, modules, seed
`);
pyodide.runPython("import gc; gc.collect(); del gc");
writeFileSync(out, pyodide.makeMemorySnapshot());
