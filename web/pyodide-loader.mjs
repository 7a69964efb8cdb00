// loadPyodide with its package list given and Python's start-up snapshot: the page's interpreter module,
// written by build.py as runtime/pyodide/adjutant-pyodide.mjs with each /*NAME*/ null below filled in.
// The page stays responsive while Python starts: the snapshot is read by a worker (web/snapshot-worker.js) that
// the page's shell (web/shell.js) starts as the page loads, and Pyodide's start is split where it allows
// (before its module is made, once its WebAssembly is instantiated, its first preRun hook, its fsInit hook).
import { loadPyodide as load, version } from "./pyodide.mjs";
export { version };
const LOCK = /*LOCK*/ null;
const SNAPSHOT = /*SNAPSHOT*/ null;
const RESEED = /*RESEED*/ null;
// The page's own files (written by build.py: write_app), in `folder` beside the site's root.
const APP = /*APP*/ null;
const HOME = "/home/pyodide/";

// Resolves once the page has had its turn (input, painting): a task of its own, not a microtask.
function pageTurn() {
  if (globalThis.scheduler && typeof scheduler.yield === "function") return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

// The shell's compiled WebAssembly (a promise of the module, or of null if its compiling failed), asked
// for now if the shell has not started it yet; null where the shell does not compile it.
function shellWasm() {
  const shell = globalThis.adjutantShell;
  return shell && typeof shell.compileWasm === "function" ? shell.compileWasm() : null;
}

// Pyodide's module, set up (its WebAssembly instantiated, its file system made) while the snapshot is
// still being read, and then, if there is one, given the snapshot's bytes to restore. loadPyodide itself
// awaits the snapshot before it instantiates anything (it sizes the memory by it): it is given, as
// `_loadSnapshot`, an empty array of the snapshot's size (known at build time), and the module's
// restoreSnapshot is made to copy the real bytes instead. The WebAssembly is the module the shell
// compiled (shellWasm) where it did: Pyodide's instantiateWasm adds imports of its own and calls
// WebAssembly.instantiateStreaming, which is made, for that one call, to instantiate the shell's module.
function settingUp(memory) {
  return async (settings) => {
    const { default: createModule } = await import("./pyodide.asm.mjs");
    const compiled = shellWasm();
    const instantiate = settings.instantiateWasm;
    const streaming = WebAssembly.instantiateStreaming;
    if (compiled && instantiate) {
      settings.instantiateWasm = (imports, success) => {
        WebAssembly.instantiateStreaming = async (source, given) => {
          WebAssembly.instantiateStreaming = streaming;
          const module = await compiled;
          if (!module) return streaming(source, given);
          const instance = await WebAssembly.instantiate(module, given);
          performance.mark("adjutant:instantiated");
          // the page's turn before Pyodide takes the instance in (receiveInstance: its exports wrapped,
          // its symbol table filled, one long task of its own on a slow start)
          await pageTurn();
          return { module, instance };
        };
        return instantiate(imports, success);
      };
    }
    // The page's turn once Pyodide has taken the instance in, before its file system is set up (its
    // first preRun hook holds the start until then), and before the module's own set-up begins
    if (Array.isArray(settings.preRun)) {
      settings.preRun.unshift((emscripten) => {
        emscripten.addRunDependency("adjutant-page-turn");
        pageTurn().then(() => emscripten.removeRunDependency("adjutant-page-turn"));
      });
    }
    await pageTurn();
    let module;
    try {
      module = await createModule(settings);
    } finally {
      WebAssembly.instantiateStreaming = streaming;
    }
    performance.mark("adjutant:moduleReady");
    if (!memory) return module;
    const bytes = await memory;
    performance.mark("adjutant:snapshotReceived");
    if (bytes.length !== SNAPSHOT.size) {
      throw new Error("the snapshot has " + bytes.length + " bytes, not " + SNAPSHOT.size);
    }
    const restore = module.API.restoreSnapshot;
    module.API.restoreSnapshot = () => restore(bytes);
    return module;
  };
}

// loadPyodide, which requests Pyodide's WebAssembly as it starts: where the shell compiled the module
// already, that one request is answered with an empty response, never read (settingUp instantiates the
// shell's module instead), so the file is not fetched twice.
async function loadOnce(options) {
  const compiled = shellWasm();
  if (!compiled) return load(options);
  const wasm = new URL("./pyodide.asm.wasm", import.meta.url).href;
  const fetching = globalThis.fetch;
  const answering = function (resource, init) {
    if (String(resource) !== wasm) return fetching.apply(this, arguments);
    globalThis.fetch = fetching;
    return compiled.then((module) => (module ? new Response() : fetching(resource, init)));
  };
  globalThis.fetch = answering;
  try {
    return await load(options);
  } finally {
    if (globalThis.fetch === answering) globalThis.fetch = fetching;
  }
}

// The bytes of one file of the app's folder.
async function fetchBytes(name) {
  const response = await fetch(new URL(APP.folder + name, import.meta.url));
  if (!response.ok) throw new Error("the page's file " + name + " could not be had: HTTP " + response.status);
  return new Uint8Array(await response.arrayBuffer());
}

// The app's files, by name: fetched as one (APP.bundle holds their bytes one after the other, in the
// order and of the sizes APP.files gives), for each fetch costs the page's main thread a millisecond or more.
async function fetchApp() {
  const bytes = await fetchBytes(APP.bundle);
  const files = [];
  let at = 0;
  for (const [name, size] of APP.files) {
    files.push([name, bytes.subarray(at, at + size)]);
    at += size;
  }
  if (at !== bytes.length) throw new Error("the page's file " + APP.bundle + " is not the one this build lists");
  return files;
}

// Python's home gets the app's files: the variants' data where the engine reads them (maps/), and
// PyScript's package as bytecode (pyscript/__pycache__/). Written from here, not by PyScript's `files`,
// so they are fetched as Pyodide starts and none goes through Python. A Python restored from the
// snapshot has every module of the app imported already; one started without it gets them from the
// archive, unpacked (py/, where the page's script imports them).
async function writeApp(pyodide, files, withArchive) {
  for (const [name, bytes] of await files) {
    pyodide.FS.mkdirTree(HOME + name.slice(0, name.lastIndexOf("/")));
    pyodide.FS.writeFile(HOME + name, bytes, { canOwn: true });
  }
  if (withArchive) {
    pyodide.unpackArchive(await fetchBytes(APP.archive), "zip", { extractDir: HOME });
  }
  performance.mark("adjutant:appWritten");
}

// Pyodide started, the app's files written: the snapshot's path, falling back to a fresh start.
async function begin(settings) {
  performance.mark("adjutant:loadPyodide");
  const files = fetchApp();
  files.catch(() => {}); // a failed fetch is reported where the files are written
  // The shell's snapshot reader: { worker, memory: a promise of the bytes }, where it could start one.
  const snapshot = SNAPSHOT && globalThis.adjutantShell && globalThis.adjutantShell.snapshot;
  if (snapshot) {
    let pyodide = null;
    try {
      const given = { _loadSnapshot: new Uint8Array(SNAPSHOT.size), createPyodideModule: settingUp(snapshot.memory) };
      pyodide = await loadOnce({ ...settings, ...given });
      // The snapshot holds the generator of the random module as seeded at build time: seed it anew.
      pyodide.runPython(RESEED);
      performance.mark("adjutant:pyodideReady");
      // The shell tells the worker to keep its unpacked bytes once the page is ready and idle.
      snapshot.restored = true;
    } catch (error) {
      snapshot.worker.terminate();
      console.warn("Python's start-up snapshot could not be used; starting Python without it:", error);
    }
    if (pyodide) {
      await writeApp(pyodide, files, false);
      return pyodide;
    }
  }
  const pyodide = await loadOnce({ ...settings, createPyodideModule: settingUp(null) });
  performance.mark("adjutant:pyodideReady");
  await writeApp(pyodide, files, true);
  return pyodide;
}

// Python's start, once a page: begun by the page's shell once the map is in the page (it calls start),
// else by PyScript's call of loadPyodide, which comes later, once PyScript has loaded; either way
// PyScript is given that one Pyodide. Kept on the shell's object, not in this module, so that even two
// copies of the module share it. Python's output goes where PyScript's call asks (to the console
// until then).
function shared() {
  const shell = (globalThis.adjutantShell = globalThis.adjutantShell || {});
  if (!shell.python) {
    const output = { stdout: null, stderr: null };
    // Pyodide awaits fsInit between setting up the WebAssembly instance and restoring the memory (or
    // starting Python): the page gets its turn there.
    const settings = {
      lockFileContents: LOCK,
      fsInit: pageTurn,
      stdout: (line) => (output.stdout || console.log)(line),
      stderr: (line) => (output.stderr || console.warn)(line),
    };
    const started = begin(settings);
    started.catch(() => {}); // reported to PyScript, which awaits it
    shell.python = { output, started };
  }
  return shell.python;
}

export function start() {
  return shared().started;
}

export async function loadPyodide(options = {}) {
  const python = shared();
  if (typeof options.stdout === "function") python.output.stdout = options.stdout;
  if (typeof options.stderr === "function") python.output.stderr = options.stderr;
  return python.started;
}
