// Run Python inside real Pyodide (the npm package in node_modules) under Node, with this repository
// mounted at /repo (the working directory; py/ and the repository are on sys.path, as under pytest).
//
//   node tests/pyodide/run_python.mjs FILE.py [ARGS...]    run a file (its sys.argv gets ARGS)
//   node tests/pyodide/run_python.mjs -c 'print(1)'        run a snippet
//
// ADJUTANT_PYODIDE_SITE=<folder> mounts a folder of pure-Python packages (e.g. a virtualenv's
// site-packages, for pytest) at /site and appends it to sys.path.
//
// Python's stdout and stderr go to Node's. The exit status is 1 when the Python raised, else the
// status the Python passed to sys.exit (0 by default).
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const { loadPyodide } = await import(resolve(repo, "node_modules", "pyodide", "pyodide.mjs"));

const args = process.argv.slice(2);
if (args.length === 0) {
  console.error("usage: run_python.mjs FILE.py [ARGS...] | -c CODE [ARGS...]");
  process.exit(2);
}
let code;
let argv0;
if (args[0] === "-c") {
  code = args[1];
  argv0 = "-c";
  args.splice(0, 2);
} else {
  argv0 = resolve(args.shift());
  code = readFileSync(argv0, "utf8");
}

const pyodide = await loadPyodide();
// Raw writes (copied: Pyodide reuses the buffer), so pytest's dots come out as written.
pyodide.setStdout({ write: (bytes) => (process.stdout.write(Buffer.from(bytes)), bytes.length) });
pyodide.setStderr({ write: (bytes) => (process.stderr.write(Buffer.from(bytes)), bytes.length) });
const mounts = { "/repo": repo };
if (process.env.ADJUTANT_PYODIDE_SITE) mounts["/site"] = resolve(process.env.ADJUTANT_PYODIDE_SITE);
for (const [target, source] of Object.entries(mounts)) {
  pyodide.FS.mkdirTree(target);
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: source }, target);
}
pyodide.globals.set("_argv", pyodide.toPy([argv0, ...args]));
pyodide.globals.set("_code", code);
// The wrapper turns SystemExit and uncaught exceptions into an exit status, with Python's traceback.
const status = pyodide.runPython(`
import os, sys, traceback
sys.argv = list(_argv)
sys.path[:0] = ["/repo/py", "/repo"]
if os.path.isdir("/site"):
    sys.path.append("/site")
os.chdir("/repo")

def _run(code, filename):
    namespace = {"__name__": "__main__", "__file__": filename}
    try:
        exec(compile(code, filename, "exec"), namespace)
    except SystemExit as stop:
        if stop.code is None or isinstance(stop.code, int):
            return stop.code or 0
        print(stop.code, file=sys.stderr)
        return 1
    except BaseException:
        traceback.print_exc()
        return 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    return 0

_run(_code, sys.argv[0] if sys.argv[0] != "-c" else "<string>")
`);
process.exitCode = status;
