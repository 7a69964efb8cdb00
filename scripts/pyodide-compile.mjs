// Compiles every module under /src with the Pyodide the page runs (same Python, same magic number), in
// the layout given: "pycache" (__pycache__/module.cpython-3xx.pyc, for the page's own modules) or "legacy"
// (module.pyc beside module.py: where zipimport finds the standard library's bytecode without its source).
// Unchecked-hash .pyc files are independent of timestamps, so builds are repeatable.
import "./node-errors.mjs";
const [pyodideModule, folder, layout, named = ""] = process.argv.slice(2);
const { loadPyodide } = await import(pyodideModule);
const pyodide = await loadPyodide();
pyodide.FS.mkdirTree("/src");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: folder }, "/src");
pyodide.globals.set("named", named);
const ok = pyodide.runPython(`
import compileall, py_compile
compileall.compile_dir("/src", quiet=1, legacy=${layout === "legacy" ? "True" : "False"}, ddir=named or None,
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
`);
process.exitCode = ok ? 0 : 1;
